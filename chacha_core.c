// SPDX-License-Identifier: GPL-2.0-only
/*
 * The implementation table and the one place that enters SIMD.
 *
 * Every driver kchacha registers is built from an entry of kchacha_impls[],
 * lowest level first.  Adding an ISA is one entry here plus its .S file.
 * This file also builds into the user-space tests, where test/shim stands in
 * for the kernel headers below.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/string.h>
#ifndef KCHACHA_USERSPACE
#include <linux/build_bug.h>
#include <linux/crypto.h>
#endif
#include <crypto/internal/simd.h>
#include <asm/simd.h>
#if defined(CONFIG_X86) || defined(CONFIG_ARM64) || defined(CONFIG_ARM)
#include <asm/cpufeature.h>
#endif
#if defined(CONFIG_X86)
#include <asm/processor.h>
#elif defined(CONFIG_ARM)
#include <asm/cputype.h>
#endif

#include "kchacha_compat.h"
#include "kchacha.h"

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
 * Both AVX-512 entries, the zmm one and the ymm-only one, take their
 * HChaCha from the AVX2 code; their partial blocks go through byte opmasks
 * (AVX512BW, the opmask state).  The ymm code needs the same OS state as
 * the zmm code: it uses ymm16-31 (the Hi16_ZMM state), and its EVEX writes
 * clear the upper halves of zmm0-15 (ZMM_Hi256); the architecture enables
 * those two and the opmask state only together (XCR0 bits 5-7).
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

int kchacha_avx512_nine_ymm = -1;
int kchacha_avx512_z32 = -1;

/**
 * kchacha_avx512_entry() - the zmm driver's xor: the assembly entry by
 * length and CPU
 * @state: as kchacha_xor_fn
 * @dst: output
 * @src: input
 * @len: bytes
 * @nrounds: 20, 12 or 8
 *
 * kchacha_avx512_xor() hands up to eight blocks to the ymm code itself.
 * Nine (513 to 576 bytes) go to the ymm code too where the table's other
 * order applies (kchacha_cpu_slow()): on AMD Zen 4, which splits each
 * 512-bit operation in two, the ymm code's nine-block form is a fifth
 * faster than the zmm code's three chains of four; where 512-bit units
 * are whole, the chains are as fast (Intel Emerald Rapids) or a tenth
 * faster (AMD Zen 5).  From 1025 bytes on, kchacha_avx512_z32_xor() takes
 * the request where vector operations take two cycles
 * (kchacha_cpu_two_cycle()): its last pass of 1025 to 2047 bytes runs
 * thirty-two blocks, which costs less there than sixteen and a form for
 * the rest (1420 bytes: 1.5 times as fast on AMD Zen 5), and more where
 * the vector units are already full.  kchacha_avx512_nine_ymm and
 * kchacha_avx512_z32 cache the answers (-1 until the first such request;
 * tests set them).  Not static: the tests that call assembly entries bare
 * find the entry behind it (test/unit/entries.h).
 */
void kchacha_avx512_entry(const u32 *state, u8 *dst, const u8 *src,
			  unsigned int len, int nrounds)
{
	int ymm, z32;

	if (len <= 9 * KCHACHA_BLOCK_SIZE) {
		ymm = READ_ONCE(kchacha_avx512_nine_ymm);
		if (unlikely(ymm < 0)) {
			ymm = kchacha_cpu_slow();
			WRITE_ONCE(kchacha_avx512_nine_ymm, ymm);
		}
		if (ymm) {
			kchacha_avx512vl_xor(state, dst, src, len, nrounds);
			return;
		}
	} else if (len > 16 * KCHACHA_BLOCK_SIZE) {
		z32 = READ_ONCE(kchacha_avx512_z32);
		if (unlikely(z32 < 0)) {
			z32 = kchacha_cpu_two_cycle();
			WRITE_ONCE(kchacha_avx512_z32, z32);
		}
		if (z32) {
			kchacha_avx512_z32_xor(state, dst, src, len, nrounds);
			return;
		}
	}
	kchacha_avx512_xor(state, dst, src, len, nrounds);
}
#endif

/*
 * NEON: arm64 little-endian (four NEON blocks and one scalar block a pass),
 * and 32-bit ARM with kernel-mode NEON (four NEON blocks a pass; ranked
 * below the kernel's scalar code on Cortex-A7 and A5, as the kernel's own
 * NEON is: kchacha_arm_neon_slow()).
 */
