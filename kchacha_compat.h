/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha_compat.h: every difference between the kernels kchacha builds
 * for (Linux 6.1 and later), in one place.  The sources include this
 * instead of the headers that moved, and never test LINUX_VERSION_CODE
 * themselves.
 */
#ifndef _KCHACHA_COMPAT_H
#define _KCHACHA_COMPAT_H

#include <linux/version.h>

/* 6.12 moved <asm/unaligned.h> to <linux/unaligned.h>. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#if defined(CONFIG_X86) && !defined(KCHACHA_USERSPACE)
#include <asm/cpufeature.h>
#include <asm/cpu_device_id.h>
#include <asm/processor.h>

/*
 * kchacha_zmm_lowers_clock() - true on CPUs where 512-bit instructions
 * lower the core clock enough that ymm code is the better default: Intel
 * Skylake-SP/X.  Kernels that know it mark them X86_FEATURE_PREFER_YMM;
 * before that, the in-tree poly1305 glue tests the model, as here
 * (<asm/cpu_device_id.h> brings the model names, and on 6.10+ VFM_MAKE).
 * The macros each kernel defines decide, not its version number.
 */
static inline bool kchacha_zmm_lowers_clock(void)
{
#if defined(X86_FEATURE_PREFER_YMM)
	return boot_cpu_has(X86_FEATURE_PREFER_YMM);
#elif defined(INTEL_SKYLAKE_X)
	/* 6.10 and later: vendor, family and model in one word */
	return boot_cpu_data.x86_vfm == INTEL_SKYLAKE_X;
#else
	return boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	       boot_cpu_data.x86 == 6 &&
	       boot_cpu_data.x86_model == INTEL_FAM6_SKYLAKE_X;
#endif
}
#else
static inline bool kchacha_zmm_lowers_clock(void)
{
	return false;
}
#endif

#endif /* _KCHACHA_COMPAT_H */
