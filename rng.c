// SPDX-License-Identifier: GPL-2.0-only
/*
 * chacha20rng: a ChaCha20 fast-key-erasure "stdrng" on every implementation
 * kchacha registers, driver chacha20rng-kchacha-<impl>.
 *
 * Keys.  An instance (one tfm) holds a 256-bit ChaCha20 key, refreshed from
 * the kernel RNG by kchacha_rng_reseed(), and a generation number that
 * changes with it.  Every CPU has a sub-generator of its own: a key derived
 * from the instance key, the generation it was derived in and a batch
 * buffer.  As in drivers/char/random.c, deriving is itself fast key erasure
 * of the instance key (one ChaCha20 block: the first 32 bytes become the new
 * instance key, the next 32 the CPU's key), done under the instance lock
 * only when the CPU finds its generation stale.  Otherwise a CPU touches
 * nothing but its own sub-generator and its own lock, so callers on
 * different CPUs never serialise on one lock.  The per-CPU lock is a real
 * spinlock rather than a local_lock: the caller may migrate between picking
 * its CPU and locking it, and the deterministic test instance uses CPU 0's
 * sub-generator from any CPU.  It is taken with interrupts off, so
 * generate() works in any context the crypto API allows, softirq and hard
 * interrupt included, and nothing under it sleeps; it is held only to copy
 * a request's bytes (under KCHACHA_RNG_DIRECT) or to rekey (one block).
 * The refill itself runs with interrupts on and the sub-generator marked
 * busy: whoever finds it busy (an interrupt on this CPU, or a caller that
 * migrated) takes a one-time key from the instance by fast key erasure
 * instead, as rekeying does.
 *
 * Output.  A refill runs the implementation over a batch of
 * KCHACHA_RNG_BATCH bytes of keystream under the CPU's key (nonce and
 * counter zero; SIMD in kchacha_crypt()'s bounded sections).  The first 32
 * bytes replace the key at once, the old key is overwritten, and the rest is
 * handed out in order; every byte handed out is wiped from the buffer as it
 * leaves, so the state never holds an earlier key or any byte already
 * returned (backtracking resistance).  A wiped buffer is all zeros, so the
 * refill is the keystream XORed into the buffer in place.  Requests of
 * KCHACHA_RNG_DIRECT bytes or more, and requests with additional input, take
 * a one-time 32-byte key from the batch instead and run ChaCha20 under it
 * straight into the caller's buffer, in sections of KCHACHA_SIMD_CHUNK bytes
 * and with a new one-time key every KCHACHA_RNG_KEY_BYTES.
 *
 * Mixing.  Input of any length is absorbed without a hash by a cascade of
 * HChaCha20, keyed by the secret being updated: a header block (a domain
 * constant and the length) and then each 16-byte block of input, zero
 * padded, in turn become the nonce of an HChaCha20 whose output is the next
 * key.  HChaCha20 is a PRF of its nonce under a secret key (the assumption
 * XChaCha rests on) and the length in the header makes the input encoding
 * prefix-free, so the cascade is a PRF of the whole input.  A reseed takes
 * 32 fresh bytes R from get_random_bytes(), absorbs the caller's seed under
 * R (m = F_R(seed), outside any lock, so a long seed costs the caller and
 * nobody else), then sets key = F_(key XOR m)(empty).  While R is secret, m
 * and so the new key are pseudorandom whatever the seed is: a caller's seed
 * can only add entropy, never make the output predictable.  While the old
 * key is secret, so is the new one even if R is not.  generate()'s
 * additional input is absorbed into the request's one-time key, so it
 * changes that request's output and nothing else.
 *
 * Reseeding.  seed() and set_ent() reseed at once.  The instance also
 * reseeds itself from get_random_bytes() when KCHACHA_RNG_RESEED_SECS
 * seconds have passed since its last reseed (checked on every request, one
 * compare against jiffies; every second instead until the kernel RNG is
 * initialized), and when one CPU's sub-generator has produced
 * KCHACHA_RNG_RESEED_BYTES since it was keyed (checked when its batch is
 * refilled, so at most one batch later).  A reseed changes the generation,
 * so every CPU discards what is left of its batch and rekeys before its
 * next byte.
 *
 * Memory: an instance takes about KCHACHA_RNG_BATCH bytes per possible CPU,
 * charged to the memory cgroup of whoever creates it (an AF_ALG bind).
 *
 * Seeds of any length are accepted, none is required: an instance seeds
 * itself from get_random_bytes() when it is created.
 *
 * Deterministic instances (kchacha_rng_alloc(impl, true)) exist only for the
 * self-test and the user-space tests: their "fresh" entropy is a fixed
 * sequence, they always use CPU 0's sub-generator, never reseed on time and
 * reseed every KCHACHA_RNG_FIXED_RESEED_BYTES, so one script of requests
 * gives one known stream, the same for every implementation.  They must not
 * be shared between threads.  No tfm is ever deterministic.
 */
