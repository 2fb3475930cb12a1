// SPDX-License-Identifier: GPL-2.0-only
/*
 * chacha_glue.c in user space, against test/shim's crypto API (a registry
 * and a model of the skcipher walk, test/shim/shim_crypto.c).  Each load
 * runs in a child process of its own, as each insmod is a fresh module:
 * its parameters are chacha_glue.c's variables, set before
 * kchacha_mod_init().
 *
 * - The request path: every registered skcipher against the reference
 *   (ref.h) over lengths 0..300 and longer ones, its buffers in pieces of
 *   random sizes and across page ends, in place and out of place, the
 *   counter crossing 2^32: several walk steps, partial ones, slow ones.
 * - The short path: what requests of 0..300 bytes run, counted (the SIMD
 *   routines by test/shim/simdcheck.c, the C core's HChaCha and xor by
 *   wraps of their own): nothing for 0 bytes, C only below simd_min, the
 *   SIMD HChaCha and xor from it.
 * - Registration: every implementation the CPU has registers its three
 *   skciphers and its rng, at the priorities of its kchacha_impls[] entry,
 *   the rngs in the skciphers' order; kchacha_mod_exit() leaves nothing.
 * - The parameters: max_isa (each name, a bogus one), prefer_ymm (-1, 0,
 *   1 against the CPU rule, x86 with AVX-512), rng_prefer (with a DRBG
 *   that request_module() loads, one loaded later, and none), test_z32
 *   (-1, 0, 1: the zmm driver's cached entry after the load, x86).
 * - The unwind: selftest_fail and fail_register for each implementation
 *   and registration, one with a tfm holding a driver of it; and a tfm
 *   holding a driver of the C core when its registration fails, let go
 *   within the bounded wait (the load fails), kept past it or the wait
 *   killed (the load succeeds with the held drivers dying, unreachable,
 *   until kchacha_mod_exit()), on the shim's clock, which the wait's
 *   killable sleep moves on (no real sleep).
 *
 * The expectations that depend on the ranking rule are in ymm_rule[] and
 * expect_priority(); the rest holds whatever the table says.
 */
#define KCHACHA_TEST 1
#include "chacha_glue.c"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <linux/sched/signal.h>
#include <linux/shim_registry.h>

#include "test/shim/simdcheck.h"
#include "test/unit/failfast.h"
#include "test/unit/ref.h"
#include "test/unit/wipe.h"

static unsigned int passed, failed, skipped;
static u64 rng_state = 0x2545f4914f6cdd1dULL;

static u32 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state >> 16;
}

static void check(bool ok, const char *what, ...)
	__attribute__((format(printf, 2, 3)));

static void check(bool ok, const char *what, ...)
{
	va_list ap;

	if (ok) {
		passed++;
		return;
	}
	failed++;
	if (failed > 30)
		return;
	printf("FAIL ");
	va_start(ap, what);
	vprintf(what, ap);
	va_end(ap);
	printf("\n");
	fail_fast();
}

/* ---- what the table and the CPU say ---- */

static bool cpu_has_impl(unsigned int i)
{
	return !kchacha_impls[i].cpu_ok || kchacha_impls[i].cpu_ok();
}

static int __attribute__((unused)) impl_index(const char *name)
{
	for (unsigned int i = 0; i < kchacha_nimpls; i++)
		if (!strcmp(kchacha_impls[i].name, name))
			return i;
	return -1;
}

/*
 * The skcipher priority of @impl where the table's other order applies
 * (@slow: prefer_ymm resolved to 1 on x86, kchacha_cpu_slow() on arm):
 * its entry's slow_priority if it has one, else its priority.
 */
static int expect_priority(const struct kchacha_impl *impl, int slow)
{
	return impl->slow_priority && slow ? impl->slow_priority :
					     impl->priority;
}

#ifdef CONFIG_X86
/*
 * The ranking rule of the AVX-512 entries (chacha_core.c): the default
 * chacha20 driver by what the kernel says of the CPU (zmm code lowers its
 * clock) and prefer_ymm, and what prefer_ymm reads once loaded.
 */
static const struct {
	bool lowers;
	int param;
	int resolved;
	const char *top;
} ymm_rule[] = {
	{ false, -1, 0, "avx512" },
	{ true, -1, 1, "avx512vl" },
	{ false, 0, 0, "avx512" },
	{ true, 0, 0, "avx512" },
	{ false, 1, 1, "avx512vl" },
	{ true, 1, 1, "avx512vl" },
};
#endif

static const char *const variant_names[] = {
	"chacha20", "xchacha20", "xchacha12"
};

static struct crypto_alg *driver(const char *alg, const char *impl,
				 enum kchacha_shim_type type)
{
	char name[CRYPTO_MAX_ALG_NAME];
	enum kchacha_shim_type t;
	struct crypto_alg *a;

	snprintf(name, sizeof(name), "%s-kchacha-%s", alg, impl);
	for (unsigned int i = 0; (a = kchacha_shim_each(i, &t)); i++)
		if (t == type && !strcmp(a->cra_driver_name, name))
			return a;
	return NULL;
}

/* kchacha's registered drivers */
static unsigned int kchacha_registered(void)
{
	struct crypto_alg *a;
	unsigned int n = 0;

	for (unsigned int i = 0; (a = kchacha_shim_each(i, NULL)); i++)
		n += !!strstr(a->cra_driver_name, "-kchacha-");
	return n;
}

/*
 * Every driver of the implementations in @want (a bit each) registered,
 * reachable, at the table's priorities, and no other of kchacha's; the
 * rngs at @rng_base + their rank, in the skciphers' order.
 */
/* where not 0, the priority a calibrated load gives kchacha_impls[i] */
static int calib_priority[16];

static int want_priority(unsigned int i, int ymm)
{
	if (i < ARRAY_SIZE(calib_priority) && calib_priority[i])
		return calib_priority[i];
	return expect_priority(&kchacha_impls[i], ymm);
}

static void check_registered(const char *how, unsigned int want, int ymm,
			     int rng_base)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < kchacha_nimpls; i++) {
		const struct kchacha_impl *impl = &kchacha_impls[i];
		int prio = want_priority(i, ymm), rank = 0;
		struct crypto_alg *a;

		for (unsigned int j = 0; j < kchacha_nimpls; j++)
			rank += want_priority(j, ymm) < prio;
		for (unsigned int v = 0; v < 3; v++) {
			a = driver(variant_names[v], impl->name,
				   KCHACHA_SHIM_SKCIPHER);
			if (!(want & (1u << i))) {
				check(!a, "%s: %s-kchacha-%s not registered",
				      how, variant_names[v], impl->name);
				continue;
			}
			check(a && a->cra_priority == prio &&
			      !strcmp(a->cra_name, variant_names[v]) &&
			      !(a->cra_flags & CRYPTO_ALG_DYING) &&
			      kchacha_shim_best(a->cra_driver_name,
						KCHACHA_SHIM_SKCIPHER) == a,
			      "%s: %s-kchacha-%s registered, priority %d (got %d)",
			      how, variant_names[v], impl->name, prio,
			      a ? a->cra_priority : -1);
			n++;
		}
		a = driver("chacha20rng", impl->name, KCHACHA_SHIM_RNG);
		if (!(want & (1u << i))) {
			check(!a, "%s: chacha20rng-kchacha-%s not registered",
			      how, impl->name);
			continue;
		}
		check(a && a->cra_priority == rng_base + rank &&
		      !strcmp(a->cra_name, "stdrng"),
		      "%s: chacha20rng-kchacha-%s registered as a stdrng, priority %d (got %d)",
		      how, impl->name, rng_base + rank,
		      a ? a->cra_priority : -1);
		n++;
	}
	check(kchacha_registered() == n,
	      "%s: %u drivers of kchacha registered, no others (got %u)", how,
	      n, kchacha_registered());
}

