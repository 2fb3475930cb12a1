# SPDX-License-Identifier: GPL-2.0-only
# Sourced by init.sh in a test build.  regrace (section 7b): a SIMD
# implementation's registration fails (fail_register=N, one of its later
# drivers) while a task binds that implementation's first driver and
# holds it until the load has returned, so that the failing load unwinds
# an implementation a user holds.  Tried
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

# secs FROM TO: seconds from one /proc/uptime reading to another
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
# lt A B: A < B, as numbers
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }
# klog_at TEXT: the printk time of the first kernel-log line with TEXT
klog_at() { dmesg | sed -n "s/^\[ *\([0-9]*\.[0-9]*\)\].*$1.*/\1/p" | sed -n 1p; }

# retire_held N [kill]: the C core's registration N (2..4) fails while a
# task holds chacha20-kchacha-generic, bound during the load and kept
# past it.  The load waits for it at most KCHACHA_RETIRE_WAIT_MS (5 s;
# with "kill", SIGKILL to insmod once it waits ends the wait at once),
# then succeeds with no driver reachable, and the kernel log names the
# held driver and what the module does; no hung-task warning or other
# splat; the drivers registered before the failure do not bind (ENOENT)
# and chacha20 is not kchacha's; rmmod is refused while the socket is
# bound and succeeds once it is closed, nothing left.  Tried until the
# binder got its driver during a load (up to 10 loads, each failing as
# before where it did not).
retire_held() {
	local n=$1 kill=${2:-} try rc t0 t1 w0 w1 d ipid held=0 drivers what
	local modprobe=$(cat /proc/sys/kernel/modprobe)
	local wait_line="kchacha: generic: registration failed; chacha20-kchacha-generic is in use: waiting up to 5000 ms"
	local kept_line="kchacha: generic: registration failed; chacha20-kchacha-generic still held: the module stays loaded with no drivers until rmmod"
	local splat="WARNING|blocked for more than|hung_task|refcount_t|BUG|Call Trace|Oops"

	what="fail_register=$n (generic) while a task holds chacha20-kchacha-generic past the load${kill:+, insmod killed in the wait}"
	drivers=$(echo chacha20 xchacha20 xchacha12 | cut -d' ' -f-$((n - 1)) |
		sed 's/\([a-z0-9]*\)/\1-kchacha-generic/g')
	# a bind to a missing driver must not modprobe kchacha meanwhile
	echo /nonexistent > /proc/sys/kernel/modprobe
	for try in 1 2 3 4 5 6 7 8 9 10; do
		klog_clear
		rm -f /tmp/release
		binder 120 chacha20-kchacha-generic /tmp/release > /tmp/binder 2>&1 &
		bpid=$!
		t0=$(cut -d' ' -f1 /proc/uptime)
		/bin/insmod /kchacha.ko fail_register="$n" 2>/dev/null &
		ipid=$!
		if [ -n "$kill" ]; then
			# SIGKILL once the load waits, or it ended
			while kill -0 $ipid 2>/dev/null &&
			      ! dmesg | grep -q "$wait_line"; do
				usleep 20000
			done
			w0=$(cut -d' ' -f1 /proc/uptime)
			kill -9 $ipid 2>/dev/null
		fi
		wait $ipid
		rc=$?
		t1=$(cut -d' ' -f1 /proc/uptime)
		if ! grep -q "^binder: bound" /tmp/binder; then
			# not bound during the load: it failed as before
			touch /tmp/release
			wait $bpid
			if [ $rc = 0 ]; then
				no "$what: insmod without a holder fails (try $try)"
				rmmod kchacha
				break
			fi
			kc_loaded && { no "$what: drivers left after a failed load (try $try)"; break; }
			continue
		fi
		held=$try
		if [ -n "$kill" ]; then
			# ended by the signal, before its 5 s bound: printk
			# times, the guest's own, with the whole bound as the
			# margin (a vCPU the host starves for a while is no
			# failure; a wait that ignores the signal runs 5 s)
			w1=$(klog_at "waiting up to 5000 ms")
			d=$(klog_at "the wait for its drivers' users ended by a fatal signal")
			if [ -z "$d" ]; then
				no "$what: dmesg: the wait ended by the signal"
			elif [ -z "$w1" ]; then
				ok "$what: dmesg: the wait ended by the signal"
				skip "7c the killed wait's length: no printk times in this kernel's log"
			else
				d=$(secs "$w1" "$d")
				ok "$what: dmesg: the wait ended by the signal"
				lt "$d" 4.9 &&
					ok "$what: the wait ends at SIGKILL, before its bound ($d s; insmod ended $(secs "$w0" "$t1") s after the signal)" ||
					no "$what: the wait ends at SIGKILL, before its 5 s bound (it took $d s)"
			fi
		else
			[ $rc = 0 ] && ok "$what: insmod succeeds, in $(secs "$t0" "$t1") s" ||
				no "$what: insmod succeeds (exit $rc, in $(secs "$t0" "$t1") s)"
			lt "$(secs "$t0" "$t1")" 60 ||
				no "$what: insmod returns within 60 s (took $(secs "$t0" "$t1") s)"
			# from the failure to giving up: the bound, no more
			w0=$(klog_at "kchacha: generic: registering .* failed")
			w1=$(klog_at "still held: the module stays")
			if [ -n "$w0" ] && [ -n "$w1" ]; then
				d=$(secs "$w0" "$w1")
				lt 4.9 "$d" && lt "$d" 9 &&
					ok "$what: the failing load waits its bound for the holder, $d s" ||
					no "$what: the failing load waits its bound for the holder, 5 s, no more (waited $d s)"
			else
				skip "7c the wait's length: no printk times in this kernel's log"
			fi
		fi
		dmesg | grep -q "$wait_line" && dmesg | grep -q "$kept_line" &&
			[ "$(dmesg | grep -c "still held")" = 1 ] &&
			ok "$what: dmesg names the held driver and what the module does: $(dmesg | grep "still held")" ||
			no "$what: dmesg names the held driver (\"$wait_line\", then \"$kept_line\")"
		kc_loaded && ok "$what: the module stays loaded, its held drivers registered" ||
			no "$what: the module stays loaded, its held drivers registered"
		run kctest refused skcipher $drivers
		kctest which skcipher chacha20 > /tmp/which 2>&1
		grep -q '^risen chacha20 ' /tmp/which && ! grep -q -- '-kchacha-' /tmp/which &&
			ok "$what: chacha20 binds to $(sed -n 's/^risen chacha20 //p' /tmp/which), not kchacha's" ||
			no "$what: chacha20 binds, not to kchacha's: $(cat /tmp/which)"
		/bin/rmmod kchacha 2>/dev/null &&
			no "$what: rmmod refused while the socket is bound" ||
			ok "$what: rmmod refused while the socket is bound"
		touch /tmp/release
		wait $bpid
		rmmod kchacha && ok "$what: rmmod once the socket is closed" ||
			no "$what: rmmod once the socket is closed"
		kc_loaded && no "$what: drivers left after rmmod"
		dmesg | grep -E "$splat" &&
			no "$what: no hung-task warning, WARNING or splat" ||
			ok "$what: no hung-task warning, WARNING or splat"
		break
	done
	echo "$modprobe" > /proc/sys/kernel/modprobe
	[ $held -gt 0 ] ||
		no "$what: the binder never got chacha20-kchacha-generic during a load (10 loads)"
}