#include <crypto/internal/rng.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "kchacha_compat.h"
#include "kchacha.h"

/* Bytes of keystream per refill: the next key, then the output buffer. */
#define KCHACHA_RNG_BATCH		4096
/* Requests this long or longer bypass the buffer. */
#define KCHACHA_RNG_DIRECT		512
/* Most output from one one-time key. */
#define KCHACHA_RNG_KEY_BYTES		(64 * 1024)
/* Reseed bounds: output of one CPU's sub-generator, and time. */
#define KCHACHA_RNG_RESEED_BYTES	(1024 * 1024)
#define KCHACHA_RNG_RESEED_SECS		60
/* Reseed bound of deterministic instances, so that the self-test sees it. */
#define KCHACHA_RNG_FIXED_RESEED_BYTES	2048

/* Domain constants of the absorbing cascade (little-endian ASCII). */
#define KCHACHA_RNG_DOM_SEED		0x64656573	/* "seed" */
#define KCHACHA_RNG_DOM_MIX		0x2078696d	/* "mix " */
#define KCHACHA_RNG_DOM_ADDTL		0x6c646461	/* "addl" */
#define KCHACHA_RNG_DOM_KAT		0x2074616b	/* "kat " */

/**
 * struct kchacha_rng_cpu - one CPU's sub-generator
 * @lock: taken with interrupts off around every use
 * @busy: being refilled, with @lock dropped; only the refiller touches the
 *	rest until it clears @busy
 * @generation: the instance generation @key was derived in; 0: none yet
 * @pos: next unread byte of @buf; KCHACHA_RNG_BATCH when empty
 * @out: bytes produced since @key was derived from the instance
 * @key: the ChaCha20 key of the next refill
 * @buf: the batch; bytes before @pos are zero
 */
struct kchacha_rng_cpu {
	spinlock_t lock;		/* taken with interrupts off */
	bool busy;
	unsigned long generation;
	unsigned int pos;
	unsigned long out;
	u32 key[8];
	u8 buf[KCHACHA_RNG_BATCH];
};

/**
 * struct kchacha_rng - one generator instance, the context of a tfm
 * @impl: the ChaCha implementation it runs on
 * @cpus: the per-CPU sub-generators
 * @generation: changes (never to 0) whenever @key is reseeded
 * @reseed_at: jiffies after which the next request reseeds
 * @reseed_bytes: a sub-generator's output that triggers a reseed
 * @fixed_calls: entropy requests so far (deterministic instances)
 * @fixed: deterministic (tests only)
 * @lock: protects @key, @generation and @reseed_at
 * @key: the instance key
 */
struct kchacha_rng {
	const struct kchacha_impl *impl;
	struct kchacha_rng_cpu __percpu *cpus;
	unsigned long generation;
	unsigned long reseed_at;
	unsigned long reseed_bytes;
	unsigned int fixed_calls;
	bool fixed;
	spinlock_t lock;		/* @key, @generation, @reseed_at */
	u32 key[8];
};

