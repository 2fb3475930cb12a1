/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/percpu.h>: one cache-line-aligned copy per
 * configured CPU, side by side; "this CPU" is the rseq area's cpu_id (what
 * sched_getcpu() returns, without the call) or kchacha_shim_force_cpu when
 * a test sets it, or kchacha_shim_thread_cpu, a thread's own, when that
 * thread sets it.  Unlike the kernel, nothing pins a thread to its CPU.
 */
#ifndef _SHIM_LINUX_PERCPU_H
#define _SHIM_LINUX_PERCPU_H
#include <stddef.h>
#include <features.h>

#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35)
/* glibc's registration of the thread's rseq area (<sys/rseq.h>) */
extern const ptrdiff_t __rseq_offset;
extern const unsigned int __rseq_size;
#define KCHACHA_SHIM_RSEQ_CPU_ID	4	/* offsetof(struct rseq, cpu_id) */
#endif

extern unsigned long kchacha_shim_dirty_frees;
extern int kchacha_shim_force_cpu;
extern __thread int kchacha_shim_thread_cpu;
extern unsigned int kchacha_shim_ncpus;

unsigned int kchacha_shim_cpu_slow(void);

static inline unsigned int kchacha_shim_cpu(void)
{
#ifdef KCHACHA_SHIM_RSEQ_CPU_ID
	if (kchacha_shim_force_cpu < 0 && kchacha_shim_thread_cpu < 0 &&
	    __rseq_size) {
		unsigned int cpu = *(volatile unsigned int *)
			((char *)__builtin_thread_pointer() + __rseq_offset +
			 KCHACHA_SHIM_RSEQ_CPU_ID);

		if (cpu < kchacha_shim_ncpus)
			return cpu;
	}
#endif
	return kchacha_shim_cpu_slow();
}

#define nr_cpu_ids		kchacha_shim_ncpus
#endif
