// SPDX-License-Identifier: GPL-2.0-only
/*
 * chacha20rng: a ChaCha20 fast-key-erasure "stdrng" on every implementation
 * kchacha registers, driver chacha20rng-kchacha-<impl>.
 *
 * Keys.  An instance (one tfm) holds a 256-bit ChaCha20 key, refreshed from
 * the kernel RNG by kchacha_rng_reseed(), and a generation number that
 * changes with it.  It has up to KCHACHA_RNG_SLOTS sub-generators (slots),
 * one per CPU (CPU n uses slot n mod the number of slots, a power of two):
 * a key derived from the instance key, the generation it was derived in,
 * the bytes it may still hand out, and a batch buffer allocated at its
 * first use.  As in drivers/char/random.c, a sub-generator compares its
 * generation with the instance's at every request and, when it is stale,
 * derives a new key by fast key erasure of the instance key (one ChaCha20
 * block under the instance lock: the first 32 bytes become the new
 * instance key, the next 32 the sub-generator's).
 *
 * Locks and contexts.  A request holds its sub-generator's spinlock_t,
 * taken with softirqs off, for the whole request: callers on one CPU
 * never interleave, callers on CPUs that share a slot (or that migrated)
 * wait their turn, and nothing is ever half done, so there is no "busy"
 * state and nothing to fall back on.  Refilling the batch (SIMD, in
 * kchacha_crypt()'s bounded sections) runs under that lock with
 * interrupts on.  A caller in hard interrupt context or with interrupts
 * off cannot take it (the CPU it interrupted may hold it); such a
 * request, and one for which no batch could be allocated, is served like
 * the kernel's own CRNG serves every request: a one-time key by fast key
 * erasure of the instance key under the instance lock (interrupts off,
 * the C core), charged to the instance's own byte bound under that lock,
 * and ChaCha20 under it straight into the caller's buffer (the C core
 * where interrupts are off).  So generate() works in any context the
 * crypto API allows, softirq and hard interrupt included; on PREEMPT_RT
 * both locks sleep, so there only where a spinlock_t may be taken (task
 * context, softirqs, threaded interrupt handlers), not in hard interrupt
 * context or with preemption or interrupts disabled.  Whatever runs with
 * interrupts off is one ChaCha20 block or one HChaCha20 on the C core.
 *
 * Output.  A refill runs the implementation over a batch of
 * KCHACHA_RNG_BATCH bytes of keystream under the sub-generator's key
 * (nonce and counter zero).  The first 32 bytes replace the key at once,
 * the old key is overwritten, and the rest is handed out in order; every
 * byte handed out is wiped from the buffer as it leaves, so the state
 * never holds an earlier key or any byte already returned (backtracking
 * resistance).  A wiped buffer is all zeros, so the refill is the
 * keystream XORed into the buffer in place.  Requests of
 * KCHACHA_RNG_DIRECT bytes or more, and requests with additional input, go
 * in segments of at most the byte bound: each takes one 32-byte one-time
 * key from the batch, and ChaCha20 under it runs straight into the
 * caller's buffer, unlocked; every KCHACHA_RNG_KEY_BYTES the key is
 * replaced by the keystream block that follows the output (fast key
 * erasure again), and where the caller may sleep it gets a chance to
 * reschedule there.
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
 * Reseeding.  seed() and set_ent() reseed at once.  Every request first
 * compares the instance's epoch with kchacha_rng_epoch, which the vmfork
 * notifier (a VM clone or restored snapshot, CONFIG_VMGENID) and the PM
 * notifier (resume from suspend or hibernation) advance, and jiffies with
 * its reseed time; the instance reseeds from get_random_bytes() when one
 * of them changed or passed: KCHACHA_RNG_RESEED_SECS seconds after the
 * last reseed (every second while the kernel RNG is not initialized);
 * after a clone or a resume (the kernel RNG has then been reseeded); and
 * at the first request after the kernel RNG became initialized if the
 * last reseed was before (an instance reseeded then records an epoch that
 * never matches, so that every request looks).  The epoch is recorded as
 * read before the reseed's entropy is fetched, so a notifier that runs
 * meanwhile makes the next request reseed again.  Output is charged as it
 * leaves to the generator that produces it (a sub-generator, or the
 * instance for its one-time keys): buffered bytes as they are taken, a
 * one-time key's whole segment when the key is taken, under that
 * generator's lock, and one that would pass KCHACHA_RNG_RESEED_BYTES under
 * one generation reseeds the instance first.  A reseed changes the
 * generation, so every sub-generator discards what is left of its batch
 * and rekeys before its next byte; a refill that finds the generation
 * changed during its request rekeys too and charges the request again.
 *
 * Memory: an instance's context is 616 bytes (x86_64, no lock debugging),
 * the slots included; a slot's KCHACHA_RNG_BATCH bytes are allocated at its
 * first use, so an instance pins at most KCHACHA_RNG_SLOTS batches
 * (16 KiB) however many CPUs the machine has, one per CPU that used it,
 * charged to the memory cgroup of the caller that made them allocate.
 * The batch size is measured (test/bench, best of 40 runs, 16-byte
 * requests against the 4 KiB batches before it): 2 KiB costs 3-8%, 1 KiB
 * 7-13%.
 *
 * Seeds of any length are accepted, none is required: an instance seeds
 * itself from get_random_bytes() when it is created.
 *
 * Deterministic instances (kchacha_rng_alloc(impl, true)) exist only for the
 * self-test and the user-space tests: their "fresh" entropy is a fixed
 * sequence, they always use slot 0, never reseed on time, a clone, a
 * resume or a late kernel RNG, reseed every KCHACHA_RNG_FIXED_RESEED_BYTES
 * and replace one-time keys every KCHACHA_RNG_FIXED_KEY_BYTES, so one
 * script of requests gives one known stream, the same for every
 * implementation.  They must not be shared between threads.  No tfm is
 * ever deterministic.
 */
