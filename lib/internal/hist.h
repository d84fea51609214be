/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/hist.h - the body of the histograms (include/sampo/hist.h),
 * shared by lib/hist.c (frames, stacks, entries, caches, resort),
 * lib/hist-sort.c (sort keys and the orders of rows), lib/callchain.c (the
 * call graph tries) and lib/hist-print.c (the perf --stdio printer).
 *
 * Frames, stacks and entries refer to each other by index (frames by their
 * position in hists->frames, chains as runs of frame indexes in
 * hists->arena), since their arrays move as they grow.
 */
#ifndef SAMPO_INTERNAL_HIST_H
#define SAMPO_INTERNAL_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <sampo/hist.h>
#include <sampo/trace-data.h>

#include "internal/callchain.h"
#include "internal/hash.h"

struct sampo_evsel_group;
struct sampo_map;
struct sampo_thread;

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
	/*
	 * the file address of rel_ip minus rel_ip (symbol tables keep file
	 * addresses): what perf's map__rip_2objdump() gives, for DWARF lookups
	 */
	int64_t file_delta;
	/* perf's srcline and srcfile of the frame as a row shows it, interned
	 * ([0]: a sample's own address, [1]: a callchain's), NULL: not yet */
	const char *srcline[2], *srcfile[2];
	/* the frame of a function inlined at ip (inline_frames): its name, interned */
	const char *inl_name;
	/* a real frame's inlined frames, innermost first, in hists->inl */
	uint32_t inl_off, inl_nr;
	bool inl_done;
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
	const char *trace;	     /* the trace sort key's text, interned; NULL: none */
	const uint8_t *tf_key; /* the trace fields' bytes (struct hist_tf), a blob; NULL: none */
	const uint8_t *tf_raw; /* with tf_key: the raw data of the first sample, a blob */
	int32_t cpu;
	int evsel;
	bool filtered; /* by --comms, --dsos, --pid, --tid */
	uint64_t period;
	uint64_t count;
};

/* ---- entries and call graphs ------------------------------------------- */

struct entry_key {
	const char *comm;
	const char *dso;
	const char *srcline, *srcfile; /* interned */
	const char *inl_name;	       /* an inlined function's row: its name, interned */
	const char *trace;	       /* a tracepoint sample's trace output, interned */
	const uint8_t *tf;	       /* its event's trace fields, a blob (stack.tf_key) */
	uint64_t sym_start, sym_end, ip;
	int32_t tid;
	int32_t cpu;
	bool has_sym;
};

struct sampo_hist_entry {
	struct entry_key key;
	const struct sampo_hists *hists; /* for the accessors: the frame, the sort keys */
	struct sampo_thread *thread;	 /* borrowed from a stack */
	const char *comm;		 /* interned: the first stack's, for the accessor */
	uint32_t frame;			 /* shown: dso and symbol */
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
	/*
	 * perf computes an entry's srcline (srcfile, trace output) lazily,
	 * when a comparison reaches that key, and measures the column only
	 * with entries whose text existed when they went into the output
	 * tree: bit 0 srcline, bit 1 srcfile, bit 2 trace, set by
	 * sampo_hists__sort_entries()
	 */
	uint8_t src_known, src_width;
	uint64_t nr_adds; /* samples perf added to it (hists__findnew_entry() calls) */
	uint32_t evsel;	  /* the event whose table it is in */
	const uint8_t *tf_raw; /* with trace fields: its first stack's raw data, a blob */
	/* the trace field keys (bit: hists.tf index) that perf's check of a chain reached */
	uint64_t tf_reached;
	/*
	 * a row of a group leader's table for a key only a member has
	 * (perf's hists__add_dummy_entry()): periods 0, no call graph
	 */
	bool dummy;
	struct callchain_node root;
};

struct evhists {
	uint64_t nr_samples;
	uint64_t total_period;
	/* of the entries no filter hides (their self samples): perf's non_filtered stats */
	uint64_t shown_samples, shown_period;
	struct sampo_hist_entry *entries;
	size_t nr_entries, cap_entries;
	struct sampo_hash_index ix;
	struct sampo_hist_entry **sorted;
	/*
	 * the group view (sampo_hists__set_groups()), for the leader of a
	 * group of more than one event: group_nr events (the leader, then its
	 * members), and per entry group_nr indexes, pairs[entry * group_nr +
	 * m]: the entry of the same key in member m's table, -1 when it has
	 * none (m 0: the entry itself). group_nr 0: no group view.
	 */
	uint32_t group_nr;
	int32_t *pairs;
};

/*
 * a trace field sort key (perf's hpp_dynamic_entry). A stack's tf_key
 * holds, for each key of its event in key order, a u32 length then the
 * field's bytes (its segment @seg); equal bytes, one blob.
 */
struct hist_tf {
	int evsel;
	char *name;
	bool raw;
	bool resolved; /* the trace session has the event and the field */
	struct sampo_trace_field field;
	uint64_t config; /* the event's tracepoint id */
	uint32_t seg;	 /* its place among its event's keys */
};

/* the bytes of segment @seg of a stack's trace field blob, and their number */
static inline const uint8_t *hist_tf__segment(const uint8_t *blob, uint32_t seg, uint32_t *len)
{
	const uint8_t *p = sampo_blob__bytes(blob);

	for (;;) {
		memcpy(len, p, sizeof(*len));
		if (!seg--)
			return p + sizeof(*len);
		p += sizeof(*len) + *len;
	}
}

