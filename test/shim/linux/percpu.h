/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/percpu.h>: one cache-line-aligned copy per
 * configured CPU, side by side; "this CPU" is sched_getcpu(), or
 * kchacha_shim_force_cpu when a test sets it.  Unlike the kernel, nothing
 * pins a thread to its CPU, so per-CPU data must be locked (as rng.c's is).
 * Live allocations are listed in kchacha_shim_percpu[] for tests that scan
 * them; free_percpu() counts in kchacha_shim_dirty_frees any that are not
 * all zero when freed.
 */
#ifndef _SHIM_LINUX_PERCPU_H
#define _SHIM_LINUX_PERCPU_H
#include <stddef.h>

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

unsigned int kchacha_shim_nr_cpus(void);
unsigned int kchacha_shim_cpu(void);
void *kchacha_shim_alloc_percpu(size_t size);
void kchacha_shim_free_percpu(void *p);

#define nr_cpu_ids		kchacha_shim_nr_cpus()
#define alloc_percpu(type)	((type *)kchacha_shim_alloc_percpu(sizeof(type)))
#define free_percpu(p)		kchacha_shim_free_percpu(p)
#define per_cpu_ptr(p, cpu)						\
	((__typeof__(p))((char *)(p) +					\
			 (size_t)(cpu) * KCHACHA_SHIM_PCPU_STRIDE(sizeof(*(p)))))
#define raw_cpu_ptr(p)		per_cpu_ptr(p, kchacha_shim_cpu())
#define for_each_possible_cpu(cpu) \
	for ((cpu) = 0; (cpu) < (int)nr_cpu_ids; (cpu)++)
#endif
