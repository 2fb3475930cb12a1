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

/* boot_cpu_data: the vendor, family and model fields, from CPUID */
#define X86_VENDOR_INTEL	0
#define X86_VENDOR_AMD		2
#define X86_VENDOR_UNKNOWN	0xff

struct cpuinfo_x86 {
	u8 x86_vendor;
	u8 x86;
	u8 x86_model;
};

/* A test's CPU instead of this one's (test/shim/shim.c), when set */
extern const struct cpuinfo_x86 *shim_cpu_override;

static inline struct cpuinfo_x86 shim_boot_cpu_data(void)
{
	struct cpuinfo_x86 c = { .x86_vendor = X86_VENDOR_UNKNOWN };
	unsigned int a, b, cx, d, family, model;

	if (shim_cpu_override)
		return *shim_cpu_override;
	__cpuid(0, a, b, cx, d);
	if (b == 0x756e6547 && d == 0x49656e69 && cx == 0x6c65746e)
		c.x86_vendor = X86_VENDOR_INTEL;	/* GenuineIntel */
	else if (b == 0x68747541 && d == 0x69746e65 && cx == 0x444d4163)
		c.x86_vendor = X86_VENDOR_AMD;		/* AuthenticAMD */
	__cpuid(1, a, b, cx, d);
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 6)
		model += ((a >> 16) & 0xf) << 4;
	c.x86 = family;
	c.x86_model = model;
	return c;
}

#define boot_cpu_data	(shim_boot_cpu_data())
#elif defined(__aarch64__)
#define cpu_have_named_feature(f)	true
#endif
#endif
