// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space tests of every implementation in kchacha_impls[] the CPU
 * supports: the module's own self-test, then each implementation and the
 * dispatcher against an independent reference (ref.h) over every length
 * 0..4096, random lengths up to 1 MiB, every src/dst misalignment 0..63,
 * in place and out of place, counters crossing 2^32, 20, 12 and 8 rounds,
 * buffers against guard pages, HChaCha and XChaCha; and against the C core,
 * every length 0..2100 (SIMD implementations) and byte by byte.  Every .S
 * entry at each stack alignment the kernel may call it with
 * (test_stack_align()).  On arm64, that no NEON register the kernel saved
 * in a section's buffer outlives it.
 * --quick: the C core only.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __aarch64__
#include <ucontext.h>
#endif

#include "test/shim/linux/types.h"
#include "test/shim/crypto/internal/simd.h"
#include "test/shim/simdcheck.h"
#ifdef __x86_64__
#include "test/shim/asm/cpufeature.h"
#endif
#include "kchacha.h"
#include "test/unit/failfast.h"
#include "test/unit/ref.h"
#include "test/unit/entries.h"
#include "test/unit/callat.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static unsigned int passed, failed, skipped;
static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u32 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state >> 16;
}

static void fill(u8 *p, size_t n)
{
	while (n--)
		*p++ = rnd();
}

static void check(bool ok, const char *impl, const char *what, size_t len)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	if (failed < 20)
		printf("FAIL %s: %s (length %zu)\n", impl, what, len);
	fail_fast();
}

static void key_words(u32 *w, const u8 *key)
{
	for (int i = 0; i < 8; i++)
		w[i] = ref_le32(key + 4 * i);
}

/* The implementation's own xor, as the kernel's SIMD sections run it. */
static void impl_xor(const struct kchacha_impl *impl, const u8 *key,
		     const u8 *iv, int rounds, u8 *dst, const u8 *src,
		     size_t len)
{
	u32 w[8], state[16];

	key_words(w, key);
	kchacha_init_state(state, w, iv);
	if (impl->simd)
		kchacha_simd_xor(impl, state, dst, src, len, rounds);
	else
		impl->xor(state, dst, src, len, rounds);
}

#define MAXLEN (1 << 20)

static u8 *src_buf, *dst_buf, *ref_buf;

/* One case: out of place at the given offsets, then in place. */
static bool one_case(const struct kchacha_impl *impl, size_t len, int rounds,
		     u32 counter, unsigned int soff, unsigned int doff)
{
	u8 key[32], iv[16];
	u8 *src = src_buf + soff, *dst = dst_buf + doff;
	bool ok;

	fill(key, sizeof(key));
	fill(iv, sizeof(iv));
	memcpy(iv, &counter, 4);
	fill(src, len);
	dst[len] = 0xa5;
	ref_chacha(key, iv, rounds, ref_buf, src, len);
	impl_xor(impl, key, iv, rounds, dst, src, len);
	ok = !memcmp(dst, ref_buf, len) && dst[len] == 0xa5;

	memcpy(dst, src, len);
	impl_xor(impl, key, iv, rounds, dst, dst, len);
	return ok && !memcmp(dst, ref_buf, len) && dst[len] == 0xa5;
}

/*
 * Source and destination against inaccessible pages, so that a read before
 * src or past src + len, or a write outside dst..dst + len, faults: each
 * buffer ends at a guard page, then starts right after one.
 */
static sigjmp_buf guard_jmp;
/* static, so that they keep their values across the siglongjmp() */
static size_t guard_len;
static bool guard_ok;

static void guard_fault(int sig)
{
	siglongjmp(guard_jmp, sig);
}

