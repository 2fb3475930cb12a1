/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/string.h>. */
#ifndef _SHIM_LINUX_STRING_H
#define _SHIM_LINUX_STRING_H
#include <stdbool.h>
#include <string.h>
/* As the kernel's: memset, then a barrier that keeps the stores. */
static inline void memzero_explicit(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

static inline long strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (!size)
		return -7;	/* -E2BIG */
	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = 0;
		return -7;
	}
	memcpy(dst, src, n + 1);
	return n;
}

/* equal, but for one trailing newline on either */
static inline bool sysfs_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	if (*a == *b)
		return true;
	return (!*a && *b == '\n' && !b[1]) || (!*b && *a == '\n' && !a[1]);
}
#endif
