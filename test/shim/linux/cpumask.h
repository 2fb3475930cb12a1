/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/cpumask.h>: nr_cpu_ids, in linux/percpu.h. */
#include <linux/percpu.h>
