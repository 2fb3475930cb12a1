/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha: ChaCha keystream XOR for x86_64 with AVX-512 (F, VL, BW), in
 * code built from the same macros: kchacha_avx512_xor() and
 * kchacha_avx512_z32_xor(), which use zmm registers, and
 * kchacha_avx512vl_xor() (at the end of the file), which keeps to ymm
 * registers for the CPUs where 512-bit code lowers the clock.
 *
 * All three follow kchacha_xor_fn (kchacha.h): any length, any alignment,
 * dst == src allowed, the state left alone, the block counter wrapping
 * modulo 2^32 in word 12 only.
 *
 * The zmm entries hand a request of up to 512 bytes to
 * kchacha_avx512vl_xor(), whose ymm forms are the faster there.  Their own
 * forms, chosen by length in one place (.Lchoose):
 *
 *  - thirty-two blocks a pass, two sets of sixteen in step (.Lz32), for
 *    whole 2048-byte runs; kchacha_avx512_z32_xor() also for a last pass
 *    of 1025 to 2047 bytes, which on a CPU whose vector operations take
 *    two cycles costs less than sixteen blocks and a form for the rest;
 *
 *  - whole 1024-byte passes run sixteen blocks "vertically": zmm register i
 *    holds word i of sixteen consecutive blocks.  With 32 registers nothing
 *    is spilled: zmm0-15 hold the state, zmm16 the sixteen counters,
 *    zmm17-24 are scratch for the transpose.  Every rotation is one vprold;
 *    the original state is added back straight from memory with embedded
 *    broadcasts.  (No three-input boolean occurs in the quarter round or the
 *    output, every XOR being followed by a rotate or a store, so vpternlogd
 *    would save nothing.)  The output is a 16x16 dword transpose: dword and
 *    qword interleaves inside each 128-bit lane, then two rounds of 128-bit
 *    lane shuffles, leaving each block in one register;
 *
 *  - what is left, one to sixteen blocks the last of which may be partial,
 *    runs in one pass of a form chosen by its length (.Lchoose): the
 *    sixteen vertical blocks once more, eight vertical blocks in ymm, or
 *    "horizontally" in independent chains, each four ymm or zmm registers,
 *    one state row each, one block per 128-bit lane, its diagonals lined
 *    up by vpshufd on rows 0, 2 and 3.  The out-of-order core overlaps the
 *    chains' quarter rounds; a chain's rounds take the latency of one
 *    block, and a transpose of 128-bit lanes puts each block in one zmm
 *    register.  Every form ends with its last block, whole or partial,
 *    going through one masked tail, read and written through an opmask
 *    with one bit per byte (AVX512BW): nothing past src + len is read or
 *    dst + len written, without a byte loop or a copy on the stack.
 *
 * kchacha_avx512_xor()'s own forms keep nothing on the stack but the
 * 32-block pass's four spilled words, wiped before it returns.  Registers
 * 16-31, which vzeroupper leaves alone, hold only what the caller's next
 * kernel_fpu_end() or return to user space overwrites, as with every other
 * SIMD section of the kernel.
 */

#include <linux/cfi_types.h>
#include <linux/linkage.h>

.section	.rodata.cst64.kchacha_avx512_lanes, "aM", @progbits, 64
.align 64
.Llanes:	.long	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15

.section	.rodata.cst4.kchacha_avx512_sixteen, "aM", @progbits, 4
.align 4
.Lsixteen:	.long	16

.section	.rodata.cst4.kchacha_avx512_eight, "aM", @progbits, 4
.align 4
.Leight:	.long	8

/*
 * the horizontal forms: counter offsets of the four lanes (of a ymm chain:
 * the first two, or the last two for the second chain), a zmm chain's step
 */
.section	.rodata.cst64.kchacha_avx512_hlanes, "aM", @progbits, 64
.align 64
.Lhlanes:	.long	0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0

.section	.rodata.cst64.kchacha_avx512_hstep, "aM", @progbits, 64
.align 64
.Lhstep:	.long	4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0

/* the longest request the zmm entries leave to the ymm code */
#define KCHACHA_AVX512_YMM_MAX	512

/* arguments */
#define STATE		%rdi
#define DST		%rsi
#define SRC		%rdx
#define LEN		%rcx
#define LEN32		%ecx
#define ROUNDS		%r8d
/* the counter of the next block to produce */
#define CTR		%r9d
/* the 32-block pass runs while LEN is above this: 2047 or 1024 */
#define Z32FROM		%r10
#define Z32FROM32	%r10d

#include "chacha-x86-rows.S"

.text

/*
 * Quarter rounds, any number of them interleaved: \q is one or more
 * quadruples of registers a, b, c, d (vertical columns or diagonals, or the
 * rows of horizontal chains).  Each step runs on every quadruple before the
 * next step starts, so that independent quarter rounds overlap: \x += \y,
 * \z ^= \x, \z <<<= \r, with (x, y, z) = (a, b, d) for \h = 0 and
 * (c, d, b) for \h = 1.
 */
.macro	qadd	h, a, b, c, d, q:vararg
.if \h
	vpaddd		\d, \c, \c
.else
	vpaddd		\b, \a, \a
.endif
.ifnb \q
	qadd		\h, \q
.endif
.endm

.macro	qxor	h, a, b, c, d, q:vararg
.if \h
	vpxord		\c, \b, \b
.else
	vpxord		\a, \d, \d
.endif
.ifnb \q
	qxor		\h, \q
.endif
.endm

.macro	qrot	h, r, a, b, c, d, q:vararg
.if \h
	vprold		$\r, \b, \b
.else
	vprold		$\r, \d, \d
.endif
.ifnb \q
	qrot		\h, \r, \q
.endif
.endm

.macro	qround	q:vararg
	qadd		0, \q
	qxor		0, \q
	qrot		0, 16, \q
	qadd		1, \q
	qxor		1, \q
	qrot		1, 12, \q
	qadd		0, \q
	qxor		0, \q
	qrot		0, 8, \q
	qadd		1, \q
	qxor		1, \q
	qrot		1, 7, \q
.endm

/*
 * Dword then qword interleave inside each 128-bit lane of r0..r3 (words
 * w..w+3 of the sixteen blocks), t0 and t1 scratch.  On exit lane L of \r2
 * holds words w..w+3 of block 4L, of \r3 block 4L + 1, of \r0 block 4L + 2,
 * of \r1 block 4L + 3.
 */
