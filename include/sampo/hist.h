/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * hist.h - the histograms of a report: samples grouped by sort keys (comm,
 * pid, dso, sym, cpu), with self and children periods and call graphs,
 * printed as `perf report --stdio` prints them.
 *
 * Feed the records in time order to the machine, and each SAMPLE to
 * sampo_hists__add_sample() right after the machine saw the records before
 * it. Cached lookups follow the machine's generation counters
 * (sampo_machine__kernel_generation()), so nothing else needs telling.
 * Then sampo_hists__resort() once, and print each event's table, or walk its
 * rows with sampo_hists__for_each_entry():
 *
 *	const struct sampo_hist_entry *e;
 *
 *	sampo_hists__for_each_entry(hists, evsel, e)
 *		printf("%" PRIu64 " %s\n", sampo_hist_entry__period(e),
 *		       sampo_hist_entry__symbol_name(e));
 *
 * Identical samples are counted once: the stack of every sample (thread,
 * comm, cpu, resolved frames) is interned, and the histogram entries and
 * call graphs are built from the distinct stacks at resort time. perf's
 * results do not depend on the order samples arrive in, so this gives the
 * same tables and graphs, much sooner on real profiles.
 */
#ifndef SAMPO_HIST_H
#define SAMPO_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <sampo/common.h>

struct sampo_machine;
struct sampo_symbolizer;
struct sampo_unwinder;
struct sampo_sample;
struct sampo_hists;
struct sampo_hist_entry;
struct sampo_dso;
struct sampo_symbol;
struct sampo_cpu_set;
struct sampo_evsel_group;

/* what samples are grouped by, as perf report's -s names them */
enum sampo_sort_key {
	SAMPO_SORT_COMM, /* "comm": the command */
	SAMPO_SORT_PID,	 /* "pid": the thread (perf's pid key is per thread), shown tid:comm */
	SAMPO_SORT_TID,	 /* "tid": the same key as SAMPO_SORT_PID */
	SAMPO_SORT_DSO,	 /* "dso": the shared object */
	SAMPO_SORT_SYM,	 /* "sym" or "symbol": the symbol, or the address where none is known */
	SAMPO_SORT_CPU,	 /* "cpu" */
	/*
	 * "srcline": the source line of the address, "file:line" from its
	 * DWARF; without one, perf's stand-in ("sym+OFFSET", "dso[ADDR]", "??:0")
	 */
	SAMPO_SORT_SRCLINE,
	SAMPO_SORT_SRCFILE, /* "srcfile": the source file of the line, "" when unknown */
	/*
	 * "trace": a tracepoint sample's trace output, its raw data formatted
	 * by the event's print format (as script's trace field); one value for
	 * the samples of other events, printed "N/A" (perf's sort_trace). Its
	 * text needs sampo_hists__set_trace_session().
	 */
	SAMPO_SORT_TRACE,
	/*
	 * a field of one tracepoint event (perf's dynamic sort keys: -s
	 * prev_pid, -s sched:sched_switch.prev_pid, -s trace_fields): each
	 * one takes the next entry of sampo_hists_opts.trace_fields. The
	 * samples of other events have no value for it, and its column is
	 * not in their tables. Its values need sampo_hists__set_trace_session().
	 */
	SAMPO_SORT_TRACE_FIELD,
};

/* more sort keys than this are an error (trace_fields gives one per field of each event) */
#define SAMPO_SORT_MAX_KEYS 256

/* the field of a SAMPO_SORT_TRACE_FIELD key */
struct sampo_trace_field_key {
	int evsel;	   /* the tracepoint event, an attr index */
	const char *field; /* its field's name (copied), a common one too (common_pid) */
	/*
	 * the value as libtraceevent prints the field alone (perf's /raw,
	 * --raw-trace); else as the print format shows it, where it does
	 */
	bool raw;
};

