// SPDX-License-Identifier: GPL-2.0-only
/*
 * The implementation table and the one place that enters SIMD.
 *
 * Every driver kchacha registers is built from an entry of kchacha_impls[],
 * lowest level first.  Adding an ISA is one entry here plus its .S file.
 * This file also builds into the user-space tests, where test/shim stands in
 * for the kernel headers below.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <crypto/internal/simd.h>
#include <asm/simd.h>
#if defined(CONFIG_X86)
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#elif defined(CONFIG_ARM64) || defined(CONFIG_ARM)
#include <asm/cpufeature.h>
#include <asm/neon.h>
#endif

#include "kchacha.h"

#if defined(CONFIG_X86)
#define kchacha_simd_begin()	kernel_fpu_begin()
#define kchacha_simd_end()	kernel_fpu_end()
#elif defined(CONFIG_ARM64) || defined(CONFIG_ARM)
#define kchacha_simd_begin()	kernel_neon_begin()
#define kchacha_simd_end()	kernel_neon_end()
#else
#define kchacha_simd_begin()	do { } while (0)
#define kchacha_simd_end()	do { } while (0)
#endif

#define GENERIC_IMPL {					\
	.name = "generic",				\
	.priority = 110,				\
	.walksize = KCHACHA_BLOCK_SIZE,			\
	.batch = 1,					\
	.xor = kchacha_generic_xor,			\
}

#ifdef CONFIG_X86_64
/*
 * simd_min of the x86 entries: one block goes to the C core.  A single
 * block in a vector register is bound by the latency of its serial
 * quarter rounds and gains only some 10-30 ns on the C core (user space,
 * EPYC Zen 3), far under the kernel's save and restore of the user FPU
 * state around the first SIMD section of an entry (about 230 ns for an
 * XSAVEC/XRSTOR pair here).  Two blocks take the SIMD code little more
 * time than one, so from 65 bytes on it wins where the FPU state is
 * already saved; where its first section pays for the save, the C core
 * stays some 50 ns ahead at two blocks and falls behind from three.  The
 * in-tree x86 glue draws the same line.
 */
#define KCHACHA_X86_SIMD_MIN	(KCHACHA_BLOCK_SIZE + 1)

static bool kchacha_ssse3_ok(void)
{
	return boot_cpu_has(X86_FEATURE_SSSE3);
}

static bool kchacha_avx2_ok(void)
{
	return boot_cpu_has(X86_FEATURE_AVX) &&
	       boot_cpu_has(X86_FEATURE_AVX2) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL);
}

/*
 * The AVX-512 entry takes its HChaCha from the AVX2 code; its partial
 * blocks go through byte opmasks (AVX512BW).
 */
static bool kchacha_avx512_ok(void)
{
	return kchacha_avx2_ok() &&
	       boot_cpu_has(X86_FEATURE_AVX512F) &&
	       boot_cpu_has(X86_FEATURE_AVX512VL) &&
	       boot_cpu_has(X86_FEATURE_AVX512BW) &&
	       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM |
				 XFEATURE_MASK_AVX512, NULL);
}
#endif

#if defined(CONFIG_ARM64) && defined(CONFIG_CPU_LITTLE_ENDIAN)
static bool kchacha_neon_ok(void)
{
	return cpu_have_named_feature(ASIMD);
}
#endif

#if defined(CONFIG_ARM) && defined(CONFIG_KERNEL_MODE_NEON) && \
	defined(CONFIG_CPU_LITTLE_ENDIAN)
#define KCHACHA_ARM_NEON 1
/* See README.md, "32-bit ARM": no rule against any NEON core. */
static bool kchacha_neon_ok(void)
{
	return cpu_has_neon();
}
#endif

const struct kchacha_impl kchacha_impls[] = {
	GENERIC_IMPL,
#ifdef CONFIG_X86_64
	{
		.name = "ssse3",
		.priority = 310,
		.walksize = 4 * KCHACHA_BLOCK_SIZE,
		.simd_min = KCHACHA_X86_SIMD_MIN,
		.batch = 4,
		.cpu_ok = kchacha_ssse3_ok,
		.xor = kchacha_ssse3_xor,
		.hchacha = kchacha_ssse3_hchacha,
		.simd = true,
	},
	{
		.name = "avx2",
		.priority = 320,
		.walksize = 8 * KCHACHA_BLOCK_SIZE,
		.simd_min = KCHACHA_X86_SIMD_MIN,
		.batch = 8,
		.cpu_ok = kchacha_avx2_ok,
		.xor = kchacha_avx2_xor,
		.hchacha = kchacha_avx2_hchacha,
		.simd = true,
	},
	{
		.name = "avx512",
		.priority = 330,
		.walksize = 8 * KCHACHA_BLOCK_SIZE,
		.simd_min = KCHACHA_X86_SIMD_MIN,
		.batch = 16,
		.cpu_ok = kchacha_avx512_ok,
		.xor = kchacha_avx512_xor,
		.hchacha = kchacha_avx2_hchacha,
		.simd = true,
	},
#endif
#if defined(CONFIG_ARM64) && defined(CONFIG_CPU_LITTLE_ENDIAN)
	{
		/* four NEON blocks and one scalar block per pass */
		.name = "neon",
		.priority = 310,
		.walksize = 5 * KCHACHA_BLOCK_SIZE,
		.simd_min = KCHACHA_BLOCK_SIZE + 1,
		.batch = 5,
		.cpu_ok = kchacha_neon_ok,
		.xor = kchacha_neon_xor,
		.hchacha = kchacha_neon_hchacha,
		.simd = true,
	},
#endif
#ifdef KCHACHA_ARM_NEON
	{
		/* four NEON blocks per pass */
		.name = "neon",
		.priority = 310,
		.walksize = 4 * KCHACHA_BLOCK_SIZE,
		.simd_min = KCHACHA_BLOCK_SIZE + 1,
		.batch = 4,
		.cpu_ok = kchacha_neon_ok,
		.xor = kchacha_neon_xor,
		.hchacha = kchacha_neon_hchacha,
		.simd = true,
	},
#endif
};