#if defined(CONFIG_ARM64) && defined(CONFIG_CPU_LITTLE_ENDIAN)
#define KCHACHA_NEON_BATCH	5
#define KCHACHA_NEON_SLOW_PRIORITY	0
static bool kchacha_neon_ok(void)
{
	return cpu_have_named_feature(ASIMD);
}
#elif defined(CONFIG_ARM) && defined(CONFIG_KERNEL_MODE_NEON) && \
	defined(CONFIG_CPU_LITTLE_ENDIAN)
#define KCHACHA_NEON_BATCH	4
/*
 * On Cortex-A7 and A5 (kchacha_arm_neon_slow()), below the kernel's scalar
 * ARM ChaCha (chacha20-arm, 200; the scalar path of chacha20-lib, 300, on
 * 7.x), which is faster there, and above kchacha's C core, which is not.
 */
#define KCHACHA_NEON_SLOW_PRIORITY	120
static bool kchacha_neon_ok(void)
{
	return cpu_has_neon();
}
#endif

/*
 * walksize: the skcipher walk hands the driver what is contiguous up to
 * the next page end, but never fewer than min(walksize, bytes left): where
 * fewer are left before a page end, it bounces walksize bytes through a
 * buffer it allocates (once per request, GFP_ATOMIC when the request may
 * not sleep).  Counted and timed on a model of the walk (test/bench/walk.c:
 * 1420-byte packets across two pages in place and out of place, in three
 * fragments, 16 KiB from random page offsets, 64 KiB of whole pages):
 * - any crossing not on a 64-byte boundary takes one slow step and one
 *   allocation per request whatever the walksize, 64 included; a larger
 *   walksize only bounces more bytes, which costs less than what walksize
 *   64 costs: more steps, and 64-byte slow steps that go to the C core
 *   (below simd_min).  With 512 instead of 64, avx2 and avx512 took 0.57
 *   to 0.83 times the CPU time per packet and 0.91 to 0.93 on 16 KiB;
 *   ssse3 0.82 to 0.92 with 256 (AMD EPYC, user space); the C core
 *   gained nothing (0.92 to 1.01) and keeps one block;
 * - a walksize that does not divide the page (5 blocks, 320) turns every
 *   page-aligned crossing into a slow step: 12 per 64 KiB of whole pages.
 * So each walksize is the widest batch rounded down to a power of two, at
 * most PAGE_SIZE / 8 (the crypto API's limit): 64, 256, 512, 512, 512
 * and 256.
 */
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
	/*
	 * The ranking rule of the two AVX-512 entries, the one place it is
	 * made: where zmm code is preferred, avx512 (zmm) is the default and
	 * avx512vl (the same instructions on ymm registers only) ranks
	 * between avx2 and it.  Where it is not (kchacha_x86_ymm_first(): Intel
	 * CPUs whose core clock drops for some milliseconds after 512-bit
	 * instructions, slowing whatever runs next, and AMD Zen 4, which runs
	 * each 512-bit operation as two 256-bit halves; the prefer_ymm
	 * parameter overrides), avx512vl is the default and avx512 ranks
	 * between ssse3 and avx2, used only when asked for by name.  max_isa
	 * takes them in table order: avx512vl caps at ymm registers.
	 */
	{
		.name = "avx512vl",
		.priority = 325,
		.slow_priority = 330,
		.walksize = 8 * KCHACHA_BLOCK_SIZE,
		.simd_min = KCHACHA_X86_SIMD_MIN,
		.batch = 16,
		.cpu_ok = kchacha_avx512_ok,
		.xor = kchacha_avx512vl_xor,
		.hchacha = kchacha_avx2_hchacha,
		.simd = true,
	},
	{
		.name = "avx512",
		.priority = 330,
		.slow_priority = 315,
		.walksize = 8 * KCHACHA_BLOCK_SIZE,
		.simd_min = KCHACHA_X86_SIMD_MIN,
		.batch = 16,
		.cpu_ok = kchacha_avx512_ok,
		.xor = kchacha_avx512_entry,
		.hchacha = kchacha_avx2_hchacha,
		.simd = true,
	},
