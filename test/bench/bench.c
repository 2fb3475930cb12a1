// SPDX-License-Identifier: GPL-2.0-only
/*
 * `make bench`: kchacha's implementations against OpenSSL, libsodium and
 * libgcrypt, in one process, on one CPU.
 *
 * Built from the same objects as the unit tests (test/unit/Makefile): the C
 * core, the implementation table and the .S files, through test/shim.  Each
 * kchacha implementation the CPU supports is timed as the kernel runs a
 * request: a fresh kchacha_init_state() from the key words and the 16-byte
 * IV, then kchacha_crypt(), which splits SIMD work into 4 KiB sections.
 *
 * Method: the program pins itself to one CPU (CPU 1 if it may run there),
 * checks every row before timing it (ChaCha20 rows against the RFC 8439
 * 2.4.2 vector; a wrong row aborts the run), calibrates a batch size per
 * (row, size) cell, then runs R rounds; round r times one batch of every
 * cell, sizes outer, rows inner, so that every row sees the same machine
 * noise.  A batch is timed on the thread's CPU-time clock, which stops
 * while other processes have the CPU (-w: on the wall clock).  A cell's
 * figure is the median over the rounds.  MB/s means 10^6 bytes per second
 * of CPU time.  The machine is shared: compare ratios within one run, not
 * absolute figures across runs.
 *
 * Output: a table on stdout (MB/s, then the ratio to each anchor row of the
 * group), <dir>/bench.csv ("impl,bytes,mbps", every group) and, for
 * gnuplot, <dir>/bench-<group>.dat (one index block per row; see
 * test/bench/plot.gp and test/bench/run).
 *
 * Adding rows: rows come in groups (struct bench_group, groups[] below),
 * each with its own list of sizes, its anchors for the ratio tables and an
 * add_rows() function that appends its rows with add_row(group, name, ops,
 * arg).  A row is a struct bench_ops: setup() (state into row->ctx; nonzero
 * leaves the row out), check() (nonzero aborts the run), run() (one message
 * or call of len bytes at buf), and optional rewind() (untimed, before every
 * batch) and teardown().  So a new kind of row is one bench_ops per row
 * kind, one add_rows() function and one groups[] entry; the timing, the
 * tables, the csv and the plot follow by themselves.  The rng group
 * ("kchacha-rng-<impl>", "getrandom", "arc4random", "openssl-rand" at 4..4096
 * bytes per call) is one, with its targets printed after the tables.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <gcrypt.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sodium.h>

#include "test/shim/linux/types.h"
#include "kchacha.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_ROWS	32
#define MIN_ROUNDS	7

struct bench_row;

struct bench_ops {
	const char *name;	/* the row's name where the table names it */
	int (*setup)(struct bench_row *row);
	int (*check)(struct bench_row *row);
	void (*run)(struct bench_row *row, u8 *buf, size_t len);
	void (*rewind)(struct bench_row *row);
	void (*teardown)(struct bench_row *row);
};

struct bench_row {
	char name[40];
	const struct bench_ops *ops;
	const void *arg;	/* add_row()'s argument, e.g. a kchacha_impl */
	void *ctx;		/* setup()'s state */
	unsigned long *iters;	/* per size: calls per batch */
	double *mbps;		/* per size, per round */
	double *median;		/* per size */
	double *spread;		/* per size: interquartile range / median */
};

struct bench_group {
	const char *name;	/* "cipher": <dir>/bench-cipher.dat */
	const char *title;
	const size_t *sizes;
	unsigned int nsizes;
	const char *const *anchors;	/* ratio tables, NULL-terminated */
	void (*add_rows)(struct bench_group *group);
	struct bench_row rows[MAX_ROWS];
	unsigned int nrows;
};

static __attribute__((noreturn, format(printf, 1, 2)))
void die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("bench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		die("out of memory");
	return p;
}

static void add_row(struct bench_group *group, const char *name,
		    const struct bench_ops *ops, const void *arg)
{
	struct bench_row *row;

	if (group->nrows == MAX_ROWS)
		die("%s: more than %d rows", group->name, MAX_ROWS);
	row = &group->rows[group->nrows];
	snprintf(row->name, sizeof(row->name), "%s", name);
	row->ops = ops;
	row->arg = arg;
	if (ops->setup && ops->setup(row)) {
		printf("  %-20s left out (see above)\n", row->name);
		return;
	}
	if (ops->check && ops->check(row))
		die("%s gives wrong output: not timing it", row->name);
	group->nrows++;
}

/*
 * ChaCha20 encryption: every row keys with the RFC 8439 2.4.2 key and IV
 * (block counter 1, nonce 00:00:00:00:00:00:00:4a:00:00:00:00), passes the
 * known-answer check on the first message, and then encrypts in place.
 */

static const u8 rfc_key[32] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
};

/* The kernel's and OpenSSL's 16-byte IV: LE32 counter, then the nonce. */
static const u8 rfc_iv[16] = {
	0x01, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4a, 0x00, 0x00, 0x00, 0x00,
};

static const char rfc_ptext[] =
	"Ladies and Gentlemen of the class of '99: If I could offer you "
	"only one tip for the future, sunscreen would be it.";

static const u8 rfc_ctext[114] = {
	0x6e, 0x2e, 0x35, 0x9a, 0x25, 0x68, 0xf9, 0x80,
	0x41, 0xba, 0x07, 0x28, 0xdd, 0x0d, 0x69, 0x81,
	0xe9, 0x7e, 0x7a, 0xec, 0x1d, 0x43, 0x60, 0xc2,
	0x0a, 0x27, 0xaf, 0xcc, 0xfd, 0x9f, 0xae, 0x0b,
	0xf9, 0x1b, 0x65, 0xc5, 0x52, 0x47, 0x33, 0xab,
	0x8f, 0x59, 0x3d, 0xab, 0xcd, 0x62, 0xb3, 0x57,
	0x16, 0x39, 0xd6, 0x24, 0xe6, 0x51, 0x52, 0xab,
	0x8f, 0x53, 0x0c, 0x35, 0x9f, 0x08, 0x61, 0xd8,
	0x07, 0xca, 0x0d, 0xbf, 0x50, 0x0d, 0x6a, 0x61,
	0x56, 0xa3, 0x8e, 0x08, 0x8a, 0x22, 0xb6, 0x5e,
	0x52, 0xbc, 0x51, 0x4d, 0x16, 0xcc, 0xf8, 0x06,
	0x81, 0x8c, 0xe9, 0x1a, 0xb7, 0x79, 0x37, 0x36,
	0x5a, 0xf9, 0x0b, 0xbf, 0x74, 0xa3, 0x5b, 0xe6,
	0xb4, 0x0b, 0x8e, 0xed, 0xf2, 0x78, 0x5e, 0x42,
	0x87, 0x4d,
};

_Static_assert(sizeof(rfc_ptext) - 1 == sizeof(rfc_ctext),
	       "RFC 8439 2.4.2: 114 bytes");

static int cipher_check(struct bench_row *row)
{
	u8 buf[sizeof(rfc_ctext)];

	memcpy(buf, rfc_ptext, sizeof(buf));
	row->ops->run(row, buf, sizeof(buf));
	if (row->ops->rewind)
		row->ops->rewind(row);
	return memcmp(buf, rfc_ctext, sizeof(buf)) ? -1 : 0;
}