struct sampo_hists_opts {
	size_t sz;
	/* the sort keys, in order; a repeated key counts once; NULL: comm, dso, sym */
	const enum sampo_sort_key *sort_keys;
	size_t nr_sort_keys;
	/* cumulate callees into their callers (perf's --children) */
	bool children;
	/* build call graphs from the samples' callchains */
	bool callchain;
	/* resolve callchains (for children) but print no graphs (perf's -g none) */
	bool no_graph;
	/* graph order: root first (caller) instead of leaf first (callee) */
	bool caller_order;
	/* keep at most this many callchain entries; 0 means 127 (perf's default) */
	unsigned int max_stack;
	/* call graph branches under this percent of the total are hidden; < 0: 0.5 */
	double callchain_min_percent;
	/* entries under this percent are not printed */
	double percent_limit;
	/* print a Samples column (-n) */
	bool show_nr_samples;
	/*
	 * Filters (copied; an empty list is no filter). Samples of other
	 * commands, objects (short or long name), processes or threads still
	 * count in the totals, as in perf; samples of other CPUs do not.
	 */
	const char *const *comms;
	size_t nr_comms;
	const char *const *dsos;
	size_t nr_dsos;
	const int32_t *pids;
	size_t nr_pids;
	const int32_t *tids;
	size_t nr_tids;
	const struct sampo_cpu_set *cpus; /* NULL: every CPU */
	/*
	 * Print each entry's call graph folded (perf's -g folded): one line per
	 * chain that ends with samples of its own, "VALUE root;...;leaf", by
	 * those samples, instead of the tree
	 */
	bool graph_folded;
	/* with graph_folded: VALUE is the period (-g folded,period), not "12.34%" */
	bool graph_period;
	/*
	 * perf's --inline: each callchain entry whose address lies in code
	 * the compiler inlined (DWARF inline chains, libdw) becomes the
	 * inlined functions' frames ("name (inlined)"), innermost first, then
	 * the entry's own; sampo_hists__frame_inlined() tells them apart
	 */
	bool inline_frames;
	/* one per SAMPO_SORT_TRACE_FIELD key of sort_keys, in their order (copied) */
	const struct sampo_trace_field_key *trace_fields;
	size_t nr_trace_fields;
	/* the trace key's text is every field, " name=value" (perf's --raw-trace) */
	bool raw_trace;
	/*
	 * perf's -g fractal: each call graph node's percentage is of its
	 * parent's callees, and the threshold too; branches under it are
	 * shown as one "[...]" line
	 */
	bool graph_fractal;
	/*
	 * perf's -g flat: one chain per node with samples of its own (as
	 * graph_folded), each a percentage of the total then a frame a line,
	 * root first
	 */
	bool graph_flat;
	/*
	 * perf's --percentage relative: the totals (sampo_hists__total_period(),
	 * the shares, thresholds and limits) are those of the entries the
	 * comm, dso, pid, tid and symbol filters keep, not of every sample
	 */
	bool percentage_relative;
	/*
	 * perf's -S: only samples whose own symbol has one of these names, or
	 * whose address is one of those given in hex ("0x7f12..." or plain
	 * hex: perf reads any entry strtoul() takes whole in base 16 as an
	 * address, so a function named "add" is one); the others count in the
	 * totals, as with comms (copied)
	 */
	const char *const *symbols;
	size_t nr_symbols;
};
#define sampo_hists_opts__last_field nr_symbols

/**
 * sampo_sort_keys__parse() - perf report's -s list ("comm,dso,sym") as sort keys
 * @list: key names separated by commas: comm, pid, tid, dso, sym (or symbol), cpu,
 *	  srcline, srcfile, trace
 * @keys: where the keys go, in the order of @list, a repeated one once
 * @max_keys: room in @keys
 * @ret_nr: on success, how many keys were stored
 * @errbuf: on -EINVAL, what is wrong ("unknown sort key 'x' (known: ...)",
 *	"empty sort key list"); may be NULL
 * @errbuf_sz: its size
 *
 * Return: 0, -EINVAL (an unknown key, no key at all, more distinct keys
 * than @max_keys), -ENOMEM.
 */
SAMPO_API int sampo_sort_keys__parse(const char *list, enum sampo_sort_key *keys, size_t max_keys,
				     size_t *ret_nr, char *errbuf, size_t errbuf_sz);

