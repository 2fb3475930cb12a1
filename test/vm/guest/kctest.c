// SPDX-License-Identifier: GPL-2.0-only
/*
 * kctest: the guest side of the VM tests, through AF_ALG only.
 *
 *   kctest proc <impl:prio[:rngprio],...>
 *                                    /proc/crypto holds exactly these
 *                                    kchacha drivers, the skciphers and
 *                                    the rng of each, at their priorities
 *                                    (the rng's where given), with
 *                                    "selftest : passed"
 *   kctest diff <driver> <ref>       differential test against <ref>
 *   kctest quick <driver> <ref>      the same with fewer lengths (every
 *                                    one to 300, a spread to 1100, 4095,
 *                                    4096, 4097 and 65549), for slow VMs
 *   kctest bad <driver> <ref>        bad keys and IV lengths get -EINVAL,
 *                                    and the driver still works after
 *   kctest hold <driver> <secs>      keep a socket bound (for rmmod tests)
 *   kctest refused <type> <name>...  binding each name (AF_ALG type
 *                                    skcipher or rng) fails with ENOENT
 *   kctest which <type> <name>       bind, and print "risen <name> <driver>"
 *                                    for every /proc/crypto entry whose
 *                                    refcnt the bound socket raised: what
 *                                    the crypto API gave it
 *   kctest adiantum <name> <file>    bind skcipher <name>, an Adiantum;
 *                                    encrypt fixed messages (16 bytes to
 *                                    64 KiB) into <file>, each decrypting
 *                                    back; <file> is opened before -u
 *   kctest -u <uid> <command...>     any of them as <uid> without
 *                                    capabilities (an unprivileged user)
 *
 * Each check prints "PASS what" or "FAIL what: why"; the exit status is the
 * number of failures (capped).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <linux/if_alg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "result.h"

static uint64_t seed = 0x243f6a8885a308d3ULL;

static uint32_t rnd(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return seed >> 33;
}

static void fill(uint8_t *p, size_t n)
{
	while (n--)
		*p++ = rnd();
}

/* An AF_ALG socket of @type bound to @name, or -errno. */
static int alg_open(const char *type, const char *name)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET, 0);

	if (fd < 0)
		return -errno;
	strncpy((char *)sa.salg_type, type, sizeof(sa.salg_type) - 1);
	strncpy((char *)sa.salg_name, name, sizeof(sa.salg_name) - 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

static int tfm_open(const char *driver)
{
	return alg_open("skcipher", driver);
}

/* Returns 0 or -errno of the failing step. */
static int set_key(int tfm, const uint8_t *key, unsigned int len)
{
	return setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, len) ? -errno : 0;
}

/*
 * One operation on a fresh op socket: @len bytes sent in @pieces sendmsg
 * calls (all but the last with MSG_MORE), then read back.
 */
static int cipher_op(int tfm, int encrypt, const uint8_t *iv,
		     unsigned int ivlen, const uint8_t *in, uint8_t *out,
		     size_t len, int pieces)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + 64)] = { 0 };
	struct msghdr msg = { 0 };
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	struct iovec iov;
	size_t sent = 0, got = 0;
	int op, sz = 8 << 20, err = 0;

	op = accept(tfm, NULL, 0);
	if (op < 0)
		return -errno;
	setsockopt(op, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof(sz));
	setsockopt(op, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));

	msg.msg_control = cbuf;
	msg.msg_controllen = CMSG_SPACE(sizeof(uint32_t)) +
			     CMSG_SPACE(sizeof(struct af_alg_iv) + ivlen);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	*(uint32_t *)CMSG_DATA(c) = encrypt ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + ivlen);
	aiv = (struct af_alg_iv *)CMSG_DATA(c);
	aiv->ivlen = ivlen;
	memcpy(aiv->iv, iv, ivlen);

	do {
		size_t n = len - sent;
		ssize_t r;

		if (pieces > 1 && n > 1)
			n = 1 + rnd() % (n - 1);
		iov.iov_base = (void *)(in + sent);
		iov.iov_len = n;
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;
		r = sendmsg(op, &msg, sent + n < len ? MSG_MORE : 0);
		if (r < 0) {
			err = -errno;
			goto out;
		}
		sent += r;
		pieces--;
		msg.msg_control = NULL;
		msg.msg_controllen = 0;
	} while (sent < len);

	while (got < len) {
		ssize_t r = read(op, out + got, len - got);

		if (r <= 0) {
			err = r < 0 ? -errno : -EIO;
			goto out;
		}
		got += r;
	}
out:
	close(op);
	return err;
}

