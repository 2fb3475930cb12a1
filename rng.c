// SPDX-License-Identifier: GPL-2.0-only
/*
 * chacha20rng: a ChaCha20 fast-key-erasure stdrng per implementation, in
 * the kernel CRNG's shape (drivers/char/random.c; doc/rng.md, "Design").
 *
 * An instance has a key K.  Each CPU has one state, shared by every
 * instance: a 1 KiB buffer of keystream (its last 32 bytes the CPU key C),
 * the instance and generation of the K it comes from, and a spare buffer.
 * Invariants, under the CPU's local_lock_irqsave():
 *  - K keys only C: one C-core block of K (instance spinlock held), its
 *    halves the new K and C, where the CPU has no C of its generation.
 *  - C keys only a refill: taken out of the state, its stream (locks
 *    dropped, the task kept on its CPU; SIMD where interrupts are on)
 *    fills the spare, which becomes the buffer if the state has no C of
 *    its generation yet.  The spare is all zeros but while a refill has
 *    it; then a request that needs one takes a one-time key (below), of K
 *    where the buffer has too few bytes.
 *  - The buffer's other bytes were never handed out, and are wiped as they
 *    leave: to a request that fits (the fast path), or, 32 at a time, as
 *    the one-time key of a longer request or one with additional input
 *    (its digest mixed in), whose stream goes straight to the caller, in
 *    64 KiB pieces, cond_resched() between them where the caller may sleep.
 *  - A reseed: K = F_(K ^ m)(), m an HChaCha20 cascade (C core) over the
 *    seed and this moment (clocks, cycles, arch seed) keyed by
 *    get_random_bytes(); the new generation makes every CPU drop its state
 *    at its next request.  Reseeds run unlocked, before a request: on
 *    seed(); 60 s after the last (1 s while the kernel RNG is unready;
 *    64-bit jiffies); a new epoch (vmfork, syscore resume before tasks
 *    thaw, PM notifier; release, read with acquire before the entropy);
 *    the kernel RNG becoming ready; or where a CPU would hand out more than
 *    1 MiB under one K (the request drops its lock, reseeds, starts again).
 * One path for every context; on PREEMPT_RT the locks sleep, so generate()
 * serves the contexts that may take a spinlock_t (rng_glue.c: the rest).
 */
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>
#include "kchacha_compat.h"
#include "kchacha_rng.h"

#define KCHACHA_RNG_OUT		(KCHACHA_RNG_BUF - KCHACHA_KEY_SIZE)
#define KCHACHA_RNG_PIECE	(64 * 1024)	/* per key, between resched */
#define KCHACHA_RNG_RESEED_BYTES (1024 * 1024)	/* per CPU and generation */
#define KCHACHA_RNG_RESEED_SECS	60		/* between reseeds, at most */
#define KCHACHA_RNG_DOM_SEED	0x64656573	/* "seed" */
#define KCHACHA_RNG_DOM_NOW	0x20776f6e	/* "now " */
#define KCHACHA_RNG_DOM_MIX	0x2078696d	/* "mix " */
#define KCHACHA_RNG_DOM_ADDTL	0x6c646461	/* "addl" */
#define KCHACHA_RNG_UNREADY	1UL	/* in an epoch: reseeded before ready */

static const u8 kchacha_rng_iv[KCHACHA_IV_SIZE];	/* each key used once */
static const u8 kchacha_rng_zero[KCHACHA_SIMD_CHUNK];	/* XORed: keystream */
atomic_long_t kchacha_rng_epoch;
/* the CPU states every instance shares, while there is one; ids */
static DEFINE_MUTEX(kchacha_rng_mutex);
static struct kchacha_rng_cpu __percpu *kchacha_rng_cpus;
static unsigned int kchacha_rng_users;
static u64 kchacha_rng_ids;
/* the C core, for what runs with interrupts off */
static const struct kchacha_impl *const kchacha_rng_c = &kchacha_impls[0];
#define kchacha_rng_impl(rng)	(irqs_disabled() ? kchacha_rng_c : (rng)->impl)
atomic_long_t kchacha_rng_stats[KC_NSTATS];

