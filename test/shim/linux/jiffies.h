/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/jiffies.h>.  Time here is virtual: jiffies_64
 * starts where the kernel's does (INITIAL_JIFFIES: five minutes before a
 * 32-bit jiffies wraps) and moves only when a test adds to
 * kchacha_shim_jiffies_offset (or the shim's msleep() and killable sleep
 * do, by their length).  No tick: a check that counts reseeds or sleeps
 * sees exactly the time the test made pass, however long the run really
 * took (an emulator on a loaded machine).
 */
#ifndef _SHIM_LINUX_JIFFIES_H
#define _SHIM_LINUX_JIFFIES_H
#define HZ			250
#include <stdint.h>
#define KCHACHA_SHIM_INITIAL_JIFFIES	((uint64_t)(uint32_t)(-300 * HZ))
extern uint64_t kchacha_shim_jiffies_offset;

static inline uint64_t kchacha_shim_jiffies(void)
{
	return KCHACHA_SHIM_INITIAL_JIFFIES +
	       __atomic_load_n(&kchacha_shim_jiffies_offset, __ATOMIC_RELAXED);
}

/* jiffies is the low bits of jiffies_64, as in the kernel */
#define jiffies			((unsigned long)kchacha_shim_jiffies())
#define get_jiffies_64()	kchacha_shim_jiffies()
#define time_after64(a, b)	((int64_t)((b) - (a)) < 0)
#define MAX_JIFFY_OFFSET	((long)(~0UL >> 2) - 1)
#define time_after(a, b)	((long)((b) - (a)) < 0)
#define time_before(a, b)	time_after(b, a)
#define msecs_to_jiffies(ms)	(((unsigned long)(ms) * HZ + 999) / 1000)
#endif
