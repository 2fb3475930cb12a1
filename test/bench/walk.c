// SPDX-License-Identifier: GPL-2.0-only
/*
 * walk: what an skcipher's walksize costs, measured on a user-space model
 * of the kernel's skcipher walk (skcipher_walk_virt() and
 * skcipher_walk_done() of crypto/skcipher.c, Linux 6.1 to 6.12, for an
 * algorithm with cra_blocksize 1 and cra_alignmask 0, as kchacha's) driving
 * kchacha_crypt() the way kchacha_skcipher_crypt() does.
 *
 * The walk hands the driver the bytes that are contiguous in both source
 * and destination up to the next page or scatterlist-entry end, but never
 * fewer than min(walksize, bytes left): where fewer are contiguous, it
 * takes its slow path, a bounce buffer (kzalloc'ed once per request,
 * GFP_ATOMIC when the request may not sleep) that the bytes are copied
 * into and back out of.  The driver processes a multiple of the walksize
 * of each step but the last, so a larger walksize leaves more bytes
 * before each page end for a slow step.
 *
 * Scatterlists, each request at fresh random offsets (fixed seed):
 *   pages16k   16 KiB from a random offset, each 4 KiB page its own entry
 *   pkt1420    a 1420-byte packet across two pages, in place
 *   pkt1420oop the same, out of place: source and destination at
 *              independent offsets
 *   frag1420   a 1420-byte packet in three entries of random sizes, each
 *              at a random offset of its own page (an skb head and frags)
 *   aligned64k 64 KiB of whole pages (the control: no slow step for any
 *              walksize)
 *
 * For each implementation the CPU has, each scatterlist and each walksize:
 * walk steps, slow steps and bytes bounced per request, and the time per
 * request (the walk, the copies, the allocation and the cipher; CPU time
 * of the thread), the median of rounds that interleave the walksizes.  Every walked result is
 * checked against the same bytes enciphered in one contiguous call.
 *
 *   make -f test/bench/Makefile walk && build/<triplet>/walk [rounds]
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test/shim/linux/types.h"
#include "kchacha.h"

#define PAGE		4096u
#define ARENA_PAGES	64
#define NREQ		512
#define MAX_SEGS	20
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const unsigned int walksizes[] = { 64, 128, 256, 320, 512 };

struct seg {
	u8 *p;
	unsigned int len;
};

struct req {
	struct seg src[MAX_SEGS], dst[MAX_SEGS];
	unsigned int nsrc, ndst, len;
};

/* A position in a scatterlist. */
struct pos {
	const struct seg *sg;
	unsigned int i, off;
};

struct counts {
	unsigned long steps, slow, bounced, allocs;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state >> 16;
}

/* Contiguous bytes at @p, up to @n: to the end of the entry and the page. */
static unsigned int contig(const struct pos *p, unsigned int n)
{
	const struct seg *s = &p->sg[p->i];
	unsigned int in_seg = s->len - p->off;
	unsigned int in_page = PAGE - ((uintptr_t)(s->p + p->off) & (PAGE - 1));

	if (n > in_seg)
		n = in_seg;
	return n < in_page ? n : in_page;
}

static u8 *addr(const struct pos *p)
{
	return p->sg[p->i].p + p->off;
}

static void advance(struct pos *p, unsigned int n)
{
	while (n) {
		unsigned int k = p->sg[p->i].len - p->off;

		if (k > n)
			k = n;
		p->off += k;
		n -= k;
		if (p->off == p->sg[p->i].len) {
			p->i++;
			p->off = 0;
		}
	}
}

/* Copy @n bytes between @buf and the scatterlist at @p, advancing it. */
static void copy_sg(struct pos *p, u8 *buf, unsigned int n, int to_sg)
{
	while (n) {
		unsigned int k = contig(p, n);

		if (to_sg)
			memcpy(addr(p), buf, k);
		else
			memcpy(buf, addr(p), k);
		buf += k;
		n -= k;
		advance(p, k);
	}
}

