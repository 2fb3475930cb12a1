# SPDX-License-Identifier: GPL-2.0-only
#
# The debug-kernel checks of `make check-debug` (test/debug/run), sourced by
# the setup.sh of its sections (test/debug/sections): debug_begin (section
# D0) runs before the first load of kchacha, debug_end (section D) after
# the tests every kernel gets and before the suite's kernel log check,
# which then covers these as well.
# Uses init.sh's ok, no, run, klog_clear, kc_loaded, $expect, $impls and
# $top.  Every loop is bounded in time:
#
#   kc.fuzz=N         the extra self-tests' random iterations at the load
#                     of D1 (default 100, the kernel's default; the command
#                     line may set fewer for every other load)
#   kc.stress=SECS    each kcstress run (default 5)
#   kc.cycles=N       load/unload cycles (default 20; counted, not timed:
#                     the boot's own timeout guards a hang)

KMEMLEAK=/sys/kernel/debug/kmemleak
CRYPTOMGR=/sys/module/cryptomgr/parameters

debug_arg() {
	v=$(sed -n "s/.* kc\.$1=\([^ ]*\).*/\1/p" /proc/cmdline)
	echo "${v:-$2}"
}

# Everything the kernel logged since boot.
debug_klog() {
	klog_clear
	cat /tmp/klog
}

# driver and self-test result of every kchacha driver in /proc/crypto
debug_selftests() {
	awk '/^driver/ { d = $3 } /^selftest/ && d ~ /-kchacha-/ { print d, $3 }' \
		/proc/crypto
}

# "passed" when the kmemleak scans since debug_begin found nothing.
debug_kmemleak_scan() {
	# kmemleak reports an object only once it is 5 seconds old
	sleep 6
	echo scan > $KMEMLEAK
	echo scan > $KMEMLEAK
	cat $KMEMLEAK > /tmp/kmemleak
	[ ! -s /tmp/kmemleak ]
}

debug_begin() {
	if [ -w $KMEMLEAK ] && [ "$(cat $CRYPTOMGR/noextratests 2>/dev/null)" = N ] &&
	   debug_klog | grep -q "alg: extra crypto tests enabled"; then
		ok "debug kernel: kmemleak, and the crypto manager's extra self-tests enabled"
	else
		no "debug kernel: kmemleak, and the crypto manager's extra self-tests enabled"
	fi
	# What boot leaked is not ours: report only what is new from here on.
	debug_kmemleak_scan
	echo clear > $KMEMLEAK
	klog_clear
	debug_klog_start=$(wc -l < /tmp/klog)
}

debug_end() {
	stress=$(debug_arg stress 5)
	ncycles=$(debug_arg cycles 20)
	kc_loaded && rmmod kchacha

	# D1. the extra self-tests ran at insmod on every driver and passed
	klog_clear
	fuzz=$(cat $CRYPTOMGR/fuzz_iterations)
	debug_arg fuzz 100 > $CRYPTOMGR/fuzz_iterations
	if insmod /kchacha.ko; then
		debug_selftests > /tmp/selftests
		n=$(wc -l < /tmp/selftests)
		bad=$(grep -cv ' passed$' /tmp/selftests)
		# three skciphers and an rng per implementation
		want=$((4 * $(echo "$impls" | wc -l)))
		if [ "$n" = "$want" ] && [ "$bad" = 0 ]; then
			ok "extra self-tests: $n kchacha drivers, every one 'selftest : passed'"
		else
			cat /tmp/selftests
			no "extra self-tests: $n kchacha drivers (want $want), $bad not passed"
		fi
	else
		no "insmod kchacha.ko (with the extra self-tests)"
	fi
	echo "$fuzz" > $CRYPTOMGR/fuzz_iterations
	if debug_klog | grep -E "alg: .*(fail|error)|alg: self-tests"; then
		no "crypto manager reports no failure"
	else
		ok "crypto manager reports no failure"
	fi

	# D2. every driver from both vCPUs at once, one tfm shared
	for impl in $impls; do
		for alg in chacha20 xchacha20 xchacha12; do
			run kcstress skcipher $alg-kchacha-$impl "$stress"
		done
		rng=chacha20rng-kchacha-$impl
		if grep -q "^driver *: $rng\$" /proc/crypto; then
			run kcstress rng "$rng" "$stress"
		else
			no "kcstress rng: $rng is not registered"
		fi
	done

	# D3. rmmod refused while sockets are bound and busy on both vCPUs.
	#     No fixed delay: the rmmod is tried once the socket holds the
	#     module and while kcstress still runs (on a loaded host the
	#     guest's clock runs fast against its progress).
	kcstress skcipher chacha20-kchacha-$top 20 > /tmp/busy 2>&1 &
	busy=$!
	i=0
	while [ "$(cat /sys/module/kchacha/refcnt)" = 0 ] && [ $i -lt 100 ]; do
		usleep 200000
		i=$((i + 1))
	done
	if /bin/rmmod kchacha 2>/dev/null; then
		no "rmmod refused while busy on both vCPUs"
	elif kill -0 $busy 2>/dev/null; then
		ok "rmmod refused while busy on both vCPUs"
	else
		no "rmmod refused while busy on both vCPUs: kcstress ended first"
	fi
	wait $busy
	cat /tmp/busy
	grep -q '^FAIL' /tmp/busy && no "requests during the refused rmmod"
	if rmmod kchacha && ! kc_loaded; then
		ok "rmmod once the sockets closed, nothing left"
	else
		no "rmmod once the sockets closed, nothing left"
	fi

	# D4. a failing self-test of each implementation in turn
	for impl in $impls; do
		if insmod /kchacha.ko selftest_fail=$impl 2>/dev/null; then
			[ "$impl" = generic ] && no "selftest_fail=generic fails the load"
			if debug_selftests | grep -q -- "-kchacha-$impl "; then
				no "selftest_fail=$impl: $impl left out"
			else
				ok "selftest_fail=$impl: $impl left out"
			fi
			rmmod kchacha
		elif [ "$impl" = generic ] && ! kc_loaded; then
			ok "selftest_fail=generic: load failed, nothing left"
		else
			no "selftest_fail=$impl"
		fi
	done

	# D5. load/unload cycles.  The extra self-tests have run at every
	#     load so far; here they would take most of the time without
	#     testing anything new, so only the plain ones run.  A leak or a
	#     reference kept shows in one cycle (kmemleak below, rmmod): 20
	#     are plenty, and how long they take (TCG on a loaded machine) is
	#     no result.
	echo 1 > $CRYPTOMGR/noextratests
	start=$(date +%s)
	i=0
	while [ $i -lt "$ncycles" ]; do
		insmod /kchacha.ko && rmmod kchacha || break
		i=$((i + 1))
	done
	secs=$(( $(date +%s) - start ))
	echo 0 > $CRYPTOMGR/noextratests
	if [ $i = "$ncycles" ]; then
		ok "$ncycles load/unload cycles in ${secs}s"
	else
		no "$ncycles load/unload cycles: $i done in ${secs}s"
	fi

	# D6. nothing leaked: kmemleak after the last rmmod
	kc_loaded && no "no kchacha driver left after the last rmmod"
	if debug_kmemleak_scan; then
		ok "kmemleak: no leak after the last rmmod"
	else
		head -n 60 /tmp/kmemleak
		no "kmemleak: $(grep -c '^unreferenced object' /tmp/kmemleak) unreferenced objects after the last rmmod"
	fi
	if debug_klog | tail -n +$((debug_klog_start + 1)) |
	   grep -E "kmemleak: .*(leak|error)"; then
		no "kmemleak found nothing during the run"
	fi
}
