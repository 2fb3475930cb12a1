/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/jiffies.h>: jiffies from the coarse monotonic
 * clock (a vDSO read, no system call), plus kchacha_shim_jiffies_offset,
 * which tests raise to make time pass.
 */
#ifndef _SHIM_LINUX_JIFFIES_H
#define _SHIM_LINUX_JIFFIES_H
#include <time.h>
#define HZ			1000
extern unsigned long kchacha_shim_jiffies_offset;

static inline unsigned long kchacha_shim_jiffies(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (unsigned long)ts.tv_sec * HZ + ts.tv_nsec / (1000000000 / HZ) +
	       __atomic_load_n(&kchacha_shim_jiffies_offset, __ATOMIC_RELAXED);
}

#define jiffies			kchacha_shim_jiffies()
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#endif