.macro	interleave4	r0, r1, r2, r3, t0, t1
	vpunpckldq	\r1, \r0, \t0
	vpunpckhdq	\r1, \r0, \t1
	vpunpckldq	\r3, \r2, \r0
	vpunpckhdq	\r3, \r2, \r1
	vpunpcklqdq	\r0, \t0, \r2
	vpunpckhqdq	\r0, \t0, \r3
	vpunpcklqdq	\r1, \t1, \r0
	vpunpckhqdq	\r1, \t1, \r1
.endm

/* 64 bytes of keystream \ks XORed into dst at block \blk; \ks clobbered. */
.macro	out64	ks, blk
	vpxord		(64 * \blk)(SRC), \ks, \ks
	vmovdqu32	\ks, (64 * \blk)(DST)
.endm

/*
 * Lane L of \a, \b, \c, \d holds words 0-3, 4-7, 8-11, 12-15 of block
 * 4L + \k: gather each block into one register and put it out.
 */
.macro	gather4	k, a, b, c, d
	vshufi32x4	$0x44, \b, \a, %zmm17
	vshufi32x4	$0xee, \b, \a, %zmm18
	vshufi32x4	$0x44, \d, \c, %zmm19
	vshufi32x4	$0xee, \d, \c, %zmm20
	vshufi32x4	$0x88, %zmm19, %zmm17, %zmm21
	vshufi32x4	$0xdd, %zmm19, %zmm17, %zmm22
	vshufi32x4	$0x88, %zmm20, %zmm18, %zmm23
	vshufi32x4	$0xdd, %zmm20, %zmm18, %zmm24
	out64		%zmm21, (\k + 0)
	out64		%zmm22, (\k + 4)
	out64		%zmm23, (\k + 8)
	out64		%zmm24, (\k + 12)
.endm

/*
 * Line the diagonals up as columns, and back: rows a, c and d move, by
 * one word down, one up and two, so that b, whose last rotate ends a
 * quarter round and which the next one needs first, goes straight on; the
 * other rows were final several steps before and shuffle off the critical
 * path.
 */
.macro	hdiag	a, b, c, d
	vpshufd		$0x93, \a, \a
	vpshufd		$0x39, \c, \c
	vpshufd		$0x4e, \d, \d
.endm

.macro	hundiag	a, b, c, d
	vpshufd		$0x39, \a, \a
	vpshufd		$0x93, \c, \c
	vpshufd		$0x4e, \d, \d
.endm

/*
 * \op on each of the first \n chains: chain k is zmm(4k)..zmm(4k + 3), or
 * the same ymm registers with \p = y.
 */
.macro	hchains	op, n, p=z
	\op		%\p\()mm0, %\p\()mm1, %\p\()mm2, %\p\()mm3
.if \n > 1
	\op		%\p\()mm4, %\p\()mm5, %\p\()mm6, %\p\()mm7
.endif
.if \n > 2
	\op		%\p\()mm8, %\p\()mm9, %\p\()mm10, %\p\()mm11
.endif
.if \n > 3
	\op		%\p\()mm12, %\p\()mm13, %\p\()mm14, %\p\()mm15
.endif
.endm

/*
 * A chain's starting rows: rows 0-2 are the same in every chain (zmm16-18,
 * or ymm16-18 with \p = y, or those numbered \r0..\r2), row 3 (\ctr)
 * holds the chain's counters.
 */
.macro	hinit	a, b, c, d, ctr, p=z, r0=16, r1=17, r2=18
	vmovdqa64	%\p\()mm\r0, \a
	vmovdqa64	%\p\()mm\r1, \b
	vmovdqa64	%\p\()mm\r2, \c
	vmovdqa64	\ctr, \d
.endm

/* The feed-forward of a chain. */
.macro	hadd	a, b, c, d, ctr
	vpaddd		%zmm16, \a, \a
	vpaddd		%zmm17, \b, \b
	vpaddd		%zmm18, \c, \c
	vpaddd		\ctr, \d, \d
.endm

/*
 * 4x4 transpose of 128-bit lanes: on entry lane L of \a..\d holds rows 0-3
 * of block L; on exit \a holds block 0, \b block 1, \c block 2, \d block 3.
 * \t0..\t3 are scratch.
 */
.macro	htranspose	a, b, c, d, t0=%zmm24, t1=%zmm25, t2=%zmm26, t3=%zmm27
	vshufi32x4	$0x44, \b, \a, \t0
	vshufi32x4	$0xee, \b, \a, \t1
	vshufi32x4	$0x44, \d, \c, \t2
	vshufi32x4	$0xee, \d, \c, \t3
	vshufi32x4	$0x88, \t2, \t0, \a
	vshufi32x4	$0xdd, \t2, \t0, \b
	vshufi32x4	$0x88, \t3, \t1, \c
	vshufi32x4	$0xdd, \t3, \t1, \d
.endm

/*
 * The next block of keystream \ks XORed into dst: a whole block, or the
 * LEN < 64 bytes left through the masked tail.  Done when LEN runs out.
 */
.macro	hput	ks
	vmovdqa64	\ks, %zmm31
	cmp		$64, LEN
	jb		.Lhpartial
	vpxord		(SRC), \ks, \ks
	vmovdqu32	\ks, (DST)
	add		$64, SRC
	add		$64, DST
	sub		$64, LEN
	jz		.Ldone
.endm

/* The last block of a form: LEN is 1..64, the masked tail takes it. */
.macro	hlast	ks
	vmovdqa64	\ks, %zmm31
	jmp		.Lhpartial
.endm

/* Chain \k's four blocks, feed-forward to output, of a form of \n chains. */
.macro	hout	a, b, c, d, ctr, k, n
	hadd		\a, \b, \c, \d, \ctr
	htranspose	\a, \b, \c, \d
	hput		\a
	hput		\b
	hput		\c
.if \k == \n
	hlast		\d
.else
	hput		\d
.endif
.endm

/*
 * The horizontal form with \n chains, for up to 4 * \n blocks: rows 0-2 of
 * the state in all four lanes of zmm16-18, row 3 of chain k with the
 * counters CTR + 4k + 0..3 in zmm(19 + k).
 */
.macro	hform	n
.Lh\n:
	srows		%zmm16, %zmm17, %zmm18, %zmm24, %zmm25
	srow		CTR, 0x30, %zmm19, %zmm24, %zmm25
	vpaddd		.Lhlanes(%rip), %zmm19, %zmm19
.if \n > 1
	vmovdqa64	.Lhstep(%rip), %zmm23
	vpaddd		%zmm23, %zmm19, %zmm20
.endif
.if \n > 2
	vpaddd		%zmm23, %zmm20, %zmm21
.endif
.if \n > 3
	vpaddd		%zmm23, %zmm21, %zmm22
.endif
	hinit		%zmm0, %zmm1, %zmm2, %zmm3, %zmm19