#include <crypto/internal/rng.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/suspend.h>
#ifdef CONFIG_DEBUG_FS
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#endif

#include "kchacha_compat.h"
#include "kchacha.h"

/*
 * Bytes of keystream per refill: the next key, then the output buffer; a
 * power of two, the size of its kmalloc object.  See "Memory" above.
 */
#define KCHACHA_RNG_BATCH		2048
/* Requests this long or longer bypass the buffer. */
#define KCHACHA_RNG_DIRECT		512
/* Sub-generators of one instance, at most: the bound on what it pins. */
#define KCHACHA_RNG_SLOTS		8
/*
 * Most output from one one-time key, and the most work between two
 * chances to reschedule in a long request.
 */
#define KCHACHA_RNG_KEY_BYTES		(64 * 1024)
/* Reseed bounds: output of one generator, and time. */
#define KCHACHA_RNG_RESEED_BYTES	(1024 * 1024)
#define KCHACHA_RNG_RESEED_SECS		60
/*
 * Bounds of deterministic instances, so that the self-test sees them: a
 * key covers a whole and a partial SIMD chunk, a segment several keys.
 */
#define KCHACHA_RNG_FIXED_RESEED_BYTES	12288
#define KCHACHA_RNG_FIXED_KEY_BYTES	4608

/* Domain constants of the absorbing cascade (little-endian ASCII). */
#define KCHACHA_RNG_DOM_SEED		0x64656573	/* "seed" */
#define KCHACHA_RNG_DOM_MIX		0x2078696d	/* "mix " */
#define KCHACHA_RNG_DOM_ADDTL		0x6c646461	/* "addl" */
#define KCHACHA_RNG_DOM_KAT		0x2074616b	/* "kat " */

/* In an instance's epoch: last reseeded before the kernel RNG was ready. */
#define KCHACHA_RNG_UNREADY		1UL

/* A point where the user-space tests may act; nothing in the kernel. */
#ifndef kchacha_rng_hook
#define kchacha_rng_hook(rng, where)	do { } while (0)
#endif

