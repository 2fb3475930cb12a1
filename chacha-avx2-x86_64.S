/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha: ChaCha keystream XOR and HChaCha for x86_64 with AVX2.
 *
 * kchacha_avx2_xor() follows kchacha_xor_fn (kchacha.h): any length, any
 * alignment, dst == src allowed, the state left alone, the block counter
 * wrapping modulo 2^32 in word 12 only.
 *
 * Three forms share one stack frame:
 *
 *  - eight blocks "vertically": a register holds one state word of eight
 *    consecutive blocks.  The four quarter rounds of a round advance
 *    together, step by step, four independent chains in flight at every
 *    point.  The rotation shuffles are memory operands, which leaves one
 *    scratch register and fifteen for the state: word 3 lives in a stack
 *    slot, used by an add from memory and a store.  The output is a
 *    4x4 dword transpose per row group inside each 128-bit lane, then lane
 *    halves of two row groups joined into 32-byte pieces;
 *  - four blocks as two interleaved "horizontal" chains: one state row of
 *    two blocks per register (one block per 128-bit lane), diagonals lined
 *    up by dword shuffles, for the last three or four blocks;
 *  - two blocks as one horizontal chain, for the last two blocks, and
 *    the same chain on xmm registers for the last one (its latency is the
 *    same, its work half where a core splits 256-bit operations).
 *
 * A pass that ends inside its blocks writes its keystream to the stack
 * (over the broadcast state, which it no longer needs) and XORs only the
 * bytes asked for from there: nothing past src + len is read, nothing past
 * dst + len written.  The frame is wiped before returning, where a form
 * wrote to it.
 *
 * Rotations by 16 and 8 are byte shuffles (vpshufb); by 12 and 7 a shift
 * pair and an or.
 */

#include <linux/cfi_types.h>
#include <linux/linkage.h>

.section	.rodata.cst32.kchacha_avx2_rot16, "aM", @progbits, 32
.align 32
.Lrot16:	.byte	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13
		.byte	2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13

.section	.rodata.cst32.kchacha_avx2_rot8, "aM", @progbits, 32
.align 32
.Lrot8:		.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14
		.byte	3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14

.section	.rodata.cst32.kchacha_avx2_lanes, "aM", @progbits, 32
.align 32
.Llanes:	.long	0, 1, 2, 3, 4, 5, 6, 7

.section	.rodata.cst32.kchacha_avx2_eight, "aM", @progbits, 32
.align 32
.Leight:	.long	8, 8, 8, 8, 8, 8, 8, 8

/* counter steps of the horizontal forms: +1 in the high lane, +2 in both */
.section	.rodata.cst32.kchacha_avx2_hstep1, "aM", @progbits, 32
.align 32
.Lhstep1:	.long	0, 0, 0, 0, 1, 0, 0, 0

.section	.rodata.cst32.kchacha_avx2_hstep2, "aM", @progbits, 32
.align 32
.Lhstep2:	.long	2, 0, 0, 0, 2, 0, 0, 0

/*
 * Stack frame, 32-byte aligned: S, the sixteen state words broadcast to
 * eight lanes (word 12 holds the eight counters of the pass), reused as the
 * keystream buffer of a partial pass; then the slots of words 1..3 (word
 * 3 through the rounds, the three words' keystream after them) and one
 * spare, which keeps the frame a multiple of 128 bytes.
 */
#define S(i)		(32 * (i))(%rsp)
#define A(i)		(512 + 32 * ((i) - 1))(%rsp)
#define FRAME		640

/* arguments */
#define STATE		%rdi
#define DST		%rsi
#define SRC		%rdx
#define LEN		%rcx
#define LEN32		%ecx
#define ROUNDS		%r8d
/* the counter of the next block to produce */
#define CTR		%r9d

#include "chacha-x86-rows.S"

.text

/*
 * The vertical form's registers: the scratch register, then words 0..2;
 * words 4..15 are in ymm4-15, word 3 in its slot A(3).  The rotation
 * shuffles are read from .rodata by each vpshufb: on a CPU whose vector
 * operations take two cycles (AMD Zen 5) the loop is bound by its chains,
 * and two words more in registers take two slots' stores and reloads off
 * them, where two registers of shuffle masks saved only loads.
 */
