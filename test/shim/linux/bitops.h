/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/bitops.h>. */
#ifndef _SHIM_LINUX_BITOPS_H
#define _SHIM_LINUX_BITOPS_H
#include <linux/types.h>
static inline u32 rol32(u32 w, unsigned int s)
{
	return (w << (s & 31)) | (w >> ((-s) & 31));
}
#endif