.if \n > 1
	hinit		%zmm4, %zmm5, %zmm6, %zmm7, %zmm20
.endif
.if \n > 2
	hinit		%zmm8, %zmm9, %zmm10, %zmm11, %zmm21
.endif
.if \n > 3
	hinit		%zmm12, %zmm13, %zmm14, %zmm15, %zmm22
.endif
	mov		ROUNDS, %eax
.Lh\n\()_dround:
	hchains		qround, \n
	hchains		hdiag, \n
	hchains		qround, \n
	hchains		hundiag, \n
	sub		$2, %eax
	jnz		.Lh\n\()_dround

	hout		%zmm0, %zmm1, %zmm2, %zmm3, %zmm19, 1, \n
.if \n > 1
	hout		%zmm4, %zmm5, %zmm6, %zmm7, %zmm20, 2, \n
.endif
.if \n > 2
	hout		%zmm8, %zmm9, %zmm10, %zmm11, %zmm21, 3, \n
.endif
.if \n > 3
	hout		%zmm12, %zmm13, %zmm14, %zmm15, %zmm22, 4, \n
.endif
.endm

/*
 * The horizontal form in ymm, \n (1 or 2) chains of two blocks: rows 0-2
 * in both lanes of ymm16-18, row 3 of chain k with the counters
 * CTR + 2k + 0..1 in ymm(19 + k).
 */
.macro	hyform	n, pfx=, out=hyout
.L\pfx\()hy\n:
	srows		%ymm16, %ymm17, %ymm18, %ymm24, %ymm25
	srow		CTR, 0x30, %ymm3, %ymm24, %ymm25
	vpaddd		.Lhlanes(%rip), %ymm3, %ymm19
.if \n > 1
	vpaddd		.Lhlanes+32(%rip), %ymm3, %ymm20
.endif
	hinit		%ymm0, %ymm1, %ymm2, %ymm3, %ymm19, y
.if \n > 1
	hinit		%ymm4, %ymm5, %ymm6, %ymm7, %ymm20, y
.endif
	mov		ROUNDS, %eax
.L\pfx\()hy\n\()_dround:
	hchains		qround, \n, y
	hchains		hdiag, \n, y
	hchains		qround, \n, y
	hchains		hundiag, \n, y
	sub		$2, %eax
	jnz		.L\pfx\()hy\n\()_dround

	\out		0, 1, 2, 3, 19, 1, \n
.if \n > 1
	\out		4, 5, 6, 7, 20, 2, \n
.endif
.endm

/*
 * The feed-forward of a ymm chain in ymm \a..\d: rows 0-2 from ymm \r0..\r2,
 * its row 3 in ymm \ctr.
 */
.macro	hyadd	a, b, c, d, ctr, r0=16, r1=17, r2=18
	vpaddd		%ymm\r0, %ymm\a, %ymm\a
	vpaddd		%ymm\r1, %ymm\b, %ymm\b
	vpaddd		%ymm\r2, %ymm\c, %ymm\c
	vpaddd		%ymm\ctr, %ymm\d, %ymm\d
.endm

/* Chain \k's two blocks in ymm \a..\d out, of a ymm form of \n chains. */
.macro	hyout	a, b, c, d, ctr, k, n
	hyadd		\a, \b, \c, \d, \ctr
	y8gather	\a, \b, \c, \d
	hput		%zmm\a
.if \k == \n
	hlast		%zmm\b
.else
	hput		%zmm\b
.endif
.endm

/*
 * The eight-block form's output: lane L of ymm \a, \b, \c, \d holds
 * words 0-3, 4-7, 8-11, 12-15 of block 4L + k; on exit zmm \a holds block
 * k, zmm \b block k + 4.
 */
.macro	y8gather	a, b, c, d
	vinserti64x4	$1, %ymm\b, %zmm\a, %zmm24
	vinserti64x4	$1, %ymm\d, %zmm\c, %zmm25
	vshufi32x4	$0x88, %zmm25, %zmm24, %zmm\a
	vshufi32x4	$0xdd, %zmm25, %zmm24, %zmm\b
.endm

/*
 * The vertical forms, sixteen blocks in zmm (\p = z, \n = 16) or eight in
 * ymm (\p = y, \n = 8): register i of zmm0-15 or ymm0-15 holds word i of
 * every block, register 16 the counters.  The state broadcast, the double
 * rounds, the feed-forward (embedded broadcasts {1to\n}) and the dword and
 * qword interleaves; registers \t0 and \t1 are scratch.  With \chains, the
 * rounds of that many horizontal ymm chains (ychains) run in the same
 * loop.
 */
.macro	vblocks	p, n, pfx=, chains=0, t0=17, t1=18
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.if \i == 12
	vmovdqa64	%\p\()mm16, %\p\()mm12
.else
	vpbroadcastd	(4 * \i)(STATE), %\p\()mm\i
.endif
.endr
	mov		ROUNDS, %eax

.L\pfx\p\n\()_dround:
	qround		%\p\()mm0, %\p\()mm4, %\p\()mm8, %\p\()mm12, \
			%\p\()mm1, %\p\()mm5, %\p\()mm9, %\p\()mm13, \
			%\p\()mm2, %\p\()mm6, %\p\()mm10, %\p\()mm14, \
			%\p\()mm3, %\p\()mm7, %\p\()mm11, %\p\()mm15
.if \chains
	ychains		qround, \chains
	ychains		hdiag, \chains
.endif
	qround		%\p\()mm0, %\p\()mm5, %\p\()mm10, %\p\()mm15, \
			%\p\()mm1, %\p\()mm6, %\p\()mm11, %\p\()mm12, \
			%\p\()mm2, %\p\()mm7, %\p\()mm8, %\p\()mm13, \
			%\p\()mm3, %\p\()mm4, %\p\()mm9, %\p\()mm14
.if \chains
	ychains		qround, \chains
	ychains		hundiag, \chains
.endif
	sub		$2, %eax
	jnz		.L\pfx\p\n\()_dround

.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.if \i == 12
	vpaddd		%\p\()mm16, %\p\()mm12, %\p\()mm12
.else
	vpaddd		(4 * \i)(STATE){1to\n}, %\p\()mm\i, %\p\()mm\i
.endif
.endr

	interleave4	%\p\()mm0, %\p\()mm1, %\p\()mm2, %\p\()mm3, \
			%\p\()mm\t0, %\p\()mm\t1
	interleave4	%\p\()mm4, %\p\()mm5, %\p\()mm6, %\p\()mm7, \
			%\p\()mm\t0, %\p\()mm\t1
	interleave4	%\p\()mm8, %\p\()mm9, %\p\()mm10, %\p\()mm11, \
			%\p\()mm\t0, %\p\()mm\t1
	interleave4	%\p\()mm12, %\p\()mm13, %\p\()mm14, %\p\()mm15, \
			%\p\()mm\t0, %\p\()mm\t1
