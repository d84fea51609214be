// SPDX-License-Identifier: LGPL-2.1
/*
 * hist.c - the histograms of `sampo report` (include/sampo/hist.h).
 *
 * Three stages, each keyed so that it costs little per sample:
 *
 * 1. Frames. An address seen from a process (the kernel: from anywhere) in
 *    a cpumode resolves to a map and a symbol once; a direct-mapped cache
 *    remembers it until that process's maps change (epochs: the machine's
 *    generation counters, one for the kernel, one per process). Frames are interned: one per (dso, symbol), or per
 *    (map, address) when no symbol covers it.
 * 2. Stacks. A sample is its event, thread, comm, cpu, own frame and the
 *    frames of its callchain (in perf's cursor order, cut at --max-stack).
 *    Equal stacks are merged, adding their periods; a raw sample seen
 *    before in the same epoch finds its stack through a second cache
 *    without resolving anything, and counts there.
 * 3. Entries. At resort time every distinct stack is replayed the way
 *    perf's hist_entry_iter replays a sample: the self entry gets the
 *    period and the whole chain; in children mode every frame of the chain
 *    also gets the period (once per stack, as perf's he_cache does) and the
 *    part of the chain from that frame on. Call graphs are perf's
 *    callchain_node tries, with perf's split rules and sibling order, so
 *    the printed graphs are the same.
 *
 * The comparison rules (what merges into one entry, how rows and graph
 * branches are ordered) follow perf 6.1's sort.c, hist.c, callchain.c and
 * ui/stdio/hist.c; each function below names the perf code it mirrors.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/cpuset.h>
#include <sampo/event.h>
#include <sampo/hist.h>
#include <sampo/machine.h>
#include <sampo/sample.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>

#include "internal/cpuset.h"
#include "internal/machine.h"
#include "internal/util.h"

#define DEFAULT_MAX_STACK 127
#define RCACHE_BITS_CHAINS 18
#define RCACHE_BITS_PLAIN 14
#define CCACHE_BITS 10
/* bigger with callchains: many more distinct stacks, and each miss costs more */
#define SCACHE_BITS_CHAINS 18
#define SCACHE_BITS_PLAIN 16
#define RAW_MAX (16u << 20) /* u64 words of recorded callchains kept for the stack cache */

/* ---- small helpers ---------------------------------------------------- */

static inline uint64_t mix64(uint64_t z)
{
	z ^= z >> 33;
	z *= 0xff51afd7ed558ccdULL;
	z ^= z >> 33;
	z *= 0xc4ceb9fe1a85ec53ULL;
	z ^= z >> 33;
	return z;
}

static inline uint64_t hash_combine(uint64_t h, uint64_t v)
{
	return mix64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return mix64(h);
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *n;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 64;
	while (ncap < need)
		ncap *= 2;
	n = realloc(*arr, ncap * elem);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

/*
 * An open-addressing index: slots hold 1 + the position of an item in some
 * array (0: empty), probed linearly from the item's hash.
 */
struct index {
	uint32_t *slots;
	uint64_t *hashes;
	size_t cap; /* power of two */
	size_t nr;
};

static int index_grow(struct index *ix)
{
	size_t ncap = ix->cap ? ix->cap * 2 : 1024;
	uint32_t *slots = calloc(ncap, sizeof(*slots));
	uint64_t *hashes = calloc(ncap, sizeof(*hashes));

	if (!slots || !hashes) {
		free(slots);
		free(hashes);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ix->cap; i++) {
		size_t j;

		if (!ix->slots[i])
			continue;
		for (j = ix->hashes[i] & (ncap - 1); slots[j]; j = (j + 1) & (ncap - 1))
			;
		slots[j] = ix->slots[i];
		hashes[j] = ix->hashes[i];
	}
	free(ix->slots);
	free(ix->hashes);
	ix->slots = slots;
	ix->hashes = hashes;
	ix->cap = ncap;
	return 0;
}

static void index_release(struct index *ix)
{
	free(ix->slots);
	free(ix->hashes);
	memset(ix, 0, sizeof(*ix));
}

/* ---- interned strings --------------------------------------------------- */

struct strings {
	struct index ix;
	char **strs;
	size_t nr, cap;
};

static const char *strings_intern(struct strings *st, const char *s)
{
	uint64_t h = hash_str(s);
	size_t j;

	if ((st->ix.nr + 1) * 2 > st->ix.cap && index_grow(&st->ix))
		return NULL;
	for (j = h & (st->ix.cap - 1); st->ix.slots[j]; j = (j + 1) & (st->ix.cap - 1)) {
		if (st->ix.hashes[j] == h && !strcmp(st->strs[st->ix.slots[j] - 1], s))
			return st->strs[st->ix.slots[j] - 1];
	}
	if (grow((void **)&st->strs, &st->cap, st->nr + 1, sizeof(*st->strs)))
		return NULL;
	st->strs[st->nr] = strdup(s);
	if (!st->strs[st->nr])
		return NULL;
	st->nr++;
	st->ix.slots[j] = (uint32_t)st->nr;
	st->ix.hashes[j] = h;
	st->ix.nr++;
	return st->strs[st->nr - 1];
}

static void strings_release(struct strings *st)
{
	for (size_t i = 0; i < st->nr; i++)
		free(st->strs[i]);
	free(st->strs);
	index_release(&st->ix);
}

/* ---- frames ----------------------------------------------------------- */

struct frame {
	struct sampo_map *map;		/* reference, or NULL: no map covers ip */
	struct sampo_dso *dso;		/* borrowed from map */
	const struct sampo_symbol *sym; /* NULL when unresolved */
	const char *dso_name;		/* interned short name, NULL without a map */
	uint64_t ip;			/* the address as sampled */
	uint64_t rel_ip;		/* map-relative (perf's al->addr) */
	uint64_t sym_start, sym_end;
	uint64_t match_addr; /* what perf's match_chain compares: sym start or ip */
	uint32_t dso_seq;    /* creation order of the DSO (perf compares dso pointers) */
	char level;	     /* 'k', '.' or 'H' */
};

/*
 * Cached lookups are valid for one "epoch": the machine's kernel generation
 * in the high half, the generation of the sample's process (its maps, comm,
 * threads) in the low half (sampo_machine__kernel_generation(),
 * sampo_machine__process_generation()).
 */
struct rcache_slot {
	const void *owner; /* the process's maps (user), the machine (kernel) */
	uint64_t ip;
	uint64_t epoch;
	int32_t pid;
	uint32_t frame;
	uint8_t cpumode;
};

struct ccache_slot {
	const void *thread;
	uint64_t epoch;
	const char *comm;
};

/* the last stack of a raw sample (thread, cpu, ip, callchain as recorded) */
struct scache_slot {
	uint64_t hash;
	uint64_t epoch;
	const void *thread;
	uint64_t ip;
	uint64_t period; /* added to the stack when the slot is reused, or at resort */
	uint32_t count;
	uint32_t stack;
	uint32_t raw_off, raw_nr; /* the recorded callchain in hists->raw */
	int32_t cpu;
	uint16_t evsel;
	uint8_t cpumode;
	bool used;
};
_Static_assert(sizeof(struct scache_slot) == 64, "one cache line per stack cache slot");

/* ---- stacks ----------------------------------------------------------- */

struct stack {
	uint64_t hash;
	struct sampo_thread *thread; /* reference */
	const char *comm;	     /* interned */
	uint32_t off, nr;	     /* cursor frames in hists->arena */
	uint32_t self;		     /* frame of the sample's ip */
	int32_t cpu;
	int evsel;
	bool filtered; /* by --comms, --dsos, --pid, --tid */
	uint64_t period;
	uint64_t count;
};

/* ---- entries and call graphs ------------------------------------------- */

/* perf's struct callchain_node */
struct cnode {
	struct cnode *parent;
	uint32_t val_off, val_nr; /* frames in hists->arena */
	uint64_t hit, children_hit;
	struct cnode **children; /* perf's rb_root_in order: match key descending */
	uint32_t nr_children, cap_children;
};

struct entry_key {
	const char *comm;
	const char *dso;
	uint64_t sym_start, sym_end, ip;
	int32_t tid;
	int32_t cpu;
	bool has_sym;
};

struct sampo_hist_entry {
	struct entry_key key;
	const struct sampo_hists *hists; /* for the accessors: the frame, the sort keys */
	struct sampo_thread *thread; /* borrowed from a stack */
	uint32_t frame;		     /* shown: dso and symbol */
	uint64_t period, period_acc;
	uint64_t nr_samples; /* self samples, for -n */
	uint32_t max_depth;
	char level; /* '[k]' or '[.]': the frame's, or the sample's for a frame with no map */
	/*
	 * perf keeps the filter verdict of the sample that created the entry:
	 * a filtered entry is not printed, but later samples still add to it
	 */
	bool filtered;
	uint32_t row; /* position in the printed order, after resort */
	struct cnode root;
};

struct evhists {
	uint64_t nr_samples;
	uint64_t total_period;
	struct sampo_hist_entry *entries;
	size_t nr_entries, cap_entries;
	struct index ix;
	struct sampo_hist_entry **sorted;
};

struct sampo_hists {
	struct sampo_machine *machine;
	struct sampo_symbolizer *symbolizer;
	struct sampo_hists_opts opts;
	enum sampo_sort_key keys[SAMPO_SORT_MAX_KEYS]; /* SAMPO_SORT_TID is stored as _PID */
	size_t nr_keys;
	bool has_key[SAMPO_SORT_CPU + 1];

	struct strings strings;
	char **comm_filter, **dso_filter;
	size_t nr_comm_filter, nr_dso_filter;
	int32_t *pid_filter, *tid_filter;
	size_t nr_pid_filter, nr_tid_filter;
	struct sampo_cpu_set *cpu_filter; /* NULL: all */

	struct frame *frames;
	size_t nr_frames, cap_frames;
	struct index frame_ix;

	uint64_t kernel_epoch; /* of the sample being added: its high half only */
	uint64_t cur_epoch;    /* of the sample being added */
	struct rcache_slot *rcache;
	uint32_t rcache_mask;
	struct ccache_slot *ccache;
	struct scache_slot *scache;
	uint32_t scache_mask;
	uint64_t *raw;
	size_t raw_nr, raw_cap;

	uint32_t *arena;
	size_t arena_nr, arena_cap;
	uint32_t *scratch;
	size_t scratch_cap;

	struct stack *stacks;
	size_t nr_stacks, cap_stacks;
	struct index stack_ix;

	struct evhists *ev;
	size_t nr_ev;
	bool resorted;
	struct sampo_dso **dsos; /* the DSOs of the frames, for sampo_hists__dso() */
	size_t nr_dsos;
};

/* ---- options ------------------------------------------------------------ */

static void set_err(char *buf, size_t sz, const char *fmt, ...) SAMPO_PRINTF(3, 4);
static void set_err(char *buf, size_t sz, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !sz)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
}

