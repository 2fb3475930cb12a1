# SPDX-License-Identifier: GPL-2.0-only
#
# section: 3 tcrypt mode=214
# kchacha: loaded
# skip: [ -n "$short" ] => not in the short suite
#
# tcrypt's chacha20 speed test picks the highest-priority driver:
# kchacha's best, unless an in-tree one ranks above it (chacha20-lib, 300,
# above kchacha's generic 110 on 7.x).

klog_clear
want=chacha20-kchacha-$top
best=$(top_intree_of chacha20)
set -- $(proc_of $want) $(proc_of "$best")
[ "${3:-0}" -gt "$1" ] && want=$best
[ "$(top_of chacha20)" = "$want" ] ||
	no "/proc/crypto: the highest-priority chacha20 is $want (got $(top_of chacha20))"
insmod /modules/tcrypt.ko mode=214 2>/dev/null
if dmesg | grep -q "testing speed of .*chacha20 ($want) encryption" &&
   ! dmesg | grep -qi "fail"; then
	ok "tcrypt mode=214 ran on $want ($(dmesg | grep -c 'operation in') sizes)"
else
	dmesg | tail -n 20
	no "tcrypt mode=214 on $want"
fi