/**
 * struct kchacha_rng_slot - a sub-generator
 * @lock: held, softirqs off, for the whole of every request it serves
 * @pos: next unread byte of @buf; KCHACHA_RNG_BATCH when empty
 * @generation: the instance generation @key was derived in; 0: none yet
 * @left: bytes it may still hand out under keys of @generation
 * @key: the ChaCha20 key of the next refill
 * @buf: the batch, KCHACHA_RNG_BATCH bytes allocated at the first use
 *	(NULL before, and then @generation is 0); bytes before @pos are zero
 */
struct kchacha_rng_slot {
	spinlock_t lock;		/* softirqs off; never in hard irq */
	unsigned int pos;
	unsigned long generation;
	unsigned long left;
	u32 key[8];
	u8 *buf;
};

/**
 * struct kchacha_rng - one generator instance, the context of a tfm
 * @impl: the ChaCha implementation it runs on
 * @epoch: kchacha_rng_epoch when last reseeded, plus KCHACHA_RNG_UNREADY
 *	if the kernel RNG was not initialized then; written last by a reseed
 * @reseed_at: jiffies after which the next request reseeds
 * @generation: changes (never to 0) whenever @key is reseeded
 * @left: bytes the instance may still hand out from one-time keys of its
 *	own under @generation
 * @reseed_bytes: a generator's output under one generation, at most
 * @key_bytes: most output of one one-time key
 * @fixed_calls: entropy requests so far (deterministic instances)
 * @slot_mask: CPU n uses slot n & @slot_mask: one slot per CPU, up to
 *	KCHACHA_RNG_SLOTS (a power of two)
 * @fixed: deterministic (tests only)
 * @lock: protects @key, @generation, @reseed_at, @epoch, @left
 * @key: the instance key
 * @slots: the sub-generators
 */
struct kchacha_rng {
	const struct kchacha_impl *impl;
	unsigned long epoch;
	unsigned long reseed_at;
	unsigned long generation;
	unsigned long left;
	unsigned long reseed_bytes;
	unsigned int key_bytes;
	unsigned int fixed_calls;
	unsigned int slot_mask;
	bool fixed;
	spinlock_t lock;		/* the fields above it, @key */
	u32 key[8];
	struct kchacha_rng_slot slots[KCHACHA_RNG_SLOTS];
};

struct kchacha_rng_alg {
	struct rng_alg alg;
	const struct kchacha_impl *impl;
};

/* Nonce and counter of every keystream: each key is used once. */
static const u8 kchacha_rng_iv[KCHACHA_IV_SIZE];

/*
 * Advanced by 2 at every VM clone and every resume: an instance whose
 * epoch differs reseeds at its next request.
 */
static unsigned long kchacha_rng_epoch;

/* What the rng did, for tests and debugging (debugfs kchacha/rng). */
static struct {
	atomic_long_t reseeds;
	atomic_long_t vmfork_reseeds;
	atomic_long_t ready_reseeds;
	atomic_long_t vmforks;
	atomic_long_t resumes;
	atomic_long_t batches;
} kchacha_rng_stats;

/* The C core: what runs under a lock, with interrupts off. */
static const struct kchacha_impl *const kchacha_rng_c = &kchacha_impls[0];

static void kchacha_rng_load_key(u32 *key, const u8 *bytes)
{
	int i;

	for (i = 0; i < 8; i++)
		key[i] = get_unaligned_le32(bytes + 4 * i);
}

/*
 * key = the HChaCha20 cascade over (domain, len) and @data, keyed by key.
 * See the comment at the top of the file.  @impl is the C core wherever
 * interrupts may be off.
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
 * Is a reseed due?  The time has come; or a VM clone or a resume happened
 * since the last one; or the last one was before the kernel RNG was
 * initialized and it is now.  Deterministic instances reseed only on bytes
 * and seeds.
 */
static bool kchacha_rng_due(const struct kchacha_rng *rng)
{
	unsigned long epoch = READ_ONCE(rng->epoch);

	if (rng->fixed)
		return false;
	return time_after(jiffies, READ_ONCE(rng->reseed_at)) ||
	       (epoch & ~KCHACHA_RNG_UNREADY) != READ_ONCE(kchacha_rng_epoch) ||
	       ((epoch & KCHACHA_RNG_UNREADY) && rng_is_initialized());
}

