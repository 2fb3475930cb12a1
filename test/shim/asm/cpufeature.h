/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <asm/cpufeature.h>: the CPU tests the table uses. */
#ifndef _SHIM_ASM_CPUFEATURE_H
#define _SHIM_ASM_CPUFEATURE_H
#include <linux/types.h>
#if defined(__x86_64__)
#include <cpuid.h>

/* leaf * 64 + register * 32 + bit: leaf 1 ecx = 0, leaf 7 ebx = 1 */
#define X86_FEATURE_SSSE3	(0 * 32 + 9)
#define X86_FEATURE_OSXSAVE	(0 * 32 + 27)
#define X86_FEATURE_AVX		(0 * 32 + 28)
#define X86_FEATURE_AVX2	(1 * 32 + 5)
#define X86_FEATURE_AVX512F	(1 * 32 + 16)
#define X86_FEATURE_AVX512BW	(1 * 32 + 30)
#define X86_FEATURE_AVX512VL	(1 * 32 + 31)

#define XFEATURE_MASK_SSE	(1ULL << 1)
#define XFEATURE_MASK_YMM	(1ULL << 2)
#define XFEATURE_MASK_AVX512	(7ULL << 5)

static inline bool boot_cpu_has(int f)
{
	unsigned int a, b, c, d;

	if (f < 32) {
		__cpuid(1, a, b, c, d);
		return (c >> f) & 1;
	}
	__cpuid_count(7, 0, a, b, c, d);
	return (b >> (f - 32)) & 1;
}

static inline int cpu_has_xfeatures(u64 mask, const char **name)
{
	unsigned int lo, hi;

	(void)name;
	if (!boot_cpu_has(X86_FEATURE_OSXSAVE))
		return 0;
	__asm__ ("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((((u64)hi << 32) | lo) & mask) == mask;
}
#elif defined(__aarch64__)
#define cpu_have_named_feature(f)	true
#endif
#endif
