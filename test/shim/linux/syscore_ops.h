/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/syscore_ops.h> (6.1's interface). */
#ifndef _SHIM_LINUX_SYSCORE_OPS_H
#define _SHIM_LINUX_SYSCORE_OPS_H
#include <linux/shim_registry.h>
struct syscore_ops {
	int (*suspend)(void);
	void (*resume)(void);
	void (*shutdown)(void);
};

/* the one registered, whose resume tests call as syscore_resume() would */
extern struct syscore_ops *kchacha_shim_syscore;

/*
 * In the registry (linux/shim_registry.h): registering twice or
 * unregistering what is not registered corrupts the kernel's list, a bug.
 */
static inline void kchacha_shim_register_syscore(struct syscore_ops *ops,
						 const char *file, int line)
{
	kchacha_shim_reg_add("syscore ops", ops, NULL, NULL, file, line);
	kchacha_shim_syscore = ops;
}

static inline void kchacha_shim_unregister_syscore(struct syscore_ops *ops,
						   const char *file, int line)
{
	kchacha_shim_reg_del("syscore ops", ops, true, file, line);
	if (kchacha_shim_syscore == ops)
		kchacha_shim_syscore = (struct syscore_ops *)0;
}

#define register_syscore_ops(ops)					\
	kchacha_shim_register_syscore(ops, __FILE__, __LINE__)
#define unregister_syscore_ops(ops)					\
	kchacha_shim_unregister_syscore(ops, __FILE__, __LINE__)
#endif