.endm

/* \op on the first \n (1 or 2) chains of the mixed forms (ymform). */
.macro	ychains	op, n
	\op		%ymm20, %ymm21, %ymm22, %ymm23
.if \n > 1
	\op		%ymm24, %ymm25, %ymm26, %ymm27
.endif
.endm

/*
 * \op on the four groups of registers that interleave4 left holding
 * blocks 4L, 4L + 1, 4L + 2 and 4L + 3 in lane L; \r prefixes the numbers.
 */
.macro	vgroups	op, r
	\op		\r\()2, \r\()6, \r\()10, \r\()14
	\op		\r\()3, \r\()7, \r\()11, \r\()15
	\op		\r\()0, \r\()4, \r\()8, \r\()12
	\op		\r\()1, \r\()5, \r\()9, \r\()13
.endm

/*
 * The \n blocks of a vertical form, each in one zmm register after
 * vgroups, put out in order up to LEN, the last one through hlast.
 */
.macro	vput	n
.irp i, 2, 3, 0, 1, 6, 7, 4
	hput		%zmm\i
.endr
.if \n == 8
	hlast		%zmm5
.else
.irp i, 5, 10, 11, 8, 9, 14, 15, 12
	hput		%zmm\i
.endr
	hlast		%zmm13
.endif
.endm

/*
 * The 32-block pass (.Lz32): the feed-forward of word \i onward from the
 * state (embedded broadcasts), word 12 left to the caller.
 */
.macro	zff	i, r, regs:vararg
.if \i != 12
	vpaddd		(4 * \i)(STATE){1to16}, \r, \r
.endif
.ifnb \regs
	zff		(\i + 1), \regs
.endif
.endm

/*
 * One set of the 32-block pass out: \w0..\w15 hold its words after the
 * rounds; \t0..\t3 are scratch.  Its counters (CTR + 16 * \k + 0..15)
 * rebuilt and added to word 12, the rest of the feed-forward, the
 * interleaves and the lane transposes, then its sixteen blocks, all whole,
 * XORed into dst from block 16 * \k.
 */
.macro	z32fin	k, t0, t1, t2, t3, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, \
		w10, w11, w12, w13, w14, w15
	vpbroadcastd	CTR, \t0
	vpaddd		.Llanes(%rip), \t0, \t0
.if \k
	vpaddd		.Lsixteen(%rip){1to16}, \t0, \t0
.endif
	vpaddd		\t0, \w12, \w12
	zff		0, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8, \w9, \
			\w10, \w11, \w12, \w13, \w14, \w15
	interleave4	\w0, \w1, \w2, \w3, \t0, \t1
	interleave4	\w4, \w5, \w6, \w7, \t0, \t1
	interleave4	\w8, \w9, \w10, \w11, \t0, \t1
	interleave4	\w12, \w13, \w14, \w15, \t0, \t1
	htranspose	\w2, \w6, \w10, \w14, \t0, \t1, \t2, \t3
	htranspose	\w3, \w7, \w11, \w15, \t0, \t1, \t2, \t3
	htranspose	\w0, \w4, \w8, \w12, \t0, \t1, \t2, \t3
	htranspose	\w1, \w5, \w9, \w13, \t0, \t1, \t2, \t3
.endm

.macro	z32out	k, t0, t1, t2, t3, w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, \
		w10, w11, w12, w13, w14, w15
	z32fin		\k, \t0, \t1, \t2, \t3, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \
			\w8, \w9, \w10, \w11, \w12, \w13, \w14, \w15
	out64		\w2, (16 * \k + 0)
	out64		\w3, (16 * \k + 1)
	out64		\w0, (16 * \k + 2)
	out64		\w1, (16 * \k + 3)
	out64		\w6, (16 * \k + 4)
	out64		\w7, (16 * \k + 5)
	out64		\w4, (16 * \k + 6)
	out64		\w5, (16 * \k + 7)
	out64		\w10, (16 * \k + 8)
	out64		\w11, (16 * \k + 9)
	out64		\w8, (16 * \k + 10)
	out64		\w9, (16 * \k + 11)
	out64		\w14, (16 * \k + 12)
	out64		\w15, (16 * \k + 13)
	out64		\w12, (16 * \k + 14)
	out64		\w13, (16 * \k + 15)
.endm

/* the 32-block pass's frame: four words of its second set */
#define ZSPILL(i)	(64 * (i))(%rsp)
#define ZFRAME		256

/* The 32-block pass's frame wiped and left; zmm0 clobbered. */
.macro	z32leave
	vpxord		%zmm0, %zmm0, %zmm0
	vmovdqa64	%zmm0, ZSPILL(0)
	vmovdqa64	%zmm0, ZSPILL(1)
	vmovdqa64	%zmm0, ZSPILL(2)
	vmovdqa64	%zmm0, ZSPILL(3)
	leave
.endm

/*
 * void kchacha_avx512_xor(const u32 *state, u8 *dst, const u8 *src,
 *			   unsigned int len, int nrounds)
 * void kchacha_avx512_z32_xor(const u32 *state, u8 *dst, const u8 *src,
 *			       unsigned int len, int nrounds)
 *
 * The same code (kchacha_avx512_passes) with the 32-block pass for whole
 * 2048-byte runs only, or from 1025 bytes left on.  Called directly, never
 * through a pointer (the table holds their C dispatch,
 * kchacha_avx512_entry()), so they have no kCFI type: clang defines a
 * function's __kcfi_typeid_ only where C takes its address.
 */
SYM_FUNC_START(kchacha_avx512_xor)
	mov		$2047, Z32FROM32
	jmp		kchacha_avx512_passes
SYM_FUNC_END(kchacha_avx512_xor)

SYM_FUNC_START(kchacha_avx512_z32_xor)
	mov		$1024, Z32FROM32
	jmp		kchacha_avx512_passes
SYM_FUNC_END(kchacha_avx512_z32_xor)

SYM_FUNC_START_LOCAL(kchacha_avx512_passes)
	test		LEN32, LEN32
	jz		.Lret
	mov		LEN32, LEN32
	/*
	 * A request of up to eight blocks is the ymm code's: its forms are
	 * up to a sixth faster there (Intel Emerald Rapids, user space),
	 * where the zmm forms' 512-bit loads, XORs and stores cost more
	 * than they save.  At nine blocks (576 bytes) three zmm chains of
	 * four are as fast as the ymm code's eight vertical blocks and a
	 * chain on Emerald Rapids, and a tenth faster on AMD Zen 5, whose
	 * two-cycle vector operations leave the mixed form's longer loop
	 * above the chains' latency; on AMD Zen 4, which splits 512-bit
	 * operations, they are a fifth slower, and the driver's C dispatch
	 * (kchacha_avx512_entry()) sends nine blocks to the ymm code there.
	 * The forms below still serve what a request leaves after its
	 * 1024-byte passes.
	 */
	cmp		$KCHACHA_AVX512_YMM_MAX, LEN
	ja		.Lzmm
	jmp		kchacha_avx512vl_xor