#define VT		%ymm0
#define VR8		.Lrot8(%rip)
#define VR16		.Lrot16(%rip)

/* a += b, d ^= a, d <<<= 16 or 8 (\m: its shuffle), a in a register */
.macro	vadd	a, b, d, m
	vpaddd		\b, \a, \a
	vpxor		\a, \d, \d
	vpshufb		\m, \d, \d
.endm

/* the same with a in a stack slot, through VT */
.macro	vaddm	a, b, d, m
	vpaddd		\a, \b, VT
	vmovdqa		VT, \a
	vpxor		VT, \d, \d
	vpshufb		\m, \d, \d
.endm

/* c += d, b ^= c, b <<<= \n, through VT */
.macro	vmix	c, d, b, n
	vpaddd		\d, \c, \c
	vpxor		\c, \b, \b
	vpslld		$\n, \b, VT
	vpsrld		$(32 - \n), \b, \b
	vpor		VT, \b, \b
.endm

/*
 * One round: four quarter rounds on (ai, bi, ci, di), words a0..a2 in
 * registers and a3 in its slot, each step taken by all four before the
 * next.  Used for both the column and the diagonal rounds.
 */
.macro	vround	a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3
	vadd		\a0, \b0, \d0, VR16
	vadd		\a1, \b1, \d1, VR16
	vadd		\a2, \b2, \d2, VR16
	vaddm		\a3, \b3, \d3, VR16
	vmix		\c0, \d0, \b0, 12
	vmix		\c1, \d1, \b1, 12
	vmix		\c2, \d2, \b2, 12
	vmix		\c3, \d3, \b3, 12
	vadd		\a0, \b0, \d0, VR8
	vadd		\a1, \b1, \d1, VR8
	vadd		\a2, \b2, \d2, VR8
	vaddm		\a3, \b3, \d3, VR8
	vmix		\c0, \d0, \b0, 7
	vmix		\c1, \d1, \b1, 7
	vmix		\c2, \d2, \b2, 7
	vmix		\c3, \d3, \b3, 7
.endm

/*
 * 4x4 dword transpose inside each 128-bit lane: on entry r0..r3 hold words
 * w..w+3 of the blocks; on exit row w/4 of block 0 (low lane; block 4 in
 * the high lane) is in \r2, block 1 in \t, block 2 in \r0, block 3 in \r1,
 * and \r3 is free.
 */
.macro	transpose4	r0, r1, r2, r3, t
	vpunpckldq	\r1, \r0, \t
	vpunpckhdq	\r1, \r0, \r1
	vpunpckldq	\r3, \r2, \r0
	vpunpckhdq	\r3, \r2, \r3
	vpunpcklqdq	\r0, \t, \r2
	vpunpckhqdq	\r0, \t, \t
	vpunpcklqdq	\r3, \r1, \r0
	vpunpckhqdq	\r3, \r1, \r1
.endm

/*
 * 32 bytes of keystream in \ks out at offset \off: XORed into dst (\ks is
 * clobbered).  In a pass that ends inside its blocks (\buf = 1), with LEN
 * from PLO to PHI, only a piece that ends at or before LEN goes out so;
 * one that LEN ends in goes to the keystream buffer at the same offset,
 * for .Ltail_buf, and one past PHI nowhere.  Only the tests each range
 * leaves open are assembled.
 */
.macro	out32	buf, ks, off
.if \buf
.if \off + 32 <= PLO
	out32		0, \ks, \off
.elseif \off + 32 > PHI
.if \off < PHI
	vmovdqa		\ks, \off(%rsp)
.endif
.else
	cmp		$(\off + 32), LEN
	jb		.Lbuf\@
	out32		0, \ks, \off
	jmp		.Lout\@
.Lbuf\@:
	vmovdqa		\ks, \off(%rsp)
.Lout\@:
.endif
.else
	vpxor		\off(SRC), \ks, \ks
	vmovdqu		\ks, \off(DST)
