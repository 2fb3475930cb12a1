/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tests of issue 19, included by rng_test.c: the rng under races and
 * interruptions.  A VM clone is never lost to a request racing with it;
 * no generator (a sub-generator, or the instance's one-time keys) hands
 * out more than the byte bound under one generation, with threads on
 * their own sub-generators, on the instance path (no memory for a batch,
 * or "hard interrupt") and reseeds from all of them at once; a seed()
 * during a refill; the PM notifier reseeds every instance after a
 * resume; the instance path keeps the same bounds as a sub-generator;
 * batches are freed wiped.
 *
 * rng.c's test hook (kchacha_shim_rng_hook) runs at four points:
 * "reseed", under the instance lock just after the generation changed,
 * where rng_gens counts the generations exactly; "refill", at the start of
 * a refill, where a test may run a seed(); "decide", where a request that
 * found the epoch or the time changed is about to ask whether a reseed is
 * due, and "check", where it has just decided, between which a test may
 * run another CPU's request and the vmfork notifier.  Each action runs
 * once: the hook takes it.
 */

static unsigned long rng_gens;
static void (*refill_action)(struct kchacha_rng *rng);
static void (*decide_action)(struct kchacha_rng *rng);
static void (*check_action)(struct kchacha_rng *rng);
static int race_stop;

static void race_hook(struct kchacha_rng *rng, const char *where)
{
	void (**slot)(struct kchacha_rng *rng) = &refill_action;
	void (*action)(struct kchacha_rng *rng);

	if (!strcmp(where, "reseed")) {
		__atomic_fetch_add(&rng_gens, 1, __ATOMIC_RELAXED);
		return;
	}
	if (!strcmp(where, "decide"))
		slot = &decide_action;
	else if (!strcmp(where, "check"))
		slot = &check_action;
	action = __atomic_exchange_n(slot, NULL, __ATOMIC_ACQ_REL);
	if (action)
		action(rng);
}

static unsigned long gens(void)
{
	return __atomic_load_n(&rng_gens, __ATOMIC_RELAXED);
}

/* ---- a VM clone racing with a request's decision (finding 1) ---- */

static struct crypto_rng *race_tfm;
static unsigned long race_c1;
static int race_decided, race_cloned;

static void vmfork_notify(void)
{
	kchacha_shim_vmfork_nb->notifier_call(kchacha_shim_vmfork_nb, 0, NULL);
}

/* "check": the request has decided; the second clone comes now. */
static void vmfork_after_decision(struct kchacha_rng *rng)
{
	race_c1 = reseeds();
	vmfork_notify();
	race_cloned = 1;
}

static void *request_on_cpu1(void *p)
{
	uint8_t x[16];

	kchacha_shim_thread_cpu = 1;
	crypto_rng_get_bytes(race_tfm, x, sizeof(x));
	return NULL;
}

/*
 * "decide": the request saw the first clone and is about to ask whether a
 * reseed is due; another CPU's request reseeds first (for the same clone)
 * and has returned by the time the decision is taken, so it is "not due".
 */
static void reseed_on_cpu1(struct kchacha_rng *rng)
{
	pthread_t t;

	pthread_create(&t, NULL, request_on_cpu1, NULL);
	pthread_join(t, NULL);
	race_decided = 1;
	check_action = vmfork_after_decision;
}

static unsigned int race_ncpus;

/*
 * The two-CPU stage of the race tests: the module's notifiers registered,
 * two CPUs, race_tfm allocated and used once on CPU 0.  False (and a
 * failed check) where there is no vmfork notifier to drive.
 */
static bool race_begin(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	uint8_t x[16];

	if (kchacha_rng_init_module)
		kchacha_rng_init_module();
	if (!kchacha_shim_vmfork_nb) {
		check(false, impl->name, "a vmfork notifier is registered");
		return false;
	}
	race_ncpus = kchacha_shim_ncpus;
	kchacha_shim_ncpus = 2;
	race_tfm = kchacha_shim_alloc_rng(alg);
	kchacha_shim_thread_cpu = 0;
	crypto_rng_get_bytes(race_tfm, x, sizeof(x));
	return true;
}

/* Undo race_begin(). */
static void race_end(void)
{
	kchacha_shim_thread_cpu = -1;
	crypto_free_rng(race_tfm);
	kchacha_shim_ncpus = race_ncpus;
	if (kchacha_rng_exit_module)
		kchacha_rng_exit_module();
}

/*
 * The interleaving of finding 1, forced at rng.c's test points rather than
 * hoped for: a clone makes the next request look; while it looks (between
 * its comparison of the epochs and whatever it does after deciding), a
 * request on CPU 1 reseeds, so the first request decides that nothing is
 * due, and then a second clone comes.  The next of 200 requests from
 * CPUs 0 and 1 must reseed, once.  Twenty rounds; every step happens in
 * the same order every run (the other CPU's request is a thread that is
 * joined), so the result is the same every run.
 */
static void test_vmfork_race(const struct kchacha_impl *impl,
			     struct rng_alg *alg)
{
	enum { ROUNDS = 20, AFTER = 200 };
	unsigned long lost = 0, forced = 0, extra = 0;
	uint8_t x[16];
	int r, k;

	if (!race_begin(impl, alg))
		return;
	for (r = 0; r < ROUNDS; r++) {
		unsigned long c0, n;

		race_decided = race_cloned = 0;
		vmfork_notify();
		c0 = reseeds();
		decide_action = reseed_on_cpu1;
		crypto_rng_get_bytes(race_tfm, x, sizeof(x));
		decide_action = check_action = NULL;
		/* CPU 1 reseeded, the clone came after the decision: forced */
		if (race_decided && race_cloned && race_c1 == c0 + 1 &&
		    reseeds() == race_c1)
			forced++;
		for (k = 0; k < AFTER; k++) {
			kchacha_shim_thread_cpu = k & 1;
			crypto_rng_get_bytes(race_tfm, x, sizeof(x));
		}
		kchacha_shim_thread_cpu = 0;
		n = reseeds() - race_c1;
		lost += n == 0;
		extra += n > 1;
	}
	race_end();
	printf("%s: %d rounds of a VM clone after a request decided nothing was due: %lu forced, %lu not followed by a reseed in %d requests, %lu by more than one\n",
	       impl->name, ROUNDS, forced, lost, AFTER, extra);
	check(forced == ROUNDS && !lost && !extra, impl->name,
	      "a VM clone while a request decides is followed by one reseed, at the next request");
}

/* "check": another CPU's request runs to its end. */
static void request_cpu1_now(struct kchacha_rng *rng)
{
	pthread_t t;

	pthread_create(&t, NULL, request_on_cpu1, NULL);
	pthread_join(t, NULL);
}

/*
 * A clone; a request decides a reseed is due, and before it takes the
 * instance lock another CPU's request reseeds for the same clone: the
 * first then finds nothing due, so the clone costs one reseed, not two.
 */
static void test_reseed_once(const struct kchacha_impl *impl,
			     struct rng_alg *alg)
{
	enum { ROUNDS = 20 };
	unsigned long twice = 0, c0;
	uint8_t x[16];
	int r;

	if (!race_begin(impl, alg))
		return;
	for (r = 0; r < ROUNDS; r++) {
		vmfork_notify();
		c0 = gens();
		check_action = request_cpu1_now;
		crypto_rng_get_bytes(race_tfm, x, sizeof(x));
		check_action = NULL;
		twice += gens() - c0 != 1;
	}
	race_end();
	printf("%s: %d VM clones, each reseeded by another CPU's request after a request decided to: %lu reseeded twice or not at all\n",
	       impl->name, ROUNDS, twice);
	check(!twice, impl->name,
	      "a reseed that another CPU made after a request decided on one is not made again");
}

/* A clone while a reseed fetches its entropy: the next request reseeds. */
static void test_vmfork_in_reseed(const struct kchacha_impl *impl,
				  struct rng_alg *alg)
{
	struct crypto_rng *tfm;
	unsigned long c0, c1;
	uint8_t x[16];

	if (kchacha_rng_init_module)
		kchacha_rng_init_module();
	if (!kchacha_shim_vmfork_nb)
		return;
	tfm = kchacha_shim_alloc_rng(alg);
	crypto_rng_get_bytes(tfm, x, 16);
	kchacha_shim_random_hook = vmfork_notify;
	crypto_rng_reset(tfm, NULL, 0);
	c0 = reseeds();
	crypto_rng_get_bytes(tfm, x, 16);
	c1 = reseeds();
	crypto_rng_get_bytes(tfm, x, 16);
	check(kchacha_shim_random_hook == NULL && c1 == c0 + 1 &&
	      reseeds() == c1, impl->name,
	      "a clone during a reseed makes the next request reseed, once");
	crypto_free_rng(tfm);
	if (kchacha_rng_exit_module)
		kchacha_rng_exit_module();
}

/* ---- bytes per generator and generation, under threads (2, 3) ---- */

#define MAX_GENS	8192

/* generator 0, 1: two threads' own sub-generators; 2: the instance */
static unsigned long gen_bytes[3][MAX_GENS];

struct bound_arg {
	struct crypto_rng *tfm;
	int cpu;
	bool irq;
	int generator;
	unsigned long requests;
	unsigned long counted;	/* requests within one generation */
};

static unsigned long bound_g0;

static void *bound_worker(void *p)
{
	static const unsigned int sizes[] = { 16, 100, 511, 600, 4096, 65536 };
	struct bound_arg *a = p;
	static __thread uint8_t buf[65536];

	kchacha_shim_thread_cpu = a->cpu;
	kchacha_shim_hardirq = a->irq;
	while (!__atomic_load_n(&race_stop, __ATOMIC_ACQUIRE)) {
		unsigned int n = sizes[(a->requests * 7 + a->cpu) %
				       ARRAY_SIZE(sizes)];
		unsigned long g = gens();

		crypto_rng_get_bytes(a->tfm, buf, n);
		a->requests++;
		/* a request during which no reseed happened: generation g */
		if (gens() == g && g - bound_g0 < MAX_GENS) {
			__atomic_fetch_add(&gen_bytes[a->generator][g - bound_g0], n,
					   __ATOMIC_RELAXED);
			a->counted++;
		}
	}
	kchacha_shim_hardirq = false;
	return NULL;
}

/*
 * Two threads on sub-generators of their own, four on the instance path
 * (three on CPUs whose batch cannot be allocated, one in "hard interrupt"
 * context), a seventh seeding now and then, for 64 MiB or so: the most
 * bytes one generator hands out under one generation.
 */
static void test_bound_threads(const struct kchacha_impl *impl,
			       struct rng_alg *alg)
{
	enum { N = 6 };
	unsigned int ncpus = kchacha_shim_ncpus;
	unsigned long most[3] = { 0 }, total = 0, g0;
	struct bound_arg a[N];
	pthread_t th[N];
	struct crypto_rng *tfm;
	uint8_t x[16];
	char what[200];
	int i, k;

	memset(gen_bytes, 0, sizeof(gen_bytes));
	kchacha_shim_ncpus = 8;
	tfm = kchacha_shim_alloc_rng(alg);
	/* CPUs 0 and 1 get their batch; then no memory for any other */
	for (i = 0; i < 2; i++) {
		kchacha_shim_thread_cpu = i;
		crypto_rng_get_bytes(tfm, x, 16);
	}
	kchacha_shim_thread_cpu = -1;
	kchacha_shim_kmalloc_fail = true;
	race_stop = 0;
	g0 = gens();
	bound_g0 = g0;
	for (i = 0; i < N; i++) {
		a[i] = (struct bound_arg){
			.tfm = tfm, .cpu = i, .irq = i == 5,
			.generator = i < 2 ? i : 2,
		};
		pthread_create(&th[i], NULL, bound_worker, &a[i]);
	}
	for (k = 0; k < 2000 && gens() - g0 < 120; k++) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
		if (k % 50 == 49)
			crypto_rng_reset(tfm, NULL, 0);
	}
	__atomic_store_n(&race_stop, 1, __ATOMIC_RELEASE);
	for (i = 0; i < N; i++)
		pthread_join(th[i], NULL);
	kchacha_shim_kmalloc_fail = false;
	crypto_free_rng(tfm);
	kchacha_shim_ncpus = ncpus;

	for (k = 0; k < 3; k++)
		for (i = 0; i < MAX_GENS; i++) {
			most[k] = gen_bytes[k][i] > most[k] ?
				  gen_bytes[k][i] : most[k];
			total += gen_bytes[k][i];
		}
	printf("%s: 6 threads, %lu generations, %lu MiB counted: most under one generation: sub-generators %lu, %lu; instance %lu (bound %d)\n",
	       impl->name, gens() - g0, total >> 20, most[0], most[1], most[2],
	       RESEED_BYTES);
	snprintf(what, sizeof(what),
		 "threads on their own sub-generators and on the instance path (no memory, hard interrupt): no generator passes %d bytes under one generation",
		 RESEED_BYTES);
	check(most[0] <= RESEED_BYTES && most[1] <= RESEED_BYTES &&
	      most[2] <= RESEED_BYTES && gens() - g0 >= 20 &&
	      (most[0] || most[1]) && most[2], impl->name, what);
}