/** sampo_sort_key__name() - a key's name for -s ("comm"), NULL for no key */
SAMPO_API const char *sampo_sort_key__name(enum sampo_sort_key key);

/**
 * sampo_hists__new() - empty histograms for a report
 * @machine: the machine samples are resolved in (borrowed)
 * @symbolizer: gives the symbols (borrowed; NULL: no symbols)
 * @opts: may be NULL; the library keeps copies of its lists
 * @ret: on success, the histograms; free with sampo_hists__delete()
 *
 * Return: 0, -EINVAL for an unknown sort key value or more than
 * SAMPO_SORT_MAX_KEYS keys, -ENOMEM.
 */
SAMPO_API int sampo_hists__new(struct sampo_machine *machine, struct sampo_symbolizer *symbolizer,
			       const struct sampo_hists_opts *opts, struct sampo_hists **ret);

SAMPO_API void sampo_hists__delete(struct sampo_hists *hists);

/**
 * sampo_hists__add_sample() - account one sample of event @evsel
 *
 * Return: 0, or -ENOMEM.
 */
SAMPO_API int sampo_hists__add_sample(struct sampo_hists *hists, int evsel,
				      const struct sampo_sample *sample);

/** sampo_hists__resort() - build the entries and call graphs; call once, after the last sample */
/**
 * sampo_hists__set_unwinder() - unwind the user stacks of `--call-graph
 * dwarf` samples with @unwinder (borrowed) when call chains are used
 *
 * Samples with user registers and a stack copy then get the chain
 * sampo_unwinder__chain() returns (at most max_stack user frames), as perf
 * report does; other samples are unchanged. NULL: no unwinding.
 */
SAMPO_API void sampo_hists__set_unwinder(struct sampo_hists *hists,
					 struct sampo_unwinder *unwinder);

/**
 * sampo_hists__add_unwound() - sampo_hists__add_sample() of a sample whose
 * callchain was already unwound (a sampo_unwind_pool's delivery): its
 * last @nr_unwound entries are the unwound user frames, capped at max_stack
 * apart from the rest as perf caps them; no unwinding is done here
 */
SAMPO_API int sampo_hists__add_unwound(struct sampo_hists *hists, int evsel,
				       const struct sampo_sample *sample, size_t nr_unwound);

SAMPO_API int sampo_hists__resort(struct sampo_hists *hists);

struct sampo_session;

/**
 * sampo_hists__set_trace_session() - where the "trace" sort key takes its
 * text: a sample of a tracepoint event of @session (borrowed; it must
 * outlive the hists) is keyed by its raw data as sampo_trace_data__format()
 * prints it with the session's tracing data (an event without a format:
 * ""). Call before the first sample; without it, every sample has the
 * one "N/A" value of a non-tracepoint event.
 */
SAMPO_API void sampo_hists__set_trace_session(struct sampo_hists *hists,
					      struct sampo_session *session);

/**
 * sampo_hists__set_groups() - perf's group view (report --group): the
 * table of a group's leader shows every member beside it
 * @hists: the histograms, before sampo_hists__resort()
 * @groups: one per event, in attr order, as sampo_evsel__groups() gives
 *	    them (copied; the names are not used); NULL: no group view
 * @nr: the entries of @groups
 *
 * At resort, the table of each leader of a group of more than one event
 * gets a row for every key that a member has and the leader has not, with
 * periods 0 and no call graph (perf's hists__match() and hists__link(),
 * member by member), and rows of equal period go by the members' periods
 * in turn (perf's __hpp__sort()). sampo_hists__fprintf() of the leader
 * then prints one value per member in each period column, and
 * sampo_hist_entry__group_member() gives a row's entry in each member's
 * table. The members' own tables do not change.
 *
 * Return: 0, -EINVAL (after resort, or a group that does not fit in @nr
 * events), -ENOMEM.
 */
SAMPO_API int sampo_hists__set_groups(struct sampo_hists *hists,
				      const struct sampo_evsel_group *groups, size_t nr);

/**
 * sampo_hists__nr_dsos() / sampo_hists__dso() - the DSOs that samples or
 * their callchains hit (after resort; borrowed from the machine)
 */
