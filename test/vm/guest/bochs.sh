#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of the Bochs stage (test/bochs/run), sourced by init.sh
# with kc.mode=bochs: the part of the VM suite that matters on an AVX-512
# CPU and fits in Bochs' speed.  kc.expect lists the implementations in the
# order of their priority, lowest first; the AVX-512 drivers are compared
# with the in-tree generic ones.

# the console for the results: kernel messages go to /tmp/klog, checked
# at the end
dmesg -n 1
# jitterentropy_rng refuses to load on an emulated CPU whose timing is as
# regular as Bochs' (-EFAULT from its health test); the DRBG does without
for m in $(grep -vx jitterentropy_rng /modules/order); do
	modprobe $m || no "modprobe in-tree $m"
done
klog_clear
check insmod /kchacha.ko
run kctest proc "$spec"

# the rngs rank in the skciphers' order, 150 + rank; each one reads
rank=0
for impl in $impls; do
	d=chacha20rng-kchacha-$impl
	got=$(proc_of $d)
	[ "$got" = "$((150 + rank)) passed" ] &&
		ok "/proc/crypto: $d priority $((150 + rank)), selftest passed" ||
		no "/proc/crypto: $d priority $((150 + rank)), selftest passed (got: $got)"
	kcapi-rng -n $d -b 4096 > /tmp/r1 && kcapi-rng -n $d -b 4096 > /tmp/r2
	[ "$(wc -c < /tmp/r1)" = 4096 ] && ! cmp -s /tmp/r1 /tmp/r2 &&
		ok "kcapi-rng -n $d: 4096 bytes, a second call differs" ||
		no "kcapi-rng -n $d: 4096 bytes, a second call differs"
	rank=$((rank + 1))
done

# the AVX-512 code, through the kernel, against the in-tree C driver
if echo "$impls" | grep -qx avx512; then
	for alg in chacha20 xchacha20 xchacha12; do
		run kctest quick $alg-kchacha-avx512 $alg-generic
		run kctest bad $alg-kchacha-avx512 $alg-generic
	done
	run rngtest chacha20rng-kchacha-avx512
	check rmmod kchacha

	# max_isa=avx2: no AVX-512 driver
	below=$(echo "$spec" | tr ',' '\n' | grep -v '^avx512:' | paste -sd, -)
	if insmod /kchacha.ko max_isa=avx2; then
		run kctest proc "$below"
		grep -q 'kchacha-avx512' /proc/crypto &&
			no "max_isa=avx2: no avx512 driver registered" ||
			ok "max_isa=avx2: no avx512 driver registered"
		rmmod kchacha
	else
		no "insmod max_isa=avx2"
	fi

	# degrade, don't fail: an AVX-512 driver whose registration fails
	# leaves avx512 out and the rest registered
	n=$(echo "$below" | tr ',' '\n' | grep -c .)
	klog_clear
	for i in 1 4; do
		# avx512's drivers are registered after 4 per level below
		nr=$((4 * n + i))
		if insmod /kchacha.ko fail_register=$nr; then
			run kctest proc "$below"
			dmesg | grep -q "kchacha: avx512: registering .* failed (-12); this implementation is left out" &&
				ok "fail_register=$nr: avx512 left out, one line: $(dmesg | grep 'avx512: registering' | tail -n 1)" ||
				no "fail_register=$nr: avx512 left out with a kernel-log line"
			rmmod kchacha
		else
			no "fail_register=$nr (an avx512 driver) leaves the module loaded"
		fi
		klog_clear
	done
else
	skip "the AVX-512 drivers: this CPU model has none"
	check rmmod kchacha
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
