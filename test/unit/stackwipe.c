// SPDX-License-Identifier: GPL-2.0-only
/*
 * test/unit/stackwipe: what each SIMD implementation of kchacha_impls[]
 * the CPU supports (SSSE3, AVX2, AVX-512 on x86_64; NEON on arm and arm64)
 * leaves on the stack.  Run by test/unit/run, and under qemu-arm-static by
 * test/armhf/check.
 *
 * The stack below main()'s frame is painted with 0xa5, the implementation
 * called from a function of its own, and the same stack then read back
 * (built with -O0, so that the three frames lie over one another).  No
 * 32-bit word there may equal a word of the keystream written (the source
 * is all zeroes), a word of the permuted state before the input was added
 * to it (keystream minus state; what a spilled row holds), or a key word
 * of the state (what a broadcast of the state holds), which would give the
 * key away.  Every length 1..600, then every 37th up to 2100.  An
 * implementation the CPU lacks is named in a SKIP line and counted.
 */
#include <stdio.h>
#include <string.h>

#include "test/shim/linux/compiler.h"
#include "test/shim/linux/types.h"
#include "test/shim/simdcheck.h"
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

static noinline void call(const struct kchacha_impl *impl, const u32 *state,
			  unsigned int len)
{
	kchacha_shim_simd_enter();
	impl->xor(state, dst, src, len, 20);
	kchacha_shim_simd_leave();
}

/* words of the stack below that give away the key or the keystream */
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
		for (w = 4; w < 12; w++)
			if (v == state[w])
				found++;
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
	int i, n, bad = 0, runs = 0, tested = 0, skipped = 0;
	unsigned int k, len;
	u32 state[16];

	for (i = 0; i < 16; i++)
		state[i] = 0x01030507u * i + 0x9e3779b9u;
	for (k = 0; k < kchacha_nimpls; k++) {
		const struct kchacha_impl *impl = &kchacha_impls[k];
		int impl_bad = 0, impl_runs = 0;

		if (!impl->simd)
			continue;
		if (impl->cpu_ok && !impl->cpu_ok()) {
			printf("SKIP %s: this CPU lacks the instructions it needs\n",
			       impl->name);
			skipped++;
			continue;
		}
		for (len = 1; len <= 2100; len += len < 600 ? 1 : 37) {
			paint();
			call(impl, state, len);
			n = scan(state, len);
			impl_runs++;
			if (n) {
				if (impl_bad < 10)
					printf("stackwipe: %s: %u bytes: %d words left\n",
					       impl->name, len, n);
				impl_bad++;
			}
		}
		printf("%s %s: %d lengths, %d with material left on the stack\n",
		       impl_bad ? "FAIL" : "ok  ", impl->name, impl_runs,
		       impl_bad);
		runs += impl_runs;
		bad += impl_bad;
		tested++;
	}
	printf("stackwipe: %d implementations, %d lengths, %d with material left, %d skipped\n",
	       tested, runs, bad, skipped);
	return bad != 0 || !tested;
}
