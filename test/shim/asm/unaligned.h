/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <asm/unaligned.h> (little-endian hosts). */
#ifndef _SHIM_ASM_UNALIGNED_H
#define _SHIM_ASM_UNALIGNED_H
#include <string.h>
#include <linux/types.h>
static inline u32 get_unaligned_le32(const void *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	memcpy(p, &v, sizeof(v));
}
#endif