/*
 * The first use of a CPU allocates its batch; a seed() during that
 * allocation must not give the sub-generator a second byte bound: a
 * 1 MiB request, then 4 KiB ones until the instance reseeds.
 */
static struct crypto_rng *alloc_tfm;

static void seed_alloc_tfm(void)
{
	crypto_rng_reset(alloc_tfm, NULL, 0);
}

static void test_alloc_seed(const struct kchacha_impl *impl,
			    struct rng_alg *alg)
{
	unsigned long c, since = RESEED_BYTES;
	uint8_t *buf = malloc(RESEED_BYTES);

	alloc_tfm = kchacha_shim_alloc_rng(alg);
	kchacha_shim_force_cpu = 1;
	kchacha_shim_kmalloc_hook = seed_alloc_tfm;
	crypto_rng_get_bytes(alloc_tfm, buf, RESEED_BYTES);
	c = reseeds();
	while (reseeds() == c && since < 4 * RESEED_BYTES) {
		crypto_rng_get_bytes(alloc_tfm, buf, 4096);
		if (reseeds() == c)
			since += 4096;
	}
	kchacha_shim_force_cpu = -1;
	printf("%s: a seed() during a batch's allocation: %lu bytes before the next reseed\n",
	       impl->name, since);
	check(kchacha_shim_kmalloc_hook == NULL && since <= RESEED_BYTES,
	      impl->name,
	      "a seed() during the first allocation does not lift the byte bound");
	crypto_free_rng(alloc_tfm);
	free(buf);
}