.Lzmm:
	mov		48(STATE), CTR
	cmp		Z32FROM, LEN
	ja		.Lz32

	/*
	 * The form for the LEN bytes left, the one place that chooses
	 * (measured on AMD Zen 4, estimated for Intel with llvm-mca):
	 *
	 *	   1 ..  128 bytes: one horizontal chain of two blocks in ymm;
	 *	 129 ..  256 bytes: two such chains;
	 *	 257 ..  512 bytes: eight vertical blocks in ymm;
	 *	 513 ..  768 bytes: three horizontal chains of four blocks in zmm;
	 *	 769 and up:	    sixteen vertical blocks in zmm (one pass:
	 *			    what is left here is under 2048 bytes);
	 *
	 * before all of them, thirty-two blocks a pass (.Lz32) while more
	 * than Z32FROM bytes are left: 2048 or more, or 1025 or more in
	 * kchacha_avx512_z32_xor().
	 *
	 * Up to four blocks are bound by the latency of one chain's rounds,
	 * which is lower in ymm than in zmm on Zen 4 (where a zmm operation
	 * takes two passes through a 256-bit unit) and the same on Intel.
	 * The vertical forms do a quarter less work per block than the
	 * horizontal ones (no diagonal shuffles), which wins once the
	 * horizontal ones would be bound by throughput, except at 9..12
	 * blocks, where twelve horizontal blocks beat sixteen vertical ones.
	 */
.Lchoose:
	cmp		$128, LEN
	jbe		.Lhy1
	cmp		$256, LEN
	jbe		.Lhy2
	cmp		$512, LEN
	jbe		.Ly8
	cmp		$768, LEN
	jbe		.Lh3

	vpbroadcastd	CTR, %zmm16
	vpaddd		.Llanes(%rip), %zmm16, %zmm16
	vblocks		z, 16
	cmp		$1024, LEN
	jb		.Lz16_last
	gather4		0, %zmm2, %zmm6, %zmm10, %zmm14
	gather4		1, %zmm3, %zmm7, %zmm11, %zmm15
	gather4		2, %zmm0, %zmm4, %zmm8, %zmm12
	gather4		3, %zmm1, %zmm5, %zmm9, %zmm13

	add		$16, CTR
	add		$1024, SRC
	add		$1024, DST
	sub		$1024, LEN
	jz		.Ldone
	jmp		.Lchoose

	/*
	 * Thirty-two blocks a pass while more than Z32FROM bytes are left: two
	 * sets of sixteen vertical blocks, zmm0-15 and zmm16-31 (counters
	 * CTR + 0..15 and CTR + 16..31), one quarter-round step of both sets
	 * at a time.  Each step has eight independent operations where the
	 * sixteen-block pass has four: enough to fill the vector units of a
	 * CPU whose additions, XORs and rotates take two cycles (AMD Zen 5),
	 * where four leave them half idle.  Every register holds state, so
	 * the second set's words 12-15 wait in the frame while the first set
	 * goes out; the frame is wiped before it is left.
	 */
.Lz32:
	push		%rbp
	mov		%rsp, %rbp
	sub		$ZFRAME, %rsp
	and		$~63, %rsp
.Lz32_pass:
	vpbroadcastd	CTR, %zmm12
	vpaddd		.Llanes(%rip), %zmm12, %zmm12
	vpaddd		.Lsixteen(%rip){1to16}, %zmm12, %zmm28
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15
	vpbroadcastd	(4 * \i)(STATE), %zmm\i
.endr
.irp i, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 29, 30, 31
	vpbroadcastd	(4 * (\i - 16))(STATE), %zmm\i
.endr
	mov		ROUNDS, %eax
.Lz32_dround:
	qround		%zmm0, %zmm4, %zmm8, %zmm12, %zmm1, %zmm5, %zmm9, %zmm13, \
			%zmm2, %zmm6, %zmm10, %zmm14, %zmm3, %zmm7, %zmm11, %zmm15, \
			%zmm16, %zmm20, %zmm24, %zmm28, %zmm17, %zmm21, %zmm25, %zmm29, \
			%zmm18, %zmm22, %zmm26, %zmm30, %zmm19, %zmm23, %zmm27, %zmm31
	qround		%zmm0, %zmm5, %zmm10, %zmm15, %zmm1, %zmm6, %zmm11, %zmm12, \
			%zmm2, %zmm7, %zmm8, %zmm13, %zmm3, %zmm4, %zmm9, %zmm14, \
			%zmm16, %zmm21, %zmm26, %zmm31, %zmm17, %zmm22, %zmm27, %zmm28, \
			%zmm18, %zmm23, %zmm24, %zmm29, %zmm19, %zmm20, %zmm25, %zmm30
	sub		$2, %eax
	jnz		.Lz32_dround

	vmovdqa64	%zmm28, ZSPILL(0)
	vmovdqa64	%zmm29, ZSPILL(1)
	vmovdqa64	%zmm30, ZSPILL(2)
	vmovdqa64	%zmm31, ZSPILL(3)
	z32out		0, %zmm28, %zmm29, %zmm30, %zmm31, \
			%zmm0, %zmm1, %zmm2, %zmm3, %zmm4, %zmm5, %zmm6, %zmm7, \
			%zmm8, %zmm9, %zmm10, %zmm11, %zmm12, %zmm13, %zmm14, %zmm15
	cmp		$2048, LEN
	jb		.Lz32_last
	vmovdqa64	ZSPILL(0), %zmm28
	vmovdqa64	ZSPILL(1), %zmm29
	vmovdqa64	ZSPILL(2), %zmm30
	vmovdqa64	ZSPILL(3), %zmm31
	z32out		1, %zmm0, %zmm1, %zmm2, %zmm3, \
			%zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, \
			%zmm23, %zmm24, %zmm25, %zmm26, %zmm27, %zmm28, %zmm29, \
			%zmm30, %zmm31

	add		$32, CTR
	add		$2048, SRC
	add		$2048, DST
	sub		$2048, LEN
	cmp		Z32FROM, LEN
	ja		.Lz32_pass
	z32leave
	test		LEN, LEN
	jz		.Ldone
	jmp		.Lchoose

	/*
	 * A last pass that ends inside its second set (1024 < LEN < 2048):
	 * the first set went out whole; the frame is wiped and left before
	 * the second set's blocks go out in order up to LEN, its words 12-15
	 * back in zmm12-15.
	 */