struct kchacha_rng_alg {
	struct rng_alg alg;
	const struct kchacha_impl *impl;
};

/* Nonce and counter of every keystream: each key is used once. */
static const u8 kchacha_rng_iv[KCHACHA_IV_SIZE];

static void kchacha_rng_load_key(u32 *key, const u8 *bytes)
{
	int i;

	for (i = 0; i < 8; i++)
		key[i] = get_unaligned_le32(bytes + 4 * i);
}

/*
 * key = the HChaCha20 cascade over (domain, len) and @data, keyed by key.
 * See the comment at the top of the file.
 */
static void kchacha_rng_absorb(const struct kchacha_impl *impl, u32 *key,
			       u32 domain, const u8 *data, unsigned int len)
{
	u32 state[KCHACHA_STATE_WORDS];
	u8 block[16];

	put_unaligned_le32(domain, block);
	put_unaligned_le32(len, block + 4);
	memset(block + 8, 0, 8);
	for (;;) {
		unsigned int n = min_t(unsigned int, len, sizeof(block));

		kchacha_init_state(state, key, block);
		kchacha_hchacha(impl, state, key, 20);
		if (!len)
			break;
		memcpy(block, data, n);
		memset(block + n, 0, sizeof(block) - n);
		data += n;
		len -= n;
	}
	memzero_explicit(state, sizeof(state));
	memzero_explicit(block, sizeof(block));
}

/* 32 bytes of fresh entropy: the kernel RNG, or a fixed sequence. */
static void kchacha_rng_entropy(struct kchacha_rng *rng, u8 *out)
{
	unsigned int i;

	if (likely(!rng->fixed)) {
		get_random_bytes(out, KCHACHA_KEY_SIZE);
		return;
	}
	for (i = 0; i < KCHACHA_KEY_SIZE; i++)
		out[i] = rng->fixed_calls * 0x3b + i;
	rng->fixed_calls++;
}

/*
 * Mix @seed and fresh entropy into the instance key and start a new
 * generation.  With @if_due, only if the reseed time has come (another CPU
 * may have reseeded meanwhile).
 */
static void kchacha_rng_reseed(struct kchacha_rng *rng, const u8 *seed,
			       unsigned int slen, bool if_due)
{
	u8 fresh[KCHACHA_KEY_SIZE];
	unsigned long flags, gen;
	u32 m[8];
	int i;

	kchacha_rng_entropy(rng, fresh);
	kchacha_rng_load_key(m, fresh);
	kchacha_rng_absorb(rng->impl, m, KCHACHA_RNG_DOM_SEED, seed, slen);

	spin_lock_irqsave(&rng->lock, flags);
	if (!if_due || time_after(jiffies, rng->reseed_at)) {
		for (i = 0; i < 8; i++)
			m[i] ^= rng->key[i];
		kchacha_rng_absorb(rng->impl, m, KCHACHA_RNG_DOM_MIX, NULL, 0);
		memcpy(rng->key, m, sizeof(rng->key));
		gen = rng->generation + 1;
		WRITE_ONCE(rng->generation, gen ? gen : 1);
		WRITE_ONCE(rng->reseed_at, jiffies +
			   (rng_is_initialized() ?
			    KCHACHA_RNG_RESEED_SECS * HZ : HZ));
	}
	spin_unlock_irqrestore(&rng->lock, flags);

	memzero_explicit(fresh, sizeof(fresh));
	memzero_explicit(m, sizeof(m));
}

/*
 * Fast key erasure of the instance key: one ChaCha20 block, whose first 32
 * bytes become the new instance key and the next 32 @key.  Returns the
 * generation @key belongs to.
 */
