# SPDX-License-Identifier: GPL-2.0-only
# Sourced by init.sh in a test build: a SIMD implementation's registration
# fails (fail_register=N, one of its later drivers) while a task binds that
# implementation's first driver and holds it until the load has returned,
# so that the failing load unwinds an implementation a user holds.  Tried
# until the binder got its driver during a load (up to 10 loads): no
# warning or refcount splat, the held drivers hidden (the kernel log says
# so) and unregistered at rmmod, nothing left.
regrace() {
	local impl=$1 n=$2 try binds held=0 kept=0 bad=0
	local modprobe=$(cat /proc/sys/kernel/modprobe)
	# a bind to a missing driver must not modprobe kchacha meanwhile
	echo /nonexistent > /proc/sys/kernel/modprobe
	for try in 1 2 3 4 5 6 7 8 9 10; do
		klog_clear
		rm -f /tmp/release
		binder 120 "chacha20-kchacha-$impl" /tmp/release > /tmp/binder 2>&1 &
		bpid=$!
		insmod /kchacha.ko fail_register="$n" ||
			{ bad=1; echo "regrace: insmod fail_register=$n failed"; }
		touch /tmp/release
		wait $bpid
		binds=$(sed -n 's/^binder: \([0-9]*\) binds.*/\1/p' /tmp/binder)
		dmesg | grep -q "$impl: drivers in use stay registered, unreachable" &&
			kept=$((kept + 1))
		rmmod kchacha || { bad=1; echo "regrace: rmmod kchacha failed"; }
		kc_loaded && { bad=1; echo "regrace: drivers left after rmmod"; }
		dmesg | grep -E "WARNING|refcount_t|BUG|Call Trace|Oops" && bad=1
		[ "${binds:-0}" -gt 0 ] && held=$try
		[ "$bad" = 0 ] && [ "$held" = 0 ] || break
	done
	echo "$modprobe" > /proc/sys/kernel/modprobe
	[ $bad = 0 ] && [ $held -gt 0 ] && [ $kept = 1 ] &&
		ok "fail_register=$n ($impl) while a task holds chacha20-kchacha-$impl it bound during the load (load $held): hidden at the unwind, no warning, rmmod clean, nothing left" ||
		no "fail_register=$n ($impl) while a task holds chacha20-kchacha-$impl (bound during load ${held:-none} of 10, hidden $kept times): a warning, a refused rmmod, something left, or never bound"
}
