/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <asm/simd.h>: see crypto/internal/simd.h. */
#ifndef _SHIM_ASM_SIMD_H
#define _SHIM_ASM_SIMD_H
#include <crypto/internal/simd.h>
#ifdef __aarch64__
/* arm64 7.x has it; kchacha_compat.h only tests that it is defined */
#define scoped_ksimd()	kchacha_shim_scoped_ksimd_is_not_shimmed()
#endif
#endif
