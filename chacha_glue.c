// SPDX-License-Identifier: GPL-2.0-only
/*
 * kchacha: ChaCha20, XChaCha20 and XChaCha12 skciphers and a ChaCha20
 * stdrng (rng.c), one driver of each per implementation the CPU supports.
 *
 * Every driver is built at load from kchacha_impls[] (chacha_core.c) and
 * kchacha_variants[] below; an implementation is registered only after its
 * self-tests pass.
 */
#include <crypto/internal/rng.h>
#include <crypto/internal/simd.h>
#include <crypto/internal/skcipher.h>
#include <linux/jiffies.h>
#include <linux/kmod.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <asm/simd.h>

#include "kchacha_compat.h"
#include "kchacha.h"

/**
 * struct kchacha_variant - one skcipher algorithm
 * @name: cra_name
 * @nrounds: ChaCha rounds
 * @ivsize: 16 for ChaCha, 32 for XChaCha
 */
struct kchacha_variant {
	const char *name;
	int nrounds;
	unsigned int ivsize;
};

static const struct kchacha_variant kchacha_variants[] = {
	{ "chacha20", 20, KCHACHA_IV_SIZE },
	{ "xchacha20", 20, KCHACHA_XIV_SIZE },
	{ "xchacha12", 12, KCHACHA_XIV_SIZE },
};

#define KCHACHA_NVARIANTS ARRAY_SIZE(kchacha_variants)

/*
 * What crypto_register_skcipher() and crypto_register_rng() refuse (see
 * kchacha_impls_check() in chacha_core.c for the per-implementation
 * fields), for the fields set here alike for every driver.
 */
static_assert(PAGE_SIZE >= 8 * KCHACHA_IV_SIZE &&
	      PAGE_SIZE >= 8 * KCHACHA_XIV_SIZE, "ivsize above PAGE_SIZE / 8");
static_assert(PAGE_SIZE >= 8 * KCHACHA_BLOCK_SIZE,
	      "chunksize above PAGE_SIZE / 8");
static_assert(PAGE_SIZE >= 8 * KCHACHA_KEY_SIZE,
	      "rng seedsize above PAGE_SIZE / 8");

struct kchacha_alg {
	struct skcipher_alg alg;
	const struct kchacha_impl *impl;
	const struct kchacha_variant *variant;
};

/* The drivers of one implementation. */
struct kchacha_drv {
	const struct kchacha_impl *impl;
	struct kchacha_alg skc[KCHACHA_NVARIANTS];
	unsigned int nskc;	/* how many of skc[] are registered */
	struct rng_alg *rng;	/* registered when set */
	bool tested;		/* its self-tests passed: to be registered */
	int priority;		/* its skciphers' (kchacha_order()) */
};

/*
 * stdrng priorities.  The kernel's DRBGs register at 200 and up (2200 and
 * up in FIPS mode), ansi_cprng (up to 6.x) at 100: by default the rngs
 * rank between them, so the default stdrng (crypto_alloc_rng("stdrng"))
 * stays a DRBG, even one loaded after kchacha; with rng_prefer they rank
 * above the DRBGs, but still below them in FIPS mode.
 *
 * A kernel may have no other stdrng at all (Debian's 7.x: no DRBG, no
 * ansi_cprng).  Then kchacha's best rng is the default stdrng either way,
 * deliberately: kchacha's rngs are stdrngs on every kernel, a stdrng
 * where there would be none takes nothing from anyone, and a DRBG loaded
 * later still outranks them unless rng_prefer.  (Outside FIPS mode,
 * crypto_stdrng_get_bytes() does not use the crypto API's rng on 7.x.)
 */
#define KCHACHA_RNG_PRIORITY		150
#define KCHACHA_RNG_PRIORITY_PREFER	300

struct kchacha_ctx {
	u32 key[8];
};

static char *max_isa;
module_param(max_isa, charp, 0444);
MODULE_PARM_DESC(max_isa,
		 "Register implementations up to this one, e.g. avx2 (default: all)");

/*
 * Whether the table's other order (each implementation's slow_priority)
 * applies: kchacha_cpu_slow(), or on x86 the prefer_ymm parameter.
 * Resolved at load.
 */
static bool kchacha_slow;

#ifdef CONFIG_X86
/*
 * Which AVX-512 drivers rank first (the rule: kchacha_impls[]); resolved
 * at load, so that sysfs shows the value in force.
 */
