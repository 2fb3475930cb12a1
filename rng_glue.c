// SPDX-License-Identifier: GPL-2.0-only
/*
 * What ties rng.c's generator to the kernel: the stdrng of each
 * implementation on the crypto API; the notifications (a VM clone, a
 * resume) that start a new epoch, after which every instance reseeds at
 * its next request; the counters in debugfs; and the load-time self-test.
 */
#include <linux/container_of.h>
#include <linux/debugfs.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/suspend.h>
#include <linux/syscore_ops.h>
#include "kchacha_compat.h"
#include "kchacha_rng.h"

#define KCHACHA_RNG_DOM_KAT	0x2074616b	/* "kat " */

struct kchacha_rng_alg {
	struct rng_alg alg;
	const struct kchacha_impl *impl;
};

/* Every instance reseeds at its next request (release: see rng.c). */
static void kchacha_rng_new_epoch(int stat)
{
	atomic_long_add_return_release(2, &kchacha_rng_epoch);
	atomic_long_inc(&kchacha_rng_stats[stat]);
}

/* Resumed (a restored image too): one CPU, irqs off, before any task. */
static void kchacha_rng_syscore_resume(KCHACHA_SYSCORE_ARGS)
{
	kchacha_rng_new_epoch(KC_SYSCORE_RESUMES);
}

KCHACHA_SYSCORE_DEFINE(kchacha_rng_syscore, kchacha_rng_syscore_resume);

/* A VM clone; a resume, after the kernel RNG's PM notifier reseeded it. */
static int kchacha_rng_notify(struct notifier_block *nb, unsigned long action,
			      void *data);
static struct notifier_block kchacha_rng_vmfork_nb = {
	.notifier_call = kchacha_rng_notify,
};

static struct notifier_block kchacha_rng_pm_nb = {
	.notifier_call = kchacha_rng_notify,
	.priority = -1,
};

static int kchacha_rng_notify(struct notifier_block *nb, unsigned long action,
			      void *data)
{
	if (nb == &kchacha_rng_vmfork_nb)
		kchacha_rng_new_epoch(KC_VMFORKS);
	else if (action == PM_POST_SUSPEND || action == PM_POST_HIBERNATION)
		kchacha_rng_new_epoch(KC_RESUMES);
	return NOTIFY_DONE;
}

static struct dentry *kchacha_rng_debugfs;
static int kchacha_rng_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "reseeds %ld\nvmforks %ld\nresumes %ld\nsyscore_resumes %ld\npcpu_bytes %zu\n",
		   atomic_long_read(&kchacha_rng_stats[KC_RESEEDS]),
		   atomic_long_read(&kchacha_rng_stats[KC_VMFORKS]),
		   atomic_long_read(&kchacha_rng_stats[KC_RESUMES]),
		   atomic_long_read(&kchacha_rng_stats[KC_SYSCORE_RESUMES]),
		   sizeof(struct kchacha_rng_cpu));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kchacha_rng_stats);

/**
 * kchacha_rng_init_module() - notifiers, syscore hook, debugfs kchacha/rng;
 *	kchacha_rng_exit_module() undoes it
 * Return: 0 or a negative errno.
 */
int kchacha_rng_init_module(void)
{
	int err = register_random_vmfork_notifier(&kchacha_rng_vmfork_nb);

	if (err)
		return err;
	err = register_pm_notifier(&kchacha_rng_pm_nb);
	if (err) {
		unregister_random_vmfork_notifier(&kchacha_rng_vmfork_nb);
		return err;
	}
	kchacha_register_syscore(&kchacha_rng_syscore);
	kchacha_rng_debugfs = debugfs_create_dir("kchacha", NULL);
	debugfs_create_file("rng", 0444, kchacha_rng_debugfs, NULL,
			    &kchacha_rng_stats_fops);
	return 0;
}

void kchacha_rng_exit_module(void)
{
	debugfs_remove_recursive(kchacha_rng_debugfs);
	kchacha_unregister_syscore(&kchacha_rng_syscore);
	unregister_pm_notifier(&kchacha_rng_pm_nb);
	unregister_random_vmfork_notifier(&kchacha_rng_vmfork_nb);
}

static int kchacha_rng_init_tfm(struct crypto_tfm *tfm)
{
	return kchacha_rng_init(crypto_tfm_ctx(tfm),
				container_of(tfm->__crt_alg,
					     struct kchacha_rng_alg,
					     alg.base)->impl, false);
}

