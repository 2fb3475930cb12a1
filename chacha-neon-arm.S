/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ChaCha and HChaCha for 32-bit ARM (ARMv7-A) with NEON, little-endian only.
 * Assembles as ARM or as Thumb-2 code, whichever the build asks for.
 *
 * A pass computes four consecutive blocks, one 32-bit word of the state per
 * q register and one block per lane, so that a quarter-round needs no
 * shuffling.  Sixteen words and two scratch registers do not fit in the
 * sixteen q registers: two words of the third row are kept in a 32-byte
 * slot on the stack, and which two alternates so that each pair of
 * quarter-rounds finds its own words in registers and the idle pair's
 * registers serve as its scratch:
 *
 *   columns 0, 1:   x8, x9 live;   x10, x11 in the slot
 *   columns 2, 3:   x10, x11 live; x8, x9 in the slot
 *   diagonals 0, 1: x10, x11 live; x8, x9 in the slot
 *   diagonals 2, 3: x8, x9 live;   x10, x11 in the slot
 *
 * Each rotation is computed from the XOR left in the scratch register,
 * vshl then vsri straight back into the word's own register; rotating by
 * 16 is vrev32.16 in place.  After the rounds, each group of four words is
 * transposed (vtrn.32, vswp) into four 16-byte pieces of the four blocks,
 * the input state added, and the result XORed with the source.
 *
 * A pass over fewer than 256 bytes writes its keystream to the stack and
 * XORs from there, 16 bytes then one byte at a time, so no byte before
 * @src or past @src + @len is read and none outside @dst is written.  The
 * stack frame, keystream and spilled words alike, is zeroed before return.
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
#define SLOT		0	/* two spilled words of the third row */
#define SLOT2		32	/* x8 and x9 while the last pass finishes */
#define CTR		64	/* the four counters of the next pass */
#define KS		80	/* the keystream of a short last pass */
#define FRAME		352	/* KS + 256, rounded up to 32 */

/* Two quarter-rounds side by side; t0 and t1 are scratch. */
.macro	qr2	a0, b0, c0, d0, a1, b1, c1, d1, t0, t1
	vadd.i32	\a0, \a0, \b0
	vadd.i32	\a1, \a1, \b1
	veor		\d0, \d0, \a0
	veor		\d1, \d1, \a1
	vrev32.16	\d0, \d0
	vrev32.16	\d1, \d1

	vadd.i32	\c0, \c0, \d0
	vadd.i32	\c1, \c1, \d1
	veor		\t0, \b0, \c0
	veor		\t1, \b1, \c1
	vshl.i32	\b0, \t0, #12
	vshl.i32	\b1, \t1, #12
	vsri.32		\b0, \t0, #20
	vsri.32		\b1, \t1, #20

	vadd.i32	\a0, \a0, \b0
	vadd.i32	\a1, \a1, \b1
	veor		\t0, \d0, \a0
	veor		\t1, \d1, \a1
	vshl.i32	\d0, \t0, #8
	vshl.i32	\d1, \t1, #8
	vsri.32		\d0, \t0, #24
	vsri.32		\d1, \t1, #24

	vadd.i32	\c0, \c0, \d0
	vadd.i32	\c1, \c1, \d1
	veor		\t0, \b0, \c0
	veor		\t1, \b1, \c1
	vshl.i32	\b0, \t0, #7
	vshl.i32	\b1, \t1, #7
	vsri.32		\b0, \t0, #25
	vsri.32		\b1, \t1, #25
.endm

/*
 * \n double rounds on x0-x15 in q0-q15, x10 and x11 in the slot at \slot
 * on entry and on return; \n is counted down in \cnt.
 */
.macro	rounds	cnt, slot
.Lround\@:
	qr2	q0, q4, q8, q12,  q1, q5, q9, q13,  q10, q11
	vld1.32	{q10-q11}, [\slot, :128]
	vst1.32	{q8-q9}, [\slot, :128]
	qr2	q2, q6, q10, q14,  q3, q7, q11, q15,  q8, q9

	qr2	q0, q5, q10, q15,  q1, q6, q11, q12,  q8, q9
	vld1.32	{q8-q9}, [\slot, :128]
	vst1.32	{q10-q11}, [\slot, :128]
	qr2	q2, q7, q8, q13,  q3, q4, q9, q14,  q10, q11

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
 * Sixteen bytes of each block, at offset \off, out: XORed into dst (r1)
 * from src (r2) when \full, else to the keystream buffer.  r6 is 64;
 * q8-q11 are scratch.
 */
.macro	out4	full, off, qa, qb, qc, qd
.if \full
	add		ip, r2, #\off
	vld1.8		{q8}, [ip], r6
	vld1.8		{q9}, [ip], r6
	vld1.8		{q10}, [ip], r6
	vld1.8		{q11}, [ip]
	veor		\qa, \qa, q8
	veor		\qb, \qb, q9
	veor		\qc, \qc, q10
	veor		\qd, \qd, q11
	add		ip, r1, #\off
.else
	add		ip, sp, #(KS + \off)
.endif
	vst1.8		{\qa}, [ip], r6
	vst1.8		{\qb}, [ip], r6
	vst1.8		{\qc}, [ip], r6
	vst1.8		{\qd}, [ip]
