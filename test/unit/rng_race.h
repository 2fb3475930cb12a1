/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reseeds racing on one instance, included by rng_test.c.  Threads play
 * CPUs 0 and 1 (kchacha_shim_thread_cpu; two threads on CPU 0 play a task
 * and one that preempts it), the epoch advances (VM clone, syscore resume,
 * PM notifier) while they generate, and the interleavings are forced at
 * the shim's interception points, with no hook in rng.c: a request stops
 * inside get_random_bytes(), after its entropy is drawn, or before its
 * n-th local lock, and stays there while the test advances the epoch and
 * runs the other CPUs' requests to their end.  Only one thread runs at a
 * time, so every run of the script takes the same steps.
 *
 * get_random_bytes() is a tagged stream: seed n is a function of n, and
 * the number of epoch advances before it was drawn is its "kernel RNG
 * state".  The script runs once as it is, once more (it must give the
 * same bytes), then once per seed with that seed's bytes changed: which
 * requests' outputs change shows which seeds each output came from.
 *  - fresh: a request that starts after an advance and ends before the
 *    next comes from a seed drawn after that advance;
 *  - every seed but the one a CPU drew for a reseed another CPU had just
 *    made reaches every request that starts after its own ended; that one
 *    reaches none (the race costs one reseed, and no entropy counts twice);
 *  - no 16-byte block of any output twice.
 */

#define RACE_REQS	96
#define RACE_SEEDS	40
#define RACE_NONE	(~0U)

struct race_req {
	unsigned int len, cpu;
	unsigned int bump_start, bump_end;	/* advances before, after */
	unsigned int start, end;		/* steps of the run */
	uint8_t *out;
};

struct race_cpu {
	pthread_t th;
	unsigned int cpu;
	/* under race_mu */
	struct race_req *req;	/* to run; NULL: none */
	bool quit, parked, go, done;
	unsigned int park_random;	/* stop after this get_random_bytes() */
	unsigned int park_lock;		/* stop before this local lock */
	unsigned int randoms, locks;	/* of the request, so far */
	unsigned int last_seed;		/* the seed it drew last */
};

struct race_run {
	struct race_req req[RACE_REQS];
	unsigned int nreq, nseeds;
	unsigned int seed_bump[RACE_SEEDS];	/* advances before it */
	unsigned int seed_req[RACE_SEEDS];	/* the request that drew it */
	unsigned int steps;
	unsigned int loser_seed;	/* drawn for a reseed already made */
	bool forced;
	bool spare_left;	/* a spare not all zeros, no refill having it */
	bool spare_taken;	/* a refill's spare changed by another request */
};

static pthread_mutex_t race_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t race_cv = PTHREAD_COND_INITIALIZER;
static __thread struct race_cpu *race_me;
static struct crypto_rng *race_tfm;
static struct race_run *race_cur;
static unsigned int race_bumps, race_variant = RACE_NONE;

/*
 * The test's wait on race_cv, race_mu held, for one thread to stop or end:
 * at most one request's run (1 MiB and a reseed: well under a second, even
 * under qemu-user beside two busy loops).  The 120 s are a hang guard, no
 * check: no result depends on how long anything took.  The threads' own
 * waits (for a request, for race_go()) have none: they wait on this one.
 */
static void race_wait_cv(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 120;
	if (pthread_cond_timedwait(&race_cv, &race_mu, &ts)) {
		printf("FAIL race: a forced schedule hung (a thread never reached its stop, or never ended)\n");
		exit(1);
	}
}

/* A thread's count of @count reached @at: it stops until race_go(). */
static void race_point(unsigned int *count, unsigned int at)
{
	struct race_cpu *c = race_me;

	pthread_mutex_lock(&race_mu);
	if (++*count == at) {
		c->parked = true;
		pthread_cond_broadcast(&race_cv);
		while (!c->go)
			pthread_cond_wait(&race_cv, &race_mu);
		c->go = false;
		c->parked = false;
	}
	pthread_mutex_unlock(&race_mu);
}

