/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An independent, deliberately plain ChaCha for the tests: bytes in, bytes
 * out, straight from RFC 8439 section 2, sharing no code with the module.
 */
#ifndef _KCHACHA_TEST_REF_H
#define _KCHACHA_TEST_REF_H
#include <stdint.h>
#include <string.h>

static uint32_t ref_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t ref_rotl(uint32_t v, int c)
{
	return (v << c) | (v >> (32 - c));
}

static void ref_quarter(uint32_t *s, int a, int b, int c, int d)
{
	s[a] += s[b]; s[d] ^= s[a]; s[d] = ref_rotl(s[d], 16);
	s[c] += s[d]; s[b] ^= s[c]; s[b] = ref_rotl(s[b], 12);
	s[a] += s[b]; s[d] ^= s[a]; s[d] = ref_rotl(s[d], 8);
	s[c] += s[d]; s[b] ^= s[c]; s[b] = ref_rotl(s[b], 7);
}

static void ref_setup(uint32_t *s, const uint8_t key[32], uint32_t counter,
		      const uint8_t nonce[12])
{
	static const uint8_t sigma[16] = "expand 32-byte k";
	int i;

	for (i = 0; i < 4; i++)
		s[i] = ref_le32(sigma + 4 * i);
	for (i = 0; i < 8; i++)
		s[4 + i] = ref_le32(key + 4 * i);
	s[12] = counter;
	for (i = 0; i < 3; i++)
		s[13 + i] = ref_le32(nonce + 4 * i);
}

static void ref_rounds(uint32_t *s, int rounds)
{
	for (int r = 0; r < rounds; r += 2) {
		ref_quarter(s, 0, 4, 8, 12);
		ref_quarter(s, 1, 5, 9, 13);
		ref_quarter(s, 2, 6, 10, 14);
		ref_quarter(s, 3, 7, 11, 15);
		ref_quarter(s, 0, 5, 10, 15);
		ref_quarter(s, 1, 6, 11, 12);
		ref_quarter(s, 2, 7, 8, 13);
		ref_quarter(s, 3, 4, 9, 14);
	}
}

/* One 64-byte keystream block. */
static void ref_block(const uint8_t key[32], uint32_t counter,
		      const uint8_t nonce[12], int rounds, uint8_t out[64])
{
	uint32_t s[16], w[16];

	ref_setup(s, key, counter, nonce);
	memcpy(w, s, sizeof(w));
	ref_rounds(w, rounds);
	for (int i = 0; i < 16; i++) {
		uint32_t v = w[i] + s[i];

		out[4 * i + 0] = v;
		out[4 * i + 1] = v >> 8;
		out[4 * i + 2] = v >> 16;
		out[4 * i + 3] = v >> 24;
	}
}

/* ChaCha with the kernel's 16-byte IV: LE32 counter, then 12-byte nonce. */
static void ref_chacha(const uint8_t key[32], const uint8_t iv[16], int rounds,
		       uint8_t *out, const uint8_t *in, size_t len)
{
	uint32_t counter = ref_le32(iv);
	uint8_t ks[64];

	for (size_t off = 0; off < len; off += 64, counter++) {
		ref_block(key, counter, iv + 4, rounds, ks);
		for (size_t i = 0; i < 64 && off + i < len; i++)
			out[off + i] = in[off + i] ^ ks[i];
	}
}

/* HChaCha: 32 bytes from a key and a 16-byte nonce. */
static void ref_hchacha(const uint8_t key[32], const uint8_t nonce[16],
			int rounds, uint8_t out[32])
{
	uint32_t s[16];
	static const int pick[8] = { 0, 1, 2, 3, 12, 13, 14, 15 };

	ref_setup(s, key, ref_le32(nonce), nonce + 4);
	ref_rounds(s, rounds);
	for (int i = 0; i < 8; i++)
		for (int b = 0; b < 4; b++)
			out[4 * i + b] = s[pick[i]] >> (8 * b);
}

/* XChaCha with the kernel's 32-byte IV: 24-byte nonce, LE64 position. */
static void ref_xchacha(const uint8_t key[32], const uint8_t iv[32],
			int rounds, uint8_t *out, const uint8_t *in, size_t len)
{
	uint8_t subkey[32], iv16[16];

	ref_hchacha(key, iv, rounds, subkey);
	memcpy(iv16, iv + 24, 4);	/* low half of the position */
	memcpy(iv16 + 4, iv + 28, 4);
	memcpy(iv16 + 8, iv + 16, 8);
	ref_chacha(subkey, iv16, rounds, out, in, len);
}
#endif