.Lz32_last:
	vmovdqa64	ZSPILL(0), %zmm12
	vmovdqa64	ZSPILL(1), %zmm13
	vmovdqa64	ZSPILL(2), %zmm14
	vmovdqa64	ZSPILL(3), %zmm15
	z32leave
	z32fin		1, %zmm0, %zmm1, %zmm2, %zmm3, \
			%zmm16, %zmm17, %zmm18, %zmm19, %zmm20, %zmm21, %zmm22, \
			%zmm23, %zmm24, %zmm25, %zmm26, %zmm27, %zmm12, %zmm13, \
			%zmm14, %zmm15
	add		$1024, SRC
	add		$1024, DST
	sub		$1024, LEN
.irp i, 18, 19, 16, 17, 22, 23, 20, 21, 26, 27, 24, 25, 14, 15, 12
	hput		%zmm\i
.endr
	hlast		%zmm13

	/*
	 * A last pass that ends inside its sixteen blocks: each block in one
	 * register, then put out in order up to LEN.
	 */
.Lz16_last:
	vgroups		htranspose, %zmm
	vput		16

	/*
	 * Eight blocks vertically in ymm0-15, as the sixteen in zmm; the
	 * counters in ymm16.
	 */
.Ly8:
	vpbroadcastd	CTR, %ymm16
	vpaddd		.Llanes(%rip), %ymm16, %ymm16
	vblocks		y, 8
	vgroups		y8gather
	vput		8

	hyform		1
	hyform		2
	hform		3

	/*
	 * The last LEN (1..64) bytes, keystream in zmm31: the opmask has the
	 * low LEN bits set, all ones shifted right by 64 - LEN (mod 64).
	 */
.Lhpartial:
	mov		$-1, %rax
	neg		%ecx
	shr		%cl, %rax
	kmovq		%rax, %k1
	vmovdqu8	(SRC), %zmm30{%k1}{z}
	vpxord		%zmm30, %zmm31, %zmm31
	vmovdqu8	%zmm31, (DST){%k1}

.Ldone:
	vzeroupper
.Lret:
	RET
SYM_FUNC_END(kchacha_avx512_passes)

/*
 * kchacha_avx512vl_xor(): the same instructions on 256-bit registers only,
 * for the CPUs where 512-bit code lowers the clock.  Its own forms, chosen
 * by length as in .Lvl_choose; every block leaves as two 32-byte halves,
 * and a last partial block through a 32-bit byte opmask.
 *
 * Sixteen blocks a pass run vertically as two independent sets of eight,
 * ymm0-15 and ymm16-31, one quarter-round step of all eight columns (or
 * diagonals) at a time, so that eight independent dependency chains keep
 * the vector units busy where the eight-block form has four.  All 32
 * registers hold state, so the counters live in the frame and two words
 * of the second set wait there while the first set is transposed; those
 * two slots are wiped before returning.
 */

/* the frame: the two sets' counters, the two waiting words */
#define YCTR(i)		(32*(i))(%rsp)
#define YSPILL(i)	(64+32*(i))(%rsp)
#define YFRAME		128

/*
 * Lane 0 of \a, \b, \c, \d holds words 0-3, 4-7, 8-11, 12-15 of one block,
 * lane 1 those of another: the first block to ymm30 (bytes 0-31) and ymm31
 * (bytes 32-63), the second to \b and \d.
 */
.macro	yhalves	a, b, c, d
	vshufi32x4	$0, \b, \a, %ymm30
	vshufi32x4	$3, \b, \a, \b
	vshufi32x4	$0, \d, \c, %ymm31
	vshufi32x4	$3, \d, \c, \d
.endm

/*
 * The next block, bytes 0-31 in \lo and 32-63 in \hi, XORed into dst: a
 * whole block, or the LEN < 64 bytes left through the masked tail, which
 * takes the block in ymm30 and ymm31.  Done when LEN runs out.
 */
.macro	yput	lo, hi
.ifnc \lo, %ymm30
	vmovdqa64	\lo, %ymm30
	vmovdqa64	\hi, %ymm31
.endif
	cmp		$64, LEN
	jb		.Lvl_tail
	vpxord		(SRC), \lo, \lo
	vpxord		32(SRC), \hi, \hi
	vmovdqu32	\lo, (DST)
	vmovdqu32	\hi, 32(DST)
	add		$64, SRC
	add		$64, DST
	sub		$64, LEN
	jz		.Lvl_done
.endm

/* The last block of a form: LEN is 1..64, the masked tail takes it. */
.macro	ylast	lo, hi
	vmovdqa64	\lo, %ymm30
	vmovdqa64	\hi, %ymm31
	jmp		.Lvl_tail
.endm

/* Chain \k's two blocks out, of a ymm form of \n chains (see hyform). */
.macro	yhout	a, b, c, d, ctr, k, n
	hyadd		\a, \b, \c, \d, \ctr
	yhalves		%ymm\a, %ymm\b, %ymm\c, %ymm\d
	yput		%ymm30, %ymm31
.if \k == \n
	ylast		%ymm\b, %ymm\d
.else
	yput		%ymm\b, %ymm\d
.endif
.endm

/*
 * The eight blocks of a vertical ymm set out, in order; \w0..\w15 hold its
 * words after the feed-forward and interleave4 (see vgroups for which
 * group holds which blocks).  The last one through ylast if \last.
 */
.macro	yout8	w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, w13, \
		w14, w15, last
	yhalves		\w2, \w6, \w10, \w14
	yput		%ymm30, %ymm31
	yhalves		\w3, \w7, \w11, \w15
	yput		%ymm30, %ymm31
	yhalves		\w0, \w4, \w8, \w12
	yput		%ymm30, %ymm31
	yhalves		\w1, \w5, \w9, \w13
	yput		%ymm30, %ymm31
	yput		\w6, \w14
	yput		\w7, \w15
	yput		\w4, \w12
.if \last
	ylast		\w5, \w13
.else
	yput		\w5, \w13
.endif
.endm

/* A whole block, halves \lo and \hi, XORed into dst at block \blk. */
.macro	yxor	lo, hi, blk
	vpxord		(64 * \blk)(SRC), \lo, \lo
	vpxord		(64 * \blk + 32)(SRC), \hi, \hi
	vmovdqu32	\lo, (64 * \blk)(DST)
	vmovdqu32	\hi, (64 * \blk + 32)(DST)