/* kchacha-<impl>: a fresh state per message, as the skcipher per request. */
struct kchacha_ctx {
	const struct kchacha_impl *impl;
	u32 key[8];		/* the tfm context: the key as LE words */
	u8 iv[16];
};

static int kchacha_setup(struct bench_row *row)
{
	const struct kchacha_impl *impl = row->arg;
	struct kchacha_ctx *c = xcalloc(1, sizeof(*c));
	int i;

	c->impl = impl;
	for (i = 0; i < 8; i++)
		c->key[i] = (u32)rfc_key[4 * i] | (u32)rfc_key[4 * i + 1] << 8 |
			    (u32)rfc_key[4 * i + 2] << 16 |
			    (u32)rfc_key[4 * i + 3] << 24;
	memcpy(c->iv, rfc_iv, sizeof(c->iv));
	row->ctx = c;
	return 0;
}

static int kchacha_check(struct bench_row *row)
{
	const struct kchacha_impl *impl = row->arg;

	if (kchacha_selftest(impl)) {
		printf("  %-20s fails the module's self-test\n", row->name);
		return -1;
	}
	return cipher_check(row);
}

static void kchacha_run(struct bench_row *row, u8 *buf, size_t len)
{
	struct kchacha_ctx *c = row->ctx;
	u32 state[KCHACHA_STATE_WORDS];

	kchacha_init_state(state, c->key, c->iv);
	kchacha_crypt(c->impl, state, buf, buf, len, 20);
}

static void free_ctx(struct bench_row *row)
{
	free(row->ctx);
}

static const struct bench_ops kchacha_ops = {
	.setup		= kchacha_setup,
	.check		= kchacha_check,
	.run		= kchacha_run,
	.teardown	= free_ctx,
};

/*
 * openssl: EVP_chacha20 keyed once; the stream continues from message to
 * message.  Each batch restarts it at block 1 (untimed) so that messages of
 * whole blocks stay block-aligned.
 */
static int ossl_setup(struct bench_row *row)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();

	if (!c || EVP_EncryptInit_ex(c, EVP_chacha20(), NULL, rfc_key,
				     rfc_iv) != 1)
		die("%s: EVP_EncryptInit_ex failed", row->name);
	row->ctx = c;
	return 0;
}

static void ossl_run(struct bench_row *row, u8 *buf, size_t len)
{
	int outl;

	if (EVP_EncryptUpdate(row->ctx, buf, &outl, buf, len) != 1)
		die("%s: EVP_EncryptUpdate failed", row->name);
}

static void ossl_rewind(struct bench_row *row)
{
	if (EVP_EncryptInit_ex(row->ctx, NULL, NULL, rfc_key, rfc_iv) != 1)
		die("%s: EVP_EncryptInit_ex failed", row->name);
}

/* openssl-rekey: key and IV set per message, as the kernel sets its IV. */
static void ossl_rekey_run(struct bench_row *row, u8 *buf, size_t len)
{
	int outl;

	if (EVP_EncryptInit_ex(row->ctx, NULL, NULL, rfc_key, rfc_iv) != 1 ||
	    EVP_EncryptUpdate(row->ctx, buf, &outl, buf, len) != 1)
		die("%s: EVP failed", row->name);
}

static void ossl_teardown(struct bench_row *row)
{
	EVP_CIPHER_CTX_free(row->ctx);
}

/* libsodium: stateless, key, nonce and counter on every call. */
static void sodium_run(struct bench_row *row, u8 *buf, size_t len)
{
	(void)row;
	crypto_stream_chacha20_ietf_xor_ic(buf, buf, len, rfc_iv + 4, 1,
					   rfc_key);
}

/* libgcrypt: one handle; setkey and setiv per message. */
static int gcry_setup(struct bench_row *row)
{
	gcry_cipher_hd_t h;
	gcry_error_t err;

	err = gcry_cipher_open(&h, GCRY_CIPHER_CHACHA20,
			       GCRY_CIPHER_MODE_STREAM, 0);
	if (err)
		die("%s: gcry_cipher_open: %s", row->name, gcry_strerror(err));
	row->ctx = h;
	return 0;
}

static void gcry_run(struct bench_row *row, u8 *buf, size_t len)
{
	gcry_cipher_hd_t h = row->ctx;
	gcry_error_t err;

	err = gcry_cipher_setkey(h, rfc_key, sizeof(rfc_key));
	if (!err)
		err = gcry_cipher_setiv(h, rfc_iv, sizeof(rfc_iv));
	if (!err)
		err = gcry_cipher_encrypt(h, buf, len, NULL, 0);
	if (err)
		die("%s: %s", row->name, gcry_strerror(err));
}

static void gcry_teardown(struct bench_row *row)
{
	gcry_cipher_close(row->ctx);
}

static const struct bench_ops cipher_anchor_ops[] = {
	{
		.name		= "openssl",
		.setup		= ossl_setup,
		.check		= cipher_check,
		.run		= ossl_run,
		.rewind		= ossl_rewind,
		.teardown	= ossl_teardown,
	}, {
		.name		= "openssl-rekey",
		.setup		= ossl_setup,
		.check		= cipher_check,
		.run		= ossl_rekey_run,
		.teardown	= ossl_teardown,
	}, {
		.name		= "libsodium",
		.check		= cipher_check,
		.run		= sodium_run,
	}, {
		.name		= "libgcrypt",
		.setup		= gcry_setup,
		.check		= cipher_check,
		.run		= gcry_run,
		.teardown	= gcry_teardown,
	},
};

#ifdef KCHACHA_BENCH_LINUX
/*
 * linux-<impl>: the kernel's own x86 ChaCha assembly (Linux 6.1,
 * arch/x86/crypto, extracted and assembled by test/bench/Makefile), driven
 * as the in-tree skcipher drives it: a fresh state per message, then, per
 * section of at most 4 KiB (one skcipher walk step), the length ladder of
 * chacha_glue.c's chacha_dosimd() for the widest level the row stands for.
 * Like the in-tree skcipher, and unlike its library interface, it takes
 * even one block through SIMD.
 */
/* The one signature of all of them. */
typedef void linux_xor_fn(u32 *state, u8 *dst, const u8 *src,
			  unsigned int len, int nrounds);

linux_xor_fn chacha_block_xor_ssse3, chacha_4block_xor_ssse3,
	     chacha_2block_xor_avx2, chacha_4block_xor_avx2,
	     chacha_8block_xor_avx2, chacha_2block_xor_avx512vl,
	     chacha_4block_xor_avx512vl, chacha_8block_xor_avx512vl;

/*
 * One level of the ladder: whole passes of @max blocks, then the narrowest
 * of @fn[] (2, 4, 8 blocks; NULL where the level has none) that takes what
 * is left.  @one takes a last single block, or NULL to leave it to the
 * level below.  Returns the bytes left for the level below.
 */
struct linux_level {
	linux_xor_fn *fn2, *fn4, *fn8, *one;
	unsigned int max;
};

static const struct linux_level linux_ssse3 = {
	.fn4 = chacha_4block_xor_ssse3, .one = chacha_block_xor_ssse3, .max = 4,
};

static const struct linux_level linux_avx2 = {
	.fn2 = chacha_2block_xor_avx2, .fn4 = chacha_4block_xor_avx2,
	.fn8 = chacha_8block_xor_avx2, .max = 8,
};