static int prefer_ymm = -1;
module_param(prefer_ymm, int, 0444);
MODULE_PARM_DESC(prefer_ymm,
		 "avx512vl first, avx512 below avx2: 1 yes, 0 no, -1 (default) by CPU");

static void kchacha_resolve_rule(void)
{
	prefer_ymm = prefer_ymm < 0 ? kchacha_cpu_slow() : !!prefer_ymm;
	kchacha_slow = prefer_ymm;
}
#else
static void kchacha_resolve_rule(void)
{
	kchacha_slow = kchacha_cpu_slow();
	if (kchacha_slow)
		pr_info("kchacha: NEON ranks below the kernel's scalar ChaCha on this CPU (Cortex-A7 or A5), as the kernel's own NEON does\n");
}
#endif

#ifdef KCHACHA_TEST
/* Fault injection for the tests of the load path: test builds only. */
static char *selftest_fail;
module_param(selftest_fail, charp, 0444);
MODULE_PARM_DESC(selftest_fail,
		 "Testing: fail this implementation's self-test (default: none)");

static unsigned int fail_register;
module_param(fail_register, uint, 0444);
MODULE_PARM_DESC(fail_register,
		 "Testing: fail the Nth driver registration (default 0: never)");
#endif

#if defined(KCHACHA_TEST) && defined(CONFIG_X86_64)
/*
 * The zmm driver's entry for requests over 1 KiB whatever the CPU, so that
 * a boot on an emulated CPU runs the one AMD Zen 5 takes
 * (kchacha_avx512_entry()).
 */
static int test_z32 = -1;
module_param(test_z32, int, 0444);
MODULE_PARM_DESC(test_z32,
		 "Testing: zmm entry over 1 KiB: 1 z32, 0 plain, -1 (default) by CPU");

static void kchacha_test_entries(void)
{
	if (test_z32 < 0)
		return;
	WRITE_ONCE(kchacha_avx512_z32, !!test_z32);
	pr_info("kchacha: testing: kchacha_avx512_z32 = %d\n",
		READ_ONCE(kchacha_avx512_z32));
}
#else
static void kchacha_test_entries(void)
{
}
#endif

static bool calibrate = true;
module_param(calibrate, bool, 0444);
MODULE_PARM_DESC(calibrate,
		 "Rank by a timing at load: the fastest by 5% first (default: yes)");

static bool rng_prefer;
module_param(rng_prefer, bool, 0444);
MODULE_PARM_DESC(rng_prefer,
		 "Rank the stdrng drivers above the kernel's DRBGs (default: no)");

/*
 * One entry per implementation up to max_isa, never reused: a failed
 * implementation's entry may still be registered (hidden) until rmmod.
 */
static struct kchacha_drv *kchacha_drvs;
static unsigned int kchacha_ndrvs;

static int kchacha_setkey(struct crypto_skcipher *tfm, const u8 *key,
			  unsigned int keylen)
{
	struct kchacha_ctx *ctx = crypto_skcipher_ctx(tfm);
	int i;

	if (keylen != KCHACHA_KEY_SIZE)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(ctx->key); i++)
		ctx->key[i] = get_unaligned_le32(key + 4 * i);
	return 0;
}

static int kchacha_skcipher_crypt(struct skcipher_request *req)
{
	struct crypto_skcipher *tfm = crypto_skcipher_reqtfm(req);
	struct kchacha_alg *ka = container_of(crypto_skcipher_alg(tfm),
					      struct kchacha_alg, alg);
	const struct kchacha_ctx *ctx = crypto_skcipher_ctx(tfm);
	int nrounds = ka->variant->nrounds;
	struct skcipher_walk walk;
	u32 state[16];
	int err;

	err = skcipher_walk_virt(&walk, req, false);
	/*
	 * Nothing to encrypt (0 bytes, or the walk failed): no HChaCha and no
	 * keystream.  The in-tree drivers run HChaCha anyway, then return
	 * what the walk returned, as this does: 0 for 0 bytes.
	 */
	if (!walk.nbytes)
		return err;

	if (ka->variant->ivsize == KCHACHA_XIV_SIZE)
		kchacha_xchacha_init(ka->impl, state, ctx->key, req->iv,
				     req->cryptlen, nrounds);
	else
		kchacha_init_state(state, ctx->key, req->iv);

	while (walk.nbytes > 0) {
		unsigned int nbytes = walk.nbytes;

		if (nbytes < walk.total)
			nbytes = rounddown(nbytes, walk.stride);

		kchacha_crypt(ka->impl, state, walk.dst.virt.addr,
			      walk.src.virt.addr, nbytes, nrounds);
		err = skcipher_walk_done(&walk, walk.nbytes - nbytes);
	}

	memzero_explicit(state, sizeof(state));
	return err;
}

