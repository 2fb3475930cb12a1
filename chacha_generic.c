// SPDX-License-Identifier: GPL-2.0-only
/*
 * The portable ChaCha core: any length, any alignment, 32-bit counter.
 *
 * It builds unchanged into the module and, through test/shim, into the
 * user-space tests and benchmarks.  Small requests are its strength: a
 * scalar block has no vector set-up, so the SIMD glue sends short requests
 * here, and the kernel calls it with a fresh state for every request.
 *
 * A block runs in sixteen locals with no address taken, which the compiler
 * keeps in registers, and each keystream word goes straight into the
 * output, XORed with the input as one little-endian word.  So no keystream
 * is ever stored in a buffer, not even for a final partial block.  Where
 * registers run short (x86-64 and 32-bit ARM), the compiler spills some of
 * the sixteen words, the last round's among them, which are the keystream
 * less the state: the frame that held them is wiped after every call
 * (kchacha_generic_xor()).
 */
#include <linux/bitops.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "kchacha_compat.h"
#include "kchacha.h"

static __always_inline void kchacha_qr(u32 *a, u32 *b, u32 *c, u32 *d)
{
	*a += *b;
	*d = rol32(*d ^ *a, 16);
	*c += *d;
	*b = rol32(*b ^ *c, 12);
	*a += *b;
	*d = rol32(*d ^ *a, 8);
	*c += *d;
	*b = rol32(*b ^ *c, 7);
}

/*
 * XOR keystream word @ks into word @i of the block at @dst, or into the
 * bytes of it that lie below @n.
 */
static __always_inline void kchacha_xor_word(u8 *dst, const u8 *src,
					     unsigned int n, unsigned int i,
					     u32 ks)
{
	unsigned int off = 4 * i;

	if (off + 4 <= n) {
		put_unaligned_le32(get_unaligned_le32(src + off) ^ ks,
				   dst + off);
		return;
	}
	for (; off < n; off++, ks >>= 8)
		dst[off] = src[off] ^ (u8)ks;
}

/*
 * XOR the keystream of block @ctr into the first @n bytes (1..64) of the
 * block at @dst, from @src.  Always inlined, so that the sixteen words stay
 * locals with no address taken, and so that the whole-block copy, with @n
 * a constant 64, has no tests of @n left.  Each pass of the loop is two
 * double rounds: @nrounds is 20, 12 or 8.
 */
static __always_inline void kchacha_block_xor(const u32 *state, u32 ctr,
					      u8 *dst, const u8 *src,
					      unsigned int n, int nrounds)
{
	u32 x0 = state[0], x1 = state[1], x2 = state[2], x3 = state[3];
	u32 x4 = state[4], x5 = state[5], x6 = state[6], x7 = state[7];
	u32 x8 = state[8], x9 = state[9], x10 = state[10], x11 = state[11];
	u32 x12 = ctr, x13 = state[13], x14 = state[14], x15 = state[15];
	int i;

	for (i = nrounds; i > 0; i -= 4) {
		kchacha_qr(&x0, &x4, &x8, &x12);
		kchacha_qr(&x1, &x5, &x9, &x13);
		kchacha_qr(&x2, &x6, &x10, &x14);
		kchacha_qr(&x3, &x7, &x11, &x15);

		kchacha_qr(&x0, &x5, &x10, &x15);
		kchacha_qr(&x1, &x6, &x11, &x12);
		kchacha_qr(&x2, &x7, &x8, &x13);
		kchacha_qr(&x3, &x4, &x9, &x14);
		kchacha_qr(&x0, &x4, &x8, &x12);
		kchacha_qr(&x1, &x5, &x9, &x13);
		kchacha_qr(&x2, &x6, &x10, &x14);
		kchacha_qr(&x3, &x7, &x11, &x15);

		kchacha_qr(&x0, &x5, &x10, &x15);
		kchacha_qr(&x1, &x6, &x11, &x12);
		kchacha_qr(&x2, &x7, &x8, &x13);
		kchacha_qr(&x3, &x4, &x9, &x14);
	}

	kchacha_xor_word(dst, src, n, 0, x0 + state[0]);
	kchacha_xor_word(dst, src, n, 1, x1 + state[1]);
	kchacha_xor_word(dst, src, n, 2, x2 + state[2]);
	kchacha_xor_word(dst, src, n, 3, x3 + state[3]);
	kchacha_xor_word(dst, src, n, 4, x4 + state[4]);
	kchacha_xor_word(dst, src, n, 5, x5 + state[5]);
	kchacha_xor_word(dst, src, n, 6, x6 + state[6]);
	kchacha_xor_word(dst, src, n, 7, x7 + state[7]);
	kchacha_xor_word(dst, src, n, 8, x8 + state[8]);
	kchacha_xor_word(dst, src, n, 9, x9 + state[9]);
	kchacha_xor_word(dst, src, n, 10, x10 + state[10]);
	kchacha_xor_word(dst, src, n, 11, x11 + state[11]);
	kchacha_xor_word(dst, src, n, 12, x12 + ctr);
	kchacha_xor_word(dst, src, n, 13, x13 + state[13]);
	kchacha_xor_word(dst, src, n, 14, x14 + state[14]);
	kchacha_xor_word(dst, src, n, 15, x15 + state[15]);
}

