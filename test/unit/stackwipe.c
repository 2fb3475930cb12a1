// SPDX-License-Identifier: GPL-2.0-only
/*
 * test/unit/stackwipe: what every function outside rng.c that holds a key,
 * a subkey or keystream leaves of it on the stack, for every
 * implementation of kchacha_impls[] the CPU supports (the C core; SSSE3,
 * AVX2, AVX-512 on x86_64; NEON on arm and arm64).  Run by test/unit/run,
 * under qemu-aarch64-static by test/arm64/check and under qemu-arm-static
 * by test/armhf/check.
 *
 * Each function is called on a painted stack and the stack it used read
 * right after it returns (test/unit/wipe.h); no 32-bit word there may be
 * a word of the secret.  Test points, one per function, from the bottom
 * up, so that a later call cannot overwrite what an earlier one left:
 *
 *   impl->xor (each .S core, and kchacha_generic_xor())
 *	the key words, the keystream (written over zeroes), the permuted
 *	state before the feed-forward (keystream minus state: what a
 *	spilled row holds); every length 1..600, then every 37th to 4200;
 *	the zmm driver's twice, with kchacha_avx512_xor() and
 *	kchacha_avx512_z32_xor() behind it
 *   impl->hchacha (each .S HChaCha, and kchacha_generic_hchacha())
 *   kchacha_hchacha()
 *	the key words and every word of the permuted state, the subkey
 *	(words 0..3 and 12..15) included; 20 and 12 rounds
 *   kchacha_xchacha_init()
 *	the same of its HChaCha, for a stream of simd_min bytes (the
 *	implementation's own HChaCha): its subkey is what it must wipe
 *   kchacha_init_state()
 *	the key words
 *   kchacha_simd_xor(), kchacha_crypt()
 *	as impl->xor, over lengths that take the C core, one SIMD section
 *	and several (4 KiB each)
 *
 * The caller's own buffers (state, out) lie above the painted stack and
 * are not looked at.  An implementation the CPU lacks is named in a SKIP
 * line and counted.
 */
#include <stdio.h>
#include <string.h>

#include "test/shim/linux/compiler.h"
#include "test/shim/linux/types.h"
#include "kchacha.h"
#include "test/unit/wipe.h"
#include "test/unit/entries.h"

static u8 src[3 * 4096 + 128], dst[3 * 4096 + 128];
static struct wipe_secret secret;
static unsigned int points, bad;

static void result(unsigned int *impl_bad, const char *impl, const char *fn,
		   unsigned int len)
{
	char what[96];
	unsigned int n;

	snprintf(what, sizeof(what), "%s: %s, %u bytes", impl, fn, len);
	n = wipe_find(&secret, *impl_bad < 10 ? what : NULL);
	points++;
	if (n) {
		if (*impl_bad < 10)
			printf("stackwipe: %s: %u words of the secret left\n",
			       what, n);
		(*impl_bad)++;
		bad++;
	}
}

/* the test points: each calls one function between paint and snapshot */
static WIPE_NOINLINE void point_xor(kchacha_xor_fn xor, const u32 *state,
				    unsigned int len, int nrounds)
{
	/* the entry itself, not a test wrapper's frame above it */
	xor = (kchacha_xor_fn)unit_real_entry(xor);
	wipe_paint();
	xor(state, dst, src, len, nrounds);
	wipe_snapshot();
}

static WIPE_NOINLINE void point_hchacha(kchacha_hchacha_fn hchacha,
					const u32 *state, u32 *out, int nrounds)
{
	hchacha = (kchacha_hchacha_fn)unit_real_entry(hchacha);
	wipe_paint();
	hchacha(state, out, nrounds);
	wipe_snapshot();
}

static WIPE_NOINLINE void point_kchacha_hchacha(const struct kchacha_impl *impl,
						const u32 *state, u32 *out,
						int nrounds)
{
	wipe_paint();
	kchacha_hchacha(impl, state, out, nrounds);
	wipe_snapshot();
}

