# SPDX-License-Identifier: GPL-2.0-only
#
# The docs boot's set (test/vm/docs): the VM examples of the
# documentation, which test/docs/examples.py wrote to /docs/blocks as
# NN-NAME.sh (the commands as run) and NN-NAME.setup (what runs before
# them, not shown), in the documents' order (section d1), and a clean
# kernel log (d9).  Each runs with `sh -e` in /docs/work, a directory
# holding kchacha.ko as the tree does after `make`, as root (sudo runs
# the command as it is), the kernel loading modules on demand as on a
# host.  Its output is framed for the host, which compares it with what
# the document shows:
#   KCDOC BEGIN NAME / KCDOC NAME| <line> / KCDOC END NAME rc=N
# This file, sourced by init.sh before the sections, sets up what they
# share.

dmesg -n 1
# modules load on demand (request_module), as on a host; kchacha from
# updates/ by modprobe or an algorithm's alias
echo /bin/modprobe > /proc/sys/kernel/modprobe
mkdir -p /run /docs/work /usr/local/bin
mount -t tmpfs run /run
cp /kchacha.ko /docs/work/
printf '#!/bin/sh\nexec "$@"\n' > /usr/local/bin/sudo
chmod +x /usr/local/bin/sudo
export PATH=/usr/local/bin:/usr/sbin:/bin:/sbin
export DM_DISABLE_UDEV=1
# busybox's sh runs its own applets (its ip) before what PATH finds, but a
# function before them: each block starts with one for each of Debian's
# tools in /usr/sbin
for f in /usr/sbin/*; do
	echo "$(basename "$f")() { $f \"\$@\"; }"
done > /docs/prelude.sh
mkdir -p /run/cryptsetup
