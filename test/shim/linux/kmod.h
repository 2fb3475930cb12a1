/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/kmod.h>: request_module() is recorded in
 * test/shim/shim_crypto.c, and runs a test's hook, which may register
 * what that module would.
 */
#ifndef _SHIM_LINUX_KMOD_H
#define _SHIM_LINUX_KMOD_H
int request_module(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
#endif
