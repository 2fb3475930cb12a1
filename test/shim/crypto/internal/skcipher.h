/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <crypto/internal/skcipher.h> and what chacha_glue.c
 * takes from the crypto API's internals: registration of skciphers and
 * rngs into a registry, tfms of a registered algorithm, and a model of the
 * skcipher walk (test/shim/shim_crypto.c).
 *
 * The walk, as crypto/skcipher.c's for an algorithm without an alignmask:
 * each step hands over what is contiguous in both lists, up to the next
 * page end of either buffer, and never fewer than min(walksize, bytes
 * left): where fewer are contiguous, that many bytes go through a buffer
 * (the slow path), which must then be used up.  skcipher_walk_done(walk,
 * n) leaves the last n bytes of a step for the next one.
 */
#ifndef _SHIM_CRYPTO_INTERNAL_SKCIPHER_H
#define _SHIM_CRYPTO_INTERNAL_SKCIPHER_H
#include <crypto/rng.h>
#include <linux/errno.h>
#include <linux/types.h>

struct skcipher_request;

struct crypto_skcipher {
	unsigned int reqsize;
	struct crypto_tfm base;
};

struct skcipher_alg {
	int (*setkey)(struct crypto_skcipher *tfm, const u8 *key,
		      unsigned int keylen);
	int (*encrypt)(struct skcipher_request *req);
	int (*decrypt)(struct skcipher_request *req);
	int (*init)(struct crypto_skcipher *tfm);
	void (*exit)(struct crypto_skcipher *tfm);
	unsigned int min_keysize;
	unsigned int max_keysize;
	unsigned int ivsize;
	unsigned int chunksize;
	unsigned int walksize;
	struct crypto_alg base;
};

/* one piece of a buffer; a list of them ends where the request does */
struct scatterlist {
	void *buf;
	unsigned int length;
};

struct skcipher_request {
	struct crypto_skcipher *tfm;
	unsigned int cryptlen;
	u8 *iv;
	struct scatterlist *src;
	struct scatterlist *dst;
};

/* where a walk is in one list */
struct kchacha_shim_sgpos {
	struct scatterlist *sg;
	unsigned int off;
};

struct skcipher_walk {
	union {
		struct {
			void *addr;
		} virt;
	} src, dst;
	unsigned int nbytes;
	unsigned int total;
	unsigned int stride;
	/* the model's */
	struct kchacha_shim_sgpos in, out;
	u8 *slow;
	unsigned int steps, slow_steps;
};

static inline void *crypto_skcipher_ctx(struct crypto_skcipher *tfm)
{
	return crypto_tfm_ctx(&tfm->base);
}

static inline struct crypto_skcipher *
crypto_skcipher_reqtfm(struct skcipher_request *req)
{
	return req->tfm;
}

static inline struct skcipher_alg *
crypto_skcipher_alg(struct crypto_skcipher *tfm)
{
	return container_of(tfm->base.__crt_alg, struct skcipher_alg, base);
}

int skcipher_walk_virt(struct skcipher_walk *walk,
		       struct skcipher_request *req, bool atomic);
int skcipher_walk_done(struct skcipher_walk *walk, int res);
/* steps and slow steps of the last walk that ended */
extern unsigned int kchacha_shim_walk_steps, kchacha_shim_walk_slow_steps;
/* skcipher tfms freed with a context not all zero (crypto_free_skcipher) */
extern unsigned int kchacha_shim_ctx_left;

/* in the shim's registry too (linux/shim_registry.h), with the call site */
int kchacha_shim_register_skcipher(struct skcipher_alg *alg,
				   const char *file, int line);
void kchacha_shim_unregister_skcipher(struct skcipher_alg *alg,
				      const char *file, int line);
#define crypto_register_skcipher(alg)					\
	kchacha_shim_register_skcipher(alg, __FILE__, __LINE__)
#define crypto_unregister_skcipher(alg)					\
	kchacha_shim_unregister_skcipher(alg, __FILE__, __LINE__)

/* crypto/internal.h: the lock of the algorithm list */
struct rw_semaphore {
	int writers;
};
extern struct rw_semaphore crypto_alg_sem;
void down_write(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);

/* kchacha_compat.h's: the shim's registry tests nothing after the fact */
static inline void kchacha_wait_tested(const struct crypto_alg *alg,
				       unsigned long end)
{
	(void)alg;
	(void)end;
}

/*
 * The tests' side of the registry.  kchacha_shim_type: what a registered
 * algorithm is.  kchacha_shim_best(): what a lookup of @name (cra_name or
 * driver name) finds, the highest priority of its type not dying, or
 * NULL.  kchacha_shim_each(): the registered algorithms, in the order of
 * registration, NULL after the last.
 */
enum kchacha_shim_type {
	KCHACHA_SHIM_SKCIPHER,
	KCHACHA_SHIM_RNG,
};
struct crypto_alg *kchacha_shim_best(const char *name,
				     enum kchacha_shim_type type);
struct crypto_alg *kchacha_shim_each(unsigned int i,
				     enum kchacha_shim_type *type);
unsigned int kchacha_shim_registered(void);
/* a tfm of the best skcipher @name, its count raised; NULL if none */
struct crypto_skcipher *kchacha_shim_alloc_skcipher(const char *name);
void crypto_free_skcipher(struct crypto_skcipher *tfm);
int crypto_skcipher_setkey(struct crypto_skcipher *tfm, const u8 *key,
			   unsigned int keylen);
int crypto_skcipher_encrypt(struct skcipher_request *req);
int crypto_skcipher_decrypt(struct skcipher_request *req);
/* request_module() calls, "name" each, space-separated; and its hook */
extern char kchacha_shim_modules_requested[256];
extern void (*kchacha_shim_request_module_hook)(const char *name);
/* runs after each registration */
extern void (*kchacha_shim_register_hook)(void);
#endif
