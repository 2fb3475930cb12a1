/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reseed rules and the rest of issues 14, 19 and 27, included by
 * rng_test.c: a VM clone, a resume (syscore hook, PM notifier) and a late
 * kernel RNG reseed every instance; the reseed intervals in bytes and time
 * keep the documented bounds, on 64-bit jiffies; the epoch is ordered; two
 * resumes of one image differ; an instance's memory does not grow with
 * the possible CPUs (their states are every instance's, on cache lines of
 * their own, made with the first instance); long requests reschedule only
 * where they may, and are bounded where they may not; nothing SIMD and no
 * reseed with interrupts off; nothing secret left on the stack.
 */

/* The documented bounds (doc/rng.md, "Memory", "Bounds"; rng.c). */
#define PCPU_BYTES	2112		/* one CPU's state, at most */
#define CTX_BYTES	128		/* an instance's context, at most */
#define RESCHED_BYTES	65536		/* most work between cond_resched() */
#define SECTION_BYTES	4096		/* most bytes of one SIMD call */
#define BATCH		BUF

/* <sys/wait.h> would pull arm64's <asm/sigcontext.h> onto the shim */
extern pid_t waitpid(pid_t pid, int *status, int options);

static unsigned long reseeds(void)
{
	return __atomic_load_n(&kchacha_shim_random_calls, __ATOMIC_RELAXED);
}

/* Present once rng.c registers the vmfork notifier (module init). */
#pragma weak kchacha_rng_init_module
#pragma weak kchacha_rng_exit_module


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
 * then steps of 20 ms, a request at each.  Jiffies are virtual (only the
 * test moves them), so the figure is exact however slowly the requests
 * run (an emulator on a loaded machine).
 */