static const char *const sort_key_names[] = {
	[SAMPO_SORT_COMM] = "comm", [SAMPO_SORT_PID] = "pid", [SAMPO_SORT_TID] = "tid",
	[SAMPO_SORT_DSO] = "dso",   [SAMPO_SORT_SYM] = "sym", [SAMPO_SORT_CPU] = "cpu",
};

const char *sampo_sort_key__name(enum sampo_sort_key key)
{
	return (unsigned int)key < ARRAY_SIZE(sort_key_names) ? sort_key_names[key] : NULL;
}

static bool sort_key_word(const char *w, size_t len, enum sampo_sort_key *ret)
{
	if (len == 6 && !strncmp(w, "symbol", 6)) {
		*ret = SAMPO_SORT_SYM;
		return true;
	}
	for (size_t k = 0; k < ARRAY_SIZE(sort_key_names); k++) {
		if (strlen(sort_key_names[k]) == len && !strncmp(w, sort_key_names[k], len)) {
			*ret = (enum sampo_sort_key)k;
			return true;
		}
	}
	return false;
}

/* the same key: perf's pid key is per thread, so "pid" and "tid" are one */
static enum sampo_sort_key sort_key_canon(enum sampo_sort_key k)
{
	return k == SAMPO_SORT_TID ? SAMPO_SORT_PID : k;
}

int sampo_sort_keys__parse(const char *list, enum sampo_sort_key *keys, size_t max_keys,
			   size_t *ret_nr, char *errbuf, size_t errbuf_sz)
{
	size_t nr = 0, nr_words = 0;
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		enum sampo_sort_key k;
		bool dup = false;

		if (len) {
			nr_words++;
			if (!sort_key_word(p, len, &k)) {
				set_err(errbuf, errbuf_sz,
					"unknown sort key '%.*s' (known: comm, pid, tid, dso, sym, cpu)",
					(int)len, p);
				return -EINVAL;
			}
			/* perf ignores a repeated key */
			for (size_t i = 0; i < nr && !dup; i++)
				dup = sort_key_canon(keys[i]) == sort_key_canon(k);
			if (!dup) {
				if (nr == max_keys) {
					set_err(errbuf, errbuf_sz, "more than %zu sort keys",
						max_keys);
					return -EINVAL;
				}
				keys[nr++] = k;
			}
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!nr_words) {
		set_err(errbuf, errbuf_sz, "empty sort key list");
		return -EINVAL;
	}
	*ret_nr = nr;
	return 0;
}

static int set_sort_keys(struct sampo_hists *h, const enum sampo_sort_key *keys, size_t nr)
{
	static const enum sampo_sort_key defaults[] = { SAMPO_SORT_COMM, SAMPO_SORT_DSO,
							SAMPO_SORT_SYM };

	if (!keys || !nr) {
		keys = defaults;
		nr = ARRAY_SIZE(defaults);
	}
	if (nr > ARRAY_SIZE(h->keys))
		return -EINVAL;
	for (size_t i = 0; i < nr; i++) {
		enum sampo_sort_key k;

		if (!sampo_sort_key__name(keys[i]))
			return -EINVAL;
		k = sort_key_canon(keys[i]);
		if (h->has_key[k])
			continue;
		h->keys[h->nr_keys++] = k;
		h->has_key[k] = true;
	}
	return 0;
}

static void free_list(char **words, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(words[i]);
	free(words);
}

static int copy_strings(const char *const *src, size_t nr, char ***ret, size_t *ret_nr)
{
	char **words;

	if (!src || !nr)
		return 0;
	words = calloc(nr, sizeof(*words));
	if (!words)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		words[i] = strdup(src[i]);
		if (!words[i]) {
			free_list(words, i);
			return -ENOMEM;
		}
	}
	*ret = words;
	*ret_nr = nr;
	return 0;
}

static int copy_ints(const int32_t *src, size_t nr, int32_t **ret, size_t *ret_nr)
{
	if (!src || !nr)
		return 0;
	*ret = malloc(nr * sizeof(*src));
	if (!*ret)
		return -ENOMEM;
	memcpy(*ret, src, nr * sizeof(*src));
	*ret_nr = nr;
	return 0;
}

static int copy_filters(struct sampo_hists *h, const struct sampo_hists_opts *o)
{
	int err;

	err = copy_strings(o->comms, o->nr_comms, &h->comm_filter, &h->nr_comm_filter);
	if (!err)
		err = copy_strings(o->dsos, o->nr_dsos, &h->dso_filter, &h->nr_dso_filter);
	if (!err)
		err = copy_ints(o->pids, o->nr_pids, &h->pid_filter, &h->nr_pid_filter);
	if (!err)
		err = copy_ints(o->tids, o->nr_tids, &h->tid_filter, &h->nr_tid_filter);
	if (!err && o->cpus) {
		h->cpu_filter = sampo_cpu_set__dup(o->cpus);
		if (!h->cpu_filter)
			err = -ENOMEM;
	}
	return err;
}

int sampo_hists__new(struct sampo_machine *machine, struct sampo_symbolizer *symbolizer,
		     const struct sampo_hists_opts *opts, struct sampo_hists **ret)
{
	struct sampo_hists *h;
	int err = -ENOMEM;

	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->machine = machine;
	h->symbolizer = symbolizer;
	if (opts)
		memcpy(&h->opts, opts, MIN(opts->sz, sizeof(h->opts)));
	h->opts.sz = sizeof(h->opts);
	if (!h->opts.max_stack)
		h->opts.max_stack = DEFAULT_MAX_STACK;
	if (h->opts.callchain_min_percent < 0)
		h->opts.callchain_min_percent = 0.5;
	if (!h->opts.callchain)
		h->opts.children = false;

	h->rcache_mask = (1u << (h->opts.callchain ? RCACHE_BITS_CHAINS : RCACHE_BITS_PLAIN)) - 1;
	h->rcache = calloc(h->rcache_mask + 1, sizeof(*h->rcache));
	h->ccache = calloc(1u << CCACHE_BITS, sizeof(*h->ccache));
	h->scache_mask = (1u << (h->opts.callchain ? SCACHE_BITS_CHAINS : SCACHE_BITS_PLAIN)) - 1;
	h->scache = calloc(h->scache_mask + 1, sizeof(*h->scache));
	if (!h->rcache || !h->ccache || !h->scache)
		goto out_err;

	err = set_sort_keys(h, h->opts.sort_keys, h->opts.nr_sort_keys);
	if (err)
		goto out_err;
	err = copy_filters(h, &h->opts);
	if (err)
		goto out_err;
	/* the lists are the caller's: keep only the copies */
	h->opts.sort_keys = NULL;
	h->opts.comms = h->opts.dsos = NULL;
	h->opts.pids = h->opts.tids = NULL;
	h->opts.cpus = NULL;
	*ret = h;
	return 0;
out_err:
	sampo_hists__delete(h);
	return err;
}

static void cnode_free_children(struct cnode *n)
{
	for (uint32_t i = 0; i < n->nr_children; i++) {
		cnode_free_children(n->children[i]);
		free(n->children[i]);
	}
	free(n->children);
}

void sampo_hists__delete(struct sampo_hists *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr_ev; i++) {
		struct evhists *ev = &h->ev[i];

		for (size_t j = 0; j < ev->nr_entries; j++)
			cnode_free_children(&ev->entries[j].root);
		free(ev->entries);
		free(ev->sorted);
		index_release(&ev->ix);
	}
	free(h->ev);
	free(h->dsos);
	for (size_t i = 0; i < h->nr_stacks; i++)
		sampo_thread__put(h->stacks[i].thread);
	free(h->stacks);
	index_release(&h->stack_ix);
	for (size_t i = 0; i < h->nr_frames; i++)
		sampo_map__put(h->frames[i].map);
	free(h->frames);
	index_release(&h->frame_ix);
	free(h->arena);
	free(h->scratch);
	free(h->rcache);
	free(h->ccache);
	free(h->scache);
	free(h->raw);
	free_list(h->comm_filter, h->nr_comm_filter);
	free_list(h->dso_filter, h->nr_dso_filter);
	free(h->pid_filter);
	free(h->tid_filter);
	sampo_cpu_set__delete(h->cpu_filter);
	strings_release(&h->strings);
	free(h);
}