static const struct linux_level linux_avx512vl = {
	.fn2 = chacha_2block_xor_avx512vl, .fn4 = chacha_4block_xor_avx512vl,
	.fn8 = chacha_8block_xor_avx512vl, .one = chacha_2block_xor_avx512vl,
	.max = 8,
};

static unsigned int linux_blocks(unsigned int len, unsigned int max)
{
	if (len > max * KCHACHA_BLOCK_SIZE)
		len = max * KCHACHA_BLOCK_SIZE;
	return (len + KCHACHA_BLOCK_SIZE - 1) / KCHACHA_BLOCK_SIZE;
}

/* Returns the bytes left at the end of @buf for the level below. */
static unsigned int linux_level_run(const struct linux_level *l, u32 *state,
				    u8 *buf, unsigned int len)
{
	const unsigned int bs = KCHACHA_BLOCK_SIZE;
	linux_xor_fn *widest = l->max == 8 ? l->fn8 : l->fn4;
	linux_xor_fn *fn = NULL;

	while (len >= l->max * bs) {
		widest(state, buf, buf, len, 20);
		state[12] += l->max;
		buf += l->max * bs;
		len -= l->max * bs;
	}
	if (l->max == 8 && len > 4 * bs)
		fn = l->fn8;
	else if (len > 2 * bs)
		fn = l->fn4;
	else if (len > bs && l->fn2)
		fn = l->fn2;
	else if (len > bs)
		fn = l->fn4;
	else if (len)
		fn = l->one;
	if (!fn)
		return len;
	fn(state, buf, buf, len, 20);
	state[12] += fn == l->one && fn != l->fn2 ? 1 :
		     linux_blocks(len, fn == l->fn8 ? 8 : fn == l->fn4 ? 4 : 2);
	return 0;
}

struct linux_ctx {
	const struct linux_level *levels[3];	/* widest first, NULL-ended */
	u32 key[8];
	u8 iv[16];
};

static const struct linux_level *const linux_rows_levels[][3] = {
	{ &linux_ssse3 },
	{ &linux_avx2, &linux_ssse3 },
	{ &linux_avx512vl },
};

static const char *const linux_rows_names[] = {
	"linux-ssse3", "linux-avx2", "linux-avx512vl",
};

/* The kchacha implementation whose CPU test stands for each row's. */
static const char *const linux_rows_impls[] = { "ssse3", "avx2", "avx512" };

static int linux_setup(struct bench_row *row)
{
	const struct linux_level *const *levels = row->arg;
	struct linux_ctx *c = xcalloc(1, sizeof(*c));
	int i;

	memcpy(c->levels, levels, sizeof(c->levels));
	for (i = 0; i < 8; i++)
		c->key[i] = (u32)rfc_key[4 * i] | (u32)rfc_key[4 * i + 1] << 8 |
			    (u32)rfc_key[4 * i + 2] << 16 |
			    (u32)rfc_key[4 * i + 3] << 24;
	memcpy(c->iv, rfc_iv, sizeof(c->iv));
	row->ctx = c;
	return 0;
}

/*
 * The shim's SIMD section bookkeeping (test/shim/asm/fpu/api.h), which
 * kchacha's rows pay through kchacha_crypt(): the same for these rows.
 */
extern bool kchacha_shim_simd_usable;
extern __thread unsigned long kchacha_shim_simd_sections;
extern __thread int kchacha_shim_in_simd;

static void linux_run(struct bench_row *row, u8 *buf, size_t len)
{
	struct linux_ctx *c = row->ctx;
	u32 state[KCHACHA_STATE_WORDS];

	kchacha_init_state(state, c->key, c->iv);
	while (len) {
		unsigned int n = len < 4096 ? len : 4096, left = n, i;

		if (!kchacha_shim_simd_usable || kchacha_shim_in_simd++)
			abort();
		kchacha_shim_simd_sections++;
		for (i = 0; left && c->levels[i]; i++)
			left = linux_level_run(c->levels[i], state,
					       buf + n - left, left);
		if (--kchacha_shim_in_simd)
			abort();
		buf += n;
		len -= n;
	}
}

static const struct bench_ops linux_ops = {
	.setup		= linux_setup,
	.check		= cipher_check,
	.run		= linux_run,
	.teardown	= free_ctx,
};

static void linux_rows(struct bench_group *group)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(linux_rows_names); i++) {
		const struct kchacha_impl *impl = NULL;

		for (j = 0; j < kchacha_nimpls; j++)
			if (!strcmp(kchacha_impls[j].name, linux_rows_impls[i]))
				impl = &kchacha_impls[j];
		if (!impl || (impl->cpu_ok && !impl->cpu_ok())) {
			printf("  %-20s skipped: this machine has no %s\n",
			       linux_rows_names[i], linux_rows_impls[i]);
			continue;
		}
		add_row(group, linux_rows_names[i], &linux_ops,
			linux_rows_levels[i]);
	}
}
#else
static void linux_rows(struct bench_group *group)
{
	(void)group;
	printf("  %-20s left out: built without linux-source-6.1 (x86_64 only)\n",
	       "linux-*");
}
#endif

/*
 * base-<impl>: an earlier commit's core of the same implementation, built
 * in by `make bench BASE=<commit>` (test/bench/base): today's table entry
 * with the base's function of the same name as its xor, run through
 * today's kchacha_crypt().
 */
extern const struct {
	void (*today)(void);
	void (*base)(void);
} kchacha_base_fns[] __attribute__((weak));
extern const char kchacha_base_commit[] __attribute__((weak));
static struct kchacha_impl base_impls[16];

static const struct kchacha_impl *base_impl(const struct kchacha_impl *impl)
{
	void (*today)(void) = (void (*)(void))impl->xor;
	unsigned int i;

#if defined(__x86_64__)
	/*
	 * The zmm driver's xor is chacha_core.c's dispatch of nine blocks
	 * (kchacha_avx512_entry()) around the assembly entry: the base's
	 * entry, which chose for itself then, pairs with it.
	 */
	if (impl->xor == kchacha_avx512_entry)
		today = (void (*)(void))kchacha_avx512_xor;
#endif
	for (i = 0; kchacha_base_fns && kchacha_base_fns[i].today; i++) {
		struct kchacha_impl *b = &base_impls[impl - kchacha_impls];

		if (kchacha_base_fns[i].today != today)
			continue;
		*b = *impl;
		b->xor = (kchacha_xor_fn)kchacha_base_fns[i].base;
		return b;
	}
	return NULL;
}

/* kchacha_impls[] decides which kchacha rows exist. */
static void cipher_rows(struct bench_group *group)
{
	char name[40];
	unsigned int i;

	for (i = 0; i < kchacha_nimpls; i++) {
		const struct kchacha_impl *impl = &kchacha_impls[i], *base;

		snprintf(name, sizeof(name), "kchacha-%s", impl->name);
		if (impl->cpu_ok && !impl->cpu_ok()) {
			printf("  %-20s left out: this CPU lacks it\n", name);
			continue;
		}
		add_row(group, name, &kchacha_ops, impl);
		if (i >= ARRAY_SIZE(base_impls) || !(base = base_impl(impl)))
			continue;
		snprintf(name, sizeof(name), "base-%s", impl->name);
		add_row(group, name, &kchacha_ops, base);
	}
	if (kchacha_base_commit)
		printf("  base-<impl>: the cores of %s (BASE=)\n",
		       kchacha_base_commit);
	linux_rows(group);
	for (i = 0; i < ARRAY_SIZE(cipher_anchor_ops); i++)
		add_row(group, cipher_anchor_ops[i].name, &cipher_anchor_ops[i],
			NULL);
}

