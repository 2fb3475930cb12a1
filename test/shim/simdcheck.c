// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space shim: every SIMD routine of kchacha_impls[] runs only inside a
 * SIMD section.
 *
 * The test programs link with test/unit/Makefile's SIMDCHECK_LDFLAGS,
 * ld's --wrap of each assembly entry below: every reference from another
 * object (the table in chacha_core.c, the tests) reaches __wrap_<entry>,
 * which aborts, naming the entry, unless a section that kernel_fpu_begin()
 * or kernel_neon_begin() opened (kchacha_simd_begin()) is open on the
 * calling thread, and counts the call.  So whatever calls an
 * implementation, today's code or a rewrite of rng.c, is checked without
 * asking: in the kernel such a call clobbers the vector registers of the
 * task (user space's, during a syscall) or of whoever owns the FPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <asm/fpu/api.h>
#include "test/shim/simdcheck.h"

__thread unsigned long kchacha_shim_simd_calls;
__thread unsigned int kchacha_shim_simd_longest;
void (*kchacha_shim_simd_hook)(const char *entry, unsigned int len);

static void kchacha_shim_simd_check(const char *entry)
{
	if (!kchacha_shim_in_simd) {
		/* both: a test may be capturing either */
		fflush(NULL);
		fprintf(stderr,
			"FAIL shim: %s called outside a SIMD section\n",
			entry);
		printf("FAIL shim: %s called outside a SIMD section\n", entry);
		fflush(NULL);
		abort();
	}
	kchacha_shim_simd_calls++;
}

void kchacha_shim_simd_enter(void)
{
	kernel_fpu_begin();
}

void kchacha_shim_simd_leave(void)
{
	kernel_fpu_end();
}

#define WRAP_XOR(entry)							\
	void __real_##entry(const u32 *state, u8 *dst, const u8 *src,	\
			    unsigned int len, int nrounds);		\
	void __wrap_##entry(const u32 *state, u8 *dst, const u8 *src,	\
			    unsigned int len, int nrounds);		\
	void __wrap_##entry(const u32 *state, u8 *dst, const u8 *src,	\
			    unsigned int len, int nrounds)		\
	{								\
		kchacha_shim_simd_check(#entry);			\
		if (len > kchacha_shim_simd_longest)			\
			kchacha_shim_simd_longest = len;		\
		if (kchacha_shim_simd_hook)				\
			kchacha_shim_simd_hook(#entry, len);		\
		__real_##entry(state, dst, src, len, nrounds);		\
	}

#define WRAP_HCHACHA(entry)						\
	void __real_##entry(const u32 *state, u32 *out, int nrounds);	\
	void __wrap_##entry(const u32 *state, u32 *out, int nrounds);	\
	void __wrap_##entry(const u32 *state, u32 *out, int nrounds)	\
	{								\
		kchacha_shim_simd_check(#entry);			\
		__real_##entry(state, out, nrounds);			\
	}

/* one line per entry of SIMDCHECK_ENTRIES in test/unit/Makefile */
#if defined(__x86_64__)
WRAP_XOR(kchacha_ssse3_xor)
WRAP_HCHACHA(kchacha_ssse3_hchacha)
WRAP_XOR(kchacha_avx2_xor)
WRAP_HCHACHA(kchacha_avx2_hchacha)
WRAP_XOR(kchacha_avx512_xor)
WRAP_XOR(kchacha_avx512_z32_xor)
WRAP_XOR(kchacha_avx512vl_xor)
#elif defined(__aarch64__) || defined(__arm__)
WRAP_XOR(kchacha_neon_xor)
WRAP_HCHACHA(kchacha_neon_hchacha)
#endif
