/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Bench-only stand-in for the kernel's <asm/frame.h>, for the in-tree
 * ChaCha assembly that `make bench` assembles from linux-source-6.1: a
 * frame pointer set up and dropped, as CONFIG_FRAME_POINTER kernels do.
 */
#ifndef _BENCH_ASM_FRAME_H
#define _BENCH_ASM_FRAME_H
#ifdef __ASSEMBLER__
.macro FRAME_BEGIN
	push	%rbp
	mov	%rsp, %rbp
.endm
.macro FRAME_END
	pop	%rbp
.endm
#endif
#endif