static const size_t cipher_sizes[] = {
	16, 64, 256, 576, 1420, 4096, 16384, 65536, 1048576,
};

static const char *const cipher_anchors[] = {
	"openssl", "openssl-rekey", NULL,
};

/*
 * The rng: kchacha-rng-<impl> is generate() of a non-deterministic
 * instance (kchacha_rng_alloc(), the code behind the module's tfm, kept
 * across calls as a tfm is), against getrandom(2), glibc's
 * arc4random_buf() and OpenSSL's RAND_bytes(), at the sizes most callers
 * ask for.  Every row must give two different 64-byte outputs, neither all
 * zero; kchacha's must also pass the module's rng self-test.
 */
static int rng_check(struct bench_row *row)
{
	static const u8 zero[64];
	u8 a[64], b[64];

	row->ops->run(row, a, sizeof(a));
	row->ops->run(row, b, sizeof(b));
	return !memcmp(a, b, sizeof(a)) || !memcmp(a, zero, sizeof(a)) ?
	       -1 : 0;
}

/*
 * base-rng-<impl>: the same for the rng.c of an earlier commit, linked in
 * by test/bench/Makefile when asked for (RNG_BASE=<commit>), its symbols
 * renamed.
 */
struct kchacha_rng *kchacha_rngbase_alloc(const struct kchacha_impl *impl,
					  bool fixed) __attribute__((weak));
void kchacha_rngbase_free(struct kchacha_rng *rng) __attribute__((weak));
int kchacha_rngbase_generate(struct kchacha_rng *rng, const u8 *src,
			     unsigned int slen, u8 *dst, unsigned int dlen)
	__attribute__((weak));
int kchacha_rngbase_selftest(const struct kchacha_impl *impl)
	__attribute__((weak));

/*
 * The rows of one rng.c, kchacha's or the base: its ops, then what their
 * setup and teardown call.  run() calls its generate() directly, so that
 * the timed path has no call the rng.c itself would not make.
 */
struct rng_ops {
	struct bench_ops ops;
	void *(*alloc)(const struct kchacha_impl *impl);
	void (*free)(void *rng);
	int (*selftest)(const struct kchacha_impl *impl);
	const char *selftest_fails;	/* the line when selftest() fails */
};

static const struct rng_ops *rng_ops_of(const struct bench_row *row)
{
	return (const struct rng_ops *)((const char *)row->ops -
					offsetof(struct rng_ops, ops));
}

static int rng_setup(struct bench_row *row)
{
	const struct rng_ops *rng = rng_ops_of(row);
	const struct kchacha_impl *impl = row->arg;

	if (rng->selftest(impl)) {
		printf("  %-20s %s\n", row->name, rng->selftest_fails);
		return -1;
	}
	row->ctx = rng->alloc(impl);
	if (!row->ctx)
		die("%s: out of memory", row->name);
	return 0;
}

static void rng_teardown(struct bench_row *row)
{
	rng_ops_of(row)->free(row->ctx);
}

/*
 * kchacha's: rng.c's only interface is its rng_alg, so a tfm of it, made
 * and called through test/shim's crypto API (test/shim/shim_rng.c).
 */
struct crypto_rng;
struct crypto_rng *kchacha_shim_rng_new(const struct kchacha_impl *impl);
void kchacha_shim_rng_free(struct crypto_rng *tfm);
int kchacha_shim_rng_generate(struct crypto_rng *tfm, const u8 *src,
			      unsigned int slen, u8 *dst, unsigned int dlen);

static void kchacha_rng_run(struct bench_row *row, u8 *buf, size_t len)
{
	kchacha_shim_rng_generate(row->ctx, NULL, 0, buf, len);
}

/* the base's instances took a "deterministic" flag */
static void *base_rng_alloc(const struct kchacha_impl *impl)
{
	return kchacha_rngbase_alloc(impl, false);
}

static void base_rng_free(void *rng)
{
	kchacha_rngbase_free(rng);
}

static int base_rng_selftest(const struct kchacha_impl *impl)
{
	return kchacha_rngbase_selftest(impl);
}

static void *kchacha_rng_alloc(const struct kchacha_impl *impl)
{
	return kchacha_shim_rng_new(impl);
}

static void kchacha_rng_free(void *rng)
{
	kchacha_shim_rng_free(rng);
}

static void base_rng_run(struct bench_row *row, u8 *buf, size_t len)
{
	kchacha_rngbase_generate(row->ctx, NULL, 0, buf, len);
}

/* The rows of the rng.c whose functions are @pfx_alloc() etc. */
#define RNG_OPS(pfx, run_fn, fails) {				\
	.ops = {						\
		.setup		= rng_setup,			\
		.check		= rng_check,			\
		.run		= run_fn,			\
		.teardown	= rng_teardown,			\
	},							\
	.alloc		= pfx##_alloc,				\
	.free		= pfx##_free,				\
	.selftest	= pfx##_selftest,			\
	.selftest_fails	= fails,				\
}

static const struct rng_ops kchacha_rng_ops =
	RNG_OPS(kchacha_rng, kchacha_rng_run,
		"fails the module's rng self-test");
static const struct rng_ops base_rng_ops =
	RNG_OPS(base_rng, base_rng_run, "fails its rng self-test");

static void getrandom_run(struct bench_row *row, u8 *buf, size_t len)
{
	while (len) {
		ssize_t n = getrandom(buf, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("%s: getrandom: %s", row->name, strerror(errno));
		}
		buf += n;
		len -= n;
	}
}

#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 36)
static void arc4random_run(struct bench_row *row, u8 *buf, size_t len)
{
	(void)row;
	arc4random_buf(buf, len);
}
#else
static int arc4random_setup(struct bench_row *row)
{
	printf("  %-20s left out: glibc before 2.36 has no arc4random_buf\n",
	       row->name);
	return -1;
}
#endif

static void ossl_rand_run(struct bench_row *row, u8 *buf, size_t len)
{
	if (RAND_bytes(buf, len) != 1)
		die("%s: RAND_bytes failed", row->name);
}

static const struct bench_ops rng_anchor_ops[] = {
	{
		.name		= "getrandom",
		.check		= rng_check,
		.run		= getrandom_run,
	}, {
		.name		= "arc4random",
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 36)
		.check		= rng_check,
		.run		= arc4random_run,
#else
		.setup		= arc4random_setup,
#endif
	}, {
		.name		= "openssl-rand",
		.check		= rng_check,
		.run		= ossl_rand_run,
	},
};

