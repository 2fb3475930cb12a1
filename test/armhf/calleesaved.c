// SPDX-License-Identifier: GPL-2.0-only
/*
 * test/armhf/calleesaved: d8-d15, callee-saved in the hard-float AAPCS
 * (32-bit ARM) and in AAPCS64 (their low halves) that the user-space tests
 * are built with, survive kchacha_neon_xor() and kchacha_neon_hchacha():
 * run under qemu-arm-static by test/armhf/check (chacha-neon-arm.S) and
 * under qemu-aarch64-static by test/arm64/check (chacha-neon-core.S).
 * Built with -O0: the compiler keeps nothing of its own in d8-d15 here.
 */
#include <stdio.h>
#include <string.h>

#include "test/shim/linux/compiler.h"
#include "test/shim/linux/types.h"
#include "kchacha.h"

static u8 buf[1100];
static u32 state[16], out[8];
static u32 before[16], after[16];

#ifdef __aarch64__
#define LOAD()	__asm__ volatile("ldp d8, d9, [%0]\n\tldp d10, d11, [%0, #16]\n\t" \
				 "ldp d12, d13, [%0, #32]\n\tldp d14, d15, [%0, #48]" \
				 : : "r"(before) : "memory")
#define STORE()	__asm__ volatile("stp d8, d9, [%0]\n\tstp d10, d11, [%0, #16]\n\t" \
				 "stp d12, d13, [%0, #32]\n\tstp d14, d15, [%0, #48]" \
				 : : "r"(after) : "memory")
#else
#define LOAD()	__asm__ volatile("vldmia %0, {d8-d15}" : : "r"(before) : "memory")
#define STORE()	__asm__ volatile("vstmia %0, {d8-d15}" : : "r"(after) : "memory")
#endif

int main(void)
{
	unsigned int len, bad = 0, i;

	for (i = 0; i < 16; i++) {
		before[i] = 0x9e3779b9 * (i + 1);
		state[i] = i * 0x01010101;
	}
	for (len = 0; len <= 1024; len += 61) {
		memset(after, 0, sizeof(after));
		LOAD();
		kchacha_neon_xor(state, buf, buf, len, 20);
		STORE();
		bad += memcmp(before, after, sizeof(after)) != 0;
	}
	memset(after, 0, sizeof(after));
	LOAD();
	kchacha_neon_hchacha(state, out, 20);
	STORE();
	bad += memcmp(before, after, sizeof(after)) != 0;
	printf("calleesaved: d8-d15 changed by %u of 18 calls\n", bad);
	return bad ? 1 : 0;
}
