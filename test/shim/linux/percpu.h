/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/percpu.h>: one cache-line-aligned copy per
 * configured CPU, side by side; "this CPU" is the rseq area's cpu_id (what
 * sched_getcpu() returns, without the call) or kchacha_shim_force_cpu when
 * a test sets it, or kchacha_shim_thread_cpu, a thread's own, when that
 * thread sets it.  Unlike the kernel, nothing pins a thread to its CPU.
 *
 * this_cpu_ptr() is checked as CONFIG_DEBUG_PREEMPT checks it: only where
 * the task could not move to another CPU, with a local lock held (inline
 * below), or where kchacha_shim_this_cpu_slow() finds "interrupts",
 * bottom halves or preemption off, a SIMD section open, hard interrupt
 * context or migrate_disable(); anywhere else it fails the test, naming
 * the call site.  per_cpu_ptr() with an explicit CPU is not checked.
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

extern __thread int kchacha_shim_local_cpu;
unsigned int kchacha_shim_cpu_slow(void);

static inline unsigned int kchacha_shim_cpu(void)
{
	if (kchacha_shim_local_cpu >= 0)
		return kchacha_shim_local_cpu;
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

/*
 * Per-CPU memory: the copies lie KCHACHA_SHIM_PCPU_STRIDE bytes apart in
 * one kmalloc region (so that per_cpu_ptr() works on a pointer to any
 * member), zeroed; kchacha_shim_percpu_bytes counts what was asked for,
 * size times the CPUs, while it lives.  free_percpu() is a plain kfree():
 * memory not wiped first counts in kchacha_shim_plain_dirty_frees.
 */
#define KCHACHA_SHIM_PCPU_STRIDE	4096
#define __percpu
extern long kchacha_shim_percpu_bytes;
/* the alignment of the last type allocated, as the kernel gives it */
extern size_t kchacha_shim_percpu_align;
void *kchacha_shim_alloc_percpu(size_t size, size_t align, const char *file,
				int line);
void kchacha_shim_free_percpu(void *p);
#define alloc_percpu_gfp(type, gfp)					\
	((type *)kchacha_shim_alloc_percpu(				\
		sizeof(type) + 0 * sizeof(char[sizeof(type) <=		\
					KCHACHA_SHIM_PCPU_STRIDE ? 1 : -1]), \
		__alignof__(type), __FILE__, __LINE__))
#define alloc_percpu(type)	alloc_percpu_gfp(type, 0)
#define free_percpu(p)		kchacha_shim_free_percpu(p)
#define per_cpu_ptr(p, cpu)						\
	((__typeof__(p))((char *)(p) +					\
			 (size_t)(cpu) * KCHACHA_SHIM_PCPU_STRIDE))
unsigned int kchacha_shim_this_cpu_slow(const char *file, int line);

static inline unsigned int kchacha_shim_this_cpu(const char *file, int line)
{
	if (kchacha_shim_local_cpu >= 0)
		return kchacha_shim_local_cpu;
	return kchacha_shim_this_cpu_slow(file, line);
}

#define this_cpu_ptr(p)							\
	per_cpu_ptr(p, kchacha_shim_this_cpu(__FILE__, __LINE__))
#define for_each_possible_cpu(cpu)					\
	for ((cpu) = 0; (cpu) < (int)kchacha_shim_ncpus; (cpu)++)
#endif
