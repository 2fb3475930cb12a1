/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space shim for <linux/list.h>: the doubly linked list rng.c uses. */
#ifndef _SHIM_LINUX_LIST_H
#define _SHIM_LINUX_LIST_H
#include <linux/container_of.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD(name)	struct list_head name = { &(name), &(name) }

static inline void list_add(struct list_head *n, struct list_head *head)
{
	n->next = head->next;
	n->prev = head;
	head->next->prev = n;
	head->next = n;
}

static inline void list_del(struct list_head *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->next = NULL;
	e->prev = NULL;
}

#define list_for_each_entry(pos, head, member)				\
	for (pos = container_of((head)->next, __typeof__(*pos), member);	\
	     &pos->member != (head);					\
	     pos = container_of(pos->member.next, __typeof__(*pos), member))
#endif