static void kchacha_exit_tfm(struct crypto_skcipher *tfm)
{
	struct kchacha_ctx *ctx = crypto_skcipher_ctx(tfm);

	memzero_explicit(ctx, sizeof(*ctx));
}

/*
 * The cra_priority of @impl's skciphers on this CPU: the other order of
 * the table where the ranking rule says so (kchacha_resolve_rule()), the
 * calibration's default moved first (kchacha_order()).
 */
static int kchacha_priority(const struct kchacha_impl *impl)
{
	unsigned int i = impl - kchacha_impls;

	if (i < kchacha_ndrvs && kchacha_drvs[i].priority)
		return kchacha_drvs[i].priority;
	return kchacha_impl_priority(impl, kchacha_slow);
}

/*
 * The rngs rank in the order of the skciphers: 0 for the lowest
 * implementation of the table, one more for each one ranked above it.
 */
static int kchacha_rank(const struct kchacha_impl *impl)
{
	int priority = kchacha_priority(impl), rank = 0;
	unsigned int i;

	for (i = 0; i < kchacha_nimpls; i++)
		if (kchacha_priority(&kchacha_impls[i]) < priority)
			rank++;
	return rank;
}

static void kchacha_fill_skcipher(struct kchacha_alg *ka,
				  const struct kchacha_impl *impl,
				  const struct kchacha_variant *variant)
{
	struct skcipher_alg *alg = &ka->alg;

	ka->impl = impl;
	ka->variant = variant;
	strscpy(alg->base.cra_name, variant->name, CRYPTO_MAX_ALG_NAME);
	snprintf(alg->base.cra_driver_name, CRYPTO_MAX_ALG_NAME,
		 "%s-kchacha-%s", variant->name, impl->name);
	alg->base.cra_priority = kchacha_priority(impl);
	alg->base.cra_blocksize = 1;
	alg->base.cra_ctxsize = sizeof(struct kchacha_ctx);
	alg->base.cra_module = THIS_MODULE;
	alg->min_keysize = KCHACHA_KEY_SIZE;
	alg->max_keysize = KCHACHA_KEY_SIZE;
	alg->ivsize = variant->ivsize;
	alg->chunksize = KCHACHA_BLOCK_SIZE;
	alg->walksize = impl->walksize;
	alg->setkey = kchacha_setkey;
	alg->encrypt = kchacha_skcipher_crypt;
	alg->decrypt = kchacha_skcipher_crypt;
	alg->exit = kchacha_exit_tfm;
}

#ifdef KCHACHA_TEST
/* fail_register: true for the Nth registration, of whatever type. */
static bool kchacha_fail_register(const char *driver_name)
{
	static unsigned int calls;

	if (fail_register && ++calls == fail_register) {
		pr_err("kchacha: failing registration %u of %s as asked\n",
		       calls, driver_name);
		return true;
	}
	return false;
}

static bool kchacha_selftest_forced(const struct kchacha_impl *impl)
{
	return selftest_fail && sysfs_streq(selftest_fail, impl->name);
}

/*
 * selftest_fail: the self-test runs again on a copy of @impl whose
 * keystream is wrong in one byte, so that what leaves the implementation
 * out is the self-test's own failure path and its kernel-log line.
 */
static int kchacha_selftest_broken_copy(const struct kchacha_impl *impl)
{
	pr_info("kchacha: %s: selftest_fail: self-testing a copy with one keystream byte wrong\n",
		impl->name);
	return kchacha_selftest_broken(impl, KCHACHA_BREAK_VECTOR);
}
#else
static bool kchacha_fail_register(const char *driver_name)
{
	return false;
}

static bool kchacha_selftest_forced(const struct kchacha_impl *impl)
{
	return false;
}

static int kchacha_selftest_broken_copy(const struct kchacha_impl *impl)
{
	return 0;
}
#endif

static int kchacha_register(struct skcipher_alg *alg)
{
	if (kchacha_fail_register(alg->base.cra_driver_name))
		return -ENOMEM;
	return crypto_register_skcipher(alg);
}