/* the implementations the CPU has, up to index @max */
static unsigned int cpu_impls(int max)
{
	unsigned int want = 0;

	for (int i = 0; i <= max; i++)
		if (cpu_has_impl(i))
			want |= 1u << i;
	return want;
}

/* ---- the request path ---- */

static u8 *pages;	/* 8 pages between two guard pages */
#define NPAGES	8
#define MAXREQ	(3 * 4096 + 100)

/*
 * Pieces of @len bytes from @base: by @mode 0 one piece, 1 random sizes,
 * 2 pieces that end at page ends and 1..7 bytes around them.
 */
static unsigned int make_sg(struct scatterlist *sg, unsigned int max,
			    u8 *base, unsigned int len, int mode)
{
	unsigned int n = 0, off = 0;

	while (off < len && n < max - 1) {
		unsigned int k = len - off;

		if (mode == 1)
			k = 1 + rnd() % 300;
		else if (mode == 2) {
			uintptr_t a = (uintptr_t)(base + off);
			unsigned int to_page = PAGE_SIZE - (a & (PAGE_SIZE - 1));

			k = rnd() % 2 ? to_page : 1 + rnd() % 7;
		}
		if (k > len - off)
			k = len - off;
		sg[n].buf = base + off;
		sg[n].length = k;
		/* a gap between pieces, so no two are contiguous */
		base += mode ? 1 : 0;
		off += k;
		n++;
	}
	if (off < len) {
		sg[n].buf = base + off;
		sg[n].length = len - off;
		n++;
	}
	sg[n].buf = NULL;
	sg[n].length = 0;
	return n;
}

/* bytes of the pieces, in order */
static void sg_gather(const struct scatterlist *sg, u8 *out, unsigned int len)
{
	for (; len; sg++) {
		unsigned int k = sg->length < len ? sg->length : len;

		memcpy(out, sg->buf, k);
		out += k;
		len -= k;
	}
}

static void sg_scatter(const struct scatterlist *sg, const u8 *in,
		       unsigned int len)
{
	for (; len; sg++) {
		unsigned int k = sg->length < len ? sg->length : len;

		memcpy(sg->buf, in, k);
		in += k;
		len -= k;
	}
}

static unsigned long walk_steps, walk_multi, walk_slow;

/*
 * The key words (and XChaCha's subkey) a request leaves in the frames of
 * the glue below it (test/unit/wipe.h): the request is made at a test
 * point of its own, the stack painted first and copied as it returns.
 */
static struct wipe_secret request_secret;
static unsigned int stack_words;

static WIPE_NOINLINE int encrypt_painted(struct skcipher_request *req)
{
	int err;

	wipe_paint();
	err = crypto_skcipher_encrypt(req);
	wipe_snapshot();
	stack_words += wipe_find(&request_secret, "a request's frames");
	return err;
}

/* One encryption through @tfm against the reference; true if equal. */
static bool one_request(struct crypto_skcipher *tfm, const u8 *key,
			unsigned int v, unsigned int len, int smode, int dmode,
			bool inplace)
{
	static struct scatterlist ssg[8200], dsg[8200];
	static u8 msg[MAXREQ], ref[MAXREQ], got[MAXREQ];
	struct skcipher_request req = { 0 };
	u8 iv[32], ivc[32];
	u8 *sbase = pages + rnd() % 64, *dbase;
	int rounds = v == 2 ? 12 : 20, err;
	u32 ctr;

	for (unsigned int i = 0; i < len; i++)
		msg[i] = rnd();
	for (unsigned int i = 0; i < sizeof(iv); i++)
		iv[i] = rnd();
	/* a counter that crosses 2^32 within the longer requests */
	ctr = 0xffffffffU - rnd() % 80;
	memcpy(v ? iv + 24 : iv, &ctr, 4);
	memcpy(ivc, iv, sizeof(iv));
	wipe_secret_init(&request_secret);
	wipe_secret_add_bytes(&request_secret, key, 32);
	if (v) {
		u8 subkey[32];

		ref_xchacha(key, iv, rounds, ref, msg, len);
		ref_hchacha(key, iv, rounds, subkey);
		wipe_secret_add_bytes(&request_secret, subkey, sizeof(subkey));
	} else {
		ref_chacha(key, iv, rounds, ref, msg, len);
	}

	make_sg(ssg, ARRAY_SIZE(ssg), sbase, len, smode);
	sg_scatter(ssg, msg, len);
	if (inplace) {
		dbase = sbase;
		req.dst = ssg;
	} else {
		dbase = pages + NPAGES * PAGE_SIZE / 2 + rnd() % 64;
		make_sg(dsg, ARRAY_SIZE(dsg), dbase, len, dmode);
		req.dst = dsg;
	}
	req.tfm = tfm;
	req.cryptlen = len;
	req.iv = ivc;
	req.src = ssg;
	err = encrypt_painted(&req);
	sg_gather(req.dst, got, len);
	walk_steps += kchacha_shim_walk_steps;
	walk_multi += kchacha_shim_walk_steps > 1;
	walk_slow += kchacha_shim_walk_slow_steps;
	return !err && !memcmp(got, ref, len);
}