static void rng_rows(struct bench_group *group)
{
	char name[40];
	unsigned int i;

	for (i = 0; i < kchacha_nimpls; i++) {
		const struct kchacha_impl *impl = &kchacha_impls[i];

		snprintf(name, sizeof(name), "kchacha-rng-%s", impl->name);
		if (impl->cpu_ok && !impl->cpu_ok()) {
			printf("  %-20s left out: this CPU lacks it\n", name);
			continue;
		}
		add_row(group, name, &kchacha_rng_ops.ops, impl);
		if (kchacha_rngbase_alloc) {
			snprintf(name, sizeof(name), "base-rng-%s", impl->name);
			add_row(group, name, &base_rng_ops.ops, impl);
		}
	}
	for (i = 0; i < ARRAY_SIZE(rng_anchor_ops); i++)
		add_row(group, rng_anchor_ops[i].name, &rng_anchor_ops[i],
			NULL);
}

static const size_t rng_sizes[] = {
	4, 16, 32, 64, 128, 256, 4096,
};

static const char *const rng_anchors[] = {
	"getrandom", NULL,
};

static struct bench_group groups[] = {
	{
		.name		= "cipher",
		.title		= "ChaCha20 encryption, in place, MB/s by message size",
		.sizes		= cipher_sizes,
		.nsizes		= ARRAY_SIZE(cipher_sizes),
		.anchors	= cipher_anchors,
		.add_rows	= cipher_rows,
	}, {
		.name		= "rng",
		.title		= "random bytes, MB/s by bytes per call",
		.sizes		= rng_sizes,
		.nsizes		= ARRAY_SIZE(rng_sizes),
		.anchors	= rng_anchors,
		.add_rows	= rng_rows,
	},
};

/* Timing */

static double clock_now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void)
{
	return clock_now(CLOCK_MONOTONIC);
}

/* What a batch is timed on: the thread's CPU time unless -w. */
static clockid_t batch_clock = CLOCK_THREAD_CPUTIME_ID;

static double time_batch(struct bench_row *row, u8 *buf, size_t len,
			 unsigned long n)
{
	double t0;

	if (row->ops->rewind)
		row->ops->rewind(row);
	t0 = clock_now(batch_clock);
	while (n--)
		row->ops->run(row, buf, len);
	return clock_now(batch_clock) - t0;
}

/* Calls per batch so that one batch takes about @target seconds. */
static unsigned long calibrate(struct bench_row *row, u8 *buf, size_t len,
			       double target)
{
	unsigned long n = 1;
	double t;

	row->ops->run(row, buf, len);	/* warm caches and lazy set-up */
	for (;;) {
		t = time_batch(row, buf, len, n);
		if (t >= target / 8 || n >= 1UL << 32)
			break;
		n *= t > 0 && target / 8 / t < 16 ? 2 : 16;
	}
	n = n * (target / t) + 0.5;
	return n ? n : 1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median and interquartile spread of @n values (sorted in place). */
static void summarize(double *v, unsigned int n, double *median,
		      double *spread)
{
	qsort(v, n, sizeof(*v), cmp_double);
	*median = n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	*spread = *median > 0 ? (v[(3 * n) / 4] - v[n / 4]) / *median : 0;
}

/* One CPU: @want if allowed, else the first allowed one. */
static int pin_cpu(int want)
{
	cpu_set_t set;
	int cpu;

	if (sched_getaffinity(0, sizeof(set), &set))
		die("sched_getaffinity: %s", strerror(errno));
	if (want < 0 || want >= CPU_SETSIZE || !CPU_ISSET(want, &set)) {
		if (want >= 0 && want != 1)
			die("CPU %d is not available to this process", want);
		for (cpu = 1; cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &set); cpu++)
			;
		if (cpu == CPU_SETSIZE)
			cpu = 0;
		want = cpu;
	}
	CPU_ZERO(&set);
	CPU_SET(want, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity(CPU %d): %s", want, strerror(errno));
	return want;
}

static void cpu_model(char *out, size_t size)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(out, size, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		if (p && !strncmp(line, "model name", 10)) {
			p += 1 + strspn(p + 1, " \t");
			p[strcspn(p, "\n")] = 0;
			snprintf(out, size, "%s", p);
			break;
		}
	}
	fclose(f);
}

/* Output */

static struct bench_row *find_row(struct bench_group *g, const char *name)
{
	unsigned int i;

	for (i = 0; i < g->nrows; i++)
		if (!strcmp(g->rows[i].name, name))
			return &g->rows[i];
	return NULL;
}

static void print_header(const struct bench_group *g, const char *what)
{
	unsigned int s;

	printf("\n%-20s", what);
	for (s = 0; s < g->nsizes; s++)
		printf(" %8zu", g->sizes[s]);
	printf("\n");
}

static void print_group(struct bench_group *g)
{
	const char *const *a;
	unsigned int i, s, ours;
	char what[64];

	printf("\n== %s (median of the rounds; bytes across)\n", g->title);
	print_header(g, "MB/s");
	for (i = 0; i < g->nrows; i++) {
		printf("%-20s", g->rows[i].name);
		for (s = 0; s < g->nsizes; s++)
			printf(" %8.0f", g->rows[i].median[s]);
		printf("\n");
	}

	for (a = g->anchors; a && *a; a++) {
		struct bench_row *ref = find_row(g, *a);

		if (!ref)
			continue;
		snprintf(what, sizeof(what), "ratio to %s", ref->name);
		print_header(g, what);
		for (i = 0; i < g->nrows; i++) {
			printf("%-20s", g->rows[i].name);
			for (s = 0; s < g->nsizes; s++)
				printf(" %8.2f", g->rows[i].median[s] /
						 ref->median[s]);
			printf("\n");
		}
		/* The best of ours per size, where we have more than one. */
		for (i = 0, ours = 0; i < g->nrows; i++)
			ours += !strncmp(g->rows[i].name, "kchacha-", 8);
		if (ours < 2)
			continue;
		printf("%-20s", "best kchacha");
		for (s = 0; s < g->nsizes; s++) {
			double best = 0;

			for (i = 0; i < g->nrows; i++)
				if (!strncmp(g->rows[i].name, "kchacha-", 8) &&
				    g->rows[i].median[s] > best)
					best = g->rows[i].median[s];
			printf(" %8.2f", best / ref->median[s]);
		}
		printf("\n");
	}
}

/*
 * kchacha-<impl> over its in-tree counterpart linux-<impl> (both AVX-512
 * rows over linux-avx512vl, the in-tree driver they outrank), both over
 * kchacha's own avx2, ymm over zmm, kchacha-avx512 over OpenSSL: per size,
 * the median over the rounds of the two rows' ratio within each round (the two batches run
 * close together, so the machine's slower drifts cancel).  Computed before
 * summarize() sorts each row's rounds.
 */
static const char *const pairs[][2] = {
	{ "kchacha-ssse3", "linux-ssse3" },
	{ "kchacha-avx2", "linux-avx2" },
	{ "kchacha-avx512vl", "linux-avx512vl" },
	{ "kchacha-avx512", "linux-avx512vl" },
	{ "kchacha-avx512vl", "kchacha-avx2" },
	{ "kchacha-avx512", "kchacha-avx2" },
	{ "kchacha-avx512vl", "kchacha-avx512" },
	{ "kchacha-avx512", "openssl" },
};

static double *pair_ratio[ARRAY_SIZE(pairs)];	/* per size, or NULL */

/*
 * Per size, the median over the rounds of row @a's ratio to row @b, or
 * (@b NULL) to the fastest kchacha row (@all: the fastest row of all) of
 * the same round: a new array, or NULL without @a.  Called before
 * summarize() sorts the rows' rounds, which pairs them.
 */