static u8 *guard_area(size_t size, size_t page)
{
	u8 *p = mmap(NULL, size + 2 * page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	mprotect(p, page, PROT_NONE);
	mprotect(p + page + size, page, PROT_NONE);
	return p + page;
}

static void test_guards(const struct kchacha_impl *impl)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t max = 64 * impl->batch * 2 + 64, size = (max + page) & ~(page - 1);
	u8 *s = guard_area(size, page), *d = guard_area(size, page);
	struct sigaction sa = { .sa_handler = guard_fault }, old_segv, old_bus;
	u8 key[32], iv[16];

	if (!s || !d) {
		check(false, impl->name, "guard pages: mmap", 0);
		return;
	}
	fill(key, sizeof(key));
	fill(iv, sizeof(iv));
	sigaction(SIGSEGV, &sa, &old_segv);
	sigaction(SIGBUS, &sa, &old_bus);
	guard_ok = true;
	guard_len = 0;
	if (sigsetjmp(guard_jmp, 1)) {
		guard_ok = false;
	} else {
		for (; guard_len <= max; guard_len++) {
			size_t len = guard_len;
			u8 *src = s + size - len, *dst = d + size - len;

			fill(src, len);
			ref_chacha(key, iv, 20, ref_buf, src, len);
			impl_xor(impl, key, iv, 20, dst, src, len);
			guard_ok &= !memcmp(dst, ref_buf, len);
			impl_xor(impl, key, iv, 20, src, src, len);
			guard_ok &= !memcmp(src, ref_buf, len);
			src = s;
			dst = d;
			fill(src, len);
			ref_chacha(key, iv, 20, ref_buf, src, len);
			impl_xor(impl, key, iv, 20, dst, src, len);
			guard_ok &= !memcmp(dst, ref_buf, len);
		}
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	check(guard_ok, impl->name,
	      "no access outside src..src+len and dst..dst+len (guard pages)",
	      guard_len);
	munmap(s - page, size + 2 * page);
	munmap(d - page, size + 2 * page);
}

/* One call of @impl's xor on a copy of @state, in a SIMD section if SIMD */
static void raw_xor(const struct kchacha_impl *impl, const u32 *state,
		    u8 *dst, const u8 *src, size_t len, int rounds)
{
	u32 st[16];

	memcpy(st, state, sizeof(st));
	if (impl->simd)
		kchacha_simd_xor(impl, st, dst, src, len, rounds);
	else
		impl->xor(st, dst, src, len, rounds);
}

/*
 * Byte by byte against the C core, as libgcrypt's self-test checks its
 * cipher: each byte of a 2100-byte stream from a call of its own that ends
 * on that byte must equal the same byte of the whole-buffer run, with a
 * counter that wraps inside.  (Every length: test_vs_core().)
 */
static void test_bytewise(const struct kchacha_impl *impl)
{
	const size_t n = 2100;
	u32 w[8], state[16], st[16];
	u8 key[32], iv[16], one[65];
	bool ok = true;
	size_t i;

	fill(key, sizeof(key));
	fill(iv, sizeof(iv));
	key_words(w, key);
	kchacha_init_state(state, w, iv);
	state[12] = 0xfffffff0;
	fill(src_buf, n);
	memcpy(st, state, sizeof(st));
	kchacha_generic_xor(st, ref_buf, src_buf, n, 20);
	for (i = 0; i < n; i++) {
		size_t blk = i / 64, off = i % 64;

		memcpy(st, state, sizeof(st));
		st[12] += blk;
		memset(one, 0x5a, sizeof(one));
		raw_xor(impl, st, one, src_buf + 64 * blk, off + 1, 20);
		ok &= one[off] == ref_buf[i] && one[off + 1] == 0x5a;
	}
	check(ok, impl->name, "byte by byte against the whole-buffer run", n);
}

/*
 * The load-time self-test can fail: run on deliberately broken copies of
 * @impl (selftest.c's kchacha_selftest_broken()), it returns -EINVAL and
 * logs the case that failed, one for each of its failure branches; with
 * no memory, -ENOMEM.  The log goes to stderr: caught here in a file.
 * @how: a kchacha_break, or -1 for kchacha_selftest(), -2 for
 * kchacha_rng_selftest() of @impl itself, -3 - i for a copy wrong in the
 * self-test's known-answer vector i only.
 */
static int selftest_logged(const struct kchacha_impl *impl, int how,
			   char *log, size_t size)
{
	FILE *f = tmpfile();
	int saved, err;
	size_t n = 0;

	fflush(stderr);
	saved = dup(2);
	if (f)
		dup2(fileno(f), 2);
	if (how <= -3)
		err = kchacha_selftest_broken_vector(impl, -3 - how);
	else if (how == -2)
		err = kchacha_rng_selftest(impl);
	else if (how == -1)
		err = kchacha_selftest(impl);
	else
		err = kchacha_selftest_broken(impl, how);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	if (f) {
		rewind(f);
		n = fread(log, 1, size - 1, f);
		fclose(f);
	}
	log[n] = 0;
	return err;
}

extern bool kchacha_shim_kmalloc_fail;

static const struct kchacha_impl *rng_broken_base;

/* one byte wrong in every call of 512 bytes or more: the rng's refills
 * and long streams */
static void rng_broken_xor(const u32 *state, u8 *dst, const u8 *src,
			   unsigned int len, int nrounds)
{
	rng_broken_base->xor(state, dst, src, len, nrounds);
	if (len >= 512)
		dst[100] ^= 1;
}

/*
 * The self-test's known-answer vectors, in its order: each must fail alone
 * on a copy wrong in that vector only, and be named (a vector skipped,
 * merged or misnamed fails here).
 */
static const char *const selftest_vectors[] = {
	"RFC 8439 2.3.2",
	"RFC 8439 2.4.2",
	"RFC 8439 A.1 #1 (A.2 #1)",
	"RFC 8439 A.1 #2",
	"RFC 8439 A.1 #3",
	"RFC 8439 A.1 #4",
	"RFC 8439 A.1 #5",
	"RFC 8439 A.2 #2",
	"RFC 8439 A.2 #3",
	"XChaCha20 draft-03 A.3.2",
	"XChaCha12 #1",
	"XChaCha12 #3",
};

#define SELFTEST_VECTORS (sizeof(selftest_vectors) / sizeof(selftest_vectors[0]))

static void test_selftest_fails(const struct kchacha_impl *impl)
{
	unsigned int max = 2 * impl->batch * 64 + 1;
	struct kchacha_impl copy = *impl;
	char log[512], want[KCHACHA_BREAK_KINDS][96];
	bool vec_ok = true;
	int err;

	for (unsigned int i = 0; i <= SELFTEST_VECTORS; i++) {
		err = selftest_logged(impl, -3 - (int)i, log, sizeof(log));
		if (i == SELFTEST_VECTORS) {
			/* and no vector more than these */
			if (err != -ERANGE)
				printf("%s: a known-answer vector past the %zu expected\n",
				       impl->name, SELFTEST_VECTORS);
			vec_ok &= err == -ERANGE;
			break;
		}
		snprintf(want[0], 96, "kchacha: %s: self-test failed: %s\n",
			 impl->name, selftest_vectors[i]);
		if (err != -EINVAL || strcmp(log, want[0])) {
			printf("%s: a copy wrong in %s only: self-test returned %d, logged '%s'\n",
			       impl->name, selftest_vectors[i], err, log);
			vec_ok = false;
		}
	}
	check(vec_ok, impl->name,
	      "a copy wrong in one known-answer vector only fails the self-test, which names it",
	      SELFTEST_VECTORS);

	snprintf(want[KCHACHA_BREAK_VECTOR], 96,
		 "kchacha: %s: self-test failed: RFC 8439 2.4.2\n", impl->name);
	snprintf(want[KCHACHA_BREAK_LENGTH], 96,
		 "kchacha: %s: self-test failed: 12 rounds, length %u differs from generic\n",
		 impl->name, max);
	snprintf(want[KCHACHA_BREAK_OVERRUN], 96,
		 "kchacha: %s: self-test failed: 20 rounds, length %u differs from generic\n",
		 impl->name, max);
	snprintf(want[KCHACHA_BREAK_INPLACE], 96,
		 "kchacha: %s: self-test failed: 20 rounds, byte-by-byte at 36\n",
		 impl->name);
	snprintf(want[KCHACHA_BREAK_HCHACHA], 96,
		 "kchacha: %s: self-test failed: HChaCha20 draft-03 2.2.1\n",
		 impl->name);
	/* the first length of the sweep above 128 with a partial block */
	snprintf(want[KCHACHA_BREAK_PARTIAL], 96,
		 "kchacha: %s: self-test failed: 20 rounds, length 129 differs from generic\n",
		 impl->name);
	/* the sweep's counter starts 2 blocks short of 2^32: the 3rd wraps */
	snprintf(want[KCHACHA_BREAK_WRAP], 96,
		 "kchacha: %s: self-test failed: 20 rounds, length 129 differs from generic\n",
		 impl->name);
	/* the byte-by-byte check's first call past the first block */
	snprintf(want[KCHACHA_BREAK_LATER], 96,
		 "kchacha: %s: self-test failed: 20 rounds, byte-by-byte at 64\n",
		 impl->name);
	for (int how = 0; how < KCHACHA_BREAK_KINDS; how++) {
		err = selftest_logged(impl, how, log, sizeof(log));
		if (how == KCHACHA_BREAK_HCHACHA && !impl->hchacha) {
			/* the C core's HChaCha is the one every entry uses */
			check(err == -EOPNOTSUPP, impl->name,
			      "no broken HChaCha for an entry without one", 0);
			continue;
		}
		if (err != -EINVAL || strcmp(log, want[how]))
			printf("%s: broken copy %d: self-test returned %d, logged '%s'\n",
			       impl->name, how, err, log);
		check(err == -EINVAL && !strcmp(log, want[how]), impl->name,
		      "the self-test of a broken copy fails with -EINVAL and names the case",
		      how);
	}
	kchacha_shim_kmalloc_fail = true;
	err = selftest_logged(impl, -1, log, sizeof(log));
	kchacha_shim_kmalloc_fail = false;
	check(err == -ENOMEM, impl->name, "the self-test without memory: -ENOMEM",
	      0);

	/* and the rng's self-test, on a copy whose refills have a byte wrong */
	rng_broken_base = impl;
	copy.xor = rng_broken_xor;
	err = selftest_logged(&copy, -2, log, sizeof(log));
	snprintf(want[0], 96, "kchacha: %s: rng self-test failed: known-answer stream\n",
		 impl->name);
	check(err == -EINVAL && !strcmp(log, want[0]), impl->name,
	      "the rng self-test of a broken copy fails with -EINVAL and names the case",
	      0);
}

/*
 * kchacha_crypt() sends a request of one block or less to the C core and
 * one of 65 bytes or more to the SIMD code (doc/speed.md); so does
 * kchacha_xchacha_init() with XChaCha's HChaCha, by the stream's length.
 * Where SIMD is not usable, HChaCha does not enter a SIMD section either.
 */
static void test_routing(const struct kchacha_impl *impl)
{
	u8 key[32], iv[32];
	u32 w[8], state[16];
	unsigned long before;
	bool c_only = true, simd = true, x_c_only = true, x_simd = true;
	size_t len;

	fill(key, sizeof(key));
	fill(iv, sizeof(iv));
	key_words(w, key);
	for (len = 0; len <= 200; len++) {
		fill(src_buf, len);
		ref_chacha(key, iv, 20, ref_buf, src_buf, len);
		kchacha_init_state(state, w, iv);
		before = kchacha_shim_simd_sections;
		kchacha_crypt(impl, state, dst_buf, src_buf, len, 20);
		if (memcmp(dst_buf, ref_buf, len))
			c_only = simd = false;
		if (len <= 64)
			c_only &= kchacha_shim_simd_sections == before;
		else
			simd &= kchacha_shim_simd_sections == before + 1;
	}
	check(c_only, impl->name,
	      "requests of one block or less: the C core, no SIMD section", 64);
	check(simd, impl->name,
	      "requests of 65 to 200 bytes: one SIMD section", 200);

	for (len = 0; len <= 200; len++) {
		fill(src_buf, len);
		ref_xchacha(key, iv, 12, ref_buf, src_buf, len);
		before = kchacha_shim_simd_sections;
		kchacha_xchacha_init(impl, state, w, iv, len, 12);
		kchacha_crypt(impl, state, dst_buf, src_buf, len, 12);
		if (memcmp(dst_buf, ref_buf, len))
			x_c_only = x_simd = false;
		if (len <= 64)
			x_c_only &= kchacha_shim_simd_sections == before;
		else
			x_simd &= kchacha_shim_simd_sections == before + 2;
	}
	check(x_c_only, impl->name,
	      "XChaCha of one block or less: C HChaCha and core, no SIMD section",
	      64);
	check(x_simd, impl->name,
	      "XChaCha of 65 to 200 bytes: HChaCha's SIMD section and the xor's",
	      200);

	kchacha_shim_simd_usable = false;
	before = kchacha_shim_simd_sections;
	kchacha_xchacha_init(impl, state, w, iv, 200, 20);
	kchacha_crypt(impl, state, dst_buf, src_buf, 200, 20);
	check(kchacha_shim_simd_sections == before, impl->name,
	      "XChaCha with SIMD not usable: no SIMD section, HChaCha included",
	      200);
	kchacha_shim_simd_usable = true;
}

#if defined(__x86_64__)
static const char *entry_called;

static void entry_hook(const char *entry, unsigned int len)
{
	(void)len;
	entry_called = entry;
}

/*
 * The zmm driver's xor (chacha_core.c, kchacha_avx512_entry()): nine
 * blocks go to the ymm code where kchacha_avx512_nine_ymm says so, to the
 * zmm entry where not, ten always to a zmm entry; over 1 KiB to
 * kchacha_avx512_z32_xor() where kchacha_avx512_z32 says so, up to 1 KiB
 * never; the first nine-block request sets the one cache from
 * kchacha_cpu_slow(), the first over 1 KiB the other from
 * kchacha_cpu_two_cycle().  Which assembly entry each request reached, by
 * the shim's hook, and its output.
 */
static void test_nine_blocks(const struct kchacha_impl *impl)
{
	static const struct {
		int ymm, z32;
		unsigned int len;
		const char *entry;
	} cases[] = {
		{ 1, 1, 513, "kchacha_avx512vl_xor" },
		{ 1, 1, 576, "kchacha_avx512vl_xor" },
		{ 1, 1, 577, "kchacha_avx512_xor" },
		{ 0, 0, 513, "kchacha_avx512_xor" },
		{ 0, 1, 576, "kchacha_avx512_xor" },
		{ 0, 1, 1024, "kchacha_avx512_xor" },
		{ 1, 1, 1025, "kchacha_avx512_z32_xor" },
		{ 0, 0, 1025, "kchacha_avx512_xor" },
		{ 0, 1, 1420, "kchacha_avx512_z32_xor" },
		{ 0, 0, 4096, "kchacha_avx512_xor" },
		{ 0, 1, 4096, "kchacha_avx512_z32_xor" },
	};
	int saved = kchacha_avx512_nine_ymm, saved_z32 = kchacha_avx512_z32;
	u8 key[32], iv[16];
	u32 w[8], state[16];
	char what[96];
	size_t i;

	fill(key, sizeof(key));
	fill(iv, sizeof(iv));
	key_words(w, key);
	kchacha_shim_simd_hook = entry_hook;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned int len = cases[i].len;

		fill(src_buf, len);
		ref_chacha(key, iv, 20, ref_buf, src_buf, len);
		kchacha_avx512_nine_ymm = cases[i].ymm;
		kchacha_avx512_z32 = cases[i].z32;
		entry_called = NULL;
		kchacha_init_state(state, w, iv);
		kchacha_crypt(impl, state, dst_buf, src_buf, len, 20);
		snprintf(what, sizeof(what), "nine_ymm %d, z32 %d: %u bytes to %s",
			 cases[i].ymm, cases[i].z32, len, cases[i].entry);
		check(entry_called && !strcmp(entry_called, cases[i].entry) &&
		      !memcmp(dst_buf, ref_buf, len), impl->name, what, len);
	}
	kchacha_avx512_nine_ymm = -1;
	kchacha_init_state(state, w, iv);
	kchacha_crypt(impl, state, dst_buf, src_buf, 576, 20);
	check(kchacha_avx512_nine_ymm == kchacha_cpu_slow(), impl->name,
	      "the first nine-block request caches kchacha_cpu_slow()", 576);
	kchacha_avx512_z32 = -1;
	kchacha_init_state(state, w, iv);
	kchacha_crypt(impl, state, dst_buf, src_buf, 1024, 20);
	check(kchacha_avx512_z32 == -1, impl->name,
	      "a request of 1 KiB leaves the z32 cache unset", 1024);
	kchacha_crypt(impl, state, dst_buf, src_buf, 1025, 20);
	check(kchacha_avx512_z32 == kchacha_cpu_two_cycle(), impl->name,
	      "the first request over 1 KiB caches kchacha_cpu_two_cycle()",
	      1025);
	kchacha_shim_simd_hook = NULL;
	kchacha_avx512_nine_ymm = saved;
	kchacha_avx512_z32 = saved_z32;
}
#endif