static unsigned long kchacha_rng_derive(struct kchacha_rng *rng, u32 *key)
{
	u32 state[KCHACHA_STATE_WORDS];
	u8 block[KCHACHA_BLOCK_SIZE];
	unsigned long flags, gen;

	memset(block, 0, sizeof(block));
	spin_lock_irqsave(&rng->lock, flags);
	kchacha_init_state(state, rng->key, kchacha_rng_iv);
	kchacha_crypt(rng->impl, state, block, block, sizeof(block), 20);
	kchacha_rng_load_key(rng->key, block);
	gen = rng->generation;
	spin_unlock_irqrestore(&rng->lock, flags);

	kchacha_rng_load_key(key, block + KCHACHA_KEY_SIZE);
	memzero_explicit(state, sizeof(state));
	memzero_explicit(block, sizeof(block));
	return gen;
}

/* Key sub-generator @c anew from the instance, dropping what it holds. */
static void kchacha_rng_rekey(struct kchacha_rng *rng,
			      struct kchacha_rng_cpu *c)
{
	memzero_explicit(c->buf + c->pos, KCHACHA_RNG_BATCH - c->pos);
	c->pos = KCHACHA_RNG_BATCH;
	c->out = 0;
	c->generation = kchacha_rng_derive(rng, c->key);
}

/*
 * Refill the empty (all zero) batch of @c, which the caller has marked busy
 * and unlocked; reseed or rekey first if due.  The caller sets @c->pos.
 */
static void kchacha_rng_refill(struct kchacha_rng *rng,
			       struct kchacha_rng_cpu *c)
{
	u32 state[KCHACHA_STATE_WORDS];

	if (c->out >= rng->reseed_bytes)
		kchacha_rng_reseed(rng, NULL, 0, false);
	if (c->generation != READ_ONCE(rng->generation))
		kchacha_rng_rekey(rng, c);

	kchacha_init_state(state, c->key, kchacha_rng_iv);
	kchacha_crypt(rng->impl, state, c->buf, c->buf, KCHACHA_RNG_BATCH, 20);
	kchacha_rng_load_key(c->key, c->buf);
	memzero_explicit(c->buf, KCHACHA_KEY_SIZE);
	memzero_explicit(state, sizeof(state));
	c->out += KCHACHA_RNG_BATCH - KCHACHA_KEY_SIZE;
}

/*
 * Copy @n bytes out of the batch and zero them there.  Small requests are
 * the common case: words and bytes inline, no calls.
 */
static inline void kchacha_rng_move(u8 *dst, u8 *src, unsigned int n)
{
	if (n > 32) {
		memcpy(dst, src, n);
		memzero_explicit(src, n);
		return;
	}
	for (; n >= 8; n -= 8, dst += 8, src += 8) {
		memcpy(dst, src, 8);
		memzero_explicit(src, 8);
	}
	for (; n; n--, dst++, src++) {
		*dst = *src;
		*src = 0;
	}
}

/* @len bytes of ChaCha20 keystream under a one-time @key into @dst. */
static void kchacha_rng_stream(const struct kchacha_impl *impl,
			       const u32 *key, u8 *dst, unsigned int len)
{
	u32 state[KCHACHA_STATE_WORDS];

	kchacha_init_state(state, key, kchacha_rng_iv);
	while (len) {
		unsigned int n = min_t(unsigned int, len, KCHACHA_SIMD_CHUNK);

		memset(dst, 0, n);
		kchacha_crypt(impl, state, dst, dst, n, 20);
		dst += n;
		len -= n;
	}
	memzero_explicit(state, sizeof(state));
}

/*
 * This CPU's sub-generator is busy: being refilled by the context this one
 * interrupted, or by another CPU's caller.  A one-time key straight from
 * the instance serves the request instead.
 */
static noinline void kchacha_rng_fallback(struct kchacha_rng *rng, u8 *dst,
					  unsigned int len)
{
	u32 key[8];

	kchacha_rng_derive(rng, key);
	kchacha_rng_stream(rng->impl, key, dst, len);
	memzero_explicit(key, sizeof(key));
}