static WIPE_NOINLINE void point_xchacha_init(const struct kchacha_impl *impl,
					     u32 *state, const u32 *key,
					     const u8 *iv, int nrounds)
{
	wipe_paint();
	kchacha_xchacha_init(impl, state, key, iv, impl->simd_min, nrounds);
	wipe_snapshot();
}

static WIPE_NOINLINE void point_init_state(u32 *state, const u32 *key,
					   const u8 *iv)
{
	wipe_paint();
	kchacha_init_state(state, key, iv);
	wipe_snapshot();
}

static WIPE_NOINLINE void point_simd_xor(const struct kchacha_impl *impl,
					 u32 *state, unsigned int len)
{
	wipe_paint();
	kchacha_simd_xor(impl, state, dst, src, len, 20);
	wipe_snapshot();
}

static WIPE_NOINLINE void point_crypt(const struct kchacha_impl *impl,
				      u32 *state, unsigned int len)
{
	wipe_paint();
	kchacha_crypt(impl, state, dst, src, len, 20);
	wipe_snapshot();
}

static void make_state(u32 *state, u32 seed)
{
	int i;

	for (i = 0; i < 16; i++) {
		seed = seed * 0x01030507u + 0x9e3779b9u;
		state[i] = seed;
	}
	state[12] = 0xfffffff0u;
}

/* the key words and the permuted state of an HChaCha of @state */
static void hchacha_secret(const u32 *state, int nrounds)
{
	u32 x[16], out[8];
	int i;

	/* every word of the permuted state: out is words 0..3, 12..15 */
	memcpy(x, state, sizeof(x));
	for (i = 0; i < nrounds; i += 2) {
		static const u8 qr[8][4] = {
			{ 0, 4, 8, 12 }, { 1, 5, 9, 13 }, { 2, 6, 10, 14 },
			{ 3, 7, 11, 15 }, { 0, 5, 10, 15 }, { 1, 6, 11, 12 },
			{ 2, 7, 8, 13 }, { 3, 4, 9, 14 },
		};
		int q;

		for (q = 0; q < 8; q++) {
			u32 *a = &x[qr[q][0]], *b = &x[qr[q][1]];
			u32 *c = &x[qr[q][2]], *d = &x[qr[q][3]];

			*a += *b; *d ^= *a; *d = *d << 16 | *d >> 16;
			*c += *d; *b ^= *c; *b = *b << 12 | *b >> 20;
			*a += *b; *d ^= *a; *d = *d << 8 | *d >> 24;
			*c += *d; *b ^= *c; *b = *b << 7 | *b >> 25;
		}
	}
	kchacha_generic_hchacha(state, out, nrounds);
	if (memcmp(out, x, 16) || memcmp(out + 4, x + 12, 16)) {
		printf("FAIL stackwipe: the test's HChaCha disagrees with the C core\n");
		bad++;
	}
	wipe_secret_init(&secret);
	wipe_secret_add(&secret, state + 4, 8);
	wipe_secret_add(&secret, x, 16);
}

/* the keystream of @len bytes from @state, and what gives it away */
static void chacha_secret(const u32 *state, unsigned int len)
{
	static u8 ks[sizeof(dst)];
	static const u8 zero[sizeof(dst)];

	kchacha_generic_xor(state, ks, zero, len, 20);
	wipe_secret_init(&secret);
	wipe_secret_chacha(&secret, state, ks, len);
}

static void test_xor(const struct kchacha_impl *impl, unsigned int *impl_bad)
{
	kchacha_xor_fn xor = impl->simd ? impl->xor : kchacha_generic_xor;
	u32 state[16];
	unsigned int len;

	make_state(state, 1);
	memset(src, 0, sizeof(src));
	for (len = 1; len <= 4200; len += len < 600 ? 1 : 37) {
		chacha_secret(state, len);
		point_xor(xor, state, len, 20);
		result(impl_bad, impl->name, impl->simd ? "xor" :
		       "kchacha_generic_xor", len);
	}
}

