/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/delay.h>: no real sleep but in the bench.
 * msleep() (in <linux/kernel.h>) moves the virtual jiffies on;
 * usleep_range() counts its calls in kchacha_shim_usleeps (per thread),
 * for the tests, and a call where the kernel could not sleep in
 * kchacha_shim_bad_resched.
 */
#ifndef _SHIM_LINUX_DELAY_H
#define _SHIM_LINUX_DELAY_H
#include <linux/kernel.h>
#include <linux/sched.h>

extern __thread unsigned long kchacha_shim_usleeps;
/* set by the bench: usleep_range() sleeps for real, as in the kernel */
extern bool kchacha_shim_usleep_real;

/* a sleep where the kernel could not sleep fails the test, as cond_resched() */
static inline void usleep_range(unsigned long min, unsigned long max)
{
	(void)min;
	(void)max;
	if (!preemptible())
		__atomic_fetch_add(&kchacha_shim_bad_resched, 1,
				   __ATOMIC_RELAXED);
	kchacha_shim_usleeps++;
	if (kchacha_shim_usleep_real)
		usleep(min);
}
#endif