/*
 * Hand out @len bytes of this CPU's batch, wiping them; count @extra more
 * bytes (those a one-time key taken here will produce) against the reseed
 * bound.
 */
static void kchacha_rng_take(struct kchacha_rng *rng, u8 *dst,
			     unsigned int len, unsigned int extra)
{
	struct kchacha_rng_cpu *c;
	unsigned long flags;

	c = rng->fixed ? per_cpu_ptr(rng->cpus, 0) : raw_cpu_ptr(rng->cpus);
	spin_lock_irqsave(&c->lock, flags);
	if (unlikely(c->busy)) {
		spin_unlock_irqrestore(&c->lock, flags);
		kchacha_rng_fallback(rng, dst, len);
		return;
	}
	if (unlikely(c->generation != READ_ONCE(rng->generation)))
		kchacha_rng_rekey(rng, c);
	for (;;) {
		unsigned int n = min_t(unsigned int, len,
				       KCHACHA_RNG_BATCH - c->pos);

		kchacha_rng_move(dst, c->buf + c->pos, n);
		c->pos += n;
		dst += n;
		len -= n;
		if (!len)
			break;

		/* empty: refill with interrupts on, the batch marked busy */
		c->busy = true;
		spin_unlock_irqrestore(&c->lock, flags);
		kchacha_rng_refill(rng, c);
		spin_lock_irqsave(&c->lock, flags);
		c->pos = KCHACHA_KEY_SIZE;
		c->busy = false;
	}
	c->out += extra;
	spin_unlock_irqrestore(&c->lock, flags);
}

/*
 * A request with additional input or of KCHACHA_RNG_DIRECT bytes or more:
 * one-time keys from the batch, each for up to KCHACHA_RNG_KEY_BYTES.
 */
static noinline void kchacha_rng_direct(struct kchacha_rng *rng,
					const u8 *src, unsigned int slen,
					u8 *dst, unsigned int dlen)
{
	u8 bytes[KCHACHA_KEY_SIZE];
	u32 key[8];

	while (dlen) {
		unsigned int n = min_t(unsigned int, dlen, KCHACHA_RNG_KEY_BYTES);

		kchacha_rng_take(rng, bytes, sizeof(bytes), n);
		kchacha_rng_load_key(key, bytes);
		if (slen)
			kchacha_rng_absorb(rng->impl, key, KCHACHA_RNG_DOM_ADDTL,
					   src, slen);
		kchacha_rng_stream(rng->impl, key, dst, n);
		dst += n;
		dlen -= n;
	}
	memzero_explicit(bytes, sizeof(bytes));
	memzero_explicit(key, sizeof(key));
}

/**
 * kchacha_rng_generate() - random bytes from an instance
 * @rng: the instance
 * @src: additional input, mixed into this request's key; may be NULL
 * @slen: bytes of @src, any number
 * @dst: output
 * @dlen: bytes wanted; 0 does nothing
 *
 * Safe in any context, with any number of concurrent callers: every caller
 * gets bytes nobody else gets.
 *
 * Return: 0.
 */
int kchacha_rng_generate(struct kchacha_rng *rng, const u8 *src,
			 unsigned int slen, u8 *dst, unsigned int dlen)
{
	if (unlikely(!dlen))
		return 0;
	if (!rng->fixed &&
	    unlikely(time_after(jiffies, READ_ONCE(rng->reseed_at))))
		kchacha_rng_reseed(rng, NULL, 0, true);

	if (likely(!slen && dlen < KCHACHA_RNG_DIRECT))
		kchacha_rng_take(rng, dst, dlen, 0);
	else
		kchacha_rng_direct(rng, src, slen, dst, dlen);
	return 0;
}

/**
 * kchacha_rng_seed() - reseed an instance now
 * @rng: the instance
 * @seed: caller's bytes, mixed in with fresh kernel RNG output; may be NULL
 * @slen: bytes of @seed, any number
 *
 * Return: 0.
 */
