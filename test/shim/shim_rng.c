// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space shim: the state and functions behind the stand-ins rng.c uses
 * (<linux/random.h>, <linux/percpu.h>, <linux/jiffies.h>, <crypto/rng.h>,
 * <linux/slab.h>, <linux/sched.h>, <linux/suspend.h>) and rng.c's test
 * hook.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <crypto/rng.h>
#include <linux/jiffies.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/suspend.h>
#include <linux/syscore_ops.h>
#include "kchacha.h"
#include <linux/atomic.h>
#include <stdint.h>

bool kchacha_shim_rng_ready = true;
struct notifier_block *kchacha_shim_vmfork_nb;
struct notifier_block *kchacha_shim_pm_nb;
__thread bool kchacha_shim_hardirq;
__thread unsigned long kchacha_shim_resched;
__thread unsigned long kchacha_shim_usleeps;
bool kchacha_shim_usleep_real;
__thread bool kchacha_shim_preemptible = true;
__thread int kchacha_shim_rcu_depth;
unsigned long kchacha_shim_bad_resched;
struct kchacha_shim_slab_region kchacha_shim_slab[KCHACHA_SHIM_MAX_SLAB];
long kchacha_shim_slab_bytes;
unsigned long kchacha_shim_slab_serial;
bool kchacha_shim_kmalloc_fail;
void (*kchacha_shim_kmalloc_hook)(void);
unsigned long kchacha_shim_plain_dirty_frees;
static pthread_mutex_t kchacha_shim_slab_lock = PTHREAD_MUTEX_INITIALIZER;
/* virtual time: what the tests made pass (<linux/jiffies.h>) */
uint64_t kchacha_shim_jiffies_offset;
unsigned long kchacha_shim_random_calls;
void (*kchacha_shim_random_hook)(void);
void (*kchacha_shim_random_source)(void *buf, size_t len);
unsigned long kchacha_shim_dirty_frees;
int kchacha_shim_force_cpu = -1;
__thread int kchacha_shim_thread_cpu = -1;
__thread int kchacha_shim_local_cpu = -1;
__thread spinlock_t *kchacha_shim_local_held;
__thread int kchacha_shim_migrate_saved = -1;
__thread int kchacha_shim_migrate_off;
__thread unsigned long kchacha_shim_acquires, kchacha_shim_releases;
unsigned long kchacha_shim_random_unordered;
unsigned long kchacha_shim_random_irqs_off;
struct syscore_ops *kchacha_shim_syscore;
long kchacha_shim_percpu_bytes;
bool kchacha_shim_random_fixed;
bool kchacha_shim_clock_fixed;
static unsigned long kchacha_shim_random_fixed_calls;

void get_random_bytes(void *buf, size_t len)
{
	void (*hook)(void) = __atomic_exchange_n(&kchacha_shim_random_hook, NULL,
						__ATOMIC_ACQ_REL);
	void (*source)(void *buf, size_t len);
	unsigned char *p = buf;

	if (hook)
		hook();
	__atomic_fetch_add(&kchacha_shim_random_calls, 1, __ATOMIC_RELAXED);
	if (kchacha_shim_irqs_off)	/* under an irqsave or local lock */
		__atomic_fetch_add(&kchacha_shim_random_irqs_off, 1,
				   __ATOMIC_RELAXED);
	if (!kchacha_shim_acquires)
		__atomic_fetch_add(&kchacha_shim_random_unordered, 1,
				   __ATOMIC_RELAXED);
	kchacha_shim_acquires = 0;
	source = __atomic_load_n(&kchacha_shim_random_source, __ATOMIC_ACQUIRE);
	if (source) {
		source(buf, len);
		return;
	}
	if (__atomic_load_n(&kchacha_shim_random_fixed, __ATOMIC_RELAXED)) {
		/* a fixed stream: call n gives n * 0x3b + i, i = 0.. */
		unsigned long n = kchacha_shim_random_fixed_calls++;

		for (size_t i = 0; i < len; i++)
			p[i] = n * 0x3b + i;
		return;
	}
	while (len) {
		ssize_t n = getrandom(p, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			abort();
		}
		p += n;
		len -= n;
	}
}

unsigned int kchacha_shim_ncpus = 1;

static __attribute__((constructor)) void kchacha_shim_count_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	kchacha_shim_ncpus = n > 0 ? (unsigned int)n : 1;
}

