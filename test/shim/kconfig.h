/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim: the kernel configuration the core files look at. */
#ifndef _SHIM_KCONFIG_H
#define _SHIM_KCONFIG_H
#if defined(__x86_64__)
#define CONFIG_X86 1
#define CONFIG_X86_64 1
#elif defined(__aarch64__)
#define CONFIG_ARM64 1
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CONFIG_CPU_LITTLE_ENDIAN 1
#endif
#elif defined(__arm__)
#define CONFIG_ARM 1
#define CONFIG_KERNEL_MODE_NEON 1
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define CONFIG_CPU_LITTLE_ENDIAN 1
#endif
#endif
#define KCHACHA_USERSPACE 1

#endif
