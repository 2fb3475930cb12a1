/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * result.h: what every guest test program shares: one "PASS what" or
 * "FAIL what: why" line per check (init.sh counts them), and the counts.
 */
#ifndef GUEST_RESULT_H
#define GUEST_RESULT_H

#include <stdarg.h>
#include <stdio.h>

#ifndef SOL_ALG
#define SOL_ALG 279
#endif

static int passed, failed;

static void result(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

#endif