SAMPO_API size_t sampo_hists__nr_dsos(const struct sampo_hists *hists);
SAMPO_API struct sampo_dso *sampo_hists__dso(const struct sampo_hists *hists, size_t idx);

/**
 * sampo_hists__dso_samples() - the samples (of every event, that passed the
 * filters) whose IP fell in @dso; *@ret_resolved (optional): how many of
 * them a symbol covered. Call after sampo_hists__resort().
 */
SAMPO_API uint64_t sampo_hists__dso_samples(const struct sampo_hists *hists,
					    const struct sampo_dso *dso, uint64_t *ret_resolved);

/** sampo_hists__nr_samples() - samples of @evsel that passed the CPU filter */
SAMPO_API uint64_t sampo_hists__nr_samples(const struct sampo_hists *hists, int evsel);

/** sampo_hists__total_period() - their summed period */
SAMPO_API uint64_t sampo_hists__total_period(const struct sampo_hists *hists, int evsel);

/**
 * sampo_hists__shown() - the self samples and period of @evsel's entries
 * that the comm, dso, pid and tid filters keep (perf's non-filtered
 * stats, the totals of --percentage relative); after sampo_hists__resort()
 */
SAMPO_API void sampo_hists__shown(const struct sampo_hists *hists, int evsel, uint64_t *ret_samples,
				  uint64_t *ret_period);

/** sampo_hists__nr_entries() - rows of @evsel's table (after resort) */
SAMPO_API size_t sampo_hists__nr_entries(const struct sampo_hists *hists, int evsel);

/**
 * sampo_hists__next_entry() - the row of @evsel's table after @entry
 * @hists: the histograms, after sampo_hists__resort()
 * @evsel: the event (the index of its attr in the file)
 * @entry: NULL for the first row
 *
 * Rows come in the printed order: by period (with children: accumulated
 * period), then by the sort keys, as perf orders them. Entries that a
 * comm, dso, pid or tid filter left out are skipped; entries under
 * percent_limit are not (that limit is the printer's).
 *
 * Return: the row (borrowed from @hists), or NULL after the last one and
 * before resort.
 */
SAMPO_API const struct sampo_hist_entry *
sampo_hists__next_entry(const struct sampo_hists *hists, int evsel,
			const struct sampo_hist_entry *entry);

#define sampo_hists__for_each_entry(hists, evsel, entry)                         \
	for ((entry) = sampo_hists__next_entry((hists), (evsel), NULL); (entry); \
	     (entry) = sampo_hists__next_entry((hists), (evsel), (entry)))

/*
 * The distinct stacks, for views that draw whole call chains (flame graphs,
 * speedscope): every sample's stack (thread, comm, resolved frames) is
 * interned once with its summed period and sample count. After
 * sampo_hists__resort(), stacks are numbered 0 .. sampo_hists__nr_stacks()-1
 * in the order they were first seen; frames are numbered 0 ..
 * sampo_hists__nr_frames()-1 and shared by all stacks.
 *
 *	for (size_t i = 0; i < sampo_hists__nr_stacks(h); i++)
 *		for (size_t d = sampo_hists__stack_depth(h, i); d-- > 0;)
 *			puts(sampo_hists__frame_name(h, sampo_hists__stack_frame(h, i, d)));
 *
 * prints each stack root first. The walk skips nothing: stacks that a comm,
 * dso, pid or tid filter left out are there, sampo_hists__stack_filtered()
 * says which.
 */

/** sampo_hists__nr_stacks() - how many distinct stacks (0 before resort) */
SAMPO_API size_t sampo_hists__nr_stacks(const struct sampo_hists *hists);
/** sampo_hists__stack_evsel() - the event of stack @idx (the index of its attr in the file) */
SAMPO_API int sampo_hists__stack_evsel(const struct sampo_hists *hists, size_t idx);
/** sampo_hists__stack_nr_samples() - how many samples had stack @idx */
SAMPO_API uint64_t sampo_hists__stack_nr_samples(const struct sampo_hists *hists, size_t idx);
/** sampo_hists__stack_period() - their summed period */
SAMPO_API uint64_t sampo_hists__stack_period(const struct sampo_hists *hists, size_t idx);
/** sampo_hists__stack_comm() - the command of its thread when sampled (borrowed) */
SAMPO_API const char *sampo_hists__stack_comm(const struct sampo_hists *hists, size_t idx);
/** sampo_hists__stack_filtered() - true when a comm, dso, pid or tid filter leaves it out */
SAMPO_API bool sampo_hists__stack_filtered(const struct sampo_hists *hists, size_t idx);
/**
 * sampo_hists__stack_depth() - its frames: the resolved call chain (at most
 * max_stack entries, context markers left out), or the sample's own address
 * alone when there is no chain (callchain off, or none recorded); at least 1
 */
