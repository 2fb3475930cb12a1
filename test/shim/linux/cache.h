/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/cache.h>: 64-byte cache lines. */
#ifndef _SHIM_LINUX_CACHE_H
#define _SHIM_LINUX_CACHE_H
#define SMP_CACHE_BYTES		64
#define ____cacheline_aligned	__attribute__((__aligned__(SMP_CACHE_BYTES)))
#endif
