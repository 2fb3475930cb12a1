// SPDX-License-Identifier: GPL-2.0-only
/*
 * chacha20rng: a ChaCha20 fast-key-erasure "stdrng" on every implementation
 * kchacha registers, driver chacha20rng-kchacha-<impl>, in the shape of the
 * kernel's own CRNG (drivers/char/random.c).
 *
 * Keys.  An instance (one tfm) holds a 256-bit key and a generation that
 * changes whenever a reseed replaces it.  Each possible CPU has a state of
 * its own, allocated with the instance on cache lines of its own: a key,
 * the generation it was derived in, the bytes it may still hand out, and a
 * small buffer of keystream.  Every request compares the CPU's generation
 * with the instance's; when it is stale, the CPU's key is derived anew by
 * fast key erasure of the instance key (one ChaCha20 block under the
 * instance lock: the first 32 bytes replace the instance key, the next 32
 * become the CPU's), and what the buffer held is dropped.
 *
 * Output.  A request holds its CPU's local_lock_irqsave() only to take
 * what it needs: bytes from the buffer, or a 32-byte one-time key (from
 * the buffer, or by fast key erasure of the CPU key: one block, first half
 * the new CPU key).  ChaCha20 under the one-time key then runs with the
 * lock dropped, with the implementation's SIMD where the caller has
 * interrupts on (crypto_simd_usable() decides the rest) and on the C core
 * where they are off, in pieces of KCHACHA_RNG_KEY_BYTES: after each, the
 * block that follows replaces the key, and a caller that may sleep gets a
 * cond_resched().  A short request that the buffer cannot serve runs
 * KCHACHA_RNG_BUF bytes of keystream under its one-time key, keeps what it
 * asked for, and leaves the rest in the buffer of the CPU it ends on if
 * that is empty and of the same generation; bytes are wiped from the
 * buffer as they leave.  So the state never holds a key or a byte already
 * returned, the same path serves every context (task, softirq, hard
 * interrupt, interrupts off), and nothing SIMD runs with interrupts off or
 * under a lock.  On PREEMPT_RT the locks sleep, so there generate() is for
 * the contexts that may take a spinlock_t.
 *
 * Mixing.  Input of any length is absorbed by a cascade of HChaCha20 keyed
 * by the secret being updated: a header (a domain constant and the length)
 * and then each 16-byte block of input, zero padded, become in turn the
 * nonce of an HChaCha20 whose output is the next key; the length makes the
 * encoding prefix-free, so the cascade is a PRF of the input.  A reseed
 * takes 32 bytes R from get_random_bytes(), absorbs under R the caller's
 * seed and then this moment's clocks, cycle counter and arch seed, giving
 * m; then key = F_(key XOR m)(empty).  While R is secret the new key is
 * pseudorandom whatever the seed; while the old key is, so is the new.
 * The clocks make the reseed after a resume unique to that resume: after
 * a hibernation image is restored, get_random_bytes() too starts from the
 * image's state.  generate()'s additional input is absorbed into its
 * one-time key.
 *
 * Reseeding.  seed() and set_ent() reseed at once.  Each request checks:
 * the time, KCHACHA_RNG_RESEED_SECS after the last reseed (every second
 * while the kernel RNG is not initialized), on 64-bit jiffies; the epoch,
 * which a VM clone (vmfork notifier) and a resume (syscore resume, on one
 * CPU with interrupts off before any task runs, and the PM notifier after)
 * advance; and the first request after the kernel RNG became initialized,
 * if the last reseed was before.  The reseed reads the epoch with acquire
 * before it fetches entropy, and the notifiers advance it with release
 * after the kernel RNG has been reseeded, so an epoch recorded goes with
 * entropy at least that new.  Bytes: each CPU counts its output as it
 * leaves, buffered bytes as taken and a one-time key's whole piece when
 * the key is taken, under its lock, and one that would pass
 * KCHACHA_RNG_RESEED_BYTES under one generation reseeds the instance
 * first: no CPU hands out more than that between two reseeds.
 *
 * Memory: the context (under 128 bytes) and one struct kchacha_rng_pcpu
 * (576 bytes on 64-bit, KCHACHA_RNG_BUF of them the buffer) per possible
 * CPU, charged to the memory cgroup of the creator; all wiped when freed.
 */
