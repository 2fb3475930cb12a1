// SPDX-License-Identifier: GPL-2.0-only
/*
 * rngtest: the guest side of the rng tests, through AF_ALG only.
 *
 *   rngtest <driver>              every check below on one rng driver
 *   rngtest hold <driver> <secs>  keep an rng socket bound (rmmod tests)
 *
 * Checks: reads of every size 1..128 return that many bytes (and a larger
 * read 128, AF_ALG's cap); 1 MiB in total has no 16-byte block twice and a
 * plausible byte chi-square; two bound sockets (two instances) differ, and
 * still differ after both are seeded with the same bytes; seeds of 0..1000
 * bytes are accepted; two accept()ed sockets of one instance differ; four
 * forked readers on accept()ed sockets of one instance all succeed and
 * never get the same 16 bytes.
 *
 * Each check prints "PASS what" or "FAIL what: why"; the last line is
 * "rngtest: N passed, N failed"; the exit status is 1 on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_alg.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "result.h"

#define MAXREAD		128	/* algif_rng hands out at most this per read */
#define TOTAL		(1 << 20)
#define READERS		4
#define PER_READER	(64 * 1024)

/* A bound rng socket (one instance), or -errno. */
static int rng_bind(const char *driver)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG, .salg_type = "rng" };
	int fd = socket(AF_ALG, SOCK_SEQPACKET, 0);

	if (fd < 0)
		return -errno;
	strncpy((char *)sa.salg_name, driver, sizeof(sa.salg_name) - 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

static int rng_accept(int tfm)
{
	int fd = accept(tfm, NULL, 0);

	return fd < 0 ? -errno : fd;
}

static int rng_seed(int tfm, const void *seed, unsigned int len)
{
	return setsockopt(tfm, SOL_ALG, ALG_SET_KEY, seed, len) ? -errno : 0;
}

/* Exactly @len bytes in reads of at most MAXREAD; 0 or -errno. */
static int rng_read(int op, uint8_t *buf, size_t len)
{
	while (len) {
		size_t want = len < MAXREAD ? len : MAXREAD;
		ssize_t n = read(op, buf, want);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if ((size_t)n != want)
			return -EIO;
		buf += n;
		len -= n;
	}
	return 0;
}

static int cmp16(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

/* Number of 16-byte blocks of @p that occur twice (sorts @p). */
static size_t duplicates(uint8_t *p, size_t blocks)
{
	size_t i, dups = 0;

	qsort(p, blocks, 16, cmp16);
	for (i = 1; i < blocks; i++)
		dups += !memcmp(p + 16 * (i - 1), p + 16 * i, 16);
	return dups;
}

/*
 * Chi-square of the byte counts, 255 degrees of freedom; [161, 377] holds
 * with probability 1 - 2e-6 for random bytes.
 */
static double chi_square(const uint8_t *p, size_t len)
{
	double e = len / 256.0, chi = 0;
	size_t counts[256] = { 0 };
	int i;

	while (len--)
		counts[*p++]++;
	for (i = 0; i < 256; i++)
		chi += (counts[i] - e) * (counts[i] - e) / e;
	return chi;
}

static void test_sizes(const char *driver)
{
	static const uint8_t zero[16];
	uint8_t buf[2 * MAXREAD], prev[MAXREAD] = { 0 };
	static uint8_t all[TOTAL];
	int tfm = rng_bind(driver), op, n, bad = 0;
	size_t dups;
	double chi;
	ssize_t got;

	result(tfm >= 0, "%s: bind an rng socket%s%s", driver,
	       tfm < 0 ? ": " : "", tfm < 0 ? strerror(-tfm) : "");
	if (tfm < 0)
		return;
	op = rng_accept(tfm);
	result(op >= 0, "%s: accept", driver);
	if (op < 0)
		goto out;

	for (n = 1; n <= MAXREAD; n++) {
		memset(buf, 0, sizeof(buf));
		got = read(op, buf, n);
		if (got != n) {
			if (!bad++)
				printf("  read of %d returned %zd (%s)\n", n, got,
				       got < 0 ? strerror(errno) : "short");
			continue;
		}
		/* 16 bytes or more: not zero, not the previous read again */
		if (n >= 16 && (!memcmp(buf, prev, 16) ||
				!memcmp(buf, zero, 16))) {
			if (!bad++)
				printf("  read of %d repeats or is zero\n", n);
		}
		memcpy(prev, buf, n);
	}
	result(!bad, "%s: reads of every size 1..%d", driver, MAXREAD);

	got = read(op, buf, sizeof(buf));
	result(got == MAXREAD, "%s: a read of %zu returns %d (got %zd)", driver,
	       sizeof(buf), MAXREAD, got);

	n = rng_read(op, all, TOTAL);
	result(!n, "%s: 1 MiB in reads of %d%s%s", driver, MAXREAD,
	       n ? ": " : "", n ? strerror(-n) : "");
	if (n)
		goto out_op;
	chi = chi_square(all, TOTAL);
	result(chi > 161 && chi < 377,
	       "%s: 1 MiB: byte chi-square %.1f within [161, 377]", driver,
	       chi);
	dups = duplicates(all, TOTAL / 16);
	result(!dups, "%s: 1 MiB: no 16-byte block twice (%zu repeats)",
	       driver, dups);
out_op:
	close(op);
out:
	close(tfm);
}

static void test_instances(const char *driver)
{
	static const uint8_t seed[32] = "kchacha rng test seed, 32 bytes";
	uint8_t a[64], b[64], big[1000];
	int t1 = rng_bind(driver), t2 = rng_bind(driver);
	int o1 = -1, o2 = -1, o3 = -1, err = 0;
	unsigned int len;

	if (t1 < 0 || t2 < 0) {
		result(0, "%s: bind two rng sockets", driver);
		goto out;
	}
	memset(big, 0x5a, sizeof(big));
	for (len = 0; len <= sizeof(big) && !err; len = len * 4 + 1)
		err = rng_seed(t1, big, len);
	result(!err, "%s: seeds of 0..1000 bytes accepted%s%s", driver,
	       err ? ": " : "", err ? strerror(-err) : "");

	err = rng_seed(t1, seed, sizeof(seed)) ?:
	      rng_seed(t2, seed, sizeof(seed));
	o1 = rng_accept(t1);
	o2 = rng_accept(t2);
	o3 = rng_accept(t1);
	if (err || o1 < 0 || o2 < 0 || o3 < 0) {
		result(0, "%s: seed and accept", driver);
		goto out;
	}
	err = rng_read(o1, a, sizeof(a)) ?: rng_read(o2, b, sizeof(b));
	result(!err && memcmp(a, b, sizeof(a)),
	       "%s: two instances seeded alike still differ", driver);
	err = rng_read(o3, b, sizeof(b));
	result(!err && memcmp(a, b, sizeof(a)),
	       "%s: two accept()ed sockets of one instance differ", driver);
out:
	if (o1 >= 0)
		close(o1);
	if (o2 >= 0)
		close(o2);
	if (o3 >= 0)
		close(o3);
	if (t1 >= 0)
		close(t1);
	if (t2 >= 0)
		close(t2);
}

static void test_forked(const char *driver)
{
	uint8_t *shared = mmap(NULL, READERS * PER_READER,
			       PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int tfm = rng_bind(driver), op[READERS], i, ok = 1, status;
	pid_t pid[READERS];
	size_t dups;

	if (shared == MAP_FAILED || tfm < 0) {
		result(0, "%s: forked readers: set-up", driver);
		return;
	}
	for (i = 0; i < READERS; i++)
		op[i] = rng_accept(tfm);
	for (i = 0; i < READERS; i++) {
		pid[i] = op[i] < 0 ? -1 : fork();
		if (pid[i] == 0) {
			uint8_t *p = shared + (size_t)i * PER_READER;
			size_t off;

			/* 16-byte reads, some longer ones among them */
			for (off = 0; off < PER_READER;) {
				size_t n = off % 1024 == 512 ? MAXREAD : 16;

				if (rng_read(op[i], p + off, n))
					_exit(1);
				off += n;
			}
			_exit(0);
		}
	}
	for (i = 0; i < READERS; i++) {
		if (pid[i] < 0 || waitpid(pid[i], &status, 0) != pid[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			ok = 0;
		if (op[i] >= 0)
			close(op[i]);
	}
	close(tfm);
	result(ok, "%s: %d forked readers of one instance all succeed",
	       driver, READERS);
	dups = duplicates(shared, READERS * PER_READER / 16);
	result(ok && !dups,
	       "%s: %d forked readers: no 16-byte block twice (%zu repeats)",
	       driver, READERS, dups);
	munmap(shared, READERS * PER_READER);
}

static int hold(const char *driver, int secs)
{
	int tfm = rng_bind(driver);

	if (tfm < 0) {
		fprintf(stderr, "rngtest: bind %s: %s\n", driver,
			strerror(-tfm));
		return 1;
	}
	printf("holding %s for %d s\n", driver, secs);
	fflush(stdout);
	sleep(secs);
	close(tfm);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "hold"))
		return hold(argv[2], atoi(argv[3]));
	if (argc != 2) {
		fprintf(stderr,
			"usage: rngtest <driver>\n       rngtest hold <driver> <secs>\n");
		return 2;
	}
	test_sizes(argv[1]);
	test_instances(argv[1]);
	test_forked(argv[1]);
	printf("rngtest: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
