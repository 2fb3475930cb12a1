/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/module.h>: no modules here.  A test that
 * includes chacha_glue.c sets its parameters, static variables, itself
 * and calls kchacha_mod_init() and kchacha_mod_exit().
 */
#ifndef _SHIM_LINUX_MODULE_H
#define _SHIM_LINUX_MODULE_H
struct module;
#define THIS_MODULE		((struct module *)0)
#define module_param(name, type, perm)	\
	static __attribute__((unused)) const void *kchacha_shim_param_##name = &name
#define MODULE_PARM_DESC(name, desc)	\
	static __attribute__((unused)) const char kchacha_shim_desc_##name[] = desc
#define module_init(fn)		\
	static __attribute__((unused)) int (*kchacha_shim_init)(void) = fn
#define module_exit(fn)		\
	static __attribute__((unused)) void (*kchacha_shim_exit)(void) = fn
#define MODULE_DESCRIPTION(s)	struct kchacha_shim_modinfo
#define MODULE_LICENSE(s)	struct kchacha_shim_modinfo
#define MODULE_VERSION(s)	struct kchacha_shim_modinfo
#define MODULE_ALIAS_CRYPTO(s)	struct kchacha_shim_modinfo
#endif