static void test_requests(const char *impl)
{
	static const unsigned int longer[] = {
		511, 512, 513, 1000, 4095, 4096, 4097, 8191, 3 * 4096 + 100
	};
	u8 key[32];
	unsigned int left;

	for (unsigned int i = 0; i < sizeof(key); i++)
		key[i] = rnd();
	for (unsigned int v = 0; v < 3; v++) {
		char name[CRYPTO_MAX_ALG_NAME];
		struct crypto_skcipher *tfm;
		bool ok = true, ok_long = true;

		snprintf(name, sizeof(name), "%s-kchacha-%s",
			 variant_names[v], impl);
		tfm = kchacha_shim_alloc_skcipher(name);
		if (!tfm) {
			check(false, "%s: a tfm", name);
			continue;
		}
		check(crypto_skcipher_setkey(tfm, key, 31) == -EINVAL &&
		      crypto_skcipher_setkey(tfm, key, 33) == -EINVAL &&
		      crypto_skcipher_setkey(tfm, key, 0) == -EINVAL &&
		      crypto_skcipher_setkey(tfm, key, 32) == 0,
		      "%s: 31-, 33- and 0-byte keys refused, a 32-byte one taken",
		      name);
		for (unsigned int len = 0; len <= 300; len++)
			ok &= one_request(tfm, key, v, len, len % 3,
					  (len / 3) % 3, len % 5 == 0);
		check(ok, "%s: every length 0..300, in pieces and across pages, in place and not, equals the reference",
		      name);
		for (unsigned int i = 0; i < ARRAY_SIZE(longer); i++)
			for (int m = 0; m < 3; m++)
				ok_long &= one_request(tfm, key, v, longer[i],
						       m, (m + 1) % 3, m == 1);
		for (int i = 0; i < 6; i++)
			ok_long &= one_request(tfm, key, v,
					       301 + rnd() % (MAXREQ - 301),
					       1 + i % 2, i % 3, i % 2);
		check(ok_long, "%s: lengths 511..12388, in pieces and across pages, in place and not, equal the reference",
		      name);
		check(!stack_words, "%s: no key or subkey word left on the stack by a request (%u found)",
		      name, stack_words);
		stack_words = 0;
		left = kchacha_shim_ctx_left;
		crypto_free_skcipher(tfm);
		check(kchacha_shim_ctx_left == left,
		      "%s: the tfm's context (its key) is wiped when freed",
		      name);
	}
}

/* ---- the short path ---- */

/*
 * Calls of the C core's HChaCha and xor, from chacha_core.c: ld wraps them
 * in this program (test/unit/Makefile), as test/shim/simdcheck.c wraps the
 * SIMD routines.
 */
static unsigned long c_hchacha_calls, c_xor_calls;

void __real_kchacha_generic_hchacha(const u32 *state, u32 *out, int nrounds);
void __wrap_kchacha_generic_hchacha(const u32 *state, u32 *out, int nrounds);
void __wrap_kchacha_generic_hchacha(const u32 *state, u32 *out, int nrounds)
{
	c_hchacha_calls++;
	__real_kchacha_generic_hchacha(state, out, nrounds);
}

void __real_kchacha_generic_xor(const u32 *state, u8 *dst, const u8 *src,
				unsigned int len, int nrounds);
void __wrap_kchacha_generic_xor(const u32 *state, u8 *dst, const u8 *src,
				unsigned int len, int nrounds);
void __wrap_kchacha_generic_xor(const u32 *state, u8 *dst, const u8 *src,
				unsigned int len, int nrounds)
{
	c_xor_calls++;
	__real_kchacha_generic_xor(state, dst, src, len, nrounds);
}

/*
 * Requests of 0..300 bytes in one piece (one walk step each) on every
 * driver of @impl, what each runs counted: 0 bytes succeed and run neither
 * HChaCha nor any core; below simd_min (the rule kchacha_crypt() follows),
 * the C HChaCha (XChaCha) and one call of the C core, no SIMD section, no
 * SIMD routine; from simd_min on, on a SIMD implementation, its HChaCha
 * and its xor, one call each in a section, and nothing of the C core.
 * Each output equals the reference.
 */
static void test_short_path(const struct kchacha_impl *impl)
{
	u8 key[32];

	for (unsigned int i = 0; i < sizeof(key); i++)
		key[i] = rnd();
	for (unsigned int v = 0; v < 3; v++) {
		bool ok_out = true, ok_zero = true, ok_short = true;
		bool ok_simd = true;
		int rounds = v == 2 ? 12 : 20;
		char name[CRYPTO_MAX_ALG_NAME];
		struct crypto_skcipher *tfm;
		unsigned int x = v ? 1 : 0;	/* HChaCha calls: XChaCha's */

		snprintf(name, sizeof(name), "%s-kchacha-%s",
			 variant_names[v], impl->name);
		tfm = kchacha_shim_alloc_skcipher(name);
		if (!tfm || crypto_skcipher_setkey(tfm, key, 32)) {
			check(false, "%s: a tfm with a key", name);
			continue;
		}
		for (unsigned int len = 0; len <= 300; len++) {
			static u8 msg[301], ref[301];
			struct scatterlist ssg[2], dsg[2];
			struct skcipher_request req = { 0 };
			u8 *src = pages + rnd() % 64;
			u8 *dst = len % 2 ? src : pages + PAGE_SIZE + rnd() % 64;
			unsigned long sections, calls, ch, cx;
			u8 iv[32], ivc[32];
			int err;

			for (unsigned int i = 0; i < len; i++)
				msg[i] = rnd();
			for (unsigned int i = 0; i < sizeof(iv); i++)
				iv[i] = rnd();
			memcpy(ivc, iv, sizeof(iv));
			if (v)
				ref_xchacha(key, iv, rounds, ref, msg, len);
			else
				ref_chacha(key, iv, rounds, ref, msg, len);
			memcpy(src, msg, len);
			make_sg(ssg, ARRAY_SIZE(ssg), src, len, 0);
			make_sg(dsg, ARRAY_SIZE(dsg), dst, len, 0);
			req.tfm = tfm;
			req.cryptlen = len;
			req.iv = ivc;
			req.src = ssg;
			req.dst = dsg;

			sections = kchacha_shim_simd_sections;
			calls = kchacha_shim_simd_calls;
			ch = c_hchacha_calls;
			cx = c_xor_calls;
			err = crypto_skcipher_encrypt(&req);
			sections = kchacha_shim_simd_sections - sections;
			calls = kchacha_shim_simd_calls - calls;
			ch = c_hchacha_calls - ch;
			cx = c_xor_calls - cx;

			ok_out &= !err && !memcmp(dst, ref, len);
			if (!len)
				ok_zero &= !err && !sections && !calls && !ch &&
					   !cx;
			else if (!impl->simd || len < impl->simd_min)
				ok_short &= !sections && !calls && ch == x &&
					    cx == 1;
			else
				ok_simd &= calls == 1 + x && sections == calls &&
					   !ch && !cx;
		}
		check(ok_out, "%s: every length 0..300 in one piece equals the reference",
		      name);
		check(ok_zero, "%s: 0 bytes: returns 0, no HChaCha, no core, no SIMD section",
		      name);
		check(ok_short, "%s: 1..%u bytes: %sthe C core once, no SIMD section or routine",
		      name, impl->simd ? impl->simd_min - 1 : 300,
		      v ? "the C HChaCha, " : "");
		if (impl->simd)
			check(ok_simd, "%s: %u..300 bytes: %sthe SIMD xor, one section each, nothing of the C core",
			      name, impl->simd_min, v ? "the SIMD HChaCha and " : "");
		crypto_free_skcipher(tfm);
	}
}

/* ---- loads ---- */

static bool drbg_at_request;	/* request_module() registers a DRBG */
static struct rng_alg drbg = {
	.seedsize = 0,
	.base = {
		.cra_name = "stdrng",
		.cra_driver_name = "drbg_nopr_shim",
		.cra_priority = 200,
		.cra_blocksize = 1,
	},
};
static unsigned int registered_at_request;