static u8 *kchacha_rng_buf(struct kchacha_rng_cpu *p)
{
	return p->bufs[p->cur];
}

static void kchacha_rng_load_key(u32 *key, const u8 *bytes)
{
	int i;

	for (i = 0; i < 8; i++)
		key[i] = get_unaligned_le32(bytes + 4 * i);
}

/* key = the HChaCha20 cascade (C core) over (domain, len), @p; keyed by key */
void kchacha_rng_absorb(u32 *key, u32 domain, const u8 *p, unsigned int len)
{
	u32 state[KCHACHA_STATE_WORDS];
	u8 block[16];

	put_unaligned_le32(domain, block);
	put_unaligned_le32(len, block + 4);
	memset(block + 8, 0, 8);
	for (;;) {
		unsigned int n = min_t(unsigned int, len, sizeof(block));

		kchacha_init_state(state, key, block);
		kchacha_generic_hchacha(state, key, 20);
		if (!len)
			break;
		memcpy(block, p, n);
		memset(block + n, 0, sizeof(block) - n);
		p += n;
		len -= n;
	}
	memzero_explicit(state, sizeof(state));
	memzero_explicit(block, sizeof(block));
}

/* Fast key erasure, C core: @key = block[0..32), @out = block[32..64). */
static void kchacha_rng_erase(u32 *key, u8 *out)
{
	u32 state[KCHACHA_STATE_WORDS];
	u8 block[KCHACHA_BLOCK_SIZE] = { };

	kchacha_init_state(state, key, kchacha_rng_iv);
	kchacha_generic_xor(state, block, block, sizeof(block), 20);
	kchacha_rng_load_key(key, block);
	memcpy(out, block + KCHACHA_KEY_SIZE, KCHACHA_KEY_SIZE);
	memzero_explicit(block, sizeof(block));
	memzero_explicit(state, sizeof(state));
}

/* The time has come, the epoch moved, or the kernel RNG became ready. */
static __always_inline bool kchacha_rng_due(const struct kchacha_rng *rng)
{
	unsigned long epoch = READ_ONCE(rng->epoch);

	return time_after64(get_jiffies_64(), READ_ONCE(rng->reseed_at)) ||
	       (epoch & ~KCHACHA_RNG_UNREADY) !=
			(unsigned long)atomic_long_read(&kchacha_rng_epoch) ||
	       ((epoch & KCHACHA_RNG_UNREADY) && rng_is_initialized());
}

/*
 * key = F_(key ^ m)(), m the cascade under @fresh over @seed, then @now;
 * with @if_due only if still due (another CPU may have reseeded).
 */
bool kchacha_rng_mix(struct kchacha_rng *rng, const u8 *fresh,
		     const u8 *seed, unsigned int slen, const u8 *now,
		     unsigned int nlen, unsigned long epoch, bool if_due)
{
	unsigned long flags;
	bool done;
	u32 m[8];
	int i;

	kchacha_rng_load_key(m, fresh);
	kchacha_rng_absorb(m, KCHACHA_RNG_DOM_SEED, seed, slen);
	kchacha_rng_absorb(m, KCHACHA_RNG_DOM_NOW, now, nlen);
	spin_lock_irqsave(&rng->lock, flags);
	done = !if_due || kchacha_rng_due(rng);
	if (done) {
		for (i = 0; i < 8; i++)
			m[i] ^= rng->key[i];
		kchacha_rng_absorb(m, KCHACHA_RNG_DOM_MIX, NULL, 0);
		memcpy(rng->key, m, sizeof(rng->key));
		WRITE_ONCE(rng->generation, rng->generation + 1);
		WRITE_ONCE(rng->reseed_at, get_jiffies_64() +
			   (epoch & KCHACHA_RNG_UNREADY ? HZ :
			    KCHACHA_RNG_RESEED_SECS * HZ));
		WRITE_ONCE(rng->epoch, epoch);
	}
	spin_unlock_irqrestore(&rng->lock, flags);
	memzero_explicit(m, sizeof(m));
	return done;
}