static void kchacha_rng_exit_tfm(struct crypto_tfm *tfm)
{
	kchacha_rng_exit(crypto_tfm_ctx(tfm));
}

static void kchacha_rng_set_ent(struct crypto_rng *tfm, const u8 *data,
				unsigned int len)
{
	kchacha_rng_seed(tfm, data, len);
}

/**
 * kchacha_rng_alg_create() - the stdrng of one implementation
 * @impl: the implementation
 * @priority: its cra_priority
 * Return: the algorithm, ready to register; NULL when out of memory.
 */
struct rng_alg *kchacha_rng_alg_create(const struct kchacha_impl *impl,
				       int priority)
{
	struct kchacha_rng_alg *ra = kzalloc(sizeof(*ra), GFP_KERNEL);
	struct rng_alg *alg;

	if (!ra)
		return NULL;
	ra->impl = impl;
	alg = &ra->alg;
	strscpy(alg->base.cra_name, "stdrng", CRYPTO_MAX_ALG_NAME);
	snprintf(alg->base.cra_driver_name, CRYPTO_MAX_ALG_NAME,
		 "chacha20rng-kchacha-%s", impl->name);
	alg->base.cra_priority = priority;
	alg->base.cra_ctxsize = sizeof(struct kchacha_rng);
	alg->base.cra_module = THIS_MODULE;
	alg->base.cra_init = kchacha_rng_init_tfm;
	alg->base.cra_exit = kchacha_rng_exit_tfm;
	alg->generate = kchacha_rng_generate;
	alg->seed = kchacha_rng_seed;
	alg->set_ent = kchacha_rng_set_ent;
	alg->seedsize = KCHACHA_KEY_SIZE;
	return alg;
}

/* Free an algorithm of kchacha_rng_alg_create(), not registered, or NULL. */
void kchacha_rng_alg_destroy(struct rng_alg *alg)
{
	if (alg)
		kfree(container_of(alg, struct kchacha_rng_alg, alg));
}

/* A script of every path; its output's cascade under the zero key. */
static const u32 kchacha_rng_script[] = {
	1, 3, 16, 32, 64, 100, 255, 256, 511, 40, 1000, 300, 992, 17,
	13000, 70000, 2, 600,
};

static const u32 kchacha_rng_kat_digest[8] = {
	0xef7d965c, 0x18ee06d2, 0x6ec04067, 0x06426b45,
	0x745483ef, 0x9c5f7e58, 0x1e23197e, 0x9f52a962,
};

/**
 * kchacha_rng_selftest() - the script on an instance of @impl keyed by
 *	mix() of known bytes, on one CPU, below the reseed checks
 * @impl: the implementation
 * Return: 0 if its output gives the known answer, -EINVAL, -ENOMEM.
 */
int kchacha_rng_selftest(const struct kchacha_impl *impl)
{
	struct kchacha_rng *rng = kzalloc(sizeof(*rng), GFP_KERNEL);
	unsigned int i, len = 0;
	u8 in[KCHACHA_KEY_SIZE], *buf, *out;
	u32 digest[8] = { };
	int err = -ENOMEM;

	for (i = 0; i < ARRAY_SIZE(kchacha_rng_script); i++)
		len += kchacha_rng_script[i];
	out = kmalloc(len, GFP_KERNEL);
	buf = out;
	if (!rng || !buf || kchacha_rng_init(rng, impl, true))
		goto out;
	for (i = 0; i < sizeof(in); i++)
		in[i] = i * 13 + 5;
	memset(rng->key, 0, sizeof(rng->key));
	kchacha_rng_mix(rng, in, in, 23, NULL, 0, 0, false);
	migrate_disable();
	for (i = 0; i < ARRAY_SIZE(kchacha_rng_script); i++) {
		kchacha_rng_get(rng, in, i % 4 == 1 ? 7 : 0, out,
				kchacha_rng_script[i]);
		out += kchacha_rng_script[i];
	}
	migrate_enable();
	kchacha_rng_absorb(digest, KCHACHA_RNG_DOM_KAT, buf, len);
	err = memcmp(digest, kchacha_rng_kat_digest, sizeof(digest)) ? -EINVAL
								     : 0;
	if (err)
		pr_err("kchacha: %s: rng self-test failed: known-answer stream\n",
		       impl->name);
out:
	kfree_sensitive(buf);
	if (rng)
		kchacha_rng_exit(rng);
	kfree(rng);
	return err;
}