/*
 * What a load leaves behind, checked after every load, failed or not, and
 * every unload (module_load(), module_unload()).  kmemleak's view: every
 * kmalloc region (the shim's list has each one's call site) allocated
 * since the load began and still live must be one a loaded module holds,
 * kchacha_drvs or the rng algorithm of one of its entries; after a failed
 * load or an unload, none at all.  And after a failed load or an unload,
 * nothing in the shim's registry (linux/shim_registry.h): no algorithm,
 * notifier, syscore hook or debugfs entry, but the test's own DRBG.
 */
static unsigned long load_serial;

static bool module_holds(const struct kchacha_shim_slab_region *r)
{
	const char *p = r->p;

	if (!kchacha_drvs)
		return false;
	if (r->p == kchacha_drvs)
		return true;
	for (unsigned int d = 0; d < kchacha_ndrvs; d++) {
		const char *rng = (const char *)kchacha_drvs[d].rng;

		if (rng && rng >= p && rng < p + r->size)
			return true;
	}
	return false;
}

static void check_left(const char *how, const char *when, bool loaded)
{
	const struct kchacha_shim_reg *reg, *first_reg = NULL;
	const struct kchacha_shim_slab_region *first = NULL;
	unsigned int left = 0;

	for (unsigned int i = 0; i < KCHACHA_SHIM_MAX_SLAB; i++) {
		const struct kchacha_shim_slab_region *r = &kchacha_shim_slab[i];

		if (!r->p || r->serial <= load_serial ||
		    (loaded && module_holds(r)))
			continue;
		if (!first || r->serial < first->serial)
			first = r;
		left++;
	}
	check(!left, "%s: %s: kmemleak: %u regions left, the first %zu bytes from %s:%d",
	      how, when, left, first ? first->size : 0,
	      first ? first->file : "", first ? first->line : 0);
	if (loaded)
		return;
	left = 0;
	for (unsigned int i = 0; (reg = kchacha_shim_reg_each(i)); i++) {
		if (reg->obj == &drbg.base)
			continue;
		if (!left++)
			first_reg = reg;
	}
	check(!left, "%s: %s: %u registrations left, the first a %s%s%s registered at %s:%d",
	      how, when, left, first_reg ? first_reg->kind : "",
	      first_reg && first_reg->name[0] ? " " : "",
	      first_reg ? first_reg->name : "", first_reg ? first_reg->file : "",
	      first_reg ? first_reg->line : 0);
}

/* kchacha_mod_init(), then check_left() */
static int module_load(const char *how)
{
	int err;

	load_serial = kchacha_shim_slab_serial;
	err = kchacha_mod_init();
	if (err)
		check_left(how, "after the failed load", false);
	else
		check_left(how, "after the load, but for what it holds", true);
	return err;
}

/* kchacha_mod_exit(), then check_left() */
static void module_unload(const char *how)
{
	kchacha_mod_exit();
	check_left(how, "after unload", false);
}

static void request_hook(const char *name)
{
	registered_at_request = kchacha_registered();
	if (drbg_at_request && !strcmp(name, "crypto-stdrng") &&
	    !kchacha_shim_best("drbg_nopr_shim", KCHACHA_SHIM_RNG))
		crypto_register_rng(&drbg);
}

/* the children's passed checks, in memory shared with them */
static unsigned int *child_passed;

bool glue_fork_run(int (*fn)(void *), void *arg, int *status);

static void (*child_fn)(void *);

static int child_main(void *arg)
{
	passed = failed = 0;
	/* the table's order, but where a test calibrates on its own clock */
	calibrate = false;
	child_fn(arg);
	__atomic_fetch_add(child_passed, passed, __ATOMIC_RELAXED);
	return failed ? 1 : 0;
}

/*
 * Run @fn in a child, a fresh module; its failures count here.  stdout
 * is line-buffered, so the child's FAIL lines come in order.
 */
static void in_child(const char *what, void (*fn)(void *), void *arg)
{
	int status = -1;
	bool ok;

	child_fn = fn;
	ok = glue_fork_run(child_main, arg, &status);
	check(ok, "%s (wait status %#x)", what, status);
}

static int top_impl(void)
{
	int top = -1;

	for (unsigned int i = 0; i < kchacha_nimpls; i++)
		if (cpu_has_impl(i) &&
		    (top < 0 || expect_priority(&kchacha_impls[i], kchacha_slow) >
				expect_priority(&kchacha_impls[top], kchacha_slow)))
			top = i;
	return top;
}

static void child_default(void *arg)
{
	int err;

	(void)arg;
	kchacha_shim_request_module_hook = request_hook;
	drbg_at_request = true;
	err = module_load("default load");
	check(!err, "default load: kchacha_mod_init() returns 0 (got %d)", err);
	check(!strcmp(kchacha_shim_modules_requested, "crypto-stdrng") &&
	      registered_at_request == 0,
	      "default load: request_module(\"crypto-stdrng\") once, before any registration (got '%s', %u before)",
	      kchacha_shim_modules_requested, registered_at_request);
	check_registered("default load", cpu_impls(kchacha_nimpls - 1),
			 kchacha_slow, KCHACHA_RNG_PRIORITY);
	check(kchacha_shim_best("stdrng", KCHACHA_SHIM_RNG) == &drbg.base,
	      "default load: the DRBG it loaded is the default stdrng");
	for (unsigned int i = 0; i < kchacha_nimpls; i++) {
		unsigned long calls = kchacha_shim_simd_calls;

		if (!cpu_has_impl(i))
			continue;
		test_requests(kchacha_impls[i].name);
		test_short_path(&kchacha_impls[i]);
		/* test/shim/simdcheck.c saw them, all in a section */
		check(!kchacha_impls[i].simd || kchacha_shim_simd_calls > calls,
		      "%s: the requests' SIMD calls reach the shim's section check",
		      kchacha_impls[i].name);
	}
	check(walk_multi > 100 && walk_slow > 100,
	      "the requests took walks of several steps (%lu) and slow steps (%lu)",
	      walk_multi, walk_slow);
	module_unload("default load");
	check(kchacha_registered() == 0,
	      "default load: kchacha_mod_exit() unregisters everything");
}

