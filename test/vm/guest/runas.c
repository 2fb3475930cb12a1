// SPDX-License-Identifier: GPL-2.0-only
/*
 * runas: run a program as another user, with no supplementary groups and
 * no capabilities left (busybox's setpriv cannot change the uid).  For the
 * consumers boot of the VM suite (test/vm/sets/consumers).
 *
 *   runas UID PROG ARGS...    uid and gid UID
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t id;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID PROG ARGS...\n");
		return 2;
	}
	id = (uid_t)strtoul(argv[1], NULL, 10);
	if (setgroups(0, NULL) || setgid(id) || setuid(id)) {
		perror("runas");
		return 1;
	}
	if (!setuid(0)) {
		fprintf(stderr, "runas: still able to become root\n");
		return 1;
	}
	execv(argv[2], argv + 2);
	perror(argv[2]);
	return 1;
}
