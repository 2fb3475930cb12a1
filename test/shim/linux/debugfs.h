/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/debugfs.h>: as without CONFIG_DEBUG_FS. */
#ifndef _SHIM_LINUX_DEBUGFS_H
#define _SHIM_LINUX_DEBUGFS_H
#include <linux/seq_file.h>
struct dentry;
#define debugfs_create_dir(name, parent)	((struct dentry *)0)
#define debugfs_create_file(name, mode, parent, data, fops)	\
	kchacha_shim_debugfs_file(fops)
static inline struct dentry *kchacha_shim_debugfs_file(const void *fops)
{
	(void)fops;
	return (struct dentry *)0;
}
static inline void debugfs_remove_recursive(struct dentry *d)
{
	(void)d;
}
#endif
