// SPDX-License-Identifier: GPL-2.0-only
/*
 * The portable ChaCha core: any length, any alignment, 32-bit counter.
 *
 * It builds unchanged into the module and, through test/shim, into the
 * user-space tests and benchmarks.  Small requests are its strength: a
 * scalar block has no vector set-up, so the SIMD glue sends short requests
 * here.
 */
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <asm/unaligned.h>

#include "kchacha.h"

static __always_inline void kchacha_qr(u32 *x, int a, int b, int c, int d)
{
	x[a] += x[b];
	x[d] = rol32(x[d] ^ x[a], 16);
	x[c] += x[d];
	x[b] = rol32(x[b] ^ x[c], 12);
	x[a] += x[b];
	x[d] = rol32(x[d] ^ x[a], 8);
	x[c] += x[d];
	x[b] = rol32(x[b] ^ x[c], 7);
}

static void kchacha_permute(u32 *x, int nrounds)
{
	int i;

	for (i = 0; i < nrounds; i += 2) {
		kchacha_qr(x, 0, 4, 8, 12);
		kchacha_qr(x, 1, 5, 9, 13);
		kchacha_qr(x, 2, 6, 10, 14);
		kchacha_qr(x, 3, 7, 11, 15);

		kchacha_qr(x, 0, 5, 10, 15);
		kchacha_qr(x, 1, 6, 11, 12);
		kchacha_qr(x, 2, 7, 8, 13);
		kchacha_qr(x, 3, 4, 9, 14);
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

/**
 * kchacha_generic_xor() - the C core's keystream XOR
 * @state: initial state; word 12 is the first block's counter (not updated)
 * @dst: output; may be @src
 * @src: input
 * @len: bytes
 * @nrounds: 20, 12 or 8
 *
 * See kchacha_xor_fn.
 */
void kchacha_generic_xor(const u32 *state, u8 *dst, const u8 *src,
			 unsigned int len, int nrounds)
{
	u32 ctr = state[12];
	u32 x[16];
	int i;

	while (len) {
		unsigned int n = min_t(unsigned int, len, KCHACHA_BLOCK_SIZE);

		memcpy(x, state, sizeof(x));
		x[12] = ctr;
		kchacha_permute(x, nrounds);
		for (i = 0; i < 16; i++)
			x[i] += i == 12 ? ctr : state[i];

		if (n == KCHACHA_BLOCK_SIZE) {
			for (i = 0; i < 16; i++)
				put_unaligned_le32(get_unaligned_le32(src + 4 * i) ^ x[i],
						   dst + 4 * i);
		} else {
			u8 ks[KCHACHA_BLOCK_SIZE];

			for (i = 0; i < 16; i++)
				put_unaligned_le32(x[i], ks + 4 * i);
			for (i = 0; i < n; i++)
				dst[i] = src[i] ^ ks[i];
			memzero_explicit(ks, sizeof(ks));
		}
		ctr++;
		src += n;
		dst += n;
		len -= n;
	}
	memzero_explicit(x, sizeof(x));
}

/**
 * kchacha_generic_hchacha() - HChaCha in C
 * @state: the initial state (constants, key, 16-byte nonce)
 * @out: eight words: 0..3 and 12..15 of the permuted state
 * @nrounds: 20 or 12
 */
void kchacha_generic_hchacha(const u32 *state, u32 *out, int nrounds)
{
	u32 x[16];

	memcpy(x, state, sizeof(x));
	kchacha_permute(x, nrounds);
	memcpy(&out[0], &x[0], 4 * sizeof(u32));
	memcpy(&out[4], &x[12], 4 * sizeof(u32));
	memzero_explicit(x, sizeof(x));
}