/* Reseed from get_random_bytes() and @seed; with @if_due, if still due. */
static void kchacha_rng_reseed(struct kchacha_rng *rng, const u8 *seed,
			       unsigned int slen, bool if_due)
{
	/* acquire: the entropy below is at least as new as this epoch */
	unsigned long epoch = atomic_long_read_acquire(&kchacha_rng_epoch);
	struct { u64 real, boot; unsigned long cycles, seed[4]; } now = {
		.real = ktime_get_real_ns(), .boot = ktime_get_boottime_ns(),
		.cycles = random_get_entropy() };	/* unique to this moment */
	u8 fresh[KCHACHA_KEY_SIZE];

	if (!rng_is_initialized())
		epoch |= KCHACHA_RNG_UNREADY;
	get_random_bytes(fresh, sizeof(fresh));
	if (!kchacha_arch_seed(now.seed, ARRAY_SIZE(now.seed)))
		now.seed[0] = random_get_entropy();
	if (kchacha_rng_mix(rng, fresh, seed, slen, (const u8 *)&now,
			    sizeof(now), epoch, if_due))
		atomic_long_inc(&kchacha_rng_stats[KC_RESEEDS]);
	memzero_explicit(fresh, sizeof(fresh));
	memzero_explicit(&now, sizeof(now));
}

/* Under @p's lock: @p made @rng's current state, another's dropped. */
static void kchacha_rng_own(struct kchacha_rng *rng, struct kchacha_rng_cpu *p)
{
	lockdep_assert_held(&p->lock);
	if (likely(p->id == rng->id &&
		   p->generation == READ_ONCE(rng->generation)))
		return;
	memzero_explicit(kchacha_rng_buf(p), KCHACHA_RNG_BUF);
	p->pos = KCHACHA_RNG_OUT;
	p->keyed = false;
	p->id = rng->id;
	p->generation = READ_ONCE(rng->generation);
	p->left = KCHACHA_RNG_RESEED_BYTES;
}

/* Under @p's lock: @n bytes of the buffer to @dst, wiped there. */
static void kchacha_rng_serve(struct kchacha_rng_cpu *p, u8 *dst,
			      unsigned int n)
{
	lockdep_assert_held(&p->lock);
	memcpy(dst, kchacha_rng_buf(p) + p->pos, n);
	memzero_explicit(kchacha_rng_buf(p) + p->pos, n);
	p->pos += n;
	p->left -= n;
}

/*
 * Under @p's lock, @p @rng's: the CPU key into @key, taken out of @p, or
 * where @p has none, by erasure of the instance key; the rest of the
 * buffer dropped.  Returns @p's generation.
 */
static unsigned long kchacha_rng_take(struct kchacha_rng *rng,
				      struct kchacha_rng_cpu *p, u32 *key)
{
	u8 *c = kchacha_rng_buf(p) + KCHACHA_RNG_OUT;
	unsigned long flags;

	lockdep_assert_held(&p->lock);
	if (!p->keyed) {
		spin_lock_irqsave(&rng->lock, flags);
		kchacha_rng_erase(rng->key, c);
		if (p->generation != rng->generation) {	/* just reseeded */
			p->generation = rng->generation;
			p->left = KCHACHA_RNG_RESEED_BYTES;
		}
		spin_unlock_irqrestore(&rng->lock, flags);
	}
	kchacha_rng_load_key(key, c);
	memzero_explicit(kchacha_rng_buf(p) + p->pos, KCHACHA_RNG_BUF - p->pos);
	p->pos = KCHACHA_RNG_OUT;
	p->keyed = false;
	return p->generation;
}

/*
 * @len bytes of @key's stream into @dst, the key wiped first (SIMD only
 * with interrupts on, in sections of at most KCHACHA_SIMD_CHUNK bytes)
 */
