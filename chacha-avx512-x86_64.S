/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha: ChaCha keystream XOR for x86_64 with AVX-512 (F, VL, BW).
 *
 * kchacha_avx512_xor() follows kchacha_xor_fn (kchacha.h): any length, any
 * alignment, dst == src allowed, the state left alone, the block counter
 * wrapping modulo 2^32 in word 12 only.
 *
 * Its forms, chosen by length in one place (.Lchoose below):
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
 * Nothing is kept on the stack.  zmm16-31, which vzeroupper leaves alone,
 * hold only what the caller's next kernel_fpu_end() or return to user
 * space overwrites, as with every other SIMD section of the kernel.
 */

#include <linux/cfi_types.h>
#include <linux/linkage.h>

.section	.rodata.cst64.kchacha_avx512_lanes, "aM", @progbits, 64
.align 64
.Llanes:	.long	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15

.section	.rodata.cst4.kchacha_avx512_sixteen, "aM", @progbits, 4
.align 4
.Lsixteen:	.long	16

/*
 * the horizontal forms: counter offsets of the four lanes (of a ymm chain:
 * the first two, or the last two for the second chain), a zmm chain's step
 */
.section	.rodata.cst64.kchacha_avx512_hlanes, "aM", @progbits, 64
.align 64
.Lhlanes:	.long	0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0

/* dword 0 of each 128-bit lane: where row 3 of a horizontal form takes CTR */
.section	.rodata.cst64.kchacha_avx512_word0, "aM", @progbits, 64
.align 64
.Lword0:	.long	-1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0

.section	.rodata.cst64.kchacha_avx512_hstep, "aM", @progbits, 64
.align 64
.Lhstep:	.long	4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0

/* arguments */
#define STATE		%rdi
#define DST		%rsi
#define SRC		%rdx
#define LEN		%rcx
#define LEN32		%ecx
#define ROUNDS		%r8d
/* the counter of the next block to produce */
#define CTR		%r9d

.text

/*
 * Four interleaved quarter rounds on vertical registers: the four columns,
 * or the four diagonals.
 */
.macro	qr4	a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3
	vpaddd		\b0, \a0, \a0
	vpaddd		\b1, \a1, \a1
	vpaddd		\b2, \a2, \a2
	vpaddd		\b3, \a3, \a3
	vpxord		\a0, \d0, \d0
	vpxord		\a1, \d1, \d1
	vpxord		\a2, \d2, \d2
	vpxord		\a3, \d3, \d3
	vprold		$16, \d0, \d0
	vprold		$16, \d1, \d1
	vprold		$16, \d2, \d2
	vprold		$16, \d3, \d3

	vpaddd		\d0, \c0, \c0
	vpaddd		\d1, \c1, \c1
	vpaddd		\d2, \c2, \c2
	vpaddd		\d3, \c3, \c3
	vpxord		\c0, \b0, \b0
	vpxord		\c1, \b1, \b1
	vpxord		\c2, \b2, \b2
	vpxord		\c3, \b3, \b3
	vprold		$12, \b0, \b0
	vprold		$12, \b1, \b1
	vprold		$12, \b2, \b2
	vprold		$12, \b3, \b3

	vpaddd		\b0, \a0, \a0
	vpaddd		\b1, \a1, \a1
	vpaddd		\b2, \a2, \a2
	vpaddd		\b3, \a3, \a3
	vpxord		\a0, \d0, \d0
	vpxord		\a1, \d1, \d1
	vpxord		\a2, \d2, \d2
	vpxord		\a3, \d3, \d3
	vprold		$8, \d0, \d0
	vprold		$8, \d1, \d1
	vprold		$8, \d2, \d2
	vprold		$8, \d3, \d3

	vpaddd		\d0, \c0, \c0
	vpaddd		\d1, \c1, \c1
	vpaddd		\d2, \c2, \c2
	vpaddd		\d3, \c3, \c3
	vpxord		\c0, \b0, \b0
	vpxord		\c1, \b1, \b1
	vpxord		\c2, \b2, \b2
	vpxord		\c3, \b3, \b3
	vprold		$7, \b0, \b0
	vprold		$7, \b1, \b1
	vprold		$7, \b2, \b2
	vprold		$7, \b3, \b3
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