static double *paired_sizes(struct bench_group *g, struct bench_row *a,
			    struct bench_row *b, bool all, unsigned int rounds)
{
	double *v, *out, spread;
	unsigned int i, s, r;

	if (!a)
		return NULL;
	v = xcalloc(rounds, sizeof(*v));
	out = xcalloc(g->nsizes, sizeof(*out));
	for (s = 0; s < g->nsizes; s++) {
		for (r = 0; r < rounds; r++) {
			double best = 0;

			for (i = 0; !b && i < g->nrows; i++) {
				double m = g->rows[i].mbps[s * rounds + r];

				if ((all || !strncmp(g->rows[i].name,
						     "kchacha-", 8)) &&
				    m > best)
					best = m;
			}
			v[r] = a->mbps[s * rounds + r] /
			       (b ? b->mbps[s * rounds + r] : best);
		}
		summarize(v, rounds, &out[s], &spread);
	}
	free(v);
	return out;
}

static void pair_ratios(struct bench_group *g, unsigned int rounds)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		struct bench_row *b = find_row(g, pairs[i][1]);

		if (b)
			pair_ratio[i] = paired_sizes(g, find_row(g, pairs[i][0]),
						     b, false, rounds);
	}
}

/*
 * The implementation the module makes the default on this CPU: the
 * highest priority by the ranking rule (kchacha_cpu_slow(), the module's
 * own code) among those the CPU has; and per size, the median over the
 * rounds of its ratio, within each round, to the fastest kchacha row and
 * to the fastest row of all.
 */
static const struct kchacha_impl *default_impl;
static double *default_ratio[2];	/* per size: over kchacha, over all */

/*
 * The default the module's calibration (calibrate.c, calibrate=1) would
 * choose here, with this process's clock, before the timed rounds; and
 * per size its ratio, paired per round, to the fastest kchacha row.
 */
extern bool kchacha_shim_usleep_real;
static const struct kchacha_impl *calib_impl;
static struct kchacha_calib calib_cand[8];
static unsigned int calib_n;
static double *calib_ratio;

static u64 calib_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void calibrate_here(void)
{
	static u8 buf[KCHACHA_SIMD_CHUNK];
	unsigned int i;

	for (i = 0; i < kchacha_nimpls && calib_n < ARRAY_SIZE(calib_cand); i++)
		if (kchacha_impls[i].simd &&
		    (!kchacha_impls[i].cpu_ok || kchacha_impls[i].cpu_ok()))
			calib_cand[calib_n++].impl = &kchacha_impls[i];
	if (calib_n < 2)
		return;
	kchacha_shim_usleep_real = true;	/* the sleeps between repetitions */
	calib_impl = calib_cand[kchacha_calibrate(calib_cand, calib_n,
						  kchacha_cpu_slow(),
						  calib_clock, buf)].impl;
}

static void default_ratios(struct bench_group *g, unsigned int rounds)
{
	bool slow = kchacha_cpu_slow();
	char name[40];
	unsigned int i, k;

	for (i = 0; i < kchacha_nimpls; i++) {
		const struct kchacha_impl *impl = &kchacha_impls[i];

		if (impl->cpu_ok && !impl->cpu_ok())
			continue;
		if (!default_impl || kchacha_impl_priority(impl, slow) >
				     kchacha_impl_priority(default_impl, slow))
			default_impl = impl;
	}
	snprintf(name, sizeof(name), "kchacha-%s", default_impl->name);
	for (k = 0; k < 2; k++)
		default_ratio[k] = paired_sizes(g, find_row(g, name), NULL, k,
						rounds);
	if (calib_impl) {
		snprintf(name, sizeof(name), "kchacha-%s", calib_impl->name);
		calib_ratio = paired_sizes(g, find_row(g, name), NULL, false,
					   rounds);
	}
}

static void print_default(struct bench_group *g)
{
	static const char *const what[] = {
		"over the best kchacha", "over the best of all",
	};
	unsigned int k, s;

	printf("\n== the default on this CPU: %s-kchacha-%s (the module's ranking rule%s)\n",
	       "chacha20", default_impl->name,
	       kchacha_cpu_slow() ? ", its other order here" : "");
	if (calib_impl) {
		printf("== the calibration would choose chacha20-kchacha-%s here (ns at %u/%u/%u bytes:",
		       calib_impl->name, kchacha_calib_len[0],
		       kchacha_calib_len[1], kchacha_calib_len[2]);
		for (k = 0; k < calib_n; k++)
			printf(" %s %llu/%llu/%llu", calib_cand[k].impl->name,
			       (unsigned long long)calib_cand[k].ns[0],
			       (unsigned long long)calib_cand[k].ns[1],
			       (unsigned long long)calib_cand[k].ns[2]);
		printf(")\n");
	}
	if (calib_ratio) {
		printf("%-22s", "calibrated, paired");
		for (s = 0; s < g->nsizes; s++)
			printf(" %8zu", g->sizes[s]);
		printf("\n%-22s", "over the best kchacha");
		for (s = 0; s < g->nsizes; s++)
			printf(" %8.2f", calib_ratio[s]);
		printf("\n");
		free(calib_ratio);
	}
	if (!default_ratio[0])
		return;
	printf("%-22s", "default, paired");
	for (s = 0; s < g->nsizes; s++)
		printf(" %8zu", g->sizes[s]);
	printf("\n");
	for (k = 0; k < 2; k++) {
		printf("%-22s", what[k]);
		for (s = 0; s < g->nsizes; s++)
			printf(" %8.2f", default_ratio[k][s]);
		printf("\n");
		free(default_ratio[k]);
	}
}

/*
 * Each kchacha row over its base-<impl> row (make bench BASE=<commit>),
 * paired per round as the pairs above, computed before summarize() sorts
 * the rounds; the verdict: every ratio at least 0.98 (issue 34: no row
 * slower than it was).
 */
static double *base_ratio[MAX_ROWS];	/* per kchacha row and size, or NULL */

static void base_ratios(struct bench_group *g, unsigned int rounds)
{
	unsigned int i;

	for (i = 0; i < g->nrows; i++) {
		struct bench_row *b;
		char name[48];

		if (strncmp(g->rows[i].name, "kchacha-", 8))
			continue;
		snprintf(name, sizeof(name), "base-%s", g->rows[i].name + 8);
		b = find_row(g, name);
		if (b)
			base_ratio[i] = paired_sizes(g, &g->rows[i], b, false,
						     rounds);
	}
}

static void print_base(struct bench_group *g)
{
	const char *wrow = NULL;
	size_t wsize = 0;
	double worst = 0;
	unsigned int i, s;

	for (i = 0; i < g->nrows; i++) {
		if (!base_ratio[i])
			continue;
		if (!wrow) {
			printf("\n%-22s", "today/base, paired");
			for (s = 0; s < g->nsizes; s++)
				printf(" %8zu", g->sizes[s]);
			printf("\n");
		}
		printf("%-22s", g->rows[i].name + 8);
		for (s = 0; s < g->nsizes; s++) {
			printf(" %8.2f", base_ratio[i][s]);
			if (!wrow || base_ratio[i][s] < worst) {
				worst = base_ratio[i][s];
				wrow = g->rows[i].name;
				wsize = g->sizes[s];
			}
		}
		printf("\n");
		free(base_ratio[i]);
	}
	if (wrow)
		printf("against %s: lowest %.3f (%s at %zu bytes): %s\n",
		       kchacha_base_commit, worst, wrow, wsize,
		       worst >= 0.98 ? "no row below 0.98, met" :
				       "a row below 0.98, not met");
}