/* rng_prefer, with a DRBG at request_module(), after the load, or none */
static void child_rng(void *arg)
{
	int mode = *(int *)arg;	/* 0, 1: rng_prefer; +2: no DRBG ever */
	struct crypto_alg *best, *top;
	bool drbg_ever = mode < 2;
	char how[64];

	rng_prefer = mode & 1;
	snprintf(how, sizeof(how), "rng_prefer=%d%s", rng_prefer,
		 drbg_ever ? "" : ", no DRBG");
	kchacha_shim_request_module_hook = request_hook;
	drbg_at_request = drbg_ever;
	check(!module_load(how), "%s: loads", how);
	check(!strcmp(kchacha_shim_modules_requested,
		      rng_prefer ? "" : "crypto-stdrng"),
	      "%s: request_module(\"crypto-stdrng\") %s (got '%s')", how,
	      rng_prefer ? "not called" : "called",
	      kchacha_shim_modules_requested);
	check_registered(how, cpu_impls(kchacha_nimpls - 1), kchacha_slow,
			 rng_prefer ? KCHACHA_RNG_PRIORITY_PREFER :
				      KCHACHA_RNG_PRIORITY);
	/* a DRBG loaded later, if request_module() did not */
	if (drbg_ever && !kchacha_shim_best("drbg_nopr_shim",
					    KCHACHA_SHIM_RNG))
		crypto_register_rng(&drbg);
	best = kchacha_shim_best("stdrng", KCHACHA_SHIM_RNG);
	top = driver("chacha20rng", kchacha_impls[top_impl()].name,
		     KCHACHA_SHIM_RNG);
	check(best == (rng_prefer || !drbg_ever ? top : &drbg.base),
	      "%s: the default stdrng is %s (got %s)", how,
	      rng_prefer || !drbg_ever ? "kchacha's best" : "the DRBG",
	      best ? best->cra_driver_name : "none");
	module_unload(how);
	if (drbg_ever)
		crypto_unregister_rng(&drbg);
	check(kchacha_shim_registered() == 0, "%s: nothing left registered",
	      how);
}

static void child_max_isa(void *arg)
{
	int i = *(int *)arg, err;
	char how[64], value[32];

	if (i == -2) {
		/* empty, as "max_isa=" gives it: every implementation */
		max_isa = "";
		err = module_load("max_isa= (empty)");
		check(!err, "max_isa= (empty): loads (got %d)", err);
		check_registered("max_isa= (empty)", cpu_impls(kchacha_nimpls - 1),
				 kchacha_slow, KCHACHA_RNG_PRIORITY);
		module_unload("max_isa= (empty)");
		return;
	}
	if (i < 0) {
		max_isa = "bogus";
		err = module_load("max_isa=bogus");
		check(err == -EINVAL && kchacha_shim_registered() == 0,
		      "max_isa=bogus: -EINVAL, nothing registered (got %d, %u)",
		      err, kchacha_shim_registered());
		return;
	}
	/* as sysfs hands it over with a newline, for every other one */
	snprintf(value, sizeof(value), "%s%s", kchacha_impls[i].name,
		 i % 2 ? "\n" : "");
	max_isa = value;
	snprintf(how, sizeof(how), "max_isa=%s", kchacha_impls[i].name);
	err = module_load(how);
	check(!err, "%s: loads (got %d)", how, err);
	check_registered(how, cpu_impls(i), kchacha_slow, KCHACHA_RNG_PRIORITY);
	module_unload(how);
	check(kchacha_shim_registered() == 0, "%s: nothing left registered",
	      how);
}

#ifdef CONFIG_X86
/*
 * test_z32 (test builds, x86_64): -1 leaves the zmm driver's entry to the
 * CPU (the cache unset, or set by the load's own requests from
 * kchacha_cpu_two_cycle()), 0 and 1 set it at load, whatever the CPU says.
 */
static void child_test_z32(void *arg)
{
	int v = *(int *)arg, want = v;
	char how[32];

	test_z32 = v;
	snprintf(how, sizeof(how), "test_z32=%d", v);
	check(!module_load(how), "%s: loads", how);
	if (v < 0 && kchacha_avx512_z32 >= 0)
		want = kchacha_cpu_two_cycle();
	check(kchacha_avx512_z32 == want, "%s: kchacha_avx512_z32 is %d (got %d)",
	      how, want, kchacha_avx512_z32);
	module_unload(how);
}

static void child_ymm(void *arg)
{
	unsigned int r = *(unsigned int *)arg;
	struct crypto_alg *best;
	char how[64];

	/* Skylake-X, where zmm code lowers the clock; Sapphire Rapids */
	static const struct cpuinfo_x86 skx = { X86_VENDOR_INTEL, 6, 0x55 };
	static const struct cpuinfo_x86 spr = { X86_VENDOR_INTEL, 6, 0x8f };

	shim_cpu_override = ymm_rule[r].lowers ? &skx : &spr;
	prefer_ymm = ymm_rule[r].param;
	snprintf(how, sizeof(how), "prefer_ymm=%d, zmm %s the clock",
		 ymm_rule[r].param,
		 ymm_rule[r].lowers ? "lowers" : "does not lower");
	check(!module_load(how), "%s: loads", how);
	check(prefer_ymm == ymm_rule[r].resolved, "%s: reads %d (got %d)",
	      how, ymm_rule[r].resolved, prefer_ymm);
	check_registered(how, cpu_impls(kchacha_nimpls - 1),
			 ymm_rule[r].resolved, KCHACHA_RNG_PRIORITY);
	/* without AVX-512 the rule resolves all the same, but ranks none */
	if (!cpu_has_impl(impl_index("avx512")) ||
	    !cpu_has_impl(impl_index("avx512vl"))) {
		module_unload(how);
		return;
	}
	best = kchacha_shim_best("chacha20", KCHACHA_SHIM_SKCIPHER);
	check(best && !strcmp(best->cra_driver_name + strlen("chacha20-kchacha-"),
			      ymm_rule[r].top),
	      "%s: the default chacha20 is chacha20-kchacha-%s (got %s)", how,
	      ymm_rule[r].top, best ? best->cra_driver_name : "none");
	best = kchacha_shim_best("stdrng", KCHACHA_SHIM_RNG);
	check(best && !strcmp(best->cra_driver_name +
			      strlen("chacha20rng-kchacha-"), ymm_rule[r].top),
	      "%s: the best rng is chacha20rng-kchacha-%s (got %s)", how,
	      ymm_rule[r].top, best ? best->cra_driver_name : "none");
	module_unload(how);
}
#endif

/*
 * The calibration at load, on a clock of the test's own: each call of an
 * implementation's xor moves it on by that implementation's cost per byte
 * (calib_cost[], by table index) times the length.  The implementation
 * made fastest must take the first place where it leads the table's by 5%
 * (those ranked above it moving down one place each, the rngs in the same
 * order), and nothing move where it leads by less, where calibrate=0, or
 * where it is the zmm code that prefer_ymm=1 demotes.
 */
static u64 calib_clock, calib_cost[16];

static void calib_hook(const char *entry, unsigned int len)
{
	char name[48];
	size_t n;

	/* kchacha_<impl>_xor, and the zmm driver's kchacha_avx512_z32_xor */
	for (unsigned int i = 0; i < kchacha_nimpls; i++) {
		n = snprintf(name, sizeof(name), "kchacha_%s_",
			     kchacha_impls[i].name);
		if (!strncmp(entry, name, n) && (!strcmp(entry + n, "xor") ||
						 !strcmp(entry + n, "z32_xor")))
			calib_clock += calib_cost[i] * len;
	}
}

static u64 calib_now(void)
{
	return calib_clock;
}