/*
 * Mix @seed and fresh entropy into the instance key and start a new
 * generation.  With @if_due, only if kchacha_rng_due() (another CPU may
 * have reseeded meanwhile).  @seed is absorbed with @rng's implementation
 * outside any lock; the rest, under the lock, on the C core.
 */
static void kchacha_rng_reseed(struct kchacha_rng *rng, const u8 *seed,
			       unsigned int slen, bool if_due)
{
	/* before the entropy: a clone or resume after this reseeds again */
	unsigned long epoch = READ_ONCE(kchacha_rng_epoch);
	bool ready = rng_is_initialized();
	u8 fresh[KCHACHA_KEY_SIZE];
	bool vmfork, late, done;
	unsigned long flags, gen;
	u32 m[8];
	int i;

	kchacha_rng_entropy(rng, fresh);
	kchacha_rng_load_key(m, fresh);
	kchacha_rng_absorb(slen ? rng->impl : kchacha_rng_c, m,
			   KCHACHA_RNG_DOM_SEED, seed, slen);

	spin_lock_irqsave(&rng->lock, flags);
	vmfork = rng->generation &&
		 (rng->epoch & ~KCHACHA_RNG_UNREADY) != epoch;
	late = rng->generation && (rng->epoch & KCHACHA_RNG_UNREADY) && ready;
	done = !if_due || kchacha_rng_due(rng);
	if (done) {
		for (i = 0; i < 8; i++)
			m[i] ^= rng->key[i];
		kchacha_rng_absorb(kchacha_rng_c, m, KCHACHA_RNG_DOM_MIX,
				   NULL, 0);
		memcpy(rng->key, m, sizeof(rng->key));
		gen = rng->generation + 1;
		WRITE_ONCE(rng->generation, gen ? gen : 1);
		kchacha_rng_hook(rng, "reseed");
		rng->left = rng->reseed_bytes;
		if (!rng->fixed)
			WRITE_ONCE(rng->reseed_at, jiffies +
				   (ready ? KCHACHA_RNG_RESEED_SECS * HZ : HZ));
		/* last: whoever sees it sees the new generation */
		smp_store_release(&rng->epoch,
				  epoch | (ready ? 0 : KCHACHA_RNG_UNREADY));
	}
	spin_unlock_irqrestore(&rng->lock, flags);

	memzero_explicit(fresh, sizeof(fresh));
	memzero_explicit(m, sizeof(m));
	if (done && !rng->fixed) {
		atomic_long_inc(&kchacha_rng_stats.reseeds);
		if (vmfork)
			atomic_long_inc(&kchacha_rng_stats.vmfork_reseeds);
		if (late)
			atomic_long_inc(&kchacha_rng_stats.ready_reseeds);
	}
}

/* One ChaCha20 block of @key into @block, on the C core. */
static void kchacha_rng_block(const u32 *key, u8 *block)
{
	u32 state[KCHACHA_STATE_WORDS];

	memset(block, 0, KCHACHA_BLOCK_SIZE);
	kchacha_init_state(state, key, kchacha_rng_iv);
	kchacha_crypt(kchacha_rng_c, state, block, block, KCHACHA_BLOCK_SIZE,
		      20);
	memzero_explicit(state, sizeof(state));
}

/*
 * Fast key erasure of the instance key: one ChaCha20 block (C core, under
 * the lock), whose first 32 bytes become the new instance key and the next
 * 32 @key.  @count bytes to be produced under @key are charged to the
 * instance's own bound (its one-time keys; 0 for a sub-generator, which
 * counts its own), reseeding first if they would pass it.  Returns the
 * generation @key belongs to.
 */