SAMPO_API size_t sampo_hists__stack_depth(const struct sampo_hists *hists, size_t idx);
/**
 * sampo_hists__stack_frame() - frame @depth of stack @idx: 0 is the leaf
 * (the sampled address), depth-1 the outermost caller; with caller_order
 * set, the other way round, as the chain is kept in graph order
 */
SAMPO_API uint32_t sampo_hists__stack_frame(const struct sampo_hists *hists, size_t idx,
					    size_t depth);
/** sampo_hists__nr_frames() - how many distinct frames */
SAMPO_API size_t sampo_hists__nr_frames(const struct sampo_hists *hists);
/** sampo_hists__frame_name() - its symbol's name (borrowed), NULL when unresolved */
SAMPO_API const char *sampo_hists__frame_name(const struct sampo_hists *hists, uint32_t frame);
/**
 * sampo_hists__frame_dso_name() - its shared object's short name, a
 * module's "[name]" (borrowed), NULL when no map covers the address
 */
SAMPO_API const char *sampo_hists__frame_dso_name(const struct sampo_hists *hists, uint32_t frame);
/**
 * sampo_hists__frame_inlined() - true for the frame of a function inlined
 * at its address (inline_frames): sampo_hists__frame_name() is then the
 * inlined function's name, the other accessors those of the code it was
 * inlined into
 */
SAMPO_API bool sampo_hists__frame_inlined(const struct sampo_hists *hists, uint32_t frame);
/** sampo_hists__frame_ip() - the address as sampled */
SAMPO_API uint64_t sampo_hists__frame_ip(const struct sampo_hists *hists, uint32_t frame);
/**
 * sampo_hists__frame_level() - as sampo_hist_entry__level(): 'k' kernel,
 * '.' user, 'g'/'u' a guest's kernel/user, 'H' hypervisor
 */
SAMPO_API char sampo_hists__frame_level(const struct sampo_hists *hists, uint32_t frame);

/*
 * What a row holds. Values of keys that are not among the sort keys (the
 * pid when sorting by comm, dso, sym) are those of the first sample that
 * made the entry, as in perf; the CPU is then -1.
 */

/**
 * sampo_hist_entry__period() - the row's Overhead: its own period, or in
 * children mode its own and its callees' (perf's Children column)
 */
SAMPO_API uint64_t sampo_hist_entry__period(const struct sampo_hist_entry *entry);
/** sampo_hist_entry__self_period() - the period of the samples in the row itself */
SAMPO_API uint64_t sampo_hist_entry__self_period(const struct sampo_hist_entry *entry);
/** sampo_hist_entry__nr_samples() - the samples in the row itself (the -n column) */
SAMPO_API uint64_t sampo_hist_entry__nr_samples(const struct sampo_hist_entry *entry);
/** sampo_hist_entry__comm() - the command (borrowed) */
SAMPO_API const char *sampo_hist_entry__comm(const struct sampo_hist_entry *entry);
/** sampo_hist_entry__pid() / __tid() - the process and thread; the pid may be -1: unknown */
SAMPO_API int32_t sampo_hist_entry__pid(const struct sampo_hist_entry *entry);
SAMPO_API int32_t sampo_hist_entry__tid(const struct sampo_hist_entry *entry);
/**
 * sampo_hist_entry__thread_comm() - the thread's comm as the file left it
 * (borrowed): what perf's pid column and the comm column's width show
 */
