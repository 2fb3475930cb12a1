/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/percpu.h>: one cache-line-aligned copy per
 * configured CPU, side by side; "this CPU" is the rseq area's cpu_id (what
 * sched_getcpu() returns, without the call) or kchacha_shim_force_cpu when
 * a test sets it.  Unlike the kernel, nothing
 * pins a thread to its CPU, so per-CPU data must be locked (as rng.c's is).
 * Live allocations are listed in kchacha_shim_percpu[] for tests that scan
 * them; free_percpu() counts in kchacha_shim_dirty_frees any that are not
 * all zero when freed.
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

#define __percpu
#define KCHACHA_SHIM_PCPU_STRIDE(size)	(((size) + 63) & ~(size_t)63)
#define KCHACHA_SHIM_MAX_PERCPU		64

struct kchacha_shim_region {
	void *p;
	size_t size;
};

extern struct kchacha_shim_region kchacha_shim_percpu[KCHACHA_SHIM_MAX_PERCPU];
extern unsigned long kchacha_shim_dirty_frees;
extern int kchacha_shim_force_cpu;
extern unsigned int kchacha_shim_ncpus;

unsigned int kchacha_shim_cpu_slow(void);
void *kchacha_shim_alloc_percpu(size_t size);
void kchacha_shim_free_percpu(void *p);

static inline unsigned int kchacha_shim_cpu(void)
{
#ifdef KCHACHA_SHIM_RSEQ_CPU_ID
	if (kchacha_shim_force_cpu < 0 && __rseq_size) {
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
#define alloc_percpu(type)	((type *)kchacha_shim_alloc_percpu(sizeof(type)))
#define alloc_percpu_gfp(type, gfp)	alloc_percpu(type)
#define free_percpu(p)		kchacha_shim_free_percpu(p)
#define per_cpu_ptr(p, cpu)						\
	((__typeof__(p))((char *)(p) +					\
			 (size_t)(cpu) * KCHACHA_SHIM_PCPU_STRIDE(sizeof(*(p)))))
#define raw_cpu_ptr(p)		per_cpu_ptr(p, kchacha_shim_cpu())
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < (int)nr_cpu_ids; (cpu)++)
#endif