static struct evhists *hists_ev(struct sampo_hists *h, int evsel)
{
	if (evsel < 0)
		return NULL;
	if ((size_t)evsel >= h->nr_ev) {
		size_t n = (size_t)evsel + 1;
		struct evhists *ev = realloc(h->ev, n * sizeof(*ev));

		if (!ev)
			return NULL;
		memset(ev + h->nr_ev, 0, (n - h->nr_ev) * sizeof(*ev));
		h->ev = ev;
		h->nr_ev = n;
	}
	return &h->ev[evsel];
}

/* ---- stage 1: frames ---------------------------------------------------- */

static char level_of(const struct sampo_machine *m, uint8_t cpumode)
{
	switch (cpumode) {
	case SAMPO_CPUMODE_KERNEL:
		return 'k';
	case SAMPO_CPUMODE_USER:
		return '.';
	case SAMPO_CPUMODE_GUEST_KERNEL:
		return sampo_machine__is_guest(m) ? 'g' : 'H';
	case SAMPO_CPUMODE_GUEST_USER:
		return sampo_machine__is_guest(m) ? 'u' : 'H';
	default:
		return 'H';
	}
}

static uint64_t frame_hash(const struct sampo_dso *dso, const struct sampo_symbol *sym,
			   const struct sampo_map *map, uint64_t ip, char level)
{
	if (sym)
		return hash_combine(mix64((uintptr_t)dso), (uintptr_t)sym);
	return hash_combine(hash_combine(mix64((uintptr_t)map), ip), (uint64_t)level);
}

static bool frame_equal(const struct frame *f, const struct sampo_dso *dso,
			const struct sampo_symbol *sym, const struct sampo_map *map, uint64_t ip,
			char level)
{
	if (sym)
		return f->sym == sym && f->dso == dso;
	return !f->sym && f->map == map && f->ip == ip && f->level == level;
}

/* the frame of @ip seen from @thread of machine @m in @cpumode (perf's thread__find_symbol) */
static int resolve_frame(struct sampo_hists *h, struct sampo_machine *m,
			 struct sampo_thread *thread, uint8_t cpumode, uint64_t ip, uint32_t *ret)
{
	/*
	 * An address means the same in every thread of a process (they share
	 * the maps), and in every process for the kernel (of one machine).
	 */
	bool kernel = cpumode == SAMPO_CPUMODE_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_KERNEL;
	bool guest = sampo_machine__is_guest(m);
	const void *owner = kernel ? (const void *)m : (const void *)thread->maps;
	int32_t pid = kernel ? 0 : thread->pid;
	uint64_t epoch = kernel ? h->kernel_epoch : h->cur_epoch;
	uint64_t slot_hash = hash_combine(mix64((uintptr_t)owner ^ cpumode), ip);
	struct rcache_slot *slot = &h->rcache[slot_hash & h->rcache_mask];
	struct sampo_addr_location al = { 0 };
	const struct sampo_symbol *sym = NULL;
	const char *unmapped_module = NULL;
	struct sampo_dso *dso = NULL;
	struct sampo_map *map;
	char level = level_of(m, cpumode);
	uint64_t hash;
	size_t j;
	int err = 0;

	if (slot->epoch == epoch && slot->owner == owner && slot->ip == ip &&
	    slot->cpumode == cpumode && slot->pid == pid && owner) {
		*ret = slot->frame;
		return 0;
	}

	map = sampo_machine__find_map(m, thread, cpumode, ip, &al);
	if (map) {
		dso = sampo_map__dso(map);
		if (h->symbolizer)
			sym = sampo_symbolizer__find(h->symbolizer, map, ip);
		/* a guest's frames keep their level ('g', 'u'), as perf kvm shows them */
		if (!guest)
			level = sampo_dso__is_kernel(dso) ? 'k' : '.';
	} else if (kernel && h->symbolizer) {
		/*
		 * A kernel address no map covers: a module's init code, or a
		 * module loaded after the maps were written. The section maps
		 * (or a kallsyms snapshot) may place it: sampo names it where
		 * perf prints an address.
		 */
		sym = sampo_symbolizer__find_unmapped(
			sampo_symbolizer__for_machine(h->symbolizer, m), ip, &unmapped_module);
		if (sym && !unmapped_module) {
			/* the kernel's own code past its map: shown in the kernel map */
			map = sampo_machine__kernel_map(m);
			al.map = sampo_map__get(map); /* released with al */
			dso = sampo_map__dso(map);
		}
	}

	hash = frame_hash(dso, sym, map, ip, level);
	if ((h->frame_ix.nr + 1) * 2 > h->frame_ix.cap && index_grow(&h->frame_ix)) {
		err = -ENOMEM;
		goto out;
	}
	for (j = hash & (h->frame_ix.cap - 1); h->frame_ix.slots[j];
	     j = (j + 1) & (h->frame_ix.cap - 1)) {
		uint32_t idx = h->frame_ix.slots[j] - 1;

		if (h->frame_ix.hashes[j] == hash &&
		    frame_equal(&h->frames[idx], dso, sym, map, ip, level)) {
			*ret = idx;
			goto cache;
		}
	}
	if (grow((void **)&h->frames, &h->cap_frames, h->nr_frames + 1, sizeof(*h->frames))) {
		err = -ENOMEM;
		goto out;
	}
	{
		struct frame *f = &h->frames[h->nr_frames];

		memset(f, 0, sizeof(*f));
		f->map = sampo_map__get(map);
		f->dso = dso;
		f->sym = sym;
		f->ip = ip;
		f->rel_ip = map ? sampo_map__map_ip(map, ip) : ip;
		f->level = level;
		if (dso || (sym && unmapped_module)) {
			char modname[256];
			const char *name = dso ? sampo_dso__short_name(dso) : modname;

			if (!dso)
				snprintf(modname, sizeof(modname), "[%s]", unmapped_module);
			f->dso_name = strings_intern(&h->strings, name);
			if (!f->dso_name) {
				sampo_map__put(f->map);
				err = -ENOMEM;
				goto out;
			}
		}
		if (sym) {
			f->sym_start = sampo_symbol__start(sym);
			f->sym_end = sampo_symbol__end(sym);
		}
		f->match_addr = sym ? f->sym_start : ip;
	}
	*ret = (uint32_t)h->nr_frames;
	h->frame_ix.slots[j] = (uint32_t)++h->nr_frames;
	h->frame_ix.hashes[j] = hash;
	h->frame_ix.nr++;
cache:
	slot->owner = owner;
	slot->ip = ip;
	slot->cpumode = cpumode;
	slot->pid = pid;
	slot->epoch = epoch;
	slot->frame = *ret;
out:
	sampo_addr_location__exit(&al);
	return err;
}

static const char *thread_comm(struct sampo_hists *h, struct sampo_thread *thread)
{
	uint64_t hash = mix64((uintptr_t)thread);
	struct ccache_slot *slot = &h->ccache[hash & ((1u << CCACHE_BITS) - 1)];

	if (slot->epoch == h->cur_epoch && slot->thread == thread)
		return slot->comm;
	slot->comm = strings_intern(&h->strings, sampo_thread__comm(thread));
	slot->thread = thread;
	slot->epoch = slot->comm ? h->cur_epoch : 0;
	return slot->comm;
}

/* a context marker's cpumode (perf's add_callchain_ip()); false: not a valid one */
static bool context_cpumode(uint64_t marker, uint8_t *cpumode)
{
	switch (marker) {
	case SAMPO_CONTEXT_HV:
		*cpumode = SAMPO_CPUMODE_HYPERVISOR;
		return true;
	case SAMPO_CONTEXT_KERNEL:
		*cpumode = SAMPO_CPUMODE_KERNEL;
		return true;
	case SAMPO_CONTEXT_USER:
		*cpumode = SAMPO_CPUMODE_USER;
		return true;
	default:
		return false;
	}
}

/* perf's find_prev_cpumode(): the closest marker before @ent sets the cpumode */
static bool prev_cpumode(const uint64_t *ips, size_t ent, uint8_t *cpumode)
{
	while (ent-- > 0) {
		if (ips[ent] >= SAMPO_CONTEXT_MAX)
			return context_cpumode(ips[ent], cpumode);
	}
	return true;
}

/*
 * The callchain cursor of perf's thread__resolve_callchain_sample(): the
 * entries in graph order (callee: as recorded, leaf first; caller: reversed),
 * context markers giving the cpumode of the entries after them (in the
 * recorded order), at most max_stack addresses. A marker that is no valid
 * context (-1 ends some chains) makes perf drop the whole chain.
 */