int kchacha_rng_seed(struct kchacha_rng *rng, const u8 *seed,
		     unsigned int slen)
{
	kchacha_rng_reseed(rng, seed, slen, false);
	return 0;
}

static int kchacha_rng_init(struct kchacha_rng *rng,
			    const struct kchacha_impl *impl, bool fixed)
{
	int cpu;

	rng->impl = impl;
	rng->fixed = fixed;
	rng->reseed_bytes = fixed ? KCHACHA_RNG_FIXED_RESEED_BYTES :
			    KCHACHA_RNG_RESEED_BYTES;
	spin_lock_init(&rng->lock);
	rng->cpus = alloc_percpu_gfp(struct kchacha_rng_cpu, GFP_KERNEL_ACCOUNT);
	if (!rng->cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct kchacha_rng_cpu *c = per_cpu_ptr(rng->cpus, cpu);

		spin_lock_init(&c->lock);
		c->pos = KCHACHA_RNG_BATCH;
	}
	kchacha_rng_reseed(rng, NULL, 0, false);
	return 0;
}

static void kchacha_rng_exit(struct kchacha_rng *rng)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memzero_explicit(per_cpu_ptr(rng->cpus, cpu),
				 sizeof(struct kchacha_rng_cpu));
	free_percpu(rng->cpus);
	memzero_explicit(rng, sizeof(*rng));
}

/**
 * kchacha_rng_alloc() - an instance outside the crypto API
 * @impl: the implementation
 * @fixed: deterministic, for tests (see the top of the file)
 *
 * Return: the instance, seeded; NULL when out of memory.
 */
struct kchacha_rng *kchacha_rng_alloc(const struct kchacha_impl *impl,
				      bool fixed)
{
	struct kchacha_rng *rng = kzalloc(sizeof(*rng), GFP_KERNEL);

	if (rng && kchacha_rng_init(rng, impl, fixed)) {
		kfree(rng);
		rng = NULL;
	}
	return rng;
}

/**
 * kchacha_rng_free() - wipe and free an instance of kchacha_rng_alloc()
 * @rng: the instance; may be NULL
 */
void kchacha_rng_free(struct kchacha_rng *rng)
{
	if (!rng)
		return;
	kchacha_rng_exit(rng);
	kfree(rng);
}

static int kchacha_rng_init_tfm(struct crypto_tfm *tfm)
{
	struct kchacha_rng_alg *ra = container_of(tfm->__crt_alg,
						  struct kchacha_rng_alg,
						  alg.base);

	return kchacha_rng_init(crypto_tfm_ctx(tfm), ra->impl, false);
}

static void kchacha_rng_exit_tfm(struct crypto_tfm *tfm)
{
	kchacha_rng_exit(crypto_tfm_ctx(tfm));
}

static int kchacha_rng_generate_tfm(struct crypto_rng *tfm, const u8 *src,
				    unsigned int slen, u8 *dst,
				    unsigned int dlen)
{
	return kchacha_rng_generate(crypto_rng_ctx(tfm), src, slen, dst, dlen);
}

static int kchacha_rng_seed_tfm(struct crypto_rng *tfm, const u8 *seed,
				unsigned int slen)
{
	return kchacha_rng_seed(crypto_rng_ctx(tfm), seed, slen);
}

/*
 * Test entropy (AF_ALG's ALG_SET_DRBG_ENTROPY) makes a DRBG deterministic;
 * this generator never is outside its self-test, so it is a seed like any
 * other.
 */
static void kchacha_rng_set_ent(struct crypto_rng *tfm, const u8 *data,
				unsigned int len)
{
	kchacha_rng_seed(crypto_rng_ctx(tfm), data, len);
}

/**
 * kchacha_rng_alg_create() - the stdrng of one implementation
 * @impl: the implementation
 * @priority: its cra_priority
 *
 * Return: the algorithm, ready to register; NULL when out of memory.
 */
