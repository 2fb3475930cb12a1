/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha: ChaCha keystream XOR and HChaCha for x86_64 with SSSE3.
 *
 * kchacha_ssse3_xor() follows kchacha_xor_fn (kchacha.h): any length, any
 * alignment, dst == src allowed, the state left alone, the block counter
 * wrapping modulo 2^32 in word 12 only.
 *
 * Three forms share one stack frame:
 *
 *  - four blocks "vertically": a register holds one state word of four
 *    consecutive blocks, so a quarter round is four independent dword
 *    operations with no shuffling between rounds.  The four quarter rounds
 *    of a round advance together, step by step, so that four independent
 *    chains are in flight at every point (a core that splits or queues its
 *    shifts on one pipe, as AMD Zen does, needs them all to hide the
 *    latency of each chain).  The two rotation shuffles stay in registers,
 *    which leaves one scratch register and thirteen for the state: words
 *    1..3 live in stack slots, each used by a load, an add and a store (the
 *    load and store units are otherwise idle here).  The output is
 *    transposed 4x4 per row group;
 *  - two blocks "horizontally", one state row per register, two chains
 *    interleaved to hide the latency of the serial quarter round;
 *  - one block horizontally, for the last block or a request of one block.
 *
 * A pass that ends inside its blocks writes its keystream to the stack
 * (over the broadcast state, which it no longer needs) and XORs only the
 * bytes asked for from there: nothing past src + len is read, nothing past
 * dst + len written.  The frame is wiped before returning.
 *
 * Rotations by 16 and 8 are byte shuffles (pshufb); by 12 and 7 a shift
 * pair and an or.
 */

#include <linux/cfi_types.h>
#include <linux/linkage.h>

.section	.rodata.cst16.kchacha_ssse3_rot16, "aM", @progbits, 16
.align 16
.Lrot16:	.byte	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13

.section	.rodata.cst16.kchacha_ssse3_rot8, "aM", @progbits, 16
.align 16
.Lrot8:		.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14

.section	.rodata.cst16.kchacha_ssse3_lanes, "aM", @progbits, 16
.align 16
.Llanes:	.long	0, 1, 2, 3

.section	.rodata.cst16.kchacha_ssse3_four, "aM", @progbits, 16
.align 16
.Lfour:		.long	4, 4, 4, 4

.section	.rodata.cst16.kchacha_ssse3_one, "aM", @progbits, 16
.align 16
.Lone:		.long	1, 0, 0, 0

/*
 * Stack frame, 16-byte aligned: S, the sixteen state words broadcast to
 * four lanes (word 12 holds the four counters of the pass), reused as the
 * keystream buffer of a partial pass; then the slots of words 1..3 (and
 * one spare, which keeps the frame a multiple of 64 bytes).
 */
#define S(i)		(16 * (i))(%rsp)
#define A(i)		(256 + 16 * ((i) - 1))(%rsp)
#define FRAME		320

/* arguments */
#define STATE		%rdi
#define DST		%rsi
#define SRC		%rdx
#define LEN		%rcx
#define LEN32		%ecx
#define ROUNDS		%r8d
/* the counter of the next block to produce */
#define CTR		%r9d

#define KCHACHA_ROWS_SSE
#include "chacha-x86-rows.S"

.text

/*
 * The vertical form's registers: the scratch register, word 0, the 8- and
 * 16-bit rotation shuffles; words 4..15 are in xmm4-15.
 */
#define VT		%xmm0
#define VR8		%xmm2
#define VR16		%xmm3

/* a += b, d ^= a, d <<<= 16 or 8 (\m: its shuffle), a in a register */
.macro	vadd	a, b, d, m
	paddd		\b, \a
	pxor		\a, \d
	pshufb		\m, \d
.endm

/* the same with a in a stack slot, through VT */
.macro	vaddm	a, b, d, m
	movdqa		\a, VT
	paddd		\b, VT
	movdqa		VT, \a
	pxor		VT, \d
	pshufb		\m, \d
.endm

/* c += d, b ^= c, b <<<= \n, through VT */
.macro	vmix	c, d, b, n
	paddd		\d, \c
	pxor		\c, \b
	movdqa		\b, VT
	pslld		$\n, VT
	psrld		$(32 - \n), \b
	por		VT, \b
.endm

