/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/timex.h>: random_get_entropy(). */
#ifndef _SHIM_LINUX_TIMEX_H
#define _SHIM_LINUX_TIMEX_H
#include <linux/timekeeping.h>
#if defined(__x86_64__)
#define random_get_entropy()					\
	(__atomic_load_n(&kchacha_shim_clock_fixed, __ATOMIC_RELAXED) ? 0UL : \
	 (unsigned long)__builtin_ia32_rdtsc())
#else
#define random_get_entropy()	\
	((unsigned long)kchacha_shim_clock_ns(CLOCK_MONOTONIC_RAW))
#endif
#endif