static int resolve_chain(struct sampo_hists *h, struct sampo_machine *m,
			 struct sampo_thread *thread, const struct sampo_sample *sample,
			 size_t *ret_nr)
{
	const uint64_t *ips = sample->callchain;
	size_t nr = (size_t)sample->callchain_nr, n = 0;
	uint8_t cpumode = SAMPO_CPUMODE_USER;
	bool caller = h->opts.caller_order;
	int err;

	*ret_nr = 0;
	if (!(sample->sample_type & SAMPO_SAMPLE_CALLCHAIN) || !nr || !ips)
		return 0;
	if (grow((void **)&h->scratch, &h->scratch_cap, MIN(nr, h->opts.max_stack) + 1,
		 sizeof(*h->scratch)))
		return -ENOMEM;
	if (caller && !prev_cpumode(ips, nr, &cpumode))
		return 0;
	for (size_t i = 0; i < nr && n < h->opts.max_stack; i++) {
		size_t j = caller ? nr - i - 1 : i;
		uint64_t ip = ips[j];

		if (ip >= SAMPO_CONTEXT_MAX) {
			if (caller ? !prev_cpumode(ips, j, &cpumode) : !context_cpumode(ip, &cpumode))
				return 0;
			continue;
		}
		err = resolve_frame(h, m, thread, cpumode, ip, &h->scratch[n]);
		if (err)
			return err;
		n++;
	}
	*ret_nr = n;
	return 0;
}

/* ---- stage 2: stacks ---------------------------------------------------- */

static bool in_list(char **list, size_t nr, const char *s)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static bool in_ints(const int32_t *list, size_t nr, int32_t v)
{
	for (size_t i = 0; i < nr; i++)
		if (list[i] == v)
			return true;
	return false;
}

static bool sample_filtered(struct sampo_hists *h, const struct sampo_sample *sample,
			    const char *comm, const struct frame *self)
{
	if (h->nr_comm_filter && (!comm || !in_list(h->comm_filter, h->nr_comm_filter, comm)))
		return true;
	if (h->nr_pid_filter && !in_ints(h->pid_filter, h->nr_pid_filter, (int32_t)sample->pid))
		return true;
	if (h->nr_tid_filter && !in_ints(h->tid_filter, h->nr_tid_filter, (int32_t)sample->tid))
		return true;
	if (h->nr_dso_filter) {
		if (!self->dso)
			return true;
		if (!in_list(h->dso_filter, h->nr_dso_filter, sampo_dso__short_name(self->dso)) &&
		    !in_list(h->dso_filter, h->nr_dso_filter, sampo_dso__long_name(self->dso)))
			return true;
	}
	return false;
}

/* the recorded callchain of @sample, if the graphs use it */
static size_t raw_chain(const struct sampo_hists *h, const struct sampo_sample *sample,
			const uint64_t **ret)
{
	*ret = NULL;
	if (!h->opts.callchain || !(sample->sample_type & SAMPO_SAMPLE_CALLCHAIN) ||
	    !sample->callchain)
		return 0;
	*ret = sample->callchain;
	return (size_t)sample->callchain_nr;
}

/* what a stack cache slot counted goes to its stack */
static void scache_flush(struct sampo_hists *h, struct scache_slot *slot)
{
	if (slot->used && slot->count) {
		h->stacks[slot->stack].period += slot->period;
		h->stacks[slot->stack].count += slot->count;
	}
	slot->period = 0;
	slot->count = 0;
}

static void scache_flush_all(struct sampo_hists *h)
{
	for (size_t i = 0; i <= h->scache_mask; i++)
		scache_flush(h, &h->scache[i]);
}

/* remember that this raw sample made stack @idx, until its epoch ends */
static void scache_store(struct sampo_hists *h, struct scache_slot *slot, uint64_t hash,
			 const void *thread, int evsel, int32_t cpu,
			 const struct sampo_sample *sample, uint32_t idx)
{
	const uint64_t *words;
	size_t n = raw_chain(h, sample, &words);

	if (h->raw_nr + n > RAW_MAX) {
		/* start over rather than grow without bound */
		scache_flush_all(h);
		memset(h->scache, 0, (h->scache_mask + 1) * sizeof(*h->scache));
		h->raw_nr = 0;
	}
	scache_flush(h, slot);
	if (n > RAW_MAX || grow((void **)&h->raw, &h->raw_cap, h->raw_nr + n, sizeof(*h->raw)))
		return;
	if (n)
		memcpy(h->raw + h->raw_nr, words, n * sizeof(*words));
	slot->hash = hash;
	slot->epoch = h->cur_epoch;
	slot->thread = thread;
	slot->ip = sample->ip;
	slot->stack = idx;
	slot->raw_off = (uint32_t)h->raw_nr;
	slot->raw_nr = (uint32_t)n;
	slot->cpu = cpu;
	slot->evsel = (uint16_t)evsel;
	slot->cpumode = sample->cpumode;
	slot->used = true;
	h->raw_nr += n;
}

int sampo_hists__add_sample(struct sampo_hists *h, int evsel, const struct sampo_sample *sample)
{
	struct evhists *ev = hists_ev(h, evsel);
	struct sampo_machine *m;
	struct sampo_thread *thread;
	struct scache_slot *sslot;
	const uint64_t *words;
	const char *comm;
	uint32_t self, idx;
	size_t nr = 0, nr_words, j;
	int32_t cpu = h->has_key[SAMPO_SORT_CPU] ? (int32_t)sample->cpu : 0;
	bool filtered;
	uint64_t hash, raw_hash;
	int err = 0;

	if (!ev)
		return -ENOMEM;
	/* perf drops samples of other CPUs; the other filters still count in the totals */
	if (h->cpu_filter && !cpu_set_has(h->cpu_filter, sample->cpu))
		return 0;
	/* a guest's sample (guests enabled): its machine's thread and maps */
	m = h->machine;
	if (sample->cpumode == SAMPO_CPUMODE_GUEST_KERNEL ||
	    sample->cpumode == SAMPO_CPUMODE_GUEST_USER)
		m = sampo_machine__for_cpumode(m, sample->cpumode, (int32_t)sample->pid);
	thread = m ? sampo_machine__findnew_thread(m, (int32_t)sample->pid, (int32_t)sample->tid) :
		     NULL;
	if (!thread)
		return -ENOMEM;
	/* the machine's counters say which cached lookups are still valid */
	h->kernel_epoch = (uint64_t)sampo_machine__kernel_generation(h->machine) << 32;
	h->cur_epoch = h->kernel_epoch |
		       sampo_machine__process_generation(h->machine, (int32_t)sample->pid);
	ev->nr_samples++;
	ev->total_period += sample->period;

	/* the same raw sample as before, in the same epoch: the same stack */
	nr_words = raw_chain(h, sample, &words);
	raw_hash = hash_combine(mix64((uintptr_t)thread ^ ((uint64_t)(uint32_t)evsel << 40)),
				sample->ip ^ ((uint64_t)sample->cpumode << 56));
	raw_hash = hash_combine(raw_hash, (uint32_t)cpu);
	for (size_t i = 0; i < nr_words; i++)
		raw_hash = hash_combine(raw_hash, words[i]);
	sslot = &h->scache[raw_hash & h->scache_mask];
	if (sslot->hash == raw_hash && sslot->epoch == h->cur_epoch && sslot->thread == thread &&
	    sslot->ip == sample->ip && sslot->cpumode == sample->cpumode && sslot->cpu == cpu &&
	    sslot->evsel == evsel && sslot->raw_nr == nr_words && sslot->used &&
	    (!nr_words || !memcmp(h->raw + sslot->raw_off, words, nr_words * sizeof(*words)))) {
		/* counted in the slot: one cache line per sample */
		sslot->period += sample->period;
		if (++sslot->count == UINT32_MAX)
			scache_flush(h, sslot);
		goto out;
	}

	comm = thread_comm(h, thread);
	if (!comm) {
		err = -ENOMEM;
		goto out;
	}
	err = resolve_frame(h, m, thread, sample->cpumode, sample->ip, &self);
	if (err)
		goto out;
	filtered = sample_filtered(h, sample, comm, &h->frames[self]);

	if (h->opts.callchain) {
		err = resolve_chain(h, m, thread, sample, &nr);
		if (err)
			goto out;
	}

	hash = hash_combine(hash_combine(mix64((uintptr_t)thread), (uintptr_t)comm),
			    ((uint64_t)(uint32_t)evsel << 32) | (uint32_t)cpu);
	hash = hash_combine(hash, ((uint64_t)self << 1) | filtered);
	for (size_t i = 0; i < nr; i++)
		hash = hash_combine(hash, h->scratch[i]);

	if ((h->stack_ix.nr + 1) * 2 > h->stack_ix.cap && index_grow(&h->stack_ix)) {
		err = -ENOMEM;
		goto out;
	}
	for (j = hash & (h->stack_ix.cap - 1); h->stack_ix.slots[j];
	     j = (j + 1) & (h->stack_ix.cap - 1)) {
		struct stack *s;

		if (h->stack_ix.hashes[j] != hash)
			continue; /* without touching the stack itself */
		s = &h->stacks[h->stack_ix.slots[j] - 1];
		if (s->hash == hash && s->thread == thread && s->comm == comm && s->cpu == cpu &&
		    s->evsel == evsel && s->self == self && s->nr == nr && s->filtered == filtered &&
		    (!nr || !memcmp(h->arena + s->off, h->scratch, nr * sizeof(*h->scratch)))) {
			s->period += sample->period;
			s->count++;
			idx = h->stack_ix.slots[j] - 1;
			goto remember;
		}
	}
	if (grow((void **)&h->stacks, &h->cap_stacks, h->nr_stacks + 1, sizeof(*h->stacks)) ||
	    grow((void **)&h->arena, &h->arena_cap, h->arena_nr + nr, sizeof(*h->arena))) {
		err = -ENOMEM;
		goto out;
	}
	{
		struct stack *s = &h->stacks[h->nr_stacks];

		s->hash = hash;
		s->thread = sampo_thread__get(thread);
		s->comm = comm;
		s->off = (uint32_t)h->arena_nr;
		s->nr = (uint32_t)nr;
		s->self = self;
		s->cpu = cpu;
		s->evsel = evsel;
		s->filtered = filtered;
		s->period = sample->period;
		s->count = 1;
		if (nr)
			memcpy(h->arena + h->arena_nr, h->scratch, nr * sizeof(*h->scratch));
		h->arena_nr += nr;
	}
	idx = (uint32_t)h->nr_stacks;
	h->stack_ix.slots[j] = (uint32_t)++h->nr_stacks;
	h->stack_ix.hashes[j] = hash;
	h->stack_ix.nr++;
remember:
	scache_store(h, sslot, raw_hash, thread, evsel, cpu, sample, idx);
out:
	sampo_thread__put(thread);
	return err;
}