static void kchacha_permute(u32 *x, int nrounds)
{
	int i;

	for (i = 0; i < nrounds; i += 2) {
		kchacha_qr(&x[0], &x[4], &x[8], &x[12]);
		kchacha_qr(&x[1], &x[5], &x[9], &x[13]);
		kchacha_qr(&x[2], &x[6], &x[10], &x[14]);
		kchacha_qr(&x[3], &x[7], &x[11], &x[15]);

		kchacha_qr(&x[0], &x[5], &x[10], &x[15]);
		kchacha_qr(&x[1], &x[6], &x[11], &x[12]);
		kchacha_qr(&x[2], &x[7], &x[8], &x[13]);
		kchacha_qr(&x[3], &x[4], &x[9], &x[14]);
	}
}

/**
 * kchacha_init_state() - lay out the initial ChaCha state
 * @state: 16 words out
 * @key: the eight key words (already little-endian decoded)
 * @iv: 16 bytes: the 32-bit block counter, then the 96-bit nonce, each
 *	little-endian, as the kernel's chacha20 skcipher takes them
 */
void kchacha_init_state(u32 *state, const u32 *key, const u8 *iv)
{
	state[0] = 0x61707865;	/* "expand 32-byte k" */
	state[1] = 0x3320646e;
	state[2] = 0x79622d32;
	state[3] = 0x6b206574;
	memcpy(&state[4], key, 8 * sizeof(u32));
	state[12] = get_unaligned_le32(iv + 0);
	state[13] = get_unaligned_le32(iv + 4);
	state[14] = get_unaligned_le32(iv + 8);
	state[15] = get_unaligned_le32(iv + 12);
}

static noinline void kchacha_generic_blocks(const u32 *state, u8 *dst,
					    const u8 *src, unsigned int len,
					    int nrounds)
{
	u32 ctr = state[12];

	for (; len >= KCHACHA_BLOCK_SIZE; len -= KCHACHA_BLOCK_SIZE) {
		kchacha_block_xor(state, ctr++, dst, src, KCHACHA_BLOCK_SIZE,
				  nrounds);
		src += KCHACHA_BLOCK_SIZE;
		dst += KCHACHA_BLOCK_SIZE;
	}
	if (len)
		kchacha_block_xor(state, ctr, dst, src, len, nrounds);
}

/*
 * Bytes of stack that kchacha_generic_wipe() clears below its caller: more
 * than kchacha_generic_blocks() or kchacha_generic_hchacha_rounds() takes
 * with what the compiler spills there (152 bytes on x86-64, kernel and
 * user space alike, with GCC 12; the
 * user-space test test/unit/stackwipe checks that nothing of the keystream
 * is left on x86-64, arm64 and 32-bit ARM).
 */
#define KCHACHA_GENERIC_FRAME	256

/*
 * Called right after kchacha_generic_blocks() or
 * kchacha_generic_hchacha_rounds(), from the same stack depth: its buffer
 * lies over that function's frame, spill slots included.  Word stores,
 * unrolled: a memset() here (rep stos on x86) cost 39 TSC ticks a call,
 * 17% of a one-block call, these 13 (AMD Zen 4, user space).
 */
static noinline void kchacha_generic_wipe(void)
{
	unsigned long frame[KCHACHA_GENERIC_FRAME / sizeof(unsigned long)];
	unsigned int i;

#pragma GCC unroll 64
	for (i = 0; i < ARRAY_SIZE(frame); i++)
		WRITE_ONCE(frame[i], 0);
}

/**
 * kchacha_generic_xor() - the C core's keystream XOR
 * @state: initial state; word 12 is the first block's counter (not updated)
 * @dst: output; may be @src
 * @src: input
 * @len: bytes
 * @nrounds: 20, 12 or 8
 *
 * See kchacha_xor_fn.  What the compiler spilled of the state on the way
 * is wiped from the stack before it returns.
 */
void kchacha_generic_xor(const u32 *state, u8 *dst, const u8 *src,
			 unsigned int len, int nrounds)
{
	kchacha_generic_blocks(state, dst, src, len, nrounds);
	kchacha_generic_wipe();
}

static noinline void kchacha_generic_hchacha_rounds(const u32 *state,
						    u32 *out, int nrounds)
{
	u32 x[16];

	memcpy(x, state, sizeof(x));
	kchacha_permute(x, nrounds);
	memcpy(&out[0], &x[0], 4 * sizeof(u32));
	memcpy(&out[4], &x[12], 4 * sizeof(u32));
	memzero_explicit(x, sizeof(x));
}

/**
 * kchacha_generic_hchacha() - HChaCha in C
 * @state: the initial state (constants, key, 16-byte nonce)
 * @out: eight words: 0..3 and 12..15 of the permuted state
 * @nrounds: 20 or 12
 *
 * The permuted state, which the compiler keeps in registers and spill
 * slots rather than in its array, is wiped from the stack before it
 * returns, as in kchacha_generic_xor().
 */
void kchacha_generic_hchacha(const u32 *state, u32 *out, int nrounds)
{
	kchacha_generic_hchacha_rounds(state, out, nrounds);
	kchacha_generic_wipe();
}