static unsigned long kchacha_rng_derive(struct kchacha_rng *rng, u32 *key,
					unsigned int count)
{
	u8 block[KCHACHA_BLOCK_SIZE];
	unsigned long flags, gen;

	spin_lock_irqsave(&rng->lock, flags);
	while (unlikely(count > rng->left)) {
		spin_unlock_irqrestore(&rng->lock, flags);
		kchacha_rng_reseed(rng, NULL, 0, false);
		spin_lock_irqsave(&rng->lock, flags);
	}
	rng->left -= count;
	kchacha_rng_block(rng->key, block);
	kchacha_rng_load_key(rng->key, block);
	gen = rng->generation;
	spin_unlock_irqrestore(&rng->lock, flags);

	kchacha_rng_load_key(key, block + KCHACHA_KEY_SIZE);
	memzero_explicit(block, sizeof(block));
	return gen;
}

/* Key sub-generator @s (which has its batch) anew, dropping what it holds. */
static void kchacha_rng_rekey(struct kchacha_rng *rng,
			      struct kchacha_rng_slot *s)
{
	memzero_explicit(s->buf + s->pos, KCHACHA_RNG_BATCH - s->pos);
	s->pos = KCHACHA_RNG_BATCH;
	s->left = rng->reseed_bytes;
	s->generation = kchacha_rng_derive(rng, s->key, 0);
}

/*
 * Give @s its batch, at its first use (under its lock) or for a
 * deterministic instance at creation.  The caller may be in any context
 * but hard interrupt: no sleeping, no warning on failure (the instance
 * serves then).
 */
static bool kchacha_rng_batch_alloc(struct kchacha_rng_slot *s, gfp_t gfp)
{
	u8 *buf = kzalloc(KCHACHA_RNG_BATCH,
			  gfp | __GFP_ACCOUNT | __GFP_NOWARN);

	if (!buf)
		return false;
	s->buf = buf;
	atomic_long_inc(&kchacha_rng_stats.batches);
	return true;
}

/*
 * Refill the empty (all zero) batch of @s, under its lock, rekeying first
 * if the instance reseeded during the request, which is then charged
 * @count again, to the new generation.
 */
static void kchacha_rng_refill(struct kchacha_rng *rng,
			       struct kchacha_rng_slot *s, unsigned int count)
{
	u32 state[KCHACHA_STATE_WORDS];

