/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/cfi_types.h>: no kCFI type hashes here. */
#ifndef _SHIM_LINUX_CFI_TYPES_H
#define _SHIM_LINUX_CFI_TYPES_H
#ifdef __ASSEMBLER__
#include <linux/linkage.h>
#define SYM_TYPED_FUNC_START(name)	SYM_FUNC_START(name)
#endif
#endif
