/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tests of issue 14, included by rng_test.c: the rng reseeds on a VM clone
 * (vmfork notifier) and as soon as the kernel RNG becomes ready; its
 * measured reseed interval, in bytes and in time, for small, batch-sized
 * and 1 MiB requests, keeps the documented bounds; an instance pins
 * memory only for the CPUs that use it, within the documented bound; a
 * long request reschedules between bounded pieces of work when its caller
 * may sleep, and never when it may not; no SIMD section runs with
 * "interrupts off" (an irqsave lock held).
 */

/* The documented bounds (doc/rng.md, "Reseed rules"; rng.c). */
#define PIN_SLOTS	8		/* sub-generators per instance, at most */
#define PIN_SLOT_BYTES	BATCH		/* one sub-generator's batch */
#define CTX_BYTES	1024		/* an instance's context, at most */
#define RESCHED_BYTES	65536		/* most work between cond_resched() */

/* Present once rng.c registers the vmfork notifier (module init). */
#pragma weak kchacha_rng_init_module
#pragma weak kchacha_rng_exit_module

static unsigned long reseeds(void)
{
	return __atomic_load_n(&kchacha_shim_random_calls, __ATOMIC_RELAXED);
}

static void test_vmfork(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	struct crypto_rng *a, *b;
	unsigned long c0, c1, c2;
	uint8_t x[16];
	bool ok;

	if (kchacha_rng_init_module)
		kchacha_rng_init_module();
	a = kchacha_shim_alloc_rng(alg);
	b = kchacha_shim_alloc_rng(alg);
	crypto_rng_get_bytes(a, x, 16);
	crypto_rng_get_bytes(b, x, 16);
	check(kchacha_shim_vmfork_nb != NULL, impl->name,
	      "a vmfork notifier is registered");
	if (!kchacha_shim_vmfork_nb)
		goto out;
	c0 = reseeds();
	crypto_rng_get_bytes(a, x, 16);
	ok = reseeds() == c0;
	kchacha_shim_vmfork_nb->notifier_call(kchacha_shim_vmfork_nb, 0, NULL);
	crypto_rng_get_bytes(a, x, 16);
	c1 = reseeds();
	crypto_rng_get_bytes(b, x, 16);
	c2 = reseeds();
	crypto_rng_get_bytes(a, x, 16);
	crypto_rng_get_bytes(b, x, 16);
	printf("%s: vmfork: reseeds of two instances on their next request: %lu, %lu; after: %lu\n",
	       impl->name, c1 - c0, c2 - c1, reseeds() - c2);
	check(ok && c1 == c0 + 1 && c2 == c1 + 1 && reseeds() == c2,
	      impl->name,
	      "a VM clone reseeds every instance at its next request, once");
out:
	crypto_free_rng(a);
	crypto_free_rng(b);
	if (kchacha_rng_exit_module)
		kchacha_rng_exit_module();
	check(kchacha_shim_vmfork_nb == NULL, impl->name,
	      "the vmfork notifier is unregistered at module exit");
}

static void test_early(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	struct crypto_rng *tfm;
	unsigned long c0, c1;
	uint8_t x[16];

	__atomic_store_n(&kchacha_shim_rng_ready, false, __ATOMIC_RELAXED);
	tfm = kchacha_shim_alloc_rng(alg);
	crypto_rng_get_bytes(tfm, x, 16);
	__atomic_store_n(&kchacha_shim_rng_ready, true, __ATOMIC_RELAXED);
	c0 = reseeds();
	crypto_rng_get_bytes(tfm, x, 16);
	c1 = reseeds();
	crypto_rng_get_bytes(tfm, x, 16);
	crypto_rng_get_bytes(tfm, x, 16);
	printf("%s: created before the kernel RNG was ready: reseeds at the first request after: %lu, then %lu\n",
	       impl->name, c1 - c0, reseeds() - c1);
	check(c1 == c0 + 1 && reseeds() == c1, impl->name,
	      "an instance created before the kernel RNG is ready reseeds at its first request after, once");
	crypto_free_rng(tfm);
}

/*
 * Bytes between reseeds with requests of @size on one CPU: the largest and
 * smallest of three intervals.  A reseed is seen at the request during
 * which the shim's get_random_bytes() runs; the interval is what the
 * instance handed out since the previous one, before that request.
 */
static void measure_bytes(struct crypto_rng *tfm, size_t size, uint8_t *buf,
			  unsigned long *lo, unsigned long *hi)
{
	unsigned long since = 0, c;
	int n = -1;

	crypto_rng_reset(tfm, NULL, 0);
	*lo = ~0UL;
	*hi = 0;
	while (n < 3 && since < 16 * RESEED_BYTES) {
		c = reseeds();
		crypto_rng_get_bytes(tfm, buf, size);
		if (reseeds() != c) {
			if (n >= 0) {
				*lo = since < *lo ? since : *lo;
				*hi = since > *hi ? since : *hi;
			}
			n++;
			since = 0;
		}
		since += size;
	}
	if (n < 3)
		*hi = since;
}

