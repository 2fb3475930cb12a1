/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/local_lock.h>: a per-CPU lock, as on
 * PREEMPT_RT a real lock, because here nothing pins a thread to its CPU.
 * Between local_lock_irqsave() and local_unlock_irqrestore() the thread
 * stays on the CPU it locked (this_cpu_ptr() sees that one) and counts as
 * having "interrupts off" (kchacha_shim_irqs_off, see linux/spinlock.h).
 * A test may set kchacha_shim_local_lock_hook, which every
 * local_lock_irqsave() calls first, in the caller's thread, before it
 * takes the lock: a point at which the caller may wait for another thread.
 */
#ifndef _SHIM_LINUX_LOCAL_LOCK_H
#define _SHIM_LINUX_LOCAL_LOCK_H
#include <stdlib.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>

typedef struct {
	spinlock_t l;
} local_lock_t;

extern void (*kchacha_shim_local_lock_hook)(void);

/* the CPU lock this thread holds, for lockdep_assert_held() */
extern __thread spinlock_t *kchacha_shim_local_held;

#define local_lock_init(lock)	spin_lock_init(&(lock)->l)

#ifdef KCHACHA_SHIM_BENCH_LOCK
/*
 * make bench's rng (test/bench/Makefile): the kernel's local lock outside
 * PREEMPT_RT, which disables interrupts on this CPU and shares nothing:
 * the flags read as local_irq_save() reads them (pushf on x86; cli and sti
 * are not for user space), no atomic, no hook.  For one thread only: the
 * bench's, pinned to one CPU.  The tests take the real lock below.
 */
static inline void kchacha_shim_local_acquire(spinlock_t *l)
{
	unsigned long f;

	(void)l;
#ifdef __x86_64__
	__asm__ volatile("pushfq; popq %0" : "=r"(f) : : "memory");
#else
	f = 0;
	__asm__ volatile("" : : : "memory");
#endif
	(void)f;
}

static inline void kchacha_shim_local_release(spinlock_t *l)
{
	(void)l;
	__asm__ volatile("" : : : "memory");
}

#define kchacha_shim_local_hook()	do { } while (0)
#else
#define kchacha_shim_local_acquire(l)	kchacha_shim_spin_lock(l)
#define kchacha_shim_local_release(l)	kchacha_shim_spin_unlock(l)

#define kchacha_shim_local_hook()					\
	do {								\
		void (*kchacha_hook__)(void) = __atomic_load_n(	\
			&kchacha_shim_local_lock_hook, __ATOMIC_ACQUIRE); \
									\
		if (kchacha_hook__)					\
			kchacha_hook__();				\
	} while (0)
#endif

#define local_lock_irqsave(lock, flags)					\
	do {								\
		unsigned int kchacha_cpu__;				\
									\
		kchacha_shim_local_hook();				\
		kchacha_cpu__ = kchacha_shim_cpu();			\
		if (kchacha_shim_local_cpu >= 0)			\
			abort();	/* never nested */		\
		(flags) = kchacha_cpu__;				\
		kchacha_shim_local_acquire(&per_cpu_ptr(lock, kchacha_cpu__)->l); \
		kchacha_shim_local_cpu = kchacha_cpu__;			\
		kchacha_shim_local_held =				\
			&per_cpu_ptr(lock, kchacha_cpu__)->l;		\
		kchacha_shim_irqs_off++;				\
	} while (0)

#define local_unlock_irqrestore(lock, flags)				\
	do {								\
		if (kchacha_shim_local_cpu != (int)(flags))		\
			abort();					\
		kchacha_shim_irqs_off--;				\
		kchacha_shim_local_cpu = -1;				\
		kchacha_shim_local_held = NULL;				\
		kchacha_shim_local_release(&per_cpu_ptr(lock, (flags))->l); \
	} while (0)
#endif
