/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/syscore_ops.h> (6.1's interface). */
#ifndef _SHIM_LINUX_SYSCORE_OPS_H
#define _SHIM_LINUX_SYSCORE_OPS_H
struct syscore_ops {
	int (*suspend)(void);
	void (*resume)(void);
	void (*shutdown)(void);
};

/* the one registered, whose resume tests call as syscore_resume() would */
extern struct syscore_ops *kchacha_shim_syscore;

static inline void register_syscore_ops(struct syscore_ops *ops)
{
	kchacha_shim_syscore = ops;
}

static inline void unregister_syscore_ops(struct syscore_ops *ops)
{
	if (kchacha_shim_syscore == ops)
		kchacha_shim_syscore = (struct syscore_ops *)0;
}
#endif
