// SPDX-License-Identifier: GPL-2.0-only
/*
 * kchacha: the default implementation by measurement, at load, in the
 * manner of the kernel's raid6 and xor template selection.
 *
 * The table's order (kchacha_impls[], the ranking rule) is a rule written
 * for the CPUs known when it was: a new CPU gets whatever it says.  So
 * each SIMD implementation that will be registered is timed here, on the
 * CPU the module loads on, at three request sizes, and the fastest becomes
 * the default if it leads the table's choice by at least
 * KCHACHA_CALIB_LEAD per mille; otherwise the table's order stands, so
 * that noise cannot make the choice change from boot to boot.  An
 * implementation that the rule's other order demotes (kchacha_cpu_slow():
 * zmm code where the kernel says 512-bit instructions lower the clock,
 * NEON on Cortex-A7) never comes first: what it costs falls on other code,
 * which timing it alone cannot see.
 */
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "kchacha_compat.h"
#include "kchacha.h"

/* the request sizes timed: a small packet, a full frame, a page */
const unsigned int kchacha_calib_len[KCHACHA_CALIB_SIZES] = {
	576, 1420, 4096,
};

/*
 * the work's budget (ns, the timed repetitions, not the sleeps): once it
 * has gone, a repetition ends after its third round, and none follows
 */
#define KCHACHA_CALIB_BUDGET	2000000

/* The median of @v[0..@n), an even count's upper one; @v gets sorted. */
static u64 kchacha_calib_median(u64 *v, unsigned int n)
{
	unsigned int i, j;

	for (i = 1; i < n; i++)
		for (j = i; j && v[j - 1] > v[j]; j--)
			swap(v[j - 1], v[j]);
	return v[n / 2];
}

/* One timed call of @impl on @len bytes, in a SIMD section of its own. */
static u64 kchacha_calib_time(const struct kchacha_impl *impl,
			      u64 (*now)(void), u8 *buf, unsigned int len)
{
	static const u32 state[KCHACHA_STATE_WORDS];
	struct kchacha_simd simd __uninitialized;
	u64 t0, t1;

	kchacha_simd_begin(&simd);
	t0 = now();
	impl->xor(state, buf, buf, len, 20);
	t1 = now();
	kchacha_simd_end(&simd);
	return t1 - t0;
}

/* Round @r of size @s: one timed call of each candidate. */
static void kchacha_calib_round(struct kchacha_calib *c, unsigned int n,
				u64 (*now)(void), u8 *buf, unsigned int s,
				unsigned int r)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		c[i].sample[s][r] = kchacha_calib_time(c[i].impl, now, buf,
						       kchacha_calib_len[s]);
}

/* Whether the ranking rule's other order demotes @impl here. */
static bool kchacha_calib_demoted(const struct kchacha_impl *impl, bool slow)
{
	return slow && impl->slow_priority &&
	       impl->slow_priority < impl->priority;
}

/**
 * kchacha_calib_choose() - the default from the measured medians
 * @c: the candidates, their medians filled in
 * @n: how many
 * @slow: whether the ranking rule's other order applies (kchacha_slow)
 *
 * Sets each candidate's score: its speed relative to the table's choice
 * (the highest priority among @c), per mille, averaged over the sizes.
 *
 * Return: the index in @c of the default: the best score of those not
 * demoted, if it is at least 1000 + KCHACHA_CALIB_LEAD; else the table's
 * choice.
 */
unsigned int kchacha_calib_choose(struct kchacha_calib *c, unsigned int n,
				  bool slow)
{
	unsigned int i, s, table = 0, best;

	for (i = 1; i < n; i++)
		if (kchacha_impl_priority(c[i].impl, slow) >
		    kchacha_impl_priority(c[table].impl, slow))
			table = i;
	for (i = 0; i < n; i++) {
		u64 sum = 0;

		for (s = 0; s < KCHACHA_CALIB_SIZES; s++)
			sum += div64_u64(c[table].ns[s] * 1000,
					 max_t(u64, c[i].ns[s], 1));
		c[i].score = div_u64(sum, KCHACHA_CALIB_SIZES);
	}
	best = table;
	for (i = 0; i < n; i++)
		if (!kchacha_calib_demoted(c[i].impl, slow) &&
		    c[i].score > c[best].score)
			best = i;
	return c[best].score >= 1000 + KCHACHA_CALIB_LEAD ? best : table;
}

/**
 * kchacha_calibrate() - time the candidates and choose the default
 * @c: the candidates: @c[i].impl set, SIMD implementations this CPU has
 * @n: how many
 * @slow: whether the ranking rule's other order applies
 * @now: the clock, in ns (ktime_get_ns() in the module; the tests inject
 *	one)
 * @buf: KCHACHA_SIMD_CHUNK bytes of scratch
 *
 * Each call runs in a SIMD section of its own, at most one page of
 * keystream long; the rounds go over every size and candidate in turn, so
 * that a slow phase of the machine falls on all of them.  Up to
 * KCHACHA_CALIB_REPS repetitions, a millisecond or two apart, each a
 * warm-up call then its rounds; each candidate keeps, per size, the
 * lowest of the repetitions' medians: a slow phase of the machine that
 * outlasts one repetition (a busy sibling thread or host, seen for
 * milliseconds on a virtual machine) does not decide the default.  Once
 * the repetitions have taken KCHACHA_CALIB_BUDGET ns, the one running
 * ends after its third round and no other starts: a fifth of a
 * millisecond suffices on a current x86 CPU, and an emulated one is not
 * held up for seconds.
 *
 * Return: the index in @c of the default (kchacha_calib_choose()).
 */
unsigned int kchacha_calibrate(struct kchacha_calib *c, unsigned int n,
			       bool slow, u64 (*now)(void), u8 *buf)
{
	unsigned int i, s, r, rep, rounds;
	u64 start, spent = 0, m;

	memset(buf, 0, KCHACHA_SIMD_CHUNK);
	for (rep = 0; rep < KCHACHA_CALIB_REPS; rep++) {
		if (rep) {
			if (spent > KCHACHA_CALIB_BUDGET)
				break;
			usleep_range(1000, 2000);
		}
		start = now();
		for (i = 0; i < n; i++)	/* caches and clocks warm */
			kchacha_calib_time(c[i].impl, now, buf,
					   KCHACHA_SIMD_CHUNK);
		rounds = 0;
		for (r = 0; r < KCHACHA_CALIB_ROUNDS; r++) {
			for (s = 0; s < KCHACHA_CALIB_SIZES; s++)
				kchacha_calib_round(c, n, now, buf, s, r);
			rounds++;
			cond_resched();
			if (rounds >= 3 &&
			    spent + now() - start > KCHACHA_CALIB_BUDGET)
				break;
		}
		spent += now() - start;
		for (i = 0; i < n; i++)
			for (s = 0; s < KCHACHA_CALIB_SIZES; s++) {
				m = kchacha_calib_median(c[i].sample[s],
							 rounds);
				if (!rep || m < c[i].ns[s])
					c[i].ns[s] = m;
			}
	}
	return kchacha_calib_choose(c, n, slow);
}