/* One request through the walk model and kchacha_crypt(). */
static void walk_req(const struct kchacha_impl *impl, const struct req *r,
		     unsigned int walksize, const u32 *key, const u8 *iv,
		     struct counts *c)
{
	struct pos in = { r->src, 0, 0 }, out = { r->dst, 0, 0 };
	unsigned int total = r->len;
	u8 *bounce = NULL;
	u32 state[16];

	kchacha_init_state(state, key, iv);
	while (total) {
		unsigned int bsize = total < walksize ? total : walksize;
		unsigned int n = contig(&in, total), done;

		n = contig(&out, n);
		c->steps++;
		if (n < bsize) {
			/* slow: gather into the bounce buffer, scatter back */
			if (!bounce) {
				bounce = calloc(1, walksize);
				c->allocs++;
			}
			copy_sg(&in, bounce, bsize, 0);
			kchacha_crypt(impl, state, bounce, bounce, bsize, 20);
			copy_sg(&out, bounce, bsize, 1);
			c->slow++;
			c->bounced += bsize;
			total -= bsize;
			continue;
		}
		/* fast: as kchacha_skcipher_crypt() rounds a step */
		done = n < total ? n / walksize * walksize : n;
		kchacha_crypt(impl, state, addr(&out), addr(&in), done, 20);
		advance(&in, done);
		advance(&out, done);
		total -= done;
	}
	free(bounce);
}

/* Pages of the arena in a random order: entries are not contiguous. */
static u8 *page_of(u8 *arena, unsigned int k)
{
	return arena + (size_t)((k * 37 + 11) % ARENA_PAGES) * PAGE;
}

static unsigned int discontig(struct seg *sg, u8 *arena, unsigned int first,
			      unsigned int off, unsigned int len)
{
	unsigned int n = 0, k = first;

	while (len) {
		unsigned int l = PAGE - off;

		if (l > len)
			l = len;
		sg[n].p = page_of(arena, k++) + off;
		sg[n++].len = l;
		off = 0;
		len -= l;
	}
	return n;
}

enum { PAGES16K, PKT1420, PKT1420OOP, FRAG1420, ALIGNED64K, NSCEN };
static const char *const scen_name[NSCEN] = {
	"pages16k", "pkt1420", "pkt1420oop", "frag1420", "aligned64k",
};

static void make_req(int scen, struct req *r, u8 *src_arena, u8 *dst_arena)
{
	unsigned int first = rnd() % ARENA_PAGES, a, b;

	switch (scen) {
	case PAGES16K:
		r->len = 16384;
		r->nsrc = discontig(r->src, src_arena, first, rnd() % PAGE,
				    r->len);
		break;
	case PKT1420:
	case PKT1420OOP:
		r->len = 1420;
		r->nsrc = discontig(r->src, src_arena, first,
				    PAGE - 1 - rnd() % (r->len - 1), r->len);
		if (scen == PKT1420OOP) {
			r->ndst = discontig(r->dst, dst_arena, first + 7,
					    PAGE - 1 - rnd() % (r->len - 1),
					    r->len);
			return;
		}
		break;
	case FRAG1420:
		r->len = 1420;
		a = 1 + rnd() % (r->len - 2);
		b = 1 + rnd() % (r->len - 2);
		if (a > b) {
			unsigned int t = a;

			a = b;
			b = t;
		}
		if (a == b)
			b++;
		r->nsrc = 0;
		r->nsrc += discontig(r->src + r->nsrc, src_arena, first,
				     rnd() % (PAGE - a), a);
		r->nsrc += discontig(r->src + r->nsrc, src_arena, first + 1,
				     rnd() % (PAGE - (b - a)), b - a);
		r->nsrc += discontig(r->src + r->nsrc, src_arena, first + 2,
				     rnd() % (PAGE - (r->len - b)),
				     r->len - b);
		break;
	case ALIGNED64K:
		r->len = 65536;
		r->nsrc = discontig(r->src, src_arena, first, 0, r->len);
		break;
	}
	memcpy(r->dst, r->src, sizeof(r->src));
	r->ndst = r->nsrc;
}

