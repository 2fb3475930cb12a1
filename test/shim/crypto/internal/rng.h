/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <crypto/internal/rng.h>. */
#ifndef _SHIM_CRYPTO_INTERNAL_RNG_H
#define _SHIM_CRYPTO_INTERNAL_RNG_H
#include <crypto/rng.h>

static inline void *crypto_rng_ctx(struct crypto_rng *tfm)
{
	return crypto_tfm_ctx(&tfm->base);
}

/* test/shim/shim_crypto.c: the registry of the glue tests */
int crypto_register_rng(struct rng_alg *alg);
void crypto_unregister_rng(struct rng_alg *alg);
#endif