static int kchacha_register_rng(struct rng_alg *alg)
{
	if (kchacha_fail_register(alg->base.cra_driver_name))
		return -ENOMEM;
	return crypto_register_rng(alg);
}

/* Unregisters what is registered of one implementation's drivers. */
static void kchacha_unregister_drv(struct kchacha_drv *drv)
{
	if (drv->rng) {
		crypto_unregister_rng(drv->rng);
		kchacha_rng_alg_destroy(drv->rng);
		drv->rng = NULL;
	}
	while (drv->nskc)
		crypto_unregister_skcipher(&drv->skc[--drv->nskc].alg);
}

/* @drv's registered drivers, the @i-th of them; NULL past the last. */
static struct crypto_alg *kchacha_drv_alg(struct kchacha_drv *drv,
					  unsigned int i)
{
	if (i < drv->nskc)
		return &drv->skc[i].alg.base;
	return i == drv->nskc && drv->rng ? &drv->rng->base : NULL;
}

/*
 * Before a failed registration unregisters what it had just registered:
 * let the crypto manager finish testing it (see kchacha_wait_tested()),
 * its reference gone by @end.
 */
static void kchacha_wait_drv_tested(struct kchacha_drv *drv, unsigned long end)
{
	struct crypto_alg *alg;
	unsigned int i;

	for (i = 0; (alg = kchacha_drv_alg(drv, i)); i++)
		kchacha_wait_tested(alg, end);
}

static bool kchacha_alg_held(const struct crypto_alg *alg)
{
	return refcount_read(&alg->cra_refcnt) != 1;
}

/* Is none of @drv's registered drivers held by anyone but the API? */
static bool kchacha_drv_unused(struct kchacha_drv *drv)
{
	const struct crypto_alg *alg;
	unsigned int i;

	for (i = 0; (alg = kchacha_drv_alg(drv, i)); i++)
		if (kchacha_alg_held(alg))
			return false;
	return true;
}

/*
 * How long a failing load waits for the users of the C core's drivers to
 * let go, well below the hung-task timeout (120 s by default), and how
 * often it looks.
 */
#define KCHACHA_RETIRE_WAIT_MS	5000
#define KCHACHA_RETIRE_POLL_MS	20

/*
 * The kernel log of a failing load, a line per driver of @drv still held:
 * that the load waits for its users (@waiting), or that it gave up.
 */
static void kchacha_log_held(struct kchacha_drv *drv, bool waiting)
{
	const struct crypto_alg *alg;
	unsigned int i;

	for (i = 0; (alg = kchacha_drv_alg(drv, i)); i++) {
		if (!kchacha_alg_held(alg))
			continue;
		if (waiting)
			pr_warn("kchacha: %s: registration failed; %s is in use: waiting up to %u ms for it to be let go\n",
				drv->impl->name, alg->cra_driver_name,
				KCHACHA_RETIRE_WAIT_MS);
		else
			pr_err("kchacha: %s: registration failed; %s still held: the module stays loaded with no drivers until rmmod\n",
			       drv->impl->name, alg->cra_driver_name);
	}
}

/*
 * Waits until no user holds @drv's drivers, for KCHACHA_RETIRE_WAIT_MS at
 * most and not past a fatal signal (a killed modprobe returns at once).
 * The sleep is killable: no D state that SIGKILL cannot end, no hung-task
 * warning.  The kernel log names the drivers still held after the first
 * sleep (before it, the crypto manager's test may still hold them for a
 * moment, 6.12 on).  Returns whether they were let go.
 */
static bool kchacha_wait_unused(struct kchacha_drv *drv)
{
	unsigned long end = jiffies + msecs_to_jiffies(KCHACHA_RETIRE_WAIT_MS);
	unsigned int sleeps;

	for (sleeps = 0; !kchacha_drv_unused(drv); sleeps++) {
		if (fatal_signal_pending(current)) {
			pr_err("kchacha: %s: the wait for its drivers' users ended by a fatal signal\n",
			       drv->impl->name);
			return false;
		}
		if (time_after(jiffies, end))
			return false;
		if (sleeps == 1)
			kchacha_log_held(drv, true);
		schedule_timeout_killable(msecs_to_jiffies(KCHACHA_RETIRE_POLL_MS));
	}
	return true;
}

