/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/errno.h>: glibc's <errno.h> reaches it too. */
#ifndef _SHIM_LINUX_ERRNO_H
#define _SHIM_LINUX_ERRNO_H
#include <asm/errno.h>
#endif