/* The SIMD implementations the CPU has, by falling priority, in @l. */
static unsigned int calib_list(int *l, int ymm)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < kchacha_nimpls; i++) {
		unsigned int k = n++;

		if (!kchacha_impls[i].simd || !cpu_has_impl(i)) {
			n--;
			continue;
		}
		for (; k && expect_priority(&kchacha_impls[l[k - 1]], ymm) <
			    expect_priority(&kchacha_impls[i], ymm); k--)
			l[k] = l[k - 1];
		l[k] = i;
	}
	return n;
}

static const struct {
	const char *fast;	/* this one's cost per byte @cost */
	unsigned int cost;
	unsigned int other;	/* every other one's */
	int ymm;		/* prefer_ymm (x86) */
	bool calibrate;
	bool moves;		/* @fast comes first */
	const char *what;
} calib_cases[] = {
	{ "ssse3", 10, 20, 0, true, true, "ssse3 twice as fast" },
	{ "avx2", 100, 110, 0, true, true, "avx2 10% faster" },
	{ "avx2", 10, 10, 0, true, false, "all tied" },
	{ "ssse3", 100, 104, 0, true, false, "ssse3 4% faster" },
	{ "ssse3", 10, 20, 0, false, false, "ssse3 twice as fast, calibrate=0" },
	{ "avx512", 10, 20, 1, true, false, "zmm twice as fast, prefer_ymm=1" },
	{ "avx2", 10, 20, 1, true, true, "avx2 twice as fast, prefer_ymm=1" },
	{ "neon", 10, 20, 0, true, false, "NEON alone: nothing to compare" },
};

static void child_calibrate(void *arg)
{
	unsigned int k = *(unsigned int *)arg, n;
	int fast = impl_index(calib_cases[k].fast), l[16], prio[16] = { 0 };
	char how[96];

	snprintf(how, sizeof(how), "calibrated: %s", calib_cases[k].what);
	for (unsigned int i = 0; i < kchacha_nimpls; i++)
		calib_cost[i] = calib_cases[k].other;
	calib_cost[fast] = calib_cases[k].cost;
	calibrate = calib_cases[k].calibrate;
#ifdef CONFIG_X86
	prefer_ymm = calib_cases[k].ymm;
#endif
	kchacha_calib_clock = calib_now;
	kchacha_shim_simd_hook = calib_hook;
	check(!module_load(how), "%s: loads", how);
	kchacha_shim_simd_hook = NULL;

	n = calib_list(l, kchacha_slow);
	memset(calib_priority, 0, sizeof(calib_priority));
	if (calib_cases[k].moves) {
		unsigned int m = 0;

		for (unsigned int i = 0; i < n; i++)
			prio[i] = expect_priority(&kchacha_impls[l[i]],
						  kchacha_slow);
		calib_priority[fast] = prio[m++];
		for (unsigned int i = 0; i < n; i++)
			if (l[i] != fast)
				calib_priority[l[i]] = prio[m++];
	}
	check_registered(how, cpu_impls(kchacha_nimpls - 1), kchacha_slow,
			 KCHACHA_RNG_PRIORITY);
	memset(calib_priority, 0, sizeof(calib_priority));
	module_unload(how);
}

/*
 * After a load (@err) whose self-test of implementation @i failed: that
 * one left out, or the load failing with -EINVAL for the C core.
 */
static void check_left_out(const char *how, int i, int err)
{
	if (i == 0) {
		check(err == -EINVAL && kchacha_shim_registered() == 0,
		      "%s: the load fails with -EINVAL, nothing registered (got %d, %u)",
		      how, err, kchacha_shim_registered());
		return;
	}
	check(!err, "%s: loads (got %d)", how, err);
	check_registered(how, cpu_impls(kchacha_nimpls - 1) & ~(1u << i),
			 kchacha_slow, KCHACHA_RNG_PRIORITY);
	module_unload(how);
	check(kchacha_shim_registered() == 0, "%s: nothing left registered",
	      how);
}

/* selftest_fail=<impl>: that one left out, or the load failing for C */
static void child_selftest_fail(void *arg)
{
	int i = *(int *)arg, err;
	char how[64];

	char log[4096] = "", want[96];
	FILE *f = tmpfile();
	size_t n = 0;
	int saved;

	selftest_fail = (char *)kchacha_impls[i].name;
	snprintf(how, sizeof(how), "selftest_fail=%s", selftest_fail);
	/* the kernel log (pr_err: stderr) of the load */
	fflush(stderr);
	saved = dup(2);
	if (f)
		dup2(fileno(f), 2);
	err = module_load(how);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (f) {
		rewind(f);
		n = fread(log, 1, sizeof(log) - 1, f);
		fclose(f);
	}
	log[n] = 0;
	/* it is the self-test's own failure that leaves it out */
	snprintf(want, sizeof(want), "kchacha: %s: self-test failed: ",
		 selftest_fail);
	check(strstr(log, want), "%s: the self-test's own failure is logged ('%s...')",
	      how, want);
	check_left_out(how, i, err);
}

/*
 * The self-tests as the glue sees them (ld --wrap): kchacha_selftest() or
 * kchacha_rng_selftest() fails for the implementation named here, which
 * must then be left out, or the load fail for the C core, whatever the
 * other self-test says.
 */
static const char *wrap_fail_skcipher, *wrap_fail_rng;
int __real_kchacha_selftest(const struct kchacha_impl *impl);
int __real_kchacha_rng_selftest(const struct kchacha_impl *impl);

int __wrap_kchacha_selftest(const struct kchacha_impl *impl)
{
	int err = __real_kchacha_selftest(impl);

	return wrap_fail_skcipher && !strcmp(impl->name, wrap_fail_skcipher) ?
	       -EINVAL : err;
}

int __wrap_kchacha_rng_selftest(const struct kchacha_impl *impl)
{
	int err = __real_kchacha_rng_selftest(impl);

	return wrap_fail_rng && !strcmp(impl->name, wrap_fail_rng) ?
	       -EINVAL : err;
}

/* @arg / 2: the implementation; odd: its rng self-test fails, else its own */
static void child_test_fails(void *arg)
{
	int n = *(int *)arg, i = n / 2, err;
	char how[96];

	*(n % 2 ? &wrap_fail_rng : &wrap_fail_skcipher) = kchacha_impls[i].name;
	snprintf(how, sizeof(how), "%s: kchacha_%sselftest() fails",
		 kchacha_impls[i].name, n % 2 ? "rng_" : "");
	err = module_load(how);
	check_left_out(how, i, err);
}

/*
 * fail_register=N: the implementation of the Nth registration left out,
 * its other drivers unregistered, or, for the C core's, the load failing
 * with nothing left.  With @hold, a tfm of that implementation's first
 * driver is held from its registration on: its drivers stay registered,
 * unreachable (dying), until kchacha_mod_exit().
 */
struct fail_arg {
	unsigned int nr;
	int impl;
	bool hold;
};

static struct crypto_skcipher *held;
static const char *hold_name;

static void hold_hook(void)
{
	if (!held && hold_name && driver("chacha20", hold_name,
					 KCHACHA_SHIM_SKCIPHER))
		held = kchacha_shim_alloc_skcipher(driver("chacha20", hold_name,
					KCHACHA_SHIM_SKCIPHER)->cra_driver_name);
}