unsigned int kchacha_shim_cpu_slow(void)
{
	int cpu = kchacha_shim_thread_cpu;

	if (cpu < 0)
		cpu = kchacha_shim_force_cpu;
	if (cpu < 0)
		cpu = sched_getcpu();
	return cpu < 0 ? 0 : (unsigned int)cpu % kchacha_shim_ncpus;
}

extern __thread int kchacha_shim_in_simd;

/*
 * this_cpu_ptr() without a local lock (see linux/percpu.h): "this CPU" if
 * the thread could not move off it, else, as CONFIG_DEBUG_PREEMPT's "BUG:
 * using smp_processor_id() in preemptible code", the test fails.
 */
unsigned int kchacha_shim_this_cpu_slow(const char *file, int line)
{
	if (kchacha_shim_irqs_off || kchacha_shim_bh_off ||
	    kchacha_shim_hardirq || !kchacha_shim_preemptible ||
	    kchacha_shim_in_simd || kchacha_shim_migrate_off)
		return kchacha_shim_cpu();
	/* both: a test may be capturing either */
	fflush(NULL);
	fprintf(stderr,
		"FAIL shim: this_cpu_ptr() in preemptible code (no local lock, nothing off) at %s:%d\n",
		file, line);
	printf("FAIL shim: this_cpu_ptr() in preemptible code (no local lock, nothing off) at %s:%d\n",
	       file, line);
	fflush(NULL);
	abort();
}

void kchacha_shim_not_held(const char *what, const char *file, int line)
{
	/* both: a test may be capturing either */
	fflush(NULL);
	fprintf(stderr, "FAIL shim: lockdep_assert_held(%s): not this thread's lock (%s) at %s:%d\n",
		what, kchacha_shim_local_held ? "another CPU's held" : "none held",
		file, line);
	printf("FAIL shim: lockdep_assert_held(%s): not this thread's lock (%s) at %s:%d\n",
	       what, kchacha_shim_local_held ? "another CPU's held" : "none held",
	       file, line);
	fflush(NULL);
	abort();
}

static bool kchacha_shim_all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

struct crypto_rng *kchacha_shim_alloc_rng(struct rng_alg *alg)
{
	struct crypto_rng *tfm;
	void *mem;

	/* exactly the tfm and its context, as crypto_alloc_tfmmem() */
	if (posix_memalign(&mem, 64, sizeof(*tfm) + alg->base.cra_ctxsize))
		return NULL;
	tfm = mem;
	memset(tfm, 0, sizeof(*tfm) + alg->base.cra_ctxsize);
	tfm->base.__crt_alg = &alg->base;
	if (alg->base.cra_init && alg->base.cra_init(&tfm->base)) {
		free(tfm);
		return NULL;
	}
	return tfm;
}

void crypto_free_rng(struct crypto_rng *tfm)
{
	struct crypto_alg *alg;

	if (!tfm)
		return;
	alg = tfm->base.__crt_alg;
	if (alg->cra_exit)
		alg->cra_exit(&tfm->base);
	if (!kchacha_shim_all_zero(crypto_tfm_ctx(&tfm->base),
				   alg->cra_ctxsize))
		__atomic_fetch_add(&kchacha_shim_dirty_frees, 1,
				   __ATOMIC_RELAXED);
	free(tfm);
}

int crypto_rng_reset(struct crypto_rng *tfm, const u8 *seed,
		     unsigned int slen)
{
	u8 *buf = NULL;
	int err;

	if (!seed && slen) {
		buf = calloc(1, slen);
		if (!buf)
			return -ENOMEM;
		if (getrandom(buf, slen, 0) < 0)
			abort();
		seed = buf;
	}
	err = crypto_rng_alg(tfm)->seed(tfm, seed, slen);
	free(buf);
	return err;
}

/*
 * kmalloc(): 64-byte aligned, listed with its size, call site and number
 * while it lives.  Exactly @n bytes, no rounding up: under AddressSanitizer
 * (test/unit/Makefile's SANITIZE) a byte past them is an error, as it is
 * for KASAN, whatever slack the slab would have.
 */