#endif
#ifdef KCHACHA_NEON_BATCH
	{
		.name = "neon",
		.priority = 310,
		.slow_priority = KCHACHA_NEON_SLOW_PRIORITY,
		.walksize = 4 * KCHACHA_BLOCK_SIZE,
		.simd_min = KCHACHA_BLOCK_SIZE + 1,
		.batch = KCHACHA_NEON_BATCH,
		.cpu_ok = kchacha_neon_ok,
		.xor = kchacha_neon_xor,
		.hchacha = kchacha_neon_hchacha,
		.simd = true,
	},
#endif
};

const unsigned int kchacha_nimpls = ARRAY_SIZE(kchacha_impls);

/**
 * kchacha_impl_priority() - the cra_priority of @impl's skciphers
 * @impl: the implementation
 * @slow: whether the ranking rule's other order applies (kchacha_cpu_slow(),
 *	or a parameter that overrides it)
 *
 * Return: @impl->slow_priority where @slow and it has one, else
 * @impl->priority.
 */
int kchacha_impl_priority(const struct kchacha_impl *impl, bool slow)
{
	if (slow && impl->slow_priority)
		return impl->slow_priority;
	return impl->priority;
}

/**
 * kchacha_x86_ymm_first() - the x86 ranking rule: ymm code first?
 * @zmm_lowers_clock: the kernel says 512-bit instructions lower the core
 *	clock (kchacha_zmm_lowers_clock())
 * @amd: an AMD CPU
 * @family: its family (boot_cpu_data.x86)
 *
 * AMD's family 0x19 with AVX-512 is Zen 4, which splits every 512-bit
 * operation into two 256-bit halves: there the zmm code gains nothing on
 * the ymm code from 1420 bytes on and loses a fifth at 576 (make bench,
 * EPYC family 25 model 17), where its 16-block pass does 9 blocks' work.
 * Zen 3, the rest of the family, has no AVX-512 to rank.  Family 0x1a
 * (Zen 5) is left out: its server and desktop parts run 512-bit operations
 * at full width, where zmm code is much the faster.
 *
 * Return: true where the avx512vl (ymm) drivers should rank first.
 */
bool kchacha_x86_ymm_first(bool zmm_lowers_clock, bool amd,
			   unsigned int family)
{
	return zmm_lowers_clock || (amd && family == 0x19);
}

/**
 * kchacha_x86_two_cycle() - do the vector units take two cycles an operation?
 * @amd: an AMD CPU
 * @family: its family (boot_cpu_data.x86)
 *
 * On AMD's family 0x1a (Zen 5) every vector addition, XOR, rotate and
 * shuffle takes two cycles, on xmm, ymm and zmm alike (timed in chains of
 * a hundred, EPYC family 26 model 2), where the units accept three a
 * cycle: a sixteen-block pass, four chains of dependent steps, leaves them
 * half idle, and two sets of sixteen blocks cost little more than one.
 * Intel's AVX-512 cores and Zen 4 take one cycle, and are kept busy by
 * sixteen blocks.
 *
 * Return: true where kchacha_avx512_z32_xor() should take requests over
 * 1 KiB.
 */
bool kchacha_x86_two_cycle(bool amd, unsigned int family)
{
	return amd && family == 0x1a;
}

/**
 * kchacha_arm_neon_slow() - the 32-bit ARM ranking rule: NEON below scalar?
 * @part: read_cpuid_part(): implementer and part number of the MIDR
 *
 * The kernel's own ARM glue ranks its NEON ChaCha at 0 on Cortex-A7 and
 * A5, whose NEON units are narrow: its scalar code is faster there.
 *
 * Return: true on Cortex-A7 and Cortex-A5.
 */
bool kchacha_arm_neon_slow(u32 part)
{
	return part == KCHACHA_ARM_PART_CORTEX_A7 ||
	       part == KCHACHA_ARM_PART_CORTEX_A5;
}

/**
 * kchacha_cpu_slow() - whether the other order of the table applies here
 *
 * Return: on x86, kchacha_x86_ymm_first() of this CPU; on 32-bit ARM,
 * kchacha_arm_neon_slow() of this CPU; false elsewhere.
 */
bool kchacha_cpu_slow(void)
{
#if defined(CONFIG_X86_64)
	return kchacha_x86_ymm_first(kchacha_zmm_lowers_clock(),
				     boot_cpu_data.x86_vendor == X86_VENDOR_AMD,
				     boot_cpu_data.x86);
#elif defined(CONFIG_ARM) && defined(KCHACHA_NEON_BATCH)
	return kchacha_arm_neon_slow(read_cpuid_part());
#else
	return false;
#endif
}

