#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of the Bochs stage (test/bochs/run), sourced by init.sh
# with kc.mode=bochs: the part of the VM suite that matters on an AVX-512
# CPU and fits in Bochs' speed.  kc.expect lists the implementations in the
# order of their priority, lowest first (test/bochs/run computes it from
# the ranking rule); the AVX-512 drivers, zmm and ymm-only, are compared
# with the in-tree ones (ref_of: chacha20-generic, chacha20-lib...).

# the console for the results: kernel messages go to /tmp/klog, checked
# at the end
dmesg -n 1
# the crypto manager's tests, off while the kernel booted
# (test/bochs/run), on again before any driver registers; the read-back
# is the check (testmgr says "self-tests disabled" once, at boot)
notests=/sys/module/cryptomgr/parameters/notests
echo 0 > $notests 2>/dev/null
[ "$(cat $notests 2>/dev/null)" = N ] &&
	ok "the crypto manager's tests on again ($notests reads N)" ||
	no "the crypto manager's tests on again ($notests reads '$(cat $notests 2>/dev/null)')"
# jitterentropy_rng refuses to load on an emulated CPU whose timing is as
# regular as Bochs' (-EFAULT from its health test); the DRBG does without
for m in $(grep -vx jitterentropy_rng /modules/order); do
	modprobe $m || no "modprobe in-tree $m"
done
# kc.ymm: whether zmm code is not preferred here (1: the kernel prefers
# ymm code on this CPU); kc.swap: the ranking of the other choice, which
# prefer_ymm forces; kc.order: the implementations in table order, the
# order max_isa takes and drivers register in
ymm=$(sed -n 's/.* kc\.ymm=\([01]\).*/\1/p' /proc/cmdline)
swap=$(sed -n 's/.* kc\.swap=\([^ ]*\).*/\1/p' /proc/cmdline)
order=$(sed -n 's/.* kc\.order=\([^ ]*\).*/\1/p' /proc/cmdline | tr ',' ' ')

# the rng of each implementation of $1 ranks 150 + the number of
# implementations below it in the ranking $2 (of the whole table, whatever
# max_isa registers); each one reads if $3 is "read"
rng_ranks() {
	for impl in $(echo "$1" | tr ',' '\n' | cut -d: -f1); do
		d=chacha20rng-kchacha-$impl
		rank=$(echo "$2" | tr ',' '\n' | cut -d: -f1 | grep -nx "$impl" | cut -d: -f1)
		rank=$((rank - 1))
		got=$(proc_of $d)
		[ "$got" = "$((150 + rank)) passed" ] &&
			ok "/proc/crypto: $d priority $((150 + rank)), selftest passed" ||
			no "/proc/crypto: $d priority $((150 + rank)), selftest passed (got: $got)"
		if [ "$3" = read ]; then
			kcapi-rng -n $d -b 4096 > /tmp/r1 && kcapi-rng -n $d -b 4096 > /tmp/r2
			[ "$(wc -c < /tmp/r1)" = 4096 ] && ! cmp -s /tmp/r1 /tmp/r2 &&
				ok "kcapi-rng -n $d: 4096 bytes, a second call differs" ||
				no "kcapi-rng -n $d: 4096 bytes, a second call differs"
		fi
	done
}
# the kc.expect set without implementation $1
without() { echo "$expect" | tr ',' '\n' | grep -v "^$1:" | paste -sd, -; }

# What the kernel logged while it booted, before kchacha was first
# loaded, is not kchacha's: under Bochs, Linux 7.3 warns about the CPU
# models' legacy topology leaves and its sha1-lib self-test fails on
# Bochs' SHA instructions.  It is shown, not judged; from the first load on
# the log must stay clean.
dmesg -c >/tmp/klog.boot
if grep -E "BUG|WARNING|Oops|Call Trace" /tmp/klog.boot; then
	echo "NOTE: the kernel logged the above while booting, before kchacha was loaded"
fi
check insmod /kchacha.ko
run kctest proc "$expect"
got=$(cat /sys/module/kchacha/parameters/prefer_ymm 2>/dev/null)
[ "$got" = "$ymm" ] &&
	ok "prefer_ymm reads $ymm, as the kernel tells for this CPU" ||
	no "prefer_ymm reads $ymm, as the kernel tells for this CPU (got: $got)"