.endm

/*
 * yout8 for a pass whose eight blocks are all wanted: at blocks \k..\k + 7
 * from SRC and DST, no length checks.
 */
.macro	yout8all	w0, w1, w2, w3, w4, w5, w6, w7, w8, w9, w10, w11, w12, \
			w13, w14, w15, k
	yhalves		\w2, \w6, \w10, \w14
	yxor		%ymm30, %ymm31, (\k + 0)
	yxor		\w6, \w14, (\k + 4)
	yhalves		\w3, \w7, \w11, \w15
	yxor		%ymm30, %ymm31, (\k + 1)
	yxor		\w7, \w15, (\k + 5)
	yhalves		\w0, \w4, \w8, \w12
	yxor		%ymm30, %ymm31, (\k + 2)
	yxor		\w4, \w12, (\k + 6)
	yhalves		\w1, \w5, \w9, \w13
	yxor		%ymm30, %ymm31, (\k + 3)
	yxor		\w5, \w13, (\k + 7)
.endm

/*
 * A vertical set of eight blocks: \r holds word \i, the registers after it
 * words \i + 1 and on.  ybcast broadcasts each word from the state, word
 * 12 (the counters) from \ctr; yff adds the same back.
 */
.macro	ybcast	i, ctr, r, regs:vararg
.if \i == 12
	vmovdqa64	\ctr, \r
.else
	vpbroadcastd	(4 * \i)(STATE), \r
.endif
.ifnb \regs
	ybcast		(\i + 1), \ctr, \regs
.endif
.endm

.macro	yff	i, ctr, r, regs:vararg
.if \i == 12
	vpaddd		\ctr, \r, \r
.else
	vpaddd		(4 * \i)(STATE){1to8}, \r, \r
.endif
.ifnb \regs
	yff		(\i + 1), \ctr, \regs
.endif
.endm

/*
 * Nine to twelve blocks: eight vertical ones (CTR .. CTR + 7, as in
 * vblocks) and \n horizontal chains of two (from CTR + 8) in the same
 * loop, the chains' latency hidden under the vertical blocks' throughput.
 * The chains: rows 0-2 in ymm17-19, chain k in ymm(16 + 4k)..(19 + 4k),
 * its row 3 with its counters in ymm(27 + k).  Only for more than 512
 * bytes: the vertical blocks are all whole.
 */
.macro	ymform	n
.Lvl_m\n:
	vpbroadcastd	CTR, %ymm16
	vpaddd		.Llanes(%rip), %ymm16, %ymm16
	srows		%ymm17, %ymm18, %ymm19, %ymm30, %ymm31
	mov		CTR, %r10d
	add		$8, %r10d
	srow		%r10d, 0x30, %ymm23, %ymm30, %ymm31
	vpaddd		.Lhlanes(%rip), %ymm23, %ymm28
.if \n > 1
	vpaddd		.Lhlanes+32(%rip), %ymm23, %ymm29
.endif
	hinit		%ymm20, %ymm21, %ymm22, %ymm23, %ymm28, y, 17, 18, 19
.if \n > 1
	hinit		%ymm24, %ymm25, %ymm26, %ymm27, %ymm29, y, 17, 18, 19
.endif
	vblocks		y, 8, vl_m\n\()_, \n, 30, 31
	yout8all	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
			%ymm8, %ymm9, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, \
			%ymm15, 0
	add		$512, SRC
	add		$512, DST
	sub		$512, LEN
	hyadd		20, 21, 22, 23, 28, 17, 18, 19
	yhalves		%ymm20, %ymm21, %ymm22, %ymm23
	yput		%ymm30, %ymm31
.if \n == 1
	ylast		%ymm21, %ymm23
.else
	yput		%ymm21, %ymm23
	hyadd		24, 25, 26, 27, 29, 17, 18, 19
	yhalves		%ymm24, %ymm25, %ymm26, %ymm27
	yput		%ymm30, %ymm31
	ylast		%ymm25, %ymm27
.endif
.endm

/*
 * The second set of the sixteen-block form ready to put out: its words 14
 * and 15 back from the frame into ymm14 and ymm15 (free once the first
 * set is out), the feed-forward and the interleaves.
 */
.macro	y16second
	vmovdqa64	YSPILL(0), %ymm14
	vmovdqa64	YSPILL(1), %ymm15
	yff		0, YCTR(1), %ymm16, %ymm17, %ymm18, %ymm19, %ymm20, \
			%ymm21, %ymm22, %ymm23, %ymm24, %ymm25, %ymm26, \
			%ymm27, %ymm28, %ymm29, %ymm14, %ymm15
	interleave4	%ymm16, %ymm17, %ymm18, %ymm19, %ymm30, %ymm31
	interleave4	%ymm20, %ymm21, %ymm22, %ymm23, %ymm30, %ymm31
	interleave4	%ymm24, %ymm25, %ymm26, %ymm27, %ymm30, %ymm31
	interleave4	%ymm28, %ymm29, %ymm14, %ymm15, %ymm30, %ymm31
.endm

/*
 * void kchacha_avx512vl_xor(const u32 *state, u8 *dst, const u8 *src,
 *			     unsigned int len, int nrounds)
 */
SYM_TYPED_FUNC_START(kchacha_avx512vl_xor)
	test		LEN32, LEN32
	jz		.Lvl_ret
	push		%rbp
	mov		%rsp, %rbp
	sub		$YFRAME, %rsp
	and		$~31, %rsp
	mov		LEN32, LEN32
	mov		48(STATE), CTR

	/*
	 * The form for the LEN bytes left:
	 *
	 *	   1 ..  128 bytes: one horizontal chain of two blocks;
	 *	 129 ..  256 bytes: two such chains;
	 *	 257 ..  512 bytes: eight vertical blocks;
	 *	 513 ..  640 bytes: eight vertical blocks and one chain of two,
	 *			    in one loop;
	 *	 641 ..  768 bytes: eight vertical blocks and two chains;
	 *	 769 and up:	    sixteen vertical blocks in two sets of
	 *			    eight, repeated while 1024 bytes or more
	 *			    are left.
	 *
	 * Up to four blocks are bound by the latency of one chain's rounds;
	 * from five, by the vector units' throughput, where the vertical
	 * forms need no diagonal shuffles.  The mixed forms hide a chain's
	 * latency under eight vertical blocks' throughput: on Intel (three
	 * vector ports) sixteen vertical blocks cost twice eight, and eight
	 * plus a chain far less (llvm-mca: 42 against 64 cycles a double
	 * round on Skylake-X).
	 */
