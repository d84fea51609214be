// SPDX-License-Identifier: LGPL-2.1
/*
 * hist.c - the histograms of `sampo report` (include/sampo/hist.h).
 *
 * Three stages, each keyed so that it costs little per sample:
 *
 * 1. Frames. An address seen from a process (the kernel: from anywhere) in
 *    a cpumode resolves to a map and a symbol once; a direct-mapped cache
 *    remembers it until that process's maps change (epochs: the machine's
 *    generation counters, one for the kernel, one per process). Frames are
 *    interned: one per (dso, symbol), or per (map, address) when no symbol
 *    covers it.
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
 * ui/stdio/hist.c; each function names the perf code it mirrors.
 *
 * Files: this one holds the options, the three stages and the entries'
 * accessors; the struct bodies are in internal/hist.h, the sort keys and
 * the order of rows in hist-sort.c, the call graph tries in callchain.c,
 * the printer in hist-print.c, the hash index and string pool in hash.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/cpuset.h>
#include <sampo/event.h>
#include <sampo/hist.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include <sampo/session.h>
#include <sampo/srclines.h>
#include <sampo/symbol.h>
#include <sampo/symbol-filter.h>
#include <sampo/symbolizer.h>
#include <sampo/trace-data.h>
#include <sampo/unwind.h>

#include "internal/callchain.h"
#include "internal/cpuset.h"
#include "internal/hash.h"
#include "internal/hist.h"
#include "internal/machine.h"
#include "internal/util.h"
#include "internal/opts.h"

#define DEFAULT_MAX_STACK 127
#define RCACHE_BITS_CHAINS 18
#define RCACHE_BITS_PLAIN 14
#define CCACHE_BITS 10
/* bigger with callchains: many more distinct stacks, and each miss costs more */
#define SCACHE_BITS_CHAINS 18
#define SCACHE_BITS_PLAIN 16
#define RAW_MAX (16u << 20) /* u64 words of recorded callchains kept for the stack cache */

/*
 * a trace field key: the next of opts.trace_fields; the same field of the
 * same event again is a repeat
 */
static int add_trace_field_key(struct sampo_hists *h, const struct sampo_trace_field_key *fk)
{
	struct hist_tf *tf;
	uint32_t seg = 0;

	if (!fk->field || fk->evsel < 0)
		return -EINVAL;
	for (size_t i = 0; i < h->nr_tf; i++) {
		if (h->tf[i].evsel != fk->evsel)
			continue;
		/* perf shows one column for both (__sort__hde_equal()) */
		if (!strcmp(h->tf[i].name, fk->field))
			return 0;
		seg++;
	}
	tf = realloc(h->tf, (h->nr_tf + 1) * sizeof(*tf));
	if (!tf)
		return -ENOMEM;
	h->tf = tf;
	tf = &h->tf[h->nr_tf];
	memset(tf, 0, sizeof(*tf));
	tf->evsel = fk->evsel;
	tf->raw = fk->raw;
	tf->seg = seg;
	tf->name = strdup(fk->field);
	if (!tf->name)
		return -ENOMEM;
	h->key_tf[h->nr_keys] = (uint16_t)h->nr_tf++;
	h->keys[h->nr_keys++] = SAMPO_SORT_TRACE_FIELD;
	h->has_key[SAMPO_SORT_TRACE_FIELD] = true;
	return 0;
}

static int set_sort_keys(struct sampo_hists *h, const struct sampo_hists_opts *o)
{
	static const enum sampo_sort_key defaults[] = { SAMPO_SORT_COMM, SAMPO_SORT_DSO,
							SAMPO_SORT_SYM };
	const enum sampo_sort_key *keys = o->sort_keys;
	size_t nr = o->nr_sort_keys, next_field = 0;

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
		if (k == SAMPO_SORT_TRACE_FIELD) {
			int err;

			if (!o->trace_fields || next_field >= o->nr_trace_fields)
				return -EINVAL;
			err = add_trace_field_key(h, &o->trace_fields[next_field++]);
			if (err)
				return err;
			continue;
		}
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
	if (!err && o->nr_symbols)
		err = sampo_symbol_filter__new(o->symbols, o->nr_symbols, &h->sym_filter);
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

	if (!OPTS_VALID(opts, sampo_hists_opts))
		return -EINVAL;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->machine = machine;
	h->symbolizer = symbolizer;
	if (opts) /* an older caller's struct: its fields, then the defaults (zeroes) */
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

	err = set_sort_keys(h, &h->opts);
	if (err)
		goto out_err;
	if (h->has_key[SAMPO_SORT_SRCLINE] || h->has_key[SAMPO_SORT_SRCFILE] ||
	    (h->opts.inline_frames && h->opts.callchain)) {
		/* a symbol's addresses have lines of their own */
		h->per_ip_frames = true;
		err = sampo_srclines__new(symbolizer, &h->srclines);
		if (err)
			goto out_err;
	}
	err = copy_filters(h, &h->opts);
	if (err)
		goto out_err;
	/* the lists are the caller's: keep only the copies */
	h->opts.sort_keys = NULL;
	h->opts.trace_fields = NULL;
	h->opts.comms = h->opts.dsos = NULL;
	h->opts.symbols = NULL;
	h->opts.pids = h->opts.tids = NULL;
	h->opts.cpus = NULL;
	*ret = h;
	return 0;
out_err:
	sampo_hists__delete(h);
	return err;
}

