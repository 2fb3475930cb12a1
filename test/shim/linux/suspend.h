/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/suspend.h>: the PM notifier registered last
 * is kchacha_shim_pm_nb, which tests call to play a suspend and resume;
 * every one registered is in the shim's registry.
 */
#ifndef _SHIM_LINUX_SUSPEND_H
#define _SHIM_LINUX_SUSPEND_H
#include <linux/errno.h>
#include <linux/notifier.h>
#include <linux/shim_registry.h>

#define PM_HIBERNATION_PREPARE	0x0001
#define PM_POST_HIBERNATION	0x0002
#define PM_SUSPEND_PREPARE	0x0003
#define PM_POST_SUSPEND		0x0004
#define PM_RESTORE_PREPARE	0x0005
#define PM_POST_RESTORE		0x0006

extern struct notifier_block *kchacha_shim_pm_nb;

/* in the registry (linux/shim_registry.h): twice is a bug, as a WARN */
static inline int kchacha_shim_register_pm(struct notifier_block *nb,
					   const char *file, int line)
{
	kchacha_shim_reg_add("PM notifier", nb, NULL, NULL, file, line);
	kchacha_shim_pm_nb = nb;
	return 0;
}

static inline int kchacha_shim_unregister_pm(struct notifier_block *nb,
					     const char *file, int line)
{
	if (!kchacha_shim_reg_del("PM notifier", nb, false, file, line))
		return -ENOENT;
	if (kchacha_shim_pm_nb == nb)
		kchacha_shim_pm_nb = NULL;
	return 0;
}

#define register_pm_notifier(nb)					\
	kchacha_shim_register_pm(nb, __FILE__, __LINE__)
#define unregister_pm_notifier(nb)					\
	kchacha_shim_unregister_pm(nb, __FILE__, __LINE__)
#endif
