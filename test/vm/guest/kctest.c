// SPDX-License-Identifier: GPL-2.0-only
/*
 * kctest: the guest side of the VM tests, through AF_ALG only.
 *
 *   kctest proc <impl:prio:rngprio,...>
 *                                    /proc/crypto holds exactly these
 *                                    kchacha drivers, each with its
 *                                    priority (the skciphers', the rng's)
 *                                    and "selftest : passed"
 *   kctest diff <driver> <ref>       differential test against <ref>
 *   kctest quick <driver> <ref>      the same with fewer lengths (every
 *                                    one to 300, a spread to 1100, 4095,
 *                                    4096, 4097 and 65549), for slow VMs
 *   kctest bad <driver> <ref>        bad keys and IV lengths get -EINVAL,
 *                                    and the driver still works after
 *   kctest hold <driver> <secs>      keep a socket bound (for rmmod tests)
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
#include <sys/socket.h>
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

static int tfm_open(const char *driver)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG, .salg_type = "skcipher" };
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
 * skciphers and the rng of every implementation, each at its priority and
 * with its self-test passed: a driver left over, missing, at another
 * priority or not passed fails.
 */
static int cmd_proc(const char *expect)
{
	static const char *const algs[] = {
		"chacha20", "xchacha20", "xchacha12", "chacha20rng"
	};
	char line[256], driver[128] = "", name[128] = "", want[1024];
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

		if (sscanf(tok, "%31[^:]:%d:%d", impl, &p, &rp) != 3) {
			result(0, "kctest proc: '%s' is not impl:priority:rng-priority",
			       tok);
			bad++;
			continue;
		}
		for (int i = 0; i < 4; i++) {
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
				 "%s-kchacha-%s:%d ", algs[i], impl, i < 3 ? p : rp);
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
		ok = strstr(want, key) && strstr(line, "passed");
		result(ok, "/proc/crypto: %s (%s) priority %d, %s%s",
		       driver, name, prio, strchr(line, ':') + 2,
		       ok ? "" : "\texpected one of:");
		if (!ok)
			printf("\t%s\n", want);
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

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "proc"))
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