static void child_fail_register(void *arg)
{
	const struct fail_arg *f = arg;
	const char *name = kchacha_impls[f->impl].name;
	char how[80];
	int err;

	fail_register = f->nr;
	snprintf(how, sizeof(how), "fail_register=%u (%s)%s", f->nr, name,
		 f->hold ? ", a tfm held" : "");
	if (f->hold) {
		hold_name = name;
		kchacha_shim_register_hook = hold_hook;
	}
	err = module_load(how);
	if (f->impl == 0) {
		check(err == -ENOMEM && kchacha_shim_registered() == 0,
		      "%s: the load fails with -ENOMEM, nothing registered (got %d, %u)",
		      how, err, kchacha_shim_registered());
		return;
	}
	check(!err, "%s: loads (got %d)", how, err);
	if (f->hold) {
		struct crypto_alg *a = driver("chacha20", name,
					      KCHACHA_SHIM_SKCIPHER);

		check(held && a && (a->cra_flags & CRYPTO_ALG_DYING) &&
		      !kchacha_shim_best(a->cra_driver_name,
					 KCHACHA_SHIM_SKCIPHER),
		      "%s: the held driver stays registered, dying, unreachable",
		      how);
		crypto_free_skcipher(held);
		held = NULL;
	} else {
		check_registered(how, cpu_impls(kchacha_nimpls - 1) &
				 ~(1u << f->impl), kchacha_slow,
				 KCHACHA_RNG_PRIORITY);
	}
	module_unload(how);
	check(kchacha_shim_registered() == 0, "%s: nothing left registered",
	      how);
}

/* ---- the C core's registration failing while a tfm holds its driver ---- */

/* the kernel log (pr_*: stderr) of what runs between these into @log */
static FILE *log_file;
static int log_saved = -1;

static void log_begin(void)
{
	fflush(stderr);
	log_file = tmpfile();
	log_saved = dup(2);
	if (log_file)
		dup2(fileno(log_file), 2);
}

static void log_end(char *log, size_t size)
{
	size_t n = 0;

	fflush(stderr);
	dup2(log_saved, 2);
	close(log_saved);
	if (log_file) {
		rewind(log_file);
		n = fread(log, 1, size - 1, log_file);
		fclose(log_file);
	}
	log[n] = 0;
}

