// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space tests of rng.c, built through test/shim with every
 * implementation the CPU supports:
 *  - the module's rng self-test passes, and its known answer is the digest
 *    of an independent model of the construction (written here on
 *    test/unit/ref.h) over the self-test's script;
 *  - with the shim's get_random_bytes() and clocks fixed, an instance
 *    reproduces the model byte for byte over a long pseudo-random script
 *    of every path (short, refills, one-time keys, pieces, additional
 *    input, seeds, reseeds on the byte bound), with SIMD usable and not;
 *  - after every request the instance's memory (context and every CPU's
 *    state) holds no earlier key and no byte already returned;
 *  - the crypto API callbacks: dlen 0, seeds of any length, seeds and
 *    additional input change the output, reseeds on time and on output,
 *    every instance wiped when freed;
 *  - four threads sharing one tfm never get the same 16 bytes;
 *  - rng_reseed.h: the reseed rules (issues 14, 19, 27);
 *  - rng_race.h: reseeds racing on two CPUs, forced at the shim's
 *    interception points, outputs traced to the seeds they came from;
 *  - 64 MiB of output pass rngtest's FIPS 140-2 tests and a byte
 *    chi-square test.
 * Prints "rng: N passed, N failed"; exits non-zero on a failure.  With
 * --quick, only the C core and no statistics (the UBSan build); with
 * --stack-debug, where the reseed model's stack scan finds a secret.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <crypto/rng.h>
#include <crypto/internal/rng.h>
#include <crypto/internal/simd.h>
#include <asm/fpu/api.h>
#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/local_lock.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/suspend.h>
#include <linux/syscore_ops.h>
#include "kchacha.h"
#include "kchacha_rng.h"
#include "test/shim/simdcheck.h"
#include "test/unit/failfast.h"
#include "test/unit/ref.h"

/* rng.c's parameters, which the model follows. */
#define BUF		1024
#define OUT		(BUF - 32)	/* the buffer's bytes, then its key */
#define DIRECT		256	/* scripts: short requests below this */
#define KEY_BYTES	65536
#define RESEED_BYTES	(1024 * 1024)
#define RESEED_SECS	60
/* sizeof(struct kchacha_rng_now): two u64, a long, four longs */
#define NOW_BYTES	(sizeof(long) == 8 ? 56 : 40)

#define DOM_SEED	0x64656573
#define DOM_NOW		0x20776f6e
#define DOM_MIX		0x2078696d
#define DOM_ADDTL	0x6c646461
#define DOM_KAT		0x2074616b

extern bool kchacha_shim_random_fixed, kchacha_shim_clock_fixed;

static unsigned int passed, failed, skipped;

/* An instance: a tfm of @impl's stdrng, rng.c's only interface. */
static struct crypto_rng *kchacha_rng_alloc(const struct kchacha_impl *impl)
{
	return kchacha_shim_alloc_rng(kchacha_rng_alg_create(impl, 0));
}

static void kchacha_rng_free(struct crypto_rng *tfm)
{
	struct rng_alg *alg = crypto_rng_alg(tfm);

	crypto_free_rng(tfm);
	kchacha_rng_alg_destroy(alg);
}

#define kchacha_rng_generate	crypto_rng_generate
#define kchacha_rng_seed	crypto_rng_reset

static void check(bool ok, const char *impl, const char *what)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	printf("FAIL %s: %s\n", impl, what);
	fail_fast();
}

static uint64_t prng_state = 0x243f6a8885a308d3ULL;

static uint32_t prng(void)
{
	prng_state ^= prng_state << 13;
	prng_state ^= prng_state >> 7;
	prng_state ^= prng_state << 17;
	return prng_state >> 16;
}

static uint8_t pattern[1024];

/*
 * 16-byte blocks at multiples of 16 of @buf that occur earlier too (a hash
 * set of their first 8 bytes: two equal by chance in 64 MiB has a chance
 * of 2^-19).  Chunks or keys repeated within or across requests of any
 * length show up: a request's chunks lie multiples of 64 bytes apart.
 */
static unsigned long dup_blocks(const uint8_t *buf, size_t len)
{
	size_t mask = (1 << 24) - 1, k;
	uint64_t *set = calloc(mask + 1, sizeof(*set));
	unsigned long dups = 0;

	for (size_t i = 0; i + 16 <= len; i += 16) {
		uint64_t w;

		memcpy(&w, buf + i, 8);
		w |= 1;		/* 0 marks an empty entry */
		for (k = (w * 0x9e3779b97f4a7c15ULL) >> 40; set[k & mask];
		     k++)
			if (set[k & mask] == w) {
				dups++;
				break;
			}
		set[k & mask] = w;
	}
	free(set);
	return dups;
}

/* ---- the model: rng.c's construction from its description ---- */

struct model {
	uint8_t key[32];	/* instance key */
	unsigned long gen, pgen, left;	/* CPU 0's state: */
	bool keyed;		/* buf ends in its key */
	uint8_t buf[BUF];
	unsigned int pos;
	unsigned long calls;	/* the fixed get_random_bytes() stream */
	/* called with every key that stops being current */
	void (*retire)(const uint8_t *key);
};

static const uint8_t zero_iv[16];

static void model_retire(struct model *m, const uint8_t *key)
{
	if (m->retire)
		m->retire(key);
}