/**
 * kchacha_cpu_two_cycle() - kchacha_x86_two_cycle() of this CPU
 *
 * Return: on x86, whether this CPU's vector operations take two cycles;
 * false elsewhere.
 */
bool kchacha_cpu_two_cycle(void)
{
#if defined(CONFIG_X86_64)
	return kchacha_x86_two_cycle(boot_cpu_data.x86_vendor == X86_VENDOR_AMD,
				     boot_cpu_data.x86);
#else
	return false;
#endif
}

#ifndef KCHACHA_USERSPACE
/*
 * The limits crypto_register_skcipher() and crypto_register_rng() enforce
 * (crypto/skcipher.c, crypto/rng.c and crypto_check_alg() in
 * crypto/algapi.c, Linux 6.1 to 6.12), checked on every entry of the table
 * when the module is built: an entry that would make registration fail
 * with -EINVAL does not build.  The compiler folds the loads from the
 * const table, so nothing of this is left in the module but a return.
 * What the glue sets alike for every driver (chunksize, ivsize,
 * cra_blocksize, cra_alignmask, the rng's seedsize) is checked there.
 */
static void __used kchacha_impls_check(void)
{
	unsigned int i;

	/* unrolled, so that every load folds to a constant */
#pragma GCC unroll 16
	for (i = 0; i < ARRAY_SIZE(kchacha_impls); i++) {
		const struct kchacha_impl *impl = &kchacha_impls[i];

		BUILD_BUG_ON_MSG(impl->walksize > PAGE_SIZE / 8,
				 "kchacha_impls[]: walksize above PAGE_SIZE / 8: crypto_register_skcipher() would refuse it");
		BUILD_BUG_ON_MSG(impl->walksize < KCHACHA_BLOCK_SIZE ||
				 impl->walksize % KCHACHA_BLOCK_SIZE,
				 "kchacha_impls[]: walksize must be a multiple of the chunksize, KCHACHA_BLOCK_SIZE");
		BUILD_BUG_ON_MSG(impl->walksize & (impl->walksize - 1),
				 "kchacha_impls[]: walksize must be a power of two, or page-aligned buffers take the walk's slow path");
		BUILD_BUG_ON_MSG(impl->priority < 0 ||
				 impl->slow_priority < 0,
				 "kchacha_impls[]: a negative cra_priority: crypto_check_alg() would refuse it");
		BUILD_BUG_ON_MSG(!impl->name[0] ||
				 sizeof("chacha20rng-kchacha-") +
				 strlen(impl->name) > CRYPTO_MAX_ALG_NAME,
				 "kchacha_impls[]: name empty or too long for cra_driver_name");
	}
}
#endif

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
	struct kchacha_simd simd __uninitialized;

	while (len) {
		unsigned int n = min_t(unsigned int, len, KCHACHA_SIMD_CHUNK);

		kchacha_simd_begin(&simd);
		impl->xor(state, dst, src, n, nrounds);
		kchacha_simd_end(&simd);
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
		struct kchacha_simd simd __uninitialized;

		kchacha_simd_begin(&simd);
		impl->hchacha(state, out, nrounds);
		kchacha_simd_end(&simd);
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
 * @len: the bytes of the stream (the request).  Below @impl->simd_min,
 *	where kchacha_crypt() runs them in C, HChaCha runs in C too, so that
 *	a short request opens no SIMD section; from @impl->simd_min on,
 *	kchacha_hchacha() chooses
 * @nrounds: 20 or 12
 */
void kchacha_xchacha_init(const struct kchacha_impl *impl, u32 *state,
			  const u32 *key, const u8 *iv, unsigned int len,
			  int nrounds)
{
	u32 subkey[8];
	u8 real_iv[16];

	kchacha_init_state(state, key, iv);
	if (len >= impl->simd_min)
		kchacha_hchacha(impl, state, subkey, nrounds);
	else
		kchacha_generic_hchacha(state, subkey, nrounds);
	memcpy(&real_iv[0], iv + 24, 8);
	memcpy(&real_iv[8], iv + 16, 8);
	kchacha_init_state(state, subkey, real_iv);
	memzero_explicit(subkey, sizeof(subkey));
}