/* Does fn(impl) die of the shim's abort()? */
static bool dies_outside(const struct kchacha_impl *impl,
			 void (*fn)(const struct kchacha_impl *impl))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* the shim's own line would say FAIL: not this time */
		if (!freopen("/dev/null", "w", stderr) ||
		    !freopen("/dev/null", "w", stdout))
			_exit(3);
		fn(impl);
		_exit(0);
	}
	return pid > 0 && waitpid(pid, &status, 0) == pid &&
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void bare_xor(const struct kchacha_impl *impl)
{
	u32 state[16] = { 0 };

	impl->xor(state, dst_buf, src_buf, 64, 20);
}

static void bare_hchacha(const struct kchacha_impl *impl)
{
	u32 state[16] = { 0 }, out[8];

	impl->hchacha(state, out, 20);
}

/*
 * test/shim/simdcheck.c: the table's SIMD routines are the shim's wrapped
 * ones (counted in a section, fatal outside one), and every path into them
 * reaches the check: the self-test, kchacha_crypt() above one block,
 * XChaCha's HChaCha.  (The rng's: rng_test; the glue's: glue.)
 */
static void test_simd_check(const struct kchacha_impl *impl)
{
	unsigned long calls = kchacha_shim_simd_calls;
	u32 state[16] = { 0 }, w[8] = { 0 };
	u8 iv[32] = { 0 };

	kchacha_shim_simd_enter();
	bare_xor(impl);
	if (impl->hchacha)
		bare_hchacha(impl);
	kchacha_shim_simd_leave();
	check(kchacha_shim_simd_calls == calls + 1 + !!impl->hchacha,
	      impl->name, "the table's SIMD routines are the shim's checked ones",
	      0);
	check(dies_outside(impl, bare_xor), impl->name,
	      "the shim aborts on the SIMD xor outside a section", 64);
	if (impl->hchacha)
		check(dies_outside(impl, bare_hchacha), impl->name,
		      "the shim aborts on the SIMD HChaCha outside a section",
		      32);

	calls = kchacha_shim_simd_calls;
	check(kchacha_selftest(impl) == 0 && kchacha_shim_simd_calls > calls,
	      impl->name, "the self-test's SIMD calls reach the check", 0);
	calls = kchacha_shim_simd_calls;
	kchacha_crypt(impl, state, dst_buf, src_buf, impl->simd_min, 20);
	check(kchacha_shim_simd_calls > calls, impl->name,
	      "kchacha_crypt()'s SIMD calls reach the check", impl->simd_min);
	if (impl->hchacha) {
		calls = kchacha_shim_simd_calls;
		kchacha_xchacha_init(impl, state, w, iv, impl->simd_min, 20);
		check(kchacha_shim_simd_calls == calls + 1, impl->name,
		      "XChaCha's HChaCha reaches the check", 32);
	}
}