#include <crypto/internal/rng.h>
#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/local_lock.h>
#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/suspend.h>
#include <linux/syscore_ops.h>
#include <linux/timekeeping.h>
#include <linux/timex.h>
#ifdef CONFIG_DEBUG_FS
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#endif

#include "kchacha_compat.h"
#include "kchacha.h"

/* Keystream per refill of a CPU's buffer: the one-time key's output. */
#define KCHACHA_RNG_BUF			512
/* Requests this long or longer, or with additional input, bypass it. */
#define KCHACHA_RNG_DIRECT		256
/* Most output per one-time key, and between chances to reschedule. */
#define KCHACHA_RNG_KEY_BYTES		(64 * 1024)
/* Reseed bounds: output of one CPU under one generation, and time. */
#define KCHACHA_RNG_RESEED_BYTES	(1024 * 1024)
#define KCHACHA_RNG_RESEED_SECS		60

/* Domain constants of the cascade (little-endian ASCII). */
#define KCHACHA_RNG_DOM_SEED		0x64656573	/* "seed" */
#define KCHACHA_RNG_DOM_NOW		0x20776f6e	/* "now " */
#define KCHACHA_RNG_DOM_MIX		0x2078696d	/* "mix " */
#define KCHACHA_RNG_DOM_ADDTL		0x6c646461	/* "addl" */
#define KCHACHA_RNG_DOM_KAT		0x2074616b	/* "kat " */

/* In an instance's epoch: last reseeded before the kernel RNG was ready. */
#define KCHACHA_RNG_UNREADY		1UL

/**
 * struct kchacha_rng_pcpu - one CPU's state of an instance
 * @lock: local_lock_irqsave() around every access
 * @generation: the instance generation @key was derived in; 0: none
 * @left: bytes it may still hand out under @generation
 * @pos: next unread byte of @buf; KCHACHA_RNG_BUF when empty
 * @key: this CPU's key
 * @buf: keystream not yet handed out; bytes before @pos are zero
 */
struct kchacha_rng_pcpu {
	local_lock_t lock;
	unsigned long generation;
	unsigned long left;
	unsigned int pos;
	u32 key[8];
	u8 buf[KCHACHA_RNG_BUF];
} ____cacheline_aligned;

/**
 * struct kchacha_rng - one generator instance, the context of a tfm
 * @pcpu: the per-CPU states
 * @impl: the ChaCha implementation it runs on
 * @reseed_at: get_jiffies_64() after which the next request reseeds
 * @epoch: kchacha_rng_epoch when last reseeded, plus KCHACHA_RNG_UNREADY
 *	if the kernel RNG was not initialized then
 * @generation: changes (never to 0) whenever @key is reseeded
 * @lock: protects the fields above it but @pcpu and @impl, and @key
 * @key: the instance key
 */
struct kchacha_rng {
	struct kchacha_rng_pcpu __percpu *pcpu;
	const struct kchacha_impl *impl;
	u64 reseed_at;
	unsigned long epoch;
	unsigned long generation;
	spinlock_t lock;		/* irqsave; the fields above, @key */
	u32 key[8];
};

struct kchacha_rng_alg {
	struct rng_alg alg;
	const struct kchacha_impl *impl;
};

/* Nonce and counter of every keystream: each key is used once. */
static const u8 kchacha_rng_iv[KCHACHA_IV_SIZE];

/* Advanced by 2 at every VM clone and resume (release; read acquire). */
static atomic_long_t kchacha_rng_epoch = ATOMIC_LONG_INIT(0);

/* What the rng did, for tests and debugging (debugfs kchacha/rng). */
static struct {
	atomic_long_t reseeds;
	atomic_long_t epoch_reseeds;
	atomic_long_t ready_reseeds;
	atomic_long_t vmforks;
	atomic_long_t resumes;
	atomic_long_t syscore_resumes;
} kchacha_rng_stats;