.endif
.endm

/*
 * Join the lane halves of rows \lo (low 16 bytes) and \hi of blocks k and
 * k + 4 and put them out at \off within each block.  The registers are
 * given by number.  The low halves join by an insert, which AMD Zen 1
 * runs as two operations where a two-source lane permute takes eight.
 */
.macro	join2	buf, k, off, lo, hi, t0, t1
	vinserti128	$1, %xmm\hi, %ymm\lo, %ymm\t0
	vperm2i128	$0x31, %ymm\hi, %ymm\lo, %ymm\t1
	out32		\buf, %ymm\t0, (64 * \k + \off)
	out32		\buf, %ymm\t1, (64 * (\k + 4) + \off)
.endm

/*
 * The end of a vertical pass: the feed-forward, then each pair of row
 * groups transposed, joined and put out.  Words 0..2 are in ymm1-3, word 3
 * in its slot, words 4..15 in ymm4-15.
 */
.macro	v8_finish	buf
	/* words 1..3 first, into the slots: a partial pass overwrites S */
	vmovdqa		A(3), %ymm0
	vpaddd		S(1), %ymm2, %ymm2
	vpaddd		S(2), %ymm3, %ymm3
	vpaddd		S(3), %ymm0, %ymm0
	vmovdqa		%ymm2, A(1)
	vmovdqa		%ymm3, A(2)
	vmovdqa		%ymm0, A(3)
	vpaddd		S(0), %ymm1, %ymm1
	vpaddd		S(4), %ymm4, %ymm4
	vpaddd		S(5), %ymm5, %ymm5
	vpaddd		S(6), %ymm6, %ymm6
	vpaddd		S(7), %ymm7, %ymm7
	vpaddd		S(8), %ymm8, %ymm8
	vpaddd		S(9), %ymm9, %ymm9
	vpaddd		S(10), %ymm10, %ymm10
	vpaddd		S(11), %ymm11, %ymm11
	vpaddd		S(12), %ymm12, %ymm12
	vpaddd		S(13), %ymm13, %ymm13
	vpaddd		S(14), %ymm14, %ymm14
	vpaddd		S(15), %ymm15, %ymm15

	/* rows 2 and 3, in registers: the last 32 bytes of each block */
	transpose4	%ymm8, %ymm9, %ymm10, %ymm11, %ymm0
	transpose4	%ymm12, %ymm13, %ymm14, %ymm15, %ymm2
	join2		\buf, 0, 32, 10, 14, 3, 11
	join2		\buf, 1, 32, 0, 2, 3, 11
	join2		\buf, 2, 32, 8, 12, 3, 11
	join2		\buf, 3, 32, 9, 13, 3, 11

	/* rows 0 and 1: the first 32 bytes */
	vmovdqa		A(1), %ymm8
	vmovdqa		A(2), %ymm9
	vmovdqa		A(3), %ymm10
	transpose4	%ymm1, %ymm8, %ymm9, %ymm10, %ymm0
	transpose4	%ymm4, %ymm5, %ymm6, %ymm7, %ymm2
	join2		\buf, 0, 0, 9, 6, 3, 10
	join2		\buf, 1, 0, 0, 2, 3, 10
	join2		\buf, 2, 0, 1, 4, 3, 10
	join2		\buf, 3, 0, 8, 5, 3, 10
.endm

/*
 * One horizontal quarter round on rows a, b, c, d; \t is scratch, \r16 and
 * \r8 hold the 16- and 8-bit rotation shuffles (in registers: a mask
 * from memory would put its load in the chain's latency on some cores).
 */
.macro	hqr	a, b, c, d, t, r16, r8
	vpaddd		\b, \a, \a
	vpxor		\a, \d, \d
	vpshufb		\r16, \d, \d
	vpaddd		\d, \c, \c
	vpxor		\c, \b, \b
	vpslld		$12, \b, \t
	vpsrld		$20, \b, \b
	vpor		\t, \b, \b
	vpaddd		\b, \a, \a
	vpxor		\a, \d, \d
	vpshufb		\r8, \d, \d
	vpaddd		\d, \c, \c
	vpxor		\c, \b, \b
	vpslld		$7, \b, \t
	vpsrld		$25, \b, \b
	vpor		\t, \b, \b