static void test_impl(const struct kchacha_impl *impl)
{
	static const int rounds[] = { 20, 12 };
	u8 key[32], iv[32], a[32], b[32];
	u32 w[8], state[16], out[8];
	size_t len;
	bool ok;

	/* first: an access out of bounds elsewhere could corrupt the heap */
	test_guards(impl);
	check(kchacha_selftest(impl) == 0, impl->name, "module self-test", 0);
	test_selftest_fails(impl);
	if (impl->simd) {
		test_simd_check(impl);
		test_routing(impl);
#if defined(__x86_64__)
		if (!strcmp(impl->name, "avx512"))
			test_nine_blocks(impl);
#endif
	}
	test_bytewise(impl);

	for (int r = 0; r < 2; r++) {
		ok = true;
		for (len = 0; len <= 4096; len++)
			ok &= one_case(impl, len, rounds[r],
				       len & 1 ? rnd() : 0xffffffff - len % 70,
				       len % 64, (len * 7) % 64);
		check(ok, impl->name, rounds[r] == 20 ?
		      "every length 0..4096, 20 rounds" :
		      "every length 0..4096, 12 rounds", len);

		for (int i = 0; i < 24; i++) {
			len = rnd() % MAXLEN;
			check(one_case(impl, len, rounds[r], rnd(), rnd() % 64,
				       rnd() % 64),
			      impl->name, "random length up to 1 MiB", len);
		}
	}

	/* 8 rounds (ChaCha8), which only the xor functions take */
	ok = true;
	for (len = 0; len <= 64 * impl->batch * 3 + 1; len++)
		ok &= one_case(impl, len, 8, 0xffffffff - len % 40, len % 64,
			       (len * 5) % 64);
	check(ok, impl->name, "every length to three batches, 8 rounds", len);

	ok = true;
	for (unsigned int s = 0; s < 64; s++)
		for (unsigned int d = 0; d < 64; d++)
			ok &= one_case(impl, 64 * impl->batch * 2 + 37, 20,
				       0xfffffffe, s, d);
	check(ok, impl->name, "every src/dst misalignment 0..63", 0);

	/*
	 * A counter that wraps at or inside a later 4 KiB section (SIMD runs
	 * 64 blocks a section): it never carries into the nonce there either.
	 */
	ok = true;
	for (unsigned int k = 0; k < 8; k++)
		ok &= one_case(impl, 3 * 4096 + 100, 20,
			       0xffffffffU - 63 - 32 * k - (k & 1), k, 3 * k);
	check(ok, impl->name,
	      "a counter wrapping in a later 4 KiB section: no carry into the nonce",
	      3 * 4096 + 100);

	for (int r = 0; r < 2; r++) {
		fill(key, 32);
		fill(iv, 16);
		key_words(w, key);
		kchacha_init_state(state, w, iv);
		if (impl->hchacha) {
			kchacha_shim_simd_enter();
			impl->hchacha(state, out, rounds[r]);
			kchacha_shim_simd_leave();
		} else
			kchacha_generic_hchacha(state, out, rounds[r]);
		ref_hchacha(key, iv, rounds[r], a);
		check(!memcmp(out, a, 32), impl->name, "HChaCha", 32);

		/* XChaCha through the table's HChaCha and the dispatcher */
		fill(iv, 32);
		len = 1000 + rnd() % 5000;
		fill(src_buf, len);
		ref_xchacha(key, iv, rounds[r], ref_buf, src_buf, len);
		kchacha_xchacha_init(impl, state, w, iv, len, rounds[r]);
		kchacha_crypt(impl, state, dst_buf, src_buf, len, rounds[r]);
		check(!memcmp(dst_buf, ref_buf, len), impl->name, "XChaCha",
		      len);
	}

	/* The dispatcher in pieces, with and without SIMD usable. */
	for (int usable = 0; usable < 2; usable++) {
		unsigned long before = kchacha_shim_simd_sections;
		size_t total = 3 * 4096 + 999, done = 0;

		kchacha_shim_simd_usable = usable;
		fill(key, 32);
		fill(iv, 16);
		fill(src_buf, total);
		ref_chacha(key, iv, 20, ref_buf, src_buf, total);
		key_words(w, key);
		kchacha_init_state(state, w, iv);
		while (done < total) {
			size_t n = 64 * (1 + rnd() % 80);

			if (n > total - done)
				n = total - done;
			kchacha_crypt(impl, state, dst_buf + done,
				      src_buf + done, n, 20);
			done += n;
		}
		check(!memcmp(dst_buf, ref_buf, total), impl->name,
		      usable ? "dispatcher, SIMD usable" :
		      "dispatcher, SIMD not usable (C core)", total);
		check(usable && impl->simd ?
		      kchacha_shim_simd_sections > before :
		      kchacha_shim_simd_sections == before, impl->name,
		      "SIMD sections only where SIMD is usable", total);
	}
	kchacha_shim_simd_usable = true;
	(void)b;
}

/*
 * Every length 0..2100 against the module's own C core, for the SIMD
 * implementations: past the sixteen-block pass of AVX-512 and each of its
 * forms for what follows (1-4, 5-8, 9-12, 13-16 blocks), whole and partial.
 * Out of place with both pointers misaligned, then in place, with the
 * counter crossing 2^32 at a different block each time.
 */
static void test_vs_core(const struct kchacha_impl *impl)
{
	u8 key[32], iv[16];
	u32 w[8], state[16], core[16];
	bool ok = true;
	size_t len;

	for (len = 0; len <= 2100; len++) {
		unsigned int soff = len % 61, doff = (len * 13) % 64;
		u8 *src = src_buf + soff, *dst = dst_buf + doff;
		u32 ctr = 0xffffffffU - len % 37;
		int rounds = len % 3 ? 20 : 12;

		fill(key, sizeof(key));
		fill(iv, sizeof(iv));
		memcpy(iv, &ctr, 4);
		fill(src, len);
		key_words(w, key);
		kchacha_init_state(core, w, iv);
		kchacha_generic_xor(core, ref_buf, src, len, rounds);
		dst[len] = 0x5a;
		memcpy(state, core, sizeof(state));
		kchacha_simd_xor(impl, state, dst, src, len, rounds);
		ok &= !memcmp(dst, ref_buf, len) && dst[len] == 0x5a;
		memcpy(dst, src, len);
		memcpy(state, core, sizeof(state));
		kchacha_simd_xor(impl, state, dst, dst, len, rounds);
		ok &= !memcmp(dst, ref_buf, len) && dst[len] == 0x5a;
		ok &= state[12] == (u32)(core[12] + (len + 63) / 64);
	}
	check(ok, impl->name,
	      "every length 0..2100 against the C core, misaligned and in place",
	      len);
}

/*
 * ABI hygiene of the .S entries: len and nrounds are 32-bit arguments, and
 * the x86-64 and AAPCS64 ABIs leave the upper halves of their registers
 * undefined (a caller built by another compiler, or a kCFI or tracing
 * thunk, may leave anything there).  So every entry of a SIMD
 * implementation, its xor and its HChaCha, is called through a prototype
 * with 64-bit arguments that sets those halves to junk, and must give
 * what the C core gives; an entry that uses len or nrounds as a 64-bit
 * register without zero-extending it reads or writes past the buffers,
 * takes the wrong path, or loops.  On 32-bit ARM the registers have no
 * upper half: there nrounds, passed on the stack, is called with junk in
 * the stack words around it (abi_call_arm below).
 */
#if defined(__x86_64__) || defined(__aarch64__)
typedef void (*abi_xor64_fn)(const u32 *state, u8 *dst, const u8 *src,
			     u64 len, u64 nrounds);
typedef void (*abi_hchacha64_fn)(const u32 *state, u32 *out, u64 nrounds);

/* the entry itself (test/unit/entries.h): no C wrapper zero-extends */
static void abi_xor(kchacha_xor_fn xor, const u32 *state, u8 *dst,
		    const u8 *src, unsigned int len, int nrounds, u32 junk)
{
	((abi_xor64_fn)unit_real_entry(xor))(state, dst, src,
					     (u64)junk << 32 | len,
					     (u64)junk << 32 | (u32)nrounds);
}

static void abi_hchacha(kchacha_hchacha_fn hchacha, const u32 *state,
			u32 *out, int nrounds, u32 junk)
{
	((abi_hchacha64_fn)unit_real_entry(hchacha))(state, out,
						     (u64)junk << 32 |
						     (u32)nrounds);
}
#elif defined(__arm__)
/*
 * abi_call_arm(fn, a0, a1, a2, a3, a4): fn(a0, a1, a2, a3, a4) with a4,
 * the one argument on the stack, between junk words (0x5a5a5a5a) on
 * either side of its slot; ARM code, called from ARM or Thumb-2 code
 * alike.
 */
void abi_call_arm(void *fn, uintptr_t a0, uintptr_t a1, uintptr_t a2,
		  uintptr_t a3, uintptr_t a4);
__asm__(".text\n"
	".syntax unified\n"
	".arm\n"
	".balign 4\n"
	".globl abi_call_arm\n"
	".type abi_call_arm, %function\n"
	"abi_call_arm:\n"
	"	push	{r4, r5, r6, lr}\n"
	"	mov	ip, r0\n"
	"	mov	r0, r1\n"
	"	mov	r1, r2\n"
	"	mov	r2, r3\n"
	"	ldr	r3, [sp, #16]\n"
	"	ldr	r4, [sp, #20]\n"
	"	ldr	r5, =0x5a5a5a5a\n"
	"	sub	sp, sp, #24\n"
	"	str	r5, [sp, #0]\n"
	"	str	r5, [sp, #4]\n"
	"	str	r4, [sp, #8]\n"
	"	str	r5, [sp, #12]\n"
	"	str	r5, [sp, #16]\n"
	"	str	r5, [sp, #20]\n"
	"	add	sp, sp, #8\n"
	"	blx	ip\n"
	"	add	sp, sp, #16\n"
	"	pop	{r4, r5, r6, pc}\n"
	"	.ltorg\n"
	".size abi_call_arm, . - abi_call_arm\n");

static void abi_xor(kchacha_xor_fn xor, const u32 *state, u8 *dst,
		    const u8 *src, unsigned int len, int nrounds, u32 junk)
{
	(void)junk;
	abi_call_arm((void *)unit_real_entry(xor), (uintptr_t)state,
		     (uintptr_t)dst, (uintptr_t)src, len, (u32)nrounds);
}

