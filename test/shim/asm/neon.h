/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <asm/neon.h>: same accounting as the x86 one. */
#ifndef _SHIM_ASM_NEON_H
#define _SHIM_ASM_NEON_H
#include <asm/fpu/api.h>
#define kernel_neon_begin()	kernel_fpu_begin()
#define kernel_neon_end()	kernel_fpu_end()
#ifdef __arm__
#include <sys/auxv.h>
/* the kernel's HWCAP_NEON, as user space sees it in AT_HWCAP */
#define cpu_has_neon()		(!!(getauxval(AT_HWCAP) & (1 << 12)))
#endif
#endif
