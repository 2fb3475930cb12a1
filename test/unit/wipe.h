/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test/unit/wipe.h: what a function leaves of a secret on the stack, for
 * the user-space tests (test/unit/wipe.c; stackwipe.c uses it, any test
 * may: link $(OBJDIR)/wipe.o, see test/unit/Makefile).
 *
 * The WIPE_SPAN bytes below the caller's stack pointer are painted, the
 * function under test is called, and the same bytes are copied out the
 * moment it returns; then they are searched for the words of the secret:
 *
 *	wipe_paint();
 *	f(...);			// any call made from here
 *	wipe_snapshot();
 *	n = wipe_find(&secret);	// 32-bit words of the secret found
 *
 * wipe_paint() and wipe_snapshot() are assembly that use no stack of
 * their own (on x86_64 their call writes its return address where the
 * call of f() wrote its own), so nothing between the function's return
 * and the copy overwrites what it left.  The three calls must follow one
 * another in one function, with the same stack pointer: a test point is
 * one such triple, right after the function whose frame is to be read,
 * before any later call (which would overwrite the evidence) is made.
 * WIPE_NOINLINE on the function that holds them keeps the compiler from
 * merging its frame with the caller's.
 *
 * A secret is a list of 32-bit words (key words, subkey words, keystream,
 * a permuted state); a word equal to 0 or to the paint is never counted.
 * Any 4-byte aligned copy of any of them counts: with a thousand words
 * searched for in 2048, a chance match is some 1 in 2^21.
 */
#ifndef _KCHACHA_TEST_WIPE_H
#define _KCHACHA_TEST_WIPE_H
#include <stddef.h>
#include <stdint.h>

#define WIPE_SPAN	8192
#define WIPE_PAINT	0xa5a5a5a5u
#define WIPE_MAX_WORDS	16384
#define WIPE_NOINLINE	__attribute__((__noinline__))

/* the WIPE_SPAN bytes below the caller's stack pointer: WIPE_PAINT */
void wipe_paint(void);
/*
 * ... copied into wipe_stack[], lowest address first.  Never a tail call,
 * which would pop the caller's frame first: an empty asm follows it.
 */
void wipe_snapshot_(void);
#define wipe_snapshot()							\
	do {								\
		wipe_snapshot_();					\
		__asm__ __volatile__("" : : : "memory");		\
	} while (0)
extern uint32_t wipe_stack[WIPE_SPAN / 4];

struct wipe_secret {
	unsigned int n;
	uint32_t w[WIPE_MAX_WORDS];
};

/* start @s empty; add @n words, or the 32-bit words of @len bytes */
void wipe_secret_init(struct wipe_secret *s);
void wipe_secret_add(struct wipe_secret *s, const uint32_t *w, unsigned int n);
void wipe_secret_add_bytes(struct wipe_secret *s, const void *p, size_t len);
/*
 * Of a ChaCha call on @state (16 words) of @len bytes whose keystream
 * XORed into zeroes is @ks, what gives the key away: the key words, every
 * whole keystream word, and the permuted state before the feed-forward
 * (keystream minus state, the counter word with its block's counter).
 */
void wipe_secret_chacha(struct wipe_secret *s, const uint32_t *state,
			const uint8_t *ks, size_t len);

/* words of wipe_stack[] equal to a word of @s; the first few printed */
unsigned int wipe_find(const struct wipe_secret *s, const char *what);
/*
 * The same for a buffer, e.g. one being freed (a shim's kfree() or a
 * tfm's free): 4-byte aligned words of @p..@p + @len equal to a word of @s.
 */
unsigned int wipe_find_mem(const void *p, size_t len,
			   const struct wipe_secret *s, const char *what);
#endif
