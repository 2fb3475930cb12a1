// SPDX-License-Identifier: GPL-2.0-only
/*
 * test/unit/wipe.c: the painted stack of test/unit/wipe.h.  The painting
 * and the copy are assembly, per architecture, that touch no stack of
 * their own: x86_64 (rep stos/movs, caller-saved registers), arm64 and
 * 32-bit ARM (the return address stays in the link register).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/unit/wipe.h"

uint32_t wipe_stack[WIPE_SPAN / 4] __attribute__((__aligned__(16)));
/* wipe_paint()'s stack pointer; wipe_snapshot() sets wipe_moved if not its */
uintptr_t wipe_sp;
int wipe_moved;

#define WIPE_STR_(x)	#x
#define WIPE_STR(x)	WIPE_STR_(x)

#if defined(__x86_64__)
__asm__(".text\n"
	".globl wipe_paint\n"
	".type wipe_paint, @function\n"
	"wipe_paint:\n"
	"	mov	%rsp, wipe_sp(%rip)\n"
	"	lea	-" WIPE_STR(WIPE_SPAN) "(%rsp), %rdi\n"
	"	mov	$" WIPE_STR(WIPE_SPAN) ", %ecx\n"
	"	mov	$0xa5, %eax\n"
	"	rep stosb\n"
	"	ret\n"
	".size wipe_paint, . - wipe_paint\n"
	".globl wipe_snapshot_\n"
	".type wipe_snapshot_, @function\n"
	"wipe_snapshot_:\n"
	"	cmp	wipe_sp(%rip), %rsp\n"
	"	je	1f\n"
	"	movl	$1, wipe_moved(%rip)\n"
	"1:	lea	-" WIPE_STR(WIPE_SPAN) "(%rsp), %rsi\n"
	"	lea	wipe_stack(%rip), %rdi\n"
	"	mov	$" WIPE_STR(WIPE_SPAN) ", %ecx\n"
	"	rep movsb\n"
	"	ret\n"
	".size wipe_snapshot_, . - wipe_snapshot_\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl wipe_paint\n"
	".type wipe_paint, %function\n"
	"wipe_paint:\n"
	"	mov	x9, sp\n"
	"	adrp	x12, wipe_sp\n"
	"	str	x9, [x12, :lo12:wipe_sp]\n"
	"	sub	x10, x9, #" WIPE_STR(WIPE_SPAN) "\n"
	"	ldr	x11, =0xa5a5a5a5a5a5a5a5\n"
	"1:	stp	x11, x11, [x10], #16\n"
	"	cmp	x10, x9\n"
	"	b.ne	1b\n"
	"	ret\n"
	"	.ltorg\n"
	".size wipe_paint, . - wipe_paint\n"
	".globl wipe_snapshot_\n"
	".type wipe_snapshot_, %function\n"
	"wipe_snapshot_:\n"
	"	mov	x9, sp\n"
	"	adrp	x12, wipe_sp\n"
	"	ldr	x12, [x12, :lo12:wipe_sp]\n"
	"	cmp	x9, x12\n"
	"	b.eq	2f\n"
	"	adrp	x12, wipe_moved\n"
	"	mov	w13, #1\n"
	"	str	w13, [x12, :lo12:wipe_moved]\n"
	"2:\n"
	"	sub	x10, x9, #" WIPE_STR(WIPE_SPAN) "\n"
	"	adrp	x11, wipe_stack\n"
	"	add	x11, x11, :lo12:wipe_stack\n"
	"1:	ldp	x12, x13, [x10], #16\n"
	"	stp	x12, x13, [x11], #16\n"
	"	cmp	x10, x9\n"
	"	b.ne	1b\n"
	"	ret\n"
	".size wipe_snapshot_, . - wipe_snapshot_\n");
