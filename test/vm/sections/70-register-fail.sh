# SPDX-License-Identifier: GPL-2.0-only
#
# section: 7 failing registrations
# kchacha: unloaded
# skip: [ -n "$short" ] => not in the short suite
# skip: [ "$hooks" != 1 ] => the module users build has no fail_register
#
# A failing registration: of a generic driver (the first four), the load
# fails and nothing is left; of a SIMD driver, that implementation is left
# out with one kernel-log line and the module loads with the rest (drivers
# register four per implementation, in the order of kc.expect).

ndrivers=$((4 * $(echo "$impls" | grep -c .)))
for i in $(seq 1 "$ndrivers"); do
	klog_clear
	if [ "$i" -le 4 ]; then
		if insmod /kchacha.ko fail_register=$i 2>/dev/null; then
			no "fail_register=$i fails the load"
			rmmod kchacha
		elif kc_loaded; then
			no "fail_register=$i: drivers left registered"
		else
			ok "fail_register=$i: load failed, nothing left registered"
		fi
		continue
	fi
	e=$(echo "$kcspec" | cut -d, -f$(( (i - 1) / 4 + 1 )))
	impl=${e%%:*}
	if insmod /kchacha.ko fail_register=$i; then
		run kctest proc "$(echo "$kcspec" | tr ',' '\n' | grep -v "^$impl:" | paste -sd, -)"
		[ "$(dmesg | grep -c "kchacha: $impl: registering .* failed (-12); this implementation is left out")" = 1 ] &&
			ok "fail_register=$i: $impl left out, the module loaded: $(dmesg | grep "kchacha: $impl: registering")" ||
			no "fail_register=$i: one kernel-log line naming $impl"
		rmmod kchacha
	else
		no "fail_register=$i (a $impl driver) leaves the module loaded"
	fi
done