void sampo_hists__delete(struct sampo_hists *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr_ev; i++) {
		struct evhists *ev = &h->ev[i];

		for (size_t j = 0; j < ev->nr_entries; j++)
			sampo_callchain__release(&ev->entries[j].root);
		free(ev->entries);
		free(ev->sorted);
		free(ev->pairs);
		sampo_hash_index__release(&ev->ix);
	}
	free(h->ev);
	free(h->groups);
	free(h->dsos);
	for (size_t i = 0; i < h->nr_stacks; i++)
		sampo_thread__put(h->stacks[i].thread);
	free(h->stacks);
	sampo_hash_index__release(&h->stack_ix);
	for (size_t i = 0; i < h->nr_frames; i++)
		sampo_map__put(h->frames[i].map);
	free(h->frames);
	sampo_hash_index__release(&h->frame_ix);
	sampo_srclines__delete(h->srclines);
	free(h->inl);
	free(h->arena);
	free(h->scratch);
	free(h->rcache);
	free(h->ccache);
	free(h->scache);
	free(h->raw);
	free_list(h->comm_filter, h->nr_comm_filter);
	sampo_symbol_filter__delete(h->sym_filter);
	free_list(h->dso_filter, h->nr_dso_filter);
	free(h->pid_filter);
	free(h->tid_filter);
	sampo_cpu_set__delete(h->cpu_filter);
	sampo_strpool__release(&h->strings);
	sampo_strpool__release(&h->blobs);
	for (size_t i = 0; i < h->nr_tf; i++)
		free(h->tf[i].name);
	free(h->tf);
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

static uint64_t frame_hash(const struct sampo_hists *h, const struct sampo_dso *dso,
			   const struct sampo_symbol *sym, const struct sampo_map *map, uint64_t ip,
			   char level)
{
	if (sym && h->per_ip_frames)
		return hash_combine(hash_combine(hash_mix64((uintptr_t)dso), (uintptr_t)sym), ip);
	if (sym)
		return hash_combine(hash_mix64((uintptr_t)dso), (uintptr_t)sym);
	return hash_combine(hash_combine(hash_mix64((uintptr_t)map), ip), (uint64_t)level);
}

