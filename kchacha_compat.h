/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every difference between the kernels kchacha builds for (Linux 6.1 and
 * later), in one place.  The sources include this instead of the headers
 * that moved, and never test the kernel version themselves.  Where a
 * feature test can tell, it decides rather than a version number, so that
 * a distribution kernel with a backport builds too.
 *
 * What 6.12 changed in the APIs kchacha uses, and where that is handled:
 *
 * - <asm/unaligned.h> moved to <linux/unaligned.h>: below, by which of
 *   the two the kernel tree has (Kbuild looks).
 * - crypto_register_alg() no longer waits for the crypto manager's
 *   self-test: the test runs afterwards in a cryptomgr_test thread, which
 *   holds a reference to the algorithm and to the module until it ends.
 *   rmmod straight after insmod can then fail with EAGAIN (the tests wait
 *   for that), and crypto_unregister_alg() of an algorithm whose test is
 *   still held warns and leaves it half unregistered, pointing into
 *   memory a failed load then frees: kchacha_wait_tested().
 * - On arm64, kernel_neon_begin() no longer disables preemption in task
 *   context (the kernel-mode FPSIMD state is switched with the task); in
 *   softirq context, and with PREEMPT_RT's kernel_fpu_begin() on x86, the
 *   section still runs with preemption off, so KCHACHA_SIMD_CHUNK still
 *   bounds it.  Nothing kchacha runs inside a SIMD section takes a lock.
 * - The skcipher walk, rng_alg, crypto_simd_usable() (irq_fpu_usable() on
 *   x86, may_use_simd() on arm64), boot_cpu_has()/cpu_has_xfeatures() and
 *   cpu_have_named_feature() keep their 6.1 interfaces and meaning.
 *
 * What changed after 6.12, up to 7.3 (read in Debian's linux-source-7.3):
 *
 * - arm64: kernel_neon_begin() and kernel_neon_end() take a
 *   struct user_fpsimd_state * from the caller, and <asm/simd.h> has
 *   scoped_ksimd() with them: kchacha_simd_begin() below.  32-bit ARM's
 *   and x86's entry points are unchanged (32-bit ARM's scoped_ksimd() is
 *   the same two calls without arguments).
 * - X86_FEATURE_PREFER_YMM is defined: kchacha_zmm_lowers_clock().
 * - syscore_ops callbacks take a context pointer and are registered in a
 *   struct syscore with register_syscore() (6.19, and stable backports:
 *   Debian's 6.12 since 6.12.115-2): KCHACHA_SYSCORE_* below, by the
 *   header's contents (Kbuild looks), never by the version.
 * - <linux/random.h> no longer includes <asm/archrandom.h>:
 *   kchacha_arch_seed() below.
 * - The skcipher walk's src.virt.addr is const, which kchacha only reads;
 *   skcipher_walk_virt()/skcipher_walk_done(), rng_alg and the limits
 *   crypto_register_skcipher()/crypto_register_rng() check, and
 *   crypto_simd_usable() and the CPU feature tests are as in 6.1.
 */
#ifndef _KCHACHA_COMPAT_H
#define _KCHACHA_COMPAT_H

/* 6.12 moved <asm/unaligned.h> to <linux/unaligned.h>. */
#ifdef KCHACHA_HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#ifndef KCHACHA_USERSPACE
#include <linux/crypto.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/refcount.h>
#include <linux/rwsem.h>
#include <linux/sched/signal.h>

/*
 * crypto/internal.h's lock of the algorithm list, exported on every
 * kernel kchacha supports: taken for writing, it waits for every lookup
 * in progress (kchacha_retire_drv()).
 */
extern struct rw_semaphore crypto_alg_sem;

/**
 * kchacha_wait_tested() - wait until the crypto manager is done with an
 *	algorithm
 * @alg: an algorithm this module registered
 * @end: jiffies until which to wait for the test's reference to go; a
 *	caller that waits for the count itself afterwards passes jiffies
 *
 * Before unregistering an algorithm registered moments ago (a registration
 * failing half way), so that crypto_unregister_alg() finds it held by
 * nobody but its registration.  A lookup of the driver name waits for the
 * self-test, whatever its outcome (CRYPTO_NOLOAD: no modprobe for the
 * module being loaded); the test drops its own reference only after it has
 * woken the lookup, so a short wait for that follows, until @end and
 * ended by a fatal signal (a task that holds the driver keeps the count
 * up too, to @end).  Before 6.12 the test has ended when
 * crypto_register_alg() returns, and the lookup returns at once.
 */
static inline void kchacha_wait_tested(const struct crypto_alg *alg,
				       unsigned long end)
{
	crypto_has_alg(alg->cra_driver_name, 0, CRYPTO_NOLOAD);
	while (refcount_read(&alg->cra_refcnt) > 1 && time_before(jiffies, end) &&
	       !fatal_signal_pending(current))
		usleep_range(1000, 2000);
}
#endif

#ifndef KCHACHA_USERSPACE
#include <linux/syscore_ops.h>
#endif

/*
 * A syscore resume callback on every kernel:
 *
 *	static void fn(KCHACHA_SYSCORE_ARGS) { ... }
 *	KCHACHA_SYSCORE_DEFINE(name, fn);
 *	kchacha_register_syscore(&name); kchacha_unregister_syscore(&name);
 */
#ifdef KCHACHA_HAVE_REGISTER_SYSCORE
#define KCHACHA_SYSCORE_ARGS	void *data
#define KCHACHA_SYSCORE_DEFINE(name, fn)				\
	static const struct syscore_ops name##_ops = { .resume = fn };	\
	static struct syscore name = { .ops = &name##_ops }
#define kchacha_register_syscore(s)	register_syscore(s)
#define kchacha_unregister_syscore(s)	unregister_syscore(s)
#else
#define KCHACHA_SYSCORE_ARGS	void
#define KCHACHA_SYSCORE_DEFINE(name, fn)				\
	static struct syscore_ops name = { .resume = fn }
#define kchacha_register_syscore(s)	register_syscore_ops(s)
#define kchacha_unregister_syscore(s)	unregister_syscore_ops(s)
#endif

/*
 * arch_get_random_seed_longs() for a module: 7.x's <linux/random.h> no
 * longer includes <asm/archrandom.h>, and arm64's reads
 * smccc_trng_available, which is not exported to modules (6.1: modpost
 * fails), so x86's RDSEED only; elsewhere none (as on a CPU without one).
 */
#if defined(CONFIG_X86) && !defined(KCHACHA_USERSPACE)
#include <asm/archrandom.h>
#define kchacha_arch_seed(v, n)		arch_get_random_seed_longs(v, n)
#else
#define kchacha_arch_seed(v, n)		((void)(v), (size_t)0 * (n))
#endif

#include <linux/string.h>
#if defined(CONFIG_X86)
#include <asm/fpu/api.h>
#elif defined(CONFIG_ARM64)
#include <asm/neon.h>
#include <asm/simd.h>
#elif defined(CONFIG_ARM)
/* not <asm/simd.h>: before 7.x, ARM's is asm-generic's, without a guard */
#include <asm/neon.h>
#endif

/*
 * One kernel-mode SIMD section, on every kernel:
 *
 *	struct kchacha_simd simd __uninitialized;
 *
 *	kchacha_simd_begin(&simd);
 *	... SIMD code, which must not sleep ...
 *	kchacha_simd_end(&simd);
 *
 * arm64 kernels with scoped_ksimd() (<asm/simd.h>) take, in
 * kernel_neon_begin() and kernel_neon_end(), a buffer of the caller's
 * where the kernel saves the section's NEON registers when the task is
 * scheduled out in it, or when a softirq uses NEON in between.  Those
 * registers hold the ChaCha state, key words included.  scoped_ksimd()
 * keeps that buffer on the stack out of reach and leaves it as it is; so
 * kchacha passes its own, struct kchacha_simd, and wipes it after each
 * section (528 bytes for up to KCHACHA_SIMD_CHUNK of keystream).  The
 * kernel writes the buffer before it reads it: __uninitialized spares the
 * zeroing CONFIG_INIT_STACK_ALL_ZERO would add at every call.  Elsewhere
 * struct kchacha_simd is empty and the calls are the kernel's own.
 */
#if defined(CONFIG_ARM64) && defined(scoped_ksimd)
struct kchacha_simd {
	struct user_fpsimd_state st;
};
#else
struct kchacha_simd {
};
#endif

/**
 * kchacha_simd_begin() - begin a kernel-mode SIMD section
 * @simd: the section's state, on the caller's stack; crypto_simd_usable()
 *	must be true
 */
static inline void kchacha_simd_begin(struct kchacha_simd *simd)
{
#if defined(CONFIG_ARM64) && defined(scoped_ksimd)
	kernel_neon_begin(&simd->st);
#elif defined(CONFIG_X86)
	kernel_fpu_begin();
#elif defined(CONFIG_ARM64) || defined(CONFIG_ARM)
	kernel_neon_begin();
#endif
}

/**
 * kchacha_simd_end() - end the section kchacha_simd_begin() began
 * @simd: the state given to kchacha_simd_begin(); wiped
 */
static inline void kchacha_simd_end(struct kchacha_simd *simd)
{
#if defined(CONFIG_ARM64) && defined(scoped_ksimd)
	kernel_neon_end(&simd->st);
	memzero_explicit(&simd->st, sizeof(simd->st));
#elif defined(CONFIG_X86)
	kernel_fpu_end();
#elif defined(CONFIG_ARM64) || defined(CONFIG_ARM)
	kernel_neon_end();
#endif
}

#if defined(CONFIG_X86) && !defined(KCHACHA_USERSPACE)
#include <asm/cpufeature.h>
#include <asm/cpu_device_id.h>
#include <asm/processor.h>

/*
 * kchacha_zmm_lowers_clock() - true on CPUs where the kernel says 512-bit
 * instructions lower the core clock enough that ymm code is the better
 * default.  Kernels that define X86_FEATURE_PREFER_YMM (6.13 and later)
 * set it on Intel Skylake-SP/X (and Cascade Lake, Cooper Lake: the same
 * model), Ice Lake (client, -SP, -D) and Tiger Lake.  Before that only
 * Skylake-SP/X is avoided, by its model, as the in-tree poly1305 glue of
 * those kernels does (<asm/cpu_device_id.h> brings the model names, and on
 * 6.10+ VFM_MAKE).  That older list is not extended to Ice Lake and Tiger
 * Lake here: kchacha follows the kernel it runs on, whose own zmm code
 * runs on them there, and the prefer_ymm parameter lets their users
 * choose.  The macros each kernel defines decide, not its version number.
 */
static inline bool kchacha_zmm_lowers_clock(void)
{
#if defined(X86_FEATURE_PREFER_YMM)
	return boot_cpu_has(X86_FEATURE_PREFER_YMM);
#elif defined(INTEL_SKYLAKE_X)
	/* 6.10 and later: vendor, family and model in one word */
	return boot_cpu_data.x86_vfm == INTEL_SKYLAKE_X;
#else
	return boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	       boot_cpu_data.x86 == 6 &&
	       boot_cpu_data.x86_model == INTEL_FAM6_SKYLAKE_X;
#endif
}
#elif defined(CONFIG_X86)
/* User space (test/shim): the rule of kernels before 6.13, by CPUID */
#include <asm/processor.h>

static inline bool kchacha_zmm_lowers_clock(void)
{
	return boot_cpu_data.x86_vendor == X86_VENDOR_INTEL &&
	       boot_cpu_data.x86 == 6 && boot_cpu_data.x86_model == 0x55;
}
#else
static inline bool kchacha_zmm_lowers_clock(void)
{
	return false;
}
#endif

#endif /* _KCHACHA_COMPAT_H */
