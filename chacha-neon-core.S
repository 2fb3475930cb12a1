/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ChaCha and HChaCha for arm64 with NEON (ASIMD), little-endian only.
 *
 * The wide pass computes five consecutive blocks at once: four in NEON
 * registers, one 32-bit word per register and one block per lane, so that a
 * quarter-round needs no shuffling, and a fifth in general-purpose
 * registers, its instructions interleaved with the vector ones so that the
 * integer pipelines work while the vector pipelines do.  Before the XOR, the
 * four vector blocks are transposed back to byte order with zip1/zip2.
 *
 * A request of at most one block takes a single-block path that keeps one
 * block in four registers, a row each, and rotates the rows between the
 * column and the diagonal rounds.  The same permutation gives HChaCha.
 *
 * A tail shorter than a block is XORed in 32-, 16-, 8-, 4-, 2- and 1-byte
 * steps, so no byte before @src or past @src + @len is read and none outside
 * @dst is written.  The state is only read; the block counter (word 12)
 * wraps modulo 2^32 in every lane.
 */

#include <linux/cfi_types.h>
#include <linux/linkage.h>

#ifdef CONFIG_CPU_LITTLE_ENDIAN

	.text

/*
 * The scalar block: word i of the fifth block lives in gI (32-bit) and gxI
 * (the same register, 64-bit).  x0-x6 and x24-x28 are taken otherwise, x18
 * is the platform register and x29/x30 keep the frame record.
 */
	g0	.req	w7
	g1	.req	w8
	g2	.req	w9
	g3	.req	w10
	g4	.req	w11
	g5	.req	w12
	g6	.req	w13
	g7	.req	w14
	g8	.req	w15
	g9	.req	w16
	g10	.req	w17
	g11	.req	w19
	g12	.req	w20
	g13	.req	w21
	g14	.req	w22
	g15	.req	w23
	gx0	.req	x7
	gx2	.req	x9
	gx4	.req	x11
	gx6	.req	x13
	gx8	.req	x15
	gx10	.req	x17
	gx12	.req	x20
	gx14	.req	x22

/*
 * qstep - one step of four quarter-rounds, x += y; z = rotl32(z ^ x, n),
 * for the four vector blocks (word registers vX, vY, vZ) and, interleaved,
 * the scalar block (gX, gY, gZ).  v16-v19 are scratch, v24 holds the
 * rotate-by-8 byte table.
 */
	.macro	qstep	n, x0, y0, z0, x1, y1, z1, x2, y2, z2, x3, y3, z3
	add	v\x0\().4s, v\x0\().4s, v\y0\().4s
	 add	g\x0, g\x0, g\y0
	add	v\x1\().4s, v\x1\().4s, v\y1\().4s
	 add	g\x1, g\x1, g\y1
	add	v\x2\().4s, v\x2\().4s, v\y2\().4s
	 add	g\x2, g\x2, g\y2
	add	v\x3\().4s, v\x3\().4s, v\y3\().4s
	 add	g\x3, g\x3, g\y3
	.if	\n == 16 || \n == 8
	eor	v\z0\().16b, v\z0\().16b, v\x0\().16b
	 eor	g\z0, g\z0, g\x0
	eor	v\z1\().16b, v\z1\().16b, v\x1\().16b
	 eor	g\z1, g\z1, g\x1
	eor	v\z2\().16b, v\z2\().16b, v\x2\().16b
	 eor	g\z2, g\z2, g\x2
	eor	v\z3\().16b, v\z3\().16b, v\x3\().16b
	 eor	g\z3, g\z3, g\x3
	.if	\n == 16
	rev32	v\z0\().8h, v\z0\().8h
	 ror	g\z0, g\z0, #16
	rev32	v\z1\().8h, v\z1\().8h
	 ror	g\z1, g\z1, #16
	rev32	v\z2\().8h, v\z2\().8h
	 ror	g\z2, g\z2, #16
	rev32	v\z3\().8h, v\z3\().8h
	 ror	g\z3, g\z3, #16
	.else
	tbl	v\z0\().16b, {v\z0\().16b}, v24.16b
	 ror	g\z0, g\z0, #24
	tbl	v\z1\().16b, {v\z1\().16b}, v24.16b
	 ror	g\z1, g\z1, #24
	tbl	v\z2\().16b, {v\z2\().16b}, v24.16b
	 ror	g\z2, g\z2, #24
	tbl	v\z3\().16b, {v\z3\().16b}, v24.16b
	 ror	g\z3, g\z3, #24
	.endif
	.else
	eor	v16.16b, v\z0\().16b, v\x0\().16b
	 eor	g\z0, g\z0, g\x0
	eor	v17.16b, v\z1\().16b, v\x1\().16b
	 eor	g\z1, g\z1, g\x1
	eor	v18.16b, v\z2\().16b, v\x2\().16b
	 eor	g\z2, g\z2, g\x2
	eor	v19.16b, v\z3\().16b, v\x3\().16b
	 eor	g\z3, g\z3, g\x3
	shl	v\z0\().4s, v16.4s, #\n
	 ror	g\z0, g\z0, #(32 - \n)
	shl	v\z1\().4s, v17.4s, #\n
	 ror	g\z1, g\z1, #(32 - \n)
	shl	v\z2\().4s, v18.4s, #\n
	 ror	g\z2, g\z2, #(32 - \n)
	shl	v\z3\().4s, v19.4s, #\n
	 ror	g\z3, g\z3, #(32 - \n)
	sri	v\z0\().4s, v16.4s, #(32 - \n)
	sri	v\z1\().4s, v17.4s, #(32 - \n)
	sri	v\z2\().4s, v18.4s, #(32 - \n)
	sri	v\z3\().4s, v19.4s, #(32 - \n)
	.endif
	.endm