static bool frame_equal(const struct sampo_hists *h, const struct frame *f,
			const struct sampo_dso *dso, const struct sampo_symbol *sym,
			const struct sampo_map *map, uint64_t ip, char level)
{
	if (sym)
		return f->sym == sym && f->dso == dso && (!h->per_ip_frames || f->ip == ip);
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
	uint64_t slot_hash = hash_combine(hash_mix64((uintptr_t)owner ^ cpumode), ip);
	struct rcache_slot *slot = &h->rcache[slot_hash & h->rcache_mask];
	struct sampo_addr_location al = { 0 };
	const struct sampo_symbol *sym = NULL;
	const char *unmapped_module = NULL;
	struct sampo_dso *dso = NULL;
	struct sampo_map *map;
	char level = level_of(m, cpumode);
	uint64_t hash, sym_off = 0;
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
			sym = sampo_symbolizer__find_offset(h->symbolizer, map, ip, &sym_off);
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

	hash = frame_hash(h, dso, sym, map, ip, level);
	if ((h->frame_ix.nr + 1) * 2 > h->frame_ix.cap && sampo_hash_index__grow(&h->frame_ix)) {
		err = -ENOMEM;
		goto out;
	}
	for (j = hash & (h->frame_ix.cap - 1); h->frame_ix.slots[j];
	     j = (j + 1) & (h->frame_ix.cap - 1)) {
		uint32_t idx = h->frame_ix.slots[j] - 1;

		if (h->frame_ix.hashes[j] == hash &&
		    frame_equal(h, &h->frames[idx], dso, sym, map, ip, level)) {
			*ret = idx;
			goto cache;
		}
	}
	if (sampo_array_grow((void **)&h->frames, &h->cap_frames, h->nr_frames + 1, sizeof(*h->frames))) {
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
			f->dso_name = sampo_strpool__intern(&h->strings, name);
			if (!f->dso_name) {
				sampo_map__put(f->map);
				err = -ENOMEM;
				goto out;
			}
		}
		if (sym) {
			f->sym_start = sampo_symbol__start(sym);
			f->sym_end = sampo_symbol__end(sym);
			if (map)
				f->file_delta = (int64_t)(f->sym_start + sym_off - f->rel_ip);
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
	uint64_t hash = hash_mix64((uintptr_t)thread);
	struct ccache_slot *slot = &h->ccache[hash & ((1u << CCACHE_BITS) - 1)];

	if (slot->epoch == h->cur_epoch && slot->thread == thread)
		return slot->comm;
	slot->comm = sampo_strpool__intern(&h->strings, sampo_thread__comm(thread));
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
/*
 * The frames of the functions inlined at frame @fidx's address (perf's
 * append_inlines(): the entries of its inline_node, which replace the
 * callchain entry), made once per frame: innermost first. The outermost
 * function of the DWARF chain is the symbol's own frame, kept as it is.
 */
static int inline_frames(struct sampo_hists *h, uint32_t fidx)
{
	const struct sampo_srcline_frame *lines = NULL;
	struct frame *f = &h->frames[fidx];
	size_t nr = 0;

	if (f->inl_done)
		return 0;
	f->inl_done = true;
	if (!f->map || !f->sym || !f->dso || f->inl_name ||
	    sampo_srclines__find(h->srclines, f->dso, f->rel_ip + (uint64_t)f->file_delta, &lines, &nr))
		return 0;
	if (nr < 2)
		return 0;
	nr--; /* the function itself */
	if (sampo_array_grow((void **)&h->frames, &h->cap_frames, h->nr_frames + nr, sizeof(*h->frames)) ||
	    sampo_array_grow((void **)&h->inl, &h->inl_cap, h->inl_nr + nr, sizeof(*h->inl)))
		return -ENOMEM;
	f = &h->frames[fidx]; /* moved */
	f->inl_off = (uint32_t)h->inl_nr;
	for (size_t i = 0; i < nr; i++) {
		struct frame *g = &h->frames[h->nr_frames];
		const char *name = lines[i].function ? lines[i].function : "??";

		*g = *f;
		g->inl_name = sampo_strpool__intern(&h->strings, name);
		if (!g->inl_name)
			return -ENOMEM;
		g->map = sampo_map__get(f->map);
		g->inl_nr = 0;
		memset(g->srcline, 0, sizeof(g->srcline));
		memset(g->srcfile, 0, sizeof(g->srcfile));
		h->inl[h->inl_nr++] = (uint32_t)h->nr_frames++;
		f->inl_nr++;
	}
	return 0;
}

static int resolve_chain(struct sampo_hists *h, struct sampo_machine *m,
			 struct sampo_thread *thread, const struct sampo_sample *sample,
			 size_t nr_unwound, size_t *ret_nr)
{
	/* perf caps the recorded part and the unwound user part at max_stack each */
	size_t max = h->opts.max_stack + nr_unwound;
	const uint64_t *ips = sample->callchain;
	size_t nr = (size_t)sample->callchain_nr, n = 0;
	uint8_t cpumode = SAMPO_CPUMODE_USER;
	bool caller = h->opts.caller_order;
	int err;

	*ret_nr = 0;
	if (!(sample->sample_type & SAMPO_SAMPLE_CALLCHAIN) || !nr || !ips)
		return 0;
	if (sampo_array_grow((void **)&h->scratch, &h->scratch_cap, MIN(nr, max) + 1,
		 sizeof(*h->scratch)))
		return -ENOMEM;
	if (caller && !prev_cpumode(ips, nr, &cpumode))
		return 0;
	for (size_t i = 0; i < nr && n < max; i++) {
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
		if (h->opts.inline_frames && h->srclines) {
			uint32_t fidx = h->scratch[n];
			const struct frame *f;

			err = inline_frames(h, fidx);
			if (err)
				return err;
			f = &h->frames[fidx];
			if (f->inl_nr) {
				/* callee order: innermost first, then the function; caller: reversed */
				if (sampo_array_grow((void **)&h->scratch, &h->scratch_cap,
						     n + f->inl_nr + 1 + (nr - i), sizeof(*h->scratch)))
					return -ENOMEM;
				for (uint32_t k = 0; k < f->inl_nr; k++)
					h->scratch[n + k] = h->inl[f->inl_off + (caller ? f->inl_nr - 1 - k : k)];
				if (caller) {
					memmove(h->scratch + n + 1, h->scratch + n, f->inl_nr * sizeof(*h->scratch));
					h->scratch[n] = fidx;
				} else {
					h->scratch[n + f->inl_nr] = fidx;
				}
				n += f->inl_nr;
			}
		}
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
	/*
	 * perf's HIST_FILTER__GUEST: without --guest, a guest's samples count
	 * in the totals but make no rows
	 */
	if (sampo_cpumode__is_guest(sample->cpumode) && !sampo_machine__guests_enabled(h->machine))
		return true;
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
	if (h->sym_filter &&
	    !sampo_symbol_filter__keeps(h->sym_filter,
					self->sym ? sampo_symbol__name(self->sym) : NULL, self->map,
					self->ip))
		return true;
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
	if (n > RAW_MAX || sampo_array_grow((void **)&h->raw, &h->raw_cap, h->raw_nr + n, sizeof(*h->raw)))
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

void sampo_hists__set_unwinder(struct sampo_hists *h, struct sampo_unwinder *unwinder)
{
	h->unwinder = unwinder;
}

void sampo_hists__set_trace_session(struct sampo_hists *h, struct sampo_session *session)
{
	struct sampo_trace_data *td = session ? sampo_session__trace_data(session) : NULL;

	h->trace_session = session;
	for (size_t i = 0; i < h->nr_tf; i++) {
		struct hist_tf *tf = &h->tf[i];
		const struct sampo_event_attr *attr =
			session ? sampo_reader__attr(sampo_session__reader(session),
						     (size_t)tf->evsel) :
				  NULL;

		tf->resolved =
			attr && attr->type == SAMPO_TYPE_TRACEPOINT && td &&
			!sampo_trace_data__find_field(td, attr->config, tf->name, &tf->field);
		tf->config = attr ? attr->config : 0;
	}
}

/*
 * The trace fields of a sample of event @evsel, the stack's key: for each
 * trace field key of the event, a u32 length and the field's bytes (none
 * where they lie outside the raw data), interned. NULL: the event has no
 * such key.
 */
static int sample_trace_fields(struct sampo_hists *h, int evsel, const struct sampo_sample *sample,
			       const uint8_t **ret)
{
	struct sampo_trace_data *td =
		h->trace_session ? sampo_session__trace_data(h->trace_session) : NULL;
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;
	bool any = false;

	*ret = NULL;
	for (size_t i = 0; i < h->nr_tf; i++) {
		struct hist_tf *tf = &h->tf[i];
		const uint8_t *bytes = NULL;
		size_t n = 0;
		uint32_t n32;

		if (tf->evsel != evsel)
			continue;
		any = true;
		if (tf->resolved && !sampo_trace_data__field_bytes(td, &tf->field, sample->raw_data,
								   sample->raw_size, &bytes, &n))
			n = 0;
		if (sampo_array_grow((void **)&buf, &cap, len + 4 + n, 1)) {
			free(buf);
			return -ENOMEM;
		}
		n32 = (uint32_t)n;
		memcpy(buf + len, &n32, 4);
		if (n)
			memcpy(buf + len + 4, bytes, n);
		len += 4 + n;
	}
	if (any) {
		*ret = sampo_strpool__intern_blob(&h->blobs, buf, (uint32_t)len);
		free(buf);
		return *ret ? 0 : -ENOMEM;
	}
	return 0;
}

/*
 * The trace key of a sample of event @evsel (perf's get_trace_output()):
 * a tracepoint's raw data as script's trace field prints it, interned; ""
 * for a tracepoint the tracing data has no format for; NULL for any other
 * event (perf's sort__trace_cmp() takes them all as one, "N/A")
 */
static int sample_trace(struct sampo_hists *h, int evsel, const struct sampo_sample *sample,
			const char **ret)
{
	const struct sampo_event_attr *attr;
	char *text = NULL;
	int err;

	*ret = NULL;
	if (!h->trace_session || evsel < 0)
		return 0;
	attr = sampo_reader__attr(sampo_session__reader(h->trace_session), (size_t)evsel);
	if (!attr || attr->type != SAMPO_TYPE_TRACEPOINT)
		return 0;
	/* perf's get_trace_output(): every field with --raw-trace */
	err = (h->opts.raw_trace ? sampo_trace_data__format_fields : sampo_trace_data__format)(
		sampo_session__trace_data(h->trace_session), attr->config, (int)sample->cpu,
		sample->raw_data, sample->raw_size, &text);
	if (err == -ENOMEM)
		return err;
	*ret = sampo_strpool__intern(&h->strings, err ? "" : text);
	free(text);
	return *ret ? 0 : -ENOMEM;
}

/*
 * @may_unwind: unwind a DWARF sample with the hists' unwinder; else
 * @nr_unwound says how many user frames of the chain are unwound ones
 */
static int add_sample(struct sampo_hists *h, int evsel, const struct sampo_sample *sample,
		      bool may_unwind, size_t nr_unwound)
{
	struct sampo_sample unwound;
	struct evhists *ev = hists_ev(h, evsel);
	struct sampo_machine *m;
	struct sampo_thread *thread;
	struct scache_slot *sslot;
	const uint64_t *words;
	const char *comm;
	uint32_t self, idx;
	size_t nr = 0, nr_words, j;
	int32_t cpu = h->has_key[SAMPO_SORT_CPU] ? (int32_t)sample->cpu : 0;
	const char *trace = NULL;
	const uint8_t *tf_key = NULL;
	bool filtered, keyed_by_trace = h->has_key[SAMPO_SORT_TRACE] || h->nr_tf;
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
	/* a DWARF sample's chain is its recorded (kernel) part and the unwound user part */
	if (may_unwind && h->unwinder && h->opts.callchain && sampo_unwinder__wants(sample)) {
		const uint64_t *chain;
		size_t nr_chain;

		err = sampo_unwinder__chain(h->unwinder, m, thread, sample, h->opts.max_stack,
					    &chain, &nr_chain, &nr_unwound);
		if (err)
			return err;
		unwound = *sample;
		unwound.callchain = chain;
		unwound.callchain_nr = nr_chain;
		unwound.sample_type |= SAMPO_SAMPLE_CALLCHAIN;
		sample = &unwound;
	}
	/* the machine's counters say which cached lookups are still valid */
	h->kernel_epoch = (uint64_t)sampo_machine__kernel_generation(h->machine) << 32;
	h->cur_epoch = h->kernel_epoch |
		       sampo_machine__process_generation(h->machine, (int32_t)sample->pid);
	ev->nr_samples++;
	ev->total_period += sample->period;
	if (h->has_key[SAMPO_SORT_TRACE]) {
		err = sample_trace(h, evsel, sample, &trace);
		if (err)
			goto out;
	}
	if (h->nr_tf) {
		err = sample_trace_fields(h, evsel, sample, &tf_key);
		if (err)
			goto out;
	}

	/* the same raw sample as before, in the same epoch: the same stack */
	nr_words = raw_chain(h, sample, &words);
	raw_hash = hash_combine(hash_mix64((uintptr_t)thread ^ ((uint64_t)(uint32_t)evsel << 40)),
				sample->ip ^ ((uint64_t)sample->cpumode << 56));
	raw_hash = hash_combine(raw_hash, (uint32_t)cpu);
	for (size_t i = 0; i < nr_words; i++)
		raw_hash = hash_combine(raw_hash, words[i]);
	sslot = &h->scache[raw_hash & h->scache_mask];
	/* (a slot has no room for the trace text or fields: no cache with those keys) */
	if (!keyed_by_trace && sslot->hash == raw_hash && sslot->epoch == h->cur_epoch &&
	    sslot->thread == thread && sslot->ip == sample->ip &&
	    sslot->cpumode == sample->cpumode && sslot->cpu == cpu && sslot->evsel == evsel &&
	    sslot->raw_nr == nr_words && sslot->used &&
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
		err = resolve_chain(h, m, thread, sample, nr_unwound, &nr);
		if (err)
			goto out;
	}

	hash = hash_combine(hash_combine(hash_mix64((uintptr_t)thread), (uintptr_t)comm),
			    ((uint64_t)(uint32_t)evsel << 32) | (uint32_t)cpu);
	hash = hash_combine(hash, ((uint64_t)self << 1) | filtered);
	hash = hash_combine(hash, (uintptr_t)trace ^ ((uint64_t)(uintptr_t)tf_key << 3));
	for (size_t i = 0; i < nr; i++)
		hash = hash_combine(hash, h->scratch[i]);

	if ((h->stack_ix.nr + 1) * 2 > h->stack_ix.cap && sampo_hash_index__grow(&h->stack_ix)) {
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
		    s->evsel == evsel && s->self == self && s->nr == nr &&
		    s->filtered == filtered && s->trace == trace && s->tf_key == tf_key &&
		    (!nr || !memcmp(h->arena + s->off, h->scratch, nr * sizeof(*h->scratch)))) {
			s->period += sample->period;
			s->count++;
			idx = h->stack_ix.slots[j] - 1;
			goto remember;
		}
	}
	if (sampo_array_grow((void **)&h->stacks, &h->cap_stacks, h->nr_stacks + 1, sizeof(*h->stacks)) ||
	    sampo_array_grow((void **)&h->arena, &h->arena_cap, h->arena_nr + nr, sizeof(*h->arena))) {
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
		s->trace = trace;
		s->tf_key = tf_key;
		s->tf_raw = NULL;
		if (tf_key) {
			s->tf_raw = sampo_strpool__intern_blob(&h->blobs, sample->raw_data,
							       sample->raw_size);
			if (!s->tf_raw) {
				err = -ENOMEM;
				goto out;
			}
		}
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
	if (!keyed_by_trace)
		scache_store(h, sslot, raw_hash, thread, evsel, cpu, sample, idx);
out:
	sampo_thread__put(thread);
	return err;
}

int sampo_hists__add_sample(struct sampo_hists *h, int evsel, const struct sampo_sample *sample)
{
	return add_sample(h, evsel, sample, true, 0);
}

int sampo_hists__add_unwound(struct sampo_hists *h, int evsel, const struct sampo_sample *sample,
			     size_t nr_unwound)
{
	return add_sample(h, evsel, sample, false, nr_unwound);
}

/* ---- stage 3: entries ----------------------------------------------------- */

/*
 * perf's map__srcline() of a row: the row's address is the map-relative
 * one for a sample's own frame, the raw one for a callchain's (perf's
 * fill_callchain_info() sets al->addr = node->ip), looked up in the file
 * as if map-relative (map__rip_2objdump()). Without a line: "sym+OFFSET"
 * (decimal, from that address), "dso[ADDR]" without a symbol, "??:0"
 * without a map. The srcfile is the text before the first ':' (perf's
 * hist_entry__get_srcfile()), "" for "??:0" or a text without one.
 * Return: 0 or -ENOMEM.
 */
static int frame_srcline(struct sampo_hists *h, struct frame *f, bool cumulative)
{
	const struct sampo_srcline_frame *fr = NULL;
	uint64_t addr = cumulative ? f->ip : f->rel_ip;
	char buf[512];
	const char *colon;
	int c = cumulative;

	if (f->srcline[c])
		return 0;
	if (!f->map) {
		snprintf(buf, sizeof(buf), "??:0");
	} else {
		uint64_t faddr = addr + (uint64_t)f->file_delta; /* map__rip_2objdump() */
		bool has_line;

		/* the line alone: perf's srcline sort asks addr2line without -i */
		if (f->dso && h->srclines && sampo_srclines__find_line(h->srclines, f->dso, faddr, &fr))
			return -ENOMEM;
		has_line = fr && sampo_srcline_frame__format(fr, buf, sizeof(buf)) >= 0;
		/*
		 * addr2line found the function (in the file's symbol table: not a
		 * PLT entry, which sampo names from the relocations) but no line:
		 * perf shows its answer
		 */
		if (!has_line && f->sym && f->dso && faddr >= f->sym_start && faddr < f->sym_end &&
		    !strstr(sampo_symbol__name(f->sym), "@plt") &&
		    sampo_srclines__dso_has_file(h->srclines, f->dso))
			snprintf(buf, sizeof(buf), "??:0");
		else if (!has_line && f->sym)
			snprintf(buf, sizeof(buf), "%s+%" PRIu64, sampo_symbol__name(f->sym),
				 addr - f->sym_start);
		else if (!has_line)
			snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", f->dso_name ? f->dso_name : "",
				 faddr);
	}
	f->srcline[c] = sampo_strpool__intern(&h->strings, buf);
	if (!f->srcline[c])
		return -ENOMEM;
	colon = strchr(buf, ':');
	if (!strcmp(buf, "??:0") || !colon)
		buf[0] = 0;
	else
		buf[colon - buf] = 0;
	f->srcfile[c] = sampo_strpool__intern(&h->strings, buf);
	return f->srcfile[c] ? 0 : -ENOMEM;
}

/* perf's hist_entry__cmp() over the sort keys, as a key to hash and compare */
static void entry_key_init(const struct sampo_hists *h, struct entry_key *k, const struct stack *s,
			   const struct frame *f, bool cumulative)
{
	memset(k, 0, sizeof(*k));
	if (h->has_key[SAMPO_SORT_SYM])
		k->inl_name = f->inl_name;
	if (h->has_key[SAMPO_SORT_SRCLINE])
		k->srcline = f->srcline[cumulative];
	if (h->has_key[SAMPO_SORT_SRCFILE])
		k->srcfile = f->srcfile[cumulative];
	if (h->has_key[SAMPO_SORT_TRACE])
		k->trace = s->trace;
	k->tf = s->tf_key;
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
	uint64_t hash = hash_mix64((uintptr_t)k->comm);

	hash = hash_combine(hash, (uintptr_t)k->dso);
	hash = hash_combine(hash, (uintptr_t)k->srcline ^ ((uint64_t)(uintptr_t)k->srcfile << 7));
	hash = hash_combine(hash, (uintptr_t)k->inl_name ^ ((uint64_t)(uintptr_t)k->trace << 5));
	hash = hash_combine(hash, (uintptr_t)k->tf);
	hash = hash_combine(hash, k->sym_start);
	hash = hash_combine(hash, k->sym_end);
	hash = hash_combine(hash, k->ip);
	hash = hash_combine(hash, ((uint64_t)(uint32_t)k->tid << 32) | (uint32_t)k->cpu);
	return hash_combine(hash, k->has_sym);
}

static bool entry_key_equal(const struct entry_key *a, const struct entry_key *b)
{
	return a->comm == b->comm && a->dso == b->dso && a->srcline == b->srcline &&
	       a->srcfile == b->srcfile && a->inl_name == b->inl_name && a->trace == b->trace &&
	       a->tf == b->tf && a->sym_start == b->sym_start && a->sym_end == b->sym_end &&
	       a->ip == b->ip && a->tid == b->tid && a->cpu == b->cpu && a->has_sym == b->has_sym;
}

/* @level: the new entry's level ('k', '.', ...), see replay_stack() */
static struct sampo_hist_entry *entry_findnew(const struct sampo_hists *h, struct evhists *ev,
				   const struct entry_key *k, const struct stack *s, uint32_t frame,
				   char level)
{
	uint64_t hash = entry_key_hash(k);
	size_t j;

	if ((ev->ix.nr + 1) * 2 > ev->ix.cap && sampo_hash_index__grow(&ev->ix))
		return NULL;
	for (j = hash & (ev->ix.cap - 1); ev->ix.slots[j]; j = (j + 1) & (ev->ix.cap - 1)) {
		struct sampo_hist_entry *e = &ev->entries[ev->ix.slots[j] - 1];

		if (ev->ix.hashes[j] == hash && entry_key_equal(&e->key, k))
			return e;
	}
	if (sampo_array_grow((void **)&ev->entries, &ev->cap_entries, ev->nr_entries + 1, sizeof(*ev->entries)))
		return NULL;
	{
		struct sampo_hist_entry *e = &ev->entries[ev->nr_entries];

		memset(e, 0, sizeof(*e));
		e->key = *k;
		e->hists = h;
		e->thread = s->thread;
		e->comm = s->comm;
		e->frame = frame;
		e->level = level;
		e->filtered = s->filtered;
		e->evsel = (uint32_t)(ev - h->ev);
		e->tf_raw = s->tf_raw;
	}
	ev->ix.slots[j] = (uint32_t)++ev->nr_entries;
	ev->ix.hashes[j] = hash;
	ev->ix.nr++;
	return &ev->entries[ev->nr_entries - 1];
}

static int entry_append(struct sampo_hists *h, struct sampo_hist_entry *e, uint32_t pos, uint32_t end,
			uint64_t period)
{
	if (pos >= end)
		return 0;
	if (end - pos > e->max_depth)
		e->max_depth = end - pos;
	return sampo_callchain__append(h, &e->root, pos, end, period);
}

/*
 * A chain to add to an entry's graph once every entry has its period: the
 * stack, the entry (an index: entries move as they are added) and where the
 * chain starts in the stack's frames.
 */
struct graph_add {
	uint32_t stack, entry, pos;
};

struct graph_adds {
	struct graph_add *v;
	size_t nr, cap;
};

/*
 * entry_append() now, or, with @adds, noted for later (the depth is kept now:
 * it does not depend on the graph)
 */
static int entry_chain(struct sampo_hists *h, struct evhists *ev, struct sampo_hist_entry *e,
		       const struct stack *s, uint32_t pos, struct graph_adds *adds)
{
	uint32_t end = s->off + s->nr;

	if (!adds)
		return entry_append(h, e, pos, end, s->period);
	if (pos >= end)
		return 0;
	if (end - pos > e->max_depth)
		e->max_depth = end - pos;
	if (sampo_array_grow((void **)&adds->v, &adds->cap, adds->nr + 1, sizeof(*adds->v)))
		return -ENOMEM;
	adds->v[adds->nr++] = (struct graph_add){ .stack = (uint32_t)(s - h->stacks),
						  .entry = (uint32_t)(e - ev->entries),
						  .pos = pos };
	return 0;
}

/*
 * perf's check for a frame seen twice in one chain compares each entry the
 * sample made so far with the frame's (hist_entry__cmp(he_cache[i],
 * &he_tmp)): where the keys before trace tie, that formats the entry's trace
 * output (sort__trace_cmp()), which then counts in the column's width
 */
static void mark_trace_reached(const struct sampo_hists *h, struct sampo_hist_entry *e,
			       const struct entry_key *k, uint32_t fidx)
{
	struct sampo_hist_entry tmp;

	for (size_t i = 0; i < h->nr_keys; i++) {
		if (h->keys[i] != SAMPO_SORT_TRACE)
			continue;
		memset(&tmp, 0, sizeof(tmp));
		tmp.key = *k;
		tmp.hists = h;
		tmp.frame = fidx;
		if (!sampo_hist_entry__collapse_cmp(e, &tmp, h->keys, i))
			e->src_known |= 4;
		return;
	}
}

/*
 * The same check reaches a trace field key where the keys before it tie:
 * perf's comparison then measures the dynamic field (__sort__hde_cmp()),
 * which counts in its column's width (lib/hist-print.c dynamic_len())
 */
static void mark_tf_reached(const struct sampo_hists *h, struct sampo_hist_entry *e,
			    const struct entry_key *k, uint32_t fidx)
{
	struct sampo_hist_entry tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.key = *k;
	tmp.hists = h;
	tmp.frame = fidx;
	tmp.evsel = e->evsel;
	for (size_t i = 0; i < h->nr_keys; i++) {
		uint16_t t = h->key_tf[i];

		if (h->keys[i] != SAMPO_SORT_TRACE_FIELD || h->tf[t].evsel != (int)e->evsel ||
		    t >= 64)
			continue;
		if (sampo_hist_entry__collapse_cmp(e, &tmp, h->keys, i))
			return;
		e->tf_reached |= 1ULL << t;
	}
}

/* perf's hist_entry_iter with the cumulative (children) or the normal ops */
static int replay_stack(struct sampo_hists *h, struct evhists *ev, const struct stack *s,
			size_t **cache, size_t *cache_cap, struct graph_adds *adds)
{
	struct entry_key k;
	struct sampo_hist_entry *e;
	size_t nr_cache = 0;
	/*
	 * perf fills one addr_location per sample: the sample's own, then each
	 * call-chain node in turn (fill_callchain_info()), which sets the level
	 * only for a node with a map. A node without one inherits the level of the
	 * last node before it that had one, or the sample's.
	 */
	char level = h->frames[s->self].level;
	int err;

	if (h->srclines && frame_srcline(h, &h->frames[s->self], false))
		return -ENOMEM;
	entry_key_init(h, &k, s, &h->frames[s->self], false);
	e = entry_findnew(h, ev, &k, s, s->self, level);
	if (!e)
		return -ENOMEM;
	e->period += s->period;
	e->period_acc += s->period;
	e->nr_samples += s->count;
	e->nr_adds += s->count;
	if (h->opts.callchain) {
		err = entry_chain(h, ev, e, s, s->off, adds);
		if (err)
			return err;
	}
	if (!h->opts.children)
		return 0;

	/* perf's he_cache; indexes, since entry_findnew() may move the entries */
	if (sampo_array_grow((void **)cache, cache_cap, s->nr + 1, sizeof(**cache)))
		return -ENOMEM;
	(*cache)[nr_cache++] = (size_t)(e - ev->entries);
	for (uint32_t i = 0; i < s->nr; i++) {
		uint32_t fidx = h->arena[s->off + i];
		bool dup = false;

		if (h->frames[fidx].map)
			level = h->frames[fidx].level;
		if (h->srclines && frame_srcline(h, &h->frames[fidx], true))
			return -ENOMEM;
		entry_key_init(h, &k, s, &h->frames[fidx], true);
		/* a frame seen twice in one chain (recursion) counts once */
		for (size_t c = 0; c < nr_cache && !dup; c++) {
			struct sampo_hist_entry *ce = &ev->entries[(*cache)[c]];

			if (h->has_key[SAMPO_SORT_TRACE])
				mark_trace_reached(h, ce, &k, fidx);
			if (h->nr_tf)
				mark_tf_reached(h, ce, &k, fidx);
			dup = entry_key_equal(&ce->key, &k);
		}
		if (dup)
			continue;
		e = entry_findnew(h, ev, &k, s, fidx, level);
		if (!e)
			return -ENOMEM;
		(*cache)[nr_cache++] = (size_t)(e - ev->entries);
		e->period_acc += s->period;
		e->nr_adds += s->count;
		err = entry_chain(h, ev, e, s, s->off + i, adds);
		if (err)
			return err;
	}
	return 0;
}

/*
 * The graphs of the entries that can show one: a graph shows the branches
 * of at least callchain_min_percent of the event's total, and all of an
 * entry's branches together hold its period_acc, so an entry under that
 * shows none (perf builds it all the same). On a system-wide recording
 * most entries are such leaves with long chains: building only the shown
 * graphs took a third off report's children mode (docs/performance.md).
 * The chains go to each graph in the order replay_stack() met them, as if
 * added at once: the graphs are the same.
 */
static int add_graphs(struct sampo_hists *h, const struct graph_adds *adds)
{
	for (size_t i = 0; i < adds->nr; i++) {
		const struct graph_add *a = &adds->v[i];
		const struct stack *s = &h->stacks[a->stack];
		struct evhists *ev = hists_ev(h, s->evsel);
		struct sampo_hist_entry *e;
		uint64_t min_hit;
		int err;

		if (!ev)
			return -ENOMEM;
		e = &ev->entries[a->entry];
		min_hit = (uint64_t)((double)sampo_hists__ev_total(h, ev) *
				     (h->opts.callchain_min_percent / 100.0));
		if (e->period_acc < min_hit)
			continue;
		err = sampo_callchain__append(h, &e->root, a->pos, s->off + s->nr, s->period);
		if (err)
			return err;
	}
	return 0;
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
	struct graph_adds graph_adds = { 0 }, *adds = NULL;
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
			if (sampo_array_grow((void **)&seqs, &cap, nr + 1, sizeof(*seqs))) {
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

	/*
	 * Graphs only for the entries that show one (add_graphs()), but for the
	 * group view (its rows draw a leader's graph against its own total),
	 * -g fractal (its thresholds are shares of each entry) and when every
	 * branch shows
	 */
	if (h->opts.callchain && !h->nr_groups && !h->opts.graph_fractal &&
	    h->opts.callchain_min_percent > 0)
		adds = &graph_adds;
	for (size_t i = 0; i < h->nr_stacks; i++) {
		struct evhists *ev = hists_ev(h, h->stacks[i].evsel);

		if (!ev) {
			err = -ENOMEM;
			goto out;
		}
		err = replay_stack(h, ev, &h->stacks[i], &cache, &cache_cap, adds);
		if (err)
			goto out;
	}
	/* perf's hists__inc_stats(): the entries shown, by their self samples */
	for (size_t i = 0; i < h->nr_ev; i++) {
		struct evhists *ev = &h->ev[i];

		for (size_t j = 0; j < ev->nr_entries; j++) {
			if (ev->entries[j].filtered)
				continue;
			ev->shown_samples += ev->entries[j].nr_samples;
			ev->shown_period += ev->entries[j].period;
		}
	}
	if (adds) {
		err = add_graphs(h, adds);
		free(graph_adds.v);
		graph_adds = (struct graph_adds){ 0 };
		if (err)
			goto out;
	}
	err = sampo_hists__link_groups(h);
	if (err)
		goto out;
	for (size_t i = 0; i < h->nr_ev; i++) {
		struct evhists *ev = &h->ev[i];

		ev->sorted = calloc(ev->nr_entries ? ev->nr_entries : 1, sizeof(*ev->sorted));
		if (!ev->sorted) {
			err = -ENOMEM;
			goto out;
		}
		err = sampo_hists__sort_entries(h, ev);
		if (err)
			goto out;
	}
out:
	free(graph_adds.v);
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

void sampo_hists__shown(const struct sampo_hists *h, int evsel, uint64_t *ret_samples,
			uint64_t *ret_period)
{
	bool ok = evsel >= 0 && (size_t)evsel < h->nr_ev;

	*ret_samples = ok ? h->ev[evsel].shown_samples : 0;
	*ret_period = ok ? h->ev[evsel].shown_period : 0;
}

uint64_t sampo_hists__ev_total(const struct sampo_hists *h, const struct evhists *ev)
{
	return h->opts.percentage_relative ? ev->shown_period : ev->total_period;
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

/* ---- the distinct stacks ------------------------------------------------- */

size_t sampo_hists__nr_stacks(const struct sampo_hists *h)
{
	/* before resort, the stack cache still holds periods not yet added */
	return h && h->resorted ? h->nr_stacks : 0;
}

int sampo_hists__stack_evsel(const struct sampo_hists *h, size_t idx)
{
	return h->stacks[idx].evsel;
}

uint64_t sampo_hists__stack_nr_samples(const struct sampo_hists *h, size_t idx)
{
	return h->stacks[idx].count;
}

uint64_t sampo_hists__stack_period(const struct sampo_hists *h, size_t idx)
{
	return h->stacks[idx].period;
}

const char *sampo_hists__stack_comm(const struct sampo_hists *h, size_t idx)
{
	return h->stacks[idx].comm;
}

bool sampo_hists__stack_filtered(const struct sampo_hists *h, size_t idx)
{
	return h->stacks[idx].filtered;
}

size_t sampo_hists__stack_depth(const struct sampo_hists *h, size_t idx)
{
	return h->stacks[idx].nr ? h->stacks[idx].nr : 1;
}

uint32_t sampo_hists__stack_frame(const struct sampo_hists *h, size_t idx, size_t depth)
{
	const struct stack *s = &h->stacks[idx];

	return s->nr ? h->arena[s->off + depth] : s->self;
}

size_t sampo_hists__nr_frames(const struct sampo_hists *h)
{
	return h->nr_frames;
}

const char *sampo_hists__frame_name(const struct sampo_hists *h, uint32_t frame)
{
	const struct frame *f = &h->frames[frame];

	if (f->inl_name)
		return f->inl_name;
	return f->sym ? sampo_symbol__name(f->sym) : NULL;
}

bool sampo_hists__frame_inlined(const struct sampo_hists *h, uint32_t frame)
{
	return h->frames[frame].inl_name != NULL;
}

const char *sampo_hists__frame_dso_name(const struct sampo_hists *h, uint32_t frame)
{
	return h->frames[frame].dso_name;
}

uint64_t sampo_hists__frame_ip(const struct sampo_hists *h, uint32_t frame)
{
	return h->frames[frame].ip;
}

char sampo_hists__frame_level(const struct sampo_hists *h, uint32_t frame)
{
	return h->frames[frame].level;
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
	return e->key.comm ? e->key.comm : e->comm;
}

int32_t sampo_hist_entry__pid(const struct sampo_hist_entry *e)
{
	return sampo_thread__pid(e->thread);
}

int32_t sampo_hist_entry__tid(const struct sampo_hist_entry *e)
{
	return sampo_thread__tid(e->thread);
}

const char *sampo_hist_entry__thread_comm(const struct sampo_hist_entry *e)
{
	return sampo_thread__comm(e->thread);
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


/* ---- one callback per distinct stack ------------------------------------ */

static void frame_view(const struct sampo_hists *h, uint32_t idx, struct sampo_hist_frame *out)
{
	const struct frame *f = &h->frames[idx];

	out->dso = f->map ? f->dso : NULL;
	out->dso_name = f->dso_name;
	out->symbol = f->sym ? sampo_symbol__name(f->sym) : NULL;
	out->ip = f->ip;
	out->rel_ip = f->rel_ip;
	out->level = f->level;
	out->id = idx;
}

int sampo_hists__walk_stacks(const struct sampo_hists *h, sampo_hists_stack_fn fn, void *ctx)
{
	struct sampo_hist_frame *frames = NULL;
	size_t cap = 0;
	int err = 0;

	if (!h->resorted)
		return -EINVAL;
	for (size_t i = 0; i < h->nr_stacks && !err; i++) {
		const struct stack *s = &h->stacks[i];
		size_t nr = s->nr ? s->nr : 1;
		struct sampo_hist_stack view = {
			.evsel = s->evsel,
			.comm = s->comm,
			.pid = sampo_thread__pid(s->thread),
			.tid = sampo_thread__tid(s->thread),
			.cpu = s->cpu,
			.filtered = s->filtered,
			.period = s->period,
			.nr_samples = s->count,
			.nr_frames = nr,
		};

		if (nr > cap) {
			struct sampo_hist_frame *f = realloc(frames, nr * sizeof(*f));

			if (!f) {
				err = -ENOMEM;
				break;
			}
			frames = f;
			cap = nr;
		}
		for (size_t d = 0; d < nr; d++)
			frame_view(h, s->nr ? h->arena[s->off + d] : s->self, &frames[d]);
		view.frames = frames;
		err = fn(ctx, &view);
	}
	free(frames);
	return err;
}

const char *sampo_hist_entry__srcline(const struct sampo_hist_entry *e)
{
	return e->key.srcline;
}

const char *sampo_hist_entry__srcfile(const struct sampo_hist_entry *e)
{
	return e->key.srcfile;
}

const char *sampo_hist_entry__trace(const struct sampo_hist_entry *e)
{
	return e->key.trace;
}

/*
 * perf's __sort__hde_entry(): the value of trace field @tf in raw data
 * @raw_blob. Not raw: the word after "NAME=" in the print format's text,
 * the first word that starts with the name (perf's strncmp(): "pid" also
 * takes "pid_ns=..."), up to the next space; *@from_text says it was
 * found there. Otherwise, or where the text has no such word, the field
 * as libtraceevent prints it alone.
 */
int sampo_hists__trace_field_text(const struct sampo_hists *h, const struct hist_tf *tf,
				  const uint8_t *raw_blob, char **ret, bool *from_text)
{
	struct sampo_trace_data *td =
		h->trace_session ? sampo_session__trace_data(h->trace_session) : NULL;
	const uint8_t *raw = sampo_blob__bytes(raw_blob);
	size_t raw_size = sampo_blob__len(raw_blob), namelen = strlen(tf->name);
	char *text = NULL;
	int err;

	*ret = NULL;
	*from_text = false;
	if (!td || !tf->resolved)
		return -ENOENT;
	if (!tf->raw) {
		/* perf's rec has cpu 0 (get_trace_output()) */
		err = sampo_trace_data__format(td, tf->config, 0, raw, raw_size, &text);
		if (err == -ENOMEM)
			return err;
		for (const char *w = text; w && *w;) {
			const char *end = strchr(w, ' ');

			if (!end)
				end = w + strlen(w);
			if (!strncmp(w, tf->name, namelen)) {
				const char *v = w + namelen + 1;

				*ret = strndup(v, v <= end ? (size_t)(end - v) : 0);
				free(text);
				if (!*ret)
					return -ENOMEM;
				*from_text = true;
				return 0;
			}
			w = *end ? end + 1 : end;
		}
		free(text);
	}
	return sampo_trace_data__format_field(td, tf->config, tf->name, raw, raw_size, ret);
}

int sampo_hist_entry__trace_field(const struct sampo_hist_entry *e, size_t i, const char **ret_name,
				  char **ret_text)
{
	const struct sampo_hists *h = e->hists;
	bool from_text;

	*ret_text = NULL;
	if (i >= h->nr_tf)
		return -ERANGE;
	*ret_name = h->tf[i].name;
	if (h->tf[i].evsel != (int)e->evsel || !e->tf_raw)
		return -ENOENT;
	return sampo_hists__trace_field_text(h, &h->tf[i], e->tf_raw, ret_text, &from_text);
}
