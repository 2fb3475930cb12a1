# SPDX-License-Identifier: GPL-2.0-only
#
# section: d9 a clean kernel log
# kchacha: own
#
# No BUG, WARNING, Oops or Call Trace in the kernel log of the boot.

klog_clear
if grep -E "BUG|WARNING|Oops|Call Trace" /tmp/klog; then
	no "docs: kernel log free of BUG, WARNING, Oops, Call Trace"
else
	ok "docs: kernel log free of BUG, WARNING, Oops, Call Trace"
fi
