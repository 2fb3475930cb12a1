/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test/unit/callat.S: unit_call_at() and unit_sp_probe(), see
 * test/unit/callat.h.  Each trampoline saves what it needs in a
 * callee-saved register and its own frame, moves the stack pointer to a
 * 64-byte boundary at least 64 bytes below its frame, up by the offset
 * asked for, and calls; after the call the frame pointer it kept restores
 * the stack pointer, whatever the entry left there.
 */

#if defined(__x86_64__)
/* struct unit_call */
#define UC_FN		0
#define UC_ARG(i)	(8 + 8 * (i))
#define UC_SP		48

	.text
	.globl	unit_call_at
	.type	unit_call_at, @function
	.p2align 4
unit_call_at:
	push		%rbp
	mov		%rsp, %rbp
	push		%rbx
	mov		%rdi, %rbx
	sub		$64, %rsp
	and		$~63, %rsp
	/* the call pushes the return address: 8 more above the offset */
	mov		UC_SP(%rbx), %rax
	add		$8, %rax
	and		$63, %rax
	add		%rax, %rsp
	mov		UC_ARG(0)(%rbx), %rdi
	mov		UC_ARG(1)(%rbx), %rsi
	mov		UC_ARG(2)(%rbx), %rdx
	mov		UC_ARG(3)(%rbx), %rcx
	mov		UC_ARG(4)(%rbx), %r8
	call		*UC_FN(%rbx)
	lea		-8(%rbp), %rsp
	pop		%rbx
	pop		%rbp
	ret
	.size	unit_call_at, . - unit_call_at

	.globl	unit_sp_probe
	.type	unit_sp_probe, @function
	.p2align 4
unit_sp_probe:
	mov		%rsp, (%rdi)
	ret
	.size	unit_sp_probe, . - unit_sp_probe

#elif defined(__aarch64__)
#define UC_FN		0
#define UC_ARG(i)	(8 + 8 * (i))
#define UC_SP		48

	.text
	.globl	unit_call_at
	.type	unit_call_at, %function
	.p2align 2
unit_call_at:
	stp		x29, x30, [sp, #-32]!
	mov		x29, sp
	str		x19, [sp, #16]
	mov		x19, x0
	ldr		x9, [x19, #UC_SP]
	and		x9, x9, #63
	sub		x10, sp, #64
	and		x10, x10, #~63
	add		x10, x10, x9
	mov		sp, x10
	ldp		x0, x1, [x19, #UC_ARG(0)]
	ldp		x2, x3, [x19, #UC_ARG(2)]
	ldr		x4, [x19, #UC_ARG(4)]
	ldr		x16, [x19, #UC_FN]
	blr		x16
	mov		sp, x29
	ldr		x19, [sp, #16]
	ldp		x29, x30, [sp], #32
	ret
	.size	unit_call_at, . - unit_call_at

	.globl	unit_sp_probe
	.type	unit_sp_probe, %function
	.p2align 2
unit_sp_probe:
	mov		x9, sp
	str		x9, [x0]
	ret
	.size	unit_sp_probe, . - unit_sp_probe

#elif defined(__arm__)
#define UC_FN		0
#define UC_ARG(i)	(4 + 4 * (i))
#define UC_SP		24

	.syntax	unified
	.arm
	.text
	.globl	unit_call_at
	.type	unit_call_at, %function
	.balign	4
unit_call_at:
	push		{r4, r5, r6, lr}
	mov		r4, r0
	mov		r5, sp
	ldr		r0, [r4, #UC_SP]
	and		r0, r0, #63
	sub		ip, sp, #128
	bic		ip, ip, #63
	add		ip, ip, r0
	/* the fifth argument, at the entry's stack pointer */
	ldr		r0, [r4, #UC_ARG(4)]
	str		r0, [ip]
	mov		sp, ip
	ldr		r0, [r4, #UC_ARG(0)]
	ldr		r1, [r4, #UC_ARG(1)]
	ldr		r2, [r4, #UC_ARG(2)]
	ldr		r3, [r4, #UC_ARG(3)]
	ldr		ip, [r4, #UC_FN]
	blx		ip
	mov		sp, r5
	pop		{r4, r5, r6, pc}
	.size	unit_call_at, . - unit_call_at

	.globl	unit_sp_probe
	.type	unit_sp_probe, %function
	.balign	4
unit_sp_probe:
	mov		r1, sp
	str		r1, [r0]
	bx		lr
	.size	unit_sp_probe, . - unit_sp_probe
#endif

	.section	.note.GNU-stack, "", %progbits