void *kchacha_shim_kmalloc(size_t n, int gfp, const char *file, int line)
{
	void (*hook)(void) = __atomic_exchange_n(&kchacha_shim_kmalloc_hook,
						NULL, __ATOMIC_ACQ_REL);
	void *p;
	unsigned int i;

	if (hook)
		hook();
	if (__atomic_load_n(&kchacha_shim_kmalloc_fail, __ATOMIC_RELAXED))
		return NULL;
	if (posix_memalign(&p, 64, n))
		return NULL;
	if (gfp & __GFP_ZERO)
		memset(p, 0, n);
	pthread_mutex_lock(&kchacha_shim_slab_lock);
	for (i = 0; i < KCHACHA_SHIM_MAX_SLAB; i++) {
		if (!kchacha_shim_slab[i].p) {
			kchacha_shim_slab[i].p = p;
			kchacha_shim_slab[i].size = n;
			kchacha_shim_slab[i].file = file;
			kchacha_shim_slab[i].line = line;
			kchacha_shim_slab[i].serial = ++kchacha_shim_slab_serial;
			kchacha_shim_slab_bytes += n;
			break;
		}
	}
	pthread_mutex_unlock(&kchacha_shim_slab_lock);
	if (i == KCHACHA_SHIM_MAX_SLAB)
		abort();
	return p;
}

/*
 * kfree(), kfree_sensitive(): the latter wipes first, as the kernel's; a
 * kfree() of memory that is not all zero counts in
 * kchacha_shim_plain_dirty_frees.
 */
void kchacha_shim_kfree(const void *p, int sensitive)
{
	unsigned int i;

	if (!p)
		return;
	pthread_mutex_lock(&kchacha_shim_slab_lock);
	for (i = 0; i < KCHACHA_SHIM_MAX_SLAB; i++) {
		if (kchacha_shim_slab[i].p == p) {
			if (sensitive)
				memset((void *)p, 0, kchacha_shim_slab[i].size);
			else if (!kchacha_shim_all_zero(p,
							kchacha_shim_slab[i].size))
				kchacha_shim_plain_dirty_frees++;
			kchacha_shim_slab_bytes -= kchacha_shim_slab[i].size;
			kchacha_shim_slab[i].p = NULL;
			break;
		}
	}
	pthread_mutex_unlock(&kchacha_shim_slab_lock);
	if (i == KCHACHA_SHIM_MAX_SLAB)
		abort();
	free((void *)p);
}

size_t kchacha_shim_percpu_align;

void *kchacha_shim_alloc_percpu(size_t size, size_t align, const char *file,
				int line)
{
	kchacha_shim_percpu_align = align;
	void *p = kchacha_shim_kmalloc((size_t)kchacha_shim_ncpus *
				       KCHACHA_SHIM_PCPU_STRIDE, __GFP_ZERO,
				       file, line);

	if (p)
		__atomic_fetch_add(&kchacha_shim_percpu_bytes,
				   (long)(size * kchacha_shim_ncpus),
				   __ATOMIC_RELAXED);
	/* the size is kept in the unused tail of CPU 0's copy */
	if (p)
		memcpy((char *)p + KCHACHA_SHIM_PCPU_STRIDE - sizeof(size), &size,
		       sizeof(size));
	return p;
}

void kchacha_shim_free_percpu(void *p)
{
	size_t size;

	if (!p)
		return;
	memcpy(&size, (char *)p + KCHACHA_SHIM_PCPU_STRIDE - sizeof(size),
	       sizeof(size));
	memset((char *)p + KCHACHA_SHIM_PCPU_STRIDE - sizeof(size), 0,
	       sizeof(size));
	__atomic_fetch_sub(&kchacha_shim_percpu_bytes,
			   (long)(size * kchacha_shim_ncpus), __ATOMIC_RELAXED);
	if (!kchacha_shim_all_zero(p, (size_t)kchacha_shim_ncpus *
				   KCHACHA_SHIM_PCPU_STRIDE))
		__atomic_fetch_add(&kchacha_shim_dirty_frees, 1,
				   __ATOMIC_RELAXED);
	kchacha_shim_kfree(p, 1);
}

/* The fixed stream starts again from call 0. */
void kchacha_shim_random_fixed_reset(void)
{
	kchacha_shim_random_fixed_calls = 0;
}

/*
 * For test/bench, which does not see the shim's headers: a tfm of the
 * stdrng of @impl, freed with its algorithm, and a request to it.
 */
struct crypto_rng *kchacha_shim_rng_new(const struct kchacha_impl *impl)
{
	struct rng_alg *alg = kchacha_rng_alg_create(impl, 0);

	return alg ? kchacha_shim_alloc_rng(alg) : NULL;
}

void kchacha_shim_rng_free(struct crypto_rng *tfm)
{
	struct rng_alg *alg = crypto_rng_alg(tfm);

	crypto_free_rng(tfm);
	kchacha_rng_alg_destroy(alg);
}

int kchacha_shim_rng_generate(struct crypto_rng *tfm, const u8 *src,
			      unsigned int slen, u8 *dst, unsigned int dlen)
{
	return crypto_rng_generate(tfm, src, slen, dst, dlen);
}
