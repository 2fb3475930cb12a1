/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/smp.h>: this CPU as <linux/percpu.h> sees it. */
#ifndef _SHIM_LINUX_SMP_H
#define _SHIM_LINUX_SMP_H
#include <linux/percpu.h>
#define raw_smp_processor_id()	kchacha_shim_cpu()
#endif
