/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test/shim/simdcheck.c: the check that SIMD routines run in a section.
 * For the tests, which include it by its path.
 */
#ifndef _SHIM_SIMDCHECK_H
#define _SHIM_SIMDCHECK_H
/* calls of wrapped SIMD routines on this thread, all inside a section */
extern __thread unsigned long kchacha_shim_simd_calls;
/* the most bytes one call of a wrapped xor was given, on this thread */
extern __thread unsigned int kchacha_shim_simd_longest;
/* if set, called by each wrapped xor before it runs (a test's clock) */
extern void (*kchacha_shim_simd_hook)(const char *entry, unsigned int len);
/* a bare section, for a test that calls an assembly routine itself */
void kchacha_shim_simd_enter(void);
void kchacha_shim_simd_leave(void);
#endif
