/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/sched/signal.h> and the sleep of
 * <linux/sched.h> that chacha_glue.c's bounded wait uses (the loading
 * task's): fatal_signal_pending() is kchacha_shim_fatal_signal, which a
 * test sets; schedule_timeout_killable() sleeps no real time but moves
 * jiffies on by its timeout (kchacha_shim_jiffies_offset), counts the
 * jiffies slept in kchacha_shim_slept, and then runs
 * kchacha_shim_sleep_hook, where a test lets a holder go or sends the
 * signal.  With a fatal signal pending it returns at once, as the
 * kernel's does.  (test/shim/shim_crypto.c)
 */
#ifndef _SHIM_LINUX_SCHED_SIGNAL_H
#define _SHIM_LINUX_SCHED_SIGNAL_H
#include <linux/jiffies.h>
#include <linux/sched.h>

struct task_struct;
#define current			((struct task_struct *)0)

extern bool kchacha_shim_fatal_signal;
extern unsigned long kchacha_shim_slept;
extern void (*kchacha_shim_sleep_hook)(void);

static inline int fatal_signal_pending(struct task_struct *p)
{
	(void)p;
	return kchacha_shim_fatal_signal;
}

long schedule_timeout_killable(long timeout);
#endif
