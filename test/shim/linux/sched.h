/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/sched.h>, <linux/preempt.h> and
 * <linux/rcupdate.h>: cond_resched() counts its calls in
 * kchacha_shim_resched (per thread) and fails the test, through
 * kchacha_shim_bad_resched, when called where the kernel could not
 * sleep: with a shimmed spinlock held or "interrupts off".  A test clears
 * kchacha_shim_preemptible to play a caller that may not sleep (softirq,
 * a held lock on a kernel without preempt counts), and sets
 * kchacha_shim_hardirq to play a caller in hard interrupt context
 * (in_hardirq(), irqs_disabled()); kchacha_shim_rcu_depth is
 * rcu_preempt_depth(), for a caller in an RCU read-side section.
 */
#ifndef _SHIM_LINUX_SCHED_H
#define _SHIM_LINUX_SCHED_H
#include <linux/spinlock.h>
extern __thread unsigned long kchacha_shim_resched;
extern __thread bool kchacha_shim_preemptible;
extern unsigned long kchacha_shim_bad_resched;
extern __thread bool kchacha_shim_hardirq;
extern __thread int kchacha_shim_rcu_depth;

#define in_hardirq()		(kchacha_shim_hardirq)
#define irqs_disabled()		(kchacha_shim_hardirq || kchacha_shim_irqs_off)

#define preemptible()		\
	(kchacha_shim_preemptible && !kchacha_shim_irqs_off && \
	 !kchacha_shim_bh_off && !kchacha_shim_hardirq)
#define rcu_preempt_depth()	(kchacha_shim_rcu_depth)

static inline void cond_resched(void)
{
	if (!preemptible())
		__atomic_fetch_add(&kchacha_shim_bad_resched, 1,
				   __ATOMIC_RELAXED);
	kchacha_shim_resched++;
}
#endif