/*
 * Undo the registration of @drv while the module loads: a task may
 * already hold one of its drivers (a loading module is live for
 * try_module_get()), and crypto_unregister_alg() of a held algorithm
 * warns and leaves it half removed.  So, once the crypto manager is done
 * with them, the drivers are marked dying under crypto_alg_sem, which
 * lookups skip, and only then, when nobody holds them, unregistered: with
 * @wait (the load is failing) once their users let go, within
 * KCHACHA_RETIRE_WAIT_MS (kchacha_wait_unused()), else now if unused;
 * drivers still held stay registered, hidden, until rmmod.  Returns
 * whether they are unregistered.
 *
 * Why crypto-internal state and a wait.  The API has no "unregister
 * unless held": crypto_unregister_alg() checks the count only after it
 * has taken the algorithm off the list, and no public call hides a
 * registered algorithm from lookups; crypto_alg_sem, taken for writing,
 * is what orders the DYING mark against every lookup in progress.  No
 * order of self-tests and registrations avoids the unwind: an
 * implementation's drivers register one at a time and the crypto
 * manager needs each registered to test it, so the first is reachable
 * before the last can fail.  A failing load cannot leave a held driver
 * behind: do_init_module() frees the module without looking at its
 * count, so the tfm would run freed code.  Only the C core's failure
 * fails the load, when its drivers alone are registered, and then the
 * load waits, bounded, for their users to let go.  If they do not (an
 * AF_ALG socket may stay bound for as long as its owner likes), or the
 * loading task is killed, the load succeeds instead, with no driver
 * reachable: the held ones stay dying until rmmod, which the holders'
 * module references refuse until they let go, and kchacha_mod_exit()
 * unregisters them.  Without the mark and the wait, registration would
 * have to stop being all or nothing: a driver that failed would simply
 * be missing and the load would never fail after its first
 * registration.  One window stays: crypto_user's CRYPTO_MSG_GETALG takes
 * a passing reference even on a dying algorithm, so a root query between
 * the check below and the unregistration still warns.
 */
static bool kchacha_retire_drv(struct kchacha_drv *drv, bool wait)
{
	unsigned int i;

	/*
	 * With @wait, the wait for users also sees the test's reference go;
	 * else the drivers get 10 s for it, all together.
	 */
	kchacha_wait_drv_tested(drv, wait ? jiffies : jiffies + 10 * HZ);
	down_write(&crypto_alg_sem);
	for (i = 0; i < drv->nskc; i++)
		drv->skc[i].alg.base.cra_flags |= CRYPTO_ALG_DYING;
	if (drv->rng)
		drv->rng->base.cra_flags |= CRYPTO_ALG_DYING;
	up_write(&crypto_alg_sem);
	if (!kchacha_drv_unused(drv) && !(wait && kchacha_wait_unused(drv))) {
		if (wait)
			kchacha_log_held(drv, false);
		else
			pr_err("kchacha: %s: drivers in use stay registered, unreachable, until rmmod\n",
			       drv->impl->name);
		return false;
	}
	kchacha_unregister_drv(drv);
	return true;
}

/*
 * @loading: from a failing load, where users may hold drivers.  Returns
 * false where some stay held (kchacha_retire_drv()): they and
 * kchacha_drvs stay until kchacha_mod_exit().
 */
static bool kchacha_unregister_all(bool loading)
{
	bool all = true;
	unsigned int d;

	for (d = kchacha_ndrvs; d--;) {
		if (loading)
			all &= kchacha_retire_drv(&kchacha_drvs[d], true);
		else
			kchacha_unregister_drv(&kchacha_drvs[d]);
	}
	if (!all)
		return false;
	kfree(kchacha_drvs);
	kchacha_drvs = NULL;
	kchacha_ndrvs = 0;
	return true;
}

/*
 * Registers every driver of @impl into @drv, or none of them for users:
 * on a failure, the kernel log gets one line naming the implementation,
 * the driver and the error, and what it registered is retired (for the C
 * core, by the failing load).
 */