.Lvl_choose:
	cmp		$128, LEN
	jbe		.Lvl_hy1
	cmp		$256, LEN
	jbe		.Lvl_hy2
	cmp		$512, LEN
	jbe		.Lvl_y8
	cmp		$640, LEN
	jbe		.Lvl_m1
	cmp		$768, LEN
	jbe		.Lvl_m2

	vpbroadcastd	CTR, %ymm0
	vpaddd		.Llanes(%rip), %ymm0, %ymm0
	vpaddd		.Leight(%rip){1to8}, %ymm0, %ymm1
	vmovdqa		%ymm0, YCTR(0)
	vmovdqa		%ymm1, YCTR(1)
.Lvl_y16_pass:
	ybcast		0, YCTR(0), %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, \
			%ymm6, %ymm7, %ymm8, %ymm9, %ymm10, %ymm11, %ymm12, \
			%ymm13, %ymm14, %ymm15
	ybcast		0, YCTR(1), %ymm16, %ymm17, %ymm18, %ymm19, %ymm20, \
			%ymm21, %ymm22, %ymm23, %ymm24, %ymm25, %ymm26, \
			%ymm27, %ymm28, %ymm29, %ymm30, %ymm31
	mov		ROUNDS, %eax
.Lvl_y16_dround:
	qround		%ymm0, %ymm4, %ymm8, %ymm12, %ymm1, %ymm5, %ymm9, %ymm13, \
			%ymm2, %ymm6, %ymm10, %ymm14, %ymm3, %ymm7, %ymm11, %ymm15, \
			%ymm16, %ymm20, %ymm24, %ymm28, %ymm17, %ymm21, %ymm25, %ymm29, \
			%ymm18, %ymm22, %ymm26, %ymm30, %ymm19, %ymm23, %ymm27, %ymm31
	qround		%ymm0, %ymm5, %ymm10, %ymm15, %ymm1, %ymm6, %ymm11, %ymm12, \
			%ymm2, %ymm7, %ymm8, %ymm13, %ymm3, %ymm4, %ymm9, %ymm14, \
			%ymm16, %ymm21, %ymm26, %ymm31, %ymm17, %ymm22, %ymm27, %ymm28, \
			%ymm18, %ymm23, %ymm24, %ymm29, %ymm19, %ymm20, %ymm25, %ymm30
	sub		$2, %eax
	jnz		.Lvl_y16_dround

	/*
	 * The first set out, words 14 and 15 of the second waiting; a
	 * whole pass at fixed offsets, one that ends inside its blocks
	 * block by block up to LEN.
	 */
	vmovdqa64	%ymm30, YSPILL(0)
	vmovdqa64	%ymm31, YSPILL(1)
	yff		0, YCTR(0), %ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, \
			%ymm6, %ymm7, %ymm8, %ymm9, %ymm10, %ymm11, %ymm12, \
			%ymm13, %ymm14, %ymm15
	interleave4	%ymm0, %ymm1, %ymm2, %ymm3, %ymm30, %ymm31
	interleave4	%ymm4, %ymm5, %ymm6, %ymm7, %ymm30, %ymm31
	interleave4	%ymm8, %ymm9, %ymm10, %ymm11, %ymm30, %ymm31
	interleave4	%ymm12, %ymm13, %ymm14, %ymm15, %ymm30, %ymm31
	cmp		$1024, LEN
	jb		.Lvl_y16_last
	yout8all	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
			%ymm8, %ymm9, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, \
			%ymm15, 0
	y16second
	yout8all	%ymm16, %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22, \
			%ymm23, %ymm24, %ymm25, %ymm26, %ymm27, %ymm28, %ymm29, \
			%ymm14, %ymm15, 8

	vmovdqa		YCTR(0), %ymm0
	vmovdqa		YCTR(1), %ymm1
	vpaddd		.Lsixteen(%rip){1to8}, %ymm0, %ymm0
	vpaddd		.Lsixteen(%rip){1to8}, %ymm1, %ymm1
	vmovdqa		%ymm0, YCTR(0)
	vmovdqa		%ymm1, YCTR(1)
	add		$16, CTR
	add		$1024, SRC
	add		$1024, DST
	sub		$1024, LEN
	jz		.Lvl_done
	cmp		$1024, LEN
	jae		.Lvl_y16_pass
	jmp		.Lvl_choose

.Lvl_y16_last:
	yout8		%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
			%ymm8, %ymm9, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, \
			%ymm15, 0
	y16second
	yout8		%ymm16, %ymm17, %ymm18, %ymm19, %ymm20, %ymm21, %ymm22, \
			%ymm23, %ymm24, %ymm25, %ymm26, %ymm27, %ymm28, %ymm29, \
			%ymm14, %ymm15, 1

	/* eight vertical blocks, the counters in ymm16 */
.Lvl_y8:
	vpbroadcastd	CTR, %ymm16
	vpaddd		.Llanes(%rip), %ymm16, %ymm16
	vblocks		y, 8, vl_
	cmp		$512, LEN
	jb		.Lvl_y8_last
	yout8all	%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
			%ymm8, %ymm9, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, \
			%ymm15, 0
	jmp		.Lvl_done
.Lvl_y8_last:
	yout8		%ymm0, %ymm1, %ymm2, %ymm3, %ymm4, %ymm5, %ymm6, %ymm7, \
			%ymm8, %ymm9, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, \
			%ymm15, 1

	ymform		1
	ymform		2
	hyform		1, vl_, yhout
	hyform		2, vl_, yhout

	/*
	 * The last LEN (1..64) bytes, keystream in ymm30 (bytes 0-31) and
	 * ymm31: a whole first half, then through an opmask with the low LEN
	 * bits set (all ones shifted right by 64 - LEN, mod 64).
	 */
.Lvl_tail:
	cmp		$32, LEN
	jb		.Lvl_tail_masked
	vpxord		(SRC), %ymm30, %ymm30
	vmovdqu32	%ymm30, (DST)
	add		$32, SRC
	add		$32, DST
	sub		$32, LEN
	jz		.Lvl_done
	vmovdqa64	%ymm31, %ymm30
.Lvl_tail_masked:
	mov		$-1, %rax
	neg		%ecx
	shr		%cl, %rax
	kmovq		%rax, %k1
	vmovdqu8	(SRC), %ymm31{%k1}{z}
	vpxord		%ymm31, %ymm30, %ymm30
	vmovdqu8	%ymm30, (DST){%k1}

.Lvl_done:
	vpxor		%xmm0, %xmm0, %xmm0
	vmovdqa		%ymm0, YSPILL(0)
	vmovdqa		%ymm0, YSPILL(1)
	vzeroupper
	leave
.Lvl_ret:
	RET
SYM_FUNC_END(kchacha_avx512vl_xor)
