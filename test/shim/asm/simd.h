/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <asm/simd.h>: see crypto/internal/simd.h. */
#include <crypto/internal/simd.h>
