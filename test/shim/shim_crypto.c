// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space shim: the crypto API that chacha_glue.c registers into (see
 * <crypto/internal/skcipher.h> here): a registry that refuses what
 * crypto_register_skcipher() and crypto_register_rng() refuse, aborts on
 * what the kernel would warn about (unregistering what is not registered,
 * or is held), tfms, and the skcipher walk; and the loading task's
 * killable sleep (<linux/sched/signal.h> here).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <crypto/internal/rng.h>
#include <crypto/internal/skcipher.h>
#include <linux/kernel.h>
#include <linux/kmod.h>
#include <linux/sched/signal.h>
#include <linux/shim_registry.h>

#define KCHACHA_SHIM_MAX_ALGS	256

static struct {
	struct crypto_alg *alg;
	enum kchacha_shim_type type;
} kchacha_shim_algs[KCHACHA_SHIM_MAX_ALGS];
static unsigned int kchacha_shim_nalgs;
/* the kinds of linux/shim_registry.h's entries */
static const char *const kchacha_shim_kinds[] = {
	[KCHACHA_SHIM_SKCIPHER] = "skcipher",
	[KCHACHA_SHIM_RNG] = "rng",
};

struct rw_semaphore crypto_alg_sem;
char kchacha_shim_modules_requested[256];
void (*kchacha_shim_request_module_hook)(const char *name);
unsigned int kchacha_shim_walk_steps, kchacha_shim_walk_slow_steps;
unsigned int kchacha_shim_ctx_left;
void (*kchacha_shim_register_hook)(void);
bool kchacha_shim_fatal_signal;
unsigned long kchacha_shim_slept;
void (*kchacha_shim_sleep_hook)(void);

static void kchacha_shim_bug(const char *what, const char *name)
{
	fflush(NULL);
	fprintf(stderr, "FAIL shim: %s: %s\n", what, name);
	printf("FAIL shim: %s: %s\n", what, name);
	fflush(NULL);
	abort();
}

void down_write(struct rw_semaphore *sem)
{
	if (sem->writers++)
		kchacha_shim_bug("down_write() of a held rw_semaphore", "");
}

void up_write(struct rw_semaphore *sem)
{
	if (--sem->writers)
		kchacha_shim_bug("up_write() of an rw_semaphore not held", "");
}

/*
 * With a fatal signal pending, a killable sleep returns at once, as the
 * kernel's does; the clock still moves by a jiffy, as the kernel's does
 * for a caller that ignores the signal and loops: it spins to its own
 * deadline, not forever.
 */
long schedule_timeout_killable(long timeout)
{
	if (kchacha_shim_fatal_signal) {
		__atomic_fetch_add(&kchacha_shim_jiffies_offset, 1,
				   __ATOMIC_RELAXED);
		return timeout;
	}
	__atomic_fetch_add(&kchacha_shim_jiffies_offset, timeout,
			   __ATOMIC_RELAXED);
	kchacha_shim_slept += timeout;
	if (kchacha_shim_sleep_hook)
		kchacha_shim_sleep_hook();
	return 0;
}

int request_module(const char *fmt, ...)
{
	size_t n = strlen(kchacha_shim_modules_requested);
	char name[64];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	snprintf(kchacha_shim_modules_requested + n,
		 sizeof(kchacha_shim_modules_requested) - n, "%s%s",
		 n ? " " : "", name);
	if (kchacha_shim_request_module_hook)
		kchacha_shim_request_module_hook(name);
	return 0;
}

static int kchacha_shim_find(const struct crypto_alg *alg)
{
	unsigned int i;

	for (i = 0; i < kchacha_shim_nalgs; i++)
		if (kchacha_shim_algs[i].alg == alg)
			return i;
	return -1;
}

