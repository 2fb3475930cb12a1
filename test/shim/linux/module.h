/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/module.h>: no modules here. */
#ifndef _SHIM_LINUX_MODULE_H
#define _SHIM_LINUX_MODULE_H
struct module;
#define THIS_MODULE		((struct module *)0)
#endif