/* ---- stage 3: entries ----------------------------------------------------- */

/* perf's hist_entry__cmp() over the sort keys, as a key to hash and compare */
static void entry_key_init(const struct sampo_hists *h, struct entry_key *k, const struct stack *s,
			   const struct frame *f, bool cumulative)
{
	memset(k, 0, sizeof(*k));
	if (h->has_key[SAMPO_SORT_COMM])
		k->comm = s->comm;
	if (h->has_key[SAMPO_SORT_PID])
		k->tid = sampo_thread__tid(s->thread);
	if (h->has_key[SAMPO_SORT_CPU])
		k->cpu = s->cpu;
	if (h->has_key[SAMPO_SORT_DSO])
		k->dso = f->dso_name;
	if (h->has_key[SAMPO_SORT_SYM]) {
		if (f->sym) {
			/* sort__sym_cmp: the dso, then the symbol's range */
			k->has_sym = true;
			k->dso = f->dso_name;
			k->sym_start = f->sym_start;
			k->sym_end = f->sym_end;
		} else {
			/*
			 * perf's self entries hold the map-relative address,
			 * the entries of callchain frames the raw one
			 * (fill_callchain_info() sets al->addr = node->ip).
			 */
			k->ip = cumulative ? f->ip : f->rel_ip;
		}
	}
}

static uint64_t entry_key_hash(const struct entry_key *k)
{
	uint64_t hash = mix64((uintptr_t)k->comm);

	hash = hash_combine(hash, (uintptr_t)k->dso);
	hash = hash_combine(hash, k->sym_start);
	hash = hash_combine(hash, k->sym_end);
	hash = hash_combine(hash, k->ip);
	hash = hash_combine(hash, ((uint64_t)(uint32_t)k->tid << 32) | (uint32_t)k->cpu);
	return hash_combine(hash, k->has_sym);
}

static bool entry_key_equal(const struct entry_key *a, const struct entry_key *b)
{
	return a->comm == b->comm && a->dso == b->dso && a->sym_start == b->sym_start &&
	       a->sym_end == b->sym_end && a->ip == b->ip && a->tid == b->tid &&
	       a->cpu == b->cpu && a->has_sym == b->has_sym;
}

static struct sampo_hist_entry *entry_findnew(const struct sampo_hists *h, struct evhists *ev,
				   const struct entry_key *k, const struct stack *s, uint32_t frame)
{
	uint64_t hash = entry_key_hash(k);
	size_t j;

	if ((ev->ix.nr + 1) * 2 > ev->ix.cap && index_grow(&ev->ix))
		return NULL;
	for (j = hash & (ev->ix.cap - 1); ev->ix.slots[j]; j = (j + 1) & (ev->ix.cap - 1)) {
		struct sampo_hist_entry *e = &ev->entries[ev->ix.slots[j] - 1];

		if (ev->ix.hashes[j] == hash && entry_key_equal(&e->key, k))
			return e;
	}
	if (grow((void **)&ev->entries, &ev->cap_entries, ev->nr_entries + 1, sizeof(*ev->entries)))
		return NULL;
	{
		struct sampo_hist_entry *e = &ev->entries[ev->nr_entries];

		memset(e, 0, sizeof(*e));
		e->key = *k;
		e->hists = h;
		e->thread = s->thread;
		e->frame = frame;
		/* fill_callchain_info() leaves al->level alone when there is no map */
		e->level = h->frames[frame].map ? h->frames[frame].level : h->frames[s->self].level;
		e->filtered = s->filtered;
	}
	ev->ix.slots[j] = (uint32_t)++ev->nr_entries;
	ev->ix.hashes[j] = hash;
	ev->ix.nr++;
	return &ev->entries[ev->nr_entries - 1];
}

/* perf's match_chain() with CCKEY_FUNCTION: dso, then symbol start (or address) */
static int match_cmp(const struct sampo_hists *h, uint32_t a, uint32_t b)
{
	const struct frame *fa = &h->frames[a], *fb = &h->frames[b];

	if (fa->dso_seq != fb->dso_seq)
		return fa->dso_seq < fb->dso_seq ? -1 : 1;
	if (fa->match_addr != fb->match_addr)
		return fa->match_addr < fb->match_addr ? -1 : 1;
	return 0;
}

static struct cnode *cnode_new(struct cnode *parent, uint32_t off, uint32_t nr)
{
	struct cnode *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->parent = parent;
	n->val_off = off;
	n->val_nr = nr;
	return n;
}