/* ---- a seed() during a refill (issue 22, item 9) ---- */

static void seed_fixed(struct kchacha_rng *rng)
{
	kchacha_rng_seed(rng, pattern, pending_seed);
}

/*
 * A deterministic instance whose refills now and then start with a seed()
 * (of 0..40 bytes), against the model: the rest of the request comes from
 * the new key, and is charged to it.
 */
static void test_refill_seed(const struct kchacha_impl *impl)
{
	struct kchacha_rng *rng = kchacha_rng_alloc(impl, true);
	uint8_t out[3000], ref[3000];
	unsigned int fired = 0;
	struct model m;
	bool ok = true;

	model_init(&m, NULL);
	for (unsigned int i = 0; i < 1600; i++) {
		unsigned int len = i % 4 ? 1 + prng() % 511 : 1 + prng() % 3000;

		/* now and then; the model consumes pending_seed at its refill */
		if (i % 5 == 0) {
			pending_seed = prng() % 41;
			refill_action = seed_fixed;
		}
		kchacha_rng_generate(rng, NULL, 0, out, len);
		fired += i % 5 == 0 && !refill_action;
		if (refill_action) {
			/* no refill in this request: none in the model */
			refill_action = NULL;
			pending_seed = -1;
		}
		model_generate(&m, NULL, 0, ref, len);
		ok &= !memcmp(out, ref, len);
	}
	pending_seed = -1;
	kchacha_rng_free(rng);
	printf("%s: seeds run at the start of %u refills\n", impl->name, fired);
	check(ok && fired > 30, impl->name,
	      "a seed() during a refill: the rest of the request comes from the new key (model)");
}

