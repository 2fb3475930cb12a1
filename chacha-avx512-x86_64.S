/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha: ChaCha keystream XOR for x86_64 with AVX-512F.
 *
 * kchacha_avx512_xor() follows kchacha_xor_fn (kchacha.h): any length, any
 * alignment, dst == src allowed, the state left alone, the block counter
 * wrapping modulo 2^32 in word 12 only.
 *
 * Whole 1024-byte passes run sixteen blocks "vertically": zmm register i
 * holds word i of sixteen consecutive blocks.  With 32 registers nothing is
 * spilled: zmm0-15 hold the state, zmm16 the sixteen counters, zmm17-24 are
 * scratch for the transpose.  Every rotation is one vprold; the original
 * state is added back straight from memory with embedded broadcasts.  (No
 * three-input boolean occurs in the quarter round or the output, every XOR
 * being followed by a rotate or a store, so vpternlogd would save nothing.)
 * The output is a 16x16 dword transpose: dword and qword interleaves inside
 * each 128-bit lane, then two rounds of 128-bit lane shuffles, leaving each
 * block in one register.
 *
 * What is left after the whole passes, less than 1024 bytes, is passed to
 * kchacha_avx2_xor() on a copy of the state with the counter advanced: its
 * eight-, four- and two-block forms and its partial-block handling are the
 * narrower forms here too (every AVX-512F CPU has AVX2), so the tail code
 * is the one the AVX2 tests exercise.
 */

#include <linux/cfi_types.h>
#include <linux/linkage.h>

.section	.rodata.cst64.kchacha_avx512_lanes, "aM", @progbits, 64
.align 64
.Llanes:	.long	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15

.section	.rodata.cst4.kchacha_avx512_sixteen, "aM", @progbits, 4
.align 4
.Lsixteen:	.long	16

/* Stack frame, 64-byte aligned: the state copy handed to the AVX2 code. */
#define FRAME		64

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

/*
 * void kchacha_avx512_xor(const u32 *state, u8 *dst, const u8 *src,
 *			   unsigned int len, int nrounds)
 */
SYM_TYPED_FUNC_START(kchacha_avx512_xor)
	test		LEN32, LEN32
	jz		.Lret
	push		%rbp
	mov		%rsp, %rbp
	sub		$FRAME, %rsp
	and		$~63, %rsp
	mov		LEN32, LEN32
	mov		48(STATE), CTR

	cmp		$1024, LEN
	jb		.Lrest

	vpbroadcastd	CTR, %zmm16
	vpaddd		.Llanes(%rip), %zmm16, %zmm16

.Lz16_pass:
	vpbroadcastd	0x00(STATE), %zmm0
	vpbroadcastd	0x04(STATE), %zmm1
	vpbroadcastd	0x08(STATE), %zmm2
	vpbroadcastd	0x0c(STATE), %zmm3
	vpbroadcastd	0x10(STATE), %zmm4
	vpbroadcastd	0x14(STATE), %zmm5
	vpbroadcastd	0x18(STATE), %zmm6
	vpbroadcastd	0x1c(STATE), %zmm7
	vpbroadcastd	0x20(STATE), %zmm8
	vpbroadcastd	0x24(STATE), %zmm9
	vpbroadcastd	0x28(STATE), %zmm10
	vpbroadcastd	0x2c(STATE), %zmm11
	vmovdqa64	%zmm16, %zmm12
	vpbroadcastd	0x34(STATE), %zmm13
	vpbroadcastd	0x38(STATE), %zmm14
	vpbroadcastd	0x3c(STATE), %zmm15
	mov		ROUNDS, %eax

.Lz16_dround:
	qr4		%zmm0, %zmm4, %zmm8, %zmm12, %zmm1, %zmm5, %zmm9, %zmm13, \
			%zmm2, %zmm6, %zmm10, %zmm14, %zmm3, %zmm7, %zmm11, %zmm15
	qr4		%zmm0, %zmm5, %zmm10, %zmm15, %zmm1, %zmm6, %zmm11, %zmm12, \
			%zmm2, %zmm7, %zmm8, %zmm13, %zmm3, %zmm4, %zmm9, %zmm14
	sub		$2, %eax
	jnz		.Lz16_dround

	vpaddd		0x00(STATE){1to16}, %zmm0, %zmm0
	vpaddd		0x04(STATE){1to16}, %zmm1, %zmm1
	vpaddd		0x08(STATE){1to16}, %zmm2, %zmm2
	vpaddd		0x0c(STATE){1to16}, %zmm3, %zmm3
	vpaddd		0x10(STATE){1to16}, %zmm4, %zmm4
	vpaddd		0x14(STATE){1to16}, %zmm5, %zmm5
	vpaddd		0x18(STATE){1to16}, %zmm6, %zmm6
	vpaddd		0x1c(STATE){1to16}, %zmm7, %zmm7
	vpaddd		0x20(STATE){1to16}, %zmm8, %zmm8
	vpaddd		0x24(STATE){1to16}, %zmm9, %zmm9
	vpaddd		0x28(STATE){1to16}, %zmm10, %zmm10
	vpaddd		0x2c(STATE){1to16}, %zmm11, %zmm11
	vpaddd		%zmm16, %zmm12, %zmm12
	vpaddd		0x34(STATE){1to16}, %zmm13, %zmm13
	vpaddd		0x38(STATE){1to16}, %zmm14, %zmm14
	vpaddd		0x3c(STATE){1to16}, %zmm15, %zmm15

	interleave4	%zmm0, %zmm1, %zmm2, %zmm3, %zmm17, %zmm18
	interleave4	%zmm4, %zmm5, %zmm6, %zmm7, %zmm17, %zmm18
	interleave4	%zmm8, %zmm9, %zmm10, %zmm11, %zmm17, %zmm18
	interleave4	%zmm12, %zmm13, %zmm14, %zmm15, %zmm17, %zmm18
	gather4		0, %zmm2, %zmm6, %zmm10, %zmm14
	gather4		1, %zmm3, %zmm7, %zmm11, %zmm15
	gather4		2, %zmm0, %zmm4, %zmm8, %zmm12
	gather4		3, %zmm1, %zmm5, %zmm9, %zmm13

	vpaddd		.Lsixteen(%rip){1to16}, %zmm16, %zmm16
	add		$16, CTR
	add		$1024, SRC
	add		$1024, DST
	sub		$1024, LEN
	cmp		$1024, LEN
	jae		.Lz16_pass
	vzeroupper

	/* the rest through the AVX2 code, from a state copy at CTR */
.Lrest:
	test		LEN, LEN
	jz		.Ldone
	vmovdqu		0x00(STATE), %ymm0
	vmovdqu		0x20(STATE), %ymm1
	vmovdqa		%ymm0, 0x00(%rsp)
	vmovdqa		%ymm1, 0x20(%rsp)
	mov		CTR, 0x30(%rsp)
	mov		%rsp, %rdi
	call		kchacha_avx2_xor
	vpxor		%xmm0, %xmm0, %xmm0
	vmovdqa		%ymm0, 0x00(%rsp)
	vmovdqa		%ymm0, 0x20(%rsp)

.Ldone:
	vzeroupper
	leave
.Lret:
	RET
SYM_FUNC_END(kchacha_avx512_xor)
