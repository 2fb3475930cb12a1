/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/preempt.h>: see linux/sched.h; and
 * migrate_disable(), which keeps the thread on the CPU it is on (the
 * thread's own CPU of linux/percpu.h) until migrate_enable(), and counts
 * in kchacha_shim_migrate_off (this_cpu_ptr() may be used meanwhile).
 * Nested as in the kernel: the outermost pair pins and unpins.
 */
#ifndef _SHIM_LINUX_PREEMPT_H
#define _SHIM_LINUX_PREEMPT_H
#include <stdlib.h>
#include <linux/sched.h>
#include <linux/percpu.h>

extern __thread int kchacha_shim_migrate_saved;
extern __thread int kchacha_shim_migrate_off;

static inline void migrate_disable(void)
{
	if (kchacha_shim_migrate_off++)
		return;
	kchacha_shim_migrate_saved = kchacha_shim_thread_cpu;
	kchacha_shim_thread_cpu = kchacha_shim_cpu();
}

static inline void migrate_enable(void)
{
	if (kchacha_shim_migrate_off <= 0)
		abort();	/* not disabled */
	if (--kchacha_shim_migrate_off)
		return;
	kchacha_shim_thread_cpu = kchacha_shim_migrate_saved;
}
#endif