static void kchacha_rng_stream(struct kchacha_rng *rng, u32 *key, u8 *dst,
			       unsigned int len)
{
	const struct kchacha_impl *impl = kchacha_rng_impl(rng);
	u32 state[KCHACHA_STATE_WORDS];
	unsigned int n;

	kchacha_init_state(state, key, kchacha_rng_iv);
	memzero_explicit(key, KCHACHA_KEY_SIZE);
	for (; len; len -= n, dst += n) {
		n = min_t(unsigned int, len, KCHACHA_SIMD_CHUNK);
		kchacha_crypt(impl, state, dst, kchacha_rng_zero, n, 20);
	}
	memzero_explicit(state, sizeof(state));
}

/*
 * What the buffer could not serve on the fast path.  A request the buffer
 * can hold takes what is left of it, then what a refill brings.  A longer
 * one, one with additional input @src, or one that finds the spare taken,
 * goes in pieces, each the stream of a one-time key: 32 bytes of the
 * buffer (a digest of @src mixed in), after a refill where fewer are left.
 */
static noinline void kchacha_rng_slow(struct kchacha_rng *rng, const u8 *src,
				      unsigned int slen, u8 *dst,
				      unsigned int len)
{
	bool fill = !slen && len <= KCHACHA_RNG_OUT;
	u32 key[8], add[8] = { };
	struct kchacha_rng_cpu *p;
	unsigned long flags, gen;
	unsigned int n;
	int i;

	local_lock_irqsave(&rng->cpus->lock, flags);
	while (len) {
		p = this_cpu_ptr(rng->cpus);
		kchacha_rng_own(rng, p);
		n = fill ? len : min(len, KCHACHA_RNG_PIECE);
		if (n > p->left) {	/* the bound: reseed, unlocked */
			local_unlock_irqrestore(&rng->cpus->lock, flags);
			kchacha_rng_reseed(rng, NULL, 0, false);
			local_lock_irqsave(&rng->cpus->lock, flags);
			continue;
		}
		if (fill && p->pos < KCHACHA_RNG_OUT) {
			n = min(len, KCHACHA_RNG_OUT - p->pos);
			kchacha_rng_serve(p, dst, n);
			dst += n;
			len -= n;
			continue;
		}
		if ((!fill || p->filling) &&
		    p->pos + KCHACHA_KEY_SIZE <= KCHACHA_RNG_OUT) {
			kchacha_rng_load_key(key, kchacha_rng_buf(p) + p->pos);
			memzero_explicit(kchacha_rng_buf(p) + p->pos,
					 KCHACHA_KEY_SIZE);
			p->pos += KCHACHA_KEY_SIZE;
		} else if (p->filling) {
			kchacha_rng_take(rng, p, key);
		} else {	/* a refill, into the spare */
			gen = kchacha_rng_take(rng, p, key);
			p->filling = true;
			migrate_disable();
			local_unlock_irqrestore(&rng->cpus->lock, flags);
			kchacha_rng_stream(rng, key, p->bufs[!p->cur],
					   KCHACHA_RNG_BUF);
			local_lock_irqsave(&rng->cpus->lock, flags);
			migrate_enable();
			p->filling = false;
			kchacha_rng_own(rng, p);
			if (!p->keyed && p->generation == gen) {
				p->cur ^= 1;	/* the buffer, all zeros */
				p->pos = 0;
				p->keyed = true;
			} else {
				memzero_explicit(p->bufs[!p->cur],
						 KCHACHA_RNG_BUF);
			}
			continue;
		}
		p->left -= n;	/* a one-time key's stream */
		local_unlock_irqrestore(&rng->cpus->lock, flags);
		if (src)	/* once per request */
			kchacha_rng_absorb(add, KCHACHA_RNG_DOM_ADDTL, src, slen);
		src = NULL;
		for (i = 0; slen && i < 8; i++)
			key[i] ^= add[i];
		if (slen)
			kchacha_rng_absorb(key, KCHACHA_RNG_DOM_ADDTL, NULL, 0);
		kchacha_rng_stream(rng, key, dst, n);
		dst += n;
		len -= n;
		if (len && preemptible() && !rcu_preempt_depth())
			cond_resched();
		local_lock_irqsave(&rng->cpus->lock, flags);
	}
	local_unlock_irqrestore(&rng->cpus->lock, flags);
	memzero_explicit(add, sizeof(add));
}