/* insert @child among @parent's children, kept in perf's rb_root_in order */
static int cnode_add_child(struct sampo_hists *h, struct cnode *parent, struct cnode *child)
{
	uint32_t key = h->arena[child->val_off];
	uint32_t lo = 0, hi = parent->nr_children;

	if (parent->nr_children == parent->cap_children) {
		uint32_t ncap = parent->cap_children ? parent->cap_children * 2 : 2;
		struct cnode **c = realloc(parent->children, ncap * sizeof(*c));

		if (!c)
			return -ENOMEM;
		parent->children = c;
		parent->cap_children = ncap;
	}
	/* descending: a bigger key goes left of a smaller one */
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (match_cmp(h, h->arena[parent->children[mid]->val_off], key) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(parent->children + lo + 1, parent->children + lo,
		(parent->nr_children - lo) * sizeof(*parent->children));
	parent->children[lo] = child;
	parent->nr_children++;
	child->parent = parent;
	return 0;
}

static int append_chain_children(struct sampo_hists *h, struct cnode *node, uint32_t pos,
				 uint32_t end, uint64_t period);

/* perf's append_chain() for a child whose first entry matches */
static int append_chain(struct sampo_hists *h, struct cnode *node, uint32_t pos, uint32_t end,
			uint64_t period)
{
	uint32_t m = 0;

	while (m < node->val_nr && pos + m < end &&
	       !match_cmp(h, h->arena[node->val_off + m], h->arena[pos + m]))
		m++;

	if (m < node->val_nr) {
		/* split_add_child(): the tail of the node moves to a new child */
		struct cnode *tail = cnode_new(node, node->val_off + m, node->val_nr - m);

		if (!tail)
			return -ENOMEM;
		tail->hit = node->hit;
		tail->children_hit = node->children_hit;
		tail->children = node->children;
		tail->nr_children = node->nr_children;
		tail->cap_children = node->cap_children;
		for (uint32_t i = 0; i < tail->nr_children; i++)
			tail->children[i]->parent = tail;
		node->children = NULL;
		node->nr_children = node->cap_children = 0;
		node->val_nr = m;
		node->children_hit = tail->hit + tail->children_hit;
		if (cnode_add_child(h, node, tail)) {
			free(tail);
			return -ENOMEM;
		}
		if (pos + m < end) {
			struct cnode *branch = cnode_new(node, pos + m, end - pos - m);

			if (!branch || cnode_add_child(h, node, branch)) {
				free(branch);
				return -ENOMEM;
			}
			branch->hit = period;
			node->hit = 0;
			node->children_hit += period;
		} else {
			node->hit = period;
		}
		return 0;
	}
	if (pos + m == end) {
		node->hit += period;
		return 0;
	}
	return append_chain_children(h, node, pos + m, end, period);
}

/* perf's append_chain_children() */
static int append_chain_children(struct sampo_hists *h, struct cnode *node, uint32_t pos,
				 uint32_t end, uint64_t period)
{
	uint32_t key = h->arena[pos];
	uint32_t lo = 0, hi = node->nr_children;
	int err;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = match_cmp(h, h->arena[node->children[mid]->val_off], key);

		if (!c) {
			err = append_chain(h, node->children[mid], pos, end, period);
			if (err)
				return err;
			node->children_hit += period;
			return 0;
		}
		if (c > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	{
		struct cnode *child = cnode_new(node, pos, end - pos);

		if (!child)
			return -ENOMEM;
		child->hit = period;
		if (cnode_add_child(h, node, child)) {
			free(child);
			return -ENOMEM;
		}
	}
	node->children_hit += period;
	return 0;
}

static int entry_append(struct sampo_hists *h, struct sampo_hist_entry *e, uint32_t pos, uint32_t end,
			uint64_t period)
{
	if (pos >= end)
		return 0;
	if (end - pos > e->max_depth)
		e->max_depth = end - pos;
	return append_chain_children(h, &e->root, pos, end, period);
}

/* perf's hist_entry_iter with the cumulative (children) or the normal ops */
static int replay_stack(struct sampo_hists *h, struct evhists *ev, const struct stack *s,
			size_t **cache, size_t *cache_cap)
{
	struct entry_key k;
	struct sampo_hist_entry *e;
	size_t nr_cache = 0;
	int err;

	entry_key_init(h, &k, s, &h->frames[s->self], false);
	e = entry_findnew(h, ev, &k, s, s->self);
	if (!e)
		return -ENOMEM;
	e->period += s->period;
	e->period_acc += s->period;
	e->nr_samples += s->count;
	if (h->opts.callchain) {
		err = entry_append(h, e, s->off, s->off + s->nr, s->period);
		if (err)
			return err;
	}
	if (!h->opts.children)
		return 0;

	/* perf's he_cache; indexes, since entry_findnew() may move the entries */
	if (grow((void **)cache, cache_cap, s->nr + 1, sizeof(**cache)))
		return -ENOMEM;
	(*cache)[nr_cache++] = (size_t)(e - ev->entries);
	for (uint32_t i = 0; i < s->nr; i++) {
		uint32_t fidx = h->arena[s->off + i];
		bool dup = false;

		entry_key_init(h, &k, s, &h->frames[fidx], true);
		/* a frame seen twice in one chain (recursion) counts once */
		for (size_t c = 0; c < nr_cache && !dup; c++)
			dup = entry_key_equal(&ev->entries[(*cache)[c]].key, &k);
		if (dup)
			continue;
		e = entry_findnew(h, ev, &k, s, fidx);
		if (!e)
			return -ENOMEM;
		(*cache)[nr_cache++] = (size_t)(e - ev->entries);
		e->period_acc += s->period;
		err = entry_append(h, e, s->off + i, s->off + s->nr, s->period);
		if (err)
			return err;
	}
	return 0;
}

/*
 * perf's hist_entry__sort(): > 0 when @a goes before @b in the output. It is
 * not a total order (the caller-above-callee rule only compares entries of
 * one thread), so the final order depends on the order of insertion and on
 * the shape of perf's rb-tree; sort_entries() replays both.
 */
static int perf_sort(const struct sampo_hists *h, const struct sampo_hist_entry *a, const struct sampo_hist_entry *b)
{
	const struct frame *fa = &h->frames[a->frame], *fb = &h->frames[b->frame];
	int c;

	if (h->opts.children) {
		if (a->period_acc != b->period_acc)
			return a->period_acc > b->period_acc ? 1 : -1;
		/* __hpp__sort_acc(): put the caller above the callee */
		if (a->thread == b->thread && h->opts.callchain && !h->opts.no_graph &&
		    a->max_depth != b->max_depth) {
			c = b->max_depth > a->max_depth ? 1 : -1;
			return h->opts.caller_order ? -c : c;
		}
	}
	if (a->period != b->period)
		return a->period > b->period ? 1 : -1;
	for (size_t i = 0; i < h->nr_keys; i++) {
		switch (h->keys[i]) {
		case SAMPO_SORT_COMM: /* interned: equal pointers, equal strings */
			c = a->key.comm == b->key.comm ? 0 : strcmp(b->key.comm, a->key.comm);
			break;
		case SAMPO_SORT_PID:
		case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */
			c = b->key.tid > a->key.tid ? 1 : -(b->key.tid < a->key.tid);
			break;
		case SAMPO_SORT_DSO:
			/* a missing name goes last */
			c = fa->dso_name == fb->dso_name ? 0 :
			    (!fa->dso_name || !fb->dso_name) ?
				    (fa->dso_name ? 1 : (fb->dso_name ? -1 : 0)) :
				    strcmp(fb->dso_name, fa->dso_name);
			break;
		case SAMPO_SORT_SYM:
			c = (!fa->sym || !fb->sym) ?
				    (fa->sym ? 1 : (fb->sym ? -1 : 0)) :
				    strcmp(sampo_symbol__name(fb->sym), sampo_symbol__name(fa->sym));
			break;
		case SAMPO_SORT_CPU:
			c = b->key.cpu > a->key.cpu ? 1 : -(b->key.cpu < a->key.cpu);
			break;
		default:
			c = 0;
		}
		if (c)
			return c;
	}
	return 0;
}

static int cmp_str_last(const char *a, const char *b)
{
	if (a == b)
		return 0; /* interned */
	if (!a || !b)
		return a ? -1 : (b ? 1 : 0); /* perf's cmp_null: a missing one sorts last */
	return strcmp(a, b);
}

/* perf's _sort__addr_cmp(): the sign of the difference as an int64_t */
static int addr_cmp(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/*
 * perf's hist_entry__cmp(), the order of its input tree, which the output
 * sort walks: < 0 when @a comes first. A total order over the entry keys.
 */
static int collapse_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct sampo_hists *h = ctx;
	const struct sampo_hist_entry *a = *(const struct sampo_hist_entry *const *)pa;
	const struct sampo_hist_entry *b = *(const struct sampo_hist_entry *const *)pb;
	int c = 0;

	for (size_t i = 0; i < h->nr_keys && !c; i++) {
		switch (h->keys[i]) {
		case SAMPO_SORT_COMM:
			c = a->key.comm == b->key.comm ? 0 : strcmp(a->key.comm, b->key.comm);
			break;
		case SAMPO_SORT_PID:
		case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */
			c = a->key.tid < b->key.tid ? -1 : a->key.tid > b->key.tid;
			break;
		case SAMPO_SORT_DSO:
			c = cmp_str_last(a->key.dso, b->key.dso);
			break;
		case SAMPO_SORT_SYM:
			/*
			 * perf compares addresses by their difference as an
			 * int64_t: an address 2^63 or more above another
			 * sorts before it
			 */
			if (!a->key.has_sym && !b->key.has_sym) {
				c = addr_cmp(a->key.ip, b->key.ip);
				break;
			}
			c = cmp_str_last(a->key.dso, b->key.dso);
			if (c)
				break;
			if (a->key.has_sym != b->key.has_sym)
				c = a->key.has_sym ? -1 : 1;
			else if (a->key.sym_start != b->key.sym_start)
				c = addr_cmp(a->key.sym_start, b->key.sym_start);
			else
				c = addr_cmp(a->key.sym_end, b->key.sym_end);
			break;
		case SAMPO_SORT_CPU:
			c = a->key.cpu < b->key.cpu ? -1 : a->key.cpu > b->key.cpu;
			break;
		}
	}
	return c;
}

/* a red-black tree over entry indexes, balanced exactly as the kernel's rbtree.h */
struct rbtree {
	uint32_t *left, *right, *parent; /* UINT32_MAX: none */
	uint8_t *red;
	uint32_t root;
};

#define RB_NONE UINT32_MAX

static void rb_rotate(struct rbtree *t, uint32_t x, bool to_left)
{
	uint32_t *down = to_left ? t->right : t->left; /* the child that moves up */
	uint32_t *side = to_left ? t->left : t->right;
	uint32_t y = down[x], p = t->parent[x];

	down[x] = side[y];
	if (side[y] != RB_NONE)
		t->parent[side[y]] = x;
	t->parent[y] = p;
	if (p == RB_NONE)
		t->root = y;
	else if (t->left[p] == x)
		t->left[p] = y;
	else
		t->right[p] = y;
	side[y] = x;
	t->parent[x] = y;
}

/* rb_insert_color(): the classic fix-up, the same rotations as the kernel */
static void rb_insert_fixup(struct rbtree *t, uint32_t z)
{
	while (t->parent[z] != RB_NONE && t->red[t->parent[z]]) {
		uint32_t p = t->parent[z], g = t->parent[p];
		bool p_is_left = t->left[g] == p;
		uint32_t u = p_is_left ? t->right[g] : t->left[g];

		if (u != RB_NONE && t->red[u]) {
			t->red[p] = 0;
			t->red[u] = 0;
			t->red[g] = 1;
			z = g;
			continue;
		}
		if (z == (p_is_left ? t->right[p] : t->left[p])) {
			z = p;
			rb_rotate(t, z, p_is_left);
			p = t->parent[z];
		}
		t->red[p] = 0;
		t->red[g] = 1;
		rb_rotate(t, g, !p_is_left);
		break;
	}
	t->red[t->root] = 0;
}

/* perf's output_resort(): insert in input order into an rb-tree, then walk it */
static int sort_entries(struct sampo_hists *h, struct evhists *ev)
{
	size_t n = ev->nr_entries, k = 0;
	struct sampo_hist_entry **in;
	struct rbtree t;
	uint32_t x;
	int err = -ENOMEM;

	in = calloc(n ? n : 1, sizeof(*in));
	t.left = calloc(n ? n : 1, sizeof(uint32_t));
	t.right = calloc(n ? n : 1, sizeof(uint32_t));
	t.parent = calloc(n ? n : 1, sizeof(uint32_t));
	t.red = calloc(n ? n : 1, 1);
	if (!in || !t.left || !t.right || !t.parent || !t.red)
		goto out;
	for (size_t i = 0; i < n; i++)
		in[i] = &ev->entries[i];
	qsort_r(in, n, sizeof(*in), collapse_cmp, h);

	t.root = RB_NONE;
	for (size_t i = 0; i < n; i++) {
		uint32_t z = (uint32_t)(in[i] - ev->entries), p = RB_NONE, cur = t.root;
		bool go_left = false;

		while (cur != RB_NONE) {
			p = cur;
			go_left = perf_sort(h, &ev->entries[z], &ev->entries[cur]) > 0;
			cur = go_left ? t.left[cur] : t.right[cur];
		}
		t.left[z] = t.right[z] = RB_NONE;
		t.parent[z] = p;
		t.red[z] = 1;
		if (p == RB_NONE)
			t.root = z;
		else if (go_left)
			t.left[p] = z;
		else
			t.right[p] = z;
		rb_insert_fixup(&t, z);
	}

	/* in-order walk */
	x = t.root;
	while (x != RB_NONE && t.left[x] != RB_NONE)
		x = t.left[x];
	while (x != RB_NONE) {
		ev->entries[x].row = (uint32_t)k;
		ev->sorted[k++] = &ev->entries[x];
		if (t.right[x] != RB_NONE) {
			x = t.right[x];
			while (t.left[x] != RB_NONE)
				x = t.left[x];
		} else {
			uint32_t c = x;

			x = t.parent[x];
			while (x != RB_NONE && t.right[x] == c) {
				c = x;
				x = t.parent[x];
			}
		}
	}
	err = 0;
out:
	free(in);
	free(t.left);
	free(t.right);
	free(t.parent);
	free(t.red);
	return err;
}

struct dso_seq {
	const struct sampo_dso *dso;
	uint32_t seq;
	bool listed; /* in h->dsos already */
};

static int dso_seq_cmp(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct dso_seq *)a)->dso;
	uintptr_t y = (uintptr_t)((const struct dso_seq *)b)->dso;

	return x < y ? -1 : x > y;
}

