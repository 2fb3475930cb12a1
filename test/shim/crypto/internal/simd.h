/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <crypto/internal/simd.h>: tests clear
 * kchacha_shim_simd_usable to take the path the kernel takes where SIMD is
 * not usable.
 */
#ifndef _SHIM_CRYPTO_INTERNAL_SIMD_H
#define _SHIM_CRYPTO_INTERNAL_SIMD_H
#include <linux/types.h>
extern bool kchacha_shim_simd_usable;
extern __thread unsigned long kchacha_shim_simd_sections;
#define crypto_simd_usable()	(kchacha_shim_simd_usable)
#ifdef __aarch64__
/* asm/neon.h: what "saved registers" look like, the last section's buffer */
#define KCHACHA_SHIM_NEON_SAVED	0xa5
struct user_fpsimd_state;
extern __thread struct user_fpsimd_state *kchacha_shim_neon_last;
#endif
#endif