static int kchacha_register_impl(struct kchacha_drv *drv,
				 const struct kchacha_impl *impl)
{
	const char *what = "chacha20rng";
	struct rng_alg *rng = NULL;
	int err;

	drv->impl = impl;
	for (drv->nskc = 0; drv->nskc < KCHACHA_NVARIANTS; drv->nskc++) {
		struct kchacha_alg *ka = &drv->skc[drv->nskc];

		kchacha_fill_skcipher(ka, impl, &kchacha_variants[drv->nskc]);
		err = kchacha_register(&ka->alg);
		if (err) {
			what = ka->alg.base.cra_driver_name;
			goto fail;
		}
	}

	rng = kchacha_rng_alg_create(impl, (rng_prefer ?
					    KCHACHA_RNG_PRIORITY_PREFER :
					    KCHACHA_RNG_PRIORITY) +
					   kchacha_rank(impl));
	err = -ENOMEM;
	if (!rng)
		goto fail;
	err = kchacha_register_rng(rng);
	if (!err) {
		drv->rng = rng;
		return 0;
	}
	what = rng->base.cra_driver_name;

fail:
	pr_err("kchacha: %s: registering %s failed (%d); %s\n", impl->name,
	       what, err, impl == kchacha_impls ? "not loading" :
	       "this implementation is left out");
	if (rng)
		kchacha_rng_alg_destroy(rng);
	if (impl != kchacha_impls)
		kchacha_retire_drv(drv, false);
	return err;
}

/* The index of the highest implementation max_isa allows, or -EINVAL. */
static int kchacha_max_index(void)
{
	char names[64];
	unsigned int i;
	int len = 0;

	if (!max_isa || !*max_isa)
		return kchacha_nimpls - 1;
	for (i = 0; i < kchacha_nimpls; i++)
		if (sysfs_streq(max_isa, kchacha_impls[i].name))
			return i;

	for (i = 0; i < kchacha_nimpls; i++)
		len += scnprintf(names + len, sizeof(names) - len, " %s",
				 kchacha_impls[i].name);
	pr_err("kchacha: max_isa=%s is not an implementation of this build; one of:%s\n",
	       max_isa, names);
	return -EINVAL;
}

static u64 kchacha_calib_now(void)
{
	return ktime_get_ns();
}

#ifdef KCHACHA_TEST
/* the calibration's clock: the tests give theirs */
static u64 (*kchacha_calib_clock)(void) = kchacha_calib_now;
#else
#define kchacha_calib_clock kchacha_calib_now
#endif

/*
 * The calibration (calibrate.c) over the SIMD implementations about to be
 * registered, and where it chooses another default than the table's,
 * that one takes the table's first priority and those the table ranked
 * above it move down one place each.  One line in the kernel log names
 * the choice and its figures.
 */
static void kchacha_order(void)
{
	char line[256];
	struct kchacha_calib *c;
	unsigned int i, j, n = 0, w, table = 0;
	int len, top;
	u8 *buf;

	for (i = 0; i < kchacha_ndrvs; i++)
		if (kchacha_drvs[i].tested && kchacha_impls[i].simd)
			n++;
	if (!calibrate || n < 2 || !crypto_simd_usable())
		return;
	c = kcalloc(n, sizeof(*c), GFP_KERNEL);
	buf = kmalloc(KCHACHA_SIMD_CHUNK, GFP_KERNEL);
	if (!c || !buf)
		goto out;
	for (i = 0, j = 0; i < kchacha_ndrvs; i++)
		if (kchacha_drvs[i].tested && kchacha_impls[i].simd)
			c[j++].impl = &kchacha_impls[i];
	for (i = 1; i < n; i++)
		if (kchacha_priority(c[i].impl) > kchacha_priority(c[table].impl))
			table = i;
	w = kchacha_calibrate(c, n, kchacha_slow, kchacha_calib_clock, buf);

	len = scnprintf(line, sizeof(line), "ns at");
	for (j = 0; j < KCHACHA_CALIB_SIZES; j++)
		len += scnprintf(line + len, sizeof(line) - len, "%s%u",
				 j ? "/" : " ", kchacha_calib_len[j]);
	len += scnprintf(line + len, sizeof(line) - len, " bytes (speed per mille):");
	for (i = 0; i < n; i++) {
		len += scnprintf(line + len, sizeof(line) - len, " %s",
				 c[i].impl->name);
		for (j = 0; j < KCHACHA_CALIB_SIZES; j++)
			len += scnprintf(line + len, sizeof(line) - len,
					 "%s%llu", j ? "/" : " ",
					 (unsigned long long)c[i].ns[j]);
		len += scnprintf(line + len, sizeof(line) - len, " (%u)",
				 c[i].score);
	}
	pr_info("kchacha: calibrated, %s; default %s (%s)\n", line,
		c[w].impl->name, w == table ? "the table's" :
		"ahead of the table's by 5% or more");

	/*
	 * The winner takes the top priority; each one ranked between it and
	 * the top takes the priority of the next one down.
	 */
	if (w != table) {
		const struct kchacha_impl *impl = c[w].impl;
		int prio = kchacha_priority(impl);

		top = kchacha_priority(c[table].impl);
		for (;;) {
			int next = top, k = -1;

			for (i = 0; i < n; i++) {
				int p = kchacha_priority(c[i].impl);

				if (p > prio && p <= next && c[i].impl != impl) {
					next = p;
					k = i;
				}
			}
			if (k < 0)
				break;
			kchacha_drvs[c[k].impl - kchacha_impls].priority = prio;
			prio = next;
		}
		kchacha_drvs[impl - kchacha_impls].priority = top;
	}
out:
	kfree(buf);
	kfree(c);
}

