/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/jiffies.h>: as in the kernel, jiffies is a
 * plain load of a counter that a tick advances HZ times a second, here a
 * thread started on first use; plus kchacha_shim_jiffies_offset, which
 * tests raise to make time pass.  While kchacha_shim_jiffies_frozen is
 * set the tick stands still: only the offset moves.
 */
#ifndef _SHIM_LINUX_JIFFIES_H
#define _SHIM_LINUX_JIFFIES_H
#define HZ			250
#include <stdint.h>
extern uint64_t kchacha_shim_jiffies_now;
extern uint64_t kchacha_shim_jiffies_offset;
extern bool kchacha_shim_jiffies_frozen;
void kchacha_shim_jiffies_start(void);

static inline uint64_t kchacha_shim_jiffies(void)
{
	uint64_t j = __atomic_load_n(&kchacha_shim_jiffies_now,
					  __ATOMIC_RELAXED);

	if (__builtin_expect(!j, 0)) {
		kchacha_shim_jiffies_start();
		j = __atomic_load_n(&kchacha_shim_jiffies_now,
				    __ATOMIC_RELAXED);
	}
	return j + __atomic_load_n(&kchacha_shim_jiffies_offset,
				   __ATOMIC_RELAXED);
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
