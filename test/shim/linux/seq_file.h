/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/seq_file.h>: show functions print to stdout. */
#ifndef _SHIM_LINUX_SEQ_FILE_H
#define _SHIM_LINUX_SEQ_FILE_H
#include <stdio.h>
struct seq_file;
#define seq_printf(m, ...)	((void)(m), printf(__VA_ARGS__))
#define DEFINE_SHOW_ATTRIBUTE(name)					\
	static const struct { int (*show)(struct seq_file *, void *); } \
	name##_fops = { name##_show }
#endif
