// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space shim: the state behind the kernel stand-ins.  SIMD sections
 * are per thread, as in the kernel they are per CPU.
 */
#include <crypto/internal/simd.h>

bool kchacha_shim_simd_usable = true;
__thread unsigned long kchacha_shim_simd_sections;
__thread int kchacha_shim_in_simd;
__thread int kchacha_shim_irqs_off;
__thread unsigned long kchacha_shim_locks;
unsigned long kchacha_shim_simd_irqs_off;