struct sampo_hists {
	struct sampo_machine *machine;
	struct sampo_symbolizer *symbolizer;
	struct sampo_unwinder *unwinder; /* DWARF user chains; NULL: none */
	struct sampo_hists_opts opts;
	enum sampo_sort_key keys[SAMPO_SORT_MAX_KEYS]; /* SAMPO_SORT_TID is stored as _PID */
	uint16_t key_tf[SAMPO_SORT_MAX_KEYS];	       /* a SAMPO_SORT_TRACE_FIELD key's tf[] */
	size_t nr_keys;
	bool has_key[SAMPO_SORT_TRACE_FIELD + 1];
	struct hist_tf *tf; /* the trace field keys, in key order */
	size_t nr_tf;
	struct sampo_strpool blobs;	     /* the stacks' tf_key and tf_raw */
	struct sampo_session *trace_session; /* the trace key's formats and events; NULL: none */
	/* frames are per address, not per symbol (srcline, srcfile, inlines) */
	bool per_ip_frames;
	struct sampo_srclines *srclines; /* NULL: not needed */
	uint32_t *inl; /* the frames' inlined frames (frame.inl_off) */
	size_t inl_nr, inl_cap;

	struct sampo_strpool strings;
	char **comm_filter, **dso_filter;
	size_t nr_comm_filter, nr_dso_filter;
	struct sampo_symbol_filter *sym_filter; /* -S, NULL without */
	int32_t *pid_filter, *tid_filter;
	size_t nr_pid_filter, nr_tid_filter;
	struct sampo_cpu_set *cpu_filter; /* NULL: all */

	struct frame *frames;
	size_t nr_frames, cap_frames;
	struct sampo_hash_index frame_ix;

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
	struct sampo_hash_index stack_ix;

	struct evhists *ev;
	size_t nr_ev;
	/* the event groups of the group view, one per event; NULL: none */
	struct sampo_evsel_group *groups;
	size_t nr_groups;
	bool resorted;
	struct sampo_dso **dsos; /* the DSOs of the frames, for sampo_hists__dso() */
	size_t nr_dsos;
};

/* perf's pid key is per thread: "pid" and "tid" are one key, stored as SAMPO_SORT_PID */
static inline enum sampo_sort_key sort_key_canon(enum sampo_sort_key k)
{
	return k == SAMPO_SORT_TID ? SAMPO_SORT_PID : k;
}

/*
 * sampo_hists__sort_entries() - fill @ev->sorted with @ev's entries in the
 * printed order and number their rows (lib/hist-sort.c; perf's
 * output_resort()). Return: 0 or -ENOMEM.
 */
int sampo_hists__sort_entries(const struct sampo_hists *h, struct evhists *ev);

/*
 * sampo_hist_entry__collapse_cmp() - perf's hist_entry__cmp() over @keys:
 * < 0 when @a comes first, 0 for the same key values (perf pairs such
 * entries of two files); @a and @b may belong to different histograms
 */
int sampo_hist_entry__collapse_cmp(const struct sampo_hist_entry *a,
				   const struct sampo_hist_entry *b, const enum sampo_sort_key *keys,
				   size_t nr_keys);

/*
 * sampo_hist_entry__sort_keys() - the sort keys' part of perf's
 * hist_entry__sort(): > 0 when @a goes first (lib/hist-sort.c)
 */
int sampo_hist_entry__sort_keys(const struct sampo_hist_entry *a, const struct sampo_hist_entry *b,
				const enum sampo_sort_key *keys, size_t nr_keys);

/*
 * sampo_hists__link_groups() - the group view at resort (lib/hist-group.c):
 * for each group leader, its members' entries matched to its own, with a
 * dummy entry for each key only a member has. Return: 0 or -ENOMEM.
 */
int sampo_hists__link_groups(struct sampo_hists *h);

/* the entry of member @m matched to @e of the leader's @ev, or NULL */
const struct sampo_hist_entry *sampo_hists__group_pair(const struct sampo_hists *h,
						       const struct evhists *ev,
						       const struct sampo_hist_entry *e, uint32_t m);

/*
 * perf's __hpp__sort() tie-break in the group view: > 0 when @a goes first
 * by the members' self periods, in member order; 0 when they are all equal
 */
int sampo_hists__group_cmp(const struct sampo_hists *h, const struct evhists *ev,
			   const struct sampo_hist_entry *a, const struct sampo_hist_entry *b);

/*
 * sampo_hists__trace_field_text() - the column text of trace field @tf for
 * raw data @raw_blob, malloc'ed; *@from_text: taken from the print
 * format's text (lib/hist.c). Return: 0, -ENOENT, -ENOMEM.
 */
int sampo_hists__trace_field_text(const struct sampo_hists *h, const struct hist_tf *tf,
				  const uint8_t *raw_blob, char **ret, bool *from_text);

/* the total the shares of @ev's entries are of (percentage_relative or not) */
uint64_t sampo_hists__ev_total(const struct sampo_hists *h, const struct evhists *ev);

#endif /* SAMPO_INTERNAL_HIST_H */