/* One quarter round on the rows of a horizontal chain. */
.macro	hqr	a, b, c, d
	vpaddd		\b, \a, \a
	vpxord		\a, \d, \d
	vprold		$16, \d, \d
	vpaddd		\d, \c, \c
	vpxord		\c, \b, \b
	vprold		$12, \b, \b
	vpaddd		\b, \a, \a
	vpxord		\a, \d, \d
	vprold		$8, \d, \d
	vpaddd		\d, \c, \c
	vpxord		\c, \b, \b
	vprold		$7, \b, \b
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
 * or ymm16-18 with \p = y), row 3 (\ctr) holds the chain's counters.
 */
.macro	hinit	a, b, c, d, ctr, p=z
	vmovdqa64	%\p\()mm16, \a
	vmovdqa64	%\p\()mm17, \b
	vmovdqa64	%\p\()mm18, \c
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
 */
.macro	htranspose	a, b, c, d
	vshufi32x4	$0x44, \b, \a, %zmm24
	vshufi32x4	$0xee, \b, \a, %zmm25
	vshufi32x4	$0x44, \d, \c, %zmm26
	vshufi32x4	$0xee, \d, \c, %zmm27
	vshufi32x4	$0x88, %zmm26, %zmm24, \a
	vshufi32x4	$0xdd, %zmm26, %zmm24, \b
	vshufi32x4	$0x88, %zmm27, %zmm25, \c
	vshufi32x4	$0xdd, %zmm27, %zmm25, \d
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
	vbroadcasti32x4	0x00(STATE), %zmm16
	vbroadcasti32x4	0x10(STATE), %zmm17
	vbroadcasti32x4	0x20(STATE), %zmm18
	vbroadcasti32x4	0x30(STATE), %zmm19
	vpbroadcastd	CTR, %zmm23
	vpternlogd	$0xd8, .Lword0(%rip), %zmm23, %zmm19
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
	hchains		hqr, \n
	hchains		hdiag, \n
	hchains		hqr, \n
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
.macro	hyform	n
.Lhy\n:
	vbroadcasti32x4	0x00(STATE), %ymm16
	vbroadcasti32x4	0x10(STATE), %ymm17
	vbroadcasti32x4	0x20(STATE), %ymm18
	vbroadcasti32x4	0x30(STATE), %ymm3
	vpbroadcastd	CTR, %ymm19
	vpternlogd	$0xd8, .Lword0(%rip), %ymm19, %ymm3
	vpaddd		.Lhlanes(%rip), %ymm3, %ymm19
.if \n > 1
	vpaddd		.Lhlanes+32(%rip), %ymm3, %ymm20
.endif
	hinit		%ymm0, %ymm1, %ymm2, %ymm3, %ymm19, y
.if \n > 1
	hinit		%ymm4, %ymm5, %ymm6, %ymm7, %ymm20, y
.endif
	mov		ROUNDS, %eax
.Lhy\n\()_dround:
	hchains		hqr, \n, y
	hchains		hdiag, \n, y
	hchains		hqr, \n, y
	hchains		hundiag, \n, y
	sub		$2, %eax
	jnz		.Lhy\n\()_dround

	hyout		0, 1, 2, 3, 19, 1, \n
.if \n > 1
	hyout		4, 5, 6, 7, 20, 2, \n
.endif
.endm

/* Chain \k's two blocks in ymm \a..\d out, of a ymm form of \n chains. */
.macro	hyout	a, b, c, d, ctr, k, n
	vpaddd		%ymm16, %ymm\a, %ymm\a
	vpaddd		%ymm17, %ymm\b, %ymm\b
	vpaddd		%ymm18, %ymm\c, %ymm\c
	vpaddd		%ymm\ctr, %ymm\d, %ymm\d
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
 * qword interleaves; registers 17 and 18 are scratch.
 */
