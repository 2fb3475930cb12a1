/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/compiler.h>: the helpers rng.c uses. */
#ifndef _SHIM_LINUX_COMPILER_H
#define _SHIM_LINUX_COMPILER_H
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define noinline		__attribute__((__noinline__))
#define __must_hold(x)
#endif
