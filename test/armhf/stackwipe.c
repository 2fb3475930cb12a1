// SPDX-License-Identifier: GPL-2.0-only
/*
 * test/armhf/stackwipe: what kchacha_neon_xor() leaves on the stack, run
 * under qemu-arm-static by test/armhf/check.
 *
 * The stack below main()'s frame is painted with 0xa5, the core called
 * from a function of its own, and the same stack then read back (built
 * with -O0, so that the three frames lie over one another).  No 32-bit
 * word there may equal a word of the keystream written (the source is all
 * zeroes) or a word of the permuted state before the input was added to
 * it (keystream minus state; what a spilled row holds), which would give
 * the key away.  Every length 1..600, then every 37th up to 2100.
 */
#include <stdio.h>
#include <string.h>

#include "test/shim/linux/compiler.h"
#include "test/shim/linux/types.h"
#include "kchacha.h"

#define SPAN	8192

static u8 src[2112], dst[2112];

static noinline void paint(void)
{
	u8 b[SPAN];

	memset(b, 0xa5, sizeof(b));
	/* the stores are kept: b is handed to what the compiler cannot see */
	__asm__ volatile("" : : "r"(b) : "memory");
}

static noinline void call(const u32 *state, unsigned int len)
{
	kchacha_neon_xor(state, dst, src, len, 20);
}

/* words of the stack below that give away keystream or permuted state */
static noinline int scan(const u32 *state, unsigned int len)
{
	u32 b[SPAN / 4];
	unsigned int i, blk, w;
	int found = 0;
	u32 v, ks;

	/* as far as the compiler knows, this fills b: what was there stays */
	__asm__ volatile("" : : "r"(b) : "memory");
	for (i = 0; i < SPAN / 4; i++) {
		v = b[i];
		if (!v || v == 0xa5a5a5a5)
			continue;
		for (blk = 0; blk * 64 < len; blk++) {
			for (w = 0; w < 16 && blk * 64 + w * 4 + 4 <= len; w++) {
				memcpy(&ks, dst + blk * 64 + w * 4, 4);
				if (v == ks || v == ks - state[w] ||
				    (w == 12 && v == ks - state[w] - blk))
					found++;
			}
		}
	}
	return found;
}

int main(void)
{
	unsigned int len;
	int i, n, bad = 0, runs = 0;
	u32 state[16];

	for (i = 0; i < 16; i++)
		state[i] = 0x01030507u * i + 0x9e3779b9u;
	for (len = 1; len <= 2100; len += len < 600 ? 1 : 37) {
		paint();
		call(state, len);
		n = scan(state, len);
		runs++;
		if (n) {
			printf("stackwipe: %u bytes: %d words left\n", len, n);
			bad++;
		}
	}
	printf("stackwipe: %d lengths, %d with material left on the stack\n",
	       runs, bad);
	return bad != 0;
}