int sampo_hists__resort(struct sampo_hists *h)
{
	size_t *cache = NULL;
	size_t cache_cap = 0;
	uint32_t seq = 1;
	int err = 0;

	if (h->resorted)
		return 0;
	h->resorted = true;
	scache_flush_all(h);

	/* perf orders graph siblings by DSO address: creation order is the closest */
	{
		struct dso_seq *seqs = NULL;
		size_t nr = 0, cap = 0;

		for (struct sampo_dso *dso = h->machine->dso_list; dso; dso = dso->lnext) {
			if (grow((void **)&seqs, &cap, nr + 1, sizeof(*seqs))) {
				free(seqs);
				return -ENOMEM;
			}
			seqs[nr].dso = dso;
			seqs[nr].seq = seq++;
			seqs[nr].listed = false;
			nr++;
		}
		if (nr)
			qsort(seqs, nr, sizeof(*seqs), dso_seq_cmp);
		h->dsos = calloc(nr ? nr : 1, sizeof(*h->dsos));
		if (!h->dsos) {
			free(seqs);
			return -ENOMEM;
		}
		for (size_t i = 0; i < h->nr_frames; i++) {
			struct dso_seq key = { .dso = h->frames[i].dso };
			struct dso_seq *hit;

			if (!key.dso || !nr)
				continue;
			hit = bsearch(&key, seqs, nr, sizeof(*seqs), dso_seq_cmp);
			h->frames[i].dso_seq = hit ? hit->seq : seq;
			if (hit && !hit->listed) {
				hit->listed = true;
				h->dsos[h->nr_dsos++] = h->frames[i].dso;
			}
		}
		free(seqs);
	}

	for (size_t i = 0; i < h->nr_stacks; i++) {
		struct evhists *ev = hists_ev(h, h->stacks[i].evsel);

		if (!ev) {
			err = -ENOMEM;
			goto out;
		}
		err = replay_stack(h, ev, &h->stacks[i], &cache, &cache_cap);
		if (err)
			goto out;
	}
	for (size_t i = 0; i < h->nr_ev; i++) {
		struct evhists *ev = &h->ev[i];

		ev->sorted = calloc(ev->nr_entries ? ev->nr_entries : 1, sizeof(*ev->sorted));
		if (!ev->sorted) {
			err = -ENOMEM;
			goto out;
		}
		err = sort_entries(h, ev);
		if (err)
			goto out;
	}
out:
	free(cache);
	return err;
}

size_t sampo_hists__nr_dsos(const struct sampo_hists *h)
{
	return h->nr_dsos;
}

struct sampo_dso *sampo_hists__dso(const struct sampo_hists *h, size_t idx)
{
	return idx < h->nr_dsos ? h->dsos[idx] : NULL;
}

uint64_t sampo_hists__nr_samples(const struct sampo_hists *h, int evsel)
{
	return evsel >= 0 && (size_t)evsel < h->nr_ev ? h->ev[evsel].nr_samples : 0;
}

uint64_t sampo_hists__total_period(const struct sampo_hists *h, int evsel)
{
	return evsel >= 0 && (size_t)evsel < h->nr_ev ? h->ev[evsel].total_period : 0;
}

size_t sampo_hists__nr_entries(const struct sampo_hists *h, int evsel)
{
	return evsel >= 0 && (size_t)evsel < h->nr_ev ? h->ev[evsel].nr_entries : 0;
}

/* ---- entries, one by one ------------------------------------------------ */

const struct sampo_hist_entry *sampo_hists__next_entry(const struct sampo_hists *h, int evsel,
						       const struct sampo_hist_entry *entry)
{
	const struct evhists *ev;
	size_t i;

	if (!h->resorted || evsel < 0 || (size_t)evsel >= h->nr_ev)
		return NULL;
	ev = &h->ev[evsel];
	if (!ev->sorted)
		return NULL;
	for (i = entry ? (size_t)entry->row + 1 : 0; i < ev->nr_entries; i++)
		if (!ev->sorted[i]->filtered)
			return ev->sorted[i];
	return NULL;
}

static const struct frame *entry_frame(const struct sampo_hist_entry *e)
{
	return &e->hists->frames[e->frame];
}

uint64_t sampo_hist_entry__period(const struct sampo_hist_entry *e)
{
	return e->hists->opts.children ? e->period_acc : e->period;
}

uint64_t sampo_hist_entry__self_period(const struct sampo_hist_entry *e)
{
	return e->period;
}

uint64_t sampo_hist_entry__nr_samples(const struct sampo_hist_entry *e)
{
	return e->nr_samples;
}

const char *sampo_hist_entry__comm(const struct sampo_hist_entry *e)
{
	return e->key.comm ? e->key.comm : sampo_thread__comm(e->thread);
}

int32_t sampo_hist_entry__pid(const struct sampo_hist_entry *e)
{
	return sampo_thread__pid(e->thread);
}

int32_t sampo_hist_entry__tid(const struct sampo_hist_entry *e)
{
	return sampo_thread__tid(e->thread);
}

int32_t sampo_hist_entry__cpu(const struct sampo_hist_entry *e)
{
	return e->hists->has_key[SAMPO_SORT_CPU] ? e->key.cpu : -1;
}

struct sampo_dso *sampo_hist_entry__dso(const struct sampo_hist_entry *e)
{
	return entry_frame(e)->dso;
}

const char *sampo_hist_entry__dso_name(const struct sampo_hist_entry *e)
{
	return entry_frame(e)->dso_name;
}

const struct sampo_symbol *sampo_hist_entry__symbol(const struct sampo_hist_entry *e)
{
	return entry_frame(e)->sym;
}

const char *sampo_hist_entry__symbol_name(const struct sampo_hist_entry *e)
{
	const struct sampo_symbol *sym = entry_frame(e)->sym;

	return sym ? sampo_symbol__name(sym) : NULL;
}

uint64_t sampo_hist_entry__ip(const struct sampo_hist_entry *e)
{
	if (!e->key.has_sym && e->hists->has_key[SAMPO_SORT_SYM])
		return e->key.ip;
	return entry_frame(e)->ip;
}

char sampo_hist_entry__level(const struct sampo_hist_entry *e)
{
	return e->level;
}

/* ---- printing (perf's ui/stdio/hist.c) ----------------------------------- */

struct column {
	enum sampo_sort_key key;
	const char *header;
	size_t width;
};

static uint64_t cumul(const struct cnode *n)
{
	return n->hit + n->children_hit;
}

static const char *frame_name(const struct sampo_hists *h, uint32_t fidx, char *buf, size_t sz)
{
	const struct frame *f = &h->frames[fidx];

	if (f->sym)
		return sampo_symbol__name(f->sym);
	snprintf(buf, sz, "%#" PRIx64, f->ip);
	return buf;
}

