// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space tests of every implementation in kchacha_impls[] the CPU
 * supports: the module's own self-test, then each implementation and the
 * dispatcher against an independent reference (ref.h) over every length
 * 0..4096, random lengths up to 1 MiB, every src/dst misalignment 0..63,
 * in place and out of place, counters crossing 2^32, 20, 12 and 8 rounds,
 * buffers against guard pages, HChaCha and XChaCha; and against the C core,
 * every length 0..2100 (SIMD implementations) and byte by byte.  On arm64,
 * that no NEON register the kernel saved in a section's buffer outlives it.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __aarch64__
#include <ucontext.h>
#endif

#include "test/shim/linux/types.h"
#include "test/shim/crypto/internal/simd.h"
#include "kchacha.h"
#include "test/unit/ref.h"

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
 * kchacha_rng_selftest() of @impl itself.
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
	if (how == -2)
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

/* one byte wrong in every refill of an rng CPU buffer (512 bytes) */
static void rng_broken_xor(const u32 *state, u8 *dst, const u8 *src,
			   unsigned int len, int nrounds)
{
	rng_broken_base->xor(state, dst, src, len, nrounds);
	if (len == 512)
		dst[100] ^= 1;
}

static void test_selftest_fails(const struct kchacha_impl *impl)
{
	unsigned int max = 2 * impl->batch * 64 + 1;
	struct kchacha_impl copy = *impl;
	char log[512], want[5][96];
	int err;

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
 * one of 65 bytes or more to the SIMD code (README.md, "Speed"); where SIMD
 * is not usable, XChaCha's HChaCha does not enter a SIMD section either.
 */
static void test_routing(const struct kchacha_impl *impl)
{
	u8 key[32], iv[32];
	u32 w[8], state[16];
	unsigned long before;
	bool c_only = true, simd = true;
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

	kchacha_shim_simd_usable = false;
	before = kchacha_shim_simd_sections;
	kchacha_xchacha_init(impl, state, w, iv, 20);
	kchacha_crypt(impl, state, dst_buf, src_buf, 200, 20);
	check(kchacha_shim_simd_sections == before, impl->name,
	      "XChaCha with SIMD not usable: no SIMD section, HChaCha included",
	      200);
	kchacha_shim_simd_usable = true;
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
	if (impl->simd)
		test_routing(impl);
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
		if (impl->hchacha)
			impl->hchacha(state, out, rounds[r]);
		else
			kchacha_generic_hchacha(state, out, rounds[r]);
		ref_hchacha(key, iv, rounds[r], a);
		check(!memcmp(out, a, 32), impl->name, "HChaCha", 32);

		/* XChaCha through the table's HChaCha and the dispatcher */
		fill(iv, 32);
		len = 1000 + rnd() % 5000;
		fill(src_buf, len);
		ref_xchacha(key, iv, rounds[r], ref_buf, src_buf, len);
		kchacha_xchacha_init(impl, state, w, iv, rounds[r]);
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
	kchacha_xchacha_init(wipe_impl, state, w, iv, 20);
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

int main(void)
{
	src_buf = malloc(MAXLEN + 128);
	dst_buf = malloc(MAXLEN + 128);
	ref_buf = malloc(MAXLEN + 128);
	if (!src_buf || !dst_buf || !ref_buf)
		return 2;

	test_reference();
	for (unsigned int i = 0; i < kchacha_nimpls; i++) {
		const struct kchacha_impl *impl = &kchacha_impls[i];
		unsigned int before = failed;

		if (impl->cpu_ok && !impl->cpu_ok()) {
			printf("SKIP %s: this CPU lacks the instructions it needs\n",
			       impl->name);
			skipped++;
			continue;
		}
		test_impl(impl);
		if (impl->simd)
			test_vs_core(impl);
#ifdef __aarch64__
		if (impl->simd)
			test_neon_wipe(impl);
#endif
		printf("%s %s\n", failed == before ? "ok  " : "FAIL", impl->name);
	}
	printf("unit: %u passed, %u failed, %u skipped\n", passed, failed,
	       skipped);
	return failed ? 1 : 0;
}
