// SPDX-License-Identifier: GPL-2.0-only
/*
 * test/unit/glue's child processes, apart from glue.c: its -I test/shim
 * hides the system's <linux/types.h>, which <sys/wait.h> needs on arm64.
 */
#include <stdbool.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Runs @fn(@arg) in a child, which ends with _exit(@fn's return), or of
 * SIGALRM after 120 s; true if it returned 0.  @status: the raw wait
 * status.
 */
bool glue_fork_run(int (*fn)(void *), void *arg, int *status)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		int rc;

		/* a child that hangs (a walk that never ends) dies of SIGALRM */
		alarm(120);
		rc = fn(arg);

		fflush(NULL);
		_exit(rc);
	}
	*status = -1;
	if (pid < 0 || waitpid(pid, status, 0) != pid)
		return false;
	return WIFEXITED(*status) && WEXITSTATUS(*status) == 0;
}
