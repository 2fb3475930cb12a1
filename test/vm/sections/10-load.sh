# SPDX-License-Identifier: GPL-2.0-only
#
# section: 1 load, /proc/crypto, differential and bad-input tests
# kchacha: loads
#
# Every driver registered with its priority and self-tested, the module's
# parameters, then the differential and bad-input tests of every driver
# (kctest quick, fewer lengths, in the short suite and the debug one).

check insmod /kchacha.ko
run kctest proc "$kcspec"
# 32-bit ARM: the default chacha20 on this core, as /proc/crypto ranks it.
# On Cortex-A7 and A5 (CPU implementer 0x41, part 0xc07 or 0xc05) the
# kernel's scalar code (chacha20-arm; the scalar path of chacha20-lib on
# 7.x) is faster than any NEON code, and kchacha's NEON must rank below it;
# on the other cores with NEON, kchacha's NEON is the default.
if [ "$(uname -m)" = armv7l ] && echo "$impls" | grep -qx neon; then
	# the kernel's ARM ChaCha module where it has one (6.x; packed by
	# test/vm/run outside the module tree), for this check alone
	armmod=
	if [ -e /modules/extra/chacha-neon.ko ]; then
		insmod /modules/extra/chacha-neon.ko && armmod=chacha_neon ||
			no "insmod /modules/extra/chacha-neon.ko"
	fi
	armcpu="$(sed -n 's/^CPU implementer[[:space:]]*: //p' /proc/cpuinfo | head -n 1) $(
		sed -n 's/^CPU part[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	kp=$(proc_of chacha20-kchacha-neon | cut -d' ' -f1)
	dflt=$(top_of chacha20)
	case $armcpu in
	"0x41 0xc07" | "0x41 0xc05")
		scalar=
		for d in chacha20-arm chacha20-lib; do
			[ -n "$(proc_of $d)" ] && scalar=$d && break
		done
		sp=$(proc_of "$scalar" | cut -d' ' -f1)
		[ -n "$scalar" ] && [ "${kp:-999}" -lt "${sp:-0}" ] &&
		[ "$dflt" = "$scalar" ] &&
			ok "CPU $armcpu (Cortex-A7/A5): chacha20-kchacha-neon ($kp) ranks below the kernel's scalar $scalar ($sp), the default chacha20" ||
			no "CPU $armcpu (Cortex-A7/A5): chacha20-kchacha-neon (${kp:-none}) ranks below the kernel's scalar driver (${scalar:-none} ${sp:-}), the default chacha20 (got $dflt)"
		;;
	*)
		[ "$dflt" = chacha20-kchacha-neon ] &&
			ok "CPU $armcpu: chacha20-kchacha-neon ($kp) is the default chacha20" ||
			no "CPU $armcpu: chacha20-kchacha-neon (${kp:-none}) is the default chacha20 (got $dflt)"
		;;
	esac
	[ -z "$armmod" ] || rmmod $armmod || no "rmmod $armmod"
fi
param_is max_isa "(null)"
param_is rng_prefer N
# x86 only: which AVX-512 drivers rank first (test/bochs/run tests it
# where AVX-512 runs).  It is resolved by the CPU model whether the CPU
# has AVX-512 or not: where the host knows the kernel's answer for the
# model (kc.ymm=, test/vm/run's YMM), it must be that.
if [ "$(uname -m)" = x86_64 ]; then
	f=/sys/module/kchacha/parameters/prefer_ymm
	ymm=$(sed -n 's/.* kc\.ymm=\([01]\).*/\1/p' /proc/cmdline)
	if [ -n "$ymm" ]; then
		param_is prefer_ymm "$ymm"
	else
		[ -r $f ] && ok "$f reads '$(cat $f)'" || no "$f readable"
	fi
fi
params="selftest_fail fail_register"
[ "$(uname -m)" = x86_64 ] && params="$params test_z32"
for p in $params; do
	f=/sys/module/kchacha/parameters/$p
	if [ "$hooks" = 1 ]; then
		case $p in
		selftest_fail) param_is $p "(null)" ;;
		test_z32) param_is $p -1 ;;
		*) param_is $p 0 ;;
		esac
	elif [ "$hooks" = 0 ]; then
		[ -e $f ] && no "$f absent from a build without KCHACHA_TEST" ||
			ok "$f absent from a build without KCHACHA_TEST"
	else
		no "kc.hooks=0 or 1 on the kernel command line"
	fi
done
for impl in $impls; do
	for alg in chacha20 xchacha20 xchacha12; do
		eval "ref=\$ref_$alg"
		run kctest $difftest $alg-kchacha-$impl $ref
		run kctest bad $alg-kchacha-$impl $ref
	done
done