/*
 * Ticks after a reseed at which requests of @size reseed: 59 s at once,
 * then steps of 20 ms, a request at each.  The real tick stands still
 * meanwhile, so the figure is exact however slowly the requests run (an
 * emulator on a loaded machine).
 */
static unsigned long measure_time(struct crypto_rng *tfm, size_t size,
				  uint8_t *buf, bool *early)
{
	unsigned long start, c, step = HZ / 50;

	__atomic_store_n(&kchacha_shim_jiffies_frozen, true, __ATOMIC_RELAXED);
	crypto_rng_reset(tfm, NULL, 0);
	start = __atomic_load_n(&kchacha_shim_jiffies_offset, __ATOMIC_RELAXED);
	__atomic_fetch_add(&kchacha_shim_jiffies_offset,
			   (RESEED_SECS - 1) * HZ, __ATOMIC_RELAXED);
	c = reseeds();
	crypto_rng_get_bytes(tfm, buf, size);
	*early = reseeds() != c;
	for (;;) {
		__atomic_fetch_add(&kchacha_shim_jiffies_offset, step,
				   __ATOMIC_RELAXED);
		c = reseeds();
		crypto_rng_get_bytes(tfm, buf, size);
		if (reseeds() != c || kchacha_shim_jiffies_offset - start >
		    2 * RESEED_SECS * HZ)
			break;
	}
	__atomic_store_n(&kchacha_shim_jiffies_frozen, false, __ATOMIC_RELAXED);
	return kchacha_shim_jiffies_offset - start;
}

static void test_interval(const struct kchacha_impl *impl,
			  struct rng_alg *alg)
{
	static const size_t sizes[] = { 16, BATCH, RESEED_BYTES };
	struct crypto_rng *tfm = kchacha_shim_alloc_rng(alg);
	uint8_t *buf = malloc(RESEED_BYTES);
	unsigned long lo, hi, t;
	char what[160];
	bool early;

	kchacha_shim_force_cpu = 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t size = sizes[i];

		measure_bytes(tfm, size, buf, &lo, &hi);
		t = measure_time(tfm, size, buf, &early);
		printf("%s: %zu-byte requests: reseed every %lu..%lu bytes, after %lu.%02lu s\n",
		       impl->name, size, lo, hi, t / HZ, t % HZ * 100 / HZ);
		snprintf(what, sizeof(what),
			 "%zu-byte requests reseed within 1 MiB of output (and not %zu bytes earlier)",
			 size, size);
		check(hi <= RESEED_BYTES && lo + size > RESEED_BYTES,
		      impl->name, what);
		snprintf(what, sizeof(what),
			 "%zu-byte requests reseed 60 s after the last reseed (within 20 ms), not before%s",
			 size, size < RESEED_BYTES ? "" : " (or earlier, on bytes)");
		check(t <= RESEED_SECS * HZ + HZ / 50 &&
		      (size >= RESEED_BYTES ||
		       (!early && t > RESEED_SECS * HZ)), impl->name, what);
	}
	kchacha_shim_force_cpu = -1;
	crypto_free_rng(tfm);
	free(buf);
}

/* Bytes the shim's kmalloc holds now. */
static long live_bytes(void)
{
	return __atomic_load_n(&kchacha_shim_slab_bytes, __ATOMIC_RELAXED);
}

/* An instance on a machine of 256 possible CPUs. */
static void test_memory(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	unsigned int ncpus = kchacha_shim_ncpus;
	long base, created, one, all;
	struct crypto_rng *tfm;
	uint8_t x[1000];

	kchacha_shim_ncpus = 256;
	base = live_bytes();
	tfm = kchacha_shim_alloc_rng(alg);
	created = live_bytes() - base;
	kchacha_shim_force_cpu = 3;
	crypto_rng_get_bytes(tfm, x, 16);
	one = live_bytes() - base;
	for (int cpu = 0; cpu < 256; cpu++) {
		kchacha_shim_force_cpu = cpu;
		crypto_rng_get_bytes(tfm, x, 16);
		crypto_rng_get_bytes(tfm, x, 1000);
	}
	kchacha_shim_force_cpu = -1;
	all = live_bytes() - base;
	crypto_free_rng(tfm);
	kchacha_shim_ncpus = ncpus;
	printf("%s: 256 possible CPUs: context %u bytes; allocated at creation %ld, after use on 1 CPU %ld, on 256 CPUs %ld (bound %d)\n",
	       impl->name, alg->base.cra_ctxsize, created, one, all,
	       PIN_SLOTS * PIN_SLOT_BYTES);
	check(created == 0 && alg->base.cra_ctxsize <= CTX_BYTES, impl->name,
	      "a new instance allocates no batch, its context is at most 1 KiB");
	check(one == PIN_SLOT_BYTES, impl->name,
	      "the first request on a CPU allocates one batch");
	check(all <= PIN_SLOTS * PIN_SLOT_BYTES, impl->name,
	      "an instance used on 256 CPUs pins at most the documented bound");
	check(live_bytes() == base, impl->name, "everything freed");

	/* no memory for a batch: served from one-time keys of the instance */
	tfm = kchacha_shim_alloc_rng(alg);
	kchacha_shim_kmalloc_fail = true;
	crypto_rng_get_bytes(tfm, x, 16);
	crypto_rng_get_bytes(tfm, x + 16, 16);
	crypto_rng_get_bytes(tfm, x + 32, 900);
	kchacha_shim_kmalloc_fail = false;
	check(live_bytes() == base && memcmp(x, x + 16, 16) &&
	      memcmp(x, x + 32, 16) && memcmp(x + 16, x + 48, 16), impl->name,
	      "with no memory for a batch, requests are served all the same");
	crypto_free_rng(tfm);
}