/* ---- resume (finding 7) ---- */

static void test_pm(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	struct crypto_rng *a, *b;
	unsigned long c0, c1, c2;
	uint8_t x[16];
	bool quiet;

	if (kchacha_rng_init_module)
		kchacha_rng_init_module();
	check(kchacha_shim_pm_nb != NULL, impl->name,
	      "a PM notifier is registered");
	if (!kchacha_shim_pm_nb)
		goto out;
	a = kchacha_shim_alloc_rng(alg);
	b = kchacha_shim_alloc_rng(alg);
	crypto_rng_get_bytes(a, x, 16);
	crypto_rng_get_bytes(b, x, 16);
	c0 = reseeds();
	kchacha_shim_pm_nb->notifier_call(kchacha_shim_pm_nb,
					  PM_SUSPEND_PREPARE, NULL);
	crypto_rng_get_bytes(a, x, 16);
	quiet = reseeds() == c0;
	kchacha_shim_pm_nb->notifier_call(kchacha_shim_pm_nb, PM_POST_SUSPEND,
					  NULL);
	crypto_rng_get_bytes(a, x, 16);
	c1 = reseeds();
	crypto_rng_get_bytes(b, x, 16);
	c2 = reseeds();
	crypto_rng_get_bytes(a, x, 16);
	kchacha_shim_pm_nb->notifier_call(kchacha_shim_pm_nb,
					  PM_POST_HIBERNATION, NULL);
	crypto_rng_get_bytes(b, x, 16);
	printf("%s: resume: reseeds of two instances at their next request: %lu, %lu; after a hibernation: %lu\n",
	       impl->name, c1 - c0, c2 - c1, reseeds() - c2);
	check(quiet && c1 == c0 + 1 && c2 == c1 + 1 && reseeds() == c2 + 1,
	      impl->name,
	      "after a resume from suspend or hibernation every instance reseeds at its next request, once");
	crypto_free_rng(a);
	crypto_free_rng(b);
out:
	if (kchacha_rng_exit_module)
		kchacha_rng_exit_module();
	check(kchacha_shim_pm_nb == NULL, impl->name,
	      "the PM notifier is unregistered at module exit");
}

