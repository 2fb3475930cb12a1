/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <asm/fpu/api.h>: SIMD sections are counted and must
 * never nest.
 */
#ifndef _SHIM_ASM_FPU_API_H
#define _SHIM_ASM_FPU_API_H
#include <stdlib.h>
#include <crypto/internal/simd.h>
extern __thread int kchacha_shim_in_simd;
static inline void kernel_fpu_begin(void)
{
	if (kchacha_shim_in_simd++)
		abort();
	kchacha_shim_simd_sections++;
}

static inline void kernel_fpu_end(void)
{
	if (--kchacha_shim_in_simd)
		abort();
}
#endif
