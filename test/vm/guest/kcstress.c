// SPDX-License-Identifier: GPL-2.0-only
/*
 * kcstress: one AF_ALG transform used from every CPU at once, for a bounded
 * time (the debug-kernel tier, `make check-debug`).
 *
 *   kcstress rng <driver> <secs>       one seeded rng tfm, a reader pinned
 *                                      to each CPU
 *   kcstress skcipher <driver> <secs>  one keyed skcipher tfm, an
 *                                      encrypt/decrypt round trip loop
 *                                      pinned to each CPU, each
 *                                      ciphertext compared with the
 *                                      in-tree <alg>-generic driver's
 *
 * Each worker accepts its own operation socket on the shared parent, so
 * the requests meet in the same tfm.  Prints "PASS what" or "FAIL what:
 * why" per worker; the exit status is the number of failures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_alg.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define MAXLEN 8192

static uint64_t seed;

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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parent_open(const char *type, const char *driver)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET, 0);

	if (fd < 0)
		return -1;
	strncpy((char *)sa.salg_type, type, sizeof(sa.salg_type) - 1);
	strncpy((char *)sa.salg_name, driver, sizeof(sa.salg_name) - 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int set_key(int tfm, const uint8_t *key, unsigned int len)
{
	return setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, len);
}

/* Read random bytes until the time is up; any short or failed read fails. */
static int rng_worker(int tfm, const char *driver, int cpu, double end)
{
	uint8_t prev[128], buf[128];
	unsigned long reads = 0, bytes = 0, same = 0;
	int op = accept(tfm, NULL, 0);

	if (op < 0) {
		printf("FAIL rng %s cpu %d: accept: %s\n", driver, cpu,
		       strerror(errno));
		return 1;
	}
	memset(prev, 0, sizeof(prev));
	while (now() < end) {
		size_t len = 1 + rnd() % sizeof(buf);
		ssize_t n = read(op, buf, len);

		if (n != (ssize_t)len) {
			printf("FAIL rng %s cpu %d: read %zu bytes returned %zd (%s) after %lu reads\n",
			       driver, cpu, len, n, n < 0 ? strerror(errno) : "short",
			       reads);
			close(op);
			return 1;
		}
		if (len >= 16 && !memcmp(buf, prev, 16))
			same++;
		memcpy(prev, buf, len);
		reads++;
		bytes += len;
	}
	close(op);
	if (!reads || same) {
		printf("FAIL rng %s cpu %d: %lu reads, %lu repeated a previous output\n",
		       driver, cpu, reads, same);
		return 1;
	}
	printf("PASS rng %s cpu %d: %lu reads, %lu bytes\n", driver, cpu,
	       reads, bytes);
	return 0;
}

static ssize_t alg_crypt(int op, int encrypt, const uint8_t *iv,
		     unsigned int ivlen, const uint8_t *in, uint8_t *out,
		     size_t len)
{
	char cbuf[CMSG_SPACE(4) + CMSG_SPACE(sizeof(struct af_alg_iv) + 32)];
	struct iovec iov = { .iov_base = (void *)in, .iov_len = len };
	struct msghdr msg = {
		.msg_control = cbuf,
		.msg_controllen = CMSG_SPACE(4) +
				  CMSG_SPACE(sizeof(struct af_alg_iv) + ivlen),
		.msg_iov = &iov, .msg_iovlen = 1,
	};
	struct af_alg_iv *aiv;
	struct cmsghdr *c;

	memset(cbuf, 0, sizeof(cbuf));
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(4);
	*(uint32_t *)CMSG_DATA(c) = encrypt ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(*aiv) + ivlen);
	aiv = (struct af_alg_iv *)CMSG_DATA(c);
	aiv->ivlen = ivlen;
	memcpy(aiv->iv, iv, ivlen);
	if (sendmsg(op, &msg, 0) != (ssize_t)len)
		return -1;
	return read(op, out, len);
}

/*
 * Encrypt and decrypt random lengths until the time is up; each ciphertext
 * must equal that of the in-tree generic driver (@ref, keyed alike, a tfm
 * of this worker's own), so a keystream wrong in the same way both ways
 * fails too.
 */
