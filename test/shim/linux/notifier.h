/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/notifier.h>. */
#ifndef _SHIM_LINUX_NOTIFIER_H
#define _SHIM_LINUX_NOTIFIER_H
struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long action,
			     void *data);
	int priority;
};

#define NOTIFY_DONE	0
#endif
