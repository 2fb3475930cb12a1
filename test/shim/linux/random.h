/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/random.h>: get_random_bytes() from
 * getrandom(2), counted in kchacha_shim_random_calls so that tests can see
 * when a generator reseeds.  A test may set kchacha_shim_random_hook to run
 * code where a reseed fetches its entropy, as an interrupt could; the hook
 * is cleared before it runs.  rng_is_initialized() is
 * kchacha_shim_rng_ready, which tests clear to play early boot; the vmfork
 * notifier registered last is kchacha_shim_vmfork_nb, which tests call to
 * play a VM clone.
 */
#ifndef _SHIM_LINUX_RANDOM_H
#define _SHIM_LINUX_RANDOM_H
#include <linux/errno.h>
#include <linux/types.h>
#include <linux/notifier.h>
#include <linux/shim_registry.h>
extern unsigned long kchacha_shim_random_calls;
extern bool kchacha_shim_rng_ready;
extern struct notifier_block *kchacha_shim_vmfork_nb;
extern void (*kchacha_shim_random_hook)(void);
/*
 * Set by a test: what every get_random_bytes() returns, made by this
 * function in the caller's thread (a tagged stream; a point at which the
 * caller may wait for another thread).
 */
extern void (*kchacha_shim_random_source)(void *buf, size_t len);
void get_random_bytes(void *buf, size_t len);

/*
 * get_random_bytes() calls not preceded, in their thread, by an acquire
 * read of an atomic since the previous call (see linux/atomic.h).
 */
extern unsigned long kchacha_shim_random_unordered;

/*
 * get_random_bytes() calls made with one of the shim's irqsave or local
 * locks held ("interrupts off"): reseed work that random.c would do
 * before taking its lock.
 */
extern unsigned long kchacha_shim_random_irqs_off;

/* No arch seed in user space, as on CPUs without one. */
static inline size_t arch_get_random_seed_longs(unsigned long *v, size_t n)
{
	(void)v;
	(void)n;
	return 0;
}

/* getrandom(2) blocks until the kernel's pool is initialized. */
static inline bool rng_is_initialized(void)
{
	return __atomic_load_n(&kchacha_shim_rng_ready, __ATOMIC_RELAXED);
}

/* in the registry (linux/shim_registry.h): twice is a bug, as a WARN */
static inline int kchacha_shim_register_vmfork(struct notifier_block *nb,
					       const char *file, int line)
{
	kchacha_shim_reg_add("vmfork notifier", nb, NULL, NULL, file, line);
	kchacha_shim_vmfork_nb = nb;
	return 0;
}

static inline int kchacha_shim_unregister_vmfork(struct notifier_block *nb,
						 const char *file, int line)
{
	if (!kchacha_shim_reg_del("vmfork notifier", nb, false, file, line))
		return -ENOENT;
	if (kchacha_shim_vmfork_nb == nb)
		kchacha_shim_vmfork_nb = NULL;
	return 0;
}

#define register_random_vmfork_notifier(nb)				\
	kchacha_shim_register_vmfork(nb, __FILE__, __LINE__)
#define unregister_random_vmfork_notifier(nb)				\
	kchacha_shim_unregister_vmfork(nb, __FILE__, __LINE__)
#endif