static int skcipher_worker(int tfm, int ref, const char *driver, int cpu,
			   double end)
{
	static uint8_t in[MAXLEN], ct[MAXLEN], pt[MAXLEN], rct[MAXLEN];
	unsigned int ivlen = strncmp(driver, "xchacha", 7) ? 16 : 32;
	unsigned long ops = 0, bytes = 0;
	uint8_t iv[32];
	int op = accept(tfm, NULL, 0), rop = accept(ref, NULL, 0);

	if (op < 0 || rop < 0) {
		printf("FAIL skcipher %s cpu %d: accept: %s\n", driver, cpu,
		       strerror(errno));
		return 1;
	}
	while (now() < end) {
		size_t len = 1 + rnd() % MAXLEN;

		fill(in, len);
		fill(iv, sizeof(iv));
		if (alg_crypt(op, 1, iv, ivlen, in, ct, len) != (ssize_t)len ||
		    alg_crypt(op, 0, iv, ivlen, ct, pt, len) != (ssize_t)len ||
		    alg_crypt(rop, 1, iv, ivlen, in, rct, len) != (ssize_t)len) {
			printf("FAIL skcipher %s cpu %d: length %zu: %s\n",
			       driver, cpu, len, strerror(errno));
			close(op);
			return 1;
		}
		if (memcmp(in, pt, len) || memcmp(ct, rct, len)) {
			printf("FAIL skcipher %s cpu %d: length %zu: %s\n",
			       driver, cpu, len, memcmp(in, pt, len) ?
			       "no round trip" :
			       "ciphertext differs from the generic driver's");
			close(op);
			return 1;
		}
		ops++;
		bytes += len;
	}
	close(op);
	close(rop);
	printf("PASS skcipher %s cpu %d: %lu round trips equal to the generic driver's ciphertext, %lu bytes\n",
	       driver, cpu, ops, bytes);
	return 0;
}

int main(int argc, char **argv)
{
	int rng, tfm, ref = -1, ncpu, cpu, failures = 0, status;
	char refname[64];
	uint8_t key[32];
	double end;

	if (argc != 4 || (strcmp(argv[1], "rng") && strcmp(argv[1], "skcipher"))) {
		fprintf(stderr, "usage: kcstress rng|skcipher <driver> <secs>\n");
		return 2;
	}
	rng = !strcmp(argv[1], "rng");
	seed = time(NULL) ^ getpid();
	tfm = parent_open(argv[1], argv[2]);
	if (tfm < 0) {
		printf("FAIL %s %s: bind: %s\n", argv[1], argv[2], strerror(errno));
		return 1;
	}
	fill(key, sizeof(key));
	if (set_key(tfm, key, sizeof(key)) < 0) {
		printf("FAIL %s %s: %s: %s\n", argv[1], argv[2],
		       rng ? "seeding" : "setting the key", strerror(errno));
		return 1;
	}
	/* <alg>-kchacha-<impl>: the reference is <alg>-generic */
	if (!rng) {
		snprintf(refname, sizeof(refname), "%.*s-generic",
			 (int)strcspn(argv[2], "-"), argv[2]);
		ref = parent_open("skcipher", refname);
		if (ref < 0 || set_key(ref, key, sizeof(key)) < 0) {
			printf("FAIL skcipher %s: the reference %s: %s\n",
			       argv[2], refname, strerror(errno));
			return 1;
		}
	}
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (ncpu < 1)
		ncpu = 1;
	end = now() + atof(argv[3]);
	fflush(stdout);
	for (cpu = 0; cpu < ncpu; cpu++) {
		pid_t pid = fork();

		if (pid < 0) {
			printf("FAIL %s %s: fork: %s\n", argv[1], argv[2],
			       strerror(errno));
			failures++;
			break;
		}
		if (!pid) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set) < 0) {
				printf("FAIL %s %s cpu %d: sched_setaffinity: %s\n",
				       argv[1], argv[2], cpu, strerror(errno));
				fflush(stdout);
				_exit(1);
			}
			seed += cpu * 0x9e3779b97f4a7c15ULL;
			status = rng ? rng_worker(tfm, argv[2], cpu, end) :
				       skcipher_worker(tfm, ref, argv[2], cpu,
						       end);
			fflush(stdout);
			_exit(status);
		}
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failures++;
	close(tfm);
	if (ref >= 0)
		close(ref);
	return failures > 100 ? 100 : failures;
}