.endm

/*
 * Line the diagonals up as columns, and back: rows a, c and d move, by one
 * word down, one up and two, so that b, whose rotate ends a quarter round
 * and which the next one needs first, goes straight on; the other rows
 * were final several steps before and shuffle off the critical path.
 */
.macro	hdiag	a, c, d
	vpshufd		$0x93, \a, \a
	vpshufd		$0x39, \c, \c
	vpshufd		$0x4e, \d, \d
.endm

.macro	hundiag	a, c, d
	vpshufd		$0x39, \a, \a
	vpshufd		$0x93, \c, \c
	vpshufd		$0x4e, \d, \d
.endm

/*
 * The keystream of horizontal rows \r0..\r3 (two blocks, one per lane) out
 * at block offset \blk: XORed into dst or into the buffer.  Registers by
 * number, as for join2.
 */
.macro	hout	buf, blk, r0, r1, r2, r3, t0, t1
	vinserti128	$1, %xmm\r1, %ymm\r0, %ymm\t0
	vinserti128	$1, %xmm\r3, %ymm\r2, %ymm\t1
	out32		\buf, %ymm\t0, (64 * \blk)
	out32		\buf, %ymm\t1, (64 * \blk + 32)
	vperm2i128	$0x31, %ymm\r1, %ymm\r0, %ymm\t0
	vperm2i128	$0x31, %ymm\r3, %ymm\r2, %ymm\t1
	out32		\buf, %ymm\t0, (64 * \blk + 64)
	out32		\buf, %ymm\t1, (64 * \blk + 96)
.endm

/*
 * void kchacha_avx2_xor(const u32 *state, u8 *dst, const u8 *src,
 *			 unsigned int len, int nrounds)
 */
SYM_TYPED_FUNC_START(kchacha_avx2_xor)
	test		LEN32, LEN32
	jz		.Lret
	push		%rbp
	mov		%rsp, %rbp
	sub		$FRAME, %rsp
	and		$~31, %rsp
	mov		LEN32, LEN32
	mov		48(STATE), CTR
	/* the frame's 32-byte slots to wipe: none until a form writes it */
	xor		%r11d, %r11d

	cmp		$256, LEN
	jbe		.Lhoriz

	/* S: each state word in all eight lanes, the counters 0..7 apart */
	vpbroadcastd	0x00(STATE), %ymm0
	vpbroadcastd	0x04(STATE), %ymm1
	vpbroadcastd	0x08(STATE), %ymm2
	vpbroadcastd	0x0c(STATE), %ymm3
	vpbroadcastd	0x10(STATE), %ymm4
	vpbroadcastd	0x14(STATE), %ymm5
	vpbroadcastd	0x18(STATE), %ymm6
	vpbroadcastd	0x1c(STATE), %ymm7
	vpbroadcastd	0x20(STATE), %ymm8
	vpbroadcastd	0x24(STATE), %ymm9
	vpbroadcastd	0x28(STATE), %ymm10
	vpbroadcastd	0x2c(STATE), %ymm11
	vpbroadcastd	0x30(STATE), %ymm12
	vpbroadcastd	0x34(STATE), %ymm13
	vpbroadcastd	0x38(STATE), %ymm14
	vpbroadcastd	0x3c(STATE), %ymm15
	vpaddd		.Llanes(%rip), %ymm12, %ymm12
	vmovdqa		%ymm0, S(0)
	vmovdqa		%ymm1, S(1)
	vmovdqa		%ymm2, S(2)
	vmovdqa		%ymm3, S(3)
	vmovdqa		%ymm4, S(4)
	vmovdqa		%ymm5, S(5)
	vmovdqa		%ymm6, S(6)
	vmovdqa		%ymm7, S(7)
	vmovdqa		%ymm8, S(8)
	vmovdqa		%ymm9, S(9)
	vmovdqa		%ymm10, S(10)
	vmovdqa		%ymm11, S(11)
	vmovdqa		%ymm12, S(12)
	vmovdqa		%ymm13, S(13)
	vmovdqa		%ymm14, S(14)
	vmovdqa		%ymm15, S(15)
	mov		$(FRAME / 32), %r11d
	vmovdqa		%ymm3, A(3)
	vmovdqa		%ymm2, %ymm3
	vmovdqa		%ymm1, %ymm2
	vmovdqa		%ymm0, %ymm1
	jmp		.Lv8_rounds

