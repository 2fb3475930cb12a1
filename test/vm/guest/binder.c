// SPDX-License-Identifier: GPL-2.0-only
/*
 * binder SECONDS DRIVER RELEASE: binds an AF_ALG skcipher socket to DRIVER
 * over and over, as a user racing with a module load would, until a bind
 * succeeds, the file RELEASE exists or SECONDS have passed.  The first
 * socket that binds is held, its tfm alive, until RELEASE exists (the
 * caller creates it once the load has returned), so a driver it bound
 * during the load is held across whatever the load did with it since.
 * Prints "binder: bound DRIVER" when a bind succeeds, and at the end
 * "binder: N binds of DRIVER", N being 0 or 1.
 */
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	const struct timespec tick = { 0, 10000000 };
	int fd = -1, binds = 0;
	time_t end;

	if (argc != 4)
		return 2;
	end = time(NULL) + atoi(argv[1]);
	strcpy((char *)sa.salg_type, "skcipher");
	strncpy((char *)sa.salg_name, argv[2], sizeof(sa.salg_name) - 1);
	while (time(NULL) < end && access(argv[3], F_OK)) {
		fd = socket(AF_ALG, SOCK_SEQPACKET, 0);
		if (fd < 0)
			return 1;
		if (!bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			binds = 1;
			printf("binder: bound %s\n", argv[2]);
			fflush(stdout);
			break;
		}
		close(fd);
		fd = -1;
	}
	while (binds && access(argv[3], F_OK) && time(NULL) < end)
		nanosleep(&tick, NULL);
	if (fd >= 0)
		close(fd);
	printf("binder: %d binds of %s\n", binds, argv[2]);
	return 0;
}
