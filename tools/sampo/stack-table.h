/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack-table.h - folded stacks counted by distinct string: the table that
 * folded.c (perf script --folded) and collapse.c (stackcollapse-perf.pl's
 * reading) both fill, each with a count of its own kind.
 *
 * The caller's slot type starts with a struct stack_key; the table is an
 * open-addressing array of such slots, each key a copy the table owns.
 */
#ifndef SAMPO_STACK_TABLE_H
#define SAMPO_STACK_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct stack_key {
	char *key; /* NULL: an empty slot */
	uint64_t hash;
};

struct stack_table {
	unsigned char *slots;
	size_t slot_size; /* the caller's slot, a struct stack_key first */
	size_t nr, cap;
};

/* an empty table of slots of @slot_size bytes; no memory until the first add */
void stack_table__init(struct stack_table *t, size_t slot_size);

/*
 * stack_table__add() - the slot of @key (@len bytes, NUL-terminated), made
 * when new (zeroed after its struct stack_key; *added says so). NULL: out
 * of memory, the table unchanged.
 */
void *stack_table__add(struct stack_table *t, const char *key, size_t len, bool *added);

/* the nr slots in use, sorted by the bytes of their keys: an array to free(); NULL: no memory */
const void **stack_table__sorted(const struct stack_table *t);

void stack_table__release(struct stack_table *t);

#endif