/* qround - four quarter-rounds on (a, b, c, d) of each of four columns */
	.macro	qround	a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3
	qstep	16, \a0, \b0, \d0, \a1, \b1, \d1, \a2, \b2, \d2, \a3, \b3, \d3
	qstep	12, \c0, \d0, \b0, \c1, \d1, \b1, \c2, \d2, \b2, \c3, \d3, \b3
	qstep	8,  \a0, \b0, \d0, \a1, \b1, \d1, \a2, \b2, \d2, \a3, \b3, \d3
	qstep	7,  \c0, \d0, \b0, \c1, \d1, \b1, \c2, \d2, \b2, \c3, \d3, \b3
	.endm

/*
 * hround - one ChaCha round on a single block held as four rows a-d of
 * four words; t is scratch, r8 the rotate-by-8 table.
 */
	.macro	hround	a, b, c, d, t, r8
	add	\a\().4s, \a\().4s, \b\().4s
	eor	\d\().16b, \d\().16b, \a\().16b
	rev32	\d\().8h, \d\().8h
	add	\c\().4s, \c\().4s, \d\().4s
	eor	\t\().16b, \b\().16b, \c\().16b
	shl	\b\().4s, \t\().4s, #12
	sri	\b\().4s, \t\().4s, #20
	add	\a\().4s, \a\().4s, \b\().4s
	eor	\d\().16b, \d\().16b, \a\().16b
	tbl	\d\().16b, {\d\().16b}, \r8\().16b
	add	\c\().4s, \c\().4s, \d\().4s
	eor	\t\().16b, \b\().16b, \c\().16b
	shl	\b\().4s, \t\().4s, #7
	sri	\b\().4s, \t\().4s, #25
	.endm

/*
 * hpermute - the ChaCha permutation of one block in rows a-d; w5 holds the
 * number of rounds and is consumed.
 */
	.macro	hpermute a, b, c, d, t, r8
.Lhdround\@:
	hround	\a, \b, \c, \d, \t, \r8
	/* diagonals into columns */
	ext	\b\().16b, \b\().16b, \b\().16b, #4
	ext	\c\().16b, \c\().16b, \c\().16b, #8
	ext	\d\().16b, \d\().16b, \d\().16b, #12
	hround	\a, \b, \c, \d, \t, \r8
	/* and back */
	ext	\b\().16b, \b\().16b, \b\().16b, #12
	ext	\c\().16b, \c\().16b, \c\().16b, #8
	ext	\d\().16b, \d\().16b, \d\().16b, #4
	subs	w5, w5, #2
	b.gt	.Lhdround\@
	.endm