/*
 * One round: four quarter rounds on (a0, bi, ci, di), word a0 in a
 * register and a1..a3 in slots, each step taken by all four before the
 * next.  Used for both the column and the diagonal rounds.
 */
.macro	vround	a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3
	vadd		\a0, \b0, \d0, VR16
	vaddm		\a1, \b1, \d1, VR16
	vaddm		\a2, \b2, \d2, VR16
	vaddm		\a3, \b3, \d3, VR16
	vmix		\c0, \d0, \b0, 12
	vmix		\c1, \d1, \b1, 12
	vmix		\c2, \d2, \b2, 12
	vmix		\c3, \d3, \b3, 12
	vadd		\a0, \b0, \d0, VR8
	vaddm		\a1, \b1, \d1, VR8
	vaddm		\a2, \b2, \d2, VR8
	vaddm		\a3, \b3, \d3, VR8
	vmix		\c0, \d0, \b0, 7
	vmix		\c1, \d1, \b1, 7
	vmix		\c2, \d2, \b2, 7
	vmix		\c3, \d3, \b3, 7
.endm

/*
 * 4x4 dword transpose: on entry r0..r3 hold word w..w+3 of four blocks; on
 * exit row w/4 of block 0 is in \r3, block 1 in \t, block 2 in \r1, block 3
 * in \r0, and \r2 is free.
 */
.macro	transpose4	r0, r1, r2, r3, t
	movdqa		\r0, \t
	punpckldq	\r1, \t
	punpckhdq	\r1, \r0
	movdqa		\r2, \r1
	punpckldq	\r3, \r1
	punpckhdq	\r3, \r2
	movdqa		\t, \r3
	punpcklqdq	\r1, \r3
	punpckhqdq	\r1, \t
	movdqa		\r0, \r1
	punpcklqdq	\r2, \r1
	punpckhqdq	\r2, \r0
.endm

/* XOR one 16-byte keystream row into dst at \off, through scratch \t. */
.macro	xor16	ks, off, t
	movdqu		\off(SRC), \t
	pxor		\ks, \t
	movdqu		\t, \off(DST)
.endm

/*
 * Put the four rows of group \g (one per block) out: XORed into dst, or
 * (\buf = 1) into the keystream buffer at the same offsets.
 */
.macro	out4	buf, g, k0, k1, k2, k3, t
.if \buf
	movdqa		\k0, (0 * 64 + 16 * \g)(%rsp)
	movdqa		\k1, (1 * 64 + 16 * \g)(%rsp)
	movdqa		\k2, (2 * 64 + 16 * \g)(%rsp)
	movdqa		\k3, (3 * 64 + 16 * \g)(%rsp)
.else
	xor16		\k0, (0 * 64 + 16 * \g), \t
	xor16		\k1, (1 * 64 + 16 * \g), \t
	xor16		\k2, (2 * 64 + 16 * \g), \t
	xor16		\k3, (3 * 64 + 16 * \g), \t
.endif
.endm

/*
 * The end of a vertical pass: the feed-forward, then each row group
 * transposed and put out.  Word 0 is in xmm1, words 1..3 in their slots,
 * words 4..15 in xmm4-15.
 */
.macro	v4_finish	buf
	/* words 1..3 first: a partial pass overwrites S */
	movdqa		A(1), %xmm0
	movdqa		A(2), %xmm2
	movdqa		A(3), %xmm3
	paddd		S(1), %xmm0
	paddd		S(2), %xmm2
	paddd		S(3), %xmm3
	movdqa		%xmm0, A(1)
	movdqa		%xmm2, A(2)
	movdqa		%xmm3, A(3)
	paddd		S(0), %xmm1
	paddd		S(4), %xmm4
	paddd		S(5), %xmm5
	paddd		S(6), %xmm6
	paddd		S(7), %xmm7
	paddd		S(8), %xmm8
	paddd		S(9), %xmm9
	paddd		S(10), %xmm10
	paddd		S(11), %xmm11
	paddd		S(12), %xmm12
	paddd		S(13), %xmm13
	paddd		S(14), %xmm14
	paddd		S(15), %xmm15

	transpose4	%xmm4, %xmm5, %xmm6, %xmm7, %xmm0
	out4		\buf, 1, %xmm7, %xmm0, %xmm5, %xmm4, %xmm2
	movdqa		A(1), %xmm2
	movdqa		A(2), %xmm3
	movdqa		A(3), %xmm6
	transpose4	%xmm1, %xmm2, %xmm3, %xmm6, %xmm0
	out4		\buf, 0, %xmm6, %xmm0, %xmm2, %xmm1, %xmm3
	transpose4	%xmm8, %xmm9, %xmm10, %xmm11, %xmm0
	out4		\buf, 2, %xmm11, %xmm0, %xmm9, %xmm8, %xmm1
	transpose4	%xmm12, %xmm13, %xmm14, %xmm15, %xmm0
	out4		\buf, 3, %xmm15, %xmm0, %xmm13, %xmm12, %xmm1
