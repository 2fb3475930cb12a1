/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/spinlock.h>: a test-and-set lock that yields
 * the CPU while it waits, because here, unlike in the kernel, the holder
 * can be preempted.  "irqsave" has nothing to save, but counts, per
 * thread, in kchacha_shim_irqs_off how many such locks are held: the
 * shimmed kernel_fpu_begin() and cond_resched() check it.  Every lock
 * taken is counted in kchacha_shim_locks (per thread).  "_bh" locks count
 * in kchacha_shim_bh_off, which cond_resched() checks too.
 */
#ifndef _SHIM_LINUX_SPINLOCK_H
#define _SHIM_LINUX_SPINLOCK_H
#include <sched.h>

extern __thread int kchacha_shim_irqs_off;
extern __thread unsigned long kchacha_shim_locks;
extern __thread int kchacha_shim_bh_off;

typedef struct {
	int locked;
} spinlock_t;

#define DEFINE_SPINLOCK(x)	spinlock_t x = { 0 }

static inline void spin_lock_init(spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELAXED);
}

static inline void kchacha_shim_spin_lock(spinlock_t *l)
{
	kchacha_shim_locks++;
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			sched_yield();
}

static inline void kchacha_shim_spin_unlock(spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

#define spin_lock(l)			kchacha_shim_spin_lock(l)
#define spin_unlock(l)			kchacha_shim_spin_unlock(l)
#define spin_lock_irqsave(l, flags)	\
	do { (flags) = 0; kchacha_shim_spin_lock(l); \
	     kchacha_shim_irqs_off++; } while (0)
#define spin_unlock_irqrestore(l, flags) \
	do { (void)(flags); kchacha_shim_irqs_off--; \
	     kchacha_shim_spin_unlock(l); } while (0)
#define spin_lock_bh(l)	\
	do { kchacha_shim_spin_lock(l); kchacha_shim_bh_off++; } while (0)
#define spin_unlock_bh(l) \
	do { kchacha_shim_bh_off--; kchacha_shim_spin_unlock(l); } while (0)
#endif
