/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/timekeeping.h>: the clocks, in ns. */
#ifndef _SHIM_LINUX_TIMEKEEPING_H
#define _SHIM_LINUX_TIMEKEEPING_H
#include <time.h>
#include <linux/types.h>

/* set by tests: the clocks read 0 (a deterministic reseed) */
extern bool kchacha_shim_clock_fixed;

static inline u64 kchacha_shim_clock_ns(clockid_t id)
{
	struct timespec ts;

	if (__atomic_load_n(&kchacha_shim_clock_fixed, __ATOMIC_RELAXED))
		return 0;
	clock_gettime(id, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

#define ktime_get_real_ns()	kchacha_shim_clock_ns(CLOCK_REALTIME)
#define ktime_get_boottime_ns()	kchacha_shim_clock_ns(CLOCK_BOOTTIME)
#define ktime_get_ns()		kchacha_shim_clock_ns(CLOCK_MONOTONIC)
#endif