static void model_absorb(uint8_t key[32], uint32_t domain,
			 const uint8_t *data, size_t len)
{
	uint8_t block[16] = { 0 };

	for (int i = 0; i < 4; i++) {
		block[i] = domain >> (8 * i);
		block[4 + i] = (uint32_t)len >> (8 * i);
	}
	ref_hchacha(key, block, 20, key);
	while (len) {
		size_t n = len < 16 ? len : 16;

		memset(block, 0, 16);
		memcpy(block, data, n);
		ref_hchacha(key, block, 20, key);
		data += n;
		len -= n;
	}
}

static void model_keystream(const uint8_t key[32], uint8_t *out, size_t len)
{
	memset(out, 0, len);
	ref_chacha(key, zero_iv, 20, out, out, len);
}

/* key = F_(key ^ m)(), m = F_fresh(seed) then F_m(now) */
static void model_mix(struct model *m, const uint8_t *fresh,
		      const uint8_t *seed, size_t slen, size_t nlen)
{
	static const uint8_t zeros[64];
	uint8_t mk[32];

	memcpy(mk, fresh, 32);
	model_absorb(mk, DOM_SEED, seed, slen);
	model_absorb(mk, DOM_NOW, zeros, nlen);
	for (int i = 0; i < 32; i++)
		mk[i] ^= m->key[i];
	model_absorb(mk, DOM_MIX, NULL, 0);
	model_retire(m, m->key);
	memcpy(m->key, mk, 32);
	m->gen++;
}

static void model_reseed(struct model *m, const uint8_t *seed, size_t slen)
{
	uint8_t fresh[32];

	for (int i = 0; i < 32; i++)
		fresh[i] = m->calls * 0x3b + i;
	m->calls++;
	model_mix(m, fresh, seed, slen, NOW_BYTES);
}

/* the buffer and its key dropped (its key retired) */
static void model_drop(struct model *m)
{
	if (m->keyed)
		model_retire(m, m->buf + OUT);
	memset(m->buf, 0, BUF);
	m->pos = OUT;
	m->keyed = false;
}

/* CPU 0's state made the instance's current one */
static void model_own(struct model *m)
{
	if (m->pgen == m->gen)
		return;
	model_drop(m);
	m->pgen = m->gen;
	m->left = RESEED_BYTES;
}

/*
 * The CPU key into @key, taken out of the state; where it has none, by
 * fast key erasure of the instance key: key = block[0..32), the CPU key
 * block[32..64) (the rest of the buffer dropped).
 */
static void model_take(struct model *m, uint8_t key[32])
{
	uint8_t block[64];

	if (!m->keyed) {
		model_drop(m);
		model_keystream(m->key, block, 64);
		model_retire(m, m->key);
		memcpy(m->key, block, 32);
		memcpy(m->buf + OUT, block + 32, 32);
	}
	memcpy(key, m->buf + OUT, 32);
	memset(m->buf + OUT, 0, 32);
	m->keyed = false;
}

static void model_serve(struct model *m, uint8_t *dst, size_t n)
{
	memcpy(dst, m->buf + m->pos, n);
	memset(m->buf + m->pos, 0, n);
	m->pos += n;
	m->left -= n;
}

/*
 * A request the buffer can hold: from the buffer, refilled (what is left
 * first, then the stream of the CPU key, BUF bytes) where it runs out.  A
 * longer one, or one with additional input: per KEY_BYTES, the stream of a
 * one-time key, the buffer's next 32 bytes (mixed with the input's
 * digest), after a refill where fewer are left.  A reseed where the CPU
 * would pass RESEED_BYTES.
 */
static void model_get(struct model *m, const uint8_t *src, size_t slen,
		      uint8_t *dst, size_t dlen)
{
	bool fill = !slen && dlen <= OUT;
	uint8_t key[32], add[32] = { 0 };

	if (!dlen)
		return;
	if (slen)
		model_absorb(add, DOM_ADDTL, src, slen);
	while (dlen) {
		size_t n = fill ? dlen : dlen < KEY_BYTES ? dlen : KEY_BYTES;

		model_own(m);
		if (n > m->left) {
			model_reseed(m, NULL, 0);
			continue;
		}
		if (fill && m->pos < OUT) {
			n = dlen < OUT - m->pos ? dlen : OUT - m->pos;
			model_serve(m, dst, n);
			dst += n;
			dlen -= n;
			continue;
		}
		if (!fill && m->pos + 32 <= OUT) {
			memcpy(key, m->buf + m->pos, 32);
			memset(m->buf + m->pos, 0, 32);
			m->pos += 32;
			m->left -= n;
			if (slen) {
				model_retire(m, key);
				for (int i = 0; i < 32; i++)
					key[i] ^= add[i];
				model_absorb(key, DOM_ADDTL, NULL, 0);
			}
			model_keystream(key, dst, n);
			model_retire(m, key);
			dst += n;
			dlen -= n;
			continue;
		}
		model_take(m, key);	/* a refill */
		model_keystream(key, m->buf, BUF);
		model_retire(m, key);
		m->pos = 0;
		m->keyed = true;
	}
}

static void model_init(struct model *m, void (*retire)(const uint8_t *key))
{
	memset(m, 0, sizeof(*m));
	m->pos = OUT;
	m->retire = retire;
	model_reseed(m, NULL, 0);
}

/* ---- scripts ---- */

enum { GEN, ADDTL, SEED };

struct step {
	int op;
	unsigned int len;
};