static void print_pairs(struct bench_group *g)
{
	unsigned int i, s, shown = 0;
	char what[64];

	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		if (!pair_ratio[i])
			continue;
		if (!shown++) {
			printf("\n%-22s", "ours/theirs, paired");
			for (s = 0; s < g->nsizes; s++)
				printf(" %8zu", g->sizes[s]);
			printf("\n");
		}
		snprintf(what, sizeof(what), "%s/%s", pairs[i][0] + 8,
			 pairs[i][1]);
		printf("%-22s", what);
		for (s = 0; s < g->nsizes; s++)
			printf(" %8.2f", pair_ratio[i][s]);
		printf("\n");
		free(pair_ratio[i]);
	}
}

static double median_at(struct bench_group *g, const char *name, size_t size)
{
	struct bench_row *row = find_row(g, name);
	unsigned int s;

	for (s = 0; row && s < g->nsizes; s++)
		if (g->sizes[s] == size)
			return row->median[s];
	return 0;
}

/*
 * The targets of each kchacha-rng row (issues 27, 35): 16 bytes per call
 * at least 15 times getrandom(2), 4096 bytes per call at least 0.9 times
 * the same implementation's keystream (the cipher group's row at 4096
 * bytes), and 256 bytes per call at least as fast as 128.  Where an earlier rng.c is built in (base-rng-<impl>, make bench
 * RNG_BASE=<commit>), 16 bytes per call against it too, at least 0.9 times
 * (issue 14).  Each ratio is the median over the rounds of the ratio
 * within a round (taken before the tables sort each cell's rounds), which
 * cancels the machine's slow phases better than a ratio of medians; the
 * ratio of medians is shown too.
 */
static struct rng_target {
	const char *impl;
	double pair16, pair4k, med16, med4k, pairsys, medsys, pair256, med256;
} rng_target[MAX_ROWS];
static unsigned int rng_ntargets;

static double mbps_at(struct bench_group *g, const char *name, size_t size,
		      unsigned int rounds, unsigned int r)
{
	struct bench_row *row = find_row(g, name);
	unsigned int s;

	for (s = 0; row && s < g->nsizes; s++)
		if (g->sizes[s] == size)
			return row->mbps[s * rounds + r];
	return 0;
}