static void abi_hchacha(kchacha_hchacha_fn hchacha, const u32 *state,
			u32 *out, int nrounds, u32 junk)
{
	abi_call_arm((void *)unit_real_entry(hchacha), (uintptr_t)state,
		     (uintptr_t)out, (u32)nrounds, junk, junk);
}
#endif

/* static, so that they keep their values across the siglongjmp() */
static size_t abi_len;
static bool abi_hchacha_ok;
/* seconds for all the calls of one entry (qemu-user included) */
#define ABI_TIMEOUT	30

/* A state of the fixed key and IV, its counter 16 blocks before the wrap. */
static void abi_state(u32 state[16])
{
	u8 key[32], iv[16];
	u32 w[8];

	fill(key, sizeof(key));
	fill(iv, sizeof(iv));
	key_words(w, key);
	kchacha_init_state(state, w, iv);
	state[12] = 0xfffffff0;
}

/* guard_fault() for faults and the alarm; @old keeps what it replaced */
static void catch_faults(struct sigaction old[3])
{
	struct sigaction sa = { .sa_handler = guard_fault };

	sigaction(SIGSEGV, &sa, &old[0]);
	sigaction(SIGBUS, &sa, &old[1]);
	sigaction(SIGALRM, &sa, &old[2]);
}

static void uncatch_faults(const struct sigaction old[3])
{
	alarm(0);
	sigaction(SIGSEGV, &old[0], NULL);
	sigaction(SIGBUS, &old[1], NULL);
	sigaction(SIGALRM, &old[2], NULL);
}

static void test_abi(const struct kchacha_impl *impl)
{
	static const u32 junks[] = { 0xffffffff, 0xdeadbeef, 0x00000001,
				     0x80000000 };
	static const int rounds[] = { 20, 12, 8 };
	struct sigaction old[3];
	size_t page = sysconf(_SC_PAGESIZE), max = 4 * 64 * impl->batch + 65;
	size_t size = (max + page) & ~(page - 1);
	u32 state[16], st[16], out[8], want[8];
	volatile bool ok = true;	/* kept across the siglongjmp() */
	size_t len;
	int j, r;

	/* static, so that they keep their values across the siglongjmp() */
	static u8 *s, *d;

	s = guard_area(size, page);
	d = guard_area(size, page);
	if (!s || !d) {
		check(false, impl->name, "ABI: guard pages: mmap", 0);
		return;
	}
	abi_state(state);
	/*
	 * Source and destination end at a guard page: an entry that takes
	 * junk for a length faults there, caught and named.
	 */
	catch_faults(old);
	abi_len = 0;
	abi_hchacha_ok = true;
	if (sigsetjmp(guard_jmp, 1)) {
		ok = false;
	} else {
		/* one that takes junk for a round count may never return */
		alarm(ABI_TIMEOUT);
		for (len = 0; len <= max; len = ++abi_len) {
			u8 *src = s + size - len, *dst = d + size - len;

			j = len % 4;
			r = len % 3;
			fill(src, len);
			kchacha_generic_xor(state, ref_buf, src, len, rounds[r]);
			memcpy(st, state, sizeof(st));
			abi_xor(impl->xor, st, dst, src, len, rounds[r],
				junks[j]);
			ok &= !memcmp(dst, ref_buf, len) &&
			      !memcmp(st, state, sizeof(st));
		}
	}
	check(ok, impl->name,
	      "xor with junk in the upper halves of len and nrounds (32-bit ARM: around nrounds), within its buffers and in time",
	      abi_len);
	if (impl->hchacha && sigsetjmp(guard_jmp, 1)) {
		abi_hchacha_ok = false;
	} else if (impl->hchacha) {
		alarm(ABI_TIMEOUT);
		for (j = 0; j < 4; j++) {
			for (r = 0; r < 2; r++) {
				kchacha_generic_hchacha(state, want, rounds[r]);
				memset(out, 0, sizeof(out));
				abi_hchacha(impl->hchacha, state, out,
					    rounds[r], junks[j]);
				abi_hchacha_ok &= !memcmp(out, want,
							  sizeof(out));
			}
		}
		check(abi_hchacha_ok, impl->name,
		      "HChaCha with junk in the upper half of nrounds, in time",
		      32);
	}
	uncatch_faults(old);
	munmap(s - page, size + 2 * page);
	munmap(d - page, size + 2 * page);
	if (!abi_hchacha_ok)
		check(false, impl->name,
		      "HChaCha with junk in the upper half of nrounds, in time",
		      32);
}

/*
 * Stack alignment (issue 36): every .S entry at each stack pointer the
 * kernel may call it with, which user space's callers never give it.
 *
 * x86_64: the kernel is built with -mpreferred-stack-boundary=3
 * (arch/x86/Makefile, 6.1 to 7.x), so %rsp is only 8-byte aligned and an
 * entry may start with it at any multiple of 8 modulo 64, where a C caller
 * in user space always leaves 8 modulo 16: a frame with movdqa or vmovdqa
 * slots that does not align itself (and $~15, and $~31) faults in the
 * kernel and passes here.  So each multiple of 8.
 * 32-bit ARM: kernel-mode NEON needs an AEABI kernel (KERNEL_MODE_NEON
 * depends on AEABI), built with -mabi=aapcs-linux: sp is 8-byte aligned
 * at every call, as AAPCS requires at public interfaces, and the
 * exception entry realigns an sp of 4 modulo 8 (SPFIX in
 * arch/arm/kernel/entry-armv.S).  So each multiple of 8, not of 4: the
 * kernel never calls with less, and code may rely on what AAPCS promises.
 * The frame's :128 slots need the entry's own bic.
 * arm64: sp is 16-byte aligned at all times (AAPCS64; the kernel enables
 * the stack alignment check), so each multiple of 16: nothing to align,
 * and the sweep holds the entries to that.
 *
 * Each entry is called through unit_call_at() (test/unit/callat.S) at
 * each offset, the xor over both sides of every 64-byte boundary to two
 * widest batches and a block (every form and tail), with what else the
 * kernel may pass misaligned: the state and HChaCha's output at any
 * 4-byte offset (u32 arrays), src and dst at any byte.
 */
#if defined(__aarch64__)
#define ALIGN_SP_STEP	16
#else
#define ALIGN_SP_STEP	8
#endif
#ifdef __x86_64__
#define ALIGN_SP_NAME	"%%rsp"
#else
#define ALIGN_SP_NAME	"sp"
#endif

/* static, so that they keep their values across the siglongjmp() */
static unsigned int align_sp, align_len;
static const char *align_entry;

static void align_call(const void *fn, uintptr_t a0, uintptr_t a1,
		       uintptr_t a2, uintptr_t a3, uintptr_t a4,
		       unsigned int sp)
{
	struct unit_call c = {
		.fn = fn,
		.arg = { a0, a1, a2, a3, a4 },
		.sp_mod = sp,
	};

	unit_call_at(&c);
}

