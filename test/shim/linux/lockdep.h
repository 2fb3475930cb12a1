/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/lockdep.h>: lockdep_assert_held() of a local
 * lock (the one kind the module asserts), as a kernel with lockdep checks
 * it: this thread holds that very lock, the one of the CPU it locked, not
 * another CPU's.  A per-CPU pointer kept across an unlock, and the lock
 * taken again on another CPU (the shim moves threads at that point), fails
 * the test.
 */
#ifndef _SHIM_LINUX_LOCKDEP_H
#define _SHIM_LINUX_LOCKDEP_H
#include <linux/local_lock.h>

void kchacha_shim_not_held(const char *what, const char *file, int line);

#define lockdep_assert_held(lock)					\
	do {								\
		if (kchacha_shim_local_held != &(lock)->l)		\
			kchacha_shim_not_held(#lock, __FILE__, __LINE__); \
	} while (0)
#endif