/* rng.c's self-test script: every fourth step with 7 bytes of input */
static const unsigned int kat_lens[] = {
	1, 3, 16, 32, 64, 100, 255, 256, 511, 40, 1000, 300, 992, 17,
	13000, 70000, 2, 600,
};

/* The digest of the self-test's script, by the model. */
static void kat_digest(uint8_t digest[32])
{
	uint8_t fresh[32], *out, *p;
	size_t len = 0;
	struct model m;

	for (unsigned int i = 0; i < ARRAY_SIZE(kat_lens); i++)
		len += kat_lens[i];
	out = p = malloc(len);
	memset(&m, 0, sizeof(m));
	m.pos = OUT;
	for (int i = 0; i < 32; i++)
		fresh[i] = i * 13 + 5;
	model_mix(&m, fresh, fresh, 23, 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(kat_lens); i++) {
		model_get(&m, fresh, i % 4 == 1 ? 7 : 0, p, kat_lens[i]);
		p += kat_lens[i];
	}
	memset(digest, 0, 32);
	model_absorb(digest, DOM_KAT, out, len);
	free(out);
}

/* A long script of every path: small, large, additional input, seeds. */
static struct step long_script[700];

static void make_long_script(void)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(long_script); i++) {
		uint32_t r = prng();
		struct step *s = &long_script[i];

		switch (r % 16) {
		case 0:
			s->op = SEED;
			s->len = prng() % 300;
			break;
		case 1:
		case 2:
			s->op = ADDTL;
			s->len = 1 + prng() % 3000;
			break;
		case 3:
			s->op = GEN;
			s->len = r % 64 < 16 ? 1 + prng() % (3 * KEY_BYTES) :
				 1 + prng() % 300;
			break;
		case 4:
			s->op = GEN;
			s->len = DIRECT + prng() % 5000;
			break;
		default:
			s->op = GEN;
			s->len = 1 + prng() % DIRECT;
			break;
		}
	}
	long_script[5] = (struct step){ GEN, 0 };
	long_script[6] = (struct step){ ADDTL, 0 };
	/* past the byte bound, in one request and across several */
	long_script[300] = (struct step){ GEN, RESEED_BYTES + 100 };
	for (int i = 400; i < 420; i++)
		long_script[i] = (struct step){ GEN, 65536 - 13 };
}

static size_t script_len(const struct step *s, size_t n)
{
	size_t len = 0;

	while (n--)
		if (s[n].op != SEED)
			len += s[n].len;
	return len;
}

/* ---- the memory scan ---- */

/*
 * Every 8-byte window of every byte string returned so far and of every key
 * no longer current, in a hash set: the state must contain none of them.
 * The bytes of the latest request and the keys retired during it are also
 * checked in 4-byte windows, which catch shorter leftovers; over the whole
 * history 4 bytes would match by chance.
 */
#define SET_BITS	23

static uint64_t *seen;
static uint64_t *state_win;
static size_t nstate;
static uint8_t recent_keys[64][32];
static unsigned int nrecent;

static size_t slot_of(uint64_t w)
{
	return (w * 0x9e3779b97f4a7c15ULL) >> (64 - SET_BITS);
}

static void seen_add(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i + 8 <= len; i++) {
		uint64_t w;
		size_t k;

		memcpy(&w, p + i, 8);
		if (!w)
			continue;
		for (k = slot_of(w); seen[k] && seen[k] != w;)
			k = (k + 1) & ((1 << SET_BITS) - 1);
		seen[k] = w;
	}
}

static bool seen_has(uint64_t w)
{
	size_t k;

	for (k = slot_of(w); seen[k]; k = (k + 1) & ((1 << SET_BITS) - 1))
		if (seen[k] == w)
			return true;
	return false;
}

static void retire_key(const uint8_t *key)
{
	seen_add(key, 32);
	if (nrecent < ARRAY_SIZE(recent_keys))
		memcpy(recent_keys[nrecent++], key, 32);
}

/*
 * Does @w point into a live kmalloc region or kchacha_impls[]?  Such words
 * (the instance's per-CPU and implementation pointers) change from run to
 * run with the address-space layout, so a 4-byte window over them would
 * match a returned byte string by chance once in some thousand runs.
 */
static uintptr_t slab_lo, slab_hi;	/* the live regions' span */

static bool is_pointer(uint64_t w)
{
	uintptr_t lo = (uintptr_t)kchacha_impls;

	if (w >= lo && w < (uintptr_t)(kchacha_impls + kchacha_nimpls))
		return true;
	/* most words lie outside every region: no walk of the list */
	if (w < slab_lo || w >= slab_hi)
		return false;
	for (int i = 0; i < KCHACHA_SHIM_MAX_SLAB; i++) {
		uintptr_t p = (uintptr_t)kchacha_shim_slab[i].p;

		if (p && w >= p && w < p + kchacha_shim_slab[i].size)
			return true;
	}
	return false;
}

/* @p's 8-byte windows, its aligned pointer words read as zero */
static void add_state(const uint8_t *p, size_t len)
{
	uint8_t *copy = malloc(len ? len : 1);

	memcpy(copy, p, len);
	for (size_t i = 0; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, copy + i, 8);
		if (((uintptr_t)p + i) % 8 == 0 && is_pointer(w))
			memset(copy + i, 0, 8);
	}
	for (size_t i = 0; i + 8 <= len; i++)
		memcpy(&state_win[nstate++], copy + i, 8);
	free(copy);
}