.Lv8_pass:
	vmovdqa		S(3), %ymm0
	vmovdqa		%ymm0, A(3)
	vmovdqa		S(2), %ymm3
	vmovdqa		S(1), %ymm2
	vmovdqa		S(0), %ymm1
	vmovdqa		S(4), %ymm4
	vmovdqa		S(5), %ymm5
	vmovdqa		S(6), %ymm6
	vmovdqa		S(7), %ymm7
	vmovdqa		S(8), %ymm8
	vmovdqa		S(9), %ymm9
	vmovdqa		S(10), %ymm10
	vmovdqa		S(11), %ymm11
	vmovdqa		S(12), %ymm12
	vmovdqa		S(13), %ymm13
	vmovdqa		S(14), %ymm14
	vmovdqa		S(15), %ymm15
.Lv8_rounds:
	mov		ROUNDS, %eax

.Lv8_dround:
	/* the columns, then the diagonals */
	vround		%ymm1, %ymm2, %ymm3, A(3), %ymm4, %ymm5, %ymm6, %ymm7, \
			%ymm8, %ymm9, %ymm10, %ymm11, %ymm12, %ymm13, %ymm14, %ymm15
	vround		%ymm1, %ymm2, %ymm3, A(3), %ymm5, %ymm6, %ymm7, %ymm4, \
			%ymm10, %ymm11, %ymm8, %ymm9, %ymm15, %ymm12, %ymm13, %ymm14
	sub		$2, %eax
	jnz		.Lv8_dround

	cmp		$512, LEN
	jb		.Lv8_partial

	v8_finish	0
	add		$8, CTR
	vmovdqa		S(12), %ymm0
	vpaddd		.Leight(%rip), %ymm0, %ymm0
	vmovdqa		%ymm0, S(12)
	add		$512, SRC
	add		$512, DST
	sub		$512, LEN
	jz		.Ldone
	cmp		$256, LEN
	ja		.Lv8_pass
	jmp		.Lhoriz

.Lv8_partial:
	.set		PLO, 257
	.set		PHI, 511
	v8_finish	1
	jmp		.Ltail_buf

	/*
	 * Four or fewer blocks left: rows 0..2 of both lanes in ymm10-12,
	 * row 3 with the counters CTR and CTR + 1 in ymm13, the rotation
	 * shuffles in ymm15 and ymm14.
	 */
.Lhoriz:
	srows		%ymm10, %ymm11, %ymm12, %ymm0, %ymm1
	vmovd		CTR, %xmm13
	srow		%xmm13, 0x30, %ymm13, %ymm0, %ymm1
	vpaddd		.Lhstep1(%rip), %ymm13, %ymm13
	vmovdqa		.Lrot16(%rip), %ymm15
	vmovdqa		.Lrot8(%rip), %ymm14
	vmovdqa		%ymm10, %ymm0
	vmovdqa		%ymm11, %ymm1
	vmovdqa		%ymm12, %ymm2
	vmovdqa		%ymm13, %ymm3
	mov		ROUNDS, %eax
	cmp		$64, LEN
	jbe		.Lh1_dround
	cmp		$128, LEN
	jbe		.Lh2_dround

	/* four blocks: the second chain in ymm4-7, its row 3 two on */
	vpaddd		.Lhstep2(%rip), %ymm13, %ymm7
	vmovdqa		%ymm10, %ymm4
	vmovdqa		%ymm11, %ymm5
	vmovdqa		%ymm12, %ymm6