/* crypto_check_alg() and crypto_register_alg()'s refusals */
static int kchacha_shim_register(struct crypto_alg *alg,
				 enum kchacha_shim_type type,
				 const char *file, int line)
{
	unsigned int i;

	if (!alg->cra_name[0] || !alg->cra_driver_name[0] ||
	    alg->cra_priority < 0 || alg->cra_blocksize > PAGE_SIZE / 8)
		return -EINVAL;
	if (kchacha_shim_find(alg) >= 0)
		return -EEXIST;
	for (i = 0; i < kchacha_shim_nalgs; i++)
		if (!strcmp(kchacha_shim_algs[i].alg->cra_driver_name,
			    alg->cra_driver_name))
			return -EEXIST;
	if (kchacha_shim_nalgs == KCHACHA_SHIM_MAX_ALGS)
		return -ENOMEM;
	alg->cra_flags &= ~CRYPTO_ALG_DYING;
	refcount_set(&alg->cra_refcnt, 1);
	kchacha_shim_algs[kchacha_shim_nalgs].alg = alg;
	kchacha_shim_algs[kchacha_shim_nalgs++].type = type;
	kchacha_shim_reg_add(kchacha_shim_kinds[type], alg, NULL,
			     alg->cra_driver_name, file, line);
	if (kchacha_shim_register_hook)
		kchacha_shim_register_hook();
	return 0;
}

/* crypto_unregister_alg(): BUG_ON() where it is held */
static void kchacha_shim_unregister(struct crypto_alg *alg,
				    enum kchacha_shim_type type,
				    const char *file, int line)
{
	int i = kchacha_shim_find(alg);

	if (i < 0)
		kchacha_shim_bug("unregistering an algorithm not registered",
				 alg->cra_driver_name);
	if (refcount_read(&alg->cra_refcnt) != 1)
		kchacha_shim_bug("unregistering an algorithm in use",
				 alg->cra_driver_name);
	memmove(&kchacha_shim_algs[i], &kchacha_shim_algs[i + 1],
		(kchacha_shim_nalgs - i - 1) * sizeof(kchacha_shim_algs[0]));
	kchacha_shim_nalgs--;
	refcount_set(&alg->cra_refcnt, 0);
	kchacha_shim_reg_del(kchacha_shim_kinds[type], alg, true, file, line);
}

int kchacha_shim_register_skcipher(struct skcipher_alg *alg,
				   const char *file, int line)
{
	/* crypto/skcipher.c: skcipher_prepare_alg() */
	if (alg->ivsize > PAGE_SIZE / 8 || alg->chunksize > PAGE_SIZE / 8 ||
	    alg->walksize > PAGE_SIZE / 8)
		return -EINVAL;
	if (!alg->chunksize)
		alg->chunksize = alg->base.cra_blocksize;
	if (!alg->walksize)
		alg->walksize = alg->chunksize;
	if (alg->walksize < alg->chunksize)
		return -EINVAL;
	return kchacha_shim_register(&alg->base, KCHACHA_SHIM_SKCIPHER, file,
				     line);
}

void kchacha_shim_unregister_skcipher(struct skcipher_alg *alg,
				      const char *file, int line)
{
	kchacha_shim_unregister(&alg->base, KCHACHA_SHIM_SKCIPHER, file, line);
}

int kchacha_shim_register_rng(struct rng_alg *alg, const char *file, int line)
{
	if (alg->seedsize > PAGE_SIZE / 8)
		return -EINVAL;
	return kchacha_shim_register(&alg->base, KCHACHA_SHIM_RNG, file, line);
}

void kchacha_shim_unregister_rng(struct rng_alg *alg, const char *file,
				 int line)
{
	kchacha_shim_unregister(&alg->base, KCHACHA_SHIM_RNG, file, line);
}

struct crypto_alg *kchacha_shim_best(const char *name,
				     enum kchacha_shim_type type)
{
	struct crypto_alg *best = NULL;
	unsigned int i;

