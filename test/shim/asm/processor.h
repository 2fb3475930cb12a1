/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <asm/processor.h>: boot_cpu_data, in asm/cpufeature.h. */
#ifndef _SHIM_ASM_PROCESSOR_H
#define _SHIM_ASM_PROCESSOR_H
#include <asm/cpufeature.h>
#endif
