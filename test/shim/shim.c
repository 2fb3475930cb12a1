// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space shim: the state behind the kernel stand-ins.  SIMD sections
 * are per thread, as in the kernel they are per CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <crypto/internal/simd.h>
#include <linux/debugfs.h>
#include <linux/shim_registry.h>

bool kchacha_shim_simd_usable = true;
__thread unsigned long kchacha_shim_simd_sections;
__thread int kchacha_shim_in_simd;
__thread int kchacha_shim_irqs_off;
__thread int kchacha_shim_bh_off;
__thread unsigned long kchacha_shim_locks;
void (*kchacha_shim_local_lock_hook)(void);
unsigned long kchacha_shim_simd_irqs_off;

/* linux/shim_registry.h */
#define KCHACHA_SHIM_MAX_REGS	256
static struct kchacha_shim_reg kchacha_shim_regs[KCHACHA_SHIM_MAX_REGS];
static unsigned int kchacha_shim_nregs;

void kchacha_shim_reg_bug(const char *what, const char *name,
			  const char *file, int line)
{
	/* both: a test may be capturing either */
	fflush(NULL);
	fprintf(stderr, "FAIL shim: %s: %s at %s:%d\n", what, name, file, line);
	printf("FAIL shim: %s: %s at %s:%d\n", what, name, file, line);
	fflush(NULL);
	abort();
}

static int kchacha_shim_reg_find(const char *kind, const void *obj)
{
	unsigned int i;

	for (i = 0; i < kchacha_shim_nregs; i++)
		if (kchacha_shim_regs[i].obj == obj &&
		    !strcmp(kchacha_shim_regs[i].kind, kind))
			return i;
	return -1;
}

void kchacha_shim_reg_add(const char *kind, const void *obj,
			  const void *parent, const char *name,
			  const char *file, int line)
{
	struct kchacha_shim_reg *r;

	if (kchacha_shim_reg_find(kind, obj) >= 0)
		kchacha_shim_reg_bug("registered twice", kind, file, line);
	if (kchacha_shim_nregs == KCHACHA_SHIM_MAX_REGS)
		kchacha_shim_reg_bug("the registry is full", kind, file, line);
	r = &kchacha_shim_regs[kchacha_shim_nregs++];
	r->kind = kind;
	r->obj = obj;
	r->parent = parent;
	snprintf(r->name, sizeof(r->name), "%s", name ? name : "");
	r->file = file;
	r->line = line;
}

bool kchacha_shim_reg_del(const char *kind, const void *obj, bool must,
			  const char *file, int line)
{
	int i = kchacha_shim_reg_find(kind, obj);

	if (i < 0) {
		if (must)
			kchacha_shim_reg_bug("unregistering what is not registered",
					     kind, file, line);
		return false;
	}
	memmove(&kchacha_shim_regs[i], &kchacha_shim_regs[i + 1],
		(kchacha_shim_nregs - i - 1) * sizeof(kchacha_shim_regs[0]));
	kchacha_shim_nregs--;
	return true;
}

const struct kchacha_shim_reg *kchacha_shim_reg_each(unsigned int i)
{
	return i < kchacha_shim_nregs ? &kchacha_shim_regs[i] : NULL;
}

/* linux/debugfs.h: a dentry is a name of its own, the registry's object */
struct dentry {
	char name[64];
};

struct dentry *kchacha_shim_debugfs_create(const char *name,
					   struct dentry *parent, bool dir,
					   const char *file, int line)
{
	const char *kind = dir ? "debugfs dir" : "debugfs file";
	const struct kchacha_shim_reg *r;
	struct dentry *d;
	unsigned int i;

	for (i = 0; (r = kchacha_shim_reg_each(i)); i++)
		if (r->parent == parent && !strcmp(r->name, name) &&
		    !strncmp(r->kind, "debugfs", 7))
			kchacha_shim_reg_bug("debugfs entry already present",
					     name, file, line);
	d = calloc(1, sizeof(*d));
	if (!d)
		abort();
	snprintf(d->name, sizeof(d->name), "%s", name);
	kchacha_shim_reg_add(kind, d, parent, name, file, line);
	return d;
}

/* @d, what its directories held, and then @d's memory */
void kchacha_shim_debugfs_remove(struct dentry *d, const char *file, int line)
{
	const struct kchacha_shim_reg *r;
	unsigned int i;

	if (!d)
		return;
	for (i = 0; (r = kchacha_shim_reg_each(i));) {
		if (r->parent == d) {
			kchacha_shim_debugfs_remove((struct dentry *)r->obj,
						    file, line);
			i = 0;	/* the list has moved */
		} else {
			i++;
		}
	}
	if (!kchacha_shim_reg_del("debugfs dir", d, false, file, line))
		kchacha_shim_reg_del("debugfs file", d, true, file, line);
	free(d);
}

#ifdef __x86_64__
#include <asm/cpufeature.h>

const struct cpuinfo_x86 *shim_cpu_override;
#endif

#ifdef __aarch64__
#include <asm/neon.h>

/* the buffer of the open section, and of the last one */
static __thread struct user_fpsimd_state *kchacha_shim_neon_state;
__thread struct user_fpsimd_state *kchacha_shim_neon_last;

void kernel_neon_begin(struct user_fpsimd_state *state)
{
	if (!state)
		abort();
	kernel_fpu_begin();
	kchacha_shim_neon_state = state;
	kchacha_shim_neon_last = state;
}

/*
 * As if the task had been scheduled out in the section: the kernel saves
 * the registers, here KCHACHA_SHIM_NEON_SAVED bytes, in the caller's buffer.
 */
void kernel_neon_end(struct user_fpsimd_state *state)
{
	if (state != kchacha_shim_neon_state)
		abort();
	memset(state, KCHACHA_SHIM_NEON_SAVED, sizeof(*state));
	kchacha_shim_neon_state = NULL;
	kernel_fpu_end();
}
#endif