static unsigned long measure_time(struct crypto_rng *tfm, size_t size,
				  uint8_t *buf, bool *early)
{
	unsigned long start, c, step = HZ / 50;

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

static void test_long(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	size_t len = 4 << 20;
	struct crypto_rng *tfm = kchacha_shim_alloc_rng(alg);
	uint8_t *a = malloc(len), *b = malloc(len);
	unsigned long r, rcu, locks, nlocks, sections;
	unsigned long bad = kchacha_shim_bad_resched;
	unsigned int longest;

	crypto_rng_get_bytes(tfm, a, 16);
	kchacha_shim_resched = 0;
	kchacha_shim_locks = 0;
	crypto_rng_get_bytes(tfm, a, len);
	r = kchacha_shim_resched;
	locks = kchacha_shim_locks;
	/* where it may not sleep: bounded pieces, sections, lock holds */
	kchacha_shim_preemptible = false;
	kchacha_shim_resched = 0;
	kchacha_shim_locks = 0;
	kchacha_shim_simd_longest = 0;
	sections = kchacha_shim_simd_sections;
	crypto_rng_generate(tfm, pattern, 40, b, len);
	sections = kchacha_shim_simd_sections - sections;
	longest = kchacha_shim_simd_longest;
	nlocks = kchacha_shim_locks;
	kchacha_shim_preemptible = true;
	/* preemptible, but inside rcu_read_lock() (PREEMPT_RCU) */
	rcu = kchacha_shim_resched;
	kchacha_shim_rcu_depth = 1;
	crypto_rng_get_bytes(tfm, a, len);
	kchacha_shim_rcu_depth = 0;
	rcu = kchacha_shim_resched - rcu;
	printf("%s: a 4 MiB request: %lu cond_resched(), %lu locks taken; where it may not sleep: %lu cond_resched(), %lu locks, %lu SIMD sections of at most %u bytes; in an RCU read-side section %lu\n",
	       impl->name, r, locks, kchacha_shim_resched - rcu, nlocks,
	       sections, longest, rcu);
	check(r >= len / RESCHED_BYTES - 1 && kchacha_shim_bad_resched == bad,
	      impl->name,
	      "a 4 MiB request reschedules at least every 64 KiB, only where it may");
	/* the request's first lock, one a piece, refills, two a reseed (4) */
	check(locks <= 2 * (len / RESCHED_BYTES) + 1 + 2 * 4 + 2, impl->name,
	      "a 4 MiB request takes at most two locks per 64 KiB piece (a key, a refill), and a few for reseeds");
	check(kchacha_shim_resched == rcu && memcmp(a, b, len) &&
	      memcmp(b, b + len / 2, 4096), impl->name,
	      "a caller that may not sleep is served without cond_resched()");
	check(nlocks >= len / RESCHED_BYTES &&
	      nlocks <= 2 * (len / RESCHED_BYTES) + 1 + 3 * 4 + 2 &&
	      longest <= SECTION_BYTES &&
	      (!impl->simd || sections >= len / SECTION_BYTES), impl->name,
	      "where it may not sleep, a 4 MiB request goes in pieces of at most 64 KiB under a lock each, SIMD sections of at most 4 KiB");
	check(rcu == 0, impl->name,
	      "a caller in an RCU read-side section is served without cond_resched()");
	crypto_free_rng(tfm);
	free(a);
	free(b);
}

/*
 * Memory: an instance is its context.  The CPU states, one per possible
 * CPU on cache lines of their own, are every instance's: made with the
 * first, freed (wiped) with the last, nothing allocated after.  With 2
 * possible CPUs and with 64, a second instance allocates nothing.
 */
static void test_memory(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	static const unsigned int cpus[] = { 2, 64 };
	unsigned int ncpus = kchacha_shim_ncpus;
	long own[2], shared[2], after[2], left[2];
	struct crypto_rng *a, *b;
	uint8_t x[1000];

	for (int k = 0; k < 2; k++) {
		long slab = __atomic_load_n(&kchacha_shim_slab_bytes,
					    __ATOMIC_RELAXED);
		long pcpu = __atomic_load_n(&kchacha_shim_percpu_bytes,
					    __ATOMIC_RELAXED);
		long s1, p1;

		kchacha_shim_ncpus = cpus[k];
		a = kchacha_shim_alloc_rng(alg);
		s1 = __atomic_load_n(&kchacha_shim_slab_bytes,
				     __ATOMIC_RELAXED);
		p1 = __atomic_load_n(&kchacha_shim_percpu_bytes,
				     __ATOMIC_RELAXED);
		shared[k] = (p1 - pcpu) / (long)cpus[k];
		b = kchacha_shim_alloc_rng(alg);
		own[k] = __atomic_load_n(&kchacha_shim_slab_bytes,
					 __ATOMIC_RELAXED) - s1 +
			 __atomic_load_n(&kchacha_shim_percpu_bytes,
					 __ATOMIC_RELAXED) - p1;
		for (int i = 0; i < 1000; i++) {
			crypto_rng_get_bytes(a, x, 1 + i % 1000);
			crypto_rng_get_bytes(b, x, 1 + i * 7 % 1000);
		}
		after[k] = __atomic_load_n(&kchacha_shim_slab_bytes,
					   __ATOMIC_RELAXED) - s1;
		crypto_free_rng(a);
		crypto_free_rng(b);
		left[k] = __atomic_load_n(&kchacha_shim_slab_bytes,
					  __ATOMIC_RELAXED) - slab;
	}
	kchacha_shim_ncpus = ncpus;
	printf("%s: an instance: context %u bytes, %ld more with 2 possible CPUs, %ld with 64; the CPU states: %ld bytes per possible CPU, aligned to %zu\n",
	       impl->name, alg->base.cra_ctxsize, own[0], own[1], shared[1],
	       kchacha_shim_percpu_align);
	check(own[0] == 0 && own[1] == 0 &&
	      alg->base.cra_ctxsize <= CTX_BYTES, impl->name,
	      "an instance's memory is its context, whatever the number of possible CPUs");
	check(shared[0] == shared[1] && shared[1] > 0 &&
	      shared[1] % 64 == 0 && shared[1] <= PCPU_BYTES &&
	      kchacha_shim_percpu_align >= 64, impl->name,
	      "one state per possible CPU, of its own cache lines, within the documented bound");
	check(!after[0] && !after[1] && !left[0] && !left[1], impl->name,
	      "the CPU states made with the first instance, freed with the last, nothing allocated after");
}

/*
 * 64-bit reseed times: an instance idle for half the range of a 32-bit
 * jiffies (and the interval) reseeds at its next request.
 */
static void test_jiffies_half(const struct kchacha_impl *impl,
			      struct rng_alg *alg)
{
	struct crypto_rng *tfm = kchacha_shim_alloc_rng(alg);
	unsigned long c;
	uint8_t x[16];
	bool ok;

	crypto_rng_reset(tfm, NULL, 0);
	crypto_rng_get_bytes(tfm, x, 16);
	__atomic_fetch_add(&kchacha_shim_jiffies_offset,
			   (1ULL << 31) + (RESEED_SECS + 1) * HZ,
			   __ATOMIC_RELAXED);
	c = reseeds();
	crypto_rng_get_bytes(tfm, x, 16);
	ok = reseeds() == c + 1;
	crypto_rng_get_bytes(tfm, x, 16);
	ok &= reseeds() == c + 1;
	check(ok, impl->name,
	      "idle for 2^31 jiffies plus the interval: the next request reseeds, once");
	crypto_free_rng(tfm);
}

/*
 * The epoch's ordering: every reseed reads it with acquire before it
 * fetches entropy; every notifier advances it with release.
 */
static void test_order(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	unsigned long u = kchacha_shim_random_unordered, rel;
	struct crypto_rng *tfm;
	uint8_t x[16];

	kchacha_rng_init_module();
	tfm = kchacha_shim_alloc_rng(alg);
	crypto_rng_reset(tfm, pattern, 40);
	rel = kchacha_shim_releases;
	kchacha_shim_vmfork_nb->notifier_call(kchacha_shim_vmfork_nb, 0, NULL);
	kchacha_shim_pm_nb->notifier_call(kchacha_shim_pm_nb, PM_POST_SUSPEND,
					  NULL);
	if (kchacha_shim_syscore)
		kchacha_shim_syscore->resume();
	rel = kchacha_shim_releases - rel;
	crypto_rng_get_bytes(tfm, x, 16);
	crypto_free_rng(tfm);
	kchacha_rng_exit_module();
	printf("%s: reseeds whose entropy was fetched without an acquire of the epoch: %lu; release writes by 3 notifications: %lu\n",
	       impl->name, kchacha_shim_random_unordered - u, rel);
	check(kchacha_shim_random_unordered == u && rel == 3, impl->name,
	      "the epoch: acquire before the entropy, release by the notifiers");
}

/* The syscore resume hook and the PM notifier both reseed every instance. */
static void test_resume(const struct kchacha_impl *impl, struct rng_alg *alg)
{
	struct crypto_rng *a, *b;
	unsigned long c;
	uint8_t x[16];
	bool ok;

	kchacha_rng_init_module();
	check(kchacha_shim_syscore && kchacha_shim_syscore->resume &&
	      kchacha_shim_pm_nb, impl->name,
	      "a syscore resume callback and a PM notifier are registered");
	if (!kchacha_shim_syscore || !kchacha_shim_pm_nb) {
		kchacha_rng_exit_module();
		return;
	}
	a = kchacha_shim_alloc_rng(alg);
	b = kchacha_shim_alloc_rng(alg);
	crypto_rng_get_bytes(a, x, 16);
	crypto_rng_get_bytes(b, x, 16);
	c = reseeds();
	kchacha_shim_syscore->resume();
	crypto_rng_get_bytes(a, x, 16);
	crypto_rng_get_bytes(b, x, 16);
	crypto_rng_get_bytes(a, x, 16);
	ok = reseeds() == c + 2;
	kchacha_shim_pm_nb->notifier_call(kchacha_shim_pm_nb,
					  PM_POST_HIBERNATION, NULL);
	crypto_rng_get_bytes(a, x, 16);
	crypto_rng_get_bytes(b, x, sizeof(x));
	crypto_rng_generate(b, pattern, 3, x, sizeof(x));
	ok &= reseeds() == c + 4;
	check(ok, impl->name,
	      "syscore resume, then the PM notifier: each reseeds every instance once");
	crypto_free_rng(a);
	crypto_free_rng(b);
	kchacha_rng_exit_module();
	check(!kchacha_shim_syscore, impl->name,
	      "the syscore hook is unregistered at module exit");
}

/*
 * Two resumes of one hibernation image: fork() gives two copies of the
 * memory, get_random_bytes() is a fixed stream (the image's CRNG state);
 * each copy runs the syscore resume and then a request, as a task thawed
 * before the PM notifiers would, then the PM notifier and another.  The
 * copies must not hand out the same bytes.
 */
static void test_two_resumes(const struct kchacha_impl *impl,
			     struct rng_alg *alg)
{
	uint8_t out[2][2][64];
	struct crypto_rng *tfm;
	int fd[2][2];
	bool ok = true;

	kchacha_rng_init_module();
	tfm = kchacha_shim_alloc_rng(alg);
	crypto_rng_get_bytes(tfm, out[0][0], 64);
	kchacha_shim_random_fixed = true;
	kchacha_shim_force_cpu = 0;
	for (int k = 0; k < 2; k++) {
		pid_t pid;

		if (pipe(fd[k]))
			abort();
		pid = fork();
		if (!pid) {
			uint8_t o[2][64];

			if (kchacha_shim_syscore)
				kchacha_shim_syscore->resume();
			crypto_rng_get_bytes(tfm, o[0], 64);
			kchacha_shim_pm_nb->notifier_call(kchacha_shim_pm_nb,
							  PM_POST_HIBERNATION,
							  NULL);
			crypto_rng_get_bytes(tfm, o[1], 64);
			if (write(fd[k][1], o, sizeof(o)) != sizeof(o))
				_exit(1);
			_exit(0);
		}
		close(fd[k][1]);
		ok &= read(fd[k][0], out[k], sizeof(out[k])) == sizeof(out[k]);
		close(fd[k][0]);
		waitpid(pid, NULL, 0);
	}
	kchacha_shim_force_cpu = -1;
	kchacha_shim_random_fixed = false;
	check(ok && memcmp(out[0][0], out[1][0], 64) &&
	      memcmp(out[0][1], out[1][1], 64), impl->name,
	      "two resumes of one image: different bytes before the PM notifier and after");
	crypto_free_rng(tfm);
	kchacha_rng_exit_module();
}

/*
 * Nothing SIMD with interrupts off: requests of every path and long seeds
 * from a caller with interrupts off (or in hard interrupt context), and
 * requests that reseed or rekey under the locks.
 */
static void test_irqs_off(const struct kchacha_impl *impl,
			  struct rng_alg *alg)
{
	struct crypto_rng *tfm = kchacha_shim_alloc_rng(alg);
	unsigned long before = kchacha_shim_simd_irqs_off, sections;
	unsigned long random = kchacha_shim_random_irqs_off, calls;
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
	for (unsigned int i = 0; i < 2 * RESEED_BYTES / 16; i++)
		crypto_rng_get_bytes(tfm, buf, 16);
	for (unsigned int i = 0; i < 3; i++)
		crypto_rng_generate(tfm, pattern, 9, buf, sizeof(buf));
	__atomic_fetch_add(&kchacha_shim_jiffies_offset,
			   (RESEED_SECS + 1) * HZ, __ATOMIC_RELAXED);
	calls = reseeds();
	crypto_rng_get_bytes(tfm, buf, 16);
	calls = reseeds() - calls;
	random = kchacha_shim_random_irqs_off - random;
	sections = kchacha_shim_simd_sections;
	kchacha_shim_hardirq = true;
	for (unsigned int i = 0; i < 20; i++) {
		crypto_rng_reset(tfm, pattern, 1000);
		crypto_rng_get_bytes(tfm, buf, 16 + i * 100);
		crypto_rng_generate(tfm, pattern, 600, buf, 70000);
	}
	kchacha_shim_hardirq = false;
	sections = kchacha_shim_simd_sections - sections;
	kchacha_shim_force_cpu = -1;
	crypto_free_rng(tfm);
	printf("%s: SIMD sections begun with interrupts off: %lu under a lock, %lu for a caller with them off; reseeds under a lock: %lu\n",
	       impl->name, kchacha_shim_simd_irqs_off - before, sections,
	       random);
	check(kchacha_shim_simd_irqs_off == before && !sections, impl->name,
	      "no SIMD section with interrupts off (seeds, requests, reseeds, rekeys)");
	check(!random && calls == 1, impl->name,
	      "no reseed under a lock (on the byte bound from the buffer, refills and long requests; time)");
}

/*
 * What the rng leaves on the stack: below a painted stack, requests of
 * every path and a seed, then no 8-byte window of the region may be a key
 * the model retired, a byte handed out, a current key or a buffered byte.
 */
#define PAINT	32768

static bool stack_debug;

static noinline void stack_paint(void)
{
	uint8_t b[PAINT];

	memset(b, 0xa5, sizeof(b));
	__asm__ volatile("" : : "r"(b) : "memory");
}

static noinline void stack_call(struct crypto_rng *rng,
						 unsigned int op,
						 uint8_t *out, unsigned int len)
{
	if (op == SEED)
		kchacha_rng_seed(rng, pattern, len);
	else
		kchacha_rng_generate(rng, op == ADDTL ? pattern : NULL,
				     op == ADDTL ? ADDTL_LEN : 0, out, len);
}

static uint8_t stack_copy[PAINT];

/* What the calls left below: read before anything else runs there. */
static noinline void stack_capture(void)
{
	uint8_t b[PAINT];

	__asm__ volatile("" : : "r"(b) : "memory");
	memcpy(stack_copy, b, sizeof(b));
}

static unsigned long stack_scan(const struct model *m)
{
	const uint8_t *b = stack_copy;
	unsigned long found = 0;

	for (size_t i = 0; i + 8 <= PAINT; i++) {
		uint64_t w;

		memcpy(&w, b + i, 8);
		if (!w || w == 0xa5a5a5a5a5a5a5a5ULL)
			continue;
		if (seen_has(w) || !memcmp(b + i, m->key, 8)) {
			if (stack_debug)
				printf("stack %zu: %s\n", i,
				       seen_has(w) ? "seen" : "key");
			found++;
		}
		for (size_t k = m->pos; k + 8 <= BUF; k += 8)
			if (!memcmp(b + i, m->buf + k, 8)) {
				if (stack_debug)
					printf("stack %zu: buf\n", i);
				found++;
			}
	}
	return found;
}

static void test_stack(const struct kchacha_impl *impl)
{
	static const struct step steps[] = {
		{ GEN, 16 }, { GEN, 16 }, { GEN, 300 }, { GEN, 200 },
		{ ADDTL, 40 }, { GEN, 70000 }, { SEED, 40 }, { GEN, 600 },
		{ GEN, 100 }, { GEN, OUT },
	};
	static uint8_t out[70000], ref[70000];
	unsigned long found = 0;
	struct crypto_rng *rng;
	struct model m;

#ifdef __SANITIZE_ADDRESS__
	/*
	 * Not under AddressSanitizer (test/unit/Makefile's SANITIZE): the
	 * frames it lays out, redzones and all, are not the ones the paint
	 * and the copy see; the build without it runs this.
	 */
	return;
#endif
	fixed_begin();
	kchacha_shim_random_fixed_reset();
	seen = calloc(1 << SET_BITS, sizeof(*seen));
	model_init(&m, retire_key);
	rng = kchacha_rng_alloc(impl);
	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		stack_paint();
		stack_call(rng, steps[i].op, out, steps[i].len);
		stack_capture();
		if (steps[i].op == SEED) {
			model_reseed(&m, pattern, steps[i].len);
		} else {
			model_get(&m, steps[i].op == ADDTL ? pattern : NULL,
				  steps[i].op == ADDTL ? ADDTL_LEN : 0, ref,
				  steps[i].len);
			seen_add(ref, steps[i].len);
		}
		found += stack_scan(&m);
	}
	kchacha_rng_free(rng);
	free(seen);
	fixed_end();
	printf("%s: 8-byte windows of keys or output left on the stack by the rng: %lu\n",
	       impl->name, found);
	check(!found, impl->name,
	      "the rng's keys, one-time keys and output are wiped from the stack");
}

static void test_issue27(const struct kchacha_impl *impl,
			 struct rng_alg *alg)
{
	test_vmfork(impl, alg);
	test_early(impl, alg);
	test_interval(impl, alg);
	test_memory(impl, alg);
	test_long(impl, alg);
	test_irqs_off(impl, alg);
	test_jiffies_half(impl, alg);
	test_order(impl, alg);
	test_resume(impl, alg);
	test_two_resumes(impl, alg);
	test_stack(impl);
}
