// SPDX-License-Identifier: GPL-2.0-only
/*
 * rngvm: the guest side of the rng's reseed and memory tests (issue 14),
 * through AF_ALG and the module's counters in debugfs (kchacha/rng).
 *
 *   rngvm mem <driver> <n> <skcipher>
 *                            n rng sockets (one instance each), each read
 *                            once on CPU 0: the growth of Slab + Percpu in
 *                            /proc/meminfo per socket, less that of as many
 *                            sockets of the in-tree chacha20 skcipher
 *                            driver <skcipher> (chacha20-generic,
 *                            chacha20-lib), within one context and one
 *                            per-CPU state (pcpu_bytes of debugfs, at
 *                            most 2112) per possible CPU: the documented
 *                            bound
 *   rngvm early <driver>     the kernel RNG is not ready: a socket read
 *                            now, then again as soon as getrandom(2) says
 *                            the RNG is ready, must have reseeded from it
 *   rngvm clone <driver>     a socket read, "KCRNG READY" for the host to
 *                            clone the VM (migrate it to a new QEMU with
 *                            another vmgenid), then: the next read must
 *                            come from a reseeded key
 *   rngvm resume <driver> <state>
 *                            a socket read, then the system suspends
 *                            (<state> into /sys/power/state: "mem" with
 *                            mem_sleep "deep", ACPI S3, or "freeze") and
 *                            an RTC alarm 2 s later wakes it: the syscore
 *                            resume hook and the PM notifier must have run
 *                            once each, and after the resume the next
 *                            read, and only it, must come from a reseeded
 *                            key
 *
 * Each check prints "PASS what" or "FAIL what: why"; the exit status is 1
 * on any failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/if_alg.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "result.h"

#define STATS		"/sys/kernel/debug/kchacha/rng"
/* The documented bounds (doc/rng.md, "Reseed rules"). */
#define CTX_BYTES	1024
#define PCPU_BYTES	2112

/* An accept()ed socket of a new instance of @driver (@type), or -1. */
static int alg_open(const char *type, const char *driver, int *tfm)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET, 0), op;

	if (fd < 0)
		return -1;
	strncpy((char *)sa.salg_type, type, sizeof(sa.salg_type) - 1);
	strncpy((char *)sa.salg_name, driver, sizeof(sa.salg_name) - 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	op = accept(fd, NULL, 0);
	if (op < 0) {
		close(fd);
		return -1;
	}
	*tfm = fd;
	return op;
}

static int rng_read(int op, unsigned char *buf, size_t len)
{
	return read(op, buf, len) == (ssize_t)len ? 0 : -1;
}

/* A counter of kchacha/rng in debugfs, or -1. */
static long counter(const char *name)
{
	char key[64];
	long v, found = -1;
	FILE *f = fopen(STATS, "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %ld", key, &v) == 2)
		if (!strcmp(key, name))
			found = v;
	fclose(f);
	return found;
}

/* kB of a /proc/meminfo line */
static long meminfo(const char *name)
{
	char line[256];
	size_t n = strlen(name);
	long v = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && line[n] == ':')
			v = strtol(line + n + 1, NULL, 10);
	if (f)
		fclose(f);
	return v;
}

static long kernel_kb(void)
{
	return meminfo("Slab") + meminfo("Percpu");
}

/* Bytes of Slab + Percpu per socket for @n sockets of @type/@driver. */
static long growth(const char *type, const char *driver, int n, int *fds)
{
	unsigned char buf[16];
	long before, after;
	int i, bad = 0;

	sync();
	before = kernel_kb();
	for (i = 0; i < n; i++) {
		fds[2 * i + 1] = alg_open(type, driver, &fds[2 * i]);
		if (fds[2 * i + 1] < 0 ||
		    (!strcmp(type, "rng") && rng_read(fds[2 * i + 1], buf, 16)))
			bad++;
	}
	after = kernel_kb();
	if (bad)
		return -1;
	return (after - before) * 1024 / n;
}

static void close_all(int *fds, int n)
{
	for (int i = 0; i < 2 * n; i++)
		close(fds[i]);
}

/* The number of possible CPUs (/sys/devices/system/cpu/possible), or -1. */
static long possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	long n = 0, a, b;
	char sep;

	if (!f)
		return -1;
	while (fscanf(f, "%ld", &a) == 1) {
		b = a;
		sep = fgetc(f);
		if (sep == '-') {
			if (fscanf(f, "%ld", &b) != 1)
				break;
			sep = fgetc(f);
		}
		n += b - a + 1;
		if (sep != ',')
			break;
	}
	fclose(f);
	return n ? n : -1;
}