static unsigned int count_lines(const char *log, const char *what)
{
	unsigned int n = 0;

	for (const char *p = log; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/*
 * How the holder of chacha20-kchacha-generic behaves once the load waits
 * for it: it lets go after 2 s of the wait, keeps it, or the loading task
 * gets a fatal signal, before the wait or at its tenth sleep; or nobody
 * holds anything and the signal is pending.
 */
enum retire_mode {
	RETIRE_RELEASE,
	RETIRE_KEEP,
	RETIRE_SIGNAL_BEFORE,
	RETIRE_SIGNAL_DURING,
	RETIRE_SIGNAL_NO_HOLDER,
};

struct retire_arg {
	unsigned int nr;	/* fail_register: 2..4, a C core registration */
	enum retire_mode mode;
};

static const struct retire_arg *retire_now;

#define RETIRE_POLL	msecs_to_jiffies(KCHACHA_RETIRE_POLL_MS)
#define RETIRE_BOUND	msecs_to_jiffies(KCHACHA_RETIRE_WAIT_MS)

static void retire_sleep_hook(void)
{
	/* an unbounded wait: fail now rather than never end */
	if (kchacha_shim_slept > 4 * RETIRE_BOUND) {
		check(false, "fail_register=%u: the wait for a holder still sleeps after %lu jiffies, 4 times its bound",
		      retire_now->nr, kchacha_shim_slept);
		fflush(NULL);
		_exit(1);
	}
	if (retire_now->mode == RETIRE_RELEASE && held &&
	    kchacha_shim_slept >= msecs_to_jiffies(2000)) {
		crypto_free_skcipher(held);
		held = NULL;
	}
	if (retire_now->mode == RETIRE_SIGNAL_DURING &&
	    kchacha_shim_slept >= 10 * RETIRE_POLL)
		kchacha_shim_fatal_signal = true;
}

static void retire_hold_hook(void)
{
	hold_hook();
	if (held && retire_now->mode == RETIRE_SIGNAL_BEFORE)
		kchacha_shim_fatal_signal = true;
}

static void child_retire(void *arg)
{
	static const char *const modes[] = {
		"let go within the bound", "kept past the bound",
		"kept, a fatal signal before the wait",
		"kept, a fatal signal during the wait",
		"none held, a fatal signal pending",
	};
	const struct retire_arg *r = arg;
	unsigned long j0, waited;
	unsigned int kept = 0, dying = 0;
	struct crypto_alg *a;
	char how[112], log[8192];
	bool ok = true;
	int err;

	retire_now = r;
	fail_register = r->nr;
	snprintf(how, sizeof(how), "fail_register=%u (generic), %s", r->nr,
		 modes[r->mode]);
	if (r->mode == RETIRE_SIGNAL_NO_HOLDER) {
		kchacha_shim_fatal_signal = true;
	} else {
		hold_name = "generic";
		kchacha_shim_register_hook = retire_hold_hook;
	}
	kchacha_shim_sleep_hook = retire_sleep_hook;
	log_begin();
	j0 = jiffies;
	err = module_load(how);
	waited = jiffies - j0;
	log_end(log, sizeof(log));
	kchacha_shim_register_hook = NULL;
	kchacha_shim_sleep_hook = NULL;

	/* named once it has slept (a signal before the wait: no sleep) */
	if (r->mode != RETIRE_SIGNAL_NO_HOLDER &&
	    r->mode != RETIRE_SIGNAL_BEFORE)
		check(count_lines(log, "kchacha: generic: registration failed; chacha20-kchacha-generic is in use: waiting up to 5000 ms for it to be let go\n") == 1,
		      "%s: one log line names the held driver and the wait", how);
	if (r->mode == RETIRE_RELEASE || r->mode == RETIRE_SIGNAL_NO_HOLDER) {
		check(err == -ENOMEM && kchacha_shim_registered() == 0,
		      "%s: the load fails with -ENOMEM, nothing registered (got %d, %u)",
		      how, err, kchacha_shim_registered());
		check(!strstr(log, "still held"),
		      "%s: the log says nothing is kept", how);
		if (r->mode == RETIRE_RELEASE)
			check(kchacha_shim_slept >= msecs_to_jiffies(2000) &&
			      kchacha_shim_slept <= msecs_to_jiffies(2000) +
						    RETIRE_POLL,
			      "%s: the wait ends when the holder lets go (slept %lu jiffies, let go at %lu)",
			      how, kchacha_shim_slept, msecs_to_jiffies(2000));
		else
			check(kchacha_shim_slept == 0,
			      "%s: no wait (slept %lu jiffies)", how,
			      kchacha_shim_slept);
		return;
	}

	check(!err, "%s: the load succeeds, the held driver kept (got %d)",
	      how, err);
	if (r->mode == RETIRE_KEEP)
		check(waited >= RETIRE_BOUND && kchacha_shim_slept > 0 &&
		      kchacha_shim_slept <= RETIRE_BOUND + RETIRE_POLL,
		      "%s: the wait lasts its bound, %lu jiffies, in killable sleeps (%lu jiffies passed, %lu slept)",
		      how, RETIRE_BOUND, waited, kchacha_shim_slept);
	else
		check(kchacha_shim_slept == (r->mode == RETIRE_SIGNAL_DURING ?
					     10 * RETIRE_POLL : 0) &&
		      strstr(log, "kchacha: generic: the wait for its drivers' users ended by a fatal signal"),
		      "%s: the wait stops at the signal, and says so (slept %lu jiffies)",
		      how, kchacha_shim_slept);
	/* what stays: the C core's registered drivers, dying, unreachable */
	for (unsigned int i = 0; (a = kchacha_shim_each(i, NULL)); i++) {
		if (!strstr(a->cra_driver_name, "-kchacha-"))
			continue;
		kept++;
		dying += !!(a->cra_flags & CRYPTO_ALG_DYING);
		ok &= !strcmp(a->cra_driver_name +
			      strlen(a->cra_driver_name) - strlen("-generic"),
			      "-generic") &&
		      !kchacha_shim_best(a->cra_driver_name,
					 KCHACHA_SHIM_SKCIPHER) &&
		      !kchacha_shim_best(a->cra_driver_name,
					 KCHACHA_SHIM_RNG);
	}
	check(held && kept == r->nr - 1 && dying == kept && ok &&
	      driver("chacha20", "generic", KCHACHA_SHIM_SKCIPHER),
	      "%s: the %u C core drivers registered before the failure stay, the held one among them, dying, unreachable by driver name (got %u, %u dying)",
	      how, r->nr - 1, kept, dying);
	check(!kchacha_shim_best("chacha20", KCHACHA_SHIM_SKCIPHER) &&
	      !kchacha_shim_best("xchacha20", KCHACHA_SHIM_SKCIPHER) &&
	      !kchacha_shim_best("stdrng", KCHACHA_SHIM_RNG),
	      "%s: no lookup by algorithm name finds kchacha's", how);
	check(count_lines(log, "kchacha: generic: registration failed; chacha20-kchacha-generic still held: the module stays loaded with no drivers until rmmod\n") == 1 &&
	      count_lines(log, "still held") == 1,
	      "%s: one log line names the held driver and what the module does",
	      how);
	/* rmmod, once the holder has let go */
	crypto_free_skcipher(held);
	held = NULL;
	module_unload(how);
	check(kchacha_shim_registered() == 0,
	      "%s: kchacha_mod_exit() unregisters the kept drivers, nothing left",
	      how);
}

int main(void)
{
	unsigned int nr = 0;
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pages = mmap(NULL, (NPAGES + 2) * PAGE_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pages == MAP_FAILED)
		return 2;
	mprotect(pages, PAGE_SIZE, PROT_NONE);
	mprotect(pages + (NPAGES + 1) * PAGE_SIZE, PAGE_SIZE, PROT_NONE);
	pages += PAGE_SIZE;
	child_passed = mmap(NULL, PAGE_SIZE, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (child_passed == MAP_FAILED)
		return 2;

	in_child("a default load, requests on every driver", child_default,
		 NULL);
	for (i = 0; i < 4; i++)
		in_child("rng_prefer", child_rng, &i);
	for (i = -2; i < (int)kchacha_nimpls; i++)
		in_child("max_isa", child_max_isa, &i);
	for (i = 0; i < 2 * (int)kchacha_nimpls; i++)
		if (cpu_has_impl(i / 2))
			in_child("a failing self-test", child_test_fails, &i);

#ifdef CONFIG_X86
	/*
	 * x86 only: the parameter exists where the AVX-512 entries do.  How
	 * it resolves is checked on every CPU; the drivers it ranks first
	 * only where the CPU has them.
	 */
	if (impl_index("avx512") < 0) {
		printf("SKIP prefer_ymm: no AVX-512 entries in the table\n");
		skipped++;
	} else {
		if (!cpu_has_impl(impl_index("avx512")) ||
		    !cpu_has_impl(impl_index("avx512vl"))) {
			printf("SKIP prefer_ymm's default drivers: this CPU lacks AVX-512 (the rule's resolution is checked)\n");
			skipped++;
		}
		for (unsigned int r = 0; r < ARRAY_SIZE(ymm_rule); r++)
			in_child("prefer_ymm", child_ymm, &r);
	}
	for (i = -1; i <= 1; i++)
		in_child("test_z32", child_test_z32, &i);
#endif

	for (i = 0; i < (int)kchacha_nimpls; i++)
		if (cpu_has_impl(i))
			in_child("selftest_fail", child_selftest_fail, &i);

	/* the calibration's cases for the implementations this CPU has */
	for (unsigned int k = 0; k < ARRAY_SIZE(calib_cases); k++) {
		int fast = impl_index(calib_cases[k].fast), l[16];
		unsigned int n = calib_list(l, calib_cases[k].ymm);

		/* a case of the other architecture's table: none here */
		if (fast < 0 || (calib_cases[k].ymm && impl_index("avx512") < 0))
			continue;
		if (!cpu_has_impl(fast) ||
		    (n < 2) != !strcmp(calib_cases[k].fast, "neon")) {
			printf("SKIP calibrated: %s: not on this CPU\n",
			       calib_cases[k].what);
			skipped++;
			continue;
		}
		in_child("calibrate", child_calibrate, &k);
	}

	/* four registrations an implementation, in table order */
	for (i = 0; i < (int)kchacha_nimpls; i++) {
		if (!cpu_has_impl(i))
			continue;
		for (unsigned int k = 1; k <= 4; k++) {
			struct fail_arg f = { nr + k, i, false };

			in_child("fail_register", child_fail_register, &f);
			if (i && k == 4) {
				f.hold = true;
				in_child("fail_register, held",
					 child_fail_register, &f);
			}
		}
		nr += 4;
	}

	/* the C core's registration failing while its driver is held */
	for (i = 0; i <= RETIRE_SIGNAL_NO_HOLDER; i++) {
		struct retire_arg r = { 4, i };

		in_child("a held C core driver", child_retire, &r);
		if (i <= RETIRE_KEEP) {
			r.nr = 2;
			in_child("a held C core driver", child_retire, &r);
		}
	}

	/* each load tests every implementation the CPU has */
	for (unsigned int k = 0; k < kchacha_nimpls; k++)
		if (cpu_has_impl(k))
			printf("%s %s\n", failed ? "FAIL" : "ok  ",
			       kchacha_impls[k].name);
	printf("glue: %u loads, %u passed, %u failed, %u skipped\n", passed,
	       *child_passed, failed, skipped);
	return failed ? 1 : 0;
}