/* The C core: what runs under a lock or with interrupts off. */
static const struct kchacha_impl *const kchacha_rng_c = &kchacha_impls[0];

/* @impl where the caller has interrupts on, else the C core. */
static const struct kchacha_impl *kchacha_rng_impl(const struct kchacha_rng *rng)
{
	return irqs_disabled() ? kchacha_rng_c : rng->impl;
}

static void kchacha_rng_load_key(u32 *key, const u8 *bytes)
{
	int i;

	for (i = 0; i < 8; i++)
		key[i] = get_unaligned_le32(bytes + 4 * i);
}

/* key = the HChaCha20 cascade over (domain, len) and @data, keyed by key. */
static void kchacha_rng_absorb(const struct kchacha_impl *impl, u32 *key,
			       u32 domain, const void *data, unsigned int len)
{
	u32 state[KCHACHA_STATE_WORDS];
	const u8 *p = data;
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
		memcpy(block, p, n);
		memset(block + n, 0, sizeof(block) - n);
		p += n;
		len -= n;
	}
	memzero_explicit(state, sizeof(state));
	memzero_explicit(block, sizeof(block));
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

/* Fast key erasure: @key becomes the block's first half, @out its second. */
static void kchacha_rng_erase(u32 *key, u32 *out)
{
	u8 block[KCHACHA_BLOCK_SIZE];

	kchacha_rng_block(key, block);
	kchacha_rng_load_key(key, block);
	kchacha_rng_load_key(out, block + KCHACHA_KEY_SIZE);
	memzero_explicit(block, sizeof(block));
}

/*
 * Is a reseed due?  The time has come; or a VM clone or a resume happened
 * since the last one; or the last one was before the kernel RNG was
 * initialized and it is now.
 */
static bool kchacha_rng_due(const struct kchacha_rng *rng)
{
	unsigned long epoch = READ_ONCE(rng->epoch);

	return time_after64(get_jiffies_64(), READ_ONCE(rng->reseed_at)) ||
	       (epoch & ~KCHACHA_RNG_UNREADY) !=
			(unsigned long)atomic_long_read(&kchacha_rng_epoch) ||
	       ((epoch & KCHACHA_RNG_UNREADY) && rng_is_initialized());
}

/*
 * Key = F_(key XOR m)(empty) and a new generation, m being @fresh's
 * cascade over @seed and @now; @epoch is recorded.  The seed is absorbed
 * outside the lock, with SIMD if the caller has interrupts on.  With
 * @if_due, only if still due (another CPU may have reseeded meanwhile).
 */
static bool kchacha_rng_mix(struct kchacha_rng *rng, const u8 *fresh,
			    const u8 *seed, unsigned int slen, const void *now,
			    unsigned int nlen, unsigned long epoch, bool if_due)
{
	unsigned long flags;
	bool done;
	u32 m[8];
	int i;

	kchacha_rng_load_key(m, fresh);
	kchacha_rng_absorb(slen ? kchacha_rng_impl(rng) : kchacha_rng_c, m,
			   KCHACHA_RNG_DOM_SEED, seed, slen);
	kchacha_rng_absorb(kchacha_rng_c, m, KCHACHA_RNG_DOM_NOW, now, nlen);
	spin_lock_irqsave(&rng->lock, flags);
	done = !if_due || kchacha_rng_due(rng);
	if (done) {
		for (i = 0; i < 8; i++)
			m[i] ^= rng->key[i];
		kchacha_rng_absorb(kchacha_rng_c, m, KCHACHA_RNG_DOM_MIX,
				   NULL, 0);
		memcpy(rng->key, m, sizeof(rng->key));
		WRITE_ONCE(rng->generation, rng->generation + 1 ?: 1);
		WRITE_ONCE(rng->reseed_at, get_jiffies_64() +
			   (epoch & KCHACHA_RNG_UNREADY ? HZ :
			    KCHACHA_RNG_RESEED_SECS * HZ));
		WRITE_ONCE(rng->epoch, epoch);
	}
	spin_unlock_irqrestore(&rng->lock, flags);
	memzero_explicit(m, sizeof(m));
	return done;
}