rng_ranks "$expect" "$expect" read
avx512=$(echo "$impls" | grep -x -e avx512 -e avx512vl | sort)
[ -n "$avx512" ] || no "AVX-512 implementations expected on $(echo "$impls" | tr '\n' ' ')"

# the AVX-512 code, zmm and ymm-only, through the kernel, against the
# in-tree driver
for impl in $avx512; do
	for alg in chacha20 xchacha20 xchacha12; do
		ref=$(ref_of $alg)
		[ -n "$ref" ] || no "an in-tree $alg driver to compare with"
		run kctest quick $alg-kchacha-$impl $ref
		run kctest bad $alg-kchacha-$impl $ref
	done
	run rngtest chacha20rng-kchacha-$impl
	# zmm0-31 and k1-k7 unchanged by its requests (test/vm/guest/vregs.c)
	run vregs chacha20-kchacha-$impl xchacha12-kchacha-$impl \
		chacha20rng-kchacha-$impl
done
check rmmod kchacha
# the calibration over the four SIMD implementations, AVX-512's two too
kc_calibration "$kcspec"

if [ -n "$avx512" ]; then
	# prefer_ymm forces the other order of the AVX-512 drivers
	if insmod /kchacha.ko prefer_ymm=$((1 - ymm)); then
		run kctest proc "$swap"
		rng_ranks "$swap" "$swap"
		rmmod kchacha
	else
		no "insmod prefer_ymm=$((1 - ymm))"
	fi

	# the zmm driver's entry for requests over 1 KiB on AMD Zen 5
	# (kchacha_avx512_z32_xor(), its last 32-block pass), which no
	# emulated CPU takes by itself: forced, and compared again
	if echo "$avx512" | grep -qx avx512; then
		klog_clear
		if insmod /kchacha.ko calibrate=0 test_z32=1; then
			dmesg | grep -q "kchacha: testing: kchacha_avx512_z32 = 1" &&
				ok "test_z32=1: zmm requests over 1 KiB to kchacha_avx512_z32_xor()" ||
				no "test_z32=1: the kernel log says kchacha_avx512_z32 = 1"
			for alg in chacha20 xchacha12; do
				run kctest quick $alg-kchacha-avx512 "$(ref_of $alg)"
			done
			run vregs chacha20-kchacha-avx512
			rmmod kchacha
		else
			no "insmod calibrate=0 test_z32=1"
		fi
		klog_clear
	fi

	# max_isa=avx2: no AVX-512 driver; max_isa=avx512vl: no zmm driver
	for cap in avx2 avx512vl; do
		if [ "$cap" = avx2 ]; then
			left=$(without avx512 | tr ',' '\n' | grep -v '^avx512vl:' | paste -sd, -)
		else
			left=$(without avx512)
		fi
		if insmod /kchacha.ko max_isa=$cap; then
			run kctest proc "$left"
			rng_ranks "$left" "$expect"
			rmmod kchacha
		else
			no "insmod max_isa=$cap"
		fi
	done

	# degrade, don't fail: an AVX-512 driver whose registration fails
	# leaves that implementation out and the rest registered
	klog_clear
	for impl in $avx512; do
		n=0
		for o in $order; do
			[ "$o" = "$impl" ] && break
			n=$((n + 1))
		done
		for i in 1 4; do
			# its drivers are registered after 4 per level below
			nr=$((4 * n + i))
			if insmod /kchacha.ko fail_register=$nr; then
				run kctest proc "$(without $impl)"
				dmesg | grep -q "kchacha: $impl: registering .* failed (-12); this implementation is left out" &&
					ok "fail_register=$nr: $impl left out, one line: $(dmesg | grep "$impl: registering" | tail -n 1)" ||
					no "fail_register=$nr: $impl left out with a kernel-log line"
				rmmod kchacha
			else
				no "fail_register=$nr (an $impl driver) leaves the module loaded"
			fi
			klog_clear
		done
	done
fi

klog_clear
if grep -E "BUG|WARNING|Oops|Call Trace|kchacha: .*failed \(-22\)" /tmp/klog; then
	no "kernel log free of BUG, WARNING, Oops, Call Trace"
else
	ok "kernel log free of BUG, WARNING, Oops, Call Trace"
fi
summary
# Bochs' UART sends at its baud rate in emulated time: let it drain
# before the power goes
sleep 2
