/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/linkage.h>, for the .S files. */
#ifndef _SHIM_LINUX_LINKAGE_H
#define _SHIM_LINUX_LINKAGE_H
#ifdef __ASSEMBLER__
/* user-space objects need no executable stack */
#ifdef __arm__
.pushsection ".note.GNU-stack", "", %progbits
#else
.pushsection ".note.GNU-stack", "", @progbits
#endif
.popsection
#if defined(__x86_64__)
#define SYM_FUNC_START(name)	.globl name; .type name, @function; \
				.p2align 4; name:
#define SYM_FUNC_START_LOCAL(name)	.type name, @function; \
				.p2align 4; name:
#define RET			ret
#else
#define SYM_FUNC_START(name)	.globl name; .type name, %function; \
				.p2align 4; name:
#define SYM_FUNC_START_LOCAL(name)	.type name, %function; \
				.p2align 4; name:
#endif
#define SYM_FUNC_END(name)	.size name, . - name
#endif
#endif