/*
 * transpose4 - transpose the 4x4 words of vr0-vr3, through v16-v19: word j
 * of register i goes to word i of register j
 */
	.macro	transpose4 r0, r1, r2, r3
	zip1	v16.4s, v\r0\().4s, v\r1\().4s
	zip2	v17.4s, v\r0\().4s, v\r1\().4s
	zip1	v18.4s, v\r2\().4s, v\r3\().4s
	zip2	v19.4s, v\r2\().4s, v\r3\().4s
	zip1	v\r0\().2d, v16.2d, v18.2d
	zip2	v\r1\().2d, v16.2d, v18.2d
	zip1	v\r2\().2d, v17.2d, v19.2d
	zip2	v\r3\().2d, v17.2d, v19.2d
	.endm

/* xorblock - XOR 64 bytes of keystream in vc0-vc3 from [x2] to [x1], advance */
	.macro	xorblock c0, c1, c2, c3
	ld1	{v16.16b-v19.16b}, [x2], #64
	eor	v16.16b, v16.16b, v\c0\().16b
	eor	v17.16b, v17.16b, v\c1\().16b
	eor	v18.16b, v18.16b, v\c2\().16b
	eor	v19.16b, v19.16b, v\c3\().16b
	st1	{v16.16b-v19.16b}, [x1], #64
	.endm

/*
 * void kchacha_neon_xor(const u32 *state, u8 *dst, const u8 *src,
 *			 unsigned int len, int nrounds)
 *
 * x0: state (16 words, read only)	x1: dst		x2: src
 * w3: len				w4: nrounds
 *
 * Register use: x3 the bytes left, w5 the round counter, w6 the counter of
 * the next block, g0-g15 the scalar block, x24-x28 scratch; v0-v15 the
 * vector blocks (word i of lane j in vI.s[j]), v16-v19 scratch, v24 the
 * rotate-by-8 table, v25 the counters of the four vector blocks, v26 five
 * in each lane.  Callee-saved x19-x28 and d8-d15 are saved for the C
 * callers of the user-space tests; the kernel would not need d8-d15.
 */
