/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha: the x86 assembly's state rows, built word by word: macros only,
 * included by chacha-ssse3-x86_64.S with KCHACHA_ROWS_SSE defined and by
 * the AVX2 and AVX-512 files, after each defines STATE (an assembly file
 * included by others, as the kernel's glue_helper-asm-avx.S once was).
 *
 * A request's state is written by C just before the call (a fresh state
 * per request, as the in-tree glue builds one), in stores of four or eight
 * bytes.  A 16-byte load of a row could not be forwarded from them: it
 * would wait until they had reached the cache, and the rounds with it.  So
 * each row is put together from 4-byte loads, each inside one store.
 */
#ifndef _KCHACHA_X86_ROWS_S
#define _KCHACHA_X86_ROWS_S

/*
 * A state row in \r (in each of its 128-bit lanes): word 0 from \w0 (the
 * row's first word in memory, or a register: CTR, or an xmm register for
 * the AVX2 code), words 1-3 from \off + 4.. of the state; \t0 and \t1
 * scratch.
 */
#ifdef KCHACHA_ROWS_SSE
.macro	srow	w0, off, r, t0, t1
	movd		\w0, \r
	movd		(\off + 4)(STATE), \t0
	movd		(\off + 8)(STATE), \t1
	punpckldq	\t0, \r
	movd		(\off + 12)(STATE), \t0
	punpckldq	\t0, \t1
	punpcklqdq	\t1, \r
.endm
#else
.macro	srow	w0, off, r, t0, t1
	vpbroadcastd	\w0, \r
	vpbroadcastd	(\off + 4)(STATE), \t0
	vpbroadcastd	(\off + 8)(STATE), \t1
	vpunpckldq	\t0, \r, \r
	vpbroadcastd	(\off + 12)(STATE), \t0
	vpunpckldq	\t0, \t1, \t1
	vpunpcklqdq	\t1, \r, \r
.endm
#endif

/* State rows 0-2 into \r0..\r2, as srow */
.macro	srows	r0, r1, r2, t0, t1
	srow		0x00(STATE), 0x00, \r0, \t0, \t1
	srow		0x10(STATE), 0x10, \r1, \t0, \t1
	srow		0x20(STATE), 0x20, \r2, \t0, \t1
.endm

#endif
