/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Not a kernel header: the shim's registry of what the code under test
 * registers with the "kernel" and must undo, each entry with its kind, the
 * object registered, a name and the call site: crypto algorithms
 * (test/shim/shim_crypto.c), the vmfork and PM notifiers, the syscore hook
 * and debugfs entries.  Registering an object twice, or unregistering one
 * the registry does not hold where the kernel would corrupt a list or
 * free what is gone, fails the test.  One thread registers at a time.
 */
#ifndef _SHIM_LINUX_SHIM_REGISTRY_H
#define _SHIM_LINUX_SHIM_REGISTRY_H
#include <linux/types.h>

struct kchacha_shim_reg {
	const char *kind;	/* "skcipher", "PM notifier", ... */
	const void *obj;	/* what was registered */
	const void *parent;	/* a debugfs entry's directory, or NULL */
	char name[64];
	const char *file;	/* where */
	int line;
};

/* add @obj of @kind; fails the test if it is there already */
void kchacha_shim_reg_add(const char *kind, const void *obj,
			  const void *parent, const char *name,
			  const char *file, int line);
/*
 * remove @obj of @kind; if it is not there, fails the test with @must,
 * else returns false
 */
bool kchacha_shim_reg_del(const char *kind, const void *obj, bool must,
			  const char *file, int line);
/* the entries, in the order of registration; NULL after the last */
const struct kchacha_shim_reg *kchacha_shim_reg_each(unsigned int i);
/* fails the test: "FAIL shim: @what: @name at @file:@line", abort() */
void kchacha_shim_reg_bug(const char *what, const char *name,
			  const char *file, int line)
	__attribute__((__noreturn__));
#endif
