#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of the docs boot (test/vm/docs), sourced by init.sh with
# kc.mode=docs: the VM examples of the documentation, which
# test/docs/examples.py wrote to /docs/blocks as NN-NAME.sh (the commands
# as run) and NN-NAME.setup (what runs before them, not shown), in the
# documents' order.  Each runs with `sh -e` in /docs/work, a directory
# holding kchacha.ko as the tree does after `make`, as root (sudo runs
# the command as it is), the kernel loading modules on demand as on a
# host.  Its output is framed for the host, which compares it with what
# the document shows:
#   KCDOC BEGIN NAME / KCDOC NAME| <line> / KCDOC END NAME rc=N

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
for b in /docs/blocks/*.sh; do
	[ -e "$b" ] || { no "docs: no examples in /docs/blocks"; break; }
	n=$(basename "$b" .sh)
	n=${n#*-}
	s=${b%.sh}.setup
	if [ -e "$s" ]; then
		(cd /docs/work && sh -e "$s") < /dev/null > /tmp/docsetup 2>&1 ||
			{ no "docs: the setup of $n failed"; sed 's/^/    /' /tmp/docsetup; }
	fi
	# an example that waits (for input, a device) fails, in 180 s
	cat /docs/prelude.sh "$b" > /tmp/docblock.sh
	(cd /docs/work && timeout 180 sh -e /tmp/docblock.sh) < /dev/null > /tmp/docout 2>&1
	rc=$?
	echo "KCDOC BEGIN $n"
	sed "s/^/KCDOC $n| /" /tmp/docout
	echo "KCDOC END $n rc=$rc"
	if [ "$rc" = 0 ]; then ok "docs: $n ran"; else no "docs: $n exited $rc"; fi
done
klog_clear
if grep -E "BUG|WARNING|Oops|Call Trace" /tmp/klog; then
	no "docs: kernel log free of BUG, WARNING, Oops, Call Trace"
else
	ok "docs: kernel log free of BUG, WARNING, Oops, Call Trace"
fi
summary
