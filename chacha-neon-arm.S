/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ChaCha and HChaCha for 32-bit ARM (ARMv7-A) with NEON, little-endian only.
 * Assembles as ARM or as Thumb-2 code, whichever the build asks for.
 *
 * A pass computes four consecutive blocks, one 32-bit word of the state per
 * q register and one block per lane, so that a quarter-round needs no
 * shuffling, and each step of a round runs its four quarter-rounds side by
 * side.  Sixteen words and the scratch the rotations need do not fit in
 * the sixteen q registers: x8 and x9 live on the stack, fetched only for
 * the two steps that add to the third row (c += d) and stored back at
 * once, so that q8 and q9 are free for the XORs that the 12- and 7-bit
 * rotations shift from (vshl, then vsri back into the word's register),
 * and d16 for the vtbl indices of the 8-bit rotation.  The 16-bit
 * rotation is vrev32.16 in place.  After the rounds, each group of four
 * words is transposed (vtrn.32, vswp) into 16-byte pieces of the four
 * blocks and a row of the input state added; words 0-7, then words 8-15,
 * of each block are XORed with the source 32 bytes at a time, the
 * pointers stepping 64 bytes.
 *
 * A pass over fewer than 256 bytes writes its keystream to the stack and
 * XORs from there, 32, 16, 8, then one byte at a time, so no byte before
 * @src or past @src + @len is read and none outside @dst is written.  What
 * the stack held of the last pass (the spilled words, any keystream) is
 * zeroed before return.
 * The state is only read; the block counter wraps modulo 2^32 in every lane
 * and never carries into word 13.
 */

#include <linux/linkage.h>
#include <linux/cfi_types.h>

#ifdef CONFIG_CPU_LITTLE_ENDIAN

	.syntax	unified
	.fpu	neon
	.text

/* The stack frame, 16-byte aligned */
#define SLOT		32	/* x8 and x9; x10 and x11 below them at the end */
#define KS		64	/* the keystream of a short last pass */
#define FRAME		320	/* KS + 256 */

/* Four chains: a += b, d ^= a, d <<<= 16 */
.macro	ad16	a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3
	vadd.i32	\a0, \a0, \b0
	vadd.i32	\a1, \a1, \b1
	vadd.i32	\a2, \a2, \b2
	vadd.i32	\a3, \a3, \b3
	veor		\d0, \d0, \a0
	veor		\d1, \d1, \a1
	veor		\d2, \d2, \a2
	veor		\d3, \d3, \a3
	vrev32.16	\d0, \d0
	vrev32.16	\d1, \d1
	vrev32.16	\d2, \d2
	vrev32.16	\d3, \d3
.endm

/* y = (x ^ z) <<< n for two chains, through the scratch registers t0, t1 */
.macro	xrot2	y0, x0, z0, y1, x1, z1, t0, t1, n
	veor		\t0, \x0, \z0
	veor		\t1, \x1, \z1
	vshl.i32	\y0, \t0, #\n
	vshl.i32	\y1, \t1, #\n
	vsri.32		\y0, \t0, #(32 - \n)
	vsri.32		\y1, \t1, #(32 - \n)
.endm

/*
 * Four chains: a += b, d = (d ^ a) <<< 8, the rotation a byte permutation
 * by vtbl with the table \idx; the d rows are q12-q15 in both rounds.
 */
.macro	ad8	a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3, idx
	vadd.i32	\a0, \a0, \b0
	vadd.i32	\a1, \a1, \b1
	vadd.i32	\a2, \a2, \b2
	vadd.i32	\a3, \a3, \b3
	veor		\d0, \d0, \a0
	veor		\d1, \d1, \a1
	veor		\d2, \d2, \a2
	veor		\d3, \d3, \a3
	vtbl.8		d24, {d24}, \idx
	vtbl.8		d25, {d25}, \idx
	vtbl.8		d26, {d26}, \idx
	vtbl.8		d27, {d27}, \idx
	vtbl.8		d28, {d28}, \idx
	vtbl.8		d29, {d29}, \idx
	vtbl.8		d30, {d30}, \idx
	vtbl.8		d31, {d31}, \idx
.endm

/*
 * Four chains: c += d, b = (b ^ c) <<< n.  The first two chains' c words,
 * x8 and x9, are fetched from the stack at \slot for the additions and put
 * back right after, so that q8 and q9 take the XORs of all four chains.
 */
.macro	cb	c0, d0, b0, c1, d1, b1, c2, d2, b2, c3, d3, b3, slot, n
	vld1.32		{q8-q9}, [\slot, :128]
	vadd.i32	\c2, \c2, \d2
	vadd.i32	\c3, \c3, \d3
	vadd.i32	\c0, \c0, \d0
	vadd.i32	\c1, \c1, \d1
	vst1.32		{q8-q9}, [\slot, :128]
	xrot2		\b0, \b0, \c0, \b1, \b1, \c1, q8, q9, \n
	xrot2		\b2, \b2, \c2, \b3, \b3, \c3, q8, q9, \n
.endm

/*
 * \cnt / 2 double rounds on x0-x15 in q0-q15, except x8 and x9, which
 * live in the 32 bytes at \slot: they are only needed where the third row
 * is added to, and q8 and q9 serve as scratch for the rotations and, in
 * d16, as the vtbl indices at \rot8.
 */
.macro	rounds	cnt, slot, rot8
.Lround\@:
	/* columns (0 4 8 12) (1 5 9 13) (2 6 10 14) (3 7 11 15) */
	ad16	q0, q4, q12,  q1, q5, q13,  q2, q6, q14,  q3, q7, q15
	cb	q8, q12, q4,  q9, q13, q5,  q10, q14, q6,  q11, q15, q7,  \slot, 12
	vld1.8	{d16}, [\rot8, :64]
	ad8	q0, q4, q12,  q1, q5, q13,  q2, q6, q14,  q3, q7, q15,  d16
	cb	q8, q12, q4,  q9, q13, q5,  q10, q14, q6,  q11, q15, q7,  \slot, 7

	/* diagonals (0 5 10 15) (1 6 11 12) (2 7 8 13) (3 4 9 14) */
	ad16	q0, q5, q15,  q1, q6, q12,  q2, q7, q13,  q3, q4, q14
	cb	q8, q13, q7,  q9, q14, q4,  q10, q15, q5,  q11, q12, q6,  \slot, 12
	vld1.8	{d16}, [\rot8, :64]
	ad8	q0, q5, q15,  q1, q6, q12,  q2, q7, q13,  q3, q4, q14,  d16
	cb	q8, q13, q7,  q9, q14, q4,  q10, q15, q5,  q11, q12, q6,  \slot, 7

	subs	\cnt, \cnt, #2
	bne	.Lround\@
.endm

/* qa-qd (words i..i+3 of blocks 0-3) to blocks 0-3 (words i..i+3 each) */
.macro	transpose	qa, qb, qc, qd, da1, db1, dc0, dd0
	vtrn.32		\qa, \qb
	vtrn.32		\qc, \qd
	vswp		\da1, \dc0
	vswp		\db1, \dd0
.endm

/*
 * 32 bytes of each block out, \qa and \qb of the first block, then the
 * other three pairs 64 bytes apart: XORed into dst (r5 or r1) from src
 * (ip or r2) when \full, each pointer left 256 bytes on; else stored to
 * the keystream buffer at ip, r7 being 48.  r6 is 64; q8 and q9 are
 * scratch.
 */
.macro	out8	full, src, dst, qa, qb
.if \full
	vld1.8		{q8-q9}, [\src], r6
	veor		q8, q8, \qa
	veor		q9, q9, \qb
	vst1.8		{q8-q9}, [\dst], r6
.else
	vst1.8		{\qa}, [ip]!
	vst1.8		{\qb}, [ip], r7
.endif
.endm

/*
 * The end of a pass: the state added, blocks in byte order, out; when
 * \full, r1 and r2 are then 256 bytes on.
 */
.macro	finish	full
	/* x10 and x11 below x8 and x9, at sp */
	vstm		sp, {d20-d23}

	/* x0-x7: words 0-7 of each block, rows 0 and 1 of the state added */
	transpose	q0, q1, q2, q3, d1, d3, d4, d6
	transpose	q4, q5, q6, q7, d9, d11, d12, d14
	vld1.32		{q8-q9}, [r0]
	vadd.i32	q0, q0, q8
	vadd.i32	q1, q1, q8
	vadd.i32	q2, q2, q8
	vadd.i32	q3, q3, q8
	vadd.i32	q4, q4, q9
	vadd.i32	q5, q5, q9
	vadd.i32	q6, q6, q9
	vadd.i32	q7, q7, q9
.if \full == 0
	add		ip, sp, #KS
	mov		r7, #48
.endif
	out8		\full, r2, r1, q0, q4
	out8		\full, r2, r1, q1, q5
	out8		\full, r2, r1, q2, q6
	out8		\full, r2, r1, q3, q7

	/*
	 * x8-x15: q2, q3, q0, q1 take x8, x9, x10, x11; the lane offsets
	 * go into x12 first, so that rows 2 and 3 of the state, the pass's
	 * counter in word 12, can be added to every block.
	 */
	vldm		sp, {d0-d7}
	vld1.32		{q8}, [lr, :128]
	vadd.i32	q12, q12, q8
	transpose	q2, q3, q0, q1, d5, d7, d0, d2
	transpose	q12, q13, q14, q15, d25, d27, d28, d30
	add		ip, r0, #32
	vld1.32		{q8-q9}, [ip]
	vmov.32		d18[0], r10
	vadd.i32	q2, q2, q8
	vadd.i32	q3, q3, q8
	vadd.i32	q0, q0, q8
	vadd.i32	q1, q1, q8
	vadd.i32	q12, q12, q9
	vadd.i32	q13, q13, q9
	vadd.i32	q14, q14, q9
	vadd.i32	q15, q15, q9
.if \full
	sub		ip, r2, #224
	sub		r5, r1, #224
.else
	add		ip, sp, #(KS + 32)
.endif
	out8		\full, ip, r5, q2, q12
	out8		\full, ip, r5, q3, q13
	out8		\full, ip, r5, q0, q14
	out8		\full, ip, r5, q1, q15
.endm

/*
 * The lane offsets of the counters; vtbl indices that rotate each 32-bit
 * lane left by 8 bits
 */
	.align	4
.Lctr_inc:
	.word	0, 1, 2, 3
.Lrot8_idx:
	.byte	3, 0, 1, 2, 7, 4, 5, 6

/*
 * d8-d15 are callee-saved under the AAPCS's VFP variant, which the
 * user-space tests are built with; the kernel builds with -msoft-float and
 * kernel_neon_begin() owns every NEON register, so only user space keeps
 * them.
 */
.macro	KEEP_D8_D15
#ifdef KCHACHA_USERSPACE
	vpush		{d8-d15}
#endif
.endm

.macro	DROP_D8_D15
#ifdef KCHACHA_USERSPACE
	vpop		{d8-d15}
#endif
.endm

/**
 * kchacha_neon_xor() - XOR the ChaCha keystream into a buffer
 * @state: r0, the 16-word state, read only
 * @dst: r1, any alignment
 * @src: r2, any alignment; may equal @dst
 * @len: r3, bytes, any number
 * @nrounds: on the stack, 20, 12 or 8
 *
 * See kchacha_xor_fn in kchacha.h.  Call between kernel_neon_begin() and
 * kernel_neon_end().
 */
SYM_TYPED_FUNC_START(kchacha_neon_xor)
	push		{r4-r10, lr}
	ldr		r4, [sp, #32]
	KEEP_D8_D15
	cmp		r3, #0
	beq		.Lout

	mov		r9, sp
	sub		ip, sp, #FRAME
	bic		ip, ip, #15
	mov		sp, ip
	add		r8, ip, #SLOT
	mov		r6, #64
	ldr		r7, =.Lrot8_idx
	ldr		lr, =.Lctr_inc
	ldr		r10, [r0, #48]		/* the first block's counter */

.Lpass:
	mov		ip, r0
	vld1.32		{d0[], d1[]}, [ip]!
	vld1.32		{d2[], d3[]}, [ip]!
	vld1.32		{d4[], d5[]}, [ip]!
	vld1.32		{d6[], d7[]}, [ip]!
	vld1.32		{d8[], d9[]}, [ip]!
	vld1.32		{d10[], d11[]}, [ip]!
	vld1.32		{d12[], d13[]}, [ip]!
	vld1.32		{d14[], d15[]}, [ip]!
	vld1.32		{d16[], d17[]}, [ip]!
	vld1.32		{d18[], d19[]}, [ip]!
	vld1.32		{d20[], d21[]}, [ip]!
	vld1.32		{d22[], d23[]}, [ip]!
	vld1.32		{q13}, [lr, :128]
	vdup.32		q12, r10
	vadd.i32	q12, q12, q13
	add		ip, ip, #4
	vld1.32		{d26[], d27[]}, [ip]!
	vld1.32		{d28[], d29[]}, [ip]!
	vld1.32		{d30[], d31[]}, [ip]
	vst1.32		{q8-q9}, [r8, :128]
	mov		r5, r4

	rounds		r5, r8, r7

	cmp		r3, #256
	blo		.Lshort
	finish		1

	add		r10, r10, #4
	subs		r3, r3, #256
	bne		.Lpass
	/* x8-x11 of the last pass with the keystream would give the key */
	vmov.i32	q0, #0
	vmov.i32	q1, #0
	vstm		sp, {d0-d3}
	vstm		r8, {d0-d3}
	b		.Lret

.Lshort:
	finish		0
	add		ip, sp, #KS
	b		2f
1:	vld1.8		{q0-q1}, [r2]!
	vld1.32		{q2-q3}, [ip, :128]!
	veor		q0, q0, q2
	veor		q1, q1, q3
	vst1.8		{q0-q1}, [r1]!
	sub		r3, r3, #32
2:	cmp		r3, #32
	bhs		1b
	/* fewer than 32 bytes left: 16, 8, then one at a time */
	tst		r3, #16
	beq		3f
	vld1.8		{q0}, [r2]!
	vld1.32		{q1}, [ip, :128]!
	veor		q0, q0, q1
	vst1.8		{q0}, [r1]!
3:	tst		r3, #8
	beq		6f
	vld1.8		{d0}, [r2]!
	vld1.32		{d1}, [ip, :64]!
	veor		d0, d0, d1
	vst1.8		{d0}, [r1]!
6:	ands		r3, r3, #7
	beq		4f
5:	ldrb		r4, [r2], #1
	ldrb		r5, [ip], #1
	eor		r4, r4, r5
	strb		r4, [r1], #1
	subs		r3, r3, #1
	bne		5b
4:	/* the whole frame: the spilled words and the keystream */
	vmov.i32	q0, #0
	vmov.i32	q1, #0
	vmov.i32	q2, #0
	vmov.i32	q3, #0
	mov		ip, sp
	.rept		FRAME / 64
	vstmia		ip!, {d0-d7}
	.endr
.Lret:
	mov		sp, r9
.Lout:
	DROP_D8_D15
	pop		{r4-r10, lr}
	bx		lr
	.ltorg
SYM_FUNC_END(kchacha_neon_xor)

/**
 * kchacha_neon_hchacha() - the HChaCha function
 * @state: r0, the 16-word initial state
 * @out: r1, words 0-3 and 12-15 of the permuted state
 * @nrounds: r2, 20 or 12
 *
 * The same rounds on one block, in lane 0 of each register.  Call between
 * kernel_neon_begin() and kernel_neon_end().
 */
SYM_TYPED_FUNC_START(kchacha_neon_hchacha)
	push		{r8, r9}
	KEEP_D8_D15
	mov		r9, sp
	sub		ip, sp, #32
	bic		ip, ip, #15
	mov		sp, ip
	mov		r8, ip
	ldr		r3, =.Lrot8_idx

	mov		ip, r0
	vld1.32		{d0[], d1[]}, [ip]!
	vld1.32		{d2[], d3[]}, [ip]!
	vld1.32		{d4[], d5[]}, [ip]!
	vld1.32		{d6[], d7[]}, [ip]!
	vld1.32		{d8[], d9[]}, [ip]!
	vld1.32		{d10[], d11[]}, [ip]!
	vld1.32		{d12[], d13[]}, [ip]!
	vld1.32		{d14[], d15[]}, [ip]!
	vld1.32		{d16[], d17[]}, [ip]!
	vld1.32		{d18[], d19[]}, [ip]!
	vld1.32		{d20[], d21[]}, [ip]!
	vld1.32		{d22[], d23[]}, [ip]!
	vld1.32		{d24[], d25[]}, [ip]!
	vld1.32		{d26[], d27[]}, [ip]!
	vld1.32		{d28[], d29[]}, [ip]!
	vld1.32		{d30[], d31[]}, [ip]
	vst1.32		{q8-q9}, [r8, :128]

	rounds		r2, r8, r3

	vst1.32		{d0[0]}, [r1]!
	vst1.32		{d2[0]}, [r1]!
	vst1.32		{d4[0]}, [r1]!
	vst1.32		{d6[0]}, [r1]!
	vst1.32		{d24[0]}, [r1]!
	vst1.32		{d26[0]}, [r1]!
	vst1.32		{d28[0]}, [r1]!
	vst1.32		{d30[0]}, [r1]

	vmov.i32	q0, #0
	vmov.i32	q1, #0
	vst1.32		{q0-q1}, [r8, :128]
	mov		sp, r9
	DROP_D8_D15
	pop		{r8, r9}
	bx		lr
	.ltorg
SYM_FUNC_END(kchacha_neon_hchacha)

#endif /* CONFIG_CPU_LITTLE_ENDIAN */