SAMPO_API const char *sampo_hist_entry__thread_comm(const struct sampo_hist_entry *entry);
/** sampo_hist_entry__cpu() - the CPU when cpu is a sort key, else -1 */
SAMPO_API int32_t sampo_hist_entry__cpu(const struct sampo_hist_entry *entry);
/** sampo_hist_entry__dso() - the shared object (borrowed), NULL when no map covers the address */
SAMPO_API struct sampo_dso *sampo_hist_entry__dso(const struct sampo_hist_entry *entry);
/**
 * sampo_hist_entry__dso_name() - the name in the Shared Object column
 * (borrowed): the DSO's short name, a module's "[name]" for kernel code no
 * map covers, NULL when unknown (printed "[unknown]")
 */
SAMPO_API const char *sampo_hist_entry__dso_name(const struct sampo_hist_entry *entry);
/** sampo_hist_entry__symbol() - the symbol (borrowed), NULL when unresolved */
SAMPO_API const struct sampo_symbol *sampo_hist_entry__symbol(const struct sampo_hist_entry *entry);
/** sampo_hist_entry__symbol_name() - its name (borrowed), NULL when unresolved */
SAMPO_API const char *sampo_hist_entry__symbol_name(const struct sampo_hist_entry *entry);
/**
 * sampo_hist_entry__ip() - the address: for a row without a symbol, the
 * one printed (map-relative for a sample's own address, as recorded for a
 * callchain's in children mode); else the first sample's
 */
SAMPO_API uint64_t sampo_hist_entry__ip(const struct sampo_hist_entry *entry);
/**
 * sampo_hist_entry__srcline() / __srcfile() - the Source:Line and Source
 * File columns (borrowed), NULL unless srcline / srcfile is a sort key
 */
SAMPO_API const char *sampo_hist_entry__srcline(const struct sampo_hist_entry *entry);
SAMPO_API const char *sampo_hist_entry__srcfile(const struct sampo_hist_entry *entry);

/**
 * sampo_hist_entry__trace() - the Trace output column (borrowed): the
 * tracepoint sample's text, NULL unless trace is a sort key and the
 * entry's event is a tracepoint (perf prints "N/A" then)
 */
SAMPO_API const char *sampo_hist_entry__trace(const struct sampo_hist_entry *entry);

/**
 * sampo_hist_entry__trace_field() - trace field @i (of the hists'
 * SAMPO_SORT_TRACE_FIELD keys, in order) of the entry: its name
 * (borrowed) and the text perf prints in its column (malloc'ed, the
 * caller frees it)
 *
 * Return: 0; -ENOENT when the field is another event's (no column in the
 * entry's table) or the hists have no trace session; -ERANGE past the
 * last field; -ENOMEM.
 */
SAMPO_API int sampo_hist_entry__trace_field(const struct sampo_hist_entry *entry, size_t i,
					    const char **ret_name, char **ret_text);

/**
 * sampo_hist_entry__level() - the letter between brackets before the
 * symbol: 'k' kernel, '.' user, 'g'/'u' a guest's kernel/user, 'H' hypervisor
 * or a guest's samples without guests
 */
SAMPO_API char sampo_hist_entry__level(const struct sampo_hist_entry *entry);

/**
 * sampo_hist_entry__group_member() - in the group view
 * (sampo_hists__set_groups()), the entry of the same key in the table of
 * member @member (0: the leader, @entry itself) of the group whose
 * leader's table @entry is in
 *
 * Return: the entry (borrowed), or NULL when that member has no samples
 * under this key, @member is not in the group, or @entry is not in the
 * table of a group's leader.
 */
SAMPO_API const struct sampo_hist_entry *
sampo_hist_entry__group_member(const struct sampo_hist_entry *entry, size_t member);

/**
 * sampo_hists__fprintf() - print @evsel's table as perf report --stdio does:
 * the column header lines, then every entry with its call graph
 *
 * Return: 0, or -errno from writing.
 */
SAMPO_API int sampo_hists__fprintf(struct sampo_hists *hists, int evsel, FILE *fp);

/**
 * sampo_hists__fprintf_filters() - perf's "# comm: NAME", "# dso: NAME" and
 * "# symbol: NAME" lines: for each sort key in order whose filter has one
 * value (its column is not printed, unless no key would keep one)
 */