static void test_hchacha(const struct kchacha_impl *impl,
			 unsigned int *impl_bad)
{
	static const int rounds[] = { 20, 12 };
	u32 state[16], st[16], key[8], out[8];
	u8 iv[32];
	unsigned int r, i;

	for (r = 0; r < 2; r++) {
		/* an XChaCha input: the constants, a key, a 16-byte nonce */
		make_state(st, 7 + r);
		memcpy(key, st + 4, sizeof(key));
		for (i = 0; i < 8; i++)
			memcpy(iv + 4 * i, &st[8 + i], 4);
		kchacha_init_state(state, key, iv);

		hchacha_secret(state, rounds[r]);
		point_hchacha(impl->hchacha ? impl->hchacha :
			      kchacha_generic_hchacha, state, out, rounds[r]);
		result(impl_bad, impl->name, impl->hchacha ? "hchacha" :
		       "kchacha_generic_hchacha", 32);

		point_kchacha_hchacha(impl, state, out, rounds[r]);
		result(impl_bad, impl->name, "kchacha_hchacha", 32);

		/* the same HChaCha, through kchacha_xchacha_init() */
		point_xchacha_init(impl, st, key, iv, rounds[r]);
		result(impl_bad, impl->name, "kchacha_xchacha_init", 32);
		if (memcmp(st + 4, out, 32)) {
			printf("FAIL stackwipe: %s: kchacha_xchacha_init()'s key is not its HChaCha\n",
			       impl->name);
			bad++;
		}

		wipe_secret_init(&secret);
		wipe_secret_add(&secret, key, 8);
		point_init_state(st, key, iv);
		result(impl_bad, impl->name, "kchacha_init_state", 16);
	}
}

static void test_dispatch(const struct kchacha_impl *impl,
			  unsigned int *impl_bad)
{
	static const unsigned int lens[] = {
		1, 63, 64, 65, 127, 128, 129, 200, 511, 1000, 4096, 3 * 4096 + 100,
	};
	u32 state[16], st[16];
	unsigned int i;

	make_state(state, 3);
	memset(src, 0, sizeof(src));
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		chacha_secret(state, lens[i]);
		if (impl->simd) {
			memcpy(st, state, sizeof(st));
			point_simd_xor(impl, st, lens[i]);
			result(impl_bad, impl->name, "kchacha_simd_xor", lens[i]);
		}
		memcpy(st, state, sizeof(st));
		point_crypt(impl, st, lens[i]);
		result(impl_bad, impl->name, "kchacha_crypt", lens[i]);
	}
}

int main(void)
{
	int tested = 0, skipped = 0;
	unsigned int k;

	for (k = 0; k < kchacha_nimpls; k++) {
		const struct kchacha_impl *impl = &kchacha_impls[k];
		unsigned int impl_bad = 0, before = points;

		if (impl->cpu_ok && !impl->cpu_ok()) {
			printf("SKIP %s: this CPU lacks the instructions it needs\n",
			       impl->name);
			skipped++;
			continue;
		}
#if defined(__x86_64__)
		/* the zmm driver with each entry for requests over 1 KiB */
		if (impl->xor == kchacha_avx512_entry) {
			kchacha_avx512_z32 = 0;
			test_xor(impl, &impl_bad);
			kchacha_avx512_z32 = 1;
		}
#endif
		test_xor(impl, &impl_bad);
		test_hchacha(impl, &impl_bad);
		test_dispatch(impl, &impl_bad);
		printf("%s %s: %u test points, %u with a secret left on the stack\n",
		       impl_bad ? "FAIL" : "ok  ", impl->name, points - before,
		       impl_bad);
		tested++;
	}
	printf("stackwipe: %d implementations, %u test points, %u with a secret left, %d skipped\n",
	       tested, points, bad, skipped);
	return bad != 0 || !tested;
}
