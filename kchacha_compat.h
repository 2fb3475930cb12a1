/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kchacha_compat.h: every difference between the kernels kchacha builds
 * for (Linux 6.1 and later), in one place.  The sources include this
 * instead of the headers that moved, and never test LINUX_VERSION_CODE
 * themselves.
 *
 * What 6.12 changed in the APIs kchacha uses, and where that is handled:
 *
 * - <asm/unaligned.h> moved to <linux/unaligned.h>: below.
 * - crypto_register_alg() no longer waits for the crypto manager's
 *   self-test: the test runs afterwards in a cryptomgr_test thread, which
 *   holds a reference to the algorithm and to the module until it ends.
 *   rmmod straight after insmod can then fail with EAGAIN (the tests wait
 *   for that), and crypto_unregister_alg() of an algorithm whose test is
 *   still running warns and leaves it registered: kchacha_wait_tested().
 * - On arm64, kernel_neon_begin() no longer disables preemption in task
 *   context (the kernel-mode FPSIMD state is switched with the task); in
 *   softirq context, and with PREEMPT_RT's kernel_fpu_begin() on x86, the
 *   section still runs with preemption off, so KCHACHA_SIMD_CHUNK still
 *   bounds it.  Nothing kchacha runs inside a SIMD section takes a lock.
 * - The skcipher walk, rng_alg, crypto_simd_usable() (irq_fpu_usable() on
 *   x86, may_use_simd() on arm64), boot_cpu_has()/cpu_has_xfeatures() and
 *   cpu_have_named_feature() keep their 6.1 interfaces and meaning.
 */
#ifndef _KCHACHA_COMPAT_H
#define _KCHACHA_COMPAT_H

#include <linux/version.h>

/* 6.12 moved <asm/unaligned.h> to <linux/unaligned.h>. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/crypto.h>
#endif

/**
 * kchacha_wait_tested() - wait until the crypto manager has tested a driver
 * @driver: cra_driver_name of an algorithm this module registered
 *
 * Before unregistering an algorithm registered moments ago (a load that
 * fails half way), so that no self-test still holds it.  A lookup of the
 * driver name waits for its test, whatever the outcome; CRYPTO_NOLOAD keeps
 * it from asking modprobe for the module being loaded.  Before 6.12 the
 * test had ended when crypto_register_alg() returned: nothing to wait for.
 */
static inline void kchacha_wait_tested(const char *driver)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
	crypto_has_alg(driver, 0, CRYPTO_NOLOAD);
#endif
}

#endif /* _KCHACHA_COMPAT_H */