.macro	vblocks	p, n
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.if \i == 12
	vmovdqa64	%\p\()mm16, %\p\()mm12
.else
	vpbroadcastd	(4 * \i)(STATE), %\p\()mm\i
.endif
.endr
	mov		ROUNDS, %eax

.L\p\n\()_dround:
	qr4		%\p\()mm0, %\p\()mm4, %\p\()mm8, %\p\()mm12, \
			%\p\()mm1, %\p\()mm5, %\p\()mm9, %\p\()mm13, \
			%\p\()mm2, %\p\()mm6, %\p\()mm10, %\p\()mm14, \
			%\p\()mm3, %\p\()mm7, %\p\()mm11, %\p\()mm15
	qr4		%\p\()mm0, %\p\()mm5, %\p\()mm10, %\p\()mm15, \
			%\p\()mm1, %\p\()mm6, %\p\()mm11, %\p\()mm12, \
			%\p\()mm2, %\p\()mm7, %\p\()mm8, %\p\()mm13, \
			%\p\()mm3, %\p\()mm4, %\p\()mm9, %\p\()mm14
	sub		$2, %eax
	jnz		.L\p\n\()_dround

.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
.if \i == 12
	vpaddd		%\p\()mm16, %\p\()mm12, %\p\()mm12
.else
	vpaddd		(4 * \i)(STATE){1to\n}, %\p\()mm\i, %\p\()mm\i
.endif
.endr

	interleave4	%\p\()mm0, %\p\()mm1, %\p\()mm2, %\p\()mm3, \
			%\p\()mm17, %\p\()mm18
	interleave4	%\p\()mm4, %\p\()mm5, %\p\()mm6, %\p\()mm7, \
			%\p\()mm17, %\p\()mm18
	interleave4	%\p\()mm8, %\p\()mm9, %\p\()mm10, %\p\()mm11, \
			%\p\()mm17, %\p\()mm18
	interleave4	%\p\()mm12, %\p\()mm13, %\p\()mm14, %\p\()mm15, \
			%\p\()mm17, %\p\()mm18
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
 * void kchacha_avx512_xor(const u32 *state, u8 *dst, const u8 *src,
 *			   unsigned int len, int nrounds)
 */
SYM_TYPED_FUNC_START(kchacha_avx512_xor)
	test		LEN32, LEN32
	jz		.Lret
	mov		LEN32, LEN32
	mov		48(STATE), CTR

	/*
	 * The form for the LEN bytes left, the one place that chooses
	 * (measured on AMD Zen 4, estimated for Intel with llvm-mca):
	 *
	 *	   1 ..  128 bytes: one horizontal chain of two blocks in ymm;
	 *	 129 ..  256 bytes: two such chains;
	 *	 257 ..  512 bytes: eight vertical blocks in ymm;
	 *	 513 ..  768 bytes: three horizontal chains of four blocks in zmm;
	 *	 769 and up:	    sixteen vertical blocks in zmm, repeated
	 *			    while 1024 bytes or more are left.
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
.Lz16_pass:
	vblocks		z, 16
	cmp		$1024, LEN
	jb		.Lz16_last
	gather4		0, %zmm2, %zmm6, %zmm10, %zmm14
	gather4		1, %zmm3, %zmm7, %zmm11, %zmm15
	gather4		2, %zmm0, %zmm4, %zmm8, %zmm12
	gather4		3, %zmm1, %zmm5, %zmm9, %zmm13

	vpaddd		.Lsixteen(%rip){1to16}, %zmm16, %zmm16
	add		$16, CTR
	add		$1024, SRC
	add		$1024, DST
	sub		$1024, LEN
	jz		.Ldone
	cmp		$1024, LEN
	jae		.Lz16_pass
	jmp		.Lchoose

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
SYM_FUNC_END(kchacha_avx512_xor)
