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
static inline unsigned long kchacha_shim_irq_save(void)
{
	unsigned long f = 0;

#ifdef __x86_64__
	__asm__ volatile("pushfq; popq %0" : "=r"(f) : : "memory");
#else
	__asm__ volatile("" : : : "memory");
#endif
	return f;
}

#define local_lock_irqsave(lock, flags)					\
	do {								\
		unsigned int kchacha_cpu__ = kchacha_shim_cpu();	\
									\
		if (kchacha_shim_local_cpu >= 0)			\
			abort();	/* never nested */		\
		(void)kchacha_shim_irq_save();				\
		(flags) = kchacha_cpu__;				\
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
		__asm__ volatile("" : : : "memory");			\
	} while (0)
#else
#define local_lock_irqsave(lock, flags)					\
	do {								\
		void (*kchacha_hook__)(void) = __atomic_load_n(	\
			&kchacha_shim_local_lock_hook, __ATOMIC_ACQUIRE); \
		unsigned int kchacha_cpu__;				\
									\
		if (kchacha_hook__)					\
			kchacha_hook__();				\
		kchacha_cpu__ = kchacha_shim_cpu();			\
		if (kchacha_shim_local_cpu >= 0)			\
			abort();	/* never nested */		\
		(flags) = kchacha_cpu__;				\
		kchacha_shim_spin_lock(&per_cpu_ptr(lock, kchacha_cpu__)->l); \
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
		kchacha_shim_spin_unlock(&per_cpu_ptr(lock, (flags))->l); \
	} while (0)
#endif
#endif
