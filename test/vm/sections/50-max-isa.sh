# SPDX-License-Identifier: GPL-2.0-only
#
# section: 5 max_isa
# kchacha: unloaded
# skip: [ -n "$short" ] => not in the short suite
#
# max_isa caps the set; an unknown value fails the load.

set -- $(echo "$kcspec" | tr ',' ' ')
prefix=
for e in "$@"; do
	prefix=${prefix:+$prefix,}$e
	impl=${e%%:*}
	if insmod /kchacha.ko max_isa=$impl; then
		run kctest proc "$prefix"
		param_is max_isa $impl
		rmmod kchacha
	else
		no "insmod max_isa=$impl"
	fi
done
klog_clear
if insmod /kchacha.ko max_isa=bogus 2>/dev/null; then
	no "max_isa=bogus refused"
	rmmod kchacha
elif dmesg | grep -q "max_isa=bogus is not"; then
	ok "max_isa=bogus refused: $(dmesg | grep 'max_isa=bogus' | head -n 1)"
else
	no "max_isa=bogus refused with a message"
fi
kc_loaded && no "nothing registered after a refused load"