.Lh4_dround:
	hqr		%ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm15, %ymm14
	hqr		%ymm4, %ymm5, %ymm6, %ymm7, %ymm9, %ymm15, %ymm14
	hdiag		%ymm0, %ymm2, %ymm3
	hdiag		%ymm4, %ymm6, %ymm7
	hqr		%ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm15, %ymm14
	hqr		%ymm4, %ymm5, %ymm6, %ymm7, %ymm9, %ymm15, %ymm14
	hundiag		%ymm0, %ymm2, %ymm3
	hundiag		%ymm4, %ymm6, %ymm7
	sub		$2, %eax
	jnz		.Lh4_dround

	vpaddd		%ymm10, %ymm0, %ymm0
	vpaddd		%ymm11, %ymm1, %ymm1
	vpaddd		%ymm12, %ymm2, %ymm2
	vpaddd		%ymm13, %ymm3, %ymm3
	vpaddd		%ymm10, %ymm4, %ymm4
	vpaddd		%ymm11, %ymm5, %ymm5
	vpaddd		%ymm12, %ymm6, %ymm6
	vpaddd		%ymm13, %ymm7, %ymm7
	vpaddd		.Lhstep2(%rip), %ymm7, %ymm7
	cmp		$256, LEN
	jb		.Lh4_partial
	hout		0, 0, 0, 1, 2, 3, 8, 9
	hout		0, 2, 4, 5, 6, 7, 8, 9
	jmp		.Ldone
.Lh4_partial:
	mov		$(FRAME / 32), %r11d
	.set		PLO, 129
	.set		PHI, 255
	hout		1, 0, 0, 1, 2, 3, 8, 9
	hout		1, 2, 4, 5, 6, 7, 8, 9
	jmp		.Ltail_buf

	/*
	 * one block: the two-block chain on the low lanes alone, which
	 * halves its work on cores that split each 256-bit operation in two
	 * (AMD Zen 1: the chain's shifts queue for one pipe)
	 */
.Lh1_dround:
	hqr		%xmm0, %xmm1, %xmm2, %xmm3, %xmm8, %xmm15, %xmm14
	hdiag		%xmm0, %xmm2, %xmm3
	hqr		%xmm0, %xmm1, %xmm2, %xmm3, %xmm8, %xmm15, %xmm14
	hundiag		%xmm0, %xmm2, %xmm3
	sub		$2, %eax
	jnz		.Lh1_dround

	vpaddd		%xmm10, %xmm0, %xmm0
	vpaddd		%xmm11, %xmm1, %xmm1
	vpaddd		%xmm12, %xmm2, %xmm2
	vpaddd		%xmm13, %xmm3, %xmm3
	cmp		$64, LEN
	jb		.Lh1_partial
	vpxor		0x00(SRC), %xmm0, %xmm0
	vpxor		0x10(SRC), %xmm1, %xmm1
	vpxor		0x20(SRC), %xmm2, %xmm2
	vpxor		0x30(SRC), %xmm3, %xmm3
	vmovdqu		%xmm0, 0x00(DST)
	vmovdqu		%xmm1, 0x10(DST)
	vmovdqu		%xmm2, 0x20(DST)
	vmovdqu		%xmm3, 0x30(DST)
	jmp		.Ldone
.Lh1_partial:
	mov		$(FRAME / 32), %r11d
	vmovdqa		%xmm0, 0x00(%rsp)
	vmovdqa		%xmm1, 0x10(%rsp)
	vmovdqa		%xmm2, 0x20(%rsp)
	vmovdqa		%xmm3, 0x30(%rsp)
	jmp		.Ltail

	/* two blocks */
.Lh2_dround:
	hqr		%ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm15, %ymm14
	hdiag		%ymm0, %ymm2, %ymm3
	hqr		%ymm0, %ymm1, %ymm2, %ymm3, %ymm8, %ymm15, %ymm14
	hundiag		%ymm0, %ymm2, %ymm3
	sub		$2, %eax
	jnz		.Lh2_dround

	vpaddd		%ymm10, %ymm0, %ymm0
	vpaddd		%ymm11, %ymm1, %ymm1
	vpaddd		%ymm12, %ymm2, %ymm2
	vpaddd		%ymm13, %ymm3, %ymm3
	cmp		$128, LEN
	jb		.Lh2_partial
	hout		0, 0, 0, 1, 2, 3, 8, 9
	jmp		.Ldone
	/*
	 * 65 to 127 bytes (one block or less went the xmm way): the whole
	 * first block straight out, what is left of the second through the
	 * buffer
	 */
