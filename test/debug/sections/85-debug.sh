# SPDX-License-Identifier: GPL-2.0-only
#
# section: D the debug kernel's own checks (D1-D6)
# kchacha: unloaded
#
# The extra self-tests at insmod, every driver from both vCPUs at once,
# rmmod refused while busy, failing self-tests, load/unload cycles (the
# suite's section 8 leaves them to it) and kmemleak after the last rmmod
# (test/vm/guest/debug.sh).

debug_end