struct rng_alg *kchacha_rng_alg_create(const struct kchacha_impl *impl,
				       int priority)
{
	struct kchacha_rng_alg *ra = kzalloc(sizeof(*ra), GFP_KERNEL);
	struct rng_alg *alg;

	if (!ra)
		return NULL;
	ra->impl = impl;
	alg = &ra->alg;
	strscpy(alg->base.cra_name, "stdrng", CRYPTO_MAX_ALG_NAME);
	snprintf(alg->base.cra_driver_name, CRYPTO_MAX_ALG_NAME,
		 "chacha20rng-kchacha-%s", impl->name);
	alg->base.cra_priority = priority;
	alg->base.cra_ctxsize = sizeof(struct kchacha_rng);
	alg->base.cra_module = THIS_MODULE;
	alg->base.cra_init = kchacha_rng_init_tfm;
	alg->base.cra_exit = kchacha_rng_exit_tfm;
	alg->generate = kchacha_rng_generate_tfm;
	alg->seed = kchacha_rng_seed_tfm;
	alg->set_ent = kchacha_rng_set_ent;
	alg->seedsize = KCHACHA_KEY_SIZE;
	return alg;
}

/**
 * kchacha_rng_alg_destroy() - free an algorithm of kchacha_rng_alg_create()
 * @alg: the algorithm, not registered; may be NULL
 */
void kchacha_rng_alg_destroy(struct rng_alg *alg)
{
	if (alg)
		kfree(container_of(alg, struct kchacha_rng_alg, alg));
}

/*
 * The self-test script: requests of every path (buffered, across refills,
 * one-time key, additional input, several SIMD sections), seeds, and enough
 * output for the deterministic instance to reseed itself on the byte bound.
 */
enum { KCHACHA_RNG_GEN, KCHACHA_RNG_ADDTL, KCHACHA_RNG_SEED };

static const struct {
	u8 op;
	u16 len;
} kchacha_rng_script[] = {
	{ KCHACHA_RNG_GEN, 1 }, { KCHACHA_RNG_GEN, 3 },
	{ KCHACHA_RNG_GEN, 16 }, { KCHACHA_RNG_GEN, 32 },
	{ KCHACHA_RNG_GEN, 64 }, { KCHACHA_RNG_GEN, 100 },
	{ KCHACHA_RNG_GEN, 511 }, { KCHACHA_RNG_GEN, 512 },
	{ KCHACHA_RNG_ADDTL, 40 }, { KCHACHA_RNG_GEN, 1000 },
	{ KCHACHA_RNG_GEN, 300 }, { KCHACHA_RNG_GEN, 300 },
	{ KCHACHA_RNG_GEN, 300 }, { KCHACHA_RNG_GEN, 300 },
	{ KCHACHA_RNG_SEED, 0 }, { KCHACHA_RNG_GEN, 48 },
	{ KCHACHA_RNG_SEED, 45 }, { KCHACHA_RNG_GEN, 5000 },
	{ KCHACHA_RNG_ADDTL, 600 }, { KCHACHA_RNG_GEN, 17 },
};

/* Bytes of the script's seed and additional input. */
#define KCHACHA_RNG_KAT_INPUT	64
/* Additional input of the script's KCHACHA_RNG_ADDTL steps. */
#define KCHACHA_RNG_KAT_ADDTL	23

/* The HChaCha20 cascade of the script's output under the zero key. */
static const u8 kchacha_rng_kat_digest[32] =
	"\x2e\x15\x9e\xb9\xb8\x80\xaa\xe9\xb0\xff\x6e\x68\xc3\x78\x16\xa4"
	"\x90\xb8\xb6\x31\x61\x06\x45\x0e\x89\x35\x5a\x3d\xbe\x4b\xce\x4f";