/* Run one message through both drivers; 1 if equal. */
static int compare(int a, int b, int encrypt, const uint8_t *iv,
		   unsigned int ivlen, const uint8_t *in, uint8_t *oa,
		   uint8_t *ob, size_t len, int *err)
{
	int pieces = 1 + rnd() % 4;
	uint64_t s = seed;

	*err = cipher_op(a, encrypt, iv, ivlen, in, oa, len, pieces);
	if (*err)
		return 0;
	seed = s;	/* the same split for the reference */
	*err = cipher_op(b, encrypt, iv, ivlen, in, ob, len, pieces);
	return !*err && !memcmp(oa, ob, len);
}

static unsigned int iv_size(const char *driver)
{
	return driver[0] == 'x' ? 32 : 16;
}

static int cmd_diff(const char *driver, const char *ref, int quick)
{
	static const size_t all_big[] = { 4095, 4096, 4097, 8191, 8193,
					  3 * 4096 + 17, 65536 + 1, 1 << 20,
					  (1 << 20) + 13 };
	static const size_t quick_big[] = { 4095, 4096, 4097, 65549 };
	const size_t *big = quick ? quick_big : all_big;
	size_t nbig = quick ? sizeof(quick_big) / sizeof(quick_big[0]) :
			      sizeof(all_big) / sizeof(all_big[0]);
	unsigned int ivlen = iv_size(driver);
	size_t max = (1 << 20) + 64, len, bad = 0, bad_len = 0;
	uint8_t key[32], iv[32];
	uint8_t *in = malloc(max), *oa = malloc(max), *ob = malloc(max);
	int a = tfm_open(driver), b = tfm_open(ref), err = 0, i;

	if (a < 0 || b < 0 || !in || !oa || !ob) {
		result(0, "%s: diff vs %s: cannot open (%d, %d)", driver, ref,
		       a, b);
		return 1;
	}
	fill(in, max);

	for (len = 0; len <= 1100 + nbig; len++) {
		size_t n = len <= 1100 ? len : big[len - 1101];
		int enc;

		/* quick: above 300, every 37th length (301, 338, ... 1079) */
		if (quick && len > 300 && len <= 1100 && (len - 301) % 37)
			continue;

		if (len % 16 == 0 || len > 1100) {
			fill(key, 32);
			if (set_key(a, key, 32) || set_key(b, key, 32)) {
				bad++;
				break;
			}
		}
		fill(iv, ivlen);
		/* every third message: a counter that wraps within it */
		if (len % 3 == 0) {
			unsigned int off = ivlen == 32 ? 24 : 0;
			uint32_t ctr = 0xffffffff - rnd() % 4;

			memcpy(iv + off, &ctr, 4);
		}
		for (enc = 0; enc < 2; enc++) {
			if (!compare(a, b, enc, iv, ivlen, in + len % 7, oa, ob,
				     n, &err)) {
				if (!bad++)
					bad_len = n;
			}
		}
	}
	if (bad)
		result(0, "%s: diff vs %s: %zu mismatches, first at length %zu (err %d)",
		       driver, ref, bad, bad_len, err);
	else
		result(1, "%s: equals %s, lengths %s, split sends, counter wrap, encrypt and decrypt",
		       driver, ref, quick ?
		       "0..300, 301..1100 step 37, 4095, 4096, 4097, 65549" :
		       "0..1100, page-crossing and MiB sizes");
	for (i = 0; i < 2; i++)
		close(i ? a : b);
	free(in);
	free(oa);
	free(ob);
	return 0;
}

static int cmd_bad(const char *driver, const char *ref)
{
	static const unsigned int keylens[] = { 0, 16, 31, 33, 64 };
	unsigned int ivlen = iv_size(driver), bad_iv[3] = { 8, 12, 24 };
	uint8_t key[64], iv[48], in[300], oa[300], ob[300];
	int a = tfm_open(driver), b = tfm_open(ref), err;
	unsigned int i;

	if (a < 0 || b < 0) {
		result(0, "%s: bad input: cannot open (%d, %d)", driver, a, b);
		return 1;
	}
	fill(key, sizeof(key));
	fill(iv, sizeof(iv));
	fill(in, sizeof(in));
	for (i = 0; i < 5; i++) {
		err = set_key(a, key, keylens[i]);
		result(err == -EINVAL, "%s: %u-byte key refused with -EINVAL (got %d)",
		       driver, keylens[i], err);
	}
	if (set_key(a, key, 32) || set_key(b, key, 32))
		result(0, "%s: 32-byte key accepted", driver);
	bad_iv[2] = ivlen == 32 ? 16 : 24;
	for (i = 0; i < 3; i++) {
		err = cipher_op(a, 1, iv, bad_iv[i], in, oa, sizeof(in), 1);
		result(err == -EINVAL, "%s: %u-byte IV refused with -EINVAL (got %d)",
		       driver, bad_iv[i], err);
	}
	result(compare(a, b, 1, iv, ivlen, in, oa, ob, sizeof(in), &err),
	       "%s: still equals %s after bad input (err %d)", driver, ref,
	       err);
	close(a);
	close(b);
	return 0;
}