static uint64_t race_mix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* get_random_bytes(): seed n, changed if it is the run's variant. */
static void race_source(void *buf, size_t len)
{
	struct race_run *r = race_cur;
	unsigned int n = __atomic_fetch_add(&r->nseeds, 1, __ATOMIC_RELAXED);
	uint8_t *p = buf;

	for (size_t i = 0; i < len; i++)
		p[i] = race_mix64(((uint64_t)n << 32 | i) ^
				  (n == race_variant ? 0xa5a5 : 0)) >> 56;
	if (n < RACE_SEEDS) {
		r->seed_bump[n] = __atomic_load_n(&race_bumps, __ATOMIC_RELAXED);
		r->seed_req[n] = race_me ? race_me->req - r->req : RACE_NONE;
	}
	if (race_me) {
		race_me->last_seed = n;
		race_point(&race_me->randoms, race_me->park_random);
	}
}

static void race_lock_hook(void)
{
	if (race_me)
		race_point(&race_me->locks, race_me->park_lock);
}

static void *race_worker(void *arg)
{
	struct race_cpu *c = arg;
	struct race_req *q;

	race_me = c;
	kchacha_shim_thread_cpu = c->cpu;
	pthread_mutex_lock(&race_mu);
	for (;;) {
		while (!c->req && !c->quit)
			pthread_cond_wait(&race_cv, &race_mu);
		if (c->quit)
			break;
		q = c->req;
		c->randoms = 0;
		c->locks = 0;
		pthread_mutex_unlock(&race_mu);
		q->bump_start = __atomic_load_n(&race_bumps, __ATOMIC_RELAXED);
		q->start = race_cur->steps++;
		crypto_rng_get_bytes(race_tfm, q->out, q->len);
		q->bump_end = __atomic_load_n(&race_bumps, __ATOMIC_RELAXED);
		pthread_mutex_lock(&race_mu);
		q->end = race_cur->steps++;
		c->req = NULL;
		c->done = true;
		pthread_cond_broadcast(&race_cv);
	}
	pthread_mutex_unlock(&race_mu);
	return NULL;
}

/*
 * A request of @len on @c that stops after its @random-th entropy fetch or
 * before its @lock-th local lock (0: never); false if it ended instead.
 */
static bool race_start(struct race_cpu *c, unsigned int len,
		       unsigned int random, unsigned int lock)
{
	struct race_run *r = race_cur;
	struct race_req *q = &r->req[r->nreq++];
	bool parked;

	if (r->nreq > RACE_REQS)
		abort();
	q->len = len;
	q->cpu = c->cpu;
	q->out = malloc(len);
	pthread_mutex_lock(&race_mu);
	c->park_random = random;
	c->park_lock = lock;
	c->done = false;
	c->req = q;
	pthread_cond_broadcast(&race_cv);
	while (!c->done && !c->parked)
		race_wait_cv();
	parked = c->parked;
	pthread_mutex_unlock(&race_mu);
	if ((random || lock) && !parked) {
		printf("race: a request of %u bytes on CPU %u ended before its stop (entropy fetch %u, local lock %u)\n",
		       len, c->cpu, random, lock);
		r->forced = false;
	}
	return parked;
}

/* Let a stopped request go on, to its end. */
static void race_go(struct race_cpu *c)
{
	pthread_mutex_lock(&race_mu);
	if (c->parked) {
		c->go = true;
		pthread_cond_broadcast(&race_cv);
	}
	while (!c->done)
		race_wait_cv();
	pthread_mutex_unlock(&race_mu);
}

static void race_run1(struct race_cpu *c, unsigned int len)
{
	race_start(c, len, 0, 0);
}

/* The kernel RNG reseeds, then announces it: a clone, a resume. */
static void race_bump(void)
{
	unsigned int k = __atomic_add_fetch(&race_bumps, 1, __ATOMIC_RELAXED);

	race_cur->steps++;

	if (k % 3 == 1)
		kchacha_shim_vmfork_nb->notifier_call(kchacha_shim_vmfork_nb, 0,
						      NULL);
	else if (k % 3 == 2)
		kchacha_shim_syscore->resume();
	else
		kchacha_shim_pm_nb->notifier_call(kchacha_shim_pm_nb,
						  PM_POST_SUSPEND, NULL);
}

