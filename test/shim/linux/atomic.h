/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/atomic.h>: the few operations rng.c uses. */
#ifndef _SHIM_LINUX_ATOMIC_H
#define _SHIM_LINUX_ATOMIC_H
typedef struct {
	long counter;
} atomic_long_t;

#define ATOMIC_LONG_INIT(i)	{ (i) }
#define atomic_long_inc(v)	\
	((void)__atomic_fetch_add(&(v)->counter, 1, __ATOMIC_RELAXED))
#define atomic_long_dec(v)	\
	((void)__atomic_fetch_sub(&(v)->counter, 1, __ATOMIC_RELAXED))
#define atomic_long_read(v)	__atomic_load_n(&(v)->counter, __ATOMIC_RELAXED)
/*
 * Acquire reads and release writes of atomics count, per thread, in
 * kchacha_shim_acquires and kchacha_shim_releases: the tests check that
 * the code orders what must be ordered (x86 would never show it).
 */
extern __thread unsigned long kchacha_shim_acquires, kchacha_shim_releases;
#define atomic_long_read_acquire(v)	\
	(kchacha_shim_acquires++, __atomic_load_n(&(v)->counter, __ATOMIC_ACQUIRE))
#define atomic_long_add_return_release(i, v)	\
	(kchacha_shim_releases++,		\
	 __atomic_add_fetch(&(v)->counter, (i), __ATOMIC_RELEASE))
#define atomic_long_add(i, v)	\
	((void)__atomic_fetch_add(&(v)->counter, (i), __ATOMIC_RELAXED))
#define atomic_long_set(v, i)	__atomic_store_n(&(v)->counter, (i), __ATOMIC_RELAXED)
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)
#define cmpxchg(p, old, new)	__sync_val_compare_and_swap(p, old, new)
#endif