	kchacha_rng_hook(rng, "refill");
	if (unlikely(s->generation != READ_ONCE(rng->generation))) {
		kchacha_rng_rekey(rng, s);
		s->left -= count;
	}
	kchacha_init_state(state, s->key, kchacha_rng_iv);
	kchacha_crypt(rng->impl, state, s->buf, s->buf, KCHACHA_RNG_BATCH, 20);
	kchacha_rng_load_key(s->key, s->buf);
	memzero_explicit(s->buf, KCHACHA_KEY_SIZE);
	memzero_explicit(state, sizeof(state));
	s->pos = KCHACHA_KEY_SIZE;
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

/*
 * Between two pieces of a long request: reschedule if the caller may
 * sleep.  Not in softirq or hard interrupt context, not under a spinlock
 * or with interrupts or preemption off (preemptible() is false there, and
 * always where the kernel keeps no preempt count), not in an RCU read-side
 * section.
 */
static inline void kchacha_rng_resched(void)
{
	if (preemptible() && !rcu_preempt_depth())
		cond_resched();
}

/*
 * @len bytes of ChaCha20 keystream under a one-time @key into @dst; with
 * @next, the block after them becomes the next one-time key (in @key).
 */
static void kchacha_rng_stream(const struct kchacha_impl *impl, u32 *key,
			       u8 *dst, unsigned int len, bool next)
{
	u32 state[KCHACHA_STATE_WORDS];
	u8 block[KCHACHA_BLOCK_SIZE];

	kchacha_init_state(state, key, kchacha_rng_iv);
	while (len) {
		unsigned int n = min_t(unsigned int, len, KCHACHA_SIMD_CHUNK);

		memset(dst, 0, n);
		kchacha_crypt(impl, state, dst, dst, n, 20);
		dst += n;
		len -= n;
	}
	if (next) {
		memset(block, 0, sizeof(block));
		kchacha_crypt(kchacha_rng_c, state, block, block,
			      sizeof(block), 20);
		kchacha_rng_load_key(key, block);
		memzero_explicit(block, sizeof(block));
	}
	memzero_explicit(state, sizeof(state));
}

/*
 * A request no sub-generator serves: the caller is in hard interrupt
 * context or has interrupts off, or no batch could be allocated.  A
 * one-time key from the instance (charged @count bytes, see
 * kchacha_rng_take()) serves it, on the C core where interrupts are off.
 */
static noinline void kchacha_rng_once(struct kchacha_rng *rng, u8 *dst,
				      unsigned int len, unsigned int count)
{
	u32 key[8];

	kchacha_rng_derive(rng, key, count);
	kchacha_rng_stream(irqs_disabled() ? kchacha_rng_c : rng->impl, key,
			   dst, len, false);
	memzero_explicit(key, sizeof(key));
}

/*
 * Under @s's lock: make @s ready to hand out @count bytes, allocating its
 * batch, rekeying and reseeding first as needed.  Returns false when there
 * is no memory for the batch.
 */
static noinline bool kchacha_rng_prepare(struct kchacha_rng *rng,
					 struct kchacha_rng_slot *s,
					 unsigned int count)
	__must_hold(&s->lock)
{
	if (unlikely(!s->buf) && !kchacha_rng_batch_alloc(s, GFP_NOWAIT))
		return false;
	if (s->generation != READ_ONCE(rng->generation))
		kchacha_rng_rekey(rng, s);
	if (count > s->left) {
		kchacha_rng_reseed(rng, NULL, 0, false);
		kchacha_rng_rekey(rng, s);
	}
	return true;
}

/*
 * Hand out @len bytes of this CPU's batch, wiping them, and charge @count
 * bytes to the sub-generator: @len, or the output of the one-time key the
 * caller takes.  If that would take it past the byte bound, reseed first.
 * Inline: the call costs small requests some 10% (`make bench`).
 */
static __always_inline void kchacha_rng_take(struct kchacha_rng *rng, u8 *dst,
					     unsigned int len,
					     unsigned int count)
{
	/* this CPU's slot; slot 0 for deterministic instances */
	struct kchacha_rng_slot *s =
		&rng->slots[raw_smp_processor_id() & rng->slot_mask];

	if (unlikely(irqs_disabled() || in_hardirq()))
		goto once;
	spin_lock_bh(&s->lock);
	if (unlikely(count > s->left ||
		     s->generation != READ_ONCE(rng->generation)) &&
	    !kchacha_rng_prepare(rng, s, count)) {
		spin_unlock_bh(&s->lock);
		goto once;
	}
	s->left -= count;
	for (;;) {
		unsigned int n = min_t(unsigned int, len,
				       KCHACHA_RNG_BATCH - s->pos);

		kchacha_rng_move(dst, s->buf + s->pos, n);
		s->pos += n;
		dst += n;
		len -= n;
		if (!len)
			break;
		kchacha_rng_refill(rng, s, count);
	}
	spin_unlock_bh(&s->lock);
	return;

once:
	kchacha_rng_once(rng, dst, len, count);
}

/*
 * A request with additional input or of KCHACHA_RNG_DIRECT bytes or more,
 * in segments of at most the byte bound: each takes one one-time key from
 * the batch (one lock) and is charged in full to the sub-generator; within
 * a segment every @key_bytes the key is replaced by fast key erasure of its
 * own stream, with a chance to reschedule in between.
 */
static noinline void kchacha_rng_direct(struct kchacha_rng *rng,
					const u8 *src, unsigned int slen,
					u8 *dst, unsigned int dlen)
{
	/* a caller with interrupts off gets the C core, as in once() */
	const struct kchacha_impl *impl = irqs_disabled() ? kchacha_rng_c :
							    rng->impl;
	u8 bytes[KCHACHA_KEY_SIZE];
	u32 key[8];

	while (dlen) {
		unsigned int seg = min_t(unsigned long, dlen, rng->reseed_bytes);

		kchacha_rng_take(rng, bytes, sizeof(bytes), seg);
		kchacha_rng_load_key(key, bytes);
		if (slen)
			kchacha_rng_absorb(impl, key, KCHACHA_RNG_DOM_ADDTL,
					   src, slen);
		dlen -= seg;
		while (seg) {
			unsigned int n = min(seg, rng->key_bytes);

			kchacha_rng_stream(impl, key, dst, n, n < seg);
			dst += n;
			seg -= n;
			if (seg || dlen)
				kchacha_rng_resched();
		}
	}
	memzero_explicit(bytes, sizeof(bytes));
	memzero_explicit(key, sizeof(key));
}

/*
 * The epoch changed or the reseed time passed: reseed if due.  Nothing is
 * stored when it is not, so a clone or resume after the test is seen by
 * the next request.
 */
static noinline void kchacha_rng_check(struct kchacha_rng *rng)
{
	bool due;

	kchacha_rng_hook(rng, "decide");
	due = kchacha_rng_due(rng);
	kchacha_rng_hook(rng, "check");
	if (due)
		kchacha_rng_reseed(rng, NULL, 0, true);
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
 * gets bytes nobody else gets.  A long request reschedules between pieces
 * of KCHACHA_RNG_KEY_BYTES where its caller may sleep.
 *
 * Return: 0.
 */
int kchacha_rng_generate(struct kchacha_rng *rng, const u8 *src,
			 unsigned int slen, u8 *dst, unsigned int dlen)
{
	if (unlikely(!dlen))
		return 0;
	/* acquire: pairs with the reseed's release, for its generation */
	if (unlikely(smp_load_acquire(&rng->epoch) !=
		     READ_ONCE(kchacha_rng_epoch) ||
		     time_after(jiffies, READ_ONCE(rng->reseed_at))))
		kchacha_rng_check(rng);

	if (likely(!slen && dlen < KCHACHA_RNG_DIRECT))
		kchacha_rng_take(rng, dst, dlen, dlen);
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

/* No batch allocated but, for deterministic instances, slot 0's. */
static int kchacha_rng_init(struct kchacha_rng *rng,
			    const struct kchacha_impl *impl, bool fixed)
{
	unsigned int i, n = min_t(unsigned int, nr_cpu_ids, KCHACHA_RNG_SLOTS);

	rng->impl = impl;
	rng->fixed = fixed;
	rng->reseed_bytes = fixed ? KCHACHA_RNG_FIXED_RESEED_BYTES :
			    KCHACHA_RNG_RESEED_BYTES;
	rng->key_bytes = fixed ? KCHACHA_RNG_FIXED_KEY_BYTES :
			 KCHACHA_RNG_KEY_BYTES;
	for (rng->slot_mask = 1; !fixed && rng->slot_mask * 2 <= n;)
		rng->slot_mask *= 2;
	rng->slot_mask--;
	spin_lock_init(&rng->lock);
	for (i = 0; i < KCHACHA_RNG_SLOTS; i++) {
		spin_lock_init(&rng->slots[i].lock);
		rng->slots[i].pos = KCHACHA_RNG_BATCH;
	}
	if (fixed) {
		if (!kchacha_rng_batch_alloc(&rng->slots[0], GFP_KERNEL))
			return -ENOMEM;
		/* deterministic: never reseeds on time */
		rng->reseed_at = jiffies + MAX_JIFFY_OFFSET;
	}
	kchacha_rng_reseed(rng, NULL, 0, false);
	return 0;
}

static void kchacha_rng_exit(struct kchacha_rng *rng)
{
	unsigned int i;

	for (i = 0; i < KCHACHA_RNG_SLOTS; i++) {
		if (rng->slots[i].buf) {
			kfree_sensitive(rng->slots[i].buf);
			atomic_long_dec(&kchacha_rng_stats.batches);
		}
	}
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

/* Every instance reseeds at its next request. */
static void kchacha_rng_new_epoch(atomic_long_t *counter)
{
	WRITE_ONCE(kchacha_rng_epoch, kchacha_rng_epoch + 2);
	atomic_long_inc(counter);
}

/*
 * A VM clone or a restored snapshot: the kernel RNG has been reseeded with
 * the new VM's identity.
 */
static int kchacha_rng_vmfork(struct notifier_block *nb, unsigned long action,
			      void *data)
{
	kchacha_rng_new_epoch(&kchacha_rng_stats.vmforks);
	return NOTIFY_DONE;
}

static struct notifier_block kchacha_rng_vmfork_nb = {
	.notifier_call = kchacha_rng_vmfork,
};

/*
 * Back from suspend or hibernation: the same memory may be resumed more
 * than once (an image, a snapshot of a suspended VM), and what was handed
 * out after the image was taken must not come again.  The kernel RNG
 * reseeds (or mixes in the time) on the same notifications.
 */
static int kchacha_rng_pm(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	if (action == PM_POST_SUSPEND || action == PM_POST_HIBERNATION)
		kchacha_rng_new_epoch(&kchacha_rng_stats.resumes);
	return NOTIFY_DONE;
}

static struct notifier_block kchacha_rng_pm_nb = {
	.notifier_call = kchacha_rng_pm,
	/* after the kernel RNG's own (priority 0) */
	.priority = -1,
};

#ifdef CONFIG_DEBUG_FS
static struct dentry *kchacha_rng_debugfs;

static int kchacha_rng_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "reseeds %ld\nvmfork_reseeds %ld\nready_reseeds %ld\nvmforks %ld\nresumes %ld\nbatches %ld\nbatch_bytes %d\n",
		   atomic_long_read(&kchacha_rng_stats.reseeds),
		   atomic_long_read(&kchacha_rng_stats.vmfork_reseeds),
		   atomic_long_read(&kchacha_rng_stats.ready_reseeds),
		   atomic_long_read(&kchacha_rng_stats.vmforks),
		   atomic_long_read(&kchacha_rng_stats.resumes),
		   atomic_long_read(&kchacha_rng_stats.batches),
		   KCHACHA_RNG_BATCH);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kchacha_rng_stats);
#endif

/**
 * kchacha_rng_init_module() - module-wide rng setup, before registration
 *
 * Registers the vmfork notifier (a no-op without CONFIG_VMGENID), the PM
 * notifier (a no-op without CONFIG_PM_SLEEP) and the debugfs file
 * kchacha/rng with the rng's counters.
 *
 * Return: 0 or a negative errno.
 */
int kchacha_rng_init_module(void)
{
	int err = register_random_vmfork_notifier(&kchacha_rng_vmfork_nb);

	if (err)
		return err;
	err = register_pm_notifier(&kchacha_rng_pm_nb);
	if (err) {
		unregister_random_vmfork_notifier(&kchacha_rng_vmfork_nb);
		return err;
	}
#ifdef CONFIG_DEBUG_FS
	kchacha_rng_debugfs = debugfs_create_dir("kchacha", NULL);
	debugfs_create_file("rng", 0444, kchacha_rng_debugfs, NULL,
			    &kchacha_rng_stats_fops);
#endif
	return 0;
}

/**
 * kchacha_rng_exit_module() - undo kchacha_rng_init_module()
 */
void kchacha_rng_exit_module(void)
{
#ifdef CONFIG_DEBUG_FS
	debugfs_remove_recursive(kchacha_rng_debugfs);
#endif
	unregister_pm_notifier(&kchacha_rng_pm_nb);
	unregister_random_vmfork_notifier(&kchacha_rng_vmfork_nb);
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
	{ KCHACHA_RNG_SEED, 45 }, { KCHACHA_RNG_GEN, 13000 },
	{ KCHACHA_RNG_ADDTL, 600 }, { KCHACHA_RNG_GEN, 17 },
};

/* Bytes of the script's seed and additional input. */
#define KCHACHA_RNG_KAT_INPUT	64
/* Additional input of the script's KCHACHA_RNG_ADDTL steps. */
#define KCHACHA_RNG_KAT_ADDTL	23

/* The HChaCha20 cascade of the script's output under the zero key. */
static const u8 kchacha_rng_kat_digest[32] =
	"\x55\xaf\xec\x17\xec\xdc\xf9\xa0\x0e\x32\x50\xa4\x85\x09\x85\xd4"
	"\xaf\xe7\x52\xdc\x2a\x37\x0d\x72\x9e\x3a\x33\x0c\xad\x5d\x2d\x8a";

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