static int kchacha_test_impl(const struct kchacha_impl *impl)
{
	int err = kchacha_selftest(impl);

	if (!err)
		err = kchacha_rng_selftest(impl);
	if (!err && kchacha_selftest_forced(impl))
		err = kchacha_selftest_broken_copy(impl);
	return err;
}

static int __init kchacha_mod_init(void)
{
	int max = kchacha_max_index();
	int i, err;

	if (max < 0)
		return max;
	kchacha_resolve_rule();
	kchacha_test_entries();

	/*
	 * The crypto API loads stdrng providers only when none is registered:
	 * load the kernel's (the DRBGs) before ours would hide them, so that
	 * the default stdrng stays a DRBG where one is available.  Where the
	 * kernel has none, nothing answers and kchacha's rngs are the only
	 * stdrngs.
	 */
	if (!rng_prefer)
		request_module("crypto-stdrng");

	kchacha_drvs = kcalloc(max + 1, sizeof(*kchacha_drvs), GFP_KERNEL);
	if (!kchacha_drvs)
		return -ENOMEM;
	kchacha_ndrvs = max + 1;
	err = kchacha_rng_init_module();
	if (err) {
		kfree(kchacha_drvs);
		kchacha_drvs = NULL;
		return err;
	}

	for (i = 0; i <= max; i++) {
		const struct kchacha_impl *impl = &kchacha_impls[i];

		if (impl->cpu_ok && !impl->cpu_ok())
			continue;

		err = kchacha_test_impl(impl);
		if (err) {
			if (i == 0)
				goto fail;
			pr_err("kchacha: %s: not registered\n", impl->name);
			continue;
		}
		kchacha_drvs[i].tested = true;
	}

	kchacha_order();

	/*
	 * Degrade, don't fail: an implementation whose drivers do not
	 * register is left out (kchacha_register_impl() says so); only the C
	 * core is needed for the module to load.
	 */
	for (i = 0; i <= max; i++) {
		if (!kchacha_drvs[i].tested)
			continue;
		err = kchacha_register_impl(&kchacha_drvs[i], &kchacha_impls[i]);
		if (err && i == 0)
			goto fail;
	}
	return 0;

fail:
	/*
	 * Drivers held past the wait: the load must not fail (see
	 * kchacha_retire_drv()); it succeeds with none reachable.
	 */
	if (!kchacha_unregister_all(true))
		return 0;
	kchacha_rng_exit_module();
	return err;
}

static void __exit kchacha_mod_exit(void)
{
	kchacha_unregister_all(false);
	kchacha_rng_exit_module();
}

module_init(kchacha_mod_init);
module_exit(kchacha_mod_exit);

MODULE_DESCRIPTION("ChaCha20, XChaCha20, XChaCha12 and a ChaCha20 stdrng with C, SSSE3, AVX2, AVX-512 and NEON implementations");
MODULE_LICENSE("GPL");
MODULE_VERSION(KCHACHA_VERSION);
MODULE_ALIAS_CRYPTO("chacha20");
MODULE_ALIAS_CRYPTO("xchacha20");
MODULE_ALIAS_CRYPTO("xchacha12");
/* Every driver name of every implementation: modprobe matches patterns. */
MODULE_ALIAS_CRYPTO("chacha20-kchacha-*");
MODULE_ALIAS_CRYPTO("xchacha20-kchacha-*");
MODULE_ALIAS_CRYPTO("xchacha12-kchacha-*");
MODULE_ALIAS_CRYPTO("chacha20rng-kchacha-*");
