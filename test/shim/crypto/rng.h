/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <crypto/rng.h> and the parts of <crypto/algapi.h> an
 * rng driver touches: enough of struct crypto_alg and struct rng_alg to run
 * a driver's callbacks the way the crypto API does.  There is no registry:
 * kchacha_shim_alloc_rng() instantiates the rng_alg it is given.
 */
#ifndef _SHIM_CRYPTO_RNG_H
#define _SHIM_CRYPTO_RNG_H
#include <linux/container_of.h>
#include <linux/refcount.h>
#include <linux/types.h>

#define CRYPTO_MAX_ALG_NAME	128
/* <linux/crypto.h>: lookups skip an algorithm marked dying */
#define CRYPTO_ALG_DYING	0x00000040

struct crypto_tfm;
struct crypto_rng;
struct module;

struct crypto_alg {
	u32 cra_flags;
	unsigned int cra_blocksize;
	unsigned int cra_ctxsize;
	int cra_priority;
	char cra_name[CRYPTO_MAX_ALG_NAME];
	char cra_driver_name[CRYPTO_MAX_ALG_NAME];
	int (*cra_init)(struct crypto_tfm *tfm);
	void (*cra_exit)(struct crypto_tfm *tfm);
	struct module *cra_module;
	/* 1 while registered, one more for each tfm (test/shim/shim_crypto.c) */
	refcount_t cra_refcnt;
};

struct crypto_tfm {
	struct crypto_alg *__crt_alg;
	void *__crt_ctx[] __attribute__((aligned(16)));
};

struct rng_alg {
	int (*generate)(struct crypto_rng *tfm, const u8 *src,
			unsigned int slen, u8 *dst, unsigned int dlen);
	int (*seed)(struct crypto_rng *tfm, const u8 *seed, unsigned int slen);
	void (*set_ent)(struct crypto_rng *tfm, const u8 *data,
			unsigned int len);
	unsigned int seedsize;
	struct crypto_alg base;
};

struct crypto_rng {
	struct crypto_tfm base;
};

static inline void *crypto_tfm_ctx(struct crypto_tfm *tfm)
{
	return tfm->__crt_ctx;
}

static inline struct rng_alg *crypto_rng_alg(struct crypto_rng *tfm)
{
	return container_of(tfm->base.__crt_alg, struct rng_alg, base);
}

static inline unsigned int crypto_rng_seedsize(struct crypto_rng *tfm)
{
	return crypto_rng_alg(tfm)->seedsize;
}

static inline int crypto_rng_generate(struct crypto_rng *tfm, const u8 *src,
				      unsigned int slen, u8 *dst,
				      unsigned int dlen)
{
	return crypto_rng_alg(tfm)->generate(tfm, src, slen, dst, dlen);
}

static inline int crypto_rng_get_bytes(struct crypto_rng *tfm, u8 *rdata,
				       unsigned int dlen)
{
	return crypto_rng_generate(tfm, NULL, 0, rdata, dlen);
}

/* As crypto/rng.c: a NULL seed of non-zero length means random bytes. */
int crypto_rng_reset(struct crypto_rng *tfm, const u8 *seed,
		     unsigned int slen);

/* crypto_alloc_rng() of exactly this algorithm; NULL on failure. */
struct crypto_rng *kchacha_shim_alloc_rng(struct rng_alg *alg);

/* cra_exit, then counts in kchacha_shim_dirty_frees a context not wiped. */
void crypto_free_rng(struct crypto_rng *tfm);
#endif
