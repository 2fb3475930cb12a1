/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * With KC_FAIL_FAST in the environment (the mutation stage sets it), a
 * test program ends at its first failed check: a mutant's run needs no
 * more than that, and most mutants fail early.
 */
#ifndef _KCHACHA_TEST_FAILFAST_H
#define _KCHACHA_TEST_FAILFAST_H
#include <stdio.h>
#include <stdlib.h>

static inline void fail_fast(void)
{
	if (getenv("KC_FAIL_FAST")) {
		fflush(NULL);
		exit(1);
	}
}
#endif