static int kchacha_rng_run_script(const struct kchacha_impl *impl, u8 *out,
				  const u8 *input)
{
	struct kchacha_rng *rng = kchacha_rng_alloc(impl, true);
	unsigned int i;

	if (!rng)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(kchacha_rng_script); i++) {
		unsigned int len = kchacha_rng_script[i].len;

		switch (kchacha_rng_script[i].op) {
		case KCHACHA_RNG_GEN:
			kchacha_rng_generate(rng, NULL, 0, out, len);
			out += len;
			break;
		case KCHACHA_RNG_ADDTL:
			kchacha_rng_generate(rng, input, KCHACHA_RNG_KAT_ADDTL,
					     out, len);
			out += len;
			break;
		default:
			kchacha_rng_seed(rng, input, len);
			break;
		}
	}
	kchacha_rng_free(rng);
	return 0;
}

/* Two deterministic instances agree until one of them is reseeded. */
static int kchacha_rng_test_reseed(const struct kchacha_impl *impl, u8 *buf)
{
	struct kchacha_rng *a = kchacha_rng_alloc(impl, true);
	struct kchacha_rng *b = kchacha_rng_alloc(impl, true);
	int err = -ENOMEM;

	if (!a || !b)
		goto out;
	kchacha_rng_generate(a, NULL, 0, buf, 64);
	kchacha_rng_generate(b, NULL, 0, buf + 64, 64);
	err = memcmp(buf, buf + 64, 64) ? -EINVAL : 0;
	if (!err) {
		kchacha_rng_seed(b, NULL, 0);
		kchacha_rng_generate(a, NULL, 0, buf, 64);
		kchacha_rng_generate(b, NULL, 0, buf + 64, 64);
		err = memcmp(buf, buf + 64, 64) ? 0 : -EINVAL;
	}
	if (err)
		pr_err("kchacha: %s: rng self-test failed: reseeding\n",
		       impl->name);
out:
	kchacha_rng_free(a);
	kchacha_rng_free(b);
	return err;
}

/**
 * kchacha_rng_selftest() - the rng self-test of one implementation
 * @impl: the implementation
 *
 * A deterministic instance runs the script: its output must hash to the
 * known digest and equal, byte for byte, the output of the C core; two
 * deterministic instances must agree until one is reseeded.
 *
 * Return: 0, -EINVAL on a failed case, -ENOMEM.
 */
int kchacha_rng_selftest(const struct kchacha_impl *impl)
{
	const struct kchacha_impl *generic = &kchacha_impls[0];
	unsigned int i, len = 0;
	u8 *buf, *input;
	u32 digest[8];
	int err;

	for (i = 0; i < ARRAY_SIZE(kchacha_rng_script); i++)
		if (kchacha_rng_script[i].op != KCHACHA_RNG_SEED)
			len += kchacha_rng_script[i].len;
	buf = kmalloc(2 * len + KCHACHA_RNG_KAT_INPUT, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	input = buf + 2 * len;
	for (i = 0; i < KCHACHA_RNG_KAT_INPUT; i++)
		input[i] = i * 13 + 5;

	err = kchacha_rng_run_script(impl, buf, input);
	if (err)
		goto out;

	memset(digest, 0, sizeof(digest));
	kchacha_rng_absorb(generic, digest, KCHACHA_RNG_DOM_KAT, buf, len);
	for (i = 0; i < 8; i++) {
		if (digest[i] !=
		    get_unaligned_le32(kchacha_rng_kat_digest + 4 * i)) {
			pr_err("kchacha: %s: rng self-test failed: known-answer stream\n",
			       impl->name);
			err = -EINVAL;
			goto out;
		}
	}

	if (impl != generic) {
		err = kchacha_rng_run_script(generic, buf + len, input);
		if (err)
			goto out;
		if (memcmp(buf, buf + len, len)) {
			pr_err("kchacha: %s: rng self-test failed: stream differs from generic\n",
			       impl->name);
			err = -EINVAL;
			goto out;
		}
	}

	err = kchacha_rng_test_reseed(impl, buf);
out:
	kfree(buf);
	return err;
}