static void test_long(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	size_t len = 4 << 20;
	struct crypto_rng *tfm = kchacha_shim_alloc_rng(alg);
	uint8_t *a = malloc(len), *b = malloc(len);
	unsigned long r, rcu, locks, bad = kchacha_shim_bad_resched;

	crypto_rng_get_bytes(tfm, a, 16);
	kchacha_shim_resched = 0;
	kchacha_shim_locks = 0;
	crypto_rng_get_bytes(tfm, a, len);
	r = kchacha_shim_resched;
	locks = kchacha_shim_locks;
	kchacha_shim_preemptible = false;
	kchacha_shim_resched = 0;
	crypto_rng_generate(tfm, pattern, 40, b, len);
	kchacha_shim_preemptible = true;
	/* preemptible, but inside rcu_read_lock() (PREEMPT_RCU) */
	rcu = kchacha_shim_resched;
	kchacha_shim_rcu_depth = 1;
	crypto_rng_get_bytes(tfm, a, len);
	kchacha_shim_rcu_depth = 0;
	rcu = kchacha_shim_resched - rcu;
	printf("%s: a 4 MiB request: %lu cond_resched(), %lu locks taken; where it may not sleep: %lu cond_resched(), in an RCU read-side section %lu\n",
	       impl->name, r, locks, kchacha_shim_resched - rcu, rcu);
	check(r >= len / RESCHED_BYTES - 1 && kchacha_shim_bad_resched == bad,
	      impl->name,
	      "a 4 MiB request reschedules at least every 64 KiB, only where it may");
	check(locks <= 5 * (len >> 20) + 2, impl->name,
	      "a 4 MiB request takes at most 5 locks per MiB (a key, a reseed, a rekey)");
	check(kchacha_shim_resched == rcu && memcmp(a, b, len) &&
	      memcmp(b, b + len / 2, 4096), impl->name,
	      "a caller that may not sleep is served without cond_resched()");
	check(rcu == 0, impl->name,
	      "a caller in an RCU read-side section is served without cond_resched()");
	crypto_free_rng(tfm);
	free(a);
	free(b);
}

/* No SIMD section starts with an irqsave lock held. */
static void test_irqs_off(const struct kchacha_impl *impl,
			  struct rng_alg *alg)
{
	struct crypto_rng *tfm = kchacha_shim_alloc_rng(alg);
	unsigned long before = kchacha_shim_simd_irqs_off;
	static uint8_t buf[200000];

	kchacha_shim_force_cpu = 0;
	for (unsigned int i = 0; i < 40; i++) {
		crypto_rng_reset(tfm, pattern, i * 25);
		crypto_rng_get_bytes(tfm, buf, 16);
		crypto_rng_generate(tfm, pattern, i * 7, buf, 600);
		crypto_rng_get_bytes(tfm, buf, 100000 + i);
		crypto_rng_get_bytes(tfm, buf, 300);
	}
	for (unsigned int i = 0; i < 2 * RESEED_BYTES / 256; i++)
		crypto_rng_get_bytes(tfm, buf, 256);
	kchacha_shim_force_cpu = -1;
	crypto_free_rng(tfm);
	printf("%s: SIMD sections begun under an irqsave lock: %lu\n",
	       impl->name, kchacha_shim_simd_irqs_off - before);
	check(kchacha_shim_simd_irqs_off == before, impl->name,
	      "no SIMD section with interrupts off (HChaCha, key derivation under locks use the C core)");
}

static void test_issue14(const struct kchacha_impl *impl,
			 struct rng_alg *alg)
{
	test_vmfork(impl, alg);
	test_early(impl, alg);
	test_interval(impl, alg);
	test_memory(impl, alg);
	test_long(impl, alg);
	test_irqs_off(impl, alg);
}