/* What is unique to this moment: the clocks, cycles, the arch's seed. */
struct kchacha_rng_now {
	u64 real, boot;
	unsigned long cycles;
	unsigned long seed[4];
};

/*
 * Reseed from get_random_bytes(), with @seed and this moment's data mixed
 * in; with @if_due, only if kchacha_rng_due() still holds.
 */
static void kchacha_rng_reseed(struct kchacha_rng *rng, const u8 *seed,
			       unsigned int slen, bool if_due)
{
	/* acquire: the entropy below is at least as new as the epoch */
	unsigned long epoch = atomic_long_read_acquire(&kchacha_rng_epoch);
	unsigned long old = READ_ONCE(rng->epoch);
	struct kchacha_rng_now now = { };
	u8 fresh[KCHACHA_KEY_SIZE];

	if (!rng_is_initialized())
		epoch |= KCHACHA_RNG_UNREADY;
	get_random_bytes(fresh, sizeof(fresh));
	now.real = ktime_get_real_ns();
	now.boot = ktime_get_boottime_ns();
	now.cycles = random_get_entropy();
	if (!arch_get_random_seed_longs(now.seed, ARRAY_SIZE(now.seed)))
		now.seed[0] = random_get_entropy();
	if (kchacha_rng_mix(rng, fresh, seed, slen, &now, sizeof(now), epoch,
			    if_due)) {
		atomic_long_inc(&kchacha_rng_stats.reseeds);
		if ((old ^ epoch) & ~KCHACHA_RNG_UNREADY)
			atomic_long_inc(&kchacha_rng_stats.epoch_reseeds);
		if ((old & ~epoch) & KCHACHA_RNG_UNREADY)
			atomic_long_inc(&kchacha_rng_stats.ready_reseeds);
	}
	memzero_explicit(fresh, sizeof(fresh));
	memzero_explicit(&now, sizeof(now));
}

/*
 * Under @p's lock: make @p ready to hand out @count bytes, deriving its
 * key anew when the instance reseeded, reseeding first if the bytes would
 * pass the bound.
 */
static noinline void kchacha_rng_rekey(struct kchacha_rng *rng,
				       struct kchacha_rng_pcpu *p,
				       unsigned int count)
{
	unsigned long flags;

	if (p->generation == READ_ONCE(rng->generation))
		kchacha_rng_reseed(rng, NULL, 0, false);
	memzero_explicit(p->buf + p->pos, KCHACHA_RNG_BUF - p->pos);
	p->pos = KCHACHA_RNG_BUF;
	spin_lock_irqsave(&rng->lock, flags);
	kchacha_rng_erase(rng->key, p->key);
	p->generation = rng->generation;
	spin_unlock_irqrestore(&rng->lock, flags);
	p->left = KCHACHA_RNG_RESEED_BYTES;
}

/* Copy @n bytes out of the buffer and zero them there. */
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
 * Under this CPU's lock: charge @count bytes and give @key a one-time key,
 * from the buffer if it holds one, else by fast key erasure of the CPU key.
 * Returns the generation it belongs to.
 */
static unsigned long kchacha_rng_take_key(struct kchacha_rng *rng,
					  struct kchacha_rng_pcpu *p,
					  unsigned int count, u32 *key)
{
	if (unlikely(count > p->left ||
		     p->generation != READ_ONCE(rng->generation)))
		kchacha_rng_rekey(rng, p, count);
	p->left -= count;
	if (KCHACHA_RNG_BUF - p->pos >= KCHACHA_KEY_SIZE) {
		kchacha_rng_load_key(key, p->buf + p->pos);
		memzero_explicit(p->buf + p->pos, KCHACHA_KEY_SIZE);
		p->pos += KCHACHA_KEY_SIZE;
	} else {
		kchacha_rng_erase(p->key, key);
	}
	return p->generation;
}

/* Reschedule between two pieces of a request, if the caller may sleep. */
static inline void kchacha_rng_resched(void)
{
	if (preemptible() && !rcu_preempt_depth())
		cond_resched();
}