static int test_mem(const char *driver, int n, const char *skcipher)
{
	struct rlimit rl = { 4 * n + 64, 4 * n + 64 };
	int *fds = calloc(2 * n, sizeof(int));
	long skc, rng, mfree, pcpu = counter("pcpu_bytes");
	long cpus = possible_cpus(), bound;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (setrlimit(RLIMIT_NOFILE, &rl) || sched_setaffinity(0, sizeof(set), &set)) {
		result(0, "rngvm mem: setrlimit/sched_setaffinity: %s", strerror(errno));
		return 1;
	}
	skc = growth("skcipher", skcipher, n, fds);
	close_all(fds, n);
	mfree = meminfo("MemFree");
	rng = growth("rng", driver, n, fds);
	mfree -= meminfo("MemFree");
	close_all(fds, n);
	bound = CTX_BYTES + PCPU_BYTES * cpus;
	printf("rngvm mem: %d sockets: Slab+Percpu per socket: %s skcipher %ld bytes, %s %ld bytes (MemFree -%ld kB in all); per-CPU state %ld bytes, %ld possible CPUs\n",
	       n, skcipher, skc, driver, rng, mfree, pcpu, cpus);
	result(skc >= 0 && rng >= 0, "%d sockets of %s and of %s opened and read",
	       n, driver, skcipher);
	result(pcpu > 0 && pcpu <= PCPU_BYTES && pcpu % 64 == 0 && cpus > 0,
	       "a per-CPU state is whole cache lines, at most %d bytes (%ld)",
	       PCPU_BYTES, pcpu);
	result(rng - skc <= bound,
	       "an rng instance costs at most a context and a per-CPU state per possible CPU (%ld bytes): %ld more than a skcipher socket",
	       bound, rng - skc);
	free(fds);
	return failed;
}

static int ready_now(void)
{
	unsigned char b;

	return getrandom(&b, 1, GRND_NONBLOCK) == 1;
}

static int test_early(const char *driver)
{
	long reseeds, r1;
	unsigned char buf[16];
	int tfm, op;

	op = alg_open("rng", driver, &tfm);
	if (op < 0 || rng_read(op, buf, 16)) {
		result(0, "rngvm early: %s socket: %s", driver, strerror(errno));
		return 1;
	}
	if (ready_now()) {
		result(0, "the kernel RNG is not ready when the module's first instance reads (it is: the test cannot run)");
		return 1;
	}
	result(1, "an instance of %s created and read before the kernel RNG is ready", driver);
	reseeds = counter("reseeds");
	/* blocks until the kernel RNG is initialized */
	if (getrandom(buf, 16, 0) != 16) {
		result(0, "getrandom: %s", strerror(errno));
		return 1;
	}
	if (rng_read(op, buf, 16)) {
		result(0, "read after the RNG became ready: %s", strerror(errno));
		return 1;
	}
	r1 = counter("reseeds");
	printf("rngvm early: reseeds %ld -> %ld\n", reseeds, r1);
	result(reseeds >= 0 && r1 == reseeds + 1,
	       "its first read after the kernel RNG became ready reseeded it from the ready RNG");
	close(op);
	close(tfm);
	return failed;
}

static int test_clone(const char *driver)
{
	long reseeds, forks, r1, f1;
	unsigned char buf[16];
	struct timespec ts = { 0, 100 * 1000 * 1000 };
	int tfm, op, i;

	op = alg_open("rng", driver, &tfm);
	if (op < 0 || rng_read(op, buf, 16) || rng_read(op, buf, 16)) {
		result(0, "rngvm clone: %s socket: %s", driver, strerror(errno));
		return 1;
	}
	reseeds = counter("reseeds");
	forks = counter("vmforks");
	rng_read(op, buf, 16);
	result(reseeds >= 0 && counter("reseeds") == reseeds,
	       "a read before the clone does not reseed");
	printf("KCRNG READY\n");
	fflush(stdout);
	for (i = 0; i < 3000 && counter("vmforks") == forks; i++)
		nanosleep(&ts, NULL);
	result(counter("vmforks") == forks + 1,
	       "the vmfork notifier ran once after the clone (%ld)",
	       counter("vmforks") - forks);
	r1 = counter("reseeds");
	result(r1 == reseeds, "no instance reseeded before its next request");
	rng_read(op, buf, 16);
	r1 = counter("reseeds");
	f1 = counter("vmforks");
	printf("rngvm clone: reseeds %ld -> %ld, vmforks %ld -> %ld\n",
	       reseeds, r1, forks, f1);
	result(r1 == reseeds + 1,
	       "the first read after the clone came from a key reseeded for it");
	rng_read(op, buf, 16);
	result(counter("reseeds") == r1, "the next read does not reseed again");
	close(op);
	close(tfm);
	return failed;
}

