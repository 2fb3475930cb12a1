/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/irqflags.h>: see linux/sched.h. */
#include <linux/sched.h>
