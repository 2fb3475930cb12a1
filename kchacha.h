/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha: the implementation table and the core functions every
 * implementation provides.  Included by the module and, through the shim in
 * test/shim, by the user-space tests and benchmarks.
 */
#ifndef _KCHACHA_H
#define _KCHACHA_H

#include <linux/types.h>

#define KCHACHA_BLOCK_SIZE	64
#define KCHACHA_KEY_SIZE	32
#define KCHACHA_IV_SIZE		16
#define KCHACHA_XIV_SIZE	32
#define KCHACHA_STATE_WORDS	16
/* Most bytes one kernel_fpu_begin()/kernel_neon_begin() section handles. */
#define KCHACHA_SIMD_CHUNK	4096

/**
 * typedef kchacha_xor_fn - XOR a ChaCha keystream into a buffer
 * @state: the 16-word ChaCha state; word 12 is the block counter of the
 *	first block.  Not modified: the caller advances the counter.
 * @dst: output, any alignment; may be @src exactly, must not otherwise
 *	overlap it
 * @src: input, any alignment
 * @len: bytes, any number; a final partial block uses the start of its
 *	keystream block
 * @nrounds: 20, 12 or 8
 *
 * The counter wraps modulo 2^32 and never carries into word 13, as the
 * kernel's chacha_crypt_generic() does.
 */
typedef void (*kchacha_xor_fn)(const u32 *state, u8 *dst, const u8 *src,
			       unsigned int len, int nrounds);

/**
 * typedef kchacha_hchacha_fn - the HChaCha function
 * @state: the 16-word initial state (constants, key, 16-byte nonce)
 * @out: words 0..3 and 12..15 of the permuted state, without feed-forward
 * @nrounds: 20 or 12
 */
typedef void (*kchacha_hchacha_fn)(const u32 *state, u32 *out, int nrounds);

/**
 * struct kchacha_impl - one ChaCha implementation
 * @name: suffix of every driver name, "<alg>-kchacha-<name>"
 * @priority: cra_priority of its skciphers; its rng ranks in the same order
 * @slow_priority: if not 0, its cra_priority instead of @priority on CPUs
 *	where the ranking rule says it is not the best there (see
 *	kchacha_cpu_slow() and kchacha_impl_priority())
 * @walksize: the skcipher walksize: the widest batch rounded down to a
 *	power of two, at most PAGE_SIZE / 8 (see kchacha_impls[])
 * @simd_min: requests shorter than this go to the C core, which is faster
 *	for them, XChaCha's HChaCha included (0: never)
 * @batch: blocks per widest pass, for the self-test lengths
 * @cpu_ok: true when the CPU and the OS support it; NULL for always
 * @xor: keystream XOR (see kchacha_xor_fn)
 * @hchacha: HChaCha; NULL to use the C core
 * @simd: @xor needs kernel_fpu_begin()/kernel_neon_begin()
 */
struct kchacha_impl {
	const char *name;
	int priority;
	int slow_priority;
	unsigned int walksize;
	unsigned int simd_min;
	unsigned int batch;
	bool (*cpu_ok)(void);
	kchacha_xor_fn xor;
	kchacha_hchacha_fn hchacha;
	bool simd;
};

/*
 * chacha_core.c: the ranking rule.  kchacha_cpu_slow() applies it to the
 * CPU this runs on; the two rules below it are what it decides by, kept
 * apart from the CPU so that tests can give them any CPU.
 */
int kchacha_impl_priority(const struct kchacha_impl *impl, bool slow);
bool kchacha_cpu_slow(void);
bool kchacha_x86_ymm_first(bool zmm_lowers_clock, bool amd,
			   unsigned int family);
bool kchacha_arm_neon_slow(u32 part);
bool kchacha_cpu_two_cycle(void);
bool kchacha_x86_two_cycle(bool amd, unsigned int family);

/*
 * chacha_core.c, x86_64: whether kchacha_avx512_entry(), the zmm driver's
 * xor, sends nine blocks to the ymm code (1), or not (0); -1 until its
 * first such request asks kchacha_cpu_slow().  Likewise whether it sends
 * a request over 1 KiB to kchacha_avx512_z32_xor(), by
 * kchacha_cpu_two_cycle().
 */
extern int kchacha_avx512_nine_ymm;
extern int kchacha_avx512_z32;
void kchacha_avx512_entry(const u32 *state, u8 *dst, const u8 *src,
			  unsigned int len, int nrounds);

/* read_cpuid_part() of the 32-bit ARM cores whose NEON ChaCha is slow */
#define KCHACHA_ARM_PART_CORTEX_A5	0x4100c050
#define KCHACHA_ARM_PART_CORTEX_A7	0x4100c070

/* chacha_generic.c: the portable C core */
void kchacha_init_state(u32 *state, const u32 *key, const u8 *iv);
void kchacha_generic_xor(const u32 *state, u8 *dst, const u8 *src,
			 unsigned int len, int nrounds);
void kchacha_generic_hchacha(const u32 *state, u32 *out, int nrounds);