/*
 * @len bytes of ChaCha20 keystream under the one-time @key into @dst, in
 * pieces of KCHACHA_RNG_KEY_BYTES, each under the key the block after the
 * previous one gave; @key is wiped.
 */
static void kchacha_rng_stream(const struct kchacha_impl *impl, u32 *key,
			       u8 *dst, unsigned int len)
{
	u32 state[KCHACHA_STATE_WORDS];
	u8 block[KCHACHA_BLOCK_SIZE];

	for (;;) {
		unsigned int n = min_t(unsigned int, len, KCHACHA_RNG_KEY_BYTES);

		kchacha_init_state(state, key, kchacha_rng_iv);
		memset(dst, 0, n);
		kchacha_crypt(impl, state, dst, dst, n, 20);
		dst += n;
		len -= n;
		if (!len)
			break;
		memset(block, 0, sizeof(block));
		kchacha_crypt(kchacha_rng_c, state, block, block,
			      sizeof(block), 20);
		kchacha_rng_load_key(key, block);
		kchacha_rng_resched();
	}
	memzero_explicit(block, sizeof(block));
	memzero_explicit(state, sizeof(state));
	memzero_explicit(key, 32);
}

/*
 * A short request the buffer cannot serve: KCHACHA_RNG_BUF bytes under a
 * one-time key of generation @gen; @len for the caller, the rest for the
 * buffer of the CPU this ends on, if empty and of @gen.
 */
static noinline void kchacha_rng_refill(struct kchacha_rng *rng, u32 *key,
					unsigned long gen, u8 *dst,
					unsigned int len)
{
	u8 ks[KCHACHA_RNG_BUF];
	struct kchacha_rng_pcpu *p;
	unsigned long flags;

	kchacha_rng_stream(kchacha_rng_impl(rng), key, ks, sizeof(ks));
	memcpy(dst, ks, len);
	local_lock_irqsave(&rng->pcpu->lock, flags);
	p = this_cpu_ptr(rng->pcpu);
	if (p->pos == KCHACHA_RNG_BUF && p->generation == gen &&
	    gen == READ_ONCE(rng->generation)) {
		memcpy(p->buf + len, ks + len, sizeof(ks) - len);
		p->pos = len;
	}
	local_unlock_irqrestore(&rng->pcpu->lock, flags);
	memzero_explicit(ks, sizeof(ks));
}

/*
 * @dlen bytes with additional input @src, or of KCHACHA_RNG_DIRECT bytes
 * or more: one-time keys, each charged its piece (at most the byte bound).
 */
static noinline void kchacha_rng_direct(struct kchacha_rng *rng,
					const u8 *src, unsigned int slen,
					u8 *dst, unsigned int dlen)
{
	unsigned long flags;
	u32 key[8];

	while (dlen) {
		unsigned int seg = min(dlen, KCHACHA_RNG_RESEED_BYTES);

		local_lock_irqsave(&rng->pcpu->lock, flags);
		kchacha_rng_take_key(rng, this_cpu_ptr(rng->pcpu), seg, key);
		local_unlock_irqrestore(&rng->pcpu->lock, flags);
		if (slen)
			kchacha_rng_absorb(kchacha_rng_impl(rng), key,
					   KCHACHA_RNG_DOM_ADDTL, src, slen);
		kchacha_rng_stream(kchacha_rng_impl(rng), key, dst, seg);
		dst += seg;
		dlen -= seg;
		if (dlen)
			kchacha_rng_resched();
	}
}

