/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <asm/neon.h>: same accounting as the x86 one. */
#ifndef _SHIM_ASM_NEON_H
#define _SHIM_ASM_NEON_H
#include <asm/fpu/api.h>
#ifdef __aarch64__
/*
 * arm64 as of Linux 7.x: the caller's buffer, where the kernel saves the
 * section's registers when it is scheduled out (shim.c plays that at every
 * section's end; test/unit checks that the caller wipes them).
 */
struct user_fpsimd_state {
	__uint128_t vregs[32];
	u32 fpsr;
	u32 fpcr;
	u32 __reserved[2];
};

void kernel_neon_begin(struct user_fpsimd_state *state);
void kernel_neon_end(struct user_fpsimd_state *state);
#else
#define kernel_neon_begin()	kernel_fpu_begin()
#define kernel_neon_end()	kernel_fpu_end()
#endif
#ifdef __arm__
#include <sys/auxv.h>
/* the kernel's HWCAP_NEON, as user space sees it in AT_HWCAP */
#define cpu_has_neon()		(!!(getauxval(AT_HWCAP) & (1 << 12)))
#endif
#endif