SYM_TYPED_FUNC_START(kchacha_neon_xor)
	mov	w3, w3
	cbz	x3, .Lreturn
	stp	x19, x20, [sp, #-144]!
	stp	x21, x22, [sp, #16]
	stp	x23, x24, [sp, #32]
	stp	x25, x26, [sp, #48]
	stp	x27, x28, [sp, #64]
	stp	d8, d9, [sp, #80]
	stp	d10, d11, [sp, #96]
	stp	d12, d13, [sp, #112]
	stp	d14, d15, [sp, #128]

	ldr	w6, [x0, #48]
	adrp	x5, .Lconsts
	add	x5, x5, :lo12:.Lconsts
	ld1	{v24.16b, v25.16b}, [x5]
	dup	v16.4s, w6
	add	v25.4s, v25.4s, v16.4s
	movi	v26.4s, #5

	cmp	x3, #64
	b.ls	.Lone

.Lfive:
	/* four vector blocks at counters w6 + 1..4, one scalar at w6 */
	mov	x5, x0
	ld4r	{v0.4s-v3.4s}, [x5], #16
	ld4r	{v4.4s-v7.4s}, [x5], #16
	ld4r	{v8.4s-v11.4s}, [x5], #16
	ld4r	{v12.4s-v15.4s}, [x5]
	mov	v12.16b, v25.16b
	ldp	g0, g1, [x0]
	ldp	g2, g3, [x0, #8]
	ldp	g4, g5, [x0, #16]
	ldp	g6, g7, [x0, #24]
	ldp	g8, g9, [x0, #32]
	ldp	g10, g11, [x0, #40]
	ldp	g12, g13, [x0, #48]
	ldp	g14, g15, [x0, #56]
	mov	g12, w6
	mov	w5, w4

.Ldround5:
	qround	0, 4, 8, 12,  1, 5, 9, 13,  2, 6, 10, 14,  3, 7, 11, 15
	qround	0, 5, 10, 15,  1, 6, 11, 12,  2, 7, 8, 13,  3, 4, 9, 14
	subs	w5, w5, #2
	b.gt	.Ldround5

	/* add the input state: vector blocks */
	mov	x5, x0
	ld4r	{v16.4s-v19.4s}, [x5], #16
	add	v0.4s, v0.4s, v16.4s
	add	v1.4s, v1.4s, v17.4s
	add	v2.4s, v2.4s, v18.4s
	add	v3.4s, v3.4s, v19.4s
	ld4r	{v16.4s-v19.4s}, [x5], #16
	add	v4.4s, v4.4s, v16.4s
	add	v5.4s, v5.4s, v17.4s
	add	v6.4s, v6.4s, v18.4s
	add	v7.4s, v7.4s, v19.4s
	ld4r	{v16.4s-v19.4s}, [x5], #16
	add	v8.4s, v8.4s, v16.4s
	add	v9.4s, v9.4s, v17.4s
	add	v10.4s, v10.4s, v18.4s
	add	v11.4s, v11.4s, v19.4s
	ld4r	{v16.4s-v19.4s}, [x5]
	add	v12.4s, v12.4s, v25.4s
	add	v13.4s, v13.4s, v17.4s
	add	v14.4s, v14.4s, v18.4s
	add	v15.4s, v15.4s, v19.4s

	/* and the scalar block */
	ldp	w24, w25, [x0]
	ldp	w26, w27, [x0, #8]
	add	g0, g0, w24
	add	g1, g1, w25
	add	g2, g2, w26
	add	g3, g3, w27
	ldp	w24, w25, [x0, #16]
	ldp	w26, w27, [x0, #24]
	add	g4, g4, w24
	add	g5, g5, w25
	add	g6, g6, w26
	add	g7, g7, w27
	ldp	w24, w25, [x0, #32]
	ldp	w26, w27, [x0, #40]
	add	g8, g8, w24
	add	g9, g9, w25
	add	g10, g10, w26
	add	g11, g11, w27
	ldr	w25, [x0, #52]
	ldp	w26, w27, [x0, #56]
	add	g12, g12, w6
	add	g13, g13, w25
	add	g14, g14, w26
	add	g15, g15, w27

	/*
	 * Transpose each group of four word registers in place: afterwards
	 * v(4k + j) holds bytes 16k..16k+15 of vector block j.
	 */
	transpose4	0, 1, 2, 3
	transpose4	4, 5, 6, 7
	transpose4	8, 9, 10, 11
	transpose4	12, 13, 14, 15

	/* the scalar block, always whole: it is the first of the five */
	orr	gx0, gx0, x8, lsl #32
	orr	gx2, gx2, x10, lsl #32
	orr	gx4, gx4, x12, lsl #32
	orr	gx6, gx6, x14, lsl #32
	orr	gx8, gx8, x16, lsl #32
	orr	gx10, gx10, x19, lsl #32
	orr	gx12, gx12, x21, lsl #32
	orr	gx14, gx14, x23, lsl #32
	ldp	x24, x25, [x2]
	ldp	x26, x27, [x2, #16]
	eor	gx0, gx0, x24
	eor	gx2, gx2, x25
	eor	gx4, gx4, x26
	eor	gx6, gx6, x27
	stp	gx0, gx2, [x1]
	stp	gx4, gx6, [x1, #16]
	ldp	x24, x25, [x2, #32]
	ldp	x26, x27, [x2, #48]
	eor	gx8, gx8, x24
	eor	gx10, gx10, x25
	eor	gx12, gx12, x26
	eor	gx14, gx14, x27
	stp	gx8, gx10, [x1, #32]
	stp	gx12, gx14, [x1, #48]
	add	x2, x2, #64
	add	x1, x1, #64
	sub	x3, x3, #64
	cmp	x3, #256
	b.lo	.Lpartial

	/* the four vector blocks, whole */
	xorblock	0, 4, 8, 12
	xorblock	1, 5, 9, 13
	xorblock	2, 6, 10, 14
	xorblock	3, 7, 11, 15
	subs	x3, x3, #256
	b.eq	.Lout
	add	w6, w6, #5
	add	v25.4s, v25.4s, v26.4s
	cmp	x3, #64
	b.hi	.Lfive

	/* 1..64 bytes: one block, its rows in v0, v4, v8 and v12 */
.Lone:
	ld1	{v16.4s-v19.4s}, [x0]
	mov	v19.s[0], w6
	mov	v0.16b, v16.16b
	mov	v4.16b, v17.16b
	mov	v8.16b, v18.16b
	mov	v12.16b, v19.16b
	mov	w5, w4
	hpermute	v0, v4, v8, v12, v20, v24
	add	v0.4s, v0.4s, v16.4s
	add	v4.4s, v4.4s, v17.4s
	add	v8.4s, v8.4s, v18.4s
	add	v12.4s, v12.4s, v19.4s

	/*
	 * 1..255 bytes of keystream left, block j in v(j), v(4 + j), v(8 + j)
	 * and v(12 + j): whole blocks first, moving the next one down to v0,
	 * v4, v8, v12 each time.
	 */
.Lpartial:
	cmp	x3, #64
	b.lo	.Ltail
	xorblock	0, 4, 8, 12
	subs	x3, x3, #64
	b.eq	.Lout
	mov	v0.16b, v1.16b
	mov	v4.16b, v5.16b
	mov	v8.16b, v9.16b
	mov	v12.16b, v13.16b
	mov	v1.16b, v2.16b
	mov	v5.16b, v6.16b
	mov	v9.16b, v10.16b
	mov	v13.16b, v14.16b
	mov	v2.16b, v3.16b
	mov	v6.16b, v7.16b
	mov	v10.16b, v11.16b
	mov	v14.16b, v15.16b
	b	.Lpartial

	/* 1..63 bytes, their keystream in v0, v4, v8, v12 */
.Ltail:
	tbz	x3, #5, 1f
	ld1	{v16.16b, v17.16b}, [x2], #32
	eor	v16.16b, v16.16b, v0.16b
	eor	v17.16b, v17.16b, v4.16b
	st1	{v16.16b, v17.16b}, [x1], #32
	mov	v0.16b, v8.16b
	mov	v4.16b, v12.16b
1:	tbz	x3, #4, 2f
	ld1	{v16.16b}, [x2], #16
	eor	v16.16b, v16.16b, v0.16b
	st1	{v16.16b}, [x1], #16
	mov	v0.16b, v4.16b
2:	mov	x5, v0.d[0]
	mov	x6, v0.d[1]
	tbz	x3, #3, 3f
	ldr	x7, [x2], #8
	eor	x7, x7, x5
	str	x7, [x1], #8
	mov	x5, x6
3:	tbz	x3, #2, 4f
	ldr	w7, [x2], #4
	eor	w7, w7, w5
	str	w7, [x1], #4
	lsr	x5, x5, #32
4:	tbz	x3, #1, 5f
	ldrh	w7, [x2], #2
	eor	w7, w7, w5
	strh	w7, [x1], #2
	lsr	x5, x5, #16
5:	tbz	x3, #0, .Lout
	ldrb	w7, [x2]
	eor	w7, w7, w5
	strb	w7, [x1]

.Lout:
	ldp	d14, d15, [sp, #128]
	ldp	d12, d13, [sp, #112]
	ldp	d10, d11, [sp, #96]
	ldp	d8, d9, [sp, #80]
	ldp	x27, x28, [sp, #64]
	ldp	x25, x26, [sp, #48]
	ldp	x23, x24, [sp, #32]
	ldp	x21, x22, [sp, #16]
	ldp	x19, x20, [sp], #144
.Lreturn:
	ret
SYM_FUNC_END(kchacha_neon_xor)

/*
 * void kchacha_neon_hchacha(const u32 *state, u32 *out, int nrounds)
 *
 * x0: state (16 words)	x1: out (8 words: 0-3 and 12-15)	w2: nrounds
 *
 * Uses caller-saved v0-v7 only.
 */
SYM_TYPED_FUNC_START(kchacha_neon_hchacha)
	adrp	x3, .Lconsts
	add	x3, x3, :lo12:.Lconsts
	ld1	{v7.16b}, [x3]
	ld1	{v0.4s-v3.4s}, [x0]
	mov	w5, w2
	hpermute	v0, v1, v2, v3, v4, v7
	st1	{v0.4s}, [x1]
	str	q3, [x1, #16]
	ret
SYM_FUNC_END(kchacha_neon_hchacha)

	.section	.rodata, "a"
	.p2align	4
.Lconsts:
	/* tbl indices rotating each 32-bit lane left by 8 */
	.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
	/* block offsets of the four vector blocks */
	.word	1, 2, 3, 4

#endif /* CONFIG_CPU_LITTLE_ENDIAN */
