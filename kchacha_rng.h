/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between rng.c, the generator, and rng_glue.c, what ties it to the
 * kernel: its crypto API algorithms, the notifications that start a new
 * epoch, its counters and its load-time self-test.
 */
#ifndef _KCHACHA_RNG_H
#define _KCHACHA_RNG_H
#include <crypto/internal/rng.h>
#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/local_lock.h>
#include <linux/spinlock.h>
#include "kchacha.h"

#define KCHACHA_RNG_BUF		1024		/* keystream, then the CPU key */

/* A CPU's state, every instance's; under @lock. */
struct kchacha_rng_cpu {
	local_lock_t lock;
	u64 id;				/* the instance its bytes are from */
	unsigned long generation;	/* of that instance's key */
	unsigned long left;		/* bytes it may hand out under it */
	unsigned int pos;		/* next byte of @buf to hand out */
	bool keyed;			/* the buffer ends in the CPU key */
	bool filling;			/* a refill has the spare */
	u8 cur;				/* @bufs[cur] the buffer, the other the spare */
	u8 bufs[2][KCHACHA_RNG_BUF];
} ____cacheline_aligned;

struct kchacha_rng {			/* an instance, a tfm's context */
	struct kchacha_rng_cpu __percpu *cpus;	/* shared; the self-test's */
	const struct kchacha_impl *impl;
	u64 id;				/* unique, never 0 */
	u64 reseed_at;			/* get_jiffies_64() of the next reseed */
	unsigned long epoch;		/* kchacha_rng_epoch at the last one */
	unsigned long generation;	/* of @key */
	spinlock_t lock;		/* irqsave; the three above, @key */
	u32 key[8];
};

extern atomic_long_t kchacha_rng_epoch;		/* +2 per clone, resume */
/* what the rng did (debugfs kchacha/rng) */
enum { KC_RESEEDS, KC_VMFORKS, KC_RESUMES, KC_SYSCORE_RESUMES, KC_NSTATS };
extern atomic_long_t kchacha_rng_stats[KC_NSTATS];

/* rng.c: the crypto API's callbacks */
int kchacha_rng_init(struct kchacha_rng *rng, const struct kchacha_impl *impl,
		     bool own);
void kchacha_rng_exit(struct kchacha_rng *rng);
int kchacha_rng_generate(struct crypto_rng *tfm, const u8 *src,
			 unsigned int slen, u8 *dst, unsigned int dlen);
int kchacha_rng_seed(struct crypto_rng *tfm, const u8 *seed,
		     unsigned int slen);
/* rng.c: what the self-test runs */
void kchacha_rng_absorb(u32 *key, u32 domain, const u8 *p, unsigned int len);
bool kchacha_rng_mix(struct kchacha_rng *rng, const u8 *fresh,
		     const u8 *seed, unsigned int slen, const u8 *now,
		     unsigned int nlen, unsigned long epoch, bool if_due);
void kchacha_rng_get(struct kchacha_rng *rng, const u8 *src,
		     unsigned int slen, u8 *dst, unsigned int dlen);
#endif