/* The script, once, into @r; seed @variant changed (RACE_NONE: none). */
static void race_script(struct rng_alg *alg, struct race_run *r,
			unsigned int variant)
{
	struct race_cpu cpus[3] = { { .cpu = 0 }, { .cpu = 1 }, { .cpu = 0 } };
	struct race_cpu *a = &cpus[0], *b = &cpus[1], *t = &cpus[2];
	unsigned int ncpus = kchacha_shim_ncpus;
	static uint8_t held[BUF];
	const uint8_t *spare;
	bool filling, busy;

	memset(r, 0, sizeof(*r));
	r->forced = true;
	r->loser_seed = RACE_NONE;
	race_cur = r;
	race_variant = variant;
	race_bumps = 0;
	kchacha_shim_ncpus = 2;
	__atomic_store_n(&kchacha_shim_random_source, race_source,
			 __ATOMIC_RELEASE);
	race_tfm = kchacha_shim_alloc_rng(alg);
	__atomic_store_n(&kchacha_shim_local_lock_hook, race_lock_hook,
			 __ATOMIC_RELEASE);
	for (int i = 0; i < 3; i++)
		pthread_create(&cpus[i].th, NULL, race_worker, &cpus[i]);

	race_run1(a, 16);
	race_run1(b, 16);

	/* both CPUs reseed for one advance; another while CPU 0 fetches */
	race_bump();
	race_start(a, 16, 1, 0);
	race_run1(b, 16);
	race_bump();
	race_go(a);
	race_run1(b, 16);
	race_run1(a, 16);

	/* CPU 0 fetches; CPU 1 reseeds first: CPU 0's entropy is not used */
	race_bump();
	if (race_start(a, 16, 1, 0))
		r->loser_seed = a->last_seed;
	race_run1(b, 16);
	race_go(a);
	race_run1(a, 16);
	race_run1(b, 16);

	/* CPU 0 reseeds on the byte bound; an advance and CPU 1's reseed */
	race_start(a, RESEED_BYTES, 1, 0);
	race_bump();
	race_run1(b, 16);
	race_go(a);
	race_run1(b, 16);
	race_run1(a, 16);

	/*
	 * A task on CPU 0 has streamed a refill into the spare under the
	 * CPU key and is about to install it (its third local lock: the
	 * fast path's, the slow path's, the one after the stream); an
	 * advance, and a task preempting it finds the spare taken: it takes
	 * a one-time key of the newer instance key, to its end.  The first
	 * task's refill, of the older key, must not become the buffer; one
	 * of the newer key does.
	 */
	race_bump();
	filling = race_start(a, 16, 0, 3);
	race_bump();
	spare = spare_of(race_tfm, 0, &busy);
	memcpy(held, spare, BUF);
	race_run1(t, 16);
	r->spare_taken = !filling || !busy || memcmp(held, spare, BUF);
	race_go(a);
	r->spare_left |= !spares_clear(race_tfm);
	race_run1(t, 16);
	race_run1(b, 16);
	race_run1(a, 200);
	r->spare_left |= !spares_clear(race_tfm);

	pthread_mutex_lock(&race_mu);
	for (int i = 0; i < 3; i++)
		cpus[i].quit = true;
	pthread_cond_broadcast(&race_cv);
	pthread_mutex_unlock(&race_mu);
	for (int i = 0; i < 3; i++)
		pthread_join(cpus[i].th, NULL);
	__atomic_store_n(&kchacha_shim_local_lock_hook, NULL, __ATOMIC_RELEASE);
	crypto_free_rng(race_tfm);
	__atomic_store_n(&kchacha_shim_random_source, NULL, __ATOMIC_RELEASE);
	kchacha_shim_ncpus = ncpus;
	race_variant = RACE_NONE;
	if (r->nseeds > RACE_SEEDS)
		r->forced = false;
}

static void race_free(struct race_run *r)
{
	for (unsigned int i = 0; i < r->nreq; i++)
		free(r->req[i].out);
}

static bool race_same(const struct race_run *x, const struct race_run *y)
{
	if (x->nreq != y->nreq || x->nseeds != y->nseeds)
		return false;
	for (unsigned int i = 0; i < x->nreq; i++)
		if (x->req[i].len != y->req[i].len ||
		    memcmp(x->req[i].out, y->req[i].out, x->req[i].len))
			return false;
	return true;
}

