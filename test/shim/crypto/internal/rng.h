/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <crypto/internal/rng.h>. */
#ifndef _SHIM_CRYPTO_INTERNAL_RNG_H
#define _SHIM_CRYPTO_INTERNAL_RNG_H
#include <crypto/rng.h>

static inline void *crypto_rng_ctx(struct crypto_rng *tfm)
{
	return crypto_tfm_ctx(&tfm->base);
}

/*
 * test/shim/shim_crypto.c: the registry of the glue tests, and the shim's
 * (linux/shim_registry.h), with the call site
 */
int kchacha_shim_register_rng(struct rng_alg *alg, const char *file,
			      int line);
void kchacha_shim_unregister_rng(struct rng_alg *alg, const char *file,
				 int line);
#define crypto_register_rng(alg)					\
	kchacha_shim_register_rng(alg, __FILE__, __LINE__)
#define crypto_unregister_rng(alg)					\
	kchacha_shim_unregister_rng(alg, __FILE__, __LINE__)
#endif
