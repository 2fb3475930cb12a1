// SPDX-License-Identifier: GPL-2.0-only
/*
 * dmcrypt: Adiantum disk encryption through kchacha's XChaCha12, read back
 * through the kernel's own drivers.  A guest program of the VM suite
 * (test/vm/guest/init.sh); prints PASS and FAIL lines.
 *
 *   dmcrypt BLOCKDEV DRIVER REFERENCE
 *
 * On BLOCKDEV (a RAM disk of at least 1 MiB), a dm-crypt mapping with
 * capi:adiantum(xchacha12,aes)-plain64 must resolve its stream cipher to
 * DRIVER (the highest-priority xchacha12, e.g. xchacha12-kchacha-neon).
 * Data written through it must be enciphered on the disk and read back
 * equal through a second mapping, REFERENCE, that names the in-tree
 * drivers in what the kernel's adiantum template accepts (init.sh finds
 * them in /proc/crypto), e.g.
 * capi:adiantum(xchacha12-generic,aes-generic,nhpoly1305-generic)-plain64
 * on 6.1, capi:adiantum(xchacha12-lib,aes-lib)-plain64 on 7.x, with the
 * same key; and what that one writes, the first reads back.  The device
 * mapper is driven with its ioctls, as dmsetup does.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/dm-ioctl.h>

#define SECTORS	2048		/* 1 MiB */
#define HALF	(SECTORS * 512 / 2)

static int passed, failed;

static void check(int ok, const char *what)
{
	printf("%s dm-crypt: %s\n", ok ? "PASS" : "FAIL", what);
	if (ok)
		passed++;
	else
		failed++;
}

static int dm(int ctl, unsigned long cmd, const char *name, __u32 flags,
	      const char *params, struct dm_ioctl *out)
{
	union {
		struct dm_ioctl io;
		char bytes[16384];
	} buf;
	struct dm_ioctl *io = &buf.io;
	struct dm_target_spec *spec = (void *)(io + 1);

	memset(&buf, 0, sizeof(buf));
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = sizeof(buf);
	io->data_start = sizeof(*io);
	io->flags = flags;
	snprintf(io->name, sizeof(io->name), "%s", name);
	if (params) {
		size_t len = strlen(params) + 1;

		io->target_count = 1;
		spec->sector_start = 0;
		spec->length = SECTORS;
		snprintf(spec->target_type, sizeof(spec->target_type), "crypt");
		memcpy(spec + 1, params, len);
		spec->next = (sizeof(*spec) + len + 7) & ~7u;
	}
	if (ioctl(ctl, cmd, io) < 0) {
		perror(name);
		return -1;
	}
	if (out)
		*out = *io;
	return 0;
}

/* Map BLOCKDEV as NAME with CIPHER; the path of the new device in PATH. */
static int map(int ctl, const char *name, const char *cipher,
	       const char *key, const char *blockdev, char *path, size_t n)
{
	struct dm_ioctl io;
	char params[512];
	struct stat st;

	if (stat(blockdev, &st) < 0)
		return -1;
	snprintf(params, sizeof(params), "%s %s 0 %u:%u 0", cipher, key,
		 major(st.st_rdev), minor(st.st_rdev));
	if (dm(ctl, DM_DEV_CREATE, name, 0, NULL, NULL) < 0)
		return -1;
	if (dm(ctl, DM_TABLE_LOAD, name, 0, params, NULL) < 0 ||
	    dm(ctl, DM_DEV_SUSPEND, name, 0, NULL, &io) < 0) {
		dm(ctl, DM_DEV_REMOVE, name, 0, NULL, NULL);
		return -1;
	}
	snprintf(path, n, "/dev/dm-%u", minor(io.dev));
	return 0;
}

static int unmap(int ctl, const char *name)
{
	return dm(ctl, DM_DEV_REMOVE, name, 0, NULL, NULL);
}

