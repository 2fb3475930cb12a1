/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/slab.h>: allocations are counted, with their
 * sizes, in kchacha_shim_slab_bytes (live bytes) and listed in
 * kchacha_shim_slab[] for tests that scan or measure them, each with its
 * call site and its number (kchacha_shim_slab_serial, allocations so far)
 * for tests that look for leaks, as kmemleak would.
 */
#ifndef _SHIM_LINUX_SLAB_H
#define _SHIM_LINUX_SLAB_H
#include <stdbool.h>
#include <stddef.h>
typedef int gfp_t;
#define GFP_KERNEL		0
#define GFP_ATOMIC		0
#define GFP_NOWAIT		0
#define GFP_KERNEL_ACCOUNT	0
#define __GFP_ACCOUNT		0
#define __GFP_NOWARN		0
#define __GFP_ZERO		1

#define KCHACHA_SHIM_MAX_SLAB	4096
extern struct kchacha_shim_slab_region {
	void *p;		/* NULL: a free entry */
	size_t size;
	const char *file;	/* where it was allocated */
	int line;
	unsigned long serial;	/* the allocation's number, from 1 */
} kchacha_shim_slab[KCHACHA_SHIM_MAX_SLAB];
extern unsigned long kchacha_shim_slab_serial;
extern long kchacha_shim_slab_bytes;
/* set by tests: every allocation fails */
extern bool kchacha_shim_kmalloc_fail;
/* set by tests: runs (once, then cleared) at the next allocation */
extern void (*kchacha_shim_kmalloc_hook)(void);
/* kfree() (not kfree_sensitive()) of memory that was not all zero */
extern unsigned long kchacha_shim_plain_dirty_frees;

void *kchacha_shim_kmalloc(size_t n, int gfp, const char *file, int line);
void kchacha_shim_kfree(const void *p, int sensitive);
#define kmalloc(n, gfp)		\
	kchacha_shim_kmalloc(n, gfp, __FILE__, __LINE__)
#define kzalloc(n, gfp)		\
	kchacha_shim_kmalloc(n, (gfp) | __GFP_ZERO, __FILE__, __LINE__)
#define kcalloc(n, size, gfp)	kzalloc((n) * (size), gfp)
#define kfree(p)		kchacha_shim_kfree(p, 0)
#define kfree_sensitive(p)	kchacha_shim_kfree(p, 1)
#endif