/* generate() but for the reseed checks: what the self-test runs. */
static __always_inline void kchacha_rng_get(struct kchacha_rng *rng,
					    const u8 *src, unsigned int slen,
					    u8 *dst, unsigned int dlen)
{
	struct kchacha_rng_pcpu *p;
	unsigned long flags, gen;
	u32 key[8];

	if (unlikely(slen || dlen >= KCHACHA_RNG_DIRECT)) {
		kchacha_rng_direct(rng, src, slen, dst, dlen);
		return;
	}
	local_lock_irqsave(&rng->pcpu->lock, flags);
	p = this_cpu_ptr(rng->pcpu);
	if (likely(dlen <= KCHACHA_RNG_BUF - p->pos && dlen <= p->left &&
		   p->generation == READ_ONCE(rng->generation))) {
		p->left -= dlen;
		kchacha_rng_move(dst, p->buf + p->pos, dlen);
		p->pos += dlen;
		local_unlock_irqrestore(&rng->pcpu->lock, flags);
		return;
	}
	/* what is left is too short: drop it, refill from a one-time key */
	memzero_explicit(p->buf + p->pos, KCHACHA_RNG_BUF - p->pos);
	p->pos = KCHACHA_RNG_BUF;
	gen = kchacha_rng_take_key(rng, p, dlen, key);
	local_unlock_irqrestore(&rng->pcpu->lock, flags);
	kchacha_rng_refill(rng, key, gen, dst, dlen);
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
	if (unlikely(kchacha_rng_due(rng)))
		kchacha_rng_reseed(rng, NULL, 0, true);
	kchacha_rng_get(rng, src, slen, dst, dlen);
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
			    const struct kchacha_impl *impl)
{
	int cpu;

	rng->impl = impl;
	spin_lock_init(&rng->lock);
	rng->pcpu = alloc_percpu_gfp(struct kchacha_rng_pcpu,
				     GFP_KERNEL_ACCOUNT);
	if (!rng->pcpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct kchacha_rng_pcpu *p = per_cpu_ptr(rng->pcpu, cpu);

		local_lock_init(&p->lock);
		p->pos = KCHACHA_RNG_BUF;
	}
	kchacha_rng_reseed(rng, NULL, 0, false);
	return 0;
}

static void kchacha_rng_exit(struct kchacha_rng *rng)
{
	int cpu;

	if (rng->pcpu) {
		for_each_possible_cpu(cpu)
			memzero_explicit(per_cpu_ptr(rng->pcpu, cpu),
					 sizeof(struct kchacha_rng_pcpu));
		free_percpu(rng->pcpu);
	}
	memzero_explicit(rng, sizeof(*rng));
}

/**
 * kchacha_rng_alloc() - an instance outside the crypto API
 * @impl: the implementation
 *
 * Return: the instance, seeded; NULL when out of memory.
 */
struct kchacha_rng *kchacha_rng_alloc(const struct kchacha_impl *impl)
{
	struct kchacha_rng *rng = kzalloc(sizeof(*rng), GFP_KERNEL);