/* The instance and every live kmalloc region, as 8-byte windows. */
static void collect_state(const void *rng, size_t size)
{
	size_t total = size;

	slab_lo = UINTPTR_MAX;
	slab_hi = 0;
	for (int i = 0; i < KCHACHA_SHIM_MAX_SLAB; i++) {
		uintptr_t p = (uintptr_t)kchacha_shim_slab[i].p;

		if (!p)
			continue;
		total += kchacha_shim_slab[i].size;
		if (p < slab_lo)
			slab_lo = p;
		if (p + kchacha_shim_slab[i].size > slab_hi)
			slab_hi = p + kchacha_shim_slab[i].size;
	}
	state_win = realloc(state_win, total * sizeof(*state_win));
	nstate = 0;
	add_state(rng, size);
	for (int i = 0; i < KCHACHA_SHIM_MAX_SLAB; i++)
		if (kchacha_shim_slab[i].p)
			add_state(kchacha_shim_slab[i].p,
				  kchacha_shim_slab[i].size);
}

/* CPU @cpu's spare (rng.c), and whether a refill has it */
static const uint8_t *spare_of(struct crypto_rng *tfm, unsigned int cpu,
			       bool *filling)
{
	const struct kchacha_rng *rng = crypto_rng_ctx(tfm);
	const struct kchacha_rng_cpu *p = per_cpu_ptr(rng->cpus, cpu);

	*filling = p->filling;
	return p->bufs[!p->cur];
}

/* Is every CPU's spare all zeros, but where a refill has it? */
static bool spares_clear(struct crypto_rng *tfm)
{
	for (unsigned int cpu = 0; cpu < kchacha_shim_ncpus; cpu++) {
		bool filling;
		const uint8_t *spare = spare_of(tfm, cpu, &filling);

		for (unsigned int i = 0; !filling && i < BUF; i++)
			if (spare[i])
				return false;
	}
	return true;
}

/* Does any nonzero 4-byte window of p[0..len) occur in the state? */
static bool in_state4(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i + 4 <= len; i++) {
		uint32_t w;

		memcpy(&w, p + i, 4);
		if (!w)
			continue;
		for (size_t k = 0; k < nstate; k++)
			if ((uint32_t)state_win[k] == w)
				return true;
	}
	return false;
}

/* Does the state hold an old key or a returned byte string? */
static bool state_leaks(const uint8_t *latest, size_t len)
{
	for (size_t k = 0; k < nstate; k++)
		if (state_win[k] && seen_has(state_win[k]))
			return true;
	if (len < DIRECT && in_state4(latest, len))
		return true;
	return false;
}

/* ---- deterministic tests ---- */

#define ADDTL_LEN	23

/* Fixed entropy and clocks, CPU 0 (jiffies move only when a test says). */
static void fixed_begin(void)
{
	kchacha_shim_random_fixed = true;
	kchacha_shim_clock_fixed = true;
	kchacha_shim_force_cpu = 0;
}

static void fixed_end(void)
{
	kchacha_shim_random_fixed = false;
	kchacha_shim_clock_fixed = false;
	kchacha_shim_force_cpu = -1;
}

extern void kchacha_shim_random_fixed_reset(void);

static void run_fixed(const struct kchacha_impl *impl, const struct step *s,
		      size_t n, uint8_t *out, bool scan, bool *ok)
{
	struct crypto_rng *rng;
	uint8_t *ref = NULL;
	struct model m;

	fixed_begin();
	kchacha_shim_random_fixed_reset();
	if (scan) {
		seen = calloc(1 << SET_BITS, sizeof(*seen));
		nrecent = 0;
		model_init(&m, retire_key);
		ref = malloc(script_len(s, n) + 1);
	}
	rng = kchacha_rng_alloc(impl);
	for (size_t i = 0; i < n; i++) {
		const uint8_t *src = s[i].op == ADDTL ? pattern : NULL;
		unsigned int slen = s[i].op == ADDTL ? ADDTL_LEN : 0;

		nrecent = 0;
		if (s[i].op == SEED) {
			kchacha_rng_seed(rng, pattern, s[i].len);
			if (scan)
				model_reseed(&m, pattern, s[i].len);
		} else {
			if (kchacha_rng_generate(rng, src, slen, out, s[i].len))
				*ok = false;
			if (scan) {
				model_get(&m, src, slen, ref, s[i].len);
				if (memcmp(out, ref, s[i].len)) {
					if (*ok)
						printf("step %zu (%d, %u) differs from the model\n",
						       i, s[i].op, s[i].len);
					*ok = false;
				}
			}
		}
		if (scan) {
			collect_state(crypto_rng_ctx(rng), crypto_rng_alg(rng)->base.cra_ctxsize);
			if (state_leaks(out, s[i].op == SEED ? 0 : s[i].len) ||
			    !spares_clear(rng)) {
				if (*ok)
					printf("step %zu: the state holds an old key or output, or a spare not wiped\n",
					       i);
				*ok = false;
			}
			if (s[i].op != SEED)
				seen_add(out, s[i].len);
		}
		if (s[i].op != SEED)
			out += s[i].len;
	}
	kchacha_rng_free(rng);
	fixed_end();
	if (scan) {
		free(seen);
		free(ref);
	}
}