/* ---- the instance path keeps the bounds (issue 22, items 4, 5) ---- */

static void test_instance_path(const struct kchacha_impl *impl,
			       struct rng_alg *alg)
{
	static const size_t sizes[] = { 16, BATCH, RESEED_BYTES };
	struct crypto_rng *tfm = kchacha_shim_alloc_rng(alg);
	uint8_t *buf = malloc(RESEED_BYTES);
	unsigned long lo, hi, simd = kchacha_shim_simd_irqs_off;
	long slab = kchacha_shim_slab_bytes;
	char what[160];

	static const char *const modes[] = {
		"no memory for a batch", "hard interrupt", "interrupts off",
	};

	for (int mode = 0; mode < 3; mode++) {
		/*
		 * CPU 6's sub-generator never gets a batch; or "hard irq"; or
		 * the caller holds an irqsave lock, outside hard interrupt
		 * context: no sub-generator's lock may be taken then
		 */
		kchacha_shim_force_cpu = 6;
		kchacha_shim_kmalloc_fail = mode == 0;
		kchacha_shim_hardirq = mode == 1;
		kchacha_shim_irqs_off += mode == 2;
		for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
			measure_bytes(tfm, sizes[i], buf, &lo, &hi);
			printf("%s: %s, %zu-byte requests: reseed every %lu..%lu bytes\n",
			       impl->name, modes[mode], sizes[i], lo, hi);
			snprintf(what, sizeof(what),
				 "%s: %zu-byte requests reseed within 1 MiB of output (and not %zu bytes earlier)",
				 modes[mode], sizes[i], sizes[i]);
			check(hi <= RESEED_BYTES &&
			      lo + sizes[i] > RESEED_BYTES, impl->name, what);
		}
		kchacha_shim_irqs_off -= mode == 2;
		kchacha_shim_hardirq = false;
		kchacha_shim_kmalloc_fail = false;
	}
	kchacha_shim_force_cpu = -1;
	check(kchacha_shim_slab_bytes == slab &&
	      kchacha_shim_simd_irqs_off == simd, impl->name,
	      "the instance path allocates nothing and runs no SIMD in hard interrupt context or with interrupts off");
	crypto_free_rng(tfm);
	free(buf);
}

/* ---- batches freed wiped (issue 22, item 6) ---- */

static void test_wipe(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	unsigned int ncpus = kchacha_shim_ncpus;
	unsigned long plain = kchacha_shim_plain_dirty_frees;
	unsigned long dirty = kchacha_shim_dirty_frees;
	long slab = kchacha_shim_slab_bytes;
	struct crypto_rng *tfm;
	uint8_t x[100];

	kchacha_shim_ncpus = 8;
	tfm = kchacha_shim_alloc_rng(alg);
	for (int cpu = 0; cpu < 8; cpu++) {
		kchacha_shim_force_cpu = cpu;
		crypto_rng_get_bytes(tfm, x, 1 + cpu * 11);
	}
	kchacha_shim_force_cpu = -1;
	check(kchacha_shim_slab_bytes - slab == 8 * BATCH, impl->name,
	      "8 CPUs, 8 batches, each partly used");
	crypto_free_rng(tfm);
	kchacha_shim_ncpus = ncpus;
	check(kchacha_shim_plain_dirty_frees == plain &&
	      kchacha_shim_dirty_frees == dirty &&
	      kchacha_shim_slab_bytes == slab, impl->name,
	      "an instance's batches are wiped when freed (kfree_sensitive), its context too");
}

static void test_issue19(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	kchacha_shim_rng_hook = race_hook;
	test_vmfork_race(impl, alg);
	test_reseed_once(impl, alg);
	test_vmfork_in_reseed(impl, alg);
	test_bound_threads(impl, alg);
	test_alloc_seed(impl, alg);
	test_refill_seed(impl);
	test_pm(impl, alg);
	test_instance_path(impl, alg);
	test_wipe(impl, alg);
	kchacha_shim_rng_hook = NULL;
}
