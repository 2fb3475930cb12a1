/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/version.h>: the oldest kernel kchacha supports. */
#ifndef _SHIM_LINUX_VERSION_H
#define _SHIM_LINUX_VERSION_H
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#define LINUX_VERSION_CODE KERNEL_VERSION(6, 1, 0)
#endif