static void test_fixed(const struct kchacha_impl *impl)
{
	size_t long_len = script_len(long_script, ARRAY_SIZE(long_script));
	uint8_t *a = malloc(long_len), *b = malloc(long_len);
	bool ok = true;

	check(kchacha_rng_selftest(impl) == 0, impl->name,
	      "rng self-test (known answer)");

	ok = true;
	run_fixed(impl, long_script, ARRAY_SIZE(long_script), a, true, &ok);
	check(ok, impl->name,
	      "long script equals the model; the state never holds an earlier key, a returned byte or a used spare");

	kchacha_shim_simd_usable = false;
	ok = true;
	run_fixed(impl, long_script, ARRAY_SIZE(long_script), b, false, &ok);
	kchacha_shim_simd_usable = true;
	check(ok && !memcmp(a, b, long_len), impl->name,
	      "long script with SIMD not usable equals it with SIMD");
	free(a);
	free(b);
}

/* What seeds and additional input change (fixed entropy). */
static void test_mixing(const struct kchacha_impl *impl)
{
	struct crypto_rng *r[4];
	uint8_t out[4][600];
	int i;

	fixed_begin();
	for (i = 0; i < 4; i++) {
		kchacha_shim_random_fixed_reset();
		r[i] = kchacha_rng_alloc(impl);
	}
	for (i = 0; i < 4; i++)
		kchacha_rng_generate(r[i], NULL, 0, out[i], 100);
	check(!memcmp(out[0], out[1], 100) && !memcmp(out[0], out[3], 100),
	      impl->name, "instances of the same entropy agree");
	kchacha_shim_random_fixed_reset();
	kchacha_rng_seed(r[0], pattern, 33);
	kchacha_shim_random_fixed_reset();
	kchacha_rng_seed(r[1], pattern, 33);
	kchacha_shim_random_fixed_reset();
	kchacha_rng_seed(r[2], pattern + 1, 33);
	for (i = 0; i < 4; i++)
		kchacha_rng_generate(r[i], NULL, 0, out[i], 64);
	check(!memcmp(out[0], out[1], 64), impl->name,
	      "the same seed and entropy give the same stream");
	check(memcmp(out[0], out[2], 64) && memcmp(out[0], out[3], 64) &&
	      memcmp(out[2], out[3], 64), impl->name,
	      "a seed changes the stream, and its bytes matter");
	kchacha_shim_random_fixed_reset();
	kchacha_rng_seed(r[0], (const u8 *)"\0\0\0", 3);
	kchacha_shim_random_fixed_reset();
	kchacha_rng_seed(r[1], (const u8 *)"\0\0\0", 4);
	kchacha_rng_generate(r[0], NULL, 0, out[0], 64);
	kchacha_rng_generate(r[1], NULL, 0, out[1], 64);
	check(memcmp(out[0], out[1], 64), impl->name,
	      "zero-padded seeds of different lengths differ");
	for (i = 0; i < 3; i++) {
		kchacha_shim_random_fixed_reset();
		kchacha_rng_seed(r[i], NULL, 0);
	}
	kchacha_rng_generate(r[0], pattern, 5, out[0], 24);
	kchacha_rng_generate(r[1], pattern + 1, 5, out[1], 24);
	kchacha_rng_generate(r[2], NULL, 0, out[2], 24);
	check(memcmp(out[0], out[1], 24) && memcmp(out[0], out[2], 24),
	      impl->name, "additional input changes the output");
	for (i = 0; i < 4; i++)
		kchacha_rng_free(r[i]);
	fixed_end();
}

/* ---- the crypto API callbacks, non-deterministic ---- */

/*
 * A task moved to the other CPU before each local lock of a request in
 * turn (the shim's hook runs before the lock is taken; this thread plays
 * CPUs 0 and 1): each step works on the state of the CPU whose lock it
 * holds (the shim's lockdep_assert_held() fails the test where a step
 * keeps another CPU's pointer), and no output repeats.  Each request
 * follows a reseed, so that it refills, a short and a long one each, with
 * and without additional input.  After a short one (the stream of the CPU
 * key that refilled the buffer), neither CPU's state may hold that key:
 * no 32-byte window of either keys a block that starts as its output did.
 */
static unsigned int migrate_at, migrate_locks;

static void migrate_hook(void)
{
	/* not where the task pinned itself (migrate_disable()) */
	if (++migrate_locks == migrate_at && !kchacha_shim_migrate_off)
		kchacha_shim_thread_cpu ^= 1;
}

/* Does a 32-byte window of live kmalloc memory key a block starting @out? */
static bool keeps_key_of(const uint8_t *out)
{
	static const uint8_t nonce[12];
	uint8_t blk[64];

	for (int r = 0; r < KCHACHA_SHIM_MAX_SLAB; r++) {
		const uint8_t *b = kchacha_shim_slab[r].p;

		for (size_t i = 0; b && i + 32 <= kchacha_shim_slab[r].size; i++) {
			uint64_t w;

			memcpy(&w, b + i, 8);
			if (!w)
				continue;
			ref_block(b + i, 0, nonce, 20, blk);
			if (!memcmp(blk, out, 16))
				return true;
		}
	}
	return false;
}

