// SPDX-License-Identifier: LGPL-2.1
/*
 * symbol.c - the symbol table object: a frozen, address-sorted array.
 *
 * Loaders collect symbols into a builder in any order; finishing the builder
 * sorts them and applies perf 6.1's fix-ups (tools/perf/util/symbol.c):
 *
 *  - duplicates (same start) keep one symbol, chosen by choose_best_symbol():
 *    non-zero size, then a typed symbol over a label (STT_NOTYPE), then
 *    non-weak, then global, then fewer leading underscores, then the LONGER
 *    name, then not a "SyS"/"compat_SyS" syscall alias;
 *  - a zero-size symbol ends where the next one starts (symbols__fixup_end);
 *    the last one ends at the next page boundary after its start, and in
 *    kallsyms a symbol followed by one on the other side of the kernel/module
 *    border ends at the next page too, so the gap is not claimed;
 *  - ends are fixed first, then duplicates removed, for ELF
 *    (dso__load_sym_internal) and kallsyms (__dso__load_kallsyms) alike; the
 *    order matters because the duplicate rule looks at sizes, and equal
 *    starts keep their insertion order as in perf's rb-tree (equal goes right).
 *
 * Lookup is a branch-light binary search over a dense array of start
 * addresses (8 bytes per symbol, so a 100k-symbol table's search array fits
 * in L2), then one check of the end. Symbols may nest (a label inside a
 * function, a small function inside a big one's range): each symbol records
 * its nearest enclosing earlier symbol ("parent"). The lookup rule then:
 *
 *  - the closest-starting symbol has no parent: it alone can cover the
 *    address (any earlier one covering it would be its parent), and so
 *    perf's tree finds it too; answered by the binary search alone;
 *  - it has one, in a table of a source perf keeps in its rb-tree (ELF
 *    symbols, PLT entries, perf maps: the loader says so with
 *    sampo_symtab_builder__perf_tree()): perf 6.1's symbols__find() answer,
 *    the first symbol covering the address on the way down perf's tree,
 *    which the builder simulated (insert order, duplicates erased, kernel
 *    red-black balancing: see build_perf_tree()). That may be an outer
 *    symbol, an inner one, or none ("[unknown]") where the descent turns
 *    away from the symbol that covers the address;
 *  - otherwise (kallsyms, simpleperf, or a table perf's tree cannot be told
 *    for) the innermost symbol wins: a miss past the end of the closest
 *    symbol walks up the parents (or the max-end tree when deep).
 *
 * Invariants of a finished table: starts[] is sorted ascending with no two
 * equal; start < end for every symbol; names live in one arena owned by the
 * table and never move.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <sampo/symbol.h>
#include "internal/symbol.h"
#include "internal/util.h"

#define PAGE_SIZE_FIXUP 4096ULL

void sampo_symtab__set_err(char *errbuf, size_t errbuf_sz, const char *fmt, ...)
{
	va_list ap;

	if (!errbuf || !errbuf_sz)
		return;
	va_start(ap, fmt);
	vsnprintf(errbuf, errbuf_sz, fmt, ap);
	va_end(ap);
}

void sampo_symtab_builder__init(struct sampo_symtab_builder *b)
{
	memset(b, 0, sizeof(*b));
}

void sampo_symtab_builder__release(struct sampo_symtab_builder *b)
{
	if (!b)
		return;
	free(b->ents);
	free(b->arena);
	for (size_t i = 0; i < b->nr_aux; i++)
		free(b->aux_names[i]);
	free(b->aux_names);
	free(b->segs);
	memset(b, 0, sizeof(*b));
}

static int builder_grow(void **p, size_t *alloc, size_t need, size_t elem)
{
	size_t n = *alloc ? *alloc : 64;
	void *np;

	if (need <= *alloc)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2 / elem)
			return -ENOMEM;
		n *= 2;
	}
	np = realloc(*p, n * elem);
	if (!np)
		return -ENOMEM;
	*p = np;
	*alloc = n;
	return 0;
}

int sampo_symtab_builder__add(struct sampo_symtab_builder *b, uint64_t start, uint64_t size,
			      const char *name, size_t name_len, int binding, int type,
			      uint16_t aux)
{
	struct symtab_entry *e;
	int err;

	if (b->nr >= UINT32_MAX)
		return -ENOMEM;
	err = builder_grow((void **)&b->ents, &b->alloc, b->nr + 1, sizeof(*b->ents));
	if (err)
		return err;
	err = builder_grow((void **)&b->arena, &b->arena_alloc, b->arena_len + name_len + 1, 1);
	if (err)
		return err;

	e = &b->ents[b->nr];
	e->start = start;
	/* a size that wraps past the top of the address space is as good as unknown */
	e->end = start + size < start ? start : start + size;
	e->name_off = b->arena_len;
	e->seq = (uint32_t)b->nr;
	e->aux = aux;
	e->binding = (uint8_t)binding;
	e->type = (uint8_t)type;
	memcpy(b->arena + b->arena_len, name, name_len);
	b->arena[b->arena_len + name_len] = '\0';
	b->arena_len += name_len + 1;
	b->nr++;
	return 0;
}