.Lh2_partial:
	mov		$(FRAME / 32), %r11d
	vinserti128	$1, %xmm1, %ymm0, %ymm8
	vinserti128	$1, %xmm3, %ymm2, %ymm9
	out32		0, %ymm8, 0
	out32		0, %ymm9, 32
	add		$64, SRC
	add		$64, DST
	sub		$64, LEN
	vperm2i128	$0x31, %ymm1, %ymm0, %ymm8
	vperm2i128	$0x31, %ymm3, %ymm2, %ymm9
	.set		PLO, 1
	.set		PHI, 63
	out32		1, %ymm8, 0
	out32		1, %ymm9, 32

	/*
	 * After out32 with \buf = 1: the whole 32-byte pieces are out, the
	 * buffer holds the one LEN ends in at its offset; skip to it.
	 */
.Ltail_buf:
	mov		LEN, %rax
	and		$-32, %rax
	add		%rax, SRC
	add		%rax, DST
	sub		%rax, LEN
	mov		%rsp, %r10
	add		%rax, %r10
	jmp		.Ltail32

	/* XOR the LEN bytes left with the keystream buffer at the frame base */
.Ltail:
	mov		%rsp, %r10
.Ltail32:
	cmp		$32, LEN
	jb		.Ltail16
	vmovdqu		(SRC), %ymm0
	vpxor		(%r10), %ymm0, %ymm0
	vmovdqu		%ymm0, (DST)
	add		$32, SRC
	add		$32, DST
	add		$32, %r10
	sub		$32, LEN
	jmp		.Ltail32
.Ltail16:
	cmp		$16, LEN
	jb		.Ltail8
	vmovdqu		(SRC), %xmm0
	vpxor		(%r10), %xmm0, %xmm0
	vmovdqu		%xmm0, (DST)
	add		$16, SRC
	add		$16, DST
	add		$16, %r10
	sub		$16, LEN
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

	/*
	 * wipe the frame where a form wrote it: broadcast key words,
	 * keystream (not at all after whole horizontal blocks)
	 */
.Ldone:
	test		%r11d, %r11d
	jz		.Lwiped
	vpxor		%xmm0, %xmm0, %xmm0
	mov		%rsp, %r10
.Lwipe:
	vmovdqa		%ymm0, (%r10)
	add		$32, %r10
	dec		%r11d
	jnz		.Lwipe
.Lwiped:
	vzeroupper
	leave
.Lret:
	RET
SYM_FUNC_END(kchacha_avx2_xor)

/*
 * void kchacha_avx2_hchacha(const u32 *state, u32 *out, int nrounds)
 *
 * HChaCha: the permutation of one block without the feed-forward; words
 * 0..3 and 12..15 out.  The horizontal form in xmm registers, VEX-encoded
 * so that it mixes with the AVX2 code without transition costs.
 */
SYM_TYPED_FUNC_START(kchacha_avx2_hchacha)
	srows		%xmm0, %xmm1, %xmm2, %xmm4, %xmm5
	srow		0x30(STATE), 0x30, %xmm3, %xmm4, %xmm5
	vmovdqa		.Lrot16(%rip), %xmm5
	vmovdqa		.Lrot8(%rip), %xmm6
.Lhc_dround:
	hqr		%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6
	hdiag		%xmm0, %xmm2, %xmm3
	hqr		%xmm0, %xmm1, %xmm2, %xmm3, %xmm4, %xmm5, %xmm6
	hundiag		%xmm0, %xmm2, %xmm3
	sub		$2, %edx
	jnz		.Lhc_dround
	vmovdqu		%xmm0, 0x00(%rsi)
	vmovdqu		%xmm3, 0x10(%rsi)
	RET
SYM_FUNC_END(kchacha_avx2_hchacha)