static void test_migrate(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	static const unsigned int lens[] = { 16, OUT, OUT + 8, 70000 };
	static uint8_t out[4 * 8 * 2 * 70000];
	unsigned int ncpus = kchacha_shim_ncpus;
	int saved = kchacha_shim_thread_cpu;
	unsigned int at, i, add, maxlocks = 0;
	struct crypto_rng *tfm;
	bool kept = false;
	size_t used = 0;

	/* CPUs 0 and 1 whatever this machine has (the CPU states are made
	 * with the first instance, this one) */
	if (ncpus < 2)
		kchacha_shim_ncpus = 2;
	tfm = kchacha_shim_alloc_rng(alg);
	check(tfm != NULL, impl->name, "tfm allocation (migrations)");
	if (!tfm) {
		kchacha_shim_ncpus = ncpus;
		return;
	}
	for (i = 0; i < 4; i++)
		for (add = 0; add < 2; add++)
			for (at = 1; at <= 8; at++) {
				kchacha_shim_thread_cpu = 0;
				crypto_rng_reset(tfm, pattern, 32);
				migrate_locks = 0;
				migrate_at = at;
				__atomic_store_n(&kchacha_shim_local_lock_hook,
						 migrate_hook, __ATOMIC_RELEASE);
				crypto_rng_generate(tfm, pattern, add * 10,
						    out + used, lens[i]);
				__atomic_store_n(&kchacha_shim_local_lock_hook,
						 NULL, __ATOMIC_RELEASE);
				if (migrate_locks > maxlocks)
					maxlocks = migrate_locks;
				if (!add && lens[i] <= OUT)
					kept |= keeps_key_of(out + used);
				used += lens[i];
			}
	kchacha_shim_thread_cpu = saved;
	crypto_free_rng(tfm);
	kchacha_shim_ncpus = ncpus;
	/* the 8 points covered every lock of the short requests */
	check(maxlocks >= 3 && !dup_blocks(out, used), impl->name,
	      "requests moved to another CPU at each local lock: each on its lock's CPU state, no block twice");
	check(!kept, impl->name,
	      "requests moved to another CPU during a refill: no CPU's state keeps the key of what it served");
}

static void test_api(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	struct crypto_rng *tfm, *tfm2;
	static uint8_t big[1 << 20];
	uint8_t a[64], b[64];
	unsigned long calls;
	bool ok = true;

	/*
	 * No instance yet: the first allocates the shared CPU states.  Where
	 * that fails, it fails alone, and the next one allocates them.
	 */
	kchacha_shim_kmalloc_fail = true;
	tfm = kchacha_shim_alloc_rng(alg);
	kchacha_shim_kmalloc_fail = false;
	check(!tfm, impl->name,
	      "the first instance fails where its CPU states cannot be allocated");
	tfm = kchacha_shim_alloc_rng(alg);
	check(tfm != NULL, impl->name,
	      "tfm allocation (the next instance allocates the CPU states)");
	if (!tfm)
		return;
	check(!strcmp(alg->base.cra_name, "stdrng") &&
	      !strncmp(alg->base.cra_driver_name, "chacha20rng-kchacha-", 20) &&
	      !strcmp(alg->base.cra_driver_name + 20, impl->name) &&
	      alg->seedsize == 32, impl->name, "names and seed size");

	memset(a, 0xa5, sizeof(a));
	check(crypto_rng_generate(tfm, NULL, 0, a, 0) == 0 &&
	      crypto_rng_generate(tfm, pattern, 10, a, 0) == 0 &&
	      a[0] == 0xa5 && a[63] == 0xa5, impl->name,
	      "dlen 0 returns 0 and writes nothing");

	/* every seed reseeds at once (one entropy call) and changes the output */
	crypto_rng_get_bytes(tfm, b, 16);
	for (unsigned int len = 0; len <= 70000; len = len * 3 + 1) {
		calls = kchacha_shim_random_calls;
		ok &= crypto_rng_reset(tfm, big, len) == 0 &&
		      kchacha_shim_random_calls == calls + 1;
		crypto_rng_get_bytes(tfm, a, 16);
		ok &= kchacha_shim_random_calls == calls + 1 &&
		      memcmp(a, b, 16) != 0;
		memcpy(b, a, 16);
	}
	calls = kchacha_shim_random_calls;
	alg->set_ent(tfm, pattern, 16);
	crypto_rng_get_bytes(tfm, a, 16);
	check(ok && kchacha_shim_random_calls == calls + 1 && memcmp(a, b, 16),
	      impl->name,
	      "seeds of any length and set_ent() reseed at once and change the output");

	tfm2 = kchacha_shim_alloc_rng(alg);
	crypto_rng_get_bytes(tfm, a, 64);
	crypto_rng_get_bytes(tfm2, b, 64);
	check(memcmp(a, b, 64), impl->name, "two instances differ");
	crypto_rng_reset(tfm, pattern, 32);
	crypto_rng_reset(tfm2, pattern, 32);
	crypto_rng_get_bytes(tfm, a, 64);
	crypto_rng_get_bytes(tfm2, b, 64);
	check(memcmp(a, b, 64), impl->name,
	      "the same caller seed does not make two instances agree");
	crypto_free_rng(tfm2);

	/* large requests, every path, against the chi-square bound elsewhere */
	crypto_rng_get_bytes(tfm, big, sizeof(big) / 2);
	crypto_rng_generate(tfm, pattern, 100, big + sizeof(big) / 2 + 3,
			    sizeof(big) / 2 - 3);
	check(!dup_blocks(big, sizeof(big)), impl->name,
	      "two 512 KiB requests (one with additional input): no 16-byte block twice");

	/* reseeds on time: one per interval, checked on every request */
	crypto_rng_get_bytes(tfm, a, 16);
	calls = kchacha_shim_random_calls;
	crypto_rng_get_bytes(tfm, a, 16);
	ok = kchacha_shim_random_calls == calls;
	__atomic_fetch_add(&kchacha_shim_jiffies_offset,
			   (RESEED_SECS - 10) * HZ, __ATOMIC_RELAXED);
	crypto_rng_get_bytes(tfm, a, 16);
	ok &= kchacha_shim_random_calls == calls;
	__atomic_fetch_add(&kchacha_shim_jiffies_offset, 11 * HZ,
			   __ATOMIC_RELAXED);
	crypto_rng_get_bytes(tfm, a, 16);
	ok &= kchacha_shim_random_calls == calls + 1;
	crypto_rng_get_bytes(tfm, a, 16);
	ok &= kchacha_shim_random_calls == calls + 1;
	check(ok, impl->name, "reseeds after 60 s, once");

	/* reseeds on output: 3 MiB from one CPU reseed it 2 or 3 times */
	kchacha_shim_force_cpu = 0;
	crypto_rng_reset(tfm, NULL, 0);
	calls = kchacha_shim_random_calls;
	for (int i = 0; i < 3 * RESEED_BYTES / 4096; i++)
		crypto_rng_get_bytes(tfm, big, 4096);
	calls = kchacha_shim_random_calls - calls;
	check(calls >= 2 && calls <= 3, impl->name,
	      "reseeds after 1 MiB of output (one-time keys)");
	crypto_rng_reset(tfm, NULL, 0);
	calls = kchacha_shim_random_calls;
	for (int i = 0; i < 3 * RESEED_BYTES / 64; i++)
		crypto_rng_get_bytes(tfm, big, 64);
	calls = kchacha_shim_random_calls - calls;
	check(calls >= 2 && calls <= 3, impl->name,
	      "reseeds after 1 MiB of output (buffered)");
	kchacha_shim_force_cpu = -1;

	crypto_free_rng(tfm);
}

