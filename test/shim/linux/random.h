/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/random.h>: get_random_bytes() from
 * getrandom(2), counted in kchacha_shim_random_calls so that tests can see
 * when a generator reseeds.  A test may set kchacha_shim_random_hook to run
 * code where a reseed fetches its entropy, as an interrupt could; the hook
 * is cleared before it runs.
 */
#ifndef _SHIM_LINUX_RANDOM_H
#define _SHIM_LINUX_RANDOM_H
#include <linux/types.h>
extern unsigned long kchacha_shim_random_calls;
extern void (*kchacha_shim_random_hook)(void);
void get_random_bytes(void *buf, size_t len);

/* getrandom(2) blocks until the kernel's pool is initialized. */
static inline bool rng_is_initialized(void)
{
	return true;
}
#endif