static void test_stack_align(const struct kchacha_impl *impl)
{
	static const int rounds[] = { 20, 12, 8 };
	static u8 statebuf[128] __attribute__((__aligned__(64)));
	static u8 outbuf[128] __attribute__((__aligned__(64)));
	unsigned int max_k = 2 * impl->batch + 1;
	struct sigaction old[3];
	u32 state[16], want[8];
	volatile bool ok = true;	/* kept across the siglongjmp() */
	bool probe_ok = true;
	unsigned int sp, n = 0;

	/* static, so that they keep their values across the siglongjmp() */
	static const void *xor, *hchacha;

	xor = unit_real_entry(impl->xor);
	hchacha = impl->hchacha ? unit_real_entry(impl->hchacha) : NULL;

	/* the trampoline itself: the entry sees the offset asked for */
	for (sp = 0; sp < 64; sp += ALIGN_SP_STEP) {
		uintptr_t seen = 1;

		align_call((const void *)unit_sp_probe, (uintptr_t)&seen, 0, 0,
			   0, 0, sp);
		probe_ok &= seen % 64 == sp;
	}
	check(probe_ok, impl->name,
	      "stack alignment: the trampoline enters at each offset", 0);

	abi_state(state);
	catch_faults(old);
	align_len = 0;
	if (sigsetjmp(guard_jmp, 1)) {
		printf("%s: %s faulted or hung at " ALIGN_SP_NAME " %% 64 = %u on entry (length %u)\n",
		       impl->name, align_entry, align_sp, align_len);
		ok = false;
		goto out;
	}
	alarm(ABI_TIMEOUT);
	for (align_sp = 0; align_sp < 64; align_sp += ALIGN_SP_STEP) {
		for (unsigned int k = 0; k <= max_k; k++) {
			for (int d = -1; d <= 1; d++) {
				u32 *st = (u32 *)(statebuf + 4 * (n % 16));
				u8 *src = src_buf + n % 64;
				u8 *dst = dst_buf + (n * 7) % 64;
				int r = rounds[n % 3];

				if (!k && d < 0)
					continue;
				align_entry = "xor";
				align_len = 64 * k + d;
				n++;
				fill(src, align_len);
				kchacha_generic_xor(state, ref_buf, src,
						    align_len, r);
				memcpy(st, state, sizeof(state));
				dst[align_len] = 0x5a;
				align_call(xor, (uintptr_t)st, (uintptr_t)dst,
					   (uintptr_t)src, align_len, r,
					   align_sp);
				if (memcmp(dst, ref_buf, align_len) ||
				    dst[align_len] != 0x5a ||
				    memcmp(st, state, sizeof(state))) {
					if (ok)
						printf("%s: wrong at " ALIGN_SP_NAME " %% 64 = %u on entry, length %u\n",
						       impl->name, align_sp,
						       align_len);
					ok = false;
				}
			}
		}
		for (unsigned int o = 0; hchacha && o < 32; o++) {
			u32 *st = (u32 *)(statebuf + 4 * ((o + 5) % 16));
			u32 *out = (u32 *)(outbuf + 4 * (o % 16));
			int r = rounds[o % 2];

			align_entry = "HChaCha";
			align_len = 32;
			memcpy(st, state, sizeof(state));
			kchacha_generic_hchacha(state, want, r);
			memset(out, 0, sizeof(want));
			align_call(hchacha, (uintptr_t)st, (uintptr_t)out, r,
				   0, 0, align_sp);
			if (memcmp(out, want, sizeof(want))) {
				if (ok)
					printf("%s: HChaCha wrong at " ALIGN_SP_NAME " %% 64 = %u on entry\n",
					       impl->name, align_sp);
				ok = false;
			}
		}
	}
out:
	uncatch_faults(old);
	check(ok, impl->name,
	      "xor and HChaCha at each stack alignment the kernel may call with, state and output at any 4-byte offset",
	      align_len);
}

/* The reference itself against RFC 8439 2.4.2, so it cannot drift. */
static void test_reference(void)
{
	static const char msg[] = "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
	static const u8 head[8] = { 0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80 };
	static const u8 tail[2] = { 0x87, 0x4d };
	u8 key[32], iv[16] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x4a };
	u8 out[sizeof(msg)];

	for (int i = 0; i < 32; i++)
		key[i] = i;
	ref_chacha(key, iv, 20, out, (const u8 *)msg, 114);
	check(!memcmp(out, head, 8) && !memcmp(out + 112, tail, 2),
	      "reference", "RFC 8439 2.4.2", 114);
}

#ifdef __aarch64__
/*
 * arm64 7.x: a section's NEON registers, saved by the kernel in the
 * caller's buffer if the task was scheduled out (the shim writes
 * KCHACHA_SHIM_NEON_SAVED bytes there at every section's end), must be
 * wiped before the caller returns.  XChaCha's HChaCha and a multi-section
 * kchacha_crypt() run on a zeroed stack of the test's own, which is then
 * searched for a 16-byte word of them.
 */
#define WIPE_STACK	(64 * 1024)
static ucontext_t wipe_main, wipe_ctx;
static const struct kchacha_impl *wipe_impl;

static void wipe_run(void)
{
	u32 state[16], w[8];
	u8 key[32], iv[32];

	fill(key, sizeof(key));
	fill(iv, sizeof(iv));
	key_words(w, key);
	kchacha_xchacha_init(wipe_impl, state, w, iv, 3 * 4096 + 100, 20);
	kchacha_crypt(wipe_impl, state, dst_buf, src_buf, 3 * 4096 + 100, 20);
}

/* The 16-byte words of @stack that the shim's "saved registers" fill. */
static size_t neon_saved_words(const u8 *stack)
{
	u8 saved[16];
	size_t i, n = 0;

	memset(saved, KCHACHA_SHIM_NEON_SAVED, sizeof(saved));
	for (i = 0; i + sizeof(saved) <= WIPE_STACK; i += sizeof(saved))
		n += !memcmp(stack + i, saved, sizeof(saved));
	return n;
}

static void test_neon_wipe(const struct kchacha_impl *impl)
{
	unsigned long before = kchacha_shim_simd_sections;
	u8 *stack = calloc(1, WIPE_STACK), *last;
	size_t left;

	if (!stack || getcontext(&wipe_ctx)) {
		check(false, impl->name, "a stack for the wipe test", 0);
		free(stack);
		return;
	}
	wipe_impl = impl;
	kchacha_shim_neon_last = NULL;
	wipe_ctx.uc_stack.ss_sp = stack;
	wipe_ctx.uc_stack.ss_size = WIPE_STACK;
	wipe_ctx.uc_link = &wipe_main;
	makecontext(&wipe_ctx, wipe_run, 0);
	if (swapcontext(&wipe_main, &wipe_ctx))
		check(false, impl->name, "running on the wipe test's stack", 0);

	last = (u8 *)kchacha_shim_neon_last;
	check(kchacha_shim_simd_sections >= before + 5 && last >= stack &&
	      last < stack + WIPE_STACK, impl->name,
	      "SIMD sections with their buffer on the caller's stack", 0);
	left = neon_saved_words(stack);
	check(!left, impl->name,
	      "saved NEON registers wiped from the stack (16-byte words left)",
	      left);
	free(stack);
}
#endif

/* The implementations of the table, highest priority first, for @slow. */
static void ranking(bool slow, char *out, size_t size)
{
	bool used[16] = { false };
	size_t at = 0;

	out[0] = 0;
	for (unsigned int n = 0; n < kchacha_nimpls && n < 16; n++) {
		int best = -1;

		for (unsigned int i = 0; i < kchacha_nimpls && i < 16; i++)
			if (!used[i] && (best < 0 ||
			    kchacha_impl_priority(&kchacha_impls[i], slow) >
			    kchacha_impl_priority(&kchacha_impls[best], slow)))
				best = i;
		used[best] = true;
		at += snprintf(out + at, size - at, "%s%s", n ? " " : "",
			       kchacha_impls[best].name);
	}
}

/*
 * The ranking rule as a table: which CPUs take the other order, and the
 * order each gives.  The priorities must differ (the crypto API would
 * pick between equal ones by registration order) and keep every SIMD
 * entry above the in-tree drivers (300) unless the rule puts it below the
 * kernel's scalar code (32-bit ARM's Cortex-A7 and A5: below 200, above
 * kchacha's C core).
 */