/* Median over the rounds of a / b; 0 if either cell is missing. */
static double paired(struct bench_group *ga, const char *a, size_t sa,
		     struct bench_group *gb, const char *b, size_t sb,
		     unsigned int rounds)
{
	double v[256];
	unsigned int r, n = 0;

	for (r = 0; r < rounds && n < ARRAY_SIZE(v); r++) {
		double x = mbps_at(ga, a, sa, rounds, r);
		double y = mbps_at(gb, b, sb, rounds, r);

		if (x <= 0 || y <= 0)
			return 0;
		v[n++] = x / y;
	}
	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Before summarize() sorts the rounds: the paired ratios. */
static void rng_targets_pair(unsigned int rounds)
{
	struct bench_group *cipher = &groups[0], *rng = &groups[1];
	char base[40], ks[40];
	unsigned int i;

	for (i = 0; i < rng->nrows && rng_ntargets < MAX_ROWS; i++) {
		const char *impl = rng->rows[i].name;
		struct rng_target *t = &rng_target[rng_ntargets];

		if (strncmp(impl, "kchacha-rng-", 12))
			continue;
		snprintf(base, sizeof(base), "base-rng-%s", impl + 12);
		snprintf(ks, sizeof(ks), "kchacha-%s", impl + 12);
		t->impl = impl;
		t->pair16 = paired(rng, impl, 16, rng, base, 16, rounds);
		t->pair4k = paired(rng, impl, 4096, cipher, ks, 4096, rounds);
		t->pairsys = paired(rng, impl, 16, rng, "getrandom", 16, rounds);
		t->pair256 = paired(rng, impl, 256, rng, impl, 128, rounds);
		rng_ntargets++;
	}
}

static const char *rng_met(double ratio, double target)
{
	return !ratio ? "no row" : ratio >= target ? "met" : "not met";
}

static void rng_targets(void)
{
	struct bench_group *cipher = &groups[0], *rng = &groups[1];
	double b16, ks, sys = median_at(rng, "getrandom", 16), b128;
	char name[40];
	unsigned int i;

	printf("\n== rng targets (median of per-round ratios; ratio of medians)\n%-20s %27s %27s %27s %27s\n",
	       "", "16 B / getrandom (15)", "4096 B / keystream (0.9)",
	       "256 B / 128 B (1)", "16 B / before (0.9)");
	for (i = 0; i < rng_ntargets; i++) {
		struct rng_target *t = &rng_target[i];

		snprintf(name, sizeof(name), "base-rng-%s", t->impl + 12);
		b16 = median_at(rng, name, 16);
		snprintf(name, sizeof(name), "kchacha-%s", t->impl + 12);
		ks = median_at(cipher, name, 4096);
		b128 = median_at(rng, t->impl, 128);
		t->med16 = b16 > 0 ? median_at(rng, t->impl, 16) / b16 : 0;
		t->med4k = ks > 0 ? median_at(rng, t->impl, 4096) / ks : 0;
		t->medsys = sys > 0 ? median_at(rng, t->impl, 16) / sys : 0;
		t->med256 = b128 > 0 ? median_at(rng, t->impl, 256) / b128 : 0;
		printf("%-20s %7.2f; %5.2f (%-7s) %7.2f; %5.2f (%-7s) %7.2f; %5.2f (%-7s) %7.2f; %5.2f (%-7s)\n",
		       t->impl, t->pairsys, t->medsys, rng_met(t->pairsys, 15),
		       t->pair4k, t->med4k, rng_met(t->pair4k, 0.9),
		       t->pair256, t->med256, rng_met(t->pair256, 1),
		       t->pair16, t->med16, rng_met(t->pair16, 0.9));
	}
}

static void write_outputs(const char *dir, const char *cpu, int pinned)
{
	char path[4096];
	unsigned int gi, i, s;
	FILE *f;

	snprintf(path, sizeof(path), "%s/bench.csv", dir);
	f = fopen(path, "w");
	if (!f)
		die("%s: %s", path, strerror(errno));
	fprintf(f, "impl,bytes,mbps\n");
	for (gi = 0; gi < ARRAY_SIZE(groups); gi++)
		for (i = 0; i < groups[gi].nrows; i++)
			for (s = 0; s < groups[gi].nsizes; s++)
				fprintf(f, "%s,%zu,%.1f\n", groups[gi].rows[i].name,
					groups[gi].sizes[s],
					groups[gi].rows[i].median[s]);
	if (fclose(f))
		die("%s: %s", path, strerror(errno));
	printf("\nwrote %s\n", path);

	for (gi = 0; gi < ARRAY_SIZE(groups); gi++) {
		struct bench_group *g = &groups[gi];

		snprintf(path, sizeof(path), "%s/bench-%s.dat", dir, g->name);
		f = fopen(path, "w");
		if (!f)
			die("%s: %s", path, strerror(errno));
		fprintf(f, "#title %s\n#machine %s, CPU %d\n#sizes", g->title,
			cpu, pinned);
		for (s = 0; s < g->nsizes; s++)
			fprintf(f, " %zu", g->sizes[s]);
		fprintf(f, "\n#names");
		for (i = 0; i < g->nrows; i++)
			fprintf(f, " %s", g->rows[i].name);
		fprintf(f, "\n");
		for (i = 0; i < g->nrows; i++) {
			/* index blocks: two blank lines between rows */
			fprintf(f, "%s# %s\n", i ? "\n\n" : "",
				g->rows[i].name);
			for (s = 0; s < g->nsizes; s++)
				fprintf(f, "%zu %.1f\n", g->sizes[s],
					g->rows[i].median[s]);
		}
		if (fclose(f))
			die("%s: %s", path, strerror(errno));
	}
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bench [-o DIR] [-r ROUNDS] [-t SECONDS] [-c CPU] [-w]\n"
		"  -o DIR      write DIR/bench.csv and DIR/bench-<group>.dat (build)\n"
		"  -r ROUNDS   rounds, at least %d (9)\n"
		"  -t SECONDS  time for all timed batches together (45)\n"
		"  -c CPU      the CPU to run on (1, or the first allowed)\n"
		"  -w          time batches on the wall clock, not the thread's CPU time\n",
		MIN_ROUNDS);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dir = "build";
	unsigned int rounds = 9, cells = 0, gi, i, s, r;
	double seconds = 45, target, t0;
	size_t maxsize = 0;
	int opt, cpu = 1, progress = isatty(2);
	char model[128];
	u8 *buf;

	while ((opt = getopt(argc, argv, "o:r:t:c:w")) != -1) {
		switch (opt) {
		case 'o':
			dir = optarg;
			break;
		case 'r':
			rounds = atoi(optarg);
			break;
		case 't':
			seconds = atof(optarg);
			break;
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'w':
			batch_clock = CLOCK_MONOTONIC;
			break;
		default:
			usage();
		}
	}
	if (optind != argc || rounds < MIN_ROUNDS || !(seconds > 0))
		usage();

	cpu = pin_cpu(cpu);
	cpu_model(model, sizeof(model));
	calibrate_here();
	if (sodium_init() < 0)
		die("sodium_init failed");
	if (!gcry_check_version(NULL))
		die("gcry_check_version failed");
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);

	printf("kchacha bench: %s, pinned to CPU %d, batches timed on %s\n",
	       model, cpu, batch_clock == CLOCK_MONOTONIC ? "the wall clock" :
	       "the thread's CPU time");
	printf("anchors: %s, libsodium %s, libgcrypt %s\n",
	       OpenSSL_version(OPENSSL_VERSION), sodium_version_string(),
	       gcry_check_version(NULL));
	printf("checking every row against its known answers:\n");
	for (gi = 0; gi < ARRAY_SIZE(groups); gi++) {
		struct bench_group *g = &groups[gi];

		g->add_rows(g);
		for (i = 0; i < g->nrows; i++) {
			struct bench_row *row = &g->rows[i];

			row->iters = xcalloc(g->nsizes, sizeof(*row->iters));
			row->mbps = xcalloc(g->nsizes * rounds,
					    sizeof(*row->mbps));
			row->median = xcalloc(g->nsizes, sizeof(*row->median));
			row->spread = xcalloc(g->nsizes, sizeof(*row->spread));
			printf("  %-20s ok\n", row->name);
		}
		cells += g->nrows * g->nsizes;
		for (s = 0; s < g->nsizes; s++)
			if (g->sizes[s] > maxsize)
				maxsize = g->sizes[s];
	}
	if (!cells)
		die("nothing to time");

	buf = aligned_alloc(64, (maxsize + 63) & ~(size_t)63);
	if (!buf)
		die("out of memory");
	randombytes_buf(buf, maxsize);

	/* The batch length that keeps the whole run near @seconds. */
	target = seconds / rounds / cells;
	if (target < 0.002)
		target = 0.002;
	if (target > 0.25)
		target = 0.25;
	printf("%u rounds of %u cells, batches of about %.0f ms\n", rounds,
	       cells, target * 1e3);
	fflush(stdout);

	t0 = now();
	for (gi = 0; gi < ARRAY_SIZE(groups); gi++)
		for (s = 0; s < groups[gi].nsizes; s++)
			for (i = 0; i < groups[gi].nrows; i++)
				groups[gi].rows[i].iters[s] =
					calibrate(&groups[gi].rows[i], buf,
						  groups[gi].sizes[s], target);

	for (r = 0; r < rounds; r++) {
		for (gi = 0; gi < ARRAY_SIZE(groups); gi++) {
			struct bench_group *g = &groups[gi];

			for (s = 0; s < g->nsizes; s++) {
				for (i = 0; i < g->nrows; i++) {
					struct bench_row *row = &g->rows[i];
					unsigned long n = row->iters[s];
					double t = time_batch(row, buf,
							      g->sizes[s], n);

					row->mbps[s * rounds + r] =
						n * (double)g->sizes[s] / t / 1e6;
				}
			}
		}
		if (progress)
			fprintf(stderr, "\rround %u/%u", r + 1, rounds);
	}
	if (progress)
		fprintf(stderr, "\r%20s\r", "");
	rng_targets_pair(rounds);

	{
		double worst = 0, all[MAX_ROWS * 64];
		unsigned int n = 0;
		const char *wrow = "";
		size_t wsize = 0;

		pair_ratios(&groups[0], rounds);
		base_ratios(&groups[0], rounds);
		default_ratios(&groups[0], rounds);
		for (gi = 0; gi < ARRAY_SIZE(groups); gi++) {
			struct bench_group *g = &groups[gi];

			for (i = 0; i < g->nrows; i++) {
				for (s = 0; s < g->nsizes; s++) {
					struct bench_row *row = &g->rows[i];

					summarize(&row->mbps[s * rounds], rounds,
						  &row->median[s],
						  &row->spread[s]);
					if (n < ARRAY_SIZE(all))
						all[n++] = row->spread[s];
					if (row->spread[s] > worst) {
						worst = row->spread[s];
						wrow = row->name;
						wsize = g->sizes[s];
					}
				}
			}
		}
		qsort(all, n, sizeof(*all), cmp_double);
		printf("timed in %.0f s; noise (interquartile range / median "
		       "over the rounds): typically %.1f%%, worst %.1f%% "
		       "(%s at %zu bytes)\n", now() - t0, 100 * all[n / 2],
		       100 * worst, wrow, wsize);
	}

	for (gi = 0; gi < ARRAY_SIZE(groups); gi++)
		print_group(&groups[gi]);
	print_pairs(&groups[0]);
	print_base(&groups[0]);
	print_default(&groups[0]);
	rng_targets();
	write_outputs(dir, model, cpu);

	for (gi = 0; gi < ARRAY_SIZE(groups); gi++)
		for (i = 0; i < groups[gi].nrows; i++) {
			struct bench_row *row = &groups[gi].rows[i];

			if (row->ops->teardown)
				row->ops->teardown(row);
			free(row->iters);
			free(row->mbps);
			free(row->median);
			free(row->spread);
		}
	free(buf);
	return 0;
}
