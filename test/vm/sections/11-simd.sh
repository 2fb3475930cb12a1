# SPDX-License-Identifier: GPL-2.0-only
#
# section: 1a the SIMD drivers enter SIMD
# kchacha: loaded
# skip: [ "$top" = generic ] => only the C core here
# skip: [ -n "$debug" ] && ! grep -qw function /sys/kernel/tracing/available_tracers 2>/dev/null => no function tracer in this kernel
#
# The function tracer counts the kernel's SIMD entry
# (kernel_fpu_begin_mask() or kernel_neon_begin(), whichever the kernel
# has) called from kchacha while kctest runs each driver.  Debian's
# kernels all have the tracer: where it is missing, that fails.

T=/sys/kernel/tracing
simd_entry=
for f in kernel_fpu_begin_mask kernel_neon_begin; do
	grep -q "^$f\$" $T/available_filter_functions 2>/dev/null && simd_entry=$f
done
if [ -z "$simd_entry" ] || ! grep -qw function $T/available_tracers; then
	no "the function tracer and kernel_fpu_begin_mask or kernel_neon_begin, to count SIMD sections"
else
	for impl in $impls; do
		[ "$impl" = generic ] && continue
		echo "$simd_entry" > $T/set_ftrace_filter
		echo function > $T/current_tracer
		echo > $T/trace
		echo 1 > $T/tracing_on
		kctest quick chacha20-kchacha-$impl "$(ref_driver chacha20)" >/dev/null 2>&1
		echo 0 > $T/tracing_on
		n=$(grep -c "kctest-.* $simd_entry <-kchacha_" $T/trace)
		echo nop > $T/current_tracer
		[ "$n" -gt 0 ] &&
			ok "chacha20-kchacha-$impl runs SIMD sections ($n ${simd_entry}() calls from kchacha)" ||
			no "chacha20-kchacha-$impl runs SIMD sections (no ${simd_entry}() call from kchacha)"
	done
	echo > $T/set_ftrace_filter
fi
