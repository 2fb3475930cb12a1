/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/refcount.h>: an algorithm's reference count. */
#ifndef _SHIM_LINUX_REFCOUNT_H
#define _SHIM_LINUX_REFCOUNT_H
typedef struct {
	int refs;
} refcount_t;

static inline unsigned int refcount_read(const refcount_t *r)
{
	return __atomic_load_n(&r->refs, __ATOMIC_ACQUIRE);
}

static inline void refcount_set(refcount_t *r, int n)
{
	__atomic_store_n(&r->refs, n, __ATOMIC_RELEASE);
}

static inline void refcount_inc(refcount_t *r)
{
	__atomic_fetch_add(&r->refs, 1, __ATOMIC_ACQ_REL);
}

static inline void refcount_dec(refcount_t *r)
{
	__atomic_fetch_sub(&r->refs, 1, __ATOMIC_ACQ_REL);
}
#endif
