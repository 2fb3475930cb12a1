// SPDX-License-Identifier: GPL-2.0-only
/*
 * fscrypt: the ioctls of file encryption (fscrypt, v2 policies), for the
 * consumers boot of the VM suite (test/vm/sets/consumers).
 *
 *   fscrypt addkey MOUNTPOINT KEYFILE   add the 64-byte raw master key;
 *                                       prints its identifier (hex)
 *   fscrypt policy DIR IDENTIFIER       an empty DIR gets a v2 policy:
 *                                       contents and filenames Adiantum,
 *                                       names padded to 32 bytes
 *   fscrypt info PATH                   "nonce HEX", then one
 *                                       "extent LOGICAL PHYSICAL LENGTH"
 *                                       (bytes) per extent (FIEMAP)
 *
 * Errors go to stderr with a non-zero exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/fscrypt.h>

#define MASTER_KEY_SIZE	64
#define MAX_EXTENTS	64
#define NONCE_SIZE	16	/* FS_IOC_GET_ENCRYPTION_NONCE: __u8[16] */

static int fail(const char *what)
{
	fprintf(stderr, "fscrypt: %s: %s\n", what, strerror(errno));
	return 1;
}

static void hex(const unsigned char *p, size_t n)
{
	while (n--)
		printf("%02x", *p++);
}

static int addkey(const char *mnt, const char *keyfile)
{
	struct {
		struct fscrypt_add_key_arg arg;
		unsigned char raw[MASTER_KEY_SIZE];
	} k;
	int fd, kfd;

	memset(&k, 0, sizeof(k));
	kfd = open(keyfile, O_RDONLY);
	if (kfd < 0 || read(kfd, k.raw, sizeof(k.raw)) != sizeof(k.raw))
		return fail(keyfile);
	close(kfd);
	k.arg.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	k.arg.raw_size = sizeof(k.raw);
	fd = open(mnt, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fail(mnt);
	if (ioctl(fd, FS_IOC_ADD_ENCRYPTION_KEY, &k) < 0)
		return fail("FS_IOC_ADD_ENCRYPTION_KEY");
	close(fd);
	hex(k.arg.key_spec.u.identifier, FSCRYPT_KEY_IDENTIFIER_SIZE);
	printf("\n");
	memset(&k, 0, sizeof(k));
	return 0;
}

static int policy(const char *dir, const char *id)
{
	struct fscrypt_policy_v2 p = {
		.version = FSCRYPT_POLICY_V2,
		.contents_encryption_mode = FSCRYPT_MODE_ADIANTUM,
		.filenames_encryption_mode = FSCRYPT_MODE_ADIANTUM,
		.flags = FSCRYPT_POLICY_FLAGS_PAD_32,
	};
	int fd, i;

	if (strlen(id) != 2 * FSCRYPT_KEY_IDENTIFIER_SIZE) {
		fprintf(stderr, "fscrypt: identifier %s: not 32 hex digits\n", id);
		return 1;
	}
	for (i = 0; i < FSCRYPT_KEY_IDENTIFIER_SIZE; i++) {
		unsigned int b;

		if (sscanf(id + 2 * i, "%2x", &b) != 1) {
			fprintf(stderr, "fscrypt: identifier %s: not hex\n", id);
			return 1;
		}
		p.master_key_identifier[i] = b;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fail(dir);
	if (ioctl(fd, FS_IOC_SET_ENCRYPTION_POLICY, &p) < 0)
		return fail("FS_IOC_SET_ENCRYPTION_POLICY");
	close(fd);
	return 0;
}

static int info(const char *path)
{
	union {
		struct fiemap fm;
		char bytes[sizeof(struct fiemap) +
			   MAX_EXTENTS * sizeof(struct fiemap_extent)];
	} u;
	unsigned char nonce[NONCE_SIZE];
	unsigned int i;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return fail(path);
	if (ioctl(fd, FS_IOC_GET_ENCRYPTION_NONCE, nonce) < 0)
		return fail("FS_IOC_GET_ENCRYPTION_NONCE");
	printf("nonce ");
	hex(nonce, sizeof(nonce));
	printf("\n");
	memset(&u, 0, sizeof(u));
	u.fm.fm_length = FIEMAP_MAX_OFFSET;
	u.fm.fm_flags = FIEMAP_FLAG_SYNC;
	u.fm.fm_extent_count = MAX_EXTENTS;
	if (ioctl(fd, FS_IOC_FIEMAP, &u.fm) < 0)
		return fail("FS_IOC_FIEMAP");
	close(fd);
	for (i = 0; i < u.fm.fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &u.fm.fm_extents[i];

		if (e->fe_flags & (FIEMAP_EXTENT_UNKNOWN |
				   FIEMAP_EXTENT_DELALLOC |
				   FIEMAP_EXTENT_DATA_INLINE)) {
			fprintf(stderr, "fscrypt: %s: extent %u has flags %#x\n",
				path, i, e->fe_flags);
			return 1;
		}
		printf("extent %llu %llu %llu\n",
		       (unsigned long long)e->fe_logical,
		       (unsigned long long)e->fe_physical,
		       (unsigned long long)e->fe_length);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "addkey"))
		return addkey(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "policy"))
		return policy(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "info"))
		return info(argv[2]);
	fprintf(stderr, "usage: fscrypt addkey MNT KEYFILE | policy DIR ID | info PATH\n");
	return 2;
}
