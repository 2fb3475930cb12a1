// SPDX-License-Identifier: GPL-2.0-only
/*
 * binder SECONDS DRIVER: binds an AF_ALG skcipher socket to DRIVER over and
 * over for SECONDS, holding each bound tfm 20 ms, as a user racing with a
 * module load would; prints how many binds succeeded.
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
	const struct timespec hold = { 0, 20000000 };
	time_t end;
	long binds = 0;

	if (argc != 3)
		return 2;
	end = time(NULL) + atoi(argv[1]);
	strcpy((char *)sa.salg_type, "skcipher");
	strncpy((char *)sa.salg_name, argv[2], sizeof(sa.salg_name) - 1);
	while (time(NULL) < end) {
		int fd = socket(AF_ALG, SOCK_SEQPACKET, 0);

		if (fd < 0)
			return 1;
		if (!bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			binds++;
			nanosleep(&hold, NULL);
		}
		close(fd);
	}
	printf("binder: %ld binds of %s\n", binds, argv[2]);
	return 0;
}
