/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space shim for <linux/debugfs.h>: every directory and file is in
 * the shim's registry (linux/shim_registry.h) until
 * debugfs_remove_recursive() of it or of a directory above it.  A name
 * already present in its directory, or the removal of an entry that is
 * gone, fails the test.  Files cannot be read.
 */
#ifndef _SHIM_LINUX_DEBUGFS_H
#define _SHIM_LINUX_DEBUGFS_H
#include <linux/seq_file.h>
#include <linux/shim_registry.h>
struct dentry;
struct dentry *kchacha_shim_debugfs_create(const char *name,
					   struct dentry *parent, bool dir,
					   const char *file, int line);
void kchacha_shim_debugfs_remove(struct dentry *d, const char *file,
				 int line);
#define debugfs_create_dir(name, parent)				\
	kchacha_shim_debugfs_create(name, parent, true, __FILE__, __LINE__)
#define debugfs_create_file(name, mode, parent, data, fops)		\
	((void)(mode), (void)(data), (void)(fops),			\
	 kchacha_shim_debugfs_create(name, parent, false, __FILE__, __LINE__))
#define debugfs_remove_recursive(d)					\
	kchacha_shim_debugfs_remove(d, __FILE__, __LINE__)
#endif