static int cmp16(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

#include "test/unit/rng_reseed.h"
#include "test/unit/rng_race.h"

/* ---- threads ---- */

#define THREADS		4
#define PER_THREAD	40000

struct thread_arg {
	struct crypto_rng *tfm;
	uint8_t (*out)[16];
	unsigned int n;
	int err;
};

static void *thread_main(void *p)
{
	struct thread_arg *t = p;
	uint8_t big[1200];

	for (unsigned int i = 0; i < PER_THREAD;) {
		if (i % 101 == 100) {
			/* a one-time-key request, cut into 16-byte outputs */
			t->err |= crypto_rng_get_bytes(t->tfm, big, sizeof(big));
			for (unsigned int k = 0; k < sizeof(big) / 16 &&
			     i < PER_THREAD; k++)
				memcpy(t->out[i++], big + 16 * k, 16);
			continue;
		}
		t->err |= crypto_rng_get_bytes(t->tfm, t->out[i++], 16);
	}
	t->n = PER_THREAD;
	return NULL;
}

static void test_threads(const struct kchacha_impl *impl, struct rng_alg *alg,
			 bool one_cpu)
{
	struct crypto_rng *tfm = kchacha_shim_alloc_rng(alg);
	uint8_t (*all)[16] = malloc(THREADS * PER_THREAD * 16);
	struct thread_arg t[THREADS];
	pthread_t th[THREADS];
	bool ok = true;
	int err = 0;

	/* one_cpu: every thread on CPU 0's sub-generator, often busy */
	kchacha_shim_force_cpu = one_cpu ? 0 : -1;
	for (int i = 0; i < THREADS; i++) {
		t[i] = (struct thread_arg){ tfm, all + i * PER_THREAD, 0, 0 };
		pthread_create(&th[i], NULL, thread_main, &t[i]);
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		err |= t[i].err;
	}
	kchacha_shim_force_cpu = -1;
	qsort(all, THREADS * PER_THREAD, 16, cmp16);
	for (size_t i = 1; i < THREADS * PER_THREAD; i++)
		if (!memcmp(all[i - 1], all[i], 16))
			ok = false;
	check(!err && ok, impl->name, one_cpu ?
	      "4 threads on one tfm and one CPU's sub-generator: no 16-byte output twice" :
	      "4 threads on one tfm: no 16-byte output twice");
	free(all);
	crypto_free_rng(tfm);
}

/* ---- statistics ---- */

#define STAT_BYTES	(64 << 20)
/* FIPS 140-2 blocks are 20000 bits; rngtest first takes 32 bits */
#define FIPS_BLOCKS	((STAT_BYTES - 4) / 2500)

/*
 * 64 MiB in requests of every path: rngtest's FIPS 140-2 tests, whose
 * false alarm rate on true random data is about 0.08% of blocks (about 22
 * of these 26843 blocks); a bound of 0.25% (67) keeps a false failure out
 * of reach and still catches any real bias, which fails most blocks.
 * Chi-square of the byte counts, 255 degrees of freedom: mean 255,
 * accepted within [161, 377], each tail p < 1e-6 (Wilson-Hilferty).
 */
static void test_stats(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	static const unsigned int sizes[] = {
		16, 1, 7, 32, 64, 100, 511, 512, OUT, BUF, 4096, 70000, 3, 256,
	};
	struct crypto_rng *tfm = kchacha_shim_alloc_rng(alg);
	uint8_t *buf = malloc(STAT_BYTES);
	unsigned long counts[256] = { 0 };
	long ok_blocks = -1, bad_blocks = -1;
	unsigned long dups;
	char cmd[256], line[256], *log;
	double chi = 0;
	size_t off = 0;
	FILE *f;

	for (unsigned int i = 0; off < STAT_BYTES; i++) {
		size_t n = sizes[i % ARRAY_SIZE(sizes)];

		if (n > STAT_BYTES - off)
			n = STAT_BYTES - off;
		crypto_rng_get_bytes(tfm, buf + off, n);
		off += n;
	}
	crypto_free_rng(tfm);

	dups = dup_blocks(buf, STAT_BYTES);
	printf("%s: 16-byte blocks seen twice in 64 MiB: %lu\n", impl->name,
	       dups);
	check(!dups, impl->name,
	      "no 16-byte block (at a multiple of 16) twice in 64 MiB");
	for (size_t i = 0; i < STAT_BYTES; i++)
		counts[buf[i]]++;
	for (int i = 0; i < 256; i++) {
		double d = counts[i] - STAT_BYTES / 256.0;

		chi += d * d / (STAT_BYTES / 256.0);
	}
	printf("%s: byte chi-square over 64 MiB: %.1f (255 df)\n", impl->name,
	       chi);
	check(chi > 161 && chi < 377, impl->name,
	      "byte chi-square within [161, 377]");

	if (system("command -v rngtest >/dev/null 2>&1")) {
		printf("SKIP %s: rngtest FIPS 140-2: rngtest is not installed (apt-get install rng-tools5)\n",
		       impl->name);
		skipped++;
		free(buf);
		return;
	}
	log = strdup("/tmp/kchacha-rngtest-XXXXXX");
	close(mkstemp(log));
	snprintf(cmd, sizeof(cmd), "rngtest -c %d >%s 2>&1", FIPS_BLOCKS, log);
	f = popen(cmd, "w");
	if (f) {
		fwrite(buf, 1, STAT_BYTES, f);
		pclose(f);
	}
	f = fopen(log, "r");
	while (f && fgets(line, sizeof(line), f)) {
		sscanf(line, "rngtest: FIPS 140-2 successes: %ld", &ok_blocks);
		sscanf(line, "rngtest: FIPS 140-2 failures: %ld", &bad_blocks);
	}
	if (f)
		fclose(f);
	unlink(log);
	free(log);
	printf("%s: rngtest FIPS 140-2 over 64 MiB: %ld blocks passed, %ld failed\n",
	       impl->name, ok_blocks, bad_blocks);
	check(ok_blocks + bad_blocks == FIPS_BLOCKS &&
	      bad_blocks <= FIPS_BLOCKS / 400, impl->name,
	      "rngtest FIPS 140-2: failures within 0.25% of blocks");
	free(buf);
}

int main(int argc, char **argv)
{
	/* --quick: the C core only, no statistics (the UBSan build) */
	bool quick = false;
	const struct kchacha_impl *best = NULL;
	uint8_t digest[32];

	(void)ref_xchacha;
	/* --stack-debug: where the reseed model's stack scan finds a secret */
	for (int i = 1; i < argc; i++) {
		quick |= !strcmp(argv[i], "--quick");
		stack_debug |= !strcmp(argv[i], "--stack-debug");
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (unsigned int i = 0; i < sizeof(pattern); i++)
		pattern[i] = i * 13 + 5;
	make_long_script();
	kat_digest(digest);
	printf("model digest of the self-test script: \"");
	for (int i = 0; i < 32; i++)
		printf("\\x%02x%s", digest[i], i == 15 ? "\"\n\t\"" : "");
	printf("\"\n");

	for (unsigned int i = 0; i < (quick ? 1 : kchacha_nimpls); i++) {
		const struct kchacha_impl *impl = &kchacha_impls[i];
		unsigned int before = failed;
		unsigned long simd_calls;
		struct rng_alg *alg;

		if (impl->cpu_ok && !impl->cpu_ok()) {
			printf("SKIP %s: this CPU lacks the instructions it needs\n",
			       impl->name);
			skipped++;
			continue;
		}
		simd_calls = kchacha_shim_simd_calls;
		alg = kchacha_rng_alg_create(impl, 100 + i);
		test_fixed(impl);
		test_mixing(impl);
		test_api(impl, alg);
		test_migrate(impl, alg);
		test_issue27(impl, alg);
		test_race(impl, alg);
		test_threads(impl, alg, false);
		test_threads(impl, alg, true);
		kchacha_rng_alg_destroy(alg);
		/* test/shim/simdcheck.c aborts on a call outside a section */
		if (impl->simd)
			check(kchacha_shim_simd_calls > simd_calls, impl->name,
			      "the rng's SIMD calls reach the shim's section check");
		best = impl;
		printf("%s rng %s\n", failed == before ? "ok  " : "FAIL",
		       impl->name);
	}

	if (best && !quick) {
		struct rng_alg *alg = kchacha_rng_alg_create(best, 0);

		test_stats(best, alg);
		kchacha_rng_alg_destroy(alg);
	}
	check(kchacha_shim_dirty_frees == 0,
	      "all", "every instance and per-CPU state wiped when freed");

	printf("rng: %u passed, %u failed, %u skipped\n", passed, failed,
	       skipped);
	return failed ? 1 : 0;
}