/* Write @val into the sysfs file @path; 0 or -1. */
static int sysfs_write(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");
	int err;

	if (!f)
		return -1;
	err = fputs(val, f) < 0;
	err |= fclose(f) != 0;
	return err ? -1 : 0;
}

#define WAKEALARM	"/sys/class/rtc/rtc0/wakealarm"

static int test_resume(const char *driver, const char *state)
{
	long reseeds, resumes, r1, s1, sys, sys1;
	struct timespec t0, t1;
	unsigned char buf[16];
	int tfm, op, err;

	op = alg_open("rng", driver, &tfm);
	if (op < 0 || rng_read(op, buf, 16) || rng_read(op, buf, 16)) {
		result(0, "rngvm resume: %s socket: %s", driver, strerror(errno));
		return 1;
	}
	reseeds = counter("reseeds");
	resumes = counter("resumes");
	sys = counter("syscore_resumes");
	rng_read(op, buf, 16);
	result(reseeds >= 0 && resumes >= 0 &&
	       counter("reseeds") == reseeds,
	       "a read before the suspend does not reseed");
	/* the alarm, then the suspend: the write returns after the resume */
	clock_gettime(CLOCK_BOOTTIME, &t0);
	err = sysfs_write(WAKEALARM, "0") || sysfs_write(WAKEALARM, "+2");
	result(!err, "RTC wake alarm set in 2 s (%s)", WAKEALARM);
	if (err)
		return 1;
	/* "mem": suspend to RAM (S3), not to idle, where the kernel offers it */
	if (!strcmp(state, "mem"))
		err = sysfs_write("/sys/power/mem_sleep", "deep");
	err = err || sysfs_write("/sys/power/state", state);
	clock_gettime(CLOCK_BOOTTIME, &t1);
	printf("rngvm resume: suspend (%s) %s, back after %ld s\n", state,
	       err ? "failed" : "done", (long)(t1.tv_sec - t0.tv_sec));
	result(!err, "echo %s > /sys/power/state: suspended and resumed", state);
	s1 = counter("resumes");
	sys1 = counter("syscore_resumes");
	r1 = counter("reseeds");
	result(sys >= 0 && sys1 == sys + 1,
	       "the syscore resume hook ran once, before any task (%ld)",
	       sys1 - sys);
	result(s1 == resumes + 1, "the PM notifier saw one resume (%ld)",
	       s1 - resumes);
	result(r1 == reseeds, "no instance reseeded before its next request (%ld)",
	       r1 - reseeds);
	rng_read(op, buf, 16);
	r1 = counter("reseeds");
	printf("rngvm resume: reseeds %ld -> %ld, resumes %ld -> %ld, syscore_resumes %ld -> %ld\n",
	       reseeds, r1, resumes, s1, sys, sys1);
	result(r1 == reseeds + 1,
	       "the first read after the resume came from a key reseeded for it");
	rng_read(op, buf, 16);
	result(counter("reseeds") == r1, "the next read does not reseed again");
	close(op);
	close(tfm);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "mem"))
		return test_mem(argv[2], atoi(argv[3]), argv[4]) ? 1 : 0;
	if (argc == 3 && !strcmp(argv[1], "early"))
		return test_early(argv[2]) ? 1 : 0;
	if (argc == 3 && !strcmp(argv[1], "clone"))
		return test_clone(argv[2]) ? 1 : 0;
	if (argc == 4 && !strcmp(argv[1], "resume"))
		return test_resume(argv[2], argv[3]) ? 1 : 0;
	fprintf(stderr, "usage: rngvm mem <driver> <n> <skcipher> | early <driver> | clone <driver> | resume <driver> freeze|mem\n");
	return 2;
}