/* the children of @n that perf keeps (>= min_hit), by cumulated hits, stably */
static size_t sorted_children(const struct cnode *n, uint64_t min_hit, struct cnode ***ret)
{
	struct cnode **v;
	size_t nr = 0;

	*ret = NULL;
	if (!n->nr_children)
		return 0;
	v = malloc(n->nr_children * sizeof(*v));
	if (!v)
		return 0;
	for (uint32_t i = 0; i < n->nr_children; i++)
		if (cumul(n->children[i]) >= min_hit)
			v[nr++] = n->children[i];
	/* insertion sort: stable, and sibling lists are short */
	for (size_t i = 1; i < nr; i++) {
		struct cnode *x = v[i];
		size_t j = i;

		while (j > 0 && cumul(v[j - 1]) < cumul(x)) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
	*ret = v;
	return nr;
}

static void print_margin(FILE *fp, int left_margin)
{
	fprintf(fp, "%*s", 12 + left_margin, "");
}

static void print_graph_line(FILE *fp, int depth, uint64_t depth_mask, int left_margin)
{
	print_margin(fp, left_margin);
	for (int i = 0; i < depth; i++)
		fputs(depth_mask & (1ULL << i) ? "|          " : "           ", fp);
	fputc('\n', fp);
}

static void print_graph_entry(const struct sampo_hists *h, FILE *fp, const struct cnode *node,
			      uint32_t fidx, int depth, uint64_t depth_mask, int period,
			      uint64_t total, int left_margin)
{
	char buf[32];

	print_margin(fp, left_margin);
	for (int i = 0; i < depth; i++) {
		fputc(depth_mask & (1ULL << i) ? '|' : ' ', fp);
		if (!period && i == depth - 1)
			fprintf(fp, "--%.2f%%--", total ? cumul(node) * 100.0 / total : 0.0);
		else
			fputs("          ", fp);
	}
	fputs(frame_name(h, fidx, buf, sizeof(buf)), fp);
	fputc('\n', fp);
}

/* perf's __callchain__fprintf_graph() for CHAIN_GRAPH_ABS */
static size_t print_graph(const struct sampo_hists *h, FILE *fp, const struct cnode *root,
			  uint64_t total, uint64_t min_hit, int depth, uint64_t depth_mask,
			  int left_margin)
{
	struct cnode **kids;
	size_t nr = sorted_children(root, min_hit, &kids), printed = 0;
	uint64_t new_mask = depth_mask;

	for (size_t c = 0; c < nr; c++) {
		const struct cnode *child = kids[c];

		if (c + 1 == nr && depth > 0)
			new_mask &= ~(1ULL << (depth - 1));
		print_graph_line(fp, depth, depth_mask, left_margin);
		for (uint32_t i = 0; i < child->val_nr; i++)
			print_graph_entry(h, fp, child, h->arena[child->val_off + i], depth, new_mask,
					  (int)i, total, left_margin);
		printed++;
		printed += print_graph(h, fp, child, total, min_hit, depth + 1,
				       new_mask | (depth < 63 ? 1ULL << depth : 0), left_margin);
	}
	free(kids);
	return printed;
}

/* perf's callchain__fprintf_graph() */
static void print_callchain(const struct sampo_hists *h, FILE *fp, const struct sampo_hist_entry *e,
			    uint64_t total, uint64_t min_hit)
{
	uint64_t parent_samples = h->opts.children ? e->period_acc : e->period;
	const struct cnode *root = &e->root;
	struct cnode **kids;
	size_t nr = sorted_children(root, min_hit, &kids), printed = 0;
	int left_margin = 0;
	char buf[32];

	if (nr == 1 && cumul(kids[0]) == parent_samples) {
		const struct cnode *c = kids[0];
		bool started = false;

		for (uint32_t i = 0; i < c->val_nr; i++) {
			/* with --sort sym... the first entry is the entry itself */
			if (!i && h->keys[0] == SAMPO_SORT_SYM)
				continue;
			if (!started) {
				print_margin(fp, left_margin);
				fputs("|\n", fp);
				print_margin(fp, left_margin);
				fputs("---", fp);
				left_margin += 3;
				started = true;
			} else {
				print_margin(fp, left_margin);
			}
			fprintf(fp, "%s\n", frame_name(h, h->arena[c->val_off + i], buf, sizeof(buf)));
			printed++;
		}
		root = c;
	}
	free(kids);
	printed += print_graph(h, fp, root, total, min_hit, 1, 1, left_margin);
	if (printed)
		fputc('\n', fp);
}

static size_t entry_sym_width(const struct frame *f)
{
	if (f->sym)
		return strlen(sampo_symbol__name(f->sym)) + 4;
	return 16 + 4 + 2;
}

void sampo_hists__fprintf_filters(const struct sampo_hists *h, FILE *fp)
{
	if (h->nr_comm_filter == 1)
		fprintf(fp, "# comm: %s\n", h->comm_filter[0]);
	if (h->nr_dso_filter == 1)
		fprintf(fp, "# dso: %s\n", h->dso_filter[0]);
}

int sampo_hists__fprintf(struct sampo_hists *h, int evsel, FILE *fp)
{
	struct evhists *ev;
	struct column cols[8];
	size_t nr_cols = 0;
	uint64_t total, min_hit;
	bool unresolved = false;

	if (evsel < 0 || (size_t)evsel >= h->nr_ev)
		return 0;
	ev = &h->ev[evsel];
	total = ev->total_period;
	min_hit = (uint64_t)((double)total * (h->opts.callchain_min_percent / 100.0));

	for (size_t i = 0; i < h->nr_keys; i++) {
		struct column *c;

		/* perf's sort__setup_elide(): a one-value filter hides its column */
		if ((h->keys[i] == SAMPO_SORT_COMM && h->nr_comm_filter == 1) ||
		    (h->keys[i] == SAMPO_SORT_DSO && h->nr_dso_filter == 1))
			continue;
		c = &cols[nr_cols++];
		c->key = h->keys[i];
		switch (c->key) {
		case SAMPO_SORT_COMM:
			c->header = "Command";
			break;
		case SAMPO_SORT_PID:
		case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */
			c->header = "    Pid:Command";
			break;
		case SAMPO_SORT_DSO:
			c->header = "Shared Object";
			break;
		case SAMPO_SORT_SYM:
			c->header = "Symbol";
			break;
		case SAMPO_SORT_CPU:
			c->header = "CPU";
			break;
		}
		c->width = strlen(c->header);
	}
	/* hists__calc_col_len() over every entry */
	for (size_t i = 0; i < ev->nr_entries; i++) {
		const struct sampo_hist_entry *e = &ev->entries[i];
		const struct frame *f = &h->frames[e->frame];
		size_t comm_len = strlen(sampo_thread__comm(e->thread));

		if (e->filtered)
			continue;
		if (!f->sym)
			unresolved = true;
		for (size_t j = 0; j < nr_cols; j++) {
			size_t w = 0;

			switch (cols[j].key) {
			case SAMPO_SORT_COMM:
				w = comm_len;
				break;
			case SAMPO_SORT_PID:
			case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */
				w = comm_len + 8;
				break;
			case SAMPO_SORT_DSO:
				w = f->dso_name ? strlen(f->dso_name) : 0;
				break;
			case SAMPO_SORT_SYM:
				w = entry_sym_width(f);
				break;
			case SAMPO_SORT_CPU:
				break;
			}
			if (w > cols[j].width)
				cols[j].width = w;
		}
	}
	for (size_t j = 0; j < nr_cols; j++)
		if (unresolved && cols[j].key == SAMPO_SORT_DSO && cols[j].width < 16)
			cols[j].width = 16; /* hists__set_unres_dso_col_len() */

	/* the header */
	fputs("# ", fp);
	if (h->opts.children)
		fputs("Children      Self", fp);
	else
		fputs("Overhead", fp);
	if (h->opts.show_nr_samples)
		fputs("       Samples", fp);
	for (size_t j = 0; j < nr_cols; j++)
		fprintf(fp, "  %-*s", (int)cols[j].width, cols[j].header);
	fputs("\n# ", fp);
	fputs(h->opts.children ? "........  ........" : "........", fp);
	if (h->opts.show_nr_samples)
		fputs("  ............", fp);
	for (size_t j = 0; j < nr_cols; j++) {
		fputs("  ", fp);
		for (size_t k = 0; k < cols[j].width; k++)
			fputc('.', fp);
	}
	fputs("\n#\n", fp);

	for (size_t i = 0; i < ev->nr_entries; i++) {
		const struct sampo_hist_entry *e = ev->sorted[i];
		const struct frame *f = &h->frames[e->frame];
		uint64_t shown = h->opts.children ? e->period_acc : e->period;
		double pct = total ? shown * 100.0 / total : 0.0;

		if (e->filtered || pct < h->opts.percent_limit)
			continue;
		if (h->opts.children)
			fprintf(fp, "  %7.2f%%  %7.2f%%", pct,
				total ? e->period * 100.0 / total : 0.0);
		else
			fprintf(fp, "  %7.2f%%", pct);
		if (h->opts.show_nr_samples)
			fprintf(fp, "  %12" PRIu64, e->nr_samples);
		for (size_t j = 0; j < nr_cols; j++) {
			bool last = j + 1 == nr_cols;
			int w = (int)cols[j].width;
			char buf[64];

			fputs("  ", fp);
			switch (cols[j].key) {
			case SAMPO_SORT_COMM:
				fprintf(fp, "%-*.*s", w, w, e->key.comm);
				break;
			case SAMPO_SORT_PID:
			case SAMPO_SORT_TID: /* stored as SAMPO_SORT_PID */ {
				int cw = w > 8 ? w - 8 : 0;

				fprintf(fp, "%7d:%-*.*s", (int)sampo_thread__tid(e->thread), cw, cw,
					sampo_thread__comm(e->thread));
				break;
			}
			case SAMPO_SORT_DSO:
				fprintf(fp, "%-*.*s", w, w, f->dso_name ? f->dso_name : "[unknown]");
				break;
			case SAMPO_SORT_SYM: {
				int n;

				if (f->sym) {
					n = fprintf(fp, "[%c] %.*s", e->level, w > 4 ? w - 4 : 0,
						    sampo_symbol__name(f->sym));
				} else {
					snprintf(buf, sizeof(buf), "[%c] %-#.*" PRIx64, e->level, 16,
						 e->key.ip);
					n = fprintf(fp, "%s", buf);
				}
				if (!last && n < w)
					fprintf(fp, "%*s", w - n, "");
				break;
			}
			case SAMPO_SORT_CPU:
				fprintf(fp, "%*.*d", w, w, (int)e->key.cpu);
				break;
			}
		}
		fputc('\n', fp);
		if (h->opts.callchain && !h->opts.no_graph)
			print_callchain(h, fp, e, total, min_hit);
	}
	if (ferror(fp))
		return -EIO;
	return 0;
}