int sampo_symtab_builder__add_aux(struct sampo_symtab_builder *b, const char *name, size_t len)
{
	char **na;
	char *s;

	if (b->nr_aux >= UINT16_MAX - 1)
		return -ENOMEM;
	na = realloc(b->aux_names, (b->nr_aux + 1) * sizeof(*na));
	if (!na)
		return -ENOMEM;
	b->aux_names = na;
	s = strndup(name, len);
	if (!s)
		return -ENOMEM;
	b->aux_names[b->nr_aux++] = s;
	return (int)b->nr_aux;
}

int sampo_symtab_builder__add_segment(struct sampo_symtab_builder *b,
				      const struct sampo_symtab_segment *seg)
{
	struct sampo_symtab_segment *ns = realloc(b->segs, (b->nr_segs + 1) * sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	b->segs = ns;
	b->segs[b->nr_segs++] = *seg;
	return 0;
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct symtab_entry *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static size_t prefix_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true when @a should stay and @b go. */
static bool choose_first(const struct symtab_entry *a, const struct symtab_entry *b,
			 const char *arena)
{
	uint64_t sa = a->end - a->start, sb = b->end - b->start;
	const char *na = arena + a->name_off, *nb = arena + b->name_off;
	size_t la, lb;

	if (sb == 0 && sa > 0)
		return true;
	if (sa == 0 && sb > 0)
		return false;

	if (a->type != b->type) {
		if (a->type == SAMPO_SYMBOL_NOTYPE)
			return false;
		if (b->type == SAMPO_SYMBOL_NOTYPE)
			return true;
	}

	if ((a->binding == SAMPO_SYMBOL_WEAK) != (b->binding == SAMPO_SYMBOL_WEAK))
		return b->binding == SAMPO_SYMBOL_WEAK;
	if ((a->binding == SAMPO_SYMBOL_GLOBAL) != (b->binding == SAMPO_SYMBOL_GLOBAL))
		return a->binding == SAMPO_SYMBOL_GLOBAL;

	la = prefix_underscores(na);
	lb = prefix_underscores(nb);
	if (la != lb)
		return la < lb;

	la = strlen(na);
	lb = strlen(nb);
	if (la != lb)
		return la > lb;

	/* arch__choose_best_symbol(): avoid the "SyS" syscall aliases */
	if (!strncmp(na, "SyS", 3) || !strncmp(na, "compat_SyS", 10))
		return false;
	return true;
}

/*
 * symbols__fixup_duplicate(): one symbol per start address. Walks the
 * sorted entries as perf walks its tree (equal starts in insertion order),
 * keeping a running winner; writes the indices of the kept entries to
 * @keep and, when @erased is not NULL, those of the losers in the order
 * perf erases them. Returns the number kept.
 */
static size_t fixup_duplicate(const struct symtab_entry *e, size_t nr, const char *arena,
			      uint32_t *keep, uint32_t *erased, size_t *nr_erased)
{
	size_t out = 0, ne = 0;

	for (size_t i = 0; i < nr; i++) {
		if (out && e[keep[out - 1]].start == e[i].start) {
			if (choose_first(&e[keep[out - 1]], &e[i], arena)) {
				if (erased)
					erased[ne] = (uint32_t)i;
			} else {
				if (erased)
					erased[ne] = keep[out - 1];
				keep[out - 1] = (uint32_t)i;
			}
			ne++;
			continue;
		}
		keep[out++] = (uint32_t)i;
	}
	*nr_erased = ne;
	return out;
}

static uint64_t roundup_page(uint64_t x)
{
	uint64_t r = (x + PAGE_SIZE_FIXUP - 1) & ~(PAGE_SIZE_FIXUP - 1);

	return r < x ? UINT64_MAX : r;
}

/* symbols__fixup_end() */
static void fixup_end(struct symtab_entry *e, size_t nr, bool kallsyms)
{
	for (size_t i = 0; i + 1 < nr; i++) {
		struct symtab_entry *prev = &e[i], *curr = &e[i + 1];

		if (prev->end != prev->start)
			continue;
		/* kallsyms: the kernel text and the modules are far apart; don't fill the gap */
		if (kallsyms && (prev->aux == 0) != (curr->aux == 0))
			prev->end = roundup_page(prev->end + PAGE_SIZE_FIXUP);
		else
			prev->end = curr->start;
	}
	if (nr && e[nr - 1].end == e[nr - 1].start) {
		uint64_t s = e[nr - 1].start;
		uint64_t end = roundup_page(s);

		e[nr - 1].end =
			end > UINT64_MAX - PAGE_SIZE_FIXUP ? UINT64_MAX : end + PAGE_SIZE_FIXUP;
	}
}

/*
 * Nested symbols. The symbol at an address is the last one (in start order)
 * among those starting at or before it that still covers it; the parent
 * chain finds it by walking up from the last start, which is a step or two
 * in real tables but one step per level when a file nests symbols deeply (a
 * chain of 100k nested symbols made every lookup walk 100k parents). Tables
 * nested deeper than SYMTAB_MAX_WALK get a max-end segment tree over the
 * start order instead: the last symbol at or before the last start whose end
 * lies above the address, in O(log n).
 */
#define SYMTAB_MAX_WALK 32

static int build_end_tree(struct sampo_symtab *st)
{
	size_t p = 1;

	while (p < st->nr)
		p *= 2;
	st->end_tree = calloc(2 * p, sizeof(*st->end_tree));
	if (!st->end_tree)
		return -ENOMEM;
	st->tree_leaves = p;
	for (size_t i = 0; i < st->nr; i++)
		st->end_tree[p + i] = st->syms[i].end;
	for (size_t k = p - 1; k >= 1; k--)
		st->end_tree[k] = MAX(st->end_tree[2 * k], st->end_tree[2 * k + 1]);
	return 0;
}

/* The last index <= @idx whose symbol ends above @addr, or -1. */
static ssize_t end_tree_find(const struct sampo_symtab *st, size_t idx, uint64_t addr)
{
	const uint64_t *t = st->end_tree;
	size_t k = st->tree_leaves + idx;

	if (t[k] > addr)
		return (ssize_t)idx;
	/* up until a left sibling (all of it before idx) holds an end above addr */
	for (;;) {
		if (k == 1)
			return -1;
		if ((k & 1) && t[k - 1] > addr) {
			k--;
			break;
		}
		k >>= 1;
	}
	/* down to its last leaf with an end above addr */
	while (k < st->tree_leaves)
		k = t[2 * k + 1] > addr ? 2 * k + 1 : 2 * k;
	return (ssize_t)(k - st->tree_leaves);
}

/*
 * perf's tree, simulated. perf 6.1 inserts each symbol with symbols__insert()
 * (smaller start to the left, an equal one to the right) and the kernel's
 * rb_insert_color() rebalancing (tools/lib/rbtree.c), erases duplicates with
 * rb_erase() in symbols__fixup_duplicate()'s order, and symbols__find()
 * returns the first symbol covering the address on the way down from the
 * root. The red-black rules below make the same rotations as the kernel's
 * (the insert cases: uncle red, inner child, outer child; erase: a node
 * with two children is replaced by the leftmost of its right subtree, then
 * the four sibling cases), so the shape, and every answer, is perf's.
 */
enum { RB_RED, RB_BLACK };

struct rbsim {
	uint32_t *l, *r, *p;
	uint8_t *black;
	uint32_t root;
	const struct symtab_entry *e;
};

static bool rbsim_red(const struct rbsim *t, uint32_t n)
{
	return n != SYMTAB_NIL && !t->black[n];
}

static void rbsim_replace(struct rbsim *t, uint32_t old, uint32_t new, uint32_t parent)
{
	if (parent == SYMTAB_NIL)
		t->root = new;
	else if (t->l[parent] == old)
		t->l[parent] = new;
	else
		t->r[parent] = new;
	if (new != SYMTAB_NIL)
		t->p[new] = parent;
}

/* x goes down to the left, its right child up */
static void rbsim_rotate_left(struct rbsim *t, uint32_t x)
{
	uint32_t y = t->r[x];

	t->r[x] = t->l[y];
	if (t->l[y] != SYMTAB_NIL)
		t->p[t->l[y]] = x;
	rbsim_replace(t, x, y, t->p[x]);
	t->l[y] = x;
	t->p[x] = y;
}

static void rbsim_rotate_right(struct rbsim *t, uint32_t x)
{
	uint32_t y = t->l[x];

	t->l[x] = t->r[y];
	if (t->r[y] != SYMTAB_NIL)
		t->p[t->r[y]] = x;
	rbsim_replace(t, x, y, t->p[x]);
	t->r[y] = x;
	t->p[x] = y;
}

static void rbsim_insert(struct rbsim *t, uint32_t z)
{
	uint32_t parent = SYMTAB_NIL, n = t->root;
	uint64_t ip = t->e[z].start;

	while (n != SYMTAB_NIL) {
		parent = n;
		n = ip < t->e[n].start ? t->l[n] : t->r[n];
	}
	t->l[z] = t->r[z] = SYMTAB_NIL;
	t->p[z] = parent;
	t->black[z] = RB_RED;
	if (parent == SYMTAB_NIL)
		t->root = z;
	else if (ip < t->e[parent].start)
		t->l[parent] = z;
	else
		t->r[parent] = z;

	while (rbsim_red(t, t->p[z])) {
		uint32_t p = t->p[z], g = t->p[p], u;

		if (p == t->l[g]) {
			u = t->r[g];
			if (rbsim_red(t, u)) {
				t->black[p] = t->black[u] = RB_BLACK;
				t->black[g] = RB_RED;
				z = g;
				continue;
			}
			if (z == t->r[p]) {
				rbsim_rotate_left(t, p);
				z = p;
				p = t->p[z];
			}
			t->black[p] = RB_BLACK;
			t->black[g] = RB_RED;
			rbsim_rotate_right(t, g);
		} else {
			u = t->l[g];
			if (rbsim_red(t, u)) {
				t->black[p] = t->black[u] = RB_BLACK;
				t->black[g] = RB_RED;
				z = g;
				continue;
			}
			if (z == t->l[p]) {
				rbsim_rotate_right(t, p);
				z = p;
				p = t->p[z];
			}
			t->black[p] = RB_BLACK;
			t->black[g] = RB_RED;
			rbsim_rotate_left(t, g);
		}
	}
	t->black[t->root] = RB_BLACK;
}

/* a black node gone from under @parent: restore the black heights */
static void rbsim_erase_fixup(struct rbsim *t, uint32_t parent)
{
	uint32_t node = SYMTAB_NIL;

	while (parent != SYMTAB_NIL) {
		uint32_t sib;

		if (node != t->r[parent]) { /* node is the left child */
			sib = t->r[parent];
			if (rbsim_red(t, sib)) {
				t->black[sib] = RB_BLACK;
				t->black[parent] = RB_RED;
				rbsim_rotate_left(t, parent);
				sib = t->r[parent];
			}
			if (!rbsim_red(t, t->l[sib]) && !rbsim_red(t, t->r[sib])) {
				t->black[sib] = RB_RED;
				if (rbsim_red(t, parent)) {
					t->black[parent] = RB_BLACK;
					return;
				}
				node = parent;
				parent = t->p[node];
				continue;
			}
			if (!rbsim_red(t, t->r[sib])) {
				t->black[t->l[sib]] = RB_BLACK;
				t->black[sib] = RB_RED;
				rbsim_rotate_right(t, sib);
				sib = t->r[parent];
			}
			t->black[sib] = t->black[parent];
			t->black[parent] = RB_BLACK;
			t->black[t->r[sib]] = RB_BLACK;
			rbsim_rotate_left(t, parent);
			return;
		}
		sib = t->l[parent];
		if (rbsim_red(t, sib)) {
			t->black[sib] = RB_BLACK;
			t->black[parent] = RB_RED;
			rbsim_rotate_right(t, parent);
			sib = t->l[parent];
		}
		if (!rbsim_red(t, t->l[sib]) && !rbsim_red(t, t->r[sib])) {
			t->black[sib] = RB_RED;
			if (rbsim_red(t, parent)) {
				t->black[parent] = RB_BLACK;
				return;
			}
			node = parent;
			parent = t->p[node];
			continue;
		}
		if (!rbsim_red(t, t->l[sib])) {
			t->black[t->r[sib]] = RB_BLACK;
			t->black[sib] = RB_RED;
			rbsim_rotate_left(t, sib);
			sib = t->l[parent];
		}
		t->black[sib] = t->black[parent];
		t->black[parent] = RB_BLACK;
		t->black[t->l[sib]] = RB_BLACK;
		rbsim_rotate_right(t, parent);
		return;
	}
}

static void rbsim_erase(struct rbsim *t, uint32_t z)
{
	uint32_t parent, child;
	bool fix;

	if (t->l[z] == SYMTAB_NIL || t->r[z] == SYMTAB_NIL) {
		child = t->l[z] == SYMTAB_NIL ? t->r[z] : t->l[z];
		parent = t->p[z];
		rbsim_replace(t, z, child, parent);
		if (child != SYMTAB_NIL) {
			t->black[child] = RB_BLACK; /* a red child under a black node */
			fix = false;
		} else {
			fix = t->black[z];
		}
	} else {
		uint32_t y = t->r[z];
		uint8_t y_black;

		if (t->l[y] == SYMTAB_NIL) {
			parent = y;
			child = t->r[y];
		} else {
			while (t->l[y] != SYMTAB_NIL)
				y = t->l[y];
			parent = t->p[y];
			child = t->r[y];
			t->l[parent] = child;
			if (child != SYMTAB_NIL)
				t->p[child] = parent;
			t->r[y] = t->r[z];
			t->p[t->r[z]] = y;
		}
		t->l[y] = t->l[z];
		t->p[t->l[z]] = y;
		rbsim_replace(t, z, y, t->p[z]);
		y_black = t->black[y];
		t->black[y] = t->black[z];
		if (child != SYMTAB_NIL) {
			t->black[child] = RB_BLACK;
			fix = false;
		} else {
			fix = y_black;
		}
	}
	if (fix)
		rbsim_erase_fixup(t, parent);
}

/*
 * Build perf's tree over the sorted entries @e (all @nr of them, duplicates
 * included): insert in insertion order (seq) those added before the
 * loader's late mark, erase @erased in order, insert the late ones; then
 * store the children by final index (@final_of: sorted index to index in
 * the table). Return 0, 1 when perf's tree cannot be told (a duplicate with
 * a late symbol, or any for a perf map: perf erases none), or -ENOMEM.
 */
static int build_perf_tree(struct sampo_symtab *st, const struct symtab_entry *e, size_t nr,
			   const uint32_t *erased, size_t nr_erased, const uint32_t *final_of,
			   uint8_t how, uint32_t late_seq)
{
	struct rbsim t = { .root = SYMTAB_NIL, .e = e };
	uint32_t *by_seq = NULL;
	int err = -ENOMEM;

	if (how == SAMPO_PERF_TREE_PERFMAP && nr_erased)
		return 1;
	/* every symbol not erased is in the table (none dropped at the top of the space) */
	if (nr - nr_erased != st->nr)
		return 1;
	/* perf inserts the late symbols after the erasing: it would keep both */
	for (size_t i = 0; i < nr_erased; i++) {
		size_t lo = erased[i], hi = erased[i];

		while (lo > 0 && e[lo - 1].start == e[erased[i]].start)
			lo--;
		while (hi + 1 < nr && e[hi + 1].start == e[erased[i]].start)
			hi++;
		for (size_t k = lo; k <= hi; k++) {
			if (e[k].seq >= late_seq)
				return 1;
		}
	}
	t.l = malloc(nr * sizeof(*t.l));
	t.r = malloc(nr * sizeof(*t.r));
	t.p = malloc(nr * sizeof(*t.p));
	t.black = malloc(nr);
	by_seq = malloc(nr * sizeof(*by_seq));
	st->perf_kids = malloc(2 * st->nr * sizeof(*st->perf_kids));
	if (!t.l || !t.r || !t.p || !t.black || !by_seq || !st->perf_kids)
		goto out;
	for (size_t i = 0; i < nr; i++)
		by_seq[i] = SYMTAB_NIL;
	/* seq is the index of the add() call: unique, and below nr */
	for (size_t i = 0; i < nr; i++)
		by_seq[e[i].seq] = (uint32_t)i;
	for (size_t q = 0; q < nr && q < late_seq; q++)
		rbsim_insert(&t, by_seq[q]);
	for (size_t i = 0; i < nr_erased; i++)
		rbsim_erase(&t, erased[i]);
	for (size_t q = late_seq; q < nr; q++)
		rbsim_insert(&t, by_seq[q]);

	for (size_t i = 0; i < nr; i++) {
		uint32_t f = final_of[i];

		if (f == SYMTAB_NIL)
			continue;
		st->perf_kids[2 * f] = t.l[i] == SYMTAB_NIL ? SYMTAB_NIL : final_of[t.l[i]];
		st->perf_kids[2 * f + 1] = t.r[i] == SYMTAB_NIL ? SYMTAB_NIL : final_of[t.r[i]];
	}
	st->perf_root = t.root == SYMTAB_NIL ? SYMTAB_NIL : final_of[t.root];
	err = 0;
out:
	if (err) {
		free(st->perf_kids);
		st->perf_kids = NULL;
	}
	free(t.l);
	free(t.r);
	free(t.p);
	free(t.black);
	free(by_seq);
	return err;
}

void sampo_symtab_builder__perf_tree(struct sampo_symtab_builder *b, enum sampo_perf_tree how)
{
	b->perf_tree = (uint8_t)how;
	b->late_seq = UINT32_MAX;
}

void sampo_symtab_builder__perf_tree_late(struct sampo_symtab_builder *b)
{
	b->late_seq = (uint32_t)b->nr;
}

int sampo_symtab_builder__finish(struct sampo_symtab_builder *b, enum sampo_symtab_fixup fixup,
				 struct sampo_symtab **ret_symtab)
{
	struct sampo_symtab *st;
	size_t nr = b->nr, nr_keep, nr_erased = 0, out = 0;
	bool sorted = true, nested = false;
	int32_t *stack = NULL;
	uint32_t *keep = NULL, *erased = NULL, *final_of = NULL;
	size_t depth = 0, max_depth = 0;
	int err = -ENOMEM;

	for (size_t i = 1; i < nr && sorted; i++)
		sorted = entry_cmp(&b->ents[i - 1], &b->ents[i]) <= 0;
	if (!sorted)
		qsort(b->ents, nr, sizeof(*b->ents), entry_cmp);

	fixup_end(b->ents, nr, fixup == SAMPO_FIXUP_KALLSYMS);
	keep = malloc((nr ? nr : 1) * sizeof(*keep));
	if (b->perf_tree != SAMPO_PERF_TREE_NONE) {
		erased = malloc((nr ? nr : 1) * sizeof(*erased));
		final_of = malloc((nr ? nr : 1) * sizeof(*final_of));
	}
	if (!keep || (b->perf_tree != SAMPO_PERF_TREE_NONE && (!erased || !final_of)))
		goto out_free;
	nr_keep = fixup_duplicate(b->ents, nr, b->arena, keep, erased, &nr_erased);
	if (final_of) {
		for (size_t i = 0; i < nr; i++)
			final_of[i] = SYMTAB_NIL;
	}

	st = calloc(1, sizeof(*st));
	if (!st)
		goto out_free;
	st->starts = malloc((nr_keep ? nr_keep : 1) * sizeof(*st->starts));
	st->syms = malloc((nr_keep ? nr_keep : 1) * sizeof(*st->syms));
	stack = malloc((nr_keep ? nr_keep : 1) * sizeof(*stack));
	if (!st->starts || !st->syms || !stack)
		goto out_delete;

	for (size_t k = 0; k < nr_keep; k++) {
		const struct symtab_entry *e = &b->ents[keep[k]];
		struct sampo_symbol *s = &st->syms[out];

		/* a zero-size symbol can remain only at the very top of the address space */
		if (e->end <= e->start)
			continue;
		/* parent: the nearest earlier symbol still open at this start */
		while (depth && st->syms[stack[depth - 1]].end <= e->start)
			depth--;
		s->parent = depth ? stack[depth - 1] : -1;
		nested |= depth != 0;
		/* one that ends before this one is dominated by it for every later start */
		while (depth && st->syms[stack[depth - 1]].end < e->end)
			depth--;
		stack[depth++] = (int32_t)out;
		max_depth = MAX(max_depth, depth);

		s->start = e->start;
		s->end = e->end;
		s->name = (const char *)(uintptr_t)e->name_off; /* fixed up below */
		s->aux = e->aux;
		s->binding = e->binding;
		s->type = e->type;
		st->starts[out] = e->start;
		if (final_of)
			final_of[keep[k]] = (uint32_t)out;
		out++;
	}

	st->nr = out;
	/* nested symbols of a source perf keeps in its tree: answer as its tree does */
	if (nested && final_of &&
	    build_perf_tree(st, b->ents, nr, erased, nr_erased, final_of, b->perf_tree,
			    b->late_seq) < 0)
		goto out_delete;
	if (!st->perf_kids && max_depth > SYMTAB_MAX_WALK && build_end_tree(st))
		goto out_delete;
	st->arena = b->arena;
	b->arena = NULL;
	if (!st->arena) {
		st->arena = calloc(1, 1);
		if (!st->arena)
			goto out_delete;
	}
	for (size_t i = 0; i < out; i++)
		st->syms[i].name = st->arena + (uintptr_t)st->syms[i].name;

	st->aux_names = b->aux_names;
	st->nr_aux = b->nr_aux;
	b->aux_names = NULL;
	b->nr_aux = 0;
	st->segs = b->segs;
	st->nr_segs = b->nr_segs;
	b->segs = NULL;
	b->nr_segs = 0;
	st->elf_type = b->elf_type;
	*ret_symtab = st;
	err = 0;
	goto out_free;

out_delete:
	sampo_symtab__delete(st);
out_free:
	free(stack);
	free(keep);
	free(erased);
	free(final_of);
	return err;
}

void sampo_symtab__delete(struct sampo_symtab *symtab)
{
	if (!symtab)
		return;
	free(symtab->starts);
	free(symtab->end_tree);
	free(symtab->perf_kids);
	free(symtab->syms);
	free(symtab->arena);
	for (size_t i = 0; i < symtab->nr_aux; i++)
		free(symtab->aux_names[i]);
	free(symtab->aux_names);
	free(symtab->segs);
	free(symtab);
}

/* symbols__find(): the first symbol covering @addr on the way down perf's tree */
static const struct sampo_symbol *perf_tree_find(const struct sampo_symtab *symtab, uint64_t addr)
{
	uint32_t n = symtab->perf_root;

	while (n != SYMTAB_NIL) {
		const struct sampo_symbol *s = &symtab->syms[n];

		if (addr < s->start)
			n = symtab->perf_kids[2 * (size_t)n];
		else if (addr >= s->end)
			n = symtab->perf_kids[2 * (size_t)n + 1];
		else
			return s;
	}
	return NULL;
}

const struct sampo_symbol *sampo_symtab__find(const struct sampo_symtab *symtab, uint64_t addr)
{
	const uint64_t *base = symtab->starts;
	size_t n = symtab->nr;
	const struct sampo_symbol *s;
	size_t idx;

	if (n == 0 || addr < base[0])
		return NULL;
	/* last start <= addr; the loop compiles to conditional moves */
	while (n > 1) {
		size_t half = n / 2;

		base = base[half] <= addr ? base + half : base;
		n -= half;
	}
	idx = (size_t)(base - symtab->starts);
	s = &symtab->syms[idx];
	/*
	 * Nested in perf's tree: its descent decides. Not nested: the symbol
	 * alone covers the address, or nothing does, and perf's descent agrees.
	 */
	if (s->parent >= 0 && symtab->perf_kids)
		return perf_tree_find(symtab, addr);
	if (symtab->end_tree && addr >= s->end) {
		ssize_t j = end_tree_find(symtab, idx, addr);

		return j < 0 ? NULL : &symtab->syms[j];
	}
	while (addr >= s->end) {
		if (s->parent < 0)
			return NULL;
		s = &symtab->syms[s->parent];
	}
	return s;
}

const struct sampo_symbol *sampo_symtab__find_by_name(const struct sampo_symtab *symtab,
						      const char *name)
{
	for (size_t i = 0; i < symtab->nr; i++) {
		if (!strcmp(symtab->syms[i].name, name))
			return &symtab->syms[i];
	}
	return NULL;
}

size_t sampo_symtab__nr(const struct sampo_symtab *symtab)
{
	return symtab->nr;
}

const struct sampo_symbol *sampo_symtab__at(const struct sampo_symtab *symtab, size_t idx)
{
	return idx < symtab->nr ? &symtab->syms[idx] : NULL;
}

int sampo_symtab__offset_to_vaddr(const struct sampo_symtab *symtab, uint64_t offset,
				  uint64_t *ret_vaddr)
{
	for (size_t i = 0; i < symtab->nr_segs; i++) {
		const struct sampo_symtab_segment *sg = &symtab->segs[i];

		if (offset >= sg->offset && offset - sg->offset < sg->filesz) {
			*ret_vaddr = sg->vaddr + (offset - sg->offset);
			return 0;
		}
	}
	return -ENOENT;
}

uint64_t sampo_symbol__start(const struct sampo_symbol *sym)
{
	return sym->start;
}

uint64_t sampo_symbol__end(const struct sampo_symbol *sym)
{
	return sym->end;
}

const char *sampo_symbol__name(const struct sampo_symbol *sym)
{
	return sym->name;
}

int sampo_symbol__binding(const struct sampo_symbol *sym)
{
	return sym->binding;
}

int sampo_symbol__type(const struct sampo_symbol *sym)
{
	return sym->type;
}

static const char *symtab_aux(const struct sampo_symtab *symtab, const struct sampo_symbol *sym)
{
	if (sym->aux == 0 || sym->aux > symtab->nr_aux)
		return NULL;
	return symtab->aux_names[sym->aux - 1];
}

const char *sampo_symtab__symbol_module(const struct sampo_symtab *symtab,
					const struct sampo_symbol *sym)
{
	return symtab->elf_type == 0 ? symtab_aux(symtab, sym) : NULL;
}

const char *sampo_symtab__symbol_section(const struct sampo_symtab *symtab,
					 const struct sampo_symbol *sym)
{
	return symtab->elf_type == 1 /* ET_REL */ ? symtab_aux(symtab, sym) : NULL;
}