.endm

/*
 * One horizontal quarter round on rows a, b, c, d; \t is scratch, \r16 and
 * \r8 hold the rotation shuffles (a shuffle from memory costs a load per
 * use, and a model that charges the load's latency to the chain).
 */
.macro	hqr	a, b, c, d, t, r16, r8
	paddd		\b, \a
	pxor		\a, \d
	pshufb		\r16, \d
	paddd		\d, \c
	pxor		\c, \b
	movdqa		\b, \t
	pslld		$12, \t
	psrld		$20, \b
	por		\t, \b
	paddd		\b, \a
	pxor		\a, \d
	pshufb		\r8, \d
	paddd		\d, \c
	pxor		\c, \b
	movdqa		\b, \t
	pslld		$7, \t
	psrld		$25, \b
	por		\t, \b
.endm

/*
 * Line the diagonals up as columns, and back: rows a, c and d move (by one
 * word down, one up and two), not b: b's rotate ends a quarter round and
 * the next one needs it first, so it goes straight on, while the others
 * were final some steps earlier and shuffle off the critical path.
 */
.macro	hdiag	a, c, d
	pshufd		$0x93, \a, \a
	pshufd		$0x39, \c, \c
	pshufd		$0x4e, \d, \d
.endm

.macro	hundiag	a, c, d
	pshufd		$0x39, \a, \a
	pshufd		$0x93, \c, \c
	pshufd		$0x4e, \d, \d
.endm

/* One horizontal double round on one block in \a..\d. */
.macro	hdround	a, b, c, d, t, r16, r8
	hqr		\a, \b, \c, \d, \t, \r16, \r8
	hdiag		\a, \c, \d
	hqr		\a, \b, \c, \d, \t, \r16, \r8
	hundiag		\a, \c, \d
.endm

/*
 * void kchacha_ssse3_xor(const u32 *state, u8 *dst, const u8 *src,
 *			  unsigned int len, int nrounds)
 */
SYM_TYPED_FUNC_START(kchacha_ssse3_xor)
	test		LEN32, LEN32
	jz		.Lret
	push		%rbp
	mov		%rsp, %rbp
	sub		$FRAME, %rsp
	and		$~15, %rsp
	mov		LEN32, LEN32
	mov		48(STATE), CTR

	cmp		$128, LEN
	jbe		.Lhoriz

	/*
	 * S: each state word in all four lanes, the counters 0..3 apart,
	 * broadcast straight into the registers of the first pass.  Word by
	 * word: the state was written by C just before the call, in stores
	 * of four or eight bytes, and a 16-byte load of it could not be
	 * forwarded from them (it would wait until they reached the cache).
	 */
.irp i, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
	movd		(4 * \i)(STATE), %xmm\i
	pshufd		$0x00, %xmm\i, %xmm\i
.endr
	paddd		.Llanes(%rip), %xmm12
	movdqa		%xmm0, S(0)
	movdqa		%xmm1, S(1)
	movdqa		%xmm2, S(2)
	movdqa		%xmm3, S(3)
	movdqa		%xmm4, S(4)
	movdqa		%xmm5, S(5)
	movdqa		%xmm6, S(6)
	movdqa		%xmm7, S(7)
	movdqa		%xmm8, S(8)
	movdqa		%xmm9, S(9)
	movdqa		%xmm10, S(10)
	movdqa		%xmm11, S(11)
	movdqa		%xmm12, S(12)
	movdqa		%xmm13, S(13)
	movdqa		%xmm14, S(14)
	movdqa		%xmm15, S(15)
	movdqa		%xmm1, A(1)
	movdqa		%xmm2, A(2)
	movdqa		%xmm3, A(3)
	movdqa		%xmm0, %xmm1
	jmp		.Lv4_start