/* Whole-buffer direct I/O at OFF, so that no page cache stands between */
static int io(const char *path, int write, void *buf, size_t len, off_t off)
{
	int fd = open(path, (write ? O_WRONLY : O_RDONLY) | O_DIRECT);
	ssize_t n;

	if (fd < 0) {
		perror(path);
		return -1;
	}
	n = write ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);
	if (write && n == (ssize_t)len && fsync(fd) < 0)
		n = -1;
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* The driver of the first /proc/crypto entry named NAME contains WANT */
static int driver_of(const char *name, const char *want)
{
	FILE *f = fopen("/proc/crypto", "r");
	char line[512], cur[256] = "";
	int found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "name : %255s", cur) == 1)
			continue;
		if (!strcmp(cur, name) && strstr(line, "driver") == line) {
			printf("dm-crypt: %s", line);
			found = !!strstr(line, want);
			break;
		}
	}
	fclose(f);
	return found;
}

int main(int argc, char **argv)
{
	const char *mine = "capi:adiantum(xchacha12,aes)-plain64";
	const char *theirs;
	char key[65], path[64];
	unsigned char raw[32];
	unsigned char *p, *q, *c;
	int ctl, rnd;

	if (argc != 4) {
		fprintf(stderr, "usage: dmcrypt BLOCKDEV DRIVER REFERENCE\n");
		return 2;
	}
	theirs = argv[3];
	if (posix_memalign((void **)&p, 4096, 2 * HALF) ||
	    posix_memalign((void **)&q, 4096, 2 * HALF) ||
	    posix_memalign((void **)&c, 4096, 2 * HALF))
		return 2;
	rnd = open("/dev/urandom", O_RDONLY);
	if (rnd < 0 || read(rnd, raw, sizeof(raw)) != sizeof(raw) ||
	    read(rnd, p, 2 * HALF) != 2 * HALF)
		return 2;
	close(rnd);
	for (int i = 0; i < 32; i++)
		sprintf(key + 2 * i, "%02x", raw[i]);
	ctl = open("/dev/mapper/control", O_RDWR);
	if (ctl < 0) {
		perror("/dev/mapper/control");
		check(0, "device mapper control");
		return 1;
	}

	/* kchacha's XChaCha12 writes the first half */
	if (map(ctl, "kc-mine", mine, key, argv[1], path, sizeof(path))) {
		check(0, mine);
		return 1;
	}
	check(driver_of("adiantum(xchacha12,aes)", argv[2]),
	      "adiantum(xchacha12,aes) runs on the expected xchacha12 driver");
	check(!io(path, 1, p, HALF, 0), "write through the kchacha mapping");
	check(!io(argv[1], 0, c, HALF, 0) && memcmp(c, p, HALF),
	      "the disk holds ciphertext, not the data written");
	check(!unmap(ctl, "kc-mine"), "remove the kchacha mapping");

	/* the in-tree drivers read it and write the second half */
	if (map(ctl, "kc-theirs", theirs, key, argv[1], path, sizeof(path))) {
		check(0, theirs);
		return 1;
	}
	check(!io(path, 0, q, HALF, 0) && !memcmp(q, p, HALF),
	      "the in-tree drivers' Adiantum reads back what kchacha wrote");
	check(!io(path, 1, p + HALF, HALF, HALF),
	      "write through the in-tree drivers' mapping");
	check(!unmap(ctl, "kc-theirs"), "remove the in-tree drivers' mapping");

	/* and kchacha reads both halves */
	if (map(ctl, "kc-mine", mine, key, argv[1], path, sizeof(path))) {
		check(0, mine);
		return 1;
	}
	check(!io(path, 0, q, 2 * HALF, 0) && !memcmp(q, p, 2 * HALF),
	      "kchacha reads back what the in-tree code wrote, and its own");
	check(!unmap(ctl, "kc-mine"), "remove the kchacha mapping again");
	close(ctl);
	printf("dm-crypt: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