/* generate() but for the reseed checks (what the self-test runs) */
__always_inline void kchacha_rng_get(struct kchacha_rng *rng, const u8 *src,
				     unsigned int slen, u8 *dst, unsigned int dlen)
{
	struct kchacha_rng_cpu *p;
	unsigned long flags;

	local_lock_irqsave(&rng->cpus->lock, flags);
	p = this_cpu_ptr(rng->cpus);
	if (likely(!slen && p->id == rng->id &&
		   p->generation == READ_ONCE(rng->generation) &&
		   dlen <= KCHACHA_RNG_OUT - p->pos && dlen <= p->left)) {
		kchacha_rng_serve(p, dst, dlen);
		local_unlock_irqrestore(&rng->cpus->lock, flags);
		return;
	}
	local_unlock_irqrestore(&rng->cpus->lock, flags);
	kchacha_rng_slow(rng, src, slen, dst, dlen);
}

/* Random bytes, in any context; @src, additional input, may be NULL. */
int kchacha_rng_generate(struct crypto_rng *tfm, const u8 *src,
			 unsigned int slen, u8 *dst, unsigned int dlen)
{
	struct kchacha_rng *rng = crypto_rng_ctx(tfm);

	if (unlikely(!dlen))
		return 0;
	if (unlikely(kchacha_rng_due(rng)))
		kchacha_rng_reseed(rng, NULL, 0, true);
	kchacha_rng_get(rng, src, slen, dst, dlen);
	return 0;
}

/* Reseed now, mixing in @seed (may be NULL); test entropy is a seed too */
int kchacha_rng_seed(struct crypto_rng *tfm, const u8 *seed,
		     unsigned int slen)
{
	kchacha_rng_reseed(crypto_rng_ctx(tfm), seed, slen, false);
	return 0;
}

static struct kchacha_rng_cpu __percpu *kchacha_rng_cpus_alloc(void)
{
	struct kchacha_rng_cpu __percpu *cpus;
	int cpu;

	cpus = alloc_percpu(struct kchacha_rng_cpu);
	if (cpus)
		for_each_possible_cpu(cpu)
			local_lock_init(&per_cpu_ptr(cpus, cpu)->lock);
	return cpus;
}

static void kchacha_rng_cpus_free(struct kchacha_rng_cpu __percpu *cpus)
{
	int cpu;

	if (!cpus)
		return;
	for_each_possible_cpu(cpu)
		memzero_explicit(per_cpu_ptr(cpus, cpu), sizeof(*cpus));
	free_percpu(cpus);
}

/* An instance on the shared CPU states, or (@own) on states of its own. */
int kchacha_rng_init(struct kchacha_rng *rng, const struct kchacha_impl *impl,
		     bool own)
{
	rng->impl = impl;
	spin_lock_init(&rng->lock);
	mutex_lock(&kchacha_rng_mutex);
	if (!own && !kchacha_rng_users)
		kchacha_rng_cpus = kchacha_rng_cpus_alloc();
	rng->cpus = own ? kchacha_rng_cpus_alloc() : kchacha_rng_cpus;
	kchacha_rng_users += rng->cpus && !own;
	rng->id = ++kchacha_rng_ids;
	mutex_unlock(&kchacha_rng_mutex);
	if (!rng->cpus)
		return -ENOMEM;
	kchacha_rng_reseed(rng, NULL, 0, false);
	return 0;
}

void kchacha_rng_exit(struct kchacha_rng *rng)
{
	mutex_lock(&kchacha_rng_mutex);
	if (rng->cpus != kchacha_rng_cpus) {
		kchacha_rng_cpus_free(rng->cpus);
	} else if (rng->cpus && !--kchacha_rng_users) {
		kchacha_rng_cpus_free(kchacha_rng_cpus);
		kchacha_rng_cpus = NULL;
	}
	mutex_unlock(&kchacha_rng_mutex);
	memzero_explicit(rng, sizeof(*rng));
}

