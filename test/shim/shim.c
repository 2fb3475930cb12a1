// SPDX-License-Identifier: GPL-2.0-only
/* User-space shim: the state behind the kernel stand-ins. */
#include <crypto/internal/simd.h>

bool kchacha_shim_simd_usable = true;
unsigned long kchacha_shim_simd_sections;
int kchacha_shim_in_simd;
