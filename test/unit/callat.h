/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test/unit/callat.h: a call of an assembly entry with the stack pointer
 * at a chosen offset modulo 64 (test/unit/callat.S), for unit's stack
 * alignment sweep.
 *
 * unit_call_at(c) calls c->fn(c->arg[0], ..., c->arg[4]) so that on the
 * entry's first instruction the stack pointer modulo 64 is c->sp_mod: on
 * x86_64 %rsp, which then points at the return address; on arm64 and ARM
 * sp, where ARM's fifth argument is.  Each argument is one register's
 * worth; what c->sp_mod may legally be is the caller's business (the
 * ABI's step: 8 on x86_64 and ARM, 16 on arm64).  unit_sp_probe(out),
 * called the same way, stores its own stack pointer in *out: the
 * trampoline's check of itself.
 */
#ifndef _KCHACHA_TEST_CALLAT_H
#define _KCHACHA_TEST_CALLAT_H
#include <stddef.h>
#include <stdint.h>

struct unit_call {
	const void *fn;
	uintptr_t arg[5];
	uintptr_t sp_mod;
};

/* the offsets test/unit/callat.S reads, one pointer's size apart */
_Static_assert(offsetof(struct unit_call, arg) == sizeof(void *) &&
	       offsetof(struct unit_call, sp_mod) == 6 * sizeof(void *),
	       "struct unit_call: the layout callat.S reads");

void unit_call_at(const struct unit_call *c);
void unit_sp_probe(uintptr_t *out);
#endif