.Lv4_pass:
	movdqa		S(1), %xmm1
	movdqa		S(2), %xmm2
	movdqa		S(3), %xmm3
	movdqa		%xmm1, A(1)
	movdqa		%xmm2, A(2)
	movdqa		%xmm3, A(3)
	movdqa		S(0), %xmm1
	movdqa		S(4), %xmm4
	movdqa		S(5), %xmm5
	movdqa		S(6), %xmm6
	movdqa		S(7), %xmm7
	movdqa		S(8), %xmm8
	movdqa		S(9), %xmm9
	movdqa		S(10), %xmm10
	movdqa		S(11), %xmm11
	movdqa		S(12), %xmm12
	movdqa		S(13), %xmm13
	movdqa		S(14), %xmm14
	movdqa		S(15), %xmm15
.Lv4_start:
	movdqa		.Lrot8(%rip), VR8
	movdqa		.Lrot16(%rip), VR16
	mov		ROUNDS, %eax

.Lv4_dround:
	/* the columns, then the diagonals */
	vround		%xmm1, A(1), A(2), A(3), %xmm4, %xmm5, %xmm6, %xmm7, \
			%xmm8, %xmm9, %xmm10, %xmm11, %xmm12, %xmm13, %xmm14, %xmm15
	vround		%xmm1, A(1), A(2), A(3), %xmm5, %xmm6, %xmm7, %xmm4, \
			%xmm10, %xmm11, %xmm8, %xmm9, %xmm15, %xmm12, %xmm13, %xmm14
	sub		$2, %eax
	jnz		.Lv4_dround

	cmp		$256, LEN
	jb		.Lv4_partial

	v4_finish	0
	add		$4, CTR
	movdqa		S(12), %xmm0
	paddd		.Lfour(%rip), %xmm0
	movdqa		%xmm0, S(12)
	add		$256, SRC
	add		$256, DST
	sub		$256, LEN
	jz		.Ldone
	cmp		$128, LEN
	ja		.Lv4_pass
	jmp		.Lhoriz

.Lv4_partial:
	v4_finish	1
	jmp		.Ltail

	/*
	 * one or two blocks left: rows from the state, the counter from CTR;
	 * the rotation shuffles in xmm15 and xmm9
	 */
.Lhoriz:
	movdqa		.Lrot16(%rip), %xmm15
	movdqa		.Lrot8(%rip), %xmm9
	srows		%xmm10, %xmm11, %xmm12, %xmm0, %xmm1
	srow		CTR, 0x30, %xmm13, %xmm0, %xmm1
	cmp		$64, LEN
	jbe		.Lh1

	/*
	 * two blocks: rows in xmm0-3 and xmm4-7, row 3 of the second in
	 * xmm14; one scratch register serves both chains
	 */
	movdqa		%xmm13, %xmm14
	paddd		.Lone(%rip), %xmm14
	movdqa		%xmm10, %xmm0
	movdqa		%xmm11, %xmm1
	movdqa		%xmm12, %xmm2
	movdqa		%xmm13, %xmm3
	movdqa		%xmm10, %xmm4
	movdqa		%xmm11, %xmm5
	movdqa		%xmm12, %xmm6
	movdqa		%xmm14, %xmm7
	mov		ROUNDS, %eax
.Lh2_dround:
	hqr		%xmm0, %xmm1, %xmm2, %xmm3, %xmm8, %xmm15, %xmm9
	hqr		%xmm4, %xmm5, %xmm6, %xmm7, %xmm8, %xmm15, %xmm9
	hdiag		%xmm0, %xmm2, %xmm3
	hdiag		%xmm4, %xmm6, %xmm7
	hqr		%xmm0, %xmm1, %xmm2, %xmm3, %xmm8, %xmm15, %xmm9
	hqr		%xmm4, %xmm5, %xmm6, %xmm7, %xmm8, %xmm15, %xmm9
	hundiag		%xmm0, %xmm2, %xmm3
	hundiag		%xmm4, %xmm6, %xmm7
	sub		$2, %eax
	jnz		.Lh2_dround

	paddd		%xmm10, %xmm0
	paddd		%xmm11, %xmm1
	paddd		%xmm12, %xmm2
	paddd		%xmm13, %xmm3
	paddd		%xmm10, %xmm4
	paddd		%xmm11, %xmm5
	paddd		%xmm12, %xmm6
	paddd		%xmm14, %xmm7
	/* the first block is whole: more than 64 bytes are left */
	xor16		%xmm0, 0x00, %xmm8
	xor16		%xmm1, 0x10, %xmm8
	xor16		%xmm2, 0x20, %xmm8
	xor16		%xmm3, 0x30, %xmm8
	add		$64, SRC
	add		$64, DST
	sub		$64, LEN
	movdqa		%xmm4, %xmm0
	movdqa		%xmm5, %xmm1
	movdqa		%xmm6, %xmm2
	movdqa		%xmm7, %xmm3
	jmp		.Lh_out

	/* one block */