.endm

/*
 * The end of a pass: the state added, blocks in byte order, out.  On entry
 * x8 and x9 are in q8 and q9, x10 and x11 in the slot (r8).
 */
.macro	finish	full
	add		ip, sp, #SLOT2
	vst1.32		{q8-q9}, [ip, :128]

	/* x12-x15: the counters and the broadcast words 13-15 */
	add		ip, sp, #CTR
	vld1.32		{q8}, [ip, :128]
	add		ip, r0, #52
	vld1.32		{d18[], d19[]}, [ip]!
	vld1.32		{d20[], d21[]}, [ip]!
	vld1.32		{d22[], d23[]}, [ip]
	vadd.i32	q12, q12, q8
	vadd.i32	q13, q13, q9
	vadd.i32	q14, q14, q10
	vadd.i32	q15, q15, q11
	transpose	q12, q13, q14, q15, d25, d27, d28, d30
	out4		\full, 48, q12, q13, q14, q15

	/* x0-x3 and x4-x7: a row of the state added to each block */
	transpose	q0, q1, q2, q3, d1, d3, d4, d6
	vld1.32		{q12-q13}, [r0]
	vadd.i32	q0, q0, q12
	vadd.i32	q1, q1, q12
	vadd.i32	q2, q2, q12
	vadd.i32	q3, q3, q12
	out4		\full, 0, q0, q1, q2, q3
	transpose	q4, q5, q6, q7, d9, d11, d12, d14
	vadd.i32	q4, q4, q13
	vadd.i32	q5, q5, q13
	vadd.i32	q6, q6, q13
	vadd.i32	q7, q7, q13
	out4		\full, 16, q4, q5, q6, q7

	/* x8-x11 from the stack */
	add		ip, sp, #SLOT2
	vld1.32		{q0-q1}, [ip, :128]
	vld1.32		{q2-q3}, [r8, :128]
	transpose	q0, q1, q2, q3, d1, d3, d4, d6
	add		ip, r0, #32
	vld1.32		{q12}, [ip]
	vadd.i32	q0, q0, q12
	vadd.i32	q1, q1, q12
	vadd.i32	q2, q2, q12
	vadd.i32	q3, q3, q12
	out4		\full, 32, q0, q1, q2, q3
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
	push		{r4-r9}
	ldr		r4, [sp, #24]
	cmp		r3, #0
	beq		.Lout

	mov		r9, sp
	sub		ip, sp, #FRAME
	bic		ip, ip, #15
	mov		sp, ip
	mov		r8, ip			/* the slot, at offset 0 */
	mov		r6, #64

	/* the four counters of the first pass */
	ldr		r5, [r0, #48]
	add		ip, r5, #1
	str		r5, [sp, #CTR]
	str		ip, [sp, #(CTR + 4)]
	add		ip, r5, #2
	add		r5, r5, #3
	str		ip, [sp, #(CTR + 8)]
	str		r5, [sp, #(CTR + 12)]

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
	add		ip, ip, #4
	vld1.32		{d26[], d27[]}, [ip]!
	vld1.32		{d28[], d29[]}, [ip]!
	vld1.32		{d30[], d31[]}, [ip]
	add		ip, sp, #CTR
	vld1.32		{q12}, [ip, :128]
	vst1.32		{q10-q11}, [r8, :128]
	mov		r5, r4

	rounds		r5, r8

	cmp		r3, #256
	blo		.Lshort
	finish		1

	/* the next four counters */
	add		ip, sp, #CTR
	vld1.32		{q0}, [ip, :128]
	vmov.i32	q1, #4
	vadd.i32	q0, q0, q1
	vst1.32		{q0}, [ip, :128]
	add		r1, r1, #256
	add		r2, r2, #256
	subs		r3, r3, #256
	bne		.Lpass
	b		.Lwipe

.Lshort:
	finish		0
	add		ip, sp, #KS
.Lxor16:
	cmp		r3, #16
	blo		.Lxor1
	vld1.8		{q0}, [r2]!
	vld1.32		{q1}, [ip, :128]!
	veor		q0, q0, q1
	vst1.8		{q0}, [r1]!
	sub		r3, r3, #16
	b		.Lxor16
.Lxor1:
	cmp		r3, #0
	beq		.Lwipe
	ldrb		r4, [r2], #1
	ldrb		r5, [ip], #1
	eor		r4, r4, r5
	strb		r4, [r1], #1
	subs		r3, r3, #1
	bne		.Lxor1

.Lwipe:
	vmov.i32	q0, #0
	vmov.i32	q1, #0
	mov		ip, sp
	.rept		FRAME / 32
	vst1.32		{q0-q1}, [ip, :128]!
	.endr
	mov		sp, r9
.Lout:
	pop		{r4-r9}
	bx		lr
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
	mov		r9, sp
	sub		ip, sp, #32
	bic		ip, ip, #15
	mov		sp, ip
	mov		r8, ip

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
	vst1.32		{q10-q11}, [r8, :128]

	rounds		r2, r8

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
	pop		{r8, r9}
	bx		lr
SYM_FUNC_END(kchacha_neon_hchacha)

#endif /* CONFIG_CPU_LITTLE_ENDIAN */
