/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/cfi_types.h>, for the .S files.  User space
 * is not built with kCFI, so a function with a CFI type is an ordinary
 * global function, as in a kernel without CONFIG_CFI_CLANG.
 */
#ifndef _SHIM_LINUX_CFI_TYPES_H
#define _SHIM_LINUX_CFI_TYPES_H
#ifdef __ASSEMBLER__
#include <linux/linkage.h>
#define SYM_TYPED_FUNC_START(name)	SYM_FUNC_START(name)
#endif
#endif
