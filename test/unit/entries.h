/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test/unit/entries.h: the assembly entry itself behind a pointer of
 * kchacha_impls[], for tests that call it bare (stackwipe's frames,
 * unit's ABI check).
 *
 * Where the tests link with ld's --wrap of the entries (a check that they
 * run in a SIMD section), the table's pointers, and every reference from
 * a test, reach __wrap_<entry>: a C function with a frame of its own, that
 * passes len and nrounds on as the 32-bit values they are (zero-extending
 * them).  __real_<entry> is then the entry itself; without --wrap the
 * weak reference is NULL and the pointer is the entry already.
 */
#ifndef _KCHACHA_TEST_ENTRIES_H
#define _KCHACHA_TEST_ENTRIES_H
#include <stddef.h>
#include "kchacha.h"

#if defined(__x86_64__)
#define UNIT_ENTRIES(x)							\
	x(kchacha_ssse3_xor) x(kchacha_ssse3_hchacha)			\
	x(kchacha_avx2_xor) x(kchacha_avx2_hchacha)			\
	x(kchacha_avx512_xor) x(kchacha_avx512_z32_xor)		\
	x(kchacha_avx512vl_xor)
#elif defined(__aarch64__) || defined(__arm__)
#define UNIT_ENTRIES(x)	x(kchacha_neon_xor) x(kchacha_neon_hchacha)
#else
#define UNIT_ENTRIES(x)
#endif

/* the entries themselves are declared by kchacha.h */
#define UNIT_ENTRY_DECLARE(e)						\
	extern void __real_##e(void) __attribute__((__weak__));
UNIT_ENTRIES(UNIT_ENTRY_DECLARE)

#define UNIT_ENTRY_MATCH(e)						\
	if (fn == (const void *)e && __real_##e)			\
		return (const void *)__real_##e;

/*
 * the entry @fn (a pointer of kchacha_impls[]) points to, unwrapped; the
 * zmm driver's pointer is chacha_core.c's C dispatch, in front of
 * kchacha_avx512_z32_xor() where kchacha_avx512_z32 is 1 (the tests run
 * the zmm driver with each value), else kchacha_avx512_xor()
 */
static inline const void *unit_real_entry(const void *fn)
{
#if defined(__x86_64__)
	if (fn == (const void *)kchacha_avx512_entry)
		fn = kchacha_avx512_z32 == 1 ?
			(const void *)kchacha_avx512_z32_xor :
			(const void *)kchacha_avx512_xor;
#endif
	UNIT_ENTRIES(UNIT_ENTRY_MATCH)
	return fn;
}
#endif