static void test_ranking(void)
{
	static const struct {
		bool lowers_clock, amd;
		unsigned int family;
		bool ymm_first, two_cycle;
		const char *what;
	} x86[] = {
		{ false, true, 0x19, true, false, "AMD Zen 4 (family 0x19)" },
		{ false, true, 0x1a, false, true, "AMD Zen 5 (family 0x1a)" },
		{ false, true, 0x17, false, false, "AMD Zen 1/2 (family 0x17)" },
		{ false, false, 0x19, false, false,
		  "another vendor's family 0x19" },
		{ false, false, 0x1a, false, false,
		  "another vendor's family 0x1a" },
		{ false, false, 6, false, false, "Intel without PREFER_YMM" },
		{ true, false, 6, true, false, "Intel with PREFER_YMM" },
		{ true, true, 0x1a, true, true, "PREFER_YMM on any CPU" },
	};
	static const struct {
		u32 part;
		bool slow;
		const char *what;
	} arm[] = {
		{ KCHACHA_ARM_PART_CORTEX_A7, true, "Cortex-A7" },
		{ KCHACHA_ARM_PART_CORTEX_A5, true, "Cortex-A5" },
		{ 0x4100c0f0, false, "Cortex-A15" },
		{ 0x4100c090, false, "Cortex-A9" },
		{ 0x4100c080, false, "Cortex-A8" },
		{ 0x4100d030, false, "Cortex-A53 (AArch32)" },
		{ 0x5100c070, false, "another implementer's part 0xc07" },
		{ 0, false, "an unknown part" },
	};
	char got[128];
	const char *want_fast, *want_slow;

	for (unsigned int i = 0; i < ARRAY_SIZE(x86); i++) {
		bool got_first = kchacha_x86_ymm_first(x86[i].lowers_clock,
						       x86[i].amd,
						       x86[i].family);

		if (got_first != x86[i].ymm_first)
			printf("FAIL ranking: %s: ymm code %s\n", x86[i].what,
			       x86[i].ymm_first ? "must rank first" :
			       "must not rank first");
		check(got_first == x86[i].ymm_first, "ranking", x86[i].what, 0);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(x86); i++) {
		bool two = kchacha_x86_two_cycle(x86[i].amd, x86[i].family);

		if (two != x86[i].two_cycle)
			printf("FAIL ranking: %s: the 32-block pass %s\n",
			       x86[i].what, x86[i].two_cycle ?
			       "must take requests over 1 KiB" :
			       "must take whole 2 KiB runs only");
		check(two == x86[i].two_cycle, "two-cycle rule", x86[i].what,
		      0);
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(arm); i++) {
		bool slow = kchacha_arm_neon_slow(arm[i].part);

		if (slow != arm[i].slow)
			printf("FAIL ranking: %s: NEON %s\n", arm[i].what,
			       arm[i].slow ? "must rank below the scalar code" :
			       "must rank above the in-tree drivers");
		check(slow == arm[i].slow, "ranking", arm[i].what, 0);
	}

#if defined(__x86_64__)
	/* kchacha_cpu_slow(): what it reads of boot_cpu_data */
	{
		static const struct {
			struct cpuinfo_x86 c;
			bool slow;
			const char *what;
		} cpus[] = {
			{ { X86_VENDOR_AMD, 0x19, 0x11 }, true, "EPYC family 25 model 17 (Zen 4)" },
			{ { X86_VENDOR_AMD, 0x19, 0x61 }, true, "Ryzen family 25 model 97 (Zen 4)" },
			{ { X86_VENDOR_AMD, 0x1a, 0x02 }, false, "EPYC family 26 model 2 (Zen 5)" },
			{ { X86_VENDOR_AMD, 0x17, 0x01 }, false, "EPYC family 23 model 1 (Zen 1)" },
			{ { X86_VENDOR_INTEL, 6, 0x55 }, true, "Intel Skylake-X (family 6 model 85)" },
			{ { X86_VENDOR_INTEL, 6, 0x8f }, false, "Intel Sapphire Rapids (family 6 model 143)" },
			{ { X86_VENDOR_INTEL, 0x19, 0x11 }, false, "Intel family 25 model 17" },
		};

		for (unsigned int i = 0; i < ARRAY_SIZE(cpus); i++) {
			bool slow;

			shim_cpu_override = &cpus[i].c;
			slow = kchacha_cpu_slow();
			shim_cpu_override = NULL;
			if (slow != cpus[i].slow)
				printf("FAIL ranking: kchacha_cpu_slow() on %s: %d, want %d\n",
				       cpus[i].what, slow, cpus[i].slow);
			check(slow == cpus[i].slow, "ranking", cpus[i].what, 0);
		}
	}
	want_fast = "avx512 avx512vl avx2 ssse3 generic";
	want_slow = "avx512vl avx2 avx512 ssse3 generic";
#else
	want_fast = "neon generic";
	want_slow = "neon generic";
#endif
	ranking(false, got, sizeof(got));
	if (strcmp(got, want_fast))
		printf("FAIL ranking: table order '%s', want '%s'\n", got,
		       want_fast);
	check(!strcmp(got, want_fast), "ranking", "the table's order", 0);
	ranking(true, got, sizeof(got));
	if (strcmp(got, want_slow))
		printf("FAIL ranking: the other order '%s', want '%s'\n", got,
		       want_slow);
	check(!strcmp(got, want_slow), "ranking", "the other order", 0);

	for (unsigned int slow = 0; slow < 2; slow++) {
		for (unsigned int i = 0; i < kchacha_nimpls; i++) {
			const struct kchacha_impl *a = &kchacha_impls[i];
			int pa = kchacha_impl_priority(a, slow);

			for (unsigned int j = 0; j < i; j++)
				check(pa != kchacha_impl_priority(&kchacha_impls[j], slow),
				      a->name, "a priority of its own", slow);
			if (!a->simd)
				continue;
#if defined(__arm__)
			if (slow) {
				check(pa > kchacha_impl_priority(&kchacha_impls[0], true) &&
				      pa < 200, a->name,
				      "on Cortex-A7/A5: between the C core and chacha20-arm (200)",
				      slow);
				continue;
			}
#endif
			check(pa > 300, a->name, "above the in-tree drivers (300)",
			      slow);
		}
	}
	printf("%s ranking\n", failed ? "FAIL" : "ok  ");
}

/*
 * The calibration (calibrate.c) on a virtual clock: four fake SIMD
 * implementations, ranked as the x86 table ranks its four, whose calls
 * move the clock on by their cost per byte times the length.  The choice
 * must follow the rule: the table's unless another, not demoted by the
 * other order, leads it by 5% or more; medians, so that one slow call
 * (an interrupt) changes nothing; every call in a SIMD section of its
 * own; at least three rounds, and no more once the time budget is gone.
 */
#define CALIB_N 4
extern __thread int kchacha_shim_in_simd;	/* test/shim: in a SIMD section */
extern __thread unsigned long kchacha_shim_usleeps;
extern unsigned long kchacha_shim_bad_resched;
static u64 calib_clock;
static u64 calib_cost[CALIB_N];		/* virtual ns per 4 bytes */
/*
 * Calls calib_slow_from..calib_slow_to (from 1) of each repetition take
 * calib_slow_factor times as long, and so does every call in a
 * repetition whose bit calib_slow_reps has (the repetition: the sleeps so
 * far).
 */
static unsigned int calib_slow_from[CALIB_N], calib_slow_to[CALIB_N];
static unsigned int calib_slow_reps[CALIB_N];
static u64 calib_slow_factor = 100;
static unsigned long calib_rep[CALIB_N];
static unsigned int calib_rep_calls[CALIB_N];
static unsigned int calib_calls[CALIB_N];
static bool calib_outside;

static void calib_run(int i, unsigned int len)
{
	u64 t = calib_cost[i] * len / 4;	/* exact: every length is 4n */

	if (!kchacha_shim_in_simd)
		calib_outside = true;
	calib_calls[i]++;
	if (calib_rep[i] != kchacha_shim_usleeps) {
		calib_rep[i] = kchacha_shim_usleeps;
		calib_rep_calls[i] = 0;
	}
	if ((++calib_rep_calls[i] >= calib_slow_from[i] &&
	     calib_rep_calls[i] <= calib_slow_to[i]) ||
	    (calib_slow_reps[i] >> kchacha_shim_usleeps & 1))
		t *= calib_slow_factor;
	calib_clock += t;
}

#define CALIB_FAKE(i)							\
	static void calib_xor##i(const u32 *state, u8 *dst, const u8 *src, \
				 unsigned int len, int nrounds)		\
	{								\
		(void)state, (void)dst, (void)src, (void)nrounds;	\
		calib_run(i, len);					\
	}
CALIB_FAKE(0)
CALIB_FAKE(1)
CALIB_FAKE(2)
CALIB_FAKE(3)

static u64 calib_now(void)
{
	return calib_clock;
}

/* ranked as ssse3, avx2, avx512vl and avx512 are */
static const struct kchacha_impl calib_impls[CALIB_N] = {
	{ .name = "c0", .priority = 310, .simd = true, .xor = calib_xor0 },
	{ .name = "c1", .priority = 320, .simd = true, .xor = calib_xor1 },
	{ .name = "c2", .priority = 325, .slow_priority = 330, .simd = true,
	  .xor = calib_xor2 },
	{ .name = "c3", .priority = 330, .slow_priority = 315, .simd = true,
	  .xor = calib_xor3 },
};

/* kchacha_calibrate() over the fakes at @cost; its choice, or -1 */
static int calib_choose(const u64 *cost, bool slow, struct kchacha_calib *c)
{
	static u8 buf[KCHACHA_SIMD_CHUNK];

	memset(c, 0, CALIB_N * sizeof(*c));
	for (int i = 0; i < CALIB_N; i++) {
		c[i].impl = &calib_impls[i];
		calib_cost[i] = cost[i];
		calib_calls[i] = calib_rep_calls[i] = calib_rep[i] = 0;
	}
	calib_outside = false;
	kchacha_shim_usleeps = 0;
	return kchacha_calibrate(c, CALIB_N, slow, calib_now, buf);
}

/* The rule, worked out here: the index the choice must be. */
static int calib_expect(const u64 *cost, bool slow)
{
	int table = slow ? 2 : 3, best = table;

	for (int i = 0; i < CALIB_N; i++) {
		if (slow && i == 3)		/* demoted: zmm, PREFER_YMM */
			continue;
		if (cost[i] < cost[best])
			best = i;
	}
	return cost[table] * 1000 / cost[best] >= 1050 ? best : table;
}