const unsigned int kchacha_nimpls = ARRAY_SIZE(kchacha_impls);

/**
 * kchacha_simd_xor() - run a SIMD implementation in bounded sections
 * @impl: a SIMD implementation; the caller has checked crypto_simd_usable()
 * @state: the ChaCha state; its counter advances past the blocks used
 * @dst: output; may be @src
 * @src: input
 * @len: bytes
 * @nrounds: 20, 12 or 8
 */
void kchacha_simd_xor(const struct kchacha_impl *impl, u32 *state, u8 *dst,
		      const u8 *src, unsigned int len, int nrounds)
{
	while (len) {
		unsigned int n = min_t(unsigned int, len, KCHACHA_SIMD_CHUNK);

		kchacha_simd_begin();
		impl->xor(state, dst, src, n, nrounds);
		kchacha_simd_end();
		state[12] += DIV_ROUND_UP(n, KCHACHA_BLOCK_SIZE);
		dst += n;
		src += n;
		len -= n;
	}
}

/**
 * kchacha_crypt() - XOR the keystream of @impl into a buffer
 * @impl: the implementation
 * @state: the ChaCha state; its counter (word 12) advances past the blocks
 *	used, so a walk can call this step by step
 * @dst: output; may be @src
 * @src: input
 * @len: bytes; only the last call of a stream may end in a partial block
 * @nrounds: 20, 12 or 8
 *
 * SIMD runs in sections of at most KCHACHA_SIMD_CHUNK bytes; where SIMD
 * cannot be used, or @len is below the implementation's break-even length,
 * the C core serves the request.
 */
void kchacha_crypt(const struct kchacha_impl *impl, u32 *state, u8 *dst,
		   const u8 *src, unsigned int len, int nrounds)
{
	if (impl->simd && len >= impl->simd_min && crypto_simd_usable()) {
		kchacha_simd_xor(impl, state, dst, src, len, nrounds);
		return;
	}
	(impl->simd ? kchacha_generic_xor : impl->xor)(state, dst, src, len,
						       nrounds);
	state[12] += DIV_ROUND_UP(len, KCHACHA_BLOCK_SIZE);
}

/**
 * kchacha_hchacha() - HChaCha with @impl, or the C core where faster
 * @impl: the implementation
 * @state: the initial state (constants, key, 16-byte nonce)
 * @out: eight words out
 * @nrounds: 20 or 12
 */
void kchacha_hchacha(const struct kchacha_impl *impl, const u32 *state,
		     u32 *out, int nrounds)
{
	if (impl->simd && impl->hchacha && crypto_simd_usable()) {
		kchacha_simd_begin();
		impl->hchacha(state, out, nrounds);
		kchacha_simd_end();
		return;
	}
	kchacha_generic_hchacha(state, out, nrounds);
}

/**
 * kchacha_xchacha_init() - the ChaCha state of an XChaCha stream
 * @impl: the implementation whose HChaCha to use
 * @state: 16 words out
 * @key: the eight key words
 * @iv: 32 bytes: the 192-bit nonce, then the 64-bit stream position, whose
 *	low 32 bits become the block counter, as the in-tree xchacha does
 * @nrounds: 20 or 12
 */
void kchacha_xchacha_init(const struct kchacha_impl *impl, u32 *state,
			  const u32 *key, const u8 *iv, int nrounds)
{
	u32 subkey[8];
	u8 real_iv[16];

	kchacha_init_state(state, key, iv);
	kchacha_hchacha(impl, state, subkey, nrounds);
	memcpy(&real_iv[0], iv + 24, 8);
	memcpy(&real_iv[8], iv + 16, 8);
	kchacha_init_state(state, subkey, real_iv);
	memzero_explicit(subkey, sizeof(subkey));
}