	if (rng && kchacha_rng_init(rng, impl)) {
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

/* Every instance reseeds at its next request (release: see the top). */
static void kchacha_rng_new_epoch(atomic_long_t *counter)
{
	atomic_long_add_return_release(2, &kchacha_rng_epoch);
	atomic_long_inc(counter);
}

/* A VM clone or a restored snapshot: the kernel RNG has been reseeded. */
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
 * Resume from suspend or hibernation, a restored image included: one CPU,
 * interrupts off, before any task runs again, so no request is served
 * from the state of before.
 */
static void kchacha_rng_syscore_resume(KCHACHA_SYSCORE_ARGS)
{
	kchacha_rng_new_epoch(&kchacha_rng_stats.syscore_resumes);
}

KCHACHA_SYSCORE_DEFINE(kchacha_rng_syscore, kchacha_rng_syscore_resume);

/*
 * And after the PM notifiers of the kernel RNG (priority 0), which
 * reseeds it after a suspend: once more, so that the next reseeds draw on
 * that.
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
	.priority = -1,
};

#ifdef CONFIG_DEBUG_FS
static struct dentry *kchacha_rng_debugfs;

static int kchacha_rng_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "reseeds %ld\nepoch_reseeds %ld\nready_reseeds %ld\nvmforks %ld\nresumes %ld\nsyscore_resumes %ld\npcpu_bytes %zu\n",
		   atomic_long_read(&kchacha_rng_stats.reseeds),
		   atomic_long_read(&kchacha_rng_stats.epoch_reseeds),
		   atomic_long_read(&kchacha_rng_stats.ready_reseeds),
		   atomic_long_read(&kchacha_rng_stats.vmforks),
		   atomic_long_read(&kchacha_rng_stats.resumes),
		   atomic_long_read(&kchacha_rng_stats.syscore_resumes),
		   sizeof(struct kchacha_rng_pcpu));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kchacha_rng_stats);
#endif

/**
 * kchacha_rng_init_module() - module-wide rng setup, before registration
 *
 * Registers the vmfork notifier (a no-op without CONFIG_VMGENID), the
 * syscore resume hook and the PM notifier, and the debugfs file
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
	kchacha_register_syscore(&kchacha_rng_syscore);
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
	kchacha_unregister_syscore(&kchacha_rng_syscore);
	unregister_pm_notifier(&kchacha_rng_pm_nb);
	unregister_random_vmfork_notifier(&kchacha_rng_vmfork_nb);
}

static int kchacha_rng_init_tfm(struct crypto_tfm *tfm)
{
	struct kchacha_rng_alg *ra = container_of(tfm->__crt_alg,
						  struct kchacha_rng_alg,
						  alg.base);

	return kchacha_rng_init(crypto_tfm_ctx(tfm), ra->impl);
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

/* Test entropy (ALG_SET_DRBG_ENTROPY) is a seed like any other here. */
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
 * The self-test: an instance keyed by a known seed (mix() with fixed
 * "fresh" bytes and no clock data) serves a script of requests of every
 * path on one CPU, without the reseed checks; the script's output must
 * hash to the known answer, the same for every implementation.
 */
static const u32 kchacha_rng_script[] = {
	1, 3, 16, 32, 64, 100, 255, 256, 511, 40, 1000, 300, 480, 17,
	13000, 70000, 2, 600,
};

/* The HChaCha20 cascade of the script's output under the zero key. */
static const u8 kchacha_rng_kat_digest[32] =
	"\x2a\x91\x88\x15\x26\x3f\xff\x71\x04\x1f\xa5\x42\xe8\xde\xeb\x1e"
	"\xc5\x46\x25\x96\x05\x8a\xf6\x70\x61\x29\x39\x8d\x89\x98\x60\xe1";

static int kchacha_rng_run_script(const struct kchacha_impl *impl, u8 *out)
{
	struct kchacha_rng *rng = kchacha_rng_alloc(impl);
	u8 fresh[KCHACHA_KEY_SIZE];
	unsigned int i, n;

	if (!rng)
		return -ENOMEM;
	for (i = 0; i < sizeof(fresh); i++)
		fresh[i] = i * 13 + 5;
	memset(rng->key, 0, sizeof(rng->key));
	kchacha_rng_mix(rng, fresh, fresh, 23, NULL, 0, 0, false);
	migrate_disable();
	for (i = 0; i < ARRAY_SIZE(kchacha_rng_script); i++) {
		n = kchacha_rng_script[i];
		/* every fourth with additional input */
		kchacha_rng_get(rng, fresh, i % 4 == 1 ? 7 : 0, out, n);
		out += n;
	}
	migrate_enable();
	kchacha_rng_free(rng);
	return 0;
}

/**
 * kchacha_rng_selftest() - the rng self-test of one implementation
 * @impl: the implementation
 *
 * Return: 0, -EINVAL on a failed case, -ENOMEM.
 */
int kchacha_rng_selftest(const struct kchacha_impl *impl)
{
	unsigned int i, len = 0;
	u32 digest[8] = { };
	u8 *buf;
	int err;

	for (i = 0; i < ARRAY_SIZE(kchacha_rng_script); i++)
		len += kchacha_rng_script[i];
	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	err = kchacha_rng_run_script(impl, buf);
	if (err)
		goto out;
	kchacha_rng_absorb(kchacha_rng_c, digest, KCHACHA_RNG_DOM_KAT, buf,
			   len);
	for (i = 0; i < 8; i++)
		if (digest[i] !=
		    get_unaligned_le32(kchacha_rng_kat_digest + 4 * i))
			err = -EINVAL;
	if (err)
		pr_err("kchacha: %s: rng self-test failed: known-answer stream\n",
		       impl->name);
out:
	kfree_sensitive(buf);
	return err;
}