/* The assembly cores; each file defines its own. */
void kchacha_ssse3_xor(const u32 *state, u8 *dst, const u8 *src,
		       unsigned int len, int nrounds);
void kchacha_ssse3_hchacha(const u32 *state, u32 *out, int nrounds);
void kchacha_avx2_xor(const u32 *state, u8 *dst, const u8 *src,
		      unsigned int len, int nrounds);
void kchacha_avx2_hchacha(const u32 *state, u32 *out, int nrounds);
void kchacha_avx512_xor(const u32 *state, u8 *dst, const u8 *src,
			unsigned int len, int nrounds);
void kchacha_avx512_z32_xor(const u32 *state, u8 *dst, const u8 *src,
			    unsigned int len, int nrounds);
void kchacha_avx512vl_xor(const u32 *state, u8 *dst, const u8 *src,
			  unsigned int len, int nrounds);
void kchacha_neon_xor(const u32 *state, u8 *dst, const u8 *src,
		      unsigned int len, int nrounds);
void kchacha_neon_hchacha(const u32 *state, u32 *out, int nrounds);

/* chacha_core.c: the table, lowest level first, and the SIMD dispatch */
extern const struct kchacha_impl kchacha_impls[];
extern const unsigned int kchacha_nimpls;
void kchacha_simd_xor(const struct kchacha_impl *impl, u32 *state, u8 *dst,
		      const u8 *src, unsigned int len, int nrounds);
void kchacha_crypt(const struct kchacha_impl *impl, u32 *state, u8 *dst,
		   const u8 *src, unsigned int len, int nrounds);
void kchacha_hchacha(const struct kchacha_impl *impl, const u32 *state,
		     u32 *out, int nrounds);
void kchacha_xchacha_init(const struct kchacha_impl *impl, u32 *state,
			  const u32 *key, const u8 *iv, unsigned int len,
			  int nrounds);

/* calibrate.c: the default implementation by measurement, at load */
#define KCHACHA_CALIB_SIZES	3
#define KCHACHA_CALIB_ROUNDS	7
#define KCHACHA_CALIB_REPS	5
/* the lead over the table's choice that makes another the default (1/1000) */
#define KCHACHA_CALIB_LEAD	50

/**
 * struct kchacha_calib - one candidate of the calibration
 * @impl: the implementation; SIMD, and this CPU has it
 * @ns: the time of one call at each of kchacha_calib_len[]: the lowest
 *	of the repetitions' medians
 * @score: its speed relative to the table's choice, per mille, averaged
 *	over the sizes
 * @sample: each timed call of a repetition, per size
 */
struct kchacha_calib {
	const struct kchacha_impl *impl;
	u64 ns[KCHACHA_CALIB_SIZES];
	unsigned int score;
	u64 sample[KCHACHA_CALIB_SIZES][KCHACHA_CALIB_ROUNDS];
};

extern const unsigned int kchacha_calib_len[KCHACHA_CALIB_SIZES];
unsigned int kchacha_calib_choose(struct kchacha_calib *c, unsigned int n,
				  bool slow);
unsigned int kchacha_calibrate(struct kchacha_calib *c, unsigned int n,
			       bool slow, u64 (*now)(void), u8 *buf);

/* selftest.c: the load-time self-test of one implementation */
int kchacha_selftest(const struct kchacha_impl *impl);
#if defined(KCHACHA_TEST) || defined(KCHACHA_USERSPACE)
/* What is wrong with a copy of kchacha_selftest_broken() (tests only) */
enum kchacha_break {
	KCHACHA_BREAK_VECTOR,	/* the last byte of RFC 8439 2.4.2 */
	KCHACHA_BREAK_LENGTH,	/* one at the longest length tested */
	KCHACHA_BREAK_OVERRUN,	/* a byte written past the end */
	KCHACHA_BREAK_INPLACE,	/* a byte wrong in place, under a block */
	KCHACHA_BREAK_HCHACHA,	/* HChaCha wrong for the draft's input */
	KCHACHA_BREAK_PARTIAL,	/* the sweep's partial blocks above 128 */
	KCHACHA_BREAK_WRAP,	/* a counter that carries into word 13 */
	KCHACHA_BREAK_LATER,	/* a short call at a later block, wrong */
	KCHACHA_BREAK_KINDS
};

int kchacha_selftest_broken(const struct kchacha_impl *impl,
			    enum kchacha_break how);
int kchacha_selftest_broken_vector(const struct kchacha_impl *impl,
				   unsigned int i);
#endif

/* rng.c, rng_glue.c: the ChaCha20 fast-key-erasure stdrng of each implementation */
struct rng_alg;
struct kchacha_rng;
struct rng_alg *kchacha_rng_alg_create(const struct kchacha_impl *impl,
				       int priority);
void kchacha_rng_alg_destroy(struct rng_alg *alg);
int kchacha_rng_selftest(const struct kchacha_impl *impl);
int kchacha_rng_init_module(void);
void kchacha_rng_exit_module(void);

#endif /* _KCHACHA_H */