/*
 * /proc/crypto lists exactly the expected kchacha drivers, the three
 * skciphers and the rng of every implementation, each at its priority (an
 * rng's where the entry gives it: impl:prio:rngprio; the caller checks it
 * otherwise) and with its self-test passed: a driver left over, missing,
 * at another priority or not passed fails.
 */
static int cmd_proc(const char *expect)
{
	static const char *const algs[] = {
		"chacha20", "xchacha20", "xchacha12", "chacha20rng"
	};
	char line[256], driver[128] = "", name[128] = "", want[1024];
	char anyprio[512] = " ";
	char *list = strdup(expect), *tok, *save;
	int prio = -1, found = 0, expected = 0, bad = 0;
	FILE *f = fopen("/proc/crypto", "r");

	if (!f || !list) {
		result(0, "/proc/crypto readable");
		return 1;
	}
	/* want: " alg-kchacha-impl:prio " for every expected driver */
	want[0] = ' ';
	want[1] = 0;
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char impl[32];
		int p, rp;

		int n = sscanf(tok, "%31[^:]:%d:%d", impl, &p, &rp);

		if (n < 2) {
			result(0, "kctest proc: '%s' is not impl:priority[:rng-priority]",
			       tok);
			bad++;
			continue;
		}
		for (int i = 0; i < 4; i++) {
			if (i == 3 && n == 2)
				snprintf(anyprio + strlen(anyprio),
					 sizeof(anyprio) - strlen(anyprio),
					 "%s-kchacha-%s ", algs[i], impl);
			else
				snprintf(want + strlen(want),
					 sizeof(want) - strlen(want),
					 "%s-kchacha-%s:%d ", algs[i], impl,
					 i < 3 ? p : rp);
			expected++;
		}
	}
	while (fgets(line, sizeof(line), f)) {
		char key[160];
		int ok;

		if (sscanf(line, "name : %127s", name) == 1)
			continue;
		if (sscanf(line, "driver : %127s", driver) == 1)
			continue;
		if (sscanf(line, "priority : %d", &prio) == 1)
			continue;
		if (!strstr(driver, "-kchacha-") || strncmp(line, "selftest", 8))
			continue;
		snprintf(key, sizeof(key), " %s:%d ", driver, prio);
		ok = strstr(want, key) != NULL;
		snprintf(key, sizeof(key), " %s ", driver);
		ok = (ok || strstr(anyprio, key)) && strstr(line, "passed");
		result(ok, "/proc/crypto: %s (%s) priority %d, %s%s",
		       driver, name, prio, strchr(line, ':') + 2,
		       ok ? "" : "\texpected one of:");
		if (!ok)
			printf("\t%s%s\n", want, anyprio);
		found += ok;
		driver[0] = 0;
	}
	fclose(f);
	result(found == expected && !bad,
	       "/proc/crypto: %d of the %d expected kchacha drivers (%s)",
	       found, expected, expect);
	free(list);
	return 0;
}

static int cmd_hold(const char *driver, int secs)
{
	int fd = tfm_open(driver);

	if (fd < 0) {
		result(0, "%s: bind for hold (%d)", driver, fd);
		return 1;
	}
	printf("bound %s\n", driver);
	fflush(stdout);
	sleep(secs);
	close(fd);
	return 0;
}

/* -u: the uid to become before the command runs, -1 for none */
static long run_as = -1;

/* Become run_as, with no capabilities left; 0 if that worked. */
static int become_user(void)
{
	char line[128];
	int caps = -1;
	FILE *f;

	if (run_as < 0)
		return 0;
	if (setgroups(0, NULL) || setgid(run_as) || setuid(run_as)) {
		result(0, "becoming uid %ld: %s", run_as, strerror(errno));
		return -1;
	}
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7))
			caps = strspn(line + 7, " \t0") == strlen(line + 7) - 1;
	if (f)
		fclose(f);
	if (geteuid() != run_as || caps != 1) {
		result(0, "running as uid %ld without capabilities (euid %d)",
		       run_as, (int)geteuid());
		return -1;
	}
	return 0;
}

static int cmd_refused(const char *type, char **names, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		int fd = alg_open(type, names[i]);

		result(fd == -ENOENT, "%s bind of %s %s refused with ENOENT (got %d)",
		       run_as < 0 ? "root's" : "an unprivileged", type, names[i],
		       fd);
		if (fd >= 0)
			close(fd);
	}
	return 0;
}

/* One /proc/crypto entry: cra_name, driver and refcnt. */
struct entry {
	char name[128], driver[128];
	long refcnt;
};