SAMPO_API void sampo_hists__fprintf_filters(const struct sampo_hists *hists, FILE *fp);

/*
 * The distinct stacks, one callback each (sampo merge): after
 * sampo_hists__resort(), every distinct (thread, comm, cpu, event, resolved
 * frames) with its summed period and sample count. Frames come leaf first
 * with callee order (caller_order unset), as the chain was kept otherwise.
 * Without callchains (or with callchain unset) a stack is the sample's own
 * frame alone.
 */
struct sampo_hist_frame {
	struct sampo_dso *dso;	/* borrowed, NULL when no map covers the address */
	const char *dso_name;	/* the short name, a module's "[name]"; NULL: unknown */
	const char *symbol;	/* the symbol's name, NULL when unresolved */
	uint64_t ip;		/* the address as sampled */
	uint64_t rel_ip;	/* map-relative (the address in the object) */
	char level;		/* as sampo_hist_entry__level() */
	uint32_t id;		/* the frame's number in these hists: equal ids, equal frames */
};

struct sampo_hist_stack {
	int evsel;
	const char *comm;
	int32_t pid, tid;
	int32_t cpu; /* -1 when not sampled */
	bool filtered; /* a comm, dso, pid or tid filter leaves it out */
	uint64_t period;
	uint64_t nr_samples;
	size_t nr_frames;
	const struct sampo_hist_frame *frames; /* valid during the callback only */
};

/* return 0 to go on, a negative errno to stop the walk with it */
typedef int (*sampo_hists_stack_fn)(void *ctx, const struct sampo_hist_stack *stack);

/**
 * sampo_hists__walk_stacks() - call @fn for each distinct stack, in the
 * order they were first seen
 *
 * Return: 0, -ENOMEM, -EINVAL before resort, or @fn's error.
 */
SAMPO_API int sampo_hists__walk_stacks(const struct sampo_hists *hists, sampo_hists_stack_fn fn,
				       void *ctx);

/*
 * The call graph under a row, as data (report --format json): the nodes
 * that sampo_hists__fprintf() draws under the row, in the order it draws
 * them (a node's children by cumulated period, those under
 * callchain_min_percent of the event's total left out), with the periods
 * behind its percentages. A node is a run of frames that every chain
 * through it shares, in graph order (callee first, or caller first with
 * caller_order). Unlike the drawing, the walk leaves nothing out for
 * presentation: the first frame of a chain (the row's own with --sort sym)
 * and a single chain carrying the whole row are given as they are.
 */
struct sampo_hist_graph_node {
	size_t depth;	      /* 0: a child of the row itself */
	uint64_t period;      /* of the chains through the node (the drawing's --12.34%--) */
	uint64_t self_period; /* of the chains that end in it */
	size_t nr_frames;     /* at least 1 */
	const uint32_t *frames; /* frame numbers (sampo_hists__frame_*()); valid in the callback */
};

/*
 * called when entering a node (@leave false), then after its children
 * (@leave true); return 0 to go on, a negative errno to stop the walk
 */
typedef int (*sampo_hists_graph_fn)(void *ctx, const struct sampo_hist_graph_node *node,
				    bool leave);

/**
 * sampo_hists__walk_graph() - walk the call graph under @entry, depth first
 * @hists: the histograms, after sampo_hists__resort()
 * @evsel: the event of @entry's table (its percentages are of its total)
 * @entry: a row of @evsel's table (sampo_hists__next_entry())
 * @fn: called twice per node, see sampo_hists_graph_fn
 * @ctx: passed to @fn
 *
 * Nothing is walked without call graphs (callchain unset). no_graph does not
 * change the walk: it only stops the printer from drawing.
 *
 * Return: 0, -EINVAL (no such event, @entry not of @hists), -ENOMEM, or
 * @fn's error.
 */
SAMPO_API int sampo_hists__walk_graph(const struct sampo_hists *hists, int evsel,
				      const struct sampo_hist_entry *entry, sampo_hists_graph_fn fn,
				      void *ctx);

#endif /* SAMPO_HIST_H */