	for (i = 0; i < kchacha_shim_nalgs; i++) {
		struct crypto_alg *a = kchacha_shim_algs[i].alg;

		if (kchacha_shim_algs[i].type != type ||
		    (a->cra_flags & CRYPTO_ALG_DYING))
			continue;
		if (strcmp(a->cra_name, name) &&
		    strcmp(a->cra_driver_name, name))
			continue;
		/* an exact driver name wins, as crypto/api.c's lookup */
		if (!strcmp(a->cra_driver_name, name))
			return a;
		if (!best || a->cra_priority > best->cra_priority)
			best = a;
	}
	return best;
}

struct crypto_alg *kchacha_shim_each(unsigned int i,
				     enum kchacha_shim_type *type)
{
	if (i >= kchacha_shim_nalgs)
		return NULL;
	if (type)
		*type = kchacha_shim_algs[i].type;
	return kchacha_shim_algs[i].alg;
}

unsigned int kchacha_shim_registered(void)
{
	return kchacha_shim_nalgs;
}

struct crypto_skcipher *kchacha_shim_alloc_skcipher(const char *name)
{
	struct crypto_alg *alg = kchacha_shim_best(name,
						   KCHACHA_SHIM_SKCIPHER);
	struct crypto_skcipher *tfm;
	void *mem;

	if (!alg)
		return NULL;
	/* exactly the tfm and its context, as crypto_alloc_tfmmem() */
	if (posix_memalign(&mem, 64, sizeof(*tfm) + alg->cra_ctxsize))
		return NULL;
	tfm = mem;
	memset(tfm, 0, sizeof(*tfm) + alg->cra_ctxsize);
	tfm->base.__crt_alg = alg;
	refcount_inc(&alg->cra_refcnt);
	if (crypto_skcipher_alg(tfm)->init &&
	    crypto_skcipher_alg(tfm)->init(tfm)) {
		refcount_dec(&alg->cra_refcnt);
		free(tfm);
		return NULL;
	}
	return tfm;
}

void crypto_free_skcipher(struct crypto_skcipher *tfm)
{
	struct crypto_alg *alg;

	if (!tfm)
		return;
	alg = tfm->base.__crt_alg;
	if (crypto_skcipher_alg(tfm)->exit)
		crypto_skcipher_alg(tfm)->exit(tfm);
	/* what the context held (the key) must be gone once exit() ran */
	for (unsigned int i = 0; i < alg->cra_ctxsize; i++)
		if (((const u8 *)crypto_skcipher_ctx(tfm))[i]) {
			kchacha_shim_ctx_left++;
			break;
		}
	refcount_dec(&alg->cra_refcnt);
	free(tfm);
}

int crypto_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key,
			   unsigned int keylen)
{
	struct skcipher_alg *alg = crypto_skcipher_alg(tfm);

	if (keylen < alg->min_keysize || keylen > alg->max_keysize)
		return -EINVAL;
	return alg->setkey(tfm, key, keylen);
}

int crypto_skcipher_encrypt(struct skcipher_request *req)
{
	return crypto_skcipher_alg(req->tfm)->encrypt(req);
}

int crypto_skcipher_decrypt(struct skcipher_request *req)
{
	return crypto_skcipher_alg(req->tfm)->decrypt(req);
}

/* bytes contiguous at @p, up to @n: to its piece's end and page end */
static unsigned int kchacha_shim_clamp(struct kchacha_shim_sgpos *p,
				       unsigned int n)
{
	uintptr_t addr;
	unsigned int left;

	while (p->off == p->sg->length) {
		p->sg++;
		p->off = 0;
	}
	addr = (uintptr_t)p->sg->buf + p->off;
	left = p->sg->length - p->off;
	if (left > PAGE_SIZE - (addr & (PAGE_SIZE - 1)))
		left = PAGE_SIZE - (addr & (PAGE_SIZE - 1));
	return n < left ? n : left;
}