/* Every /proc/crypto entry into @e (at most @max); how many. */
static int read_entries(struct entry *e, int max)
{
	char line[256], name[128] = "", driver[128] = "";
	FILE *f = fopen("/proc/crypto", "r");
	long refcnt;
	int n = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "name : %127s", name) == 1)
			continue;
		if (sscanf(line, "driver : %127s", driver) == 1)
			continue;
		if (sscanf(line, "refcnt : %ld", &refcnt) == 1 && n < max) {
			strcpy(e[n].name, name);
			strcpy(e[n].driver, driver);
			e[n++].refcnt = refcnt;
		}
	}
	if (f)
		fclose(f);
	return n;
}

#define MAX_ENTRIES 1024

static int cmd_which(const char *type, const char *name)
{
	static struct entry before[MAX_ENTRIES], after[MAX_ENTRIES];
	int nb = read_entries(before, MAX_ENTRIES), na, i, j, fd, risen = 0;

	fd = alg_open(type, name);
	if (fd < 0) {
		printf("bind of %s %s failed (%d)\n", type, name, fd);
		return 1;
	}
	na = read_entries(after, MAX_ENTRIES);
	for (i = 0; i < na; i++) {
		long was = 0;

		for (j = 0; j < nb; j++)
			if (!strcmp(before[j].driver, after[i].driver))
				was = before[j].refcnt;
		if (after[i].refcnt > was) {
			printf("risen %s %s\n", after[i].name, after[i].driver);
			risen++;
		}
	}
	close(fd);
	return !risen;
}

/*
 * Adiantum takes 32-byte keys and IVs and at least 16 bytes; the same
 * seed gives every run the same keys, IVs and messages.
 */
static int cmd_adiantum(const char *name, int out)
{
	static const size_t lens[] = { 16, 17, 31, 32, 33, 63, 64, 100, 255,
				       256, 511, 512, 1420, 4095, 4096, 4097,
				       3 * 4096 + 17, 65536 };
	size_t max = 65536, i, n = sizeof(lens) / sizeof(lens[0]), back = 0;
	uint8_t *in = malloc(max), *ct = malloc(max), *pt = malloc(max);
	uint8_t key[32], iv[32];
	int tfm, err = 0;

	if (become_user())
		return 1;
	tfm = alg_open("skcipher", name);
	result(tfm >= 0, "%s bind of skcipher %s (%d)",
	       run_as < 0 ? "root's" : "an unprivileged", name, tfm);
	if (tfm < 0 || !in || !ct || !pt)
		return 1;
	for (i = 0; i < n && !err; i++) {
		fill(key, sizeof(key));
		fill(iv, sizeof(iv));
		fill(in, lens[i]);
		err = set_key(tfm, key, sizeof(key));
		if (!err)
			err = cipher_op(tfm, 1, iv, sizeof(iv), in, ct, lens[i], 1);
		if (!err)
			err = cipher_op(tfm, 0, iv, sizeof(iv), ct, pt, lens[i],
					1 + i % 3);
		if (!err && write(out, ct, lens[i]) != (ssize_t)lens[i])
			err = -EIO;
		back += !err && !memcmp(pt, in, lens[i]) && memcmp(ct, in, lens[i]);
	}
	result(!err && back == n,
	       "%s: %zu messages of 16..65536 bytes encrypted, each decrypting back (err %d)",
	       name, back, err);
	close(tfm);
	free(in);
	free(ct);
	free(pt);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 3 && !strcmp(argv[1], "-u")) {
		run_as = atol(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc == 4 && !strcmp(argv[1], "adiantum")) {
		int out = open(argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (out < 0) {
			result(0, "opening %s", argv[3]);
			return 1;
		}
		cmd_adiantum(argv[2], out);
		close(out);
		return failed > 100 ? 100 : failed;
	}
	if (become_user())
		return 1;
	if (argc >= 4 && !strcmp(argv[1], "refused"))
		cmd_refused(argv[2], argv + 3, argc - 3);
	else if (argc == 4 && !strcmp(argv[1], "which"))
		return cmd_which(argv[2], argv[3]);
	else if (argc == 3 && !strcmp(argv[1], "proc"))
		cmd_proc(argv[2]);
	else if (argc == 4 && !strcmp(argv[1], "diff"))
		cmd_diff(argv[2], argv[3], 0);
	else if (argc == 4 && !strcmp(argv[1], "quick"))
		cmd_diff(argv[2], argv[3], 1);
	else if (argc == 4 && !strcmp(argv[1], "bad"))
		cmd_bad(argv[2], argv[3]);
	else if (argc == 4 && !strcmp(argv[1], "hold"))
		return cmd_hold(argv[2], atoi(argv[3]));
	else {
		fprintf(stderr, "usage: see the head of kctest.c\n");
		return 2;
	}
	return failed > 100 ? 100 : failed;
}