static void test_race(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	static struct race_run base, again, var;
	/* dep[i][n]: request i's output changes with seed n */
	static bool dep[RACE_REQS][RACE_SEEDS];
	unsigned long stale = 0, unused = 0, blocks = 0, dups = 0;
	uint8_t (*all)[16];
	bool same, forced;

	fixed_begin();
	kchacha_shim_force_cpu = -1;
	kchacha_rng_init_module();
	race_script(alg, &base, RACE_NONE);
	race_script(alg, &again, RACE_NONE);
	same = race_same(&base, &again);
	forced = base.forced && again.forced && base.loser_seed != RACE_NONE;
	race_free(&again);
	memset(dep, 0, sizeof(dep));
	for (unsigned int n = 0; forced && n < base.nseeds; n++) {
		race_script(alg, &var, n);
		forced &= var.forced && var.nreq == base.nreq;
		for (unsigned int i = 0; forced && i < base.nreq; i++)
			dep[i][n] = memcmp(var.req[i].out, base.req[i].out,
					   base.req[i].len);
		race_free(&var);
	}
	kchacha_rng_exit_module();
	fixed_end();

	for (unsigned int i = 0; forced && i < base.nreq; i++) {
		const struct race_req *q = &base.req[i];
		bool fresh = q->bump_start != q->bump_end;

		for (unsigned int n = 0; n < base.nseeds; n++) {
			unsigned int k = base.seed_req[n];
			/* drawn at creation, or by a request ended before */
			bool want = n != base.loser_seed &&
				    (k == RACE_NONE ||
				     base.req[k].end < q->start);

			if (want && !dep[i][n]) {
				printf("race: request %u (%u bytes, CPU %u) does not depend on seed %u\n",
				       i, q->len, q->cpu, n);
				unused++;
			}
			if (n == base.loser_seed && dep[i][n]) {
				printf("race: request %u depends on seed %u, drawn for a reseed already made\n",
				       i, n);
				unused++;
			}
			fresh |= dep[i][n] && base.seed_bump[n] == q->bump_start;
		}
		if (!fresh) {
			printf("race: request %u (%u bytes, CPU %u), after advance %u: from no seed drawn after it\n",
			       i, q->len, q->cpu, q->bump_start);
			stale++;
		}
	}
	for (unsigned int i = 0; i < base.nreq; i++)
		blocks += base.req[i].len / 16;
	all = malloc((blocks + 1) * 16);
	blocks = 0;
	for (unsigned int i = 0; i < base.nreq; i++)
		for (unsigned int k = 0; k + 16 <= base.req[i].len; k += 16)
			memcpy(all[blocks++], base.req[i].out + k, 16);
	qsort(all, blocks, 16, cmp16);
	for (unsigned long k = 1; k < blocks; k++)
		dups += !memcmp(all[k - 1], all[k], 16);
	free(all);
	race_free(&base);
	printf("%s: reseeds racing on 2 CPUs, %u requests, %u seeds, %u advances: forced %s, repeatable %s; from a stale seed: %lu, seed use wrong: %lu, 16-byte blocks twice: %lu\n",
	       impl->name, base.nreq, base.nseeds, race_bumps,
	       forced ? "yes" : "NO", same ? "yes" : "NO", stale, unused,
	       dups);
	check(forced && same, impl->name,
	      "reseeds racing on two CPUs: the schedule is forced and repeats");
	check(forced && !stale, impl->name,
	      "reseeds racing on two CPUs: every request after an advance comes from a seed drawn after it");
	check(forced && !unused, impl->name,
	      "reseeds racing on two CPUs: every seed reaches every later request, but the one drawn for a reseed already made, which reaches none");
	check(!dups, impl->name,
	      "reseeds racing on two CPUs: no 16-byte block twice");
	check(!base.spare_taken, impl->name,
	      "reseeds racing on two CPUs: a request preempting a refill leaves its spare alone");
	check(!base.spare_left, impl->name,
	      "reseeds racing on two CPUs: every spare all zeros once no refill has it");
}