static void *kchacha_shim_at(struct kchacha_shim_sgpos *p)
{
	while (p->off == p->sg->length) {
		p->sg++;
		p->off = 0;
	}
	return (u8 *)p->sg->buf + p->off;
}

/* @n bytes from @p into @buf (@to: from @buf to @p), advancing @p */
static void kchacha_shim_copy(struct kchacha_shim_sgpos *p, u8 *buf,
			      unsigned int n, bool to)
{
	while (n) {
		u8 *at = kchacha_shim_at(p);
		unsigned int k = p->sg->length - p->off;

		if (k > n)
			k = n;
		if (to)
			memcpy(at, buf, k);
		else
			memcpy(buf, at, k);
		buf += k;
		p->off += k;
		n -= k;
	}
}

static void kchacha_shim_advance(struct kchacha_shim_sgpos *p, unsigned int n)
{
	while (n) {
		unsigned int k;

		kchacha_shim_at(p);
		k = p->sg->length - p->off;
		if (k > n)
			k = n;
		p->off += k;
		n -= k;
	}
}

static int kchacha_shim_walk_next(struct skcipher_walk *walk)
{
	unsigned int n = walk->total;
	unsigned int bsize = walk->stride < n ? walk->stride : n;

	n = kchacha_shim_clamp(&walk->in, n);
	n = kchacha_shim_clamp(&walk->out, n);
	walk->steps++;
	if (n < bsize) {
		struct kchacha_shim_sgpos in = walk->in;

		walk->slow = malloc(bsize);
		if (!walk->slow)
			return -ENOMEM;
		kchacha_shim_copy(&in, walk->slow, bsize, false);
		walk->src.virt.addr = walk->slow;
		walk->dst.virt.addr = walk->slow;
		walk->nbytes = bsize;
		walk->slow_steps++;
		return 0;
	}
	walk->src.virt.addr = kchacha_shim_at(&walk->in);
	walk->dst.virt.addr = kchacha_shim_at(&walk->out);
	walk->nbytes = n;
	return 0;
}

int skcipher_walk_virt(struct skcipher_walk *walk,
		       struct skcipher_request *req, bool atomic)
{
	(void)atomic;
	memset(walk, 0, sizeof(*walk));
	walk->total = req->cryptlen;
	walk->stride = crypto_skcipher_alg(req->tfm)->walksize;
	walk->in.sg = req->src;
	walk->out.sg = req->dst;
	kchacha_shim_walk_steps = 0;
	kchacha_shim_walk_slow_steps = 0;
	if (!walk->total)
		return 0;
	return kchacha_shim_walk_next(walk);
}

int skcipher_walk_done(struct skcipher_walk *walk, int res)
{
	unsigned int n;
	int err = 0;

	if (!walk->nbytes)
		kchacha_shim_bug("skcipher_walk_done() of a walk that ended", "");
	if (res < 0 || (unsigned int)res > walk->nbytes) {
		err = res < 0 ? res : -EINVAL;
		n = 0;
		walk->total = 0;
	} else {
		n = walk->nbytes - res;
	}
	if (walk->slow) {
		/* the buffer's bytes must all be used (crypto/skcipher.c) */
		if (res > 0 && !err) {
			err = -EINVAL;
			walk->total = 0;
		} else if (!err) {
			struct kchacha_shim_sgpos out = walk->out;

			kchacha_shim_copy(&out, walk->slow, n, true);
		}
		memset(walk->slow, 0, walk->nbytes);
		free(walk->slow);
		walk->slow = NULL;
	}
	if (walk->total) {
		kchacha_shim_advance(&walk->in, n);
		kchacha_shim_advance(&walk->out, n);
		walk->total -= n;
	}
	walk->nbytes = 0;
	if (walk->total && !err)
		return kchacha_shim_walk_next(walk);
	kchacha_shim_walk_steps = walk->steps;
	kchacha_shim_walk_slow_steps = walk->slow_steps;
	return err;
}