/* The thread's CPU time: on a shared machine, time spent waiting is not. */
static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Read a request's scatterlist into a linear buffer. */
static void gather(const struct seg *sg, unsigned int nseg, u8 *buf)
{
	unsigned int i;

	for (i = 0; i < nseg; i++) {
		memcpy(buf, sg[i].p, sg[i].len);
		buf += sg[i].len;
	}
}

/* Lay a linear buffer into a request's scatterlist. */
static void scatter(const struct seg *sg, unsigned int nseg, const u8 *buf)
{
	unsigned int i;

	for (i = 0; i < nseg; i++) {
		memcpy(sg[i].p, buf, sg[i].len);
		buf += sg[i].len;
	}
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 9;
	size_t arena_size = (size_t)ARENA_PAGES * PAGE;
	u8 *src_arena = aligned_alloc(PAGE, arena_size);
	u8 *dst_arena = aligned_alloc(PAGE, arena_size);
	u8 *lin = malloc(65536), *ref = malloc(65536), *got = malloc(65536);
	static struct req reqs[NREQ];
	u32 key[8];
	u8 iv[16];
	unsigned int i, w, k;
	cpu_set_t set;
	int s, r;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < 8; i++)
		key[i] = rnd();
	for (i = 0; i < 16; i++)
		iv[i] = rnd();

	printf("impl scatterlist walksize steps/req slow/req bounced-bytes/req allocs/req ns/req ratio-to-64\n");
	for (k = 0; k < kchacha_nimpls; k++) {
		const struct kchacha_impl *impl = &kchacha_impls[k];

		if (impl->cpu_ok && !impl->cpu_ok())
			continue;
		for (s = 0; s < NSCEN; s++) {
			double t[ARRAY_SIZE(walksizes)][64];
			struct counts c[ARRAY_SIZE(walksizes)] = { 0 };

			rng_state = 0x9e3779b97f4a7c15ULL + s;
			for (i = 0; i < NREQ; i++)
				make_req(s, &reqs[i], src_arena, dst_arena);
			/* correctness of the model, every walksize */
			for (w = 0; w < ARRAY_SIZE(walksizes); w++) {
				for (i = 0; i < NREQ; i++) {
					struct req *q = &reqs[i];
					struct counts dummy = { 0 };
					unsigned int j;
					u32 state[16];

					for (j = 0; j < q->len; j++)
						lin[j] = rnd();
					scatter(q->src, q->nsrc, lin);
					kchacha_init_state(state, key, iv);
					kchacha_generic_xor(state, ref, lin, q->len, 20);
					walk_req(impl, q, walksizes[w], key, iv,
						 &dummy);
					gather(q->dst, q->ndst, got);
					if (memcmp(ref, got, q->len)) {
						printf("FAIL %s %s walksize %u: request %u differs\n",
						       impl->name, scen_name[s],
						       walksizes[w], i);
						return 1;
					}
				}
			}
			for (r = 0; r < rounds && r < 64; r++) {
				for (w = 0; w < ARRAY_SIZE(walksizes); w++) {
					struct counts cc = { 0 };
					double t0 = now();

					for (i = 0; i < NREQ; i++)
						walk_req(impl, &reqs[i],
							 walksizes[w], key, iv,
							 &cc);
					t[w][r] = (now() - t0) / NREQ * 1e9;
					c[w] = cc;
				}
			}
			for (w = 0; w < ARRAY_SIZE(walksizes); w++)
				qsort(t[w], r, sizeof(double), cmp_double);
			for (w = 0; w < ARRAY_SIZE(walksizes); w++)
				printf("%s %s %u %.2f %.2f %.0f %.2f %.0f %.2f\n",
				       impl->name, scen_name[s], walksizes[w],
				       (double)c[w].steps / NREQ,
				       (double)c[w].slow / NREQ,
				       (double)c[w].bounced / NREQ,
				       (double)c[w].allocs / NREQ,
				       t[w][r / 2], t[w][r / 2] / t[0][r / 2]);
		}
	}
	return 0;
}
