/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/suspend.h>: the PM notifier registered last
 * is kchacha_shim_pm_nb, which tests call to play a suspend and resume.
 */
#ifndef _SHIM_LINUX_SUSPEND_H
#define _SHIM_LINUX_SUSPEND_H
#include <linux/notifier.h>

#define PM_HIBERNATION_PREPARE	0x0001
#define PM_POST_HIBERNATION	0x0002
#define PM_SUSPEND_PREPARE	0x0003
#define PM_POST_SUSPEND		0x0004
#define PM_RESTORE_PREPARE	0x0005
#define PM_POST_RESTORE		0x0006

extern struct notifier_block *kchacha_shim_pm_nb;

static inline int register_pm_notifier(struct notifier_block *nb)
{
	kchacha_shim_pm_nb = nb;
	return 0;
}

static inline int unregister_pm_notifier(struct notifier_block *nb)
{
	if (kchacha_shim_pm_nb == nb)
		kchacha_shim_pm_nb = NULL;
	return 0;
}
#endif
