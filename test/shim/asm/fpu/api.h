/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <asm/fpu/api.h>: SIMD sections are counted, must
 * never nest, and must not begin where crypto_simd_usable() is false.  A section begun with a shimmed irqsave spinlock held
 * ("interrupts off") is counted in kchacha_shim_simd_irqs_off.
 */
#ifndef _SHIM_ASM_FPU_API_H
#define _SHIM_ASM_FPU_API_H
#include <stdlib.h>
#include <crypto/internal/simd.h>
#include <linux/spinlock.h>
extern __thread int kchacha_shim_in_simd;
extern unsigned long kchacha_shim_simd_irqs_off;
static inline void kernel_fpu_begin(void)
{
	/* nested, or where the caller was told SIMD is not usable */
	if (kchacha_shim_in_simd++ || !kchacha_shim_simd_usable)
		abort();
	kchacha_shim_simd_sections++;
	if (kchacha_shim_irqs_off)
		__atomic_fetch_add(&kchacha_shim_simd_irqs_off, 1,
				   __ATOMIC_RELAXED);
}

static inline void kernel_fpu_end(void)
{
	if (--kchacha_shim_in_simd)
		abort();
}
#endif
