/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/crypto.h>: what kchacha_compat.h names.  No
 * algorithm is registered with a crypto manager in user space, so there is
 * no self-test to wait for; the user-space builds never call it.
 */
#ifndef _SHIM_LINUX_CRYPTO_H
#define _SHIM_LINUX_CRYPTO_H
#include <linux/types.h>

#define CRYPTO_NOLOAD	0x00008000

int crypto_has_alg(const char *name, u32 type, u32 mask);

#endif