#elif defined(__arm__)
/* ARM code, called from ARM or Thumb-2 code alike (interworking) */
__asm__(".text\n"
	".syntax unified\n"
	".arm\n"
	".balign 4\n"
	".globl wipe_paint\n"
	".type wipe_paint, %function\n"
	"wipe_paint:\n"
	"	mov	r0, sp\n"
	"	ldr	r1, =wipe_sp\n"
	"	str	r0, [r1]\n"
	"	sub	r1, r0, #" WIPE_STR(WIPE_SPAN) "\n"
	"	ldr	r2, =0xa5a5a5a5\n"
	"	mov	r3, r2\n"
	"1:	stmia	r1!, {r2, r3}\n"
	"	cmp	r1, r0\n"
	"	bne	1b\n"
	"	bx	lr\n"
	"	.ltorg\n"
	".size wipe_paint, . - wipe_paint\n"
	".globl wipe_snapshot_\n"
	".type wipe_snapshot_, %function\n"
	"wipe_snapshot_:\n"
	"	mov	r0, sp\n"
	"	ldr	r1, =wipe_sp\n"
	"	ldr	r1, [r1]\n"
	"	cmp	r0, r1\n"
	"	ldrne	r1, =wipe_moved\n"
	"	strne	r0, [r1]\n"
	"	sub	r1, r0, #" WIPE_STR(WIPE_SPAN) "\n"
	"	ldr	r2, =wipe_stack\n"
	"1:	ldmia	r1!, {r3, ip}\n"
	"	stmia	r2!, {r3, ip}\n"
	"	cmp	r1, r0\n"
	"	bne	1b\n"
	"	bx	lr\n"
	"	.ltorg\n"
	".size wipe_snapshot_, . - wipe_snapshot_\n");
#else
#error "test/unit/wipe.c: no painted stack for this architecture"
#endif

void wipe_secret_init(struct wipe_secret *s)
{
	s->n = 0;
}

void wipe_secret_add(struct wipe_secret *s, const uint32_t *w, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!w[i] || w[i] == WIPE_PAINT)
			continue;
		if (s->n == WIPE_MAX_WORDS) {
			fprintf(stderr, "wipe: more than %d secret words\n",
				WIPE_MAX_WORDS);
			abort();
		}
		s->w[s->n++] = w[i];
	}
}

void wipe_secret_add_bytes(struct wipe_secret *s, const void *p, size_t len)
{
	const uint8_t *b = p;
	uint32_t w;

	for (; len >= 4; len -= 4, b += 4) {
		memcpy(&w, b, 4);
		wipe_secret_add(s, &w, 1);
	}
}

void wipe_secret_chacha(struct wipe_secret *s, const uint32_t *state,
			const uint8_t *ks, size_t len)
{
	size_t blk, i;
	uint32_t w;

	wipe_secret_add(s, state + 4, 8);
	for (blk = 0; blk * 64 < len; blk++) {
		for (i = 0; i < 16 && blk * 64 + i * 4 + 4 <= len; i++) {
			memcpy(&w, ks + blk * 64 + i * 4, 4);
			wipe_secret_add(s, &w, 1);
			w -= state[i] + (i == 12 ? (uint32_t)blk : 0);
			wipe_secret_add(s, &w, 1);
		}
	}
}

static int wipe_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

unsigned int wipe_find_mem(const void *p, size_t len,
			   const struct wipe_secret *s, const char *what)
{
	static uint32_t sorted[WIPE_MAX_WORDS];
	const uint8_t *b = p;
	unsigned int found = 0;
	size_t i;

	memcpy(sorted, s->w, s->n * sizeof(sorted[0]));
	qsort(sorted, s->n, sizeof(sorted[0]), wipe_cmp);
	for (i = (4 - (uintptr_t)b % 4) % 4; i + 4 <= len; i += 4) {
		uint32_t v;

		memcpy(&v, b + i, 4);
		if (!v || v == WIPE_PAINT ||
		    !bsearch(&v, sorted, s->n, sizeof(v), wipe_cmp))
			continue;
		if (what && found < 3)
			printf("wipe: %s: secret word %08x left at byte %zu of %zu\n",
			       what, v, i, len);
		found++;
	}
	return found;
}

unsigned int wipe_find(const struct wipe_secret *s, const char *what)
{
	if (wipe_moved) {
		printf("wipe: %s: the stack pointer moved between wipe_paint() and wipe_snapshot()\n",
		       what ? what : "?");
		abort();
	}
	return wipe_find_mem(wipe_stack, sizeof(wipe_stack), s, what);
}
