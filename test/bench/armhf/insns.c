// SPDX-License-Identifier: GPL-2.0-only
/*
 * test/bench/armhf/insns: one request of LEN bytes through one ChaCha20
 * implementation, for counting its instructions under qemu-arm (see
 * test/bench/armhf/run).  With LEN 0 nothing is called, which gives the
 * count of everything else to subtract.
 *
 *   insns kchacha-neon|kchacha-c|linux-neon LEN
 *
 * linux-neon is arch/arm/crypto/chacha-neon-core.S of linux-source-6.1,
 * driven the way its glue does: four blocks (up to 256 bytes) a call while
 * more than a block is left, then a single block, through a stack buffer
 * when partial.
 *
 * insns_mark() is called right before and right after the request: the
 * count is taken between the two calls, so that nothing else the program
 * runs (start-up, argument parsing, printf), whose path moves with the
 * stack's alignment and hence with the environment, enters it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/shim/linux/compiler.h"
#include "test/shim/linux/types.h"
#include "kchacha.h"

void chacha_block_xor_neon(const u32 *state, u8 *dst, const u8 *src,
			   int nrounds);
void chacha_4block_xor_neon(const u32 *state, u8 *dst, const u8 *src,
			    int nrounds, unsigned int nbytes);

static void linux_neon(u32 *state, u8 *dst, const u8 *src, unsigned int len)
{
	u8 tmp[64];

	for (; len > 64; ) {
		unsigned int n = len < 256 ? len : 256;

		chacha_4block_xor_neon(state, dst, src, 20, n);
		state[12] += (n + 63) / 64;
		src += n;
		dst += n;
		len -= n;
	}
	if (!len)
		return;
	if (len == 64) {
		chacha_block_xor_neon(state, dst, src, 20);
	} else {
		memcpy(tmp, src, len);
		chacha_block_xor_neon(state, tmp, tmp, 20);
		memcpy(dst, tmp, len);
	}
	state[12]++;
}

static u8 src[8192], dst[8192];

noinline void insns_mark(void)
{
	__asm__ volatile("" : : : "memory");
}

int main(int argc, char **argv)
{
	u32 state[16];
	unsigned int len;
	int impl;

	if (argc != 3)
		return 2;
	if (!strcmp(argv[1], "kchacha-neon"))
		impl = 0;
	else if (!strcmp(argv[1], "kchacha-c"))
		impl = 1;
	else if (!strcmp(argv[1], "linux-neon"))
		impl = 2;
	else
		return 2;
	len = strtoul(argv[2], NULL, 0);
	if (len > sizeof(src))
		return 2;
	for (int i = 0; i < 16; i++)
		state[i] = 0x01010101u * i;
	memset(src, 0x5a, sizeof(src));
	insns_mark();
	if (len && impl == 0)
		kchacha_neon_xor(state, dst, src, len, 20);
	else if (len && impl == 1)
		kchacha_generic_xor(state, dst, src, len, 20);
	else if (len)
		linux_neon(state, dst, src, len);
	insns_mark();
	/* the output, so that nothing is optimised away; also a check */
	printf("%02x%02x\n", dst[0], dst[len ? len - 1 : 0]);
	return 0;
}