static void test_calibrate(void)
{
	static const u64 costs[CALIB_N] = { 400, 700, 1000, 1300 };
	struct kchacha_calib c[CALIB_N];
	unsigned int before = failed, orders = 0;
	char what[160];
	int perm[CALIB_N] = { 0, 1, 2, 3 };
	u64 cost[CALIB_N];

	/* each order of four speeds, both rules */
	do {
		for (int slow = 0; slow < 2; slow++) {
			int got, want;

			for (int i = 0; i < CALIB_N; i++)
				cost[i] = costs[perm[i]];
			got = calib_choose(cost, slow, c);
			want = calib_expect(cost, slow);
			snprintf(what, sizeof(what),
				 "costs %llu/%llu/%llu/%llu%s: c%d first (got c%d)",
				 (unsigned long long)cost[0],
				 (unsigned long long)cost[1],
				 (unsigned long long)cost[2],
				 (unsigned long long)cost[3],
				 slow ? ", the other order" : "", want, got);
			check(got == want, "calibrate", what, 0);
			orders++;
		}
		/* the next permutation, lexicographic */
		{
			int i = CALIB_N - 2, j = CALIB_N - 1, t;

			while (i >= 0 && perm[i] > perm[i + 1])
				i--;
			if (i < 0)
				break;
			while (perm[j] < perm[i])
				j--;
			t = perm[i], perm[i] = perm[j], perm[j] = t;
			for (i++, j = CALIB_N - 1; i < j; i++, j--)
				t = perm[i], perm[i] = perm[j], perm[j] = t;
		}
	} while (1);
	check(orders == 48, "calibrate", "48 orders tried", orders);

	/* ties, and a lead either side of 5% */
	{
		static const struct {
			u64 cost[CALIB_N];
			bool slow;
			int want;
			const char *what;
		} cases[] = {
			{ { 1000, 1000, 1000, 1000 }, false, 3, "all tied: the table's" },
			{ { 1000, 1000, 1000, 1000 }, true, 2, "all tied, the other order: the table's" },
			{ { 2000, 1000, 1049, 1049 }, false, 3, "a lead of 4.9%: the table's" },
			{ { 2000, 1000, 1050, 1050 }, false, 1, "a lead of 5%: the leader" },
			{ { 2000, 1000, 1049, 1000 }, true, 2, "the other order, a lead of 4.9%: the table's" },
			{ { 2000, 1100, 1000, 500 }, true, 2, "PREFER_YMM: zmm twice as fast is not first" },
			{ { 2000, 800, 1000, 500 }, true, 1, "PREFER_YMM: the fastest of the others is" },
			{ { 2000, 1500, 1000, 1000 }, false, 3, "zmm and ymm tied: the table's" },
		};

		for (unsigned int k = 0; k < ARRAY_SIZE(cases); k++) {
			int got = calib_choose(cases[k].cost, cases[k].slow, c);

			snprintf(what, sizeof(what), "%s: c%d (got c%d)",
				 cases[k].what, cases[k].want, got);
			check(got == cases[k].want, "calibrate", what, 0);
		}
	}

	/*
	 * One call a hundred times slow (an interrupt in it) changes no
	 * median: on the leader, its third timed call of each repetition; on
	 * the table's choice, its first.  The medians are the costs themselves.  Then
	 * slow phases: every call of the leader's in its first and third
	 * repetitions a hundred times slow, which the lowest of the
	 * repetitions' medians outlasts.
	 */
	{
		static const u64 noisy[CALIB_N] = { 20, 10, 12, 12 };
		static const u64 phase[CALIB_N] = { 4, 2, 3, 3 };
		int got;

		calib_slow_from[1] = calib_slow_to[1] = 4;
		calib_slow_from[3] = calib_slow_to[3] = 2;
		got = calib_choose(noisy, false, c);
		check(got == 1, "calibrate", "a slow call on each of two: the leader still first", 0);
		for (int s = 0; s < KCHACHA_CALIB_SIZES; s++)
			check(c[1].ns[s] == noisy[1] * kchacha_calib_len[s] / 4 &&
			      c[3].ns[s] == noisy[3] * kchacha_calib_len[s] / 4,
			      "calibrate", "a slow call: the medians are the costs",
			      kchacha_calib_len[s]);
		check(c[3].score == 1000 && c[1].score == 1200, "calibrate",
		      "scores per mille of the table's choice", c[1].score);
		calib_slow_from[1] = calib_slow_to[1] = 0;
		calib_slow_from[3] = calib_slow_to[3] = 0;
		/*
		 * every repetition but the middle one, five times slow:
		 * within the budget, so that every repetition runs
		 */
		calib_slow_reps[1] = ((1u << KCHACHA_CALIB_REPS) - 1) &
				     ~(1u << KCHACHA_CALIB_REPS / 2);
		calib_slow_factor = 5;
		got = calib_choose(phase, false, c);
		check(got == 1 && c[1].ns[2] == phase[1] * 4096 / 4 &&
		      kchacha_shim_usleeps == KCHACHA_CALIB_REPS - 1, "calibrate",
		      "the leader slow in every repetition but one: still first, its time that one's",
		      c[1].ns[2]);
		calib_slow_reps[1] = 0;
		calib_slow_factor = 100;
	}
	check(!calib_outside, "calibrate", "every call in a SIMD section", 0);

	/*
	 * rounds: all of them, in every repetition, on a fast CPU; on a slow
	 * one, where the budget is gone in the first, its three and no other
	 */
	{
		static const u64 fast[CALIB_N] = { 4, 3, 2, 1 };
		static const u64 slow[CALIB_N] = { 4000, 3000, 2000, 1000 };
		unsigned int calls = 0;

		calib_choose(fast, false, c);
		for (int i = 0; i < CALIB_N; i++)
			calls += calib_calls[i];
		check(calls == CALIB_N * KCHACHA_CALIB_REPS *
			       (1 + KCHACHA_CALIB_SIZES * KCHACHA_CALIB_ROUNDS),
		      "calibrate", "each repetition a warm-up and every round on a fast CPU", calls);
		check(kchacha_shim_usleeps == KCHACHA_CALIB_REPS - 1 && !kchacha_shim_bad_resched,
		      "calibrate", "a sleep between repetitions, where it may sleep",
		      kchacha_shim_usleeps);
		calls = 0;
		calib_choose(slow, false, c);
		for (int i = 0; i < CALIB_N; i++)
			calls += calib_calls[i];
		check(calls == CALIB_N * (1 + KCHACHA_CALIB_SIZES * 3) &&
		      !kchacha_shim_usleeps,
		      "calibrate", "one repetition of three rounds once the budget is gone", calls);
	}
	printf("%s calibrate\n", failed == before ? "ok  " : "FAIL");
}

/* Every test of one implementation; @how names a variant of it. */
static void test_all(const struct kchacha_impl *impl, const char *how)
{
	unsigned int before = failed;

	test_impl(impl);
	if (impl->simd) {
		test_vs_core(impl);
		test_abi(impl);
		test_stack_align(impl);
	}
#ifdef __aarch64__
	if (impl->simd)
		test_neon_wipe(impl);
#endif
	printf("%s %s%s\n", failed == before ? "ok  " : "FAIL", impl->name,
	       how);
}

int main(int argc, char **argv)
{
	/* --quick: the C core only (the build under ASan and UBSan) */
	bool quick = argc > 1 && !strcmp(argv[1], "--quick");

	src_buf = malloc(MAXLEN + 128);
	dst_buf = malloc(MAXLEN + 128);
	ref_buf = malloc(MAXLEN + 128);
	if (!src_buf || !dst_buf || !ref_buf)
		return 2;

	test_reference();
	test_ranking();
	test_calibrate();
	for (unsigned int i = 0; i < (quick ? 1 : kchacha_nimpls); i++) {
		const struct kchacha_impl *impl = &kchacha_impls[i];

		if (impl->cpu_ok && !impl->cpu_ok()) {
			printf("SKIP %s: this CPU lacks the instructions it needs\n",
			       impl->name);
			skipped++;
			continue;
		}
#if defined(__x86_64__)
		/* the zmm driver with each entry for requests over 1 KiB */
		if (impl->xor == kchacha_avx512_entry) {
			kchacha_avx512_z32 = 0;
			test_all(impl, "");
			kchacha_avx512_z32 = 1;
			test_all(impl, " (kchacha_avx512_z32_xor)");
			kchacha_avx512_z32 = -1;
			continue;
		}
#endif
		test_all(impl, "");
	}
	printf("unit: %u passed, %u failed, %u skipped\n", passed, failed,
	       skipped);
	return failed ? 1 : 0;
}
