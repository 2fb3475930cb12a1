/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/kernel.h>: the few helpers the core uses. */
#ifndef _SHIM_LINUX_KERNEL_H
#define _SHIM_LINUX_KERNEL_H
#include <assert.h>
#include <limits.h>	/* UINT_MAX, as <linux/limits.h> through it */
#include <stdio.h>
#include <unistd.h>
#include <linux/types.h>
#ifndef PAGE_SIZE
#define PAGE_SIZE		4096UL
#endif
#define rounddown(x, y)		((x) - ((x) % (y)))
#include <linux/jiffies.h>
/* no real sleep: the virtual jiffies move on by it, as in the kernel */
#define msleep(ms)	\
	__atomic_fetch_add(&kchacha_shim_jiffies_offset, msecs_to_jiffies(ms), \
			   __ATOMIC_RELAXED)
#include <linux/compiler.h>
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define round_down(x, y)	((x) & ~((__typeof__(x))(y) - 1))
#define min_t(t, a, b)		((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)		((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define min(a, b)		((a) < (b) ? (a) : (b))
#define max(a, b)		((a) > (b) ? (a) : (b))
#define swap(a, b)		do { __typeof__(a) __t = (a); (a) = (b); (b) = __t; } while (0)
#define pr_err(...)		fprintf(stderr, __VA_ARGS__)
#define pr_info(...)		fprintf(stderr, __VA_ARGS__)
#define pr_warn(...)		fprintf(stderr, __VA_ARGS__)
#define pr_debug(...)		do { } while (0)
#define EXPORT_SYMBOL_GPL(s)
#define __init
#define __exit
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define scnprintf(buf, size, ...)	snprintf(buf, size, __VA_ARGS__)
/* <linux/compiler_attributes.h>: no zeroing of this local at entry */
#define __uninitialized		__attribute__((__uninitialized__))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#endif
