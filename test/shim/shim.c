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
__thread int kchacha_shim_bh_off;
__thread unsigned long kchacha_shim_locks;
void (*kchacha_shim_local_lock_hook)(void);
unsigned long kchacha_shim_simd_irqs_off;

#ifdef __x86_64__
#include <asm/cpufeature.h>

const struct cpuinfo_x86 *shim_cpu_override;
#endif

#ifdef __aarch64__
#include <stdlib.h>
#include <string.h>
#include <asm/neon.h>

/* the buffer of the open section, and of the last one */
static __thread struct user_fpsimd_state *kchacha_shim_neon_state;
__thread struct user_fpsimd_state *kchacha_shim_neon_last;

void kernel_neon_begin(struct user_fpsimd_state *state)
{
	if (!state)
		abort();
	kernel_fpu_begin();
	kchacha_shim_neon_state = state;
	kchacha_shim_neon_last = state;
}

/*
 * As if the task had been scheduled out in the section: the kernel saves
 * the registers, here KCHACHA_SHIM_NEON_SAVED bytes, in the caller's buffer.
 */
void kernel_neon_end(struct user_fpsimd_state *state)
{
	if (state != kchacha_shim_neon_state)
		abort();
	memset(state, KCHACHA_SHIM_NEON_SAVED, sizeof(*state));
	kchacha_shim_neon_state = NULL;
	kernel_fpu_end();
}
#endif
