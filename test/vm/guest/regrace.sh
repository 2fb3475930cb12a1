# SPDX-License-Identifier: GPL-2.0-only
# Sourced by init.sh in a test build: a SIMD implementation's registration
# fails (fail_register) while a task keeps binding that implementation's
# first driver.  No warning or refcount splat, rmmod clean, nothing left.
regrace() {
	local impl=$1 n=$2 try binds=0 bad=0 kept=0
	local modprobe=$(cat /proc/sys/kernel/modprobe)
	# a bind to a missing driver must not modprobe kchacha meanwhile
	echo /nonexistent > /proc/sys/kernel/modprobe
	for try in 1 2 3 4 5; do
		klog_clear
		binder 8 "chacha20-kchacha-$impl" > /tmp/binder 2>&1 &
		bpid=$!
		insmod /kchacha.ko fail_register="$n" || bad=1
		wait $bpid
		binds=$((binds + $(sed -n 's/^binder: \([0-9]*\) binds.*/\1/p' /tmp/binder)))
		dmesg | grep -q "stay registered, unreachable" && kept=$((kept + 1))
		rmmod kchacha || bad=1
		kc_loaded && bad=1
		dmesg | grep -E "WARNING|refcount_t|BUG:|Call Trace" && bad=1
		[ $binds -gt 0 ] && break
	done
	echo "$modprobe" > /proc/sys/kernel/modprobe
	[ $bad = 0 ] && [ $binds -gt 0 ] &&
		ok "fail_register=$n ($impl) while a task binds chacha20-kchacha-$impl ($binds binds, held at the unwind $kept times): no warning, rmmod clean, nothing left" ||
		no "fail_register=$n ($impl) while a task binds chacha20-kchacha-$impl ($binds binds, $kept held): a warning, a refused rmmod, something left, or no bind"
}