.Lh1:
	movdqa		%xmm10, %xmm0
	movdqa		%xmm11, %xmm1
	movdqa		%xmm12, %xmm2
	movdqa		%xmm13, %xmm3
	mov		ROUNDS, %eax
.Lh1_dround:
	hdround		%xmm0, %xmm1, %xmm2, %xmm3, %xmm8, %xmm15, %xmm9
	sub		$2, %eax
	jnz		.Lh1_dround
	paddd		%xmm10, %xmm0
	paddd		%xmm11, %xmm1
	paddd		%xmm12, %xmm2
	paddd		%xmm13, %xmm3

	/* the last block, its keystream in xmm0-3 and 1..64 bytes left */
.Lh_out:
	cmp		$64, LEN
	jb		.Lh_partial
	xor16		%xmm0, 0x00, %xmm8
	xor16		%xmm1, 0x10, %xmm8
	xor16		%xmm2, 0x20, %xmm8
	xor16		%xmm3, 0x30, %xmm8
	jmp		.Ldone
.Lh_partial:
	movdqa		%xmm0, 0x00(%rsp)
	movdqa		%xmm1, 0x10(%rsp)
	movdqa		%xmm2, 0x20(%rsp)
	movdqa		%xmm3, 0x30(%rsp)

	/* XOR the LEN bytes left with the keystream buffer at the frame base */
.Ltail:
	mov		%rsp, %r10
.Ltail16:
	cmp		$16, LEN
	jb		.Ltail8
	movdqu		(SRC), %xmm0
	pxor		(%r10), %xmm0
	movdqu		%xmm0, (DST)
	add		$16, SRC
	add		$16, DST
	add		$16, %r10
	sub		$16, LEN
	jmp		.Ltail16
.Ltail8:
	cmp		$8, LEN
	jb		.Ltail1
	mov		(SRC), %rax
	xor		(%r10), %rax
	mov		%rax, (DST)
	add		$8, SRC
	add		$8, DST
	add		$8, %r10
	sub		$8, LEN
.Ltail1:
	test		LEN, LEN
	jz		.Ldone
	movzbl		(SRC), %eax
	xorb		(%r10), %al
	movb		%al, (DST)
	inc		SRC
	inc		DST
	inc		%r10
	dec		LEN
	jmp		.Ltail1

	/* wipe the frame, 64 bytes a step: broadcast key words, keystream */
.Ldone:
	pxor		%xmm0, %xmm0
	mov		%rsp, %r10
	mov		$(FRAME / 64), %eax
.Lwipe:
	movdqa		%xmm0, 0x00(%r10)
	movdqa		%xmm0, 0x10(%r10)
	movdqa		%xmm0, 0x20(%r10)
	movdqa		%xmm0, 0x30(%r10)
	add		$64, %r10
	dec		%eax
	jnz		.Lwipe
	leave
.Lret:
	RET
SYM_FUNC_END(kchacha_ssse3_xor)

/*
 * void kchacha_ssse3_hchacha(const u32 *state, u32 *out, int nrounds)
 *
 * HChaCha: the permutation of one block without the feed-forward; words
 * 0..3 and 12..15 out.
 */
SYM_TYPED_FUNC_START(kchacha_ssse3_hchacha)
	srows		%xmm0, %xmm1, %xmm2, %xmm4, %xmm5
	srow		0x30(STATE), 0x30, %xmm3, %xmm4, %xmm5
	movdqa		.Lrot16(%rip), %xmm5
	movdqa		.Lrot8(%rip), %xmm6
.Lhc_dround:
	hdround		%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6
	sub		$2, %edx
	jnz		.Lhc_dround
	movdqu		%xmm0, 0x00(%rsi)
	movdqu		%xmm3, 0x10(%rsi)
	RET
SYM_FUNC_END(kchacha_ssse3_hchacha)
