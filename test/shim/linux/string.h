/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/string.h>. */
#ifndef _SHIM_LINUX_STRING_H
#define _SHIM_LINUX_STRING_H
#include <string.h>
static inline void memzero_explicit(void *p, size_t n)
{
	explicit_bzero(p, n);
}
#endif
