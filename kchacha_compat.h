/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha_compat.h: every difference between the kernels kchacha builds
 * for (Linux 6.1 and later), in one place.  The sources include this
 * instead of the headers that moved, and never test LINUX_VERSION_CODE
 * themselves.
 */
#ifndef _KCHACHA_COMPAT_H
#define _KCHACHA_COMPAT_H

#include <linux/version.h>

/* 6.12 moved <asm/unaligned.h> to <linux/unaligned.h>. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* _KCHACHA_COMPAT_H */
