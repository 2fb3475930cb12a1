/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/slab.h>. */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H
#include <stdlib.h>
#define GFP_KERNEL		0
#define GFP_ATOMIC		0
#define GFP_KERNEL_ACCOUNT	0
#define kmalloc(n, gfp)		malloc(n)
#define kzalloc(n, gfp)		calloc(1, n)
#define kfree(p)		free(p)
#define kfree_sensitive(p)	free(p)
#endif
