// SPDX-License-Identifier: GPL-2.0
/*
 * pprof-perf.c - the samples of a perf.data session into a pprof profile
 * (the second half of pprof.h).
 *
 * A sample becomes: its locations, leaf first (the sampled ip, then the
 * call chain after its first entry, which repeats the ip, as
 * perf_data_converter reads it); values "<event>_sample" += 1 and
 * "<event>_event" += period for its event; the labels asked for. A sample
 * that reads counters (PERF_SAMPLE_READ) is one pprof sample per value that
 * increased, of the value's event, as perf report splits it.
 *
 * A frame is resolved as perf report resolves it: the map of the address
 * in the cpumode of its context (sampo_machine__find_map()), the symbol by
 * the session's symbolizer (build-id matched files, the relocated kernel,
 * placed modules), a kernel address outside every map through the module
 * section maps. Its location is the mapping of the map (range, file
 * offset, DSO name, recorded build-id), the address as sampled, and one
 * line per function: the symbol's name as perf prints it and, when the
 * symbols came from an ELF file with DWARF, its source file and line,
 * with the functions inlined at that address before it. A return address
 * (every frame but the leaf) is looked up one byte back, in the call
 * instruction, for its line.
 *
 * Lookups are cached per (machine, process or kernel, cpumode, address,
 * leaf or not) for as long as the machine's generation counters say the
 * maps have not changed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/buildid.h>
#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include <sampo/session.h>
#include <sampo/srcline.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include <sampo/thread.h>

#include "pprof.h"

#define MAX_STACK_DEFAULT 127
#define MAX_INLINE	  16
#define LCACHE_BITS	  16
#define MAX_LABELS	  8

struct pp_event {
	int type_sample, type_event; /* -1: not added yet */
	uint64_t nr_samples, period;
};

/* what one DSO brings to every location in it */
struct pp_dso {
	struct sampo_dso *dso; /* reference */
	char build_id[SAMPO_BUILD_ID_HEX_SIZE];
	struct sampo_srcline *src; /* NULL: no DWARF (or not tried) */
	bool src_tried;
};

struct lcache_slot {
	const void *machine;
	uint64_t ip;
	uint64_t epoch;
	int32_t pid;
	uint8_t cpumode;
	bool leaf;
	bool used;
	uint64_t loc;
};

struct pprof_perf {
	struct pprof *p;
	struct sampo_session *session;
	struct sampo_machine *machine; /* the host */
	struct sampo_symbolizer *symbolizer;
	struct pprof_perf_opts opts;

	struct pp_event *ev;
	size_t nr_ev;

	struct pp_dso *dsos;
	size_t nr_dsos, cap_dsos;

	struct lcache_slot *lcache;
	uint64_t *locs;
	size_t cap_locs;
	struct sampo_addr_location al, chain_al;

	struct read_share *shares; /* the values of the sample being added */
	size_t nr_shares, cap_shares;
};

/* one event's part of a sample: the sample's own, or one value it read */
struct read_share {
	int evsel;
	uint64_t period;
};

static int grow_array(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* ---- labels ------------------------------------------------------------------ */

static const struct {
	const char *name;
	unsigned bit;
} label_names[] = {
	{ "pid", PPROF_LABEL_PID },
	{ "tid", PPROF_LABEL_TID },
	{ "comm", PPROF_LABEL_COMM },
	{ "thread_comm", PPROF_LABEL_THREAD_COMM },
	{ "cpu", PPROF_LABEL_CPU },
	{ "timestamp_ns", PPROF_LABEL_TIMESTAMP },
	{ "execution_mode", PPROF_LABEL_EXECUTION_MODE },
};

int pprof_labels_parse(const char *list, unsigned *ret)
{
	unsigned bits = 0;
	const char *p = list;

	while (*p) {
		size_t len = strcspn(p, ",");
		bool known = false;

		if (len == 3 && !strncmp(p, "all", 3)) {
			for (size_t i = 0; i < sizeof(label_names) / sizeof(label_names[0]); i++)
				bits |= label_names[i].bit;
			known = true;
		} else if (len == 4 && !strncmp(p, "none", 4)) {
			known = true;
		}
		for (size_t i = 0; !known && i < sizeof(label_names) / sizeof(label_names[0]); i++) {
			if (strlen(label_names[i].name) == len && !strncmp(p, label_names[i].name, len)) {
				bits |= label_names[i].bit;
				known = true;
			}
		}
		if (!known && len)
			return -EINVAL;
		p += len;
		if (*p == ',')
			p++;
	}
	*ret = bits;
	return 0;
}

static const char *exec_mode(uint8_t cpumode)
{
	switch (cpumode) {
	case SAMPO_CPUMODE_KERNEL:
		return "Host Kernel";
	case SAMPO_CPUMODE_USER:
		return "Host User";
	case SAMPO_CPUMODE_GUEST_KERNEL:
		return "Guest Kernel";
	case SAMPO_CPUMODE_GUEST_USER:
		return "Guest User";
	case SAMPO_CPUMODE_HYPERVISOR:
		return "Hypervisor";
	default:
		return NULL;
	}
}

/* ---- events -------------------------------------------------------------------- */

static int refresh_events(struct pprof_perf *pp)
{
	size_t nr = sampo_session__nr_events(pp->session);

	if (nr <= pp->nr_ev)
		return 0;
	{
		struct pp_event *e = realloc(pp->ev, nr * sizeof(*e));

		if (!e)
			return -ENOMEM;
		for (size_t i = pp->nr_ev; i < nr; i++)
			e[i] = (struct pp_event){ .type_sample = -1, .type_event = -1 };
		pp->ev = e;
		pp->nr_ev = nr;
	}
	return 0;
}

/*
 * The sample types of event @idx, named at its first sample (the name is
 * final by then, an EVENT_UPDATE aside): "<name>_sample" and "<name>_event",
 * the default being the last "_event" type, as perf_data_converter does.
 */
static int event_types(struct pprof_perf *pp, int idx)
{
	struct pp_event *e = &pp->ev[idx];
	const char *name;
	char buf[512];
	int err;

	if (e->type_sample >= 0)
		return 0;
	name = sampo_session__evsel_name(pp->session, idx);
	snprintf(buf, sizeof(buf), "%s_sample", name);
	e->type_sample = pprof_sample_type(pp->p, buf, "count");
	snprintf(buf, sizeof(buf), "%s_event", name);
	e->type_event = pprof_sample_type(pp->p, buf, "count");
	if (e->type_sample < 0 || e->type_event < 0) {
		e->type_sample = e->type_event = -1;
		return -ENOMEM;
	}
	err = pprof_set_default_sample_type(pp->p, buf);
	return err;
}

/* ---- DSOs -------------------------------------------------------------------------- */

/* the recorded build-id of @dso: the BUILD_ID feature's entry for its name, else its MMAP2's */
static void find_build_id(struct pprof_perf *pp, const struct sampo_dso *dso, char *hex)
{
	const struct sampo_features *f = sampo_session__features(pp->session);
	struct sampo_build_id bid = { 0 };
	const uint8_t *b;
	size_t size = 0;

	hex[0] = 0;
	if (f && sampo_features__has(f, SAMPO_FEAT_BUILD_ID)) {
		const char *lname = sampo_dso__long_name(dso), *sname = sampo_dso__short_name(dso);
		int32_t mpid = sampo_dso__machine_pid(dso);

		for (size_t i = 0; i < f->nr_build_ids; i++) {
			const struct sampo_feat_build_id *e = &f->build_ids[i];

			if (!e->filename || (e->pid != mpid && !(mpid == -1 && e->pid == 0)))
				continue;
			if (strcmp(e->filename, lname) && strcmp(e->filename, sname))
				continue;
			if (e->size && e->size <= SAMPO_BUILD_ID_SIZE) {
				memcpy(bid.data, e->build_id, e->size);
				bid.size = e->size;
			}
			break;
		}
	}
	if (!bid.size) {
		b = sampo_dso__build_id(dso, &size);
		if (b && size && size <= SAMPO_BUILD_ID_SIZE) {
			memcpy(bid.data, b, size);
			bid.size = size;
		}
	}
	if (bid.size)
		(void)sampo_build_id__to_hex(&bid, hex, SAMPO_BUILD_ID_HEX_SIZE);
}

static struct pp_dso *dso_info(struct pprof_perf *pp, struct sampo_dso *dso)
{
	struct pp_dso *d;

	/* few DSOs per profile, and the location cache spares most lookups */
	for (size_t i = 0; i < pp->nr_dsos; i++)
		if (pp->dsos[i].dso == dso)
			return &pp->dsos[i];
	if (grow_array((void **)&pp->dsos, &pp->cap_dsos, pp->nr_dsos + 1, sizeof(*pp->dsos)))
		return NULL;
	d = &pp->dsos[pp->nr_dsos++];
	memset(d, 0, sizeof(*d));
	d->dso = sampo_dso__get(dso);
	find_build_id(pp, dso, d->build_id);
	return d;
}

/* the DWARF of @d's file, when its symbols came from an ELF file with addresses */
static struct sampo_srcline *dso_src(struct pprof_perf *pp, struct pp_dso *d)
{
	struct sampo_symbolizer_dso_info info;
	struct sampo_build_id bid, *pbid = NULL;

	if (d->src_tried)
		return d->src;
	if (sampo_symbolizer__dso_info(pp->symbolizer, d->dso, &info))
		return NULL; /* not looked at yet: try again later */
	d->src_tried = true;
	if (info.placement != SAMPO_PLACED_FILE || !info.path)
		return NULL;
	if (d->build_id[0] && !sampo_build_id__from_hex(d->build_id, &bid))
		pbid = &bid;
	if (sampo_srcline__open(info.path, pbid, &d->src))
		d->src = NULL;
	return d->src;
}

/* perf's dso->name as script shows it: the kernel's name, a module's "[name]", the path */
static const char *dso_name(struct sampo_machine *m, struct sampo_dso *dso)
{
	struct sampo_map *kmap = sampo_machine__kernel_map(m);

	if (sampo_dso__is_kernel(dso) && !(kmap && sampo_map__dso(kmap) == dso))
		return sampo_dso__short_name(dso);
	return sampo_dso__long_name(dso);
}

/* ---- locations ------------------------------------------------------------------------ */

/*
 * The location of @ip seen from @thread of machine @m in @cpumode; @leaf:
 * the sampled address itself (else a return address). 0 when out of memory.
 */
static uint64_t make_location(struct pprof_perf *pp, struct sampo_machine *m,
			      struct sampo_thread *thread, uint8_t cpumode, uint64_t ip, bool leaf)
{
	struct sampo_addr_location *al = &pp->chain_al;
	const struct sampo_symbol *sym = NULL;
	const char *module = NULL;
	struct sampo_map *map;
	struct pp_dso *d = NULL;
	uint64_t off = 0, mapping_id = 0, fid;
	struct pprof_line lines[MAX_INLINE];
	size_t nr_lines = 0;
	bool kernel = cpumode == SAMPO_CPUMODE_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_KERNEL;

	map = sampo_machine__find_map(m, thread, cpumode, ip, al);
	if (map) {
		sym = sampo_symbolizer__find_offset(pp->symbolizer, map, ip, &off);
	} else if (kernel) {
		/* a module's init code, or a module loaded after the maps were written */
		sym = sampo_symbolizer__find_unmapped(
			sampo_symbolizer__for_machine(pp->symbolizer, m), ip, &module);
		if (sym && !module) { /* the kernel's own code past its map */
			map = sampo_machine__kernel_map(m);
			if (map)
				sym = sampo_symbolizer__find_offset(pp->symbolizer, map, ip, &off);
		} else if (sym) {
			off = ip - sampo_symbol__start(sym);
		}
	}
	if (map) {
		struct sampo_dso *dso = sampo_map__dso(map);
		struct pprof_mapping pm = {
			.start = sampo_map__start(map),
			.limit = sampo_map__end(map),
			.file_offset = sampo_map__pgoff(map),
			.filename = dso_name(m, dso),
			.has_functions = true,
		};

		d = dso_info(pp, dso);
		if (!d)
			return 0;
		pm.build_id = d->build_id[0] ? d->build_id : NULL;
		mapping_id = pprof_mapping(pp->p, &pm);
		if (!mapping_id)
			return 0;
	} else if (sym && module) {
		char name[256];
		struct pprof_mapping pm = { .filename = name, .has_functions = true };

		/* no map: a mapping of the module's name alone, with no range */
		snprintf(name, sizeof(name), "[%s]", module);
		mapping_id = pprof_mapping(pp->p, &pm);
		if (!mapping_id)
			return 0;
	}
	if (sym) {
		struct sampo_srcline_frame fr[MAX_INLINE];
		struct sampo_srcline *src = NULL;
		size_t nr_fr = 0;
		const char *name = sampo_symbol__name(sym);

		if (d && !pp->opts.no_lines)
			src = dso_src(pp, d);
		/* the file's address: symbols keep the file's; a return address one byte back */
		if (src && sampo_srcline__find(src, sampo_symbol__start(sym) + off - (leaf || !off ? 0 : 1),
					       fr, MAX_INLINE, &nr_fr))
			nr_fr = 0;
		if (pp->opts.no_inline && nr_fr > 1) {
			fr[0] = fr[nr_fr - 1];
			/* the outer function's line at this address is the line of the call chain */
			nr_fr = 1;
		}
		if (!nr_fr) {
			fid = pprof_function(pp->p, name, name, NULL, 0);
			if (!fid)
				return 0;
			lines[nr_lines++] = (struct pprof_line){ fid, 0 };
		}
		for (size_t i = 0; i < nr_fr; i++) {
			/* the outermost is the symbol, named as perf names it */
			const char *fname = i + 1 == nr_fr || !fr[i].function ? name : fr[i].function;

			if (i + 1 < nr_fr && !fr[i].function)
				fname = "[inlined]";
			fid = pprof_function(pp->p, fname, fname, fr[i].decl_file ? fr[i].decl_file : fr[i].file,
					     fr[i].decl_line);
			if (!fid)
				return 0;
			lines[nr_lines++] = (struct pprof_line){ fid, fr[i].line };
		}
	}
	return pprof_location(pp->p, mapping_id, ip, lines, nr_lines);
}

/* make_location() through the cache */
static uint64_t location(struct pprof_perf *pp, struct sampo_machine *m,
			 struct sampo_thread *thread, uint8_t cpumode, uint64_t ip, bool leaf)
{
	bool kernel = cpumode == SAMPO_CPUMODE_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_KERNEL;
	int32_t pid = kernel ? -1 : sampo_thread__pid(thread);
	uint64_t epoch = (uint64_t)sampo_machine__kernel_generation(pp->machine) << 32;
	uint64_t h;
	struct lcache_slot *slot;
	uint64_t loc;

	if (!kernel)
		epoch |= sampo_machine__process_generation(pp->machine, pid);
	h = (uint64_t)(uintptr_t)m * 0x9e3779b97f4a7c15ULL ^ ip * 0xff51afd7ed558ccdULL ^
	    (uint64_t)(uint32_t)pid * 0xc4ceb9fe1a85ec53ULL ^ ((uint64_t)cpumode << 1 | leaf);
	h ^= h >> 29;
	slot = &pp->lcache[h & ((1u << LCACHE_BITS) - 1)];
	if (slot->used && slot->machine == m && slot->ip == ip && slot->pid == pid &&
	    slot->cpumode == cpumode && slot->leaf == leaf && slot->epoch == epoch)
		return slot->loc;
	loc = make_location(pp, m, thread, cpumode, ip, leaf);
	if (loc)
		*slot = (struct lcache_slot){ .machine = m, .ip = ip, .epoch = epoch, .pid = pid,
					      .cpumode = cpumode, .leaf = leaf, .used = true,
					      .loc = loc };
	return loc;
}

/* a context marker's cpumode; false: not a valid one (perf then drops the chain) */
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

/* ---- samples ---------------------------------------------------------------------------- */

int pprof_perf_new(struct pprof *p, struct sampo_session *session,
		   const struct pprof_perf_opts *opts, struct pprof_perf **ret)
{
	struct pprof_perf *pp = calloc(1, sizeof(*pp));

	*ret = NULL;
	if (!pp)
		return -ENOMEM;
	pp->p = p;
	pp->session = session;
	pp->machine = sampo_session__machine(session);
	if (opts)
		pp->opts = *opts;
	if (!pp->opts.max_stack)
		pp->opts.max_stack = MAX_STACK_DEFAULT;
	pp->lcache = calloc(1u << LCACHE_BITS, sizeof(*pp->lcache));
	if (!pp->lcache || refresh_events(pp)) {
		pprof_perf_delete(pp);
		return -ENOMEM;
	}
	*ret = pp;
	return 0;
}

void pprof_perf_delete(struct pprof_perf *pp)
{
	if (!pp)
		return;
	for (size_t i = 0; i < pp->nr_dsos; i++) {
		sampo_srcline__close(pp->dsos[i].src);
		sampo_dso__put(pp->dsos[i].dso);
	}
	free(pp->dsos);
	free(pp->ev);
	free(pp->lcache);
	free(pp->locs);
	free(pp->shares);
	sampo_addr_location__exit(&pp->al);
	sampo_addr_location__exit(&pp->chain_al);
	free(pp);
}

static int add_share(struct pprof_perf *pp, int evsel, uint64_t period)
{
	if (evsel < 0)
		return 0; /* an id of no event: perf counts it in nr_unknown_id */
	if ((size_t)evsel >= pp->nr_ev && refresh_events(pp))
		return -ENOMEM;
	if ((size_t)evsel >= pp->nr_ev)
		return 0;
	if (grow_array((void **)&pp->shares, &pp->cap_shares, pp->nr_shares + 1,
		       sizeof(*pp->shares)))
		return -ENOMEM;
	pp->shares[pp->nr_shares++] = (struct read_share){ evsel, period };
	return event_types(pp, evsel);
}

static int add_read_value(void *arg, const struct sampo_sample_value *v)
{
	return add_share(arg, v->evsel, v->period);
}

/*
 * The events a sample counts for: its own with its period, or, when it
 * reads counters, each value's event with the counter's increase since its
 * last read (perf's deliver_sample_value(): none when it did not increase)
 */
static int sample_shares(struct pprof_perf *pp, const struct sampo_event *ev)
{
	pp->nr_shares = 0;
	if (ev->sample.sample_type & SAMPO_SAMPLE_READ)
		return sampo_session__sample_values(pp->session, ev, add_read_value, pp);
	return add_share(pp, ev->attr_idx, ev->sample.period);
}

int pprof_perf_add_sample(struct pprof_perf *pp, const struct sampo_event *ev)
{
	const struct sampo_sample *s = &ev->sample;
	struct pprof_label labels[MAX_LABELS];
	struct pprof_value values[2];
	struct sampo_machine *m;
	struct sampo_thread *thread;
	size_t nr = 0, nr_labels = 0;
	unsigned lb = pp->opts.labels;
	struct sampo_thread *leader = NULL;
	int err;
	uint64_t loc;

	err = sample_shares(pp, ev);
	if (err || !pp->nr_shares)
		return err;
	if (!pp->symbolizer) {
		pp->symbolizer = sampo_session__symbolizer(pp->session);
		if (!pp->symbolizer)
			return -EINVAL;
	}
	/* without guests, perf report drops guest samples */
	if (!pp->opts.guests &&
	    (s->cpumode == SAMPO_CPUMODE_GUEST_KERNEL || s->cpumode == SAMPO_CPUMODE_GUEST_USER))
		return 0;
	m = sampo_machine__for_cpumode(pp->machine, s->cpumode, (int32_t)s->pid);
	if (!m)
		return -ENOMEM;
	err = sampo_machine__resolve(m, s, &pp->al);
	if (err)
		return err;
	thread = pp->al.thread;
	if (!thread)
		return -ENOMEM;
	if (grow_array((void **)&pp->locs, &pp->cap_locs, pp->opts.max_stack + 1, sizeof(*pp->locs)))
		return -ENOMEM;

	/* the leaf: the sampled address */
	loc = location(pp, m, thread, s->cpumode, s->ip, true);
	if (!loc)
		return -ENOMEM;
	pp->locs[nr++] = loc;

	if ((s->sample_type & SAMPO_SAMPLE_CALLCHAIN) && s->callchain && s->callchain_nr) {
		uint8_t cpumode = SAMPO_CPUMODE_USER;
		bool valid = true, first = true;
		size_t n = 0;

		for (uint64_t i = 0; i < s->callchain_nr; i++) {
			uint8_t c;

			if (s->callchain[i] >= SAMPO_CONTEXT_MAX && !context_cpumode(s->callchain[i], &c))
				valid = false;
		}
		for (uint64_t i = 0; valid && i < s->callchain_nr && n < pp->opts.max_stack; i++) {
			uint64_t ip = s->callchain[i];

			if (ip >= SAMPO_CONTEXT_MAX) {
				context_cpumode(ip, &cpumode);
				continue;
			}
			n++;
			if (first) { /* the sampled ip again */
				first = false;
				continue;
			}
			loc = location(pp, m, thread, cpumode, ip, false);
			if (!loc)
				return -ENOMEM;
			pp->locs[nr++] = loc;
		}
	}

	if (lb & PPROF_LABEL_PID)
		labels[nr_labels++] = (struct pprof_label){ .key = "pid", .num = (int32_t)s->pid };
	if (lb & PPROF_LABEL_TID)
		labels[nr_labels++] = (struct pprof_label){ .key = "tid", .num = (int32_t)s->tid };
	if (lb & PPROF_LABEL_COMM) {
		/* the process's command: its main thread's */
		leader = sampo_machine__find_thread(m, (int32_t)s->pid, (int32_t)s->pid);
		labels[nr_labels++] = (struct pprof_label){
			.key = "comm", .str = sampo_thread__comm(leader ? leader : thread)
		};
	}
	if (lb & PPROF_LABEL_THREAD_COMM)
		labels[nr_labels++] =
			(struct pprof_label){ .key = "thread_comm", .str = sampo_thread__comm(thread) };
	if ((lb & PPROF_LABEL_CPU) && (s->sample_type & SAMPO_SAMPLE_CPU))
		labels[nr_labels++] =
			(struct pprof_label){ .key = "cpu", .num = (int32_t)s->cpu, .num_unit = "cpu" };
	if ((lb & PPROF_LABEL_TIMESTAMP) && (s->sample_type & SAMPO_SAMPLE_TIME))
		/* no unit: a time since boot, not a duration (perf_data_converter sets none) */
		labels[nr_labels++] =
			(struct pprof_label){ .key = "timestamp_ns", .num = (int64_t)s->time };
	if ((lb & PPROF_LABEL_EXECUTION_MODE) && exec_mode(s->cpumode))
		labels[nr_labels++] =
			(struct pprof_label){ .key = "execution_mode", .str = exec_mode(s->cpumode) };
	if (pp->opts.host)
		labels[nr_labels++] = (struct pprof_label){ .key = "host", .str = pp->opts.host };

	for (size_t i = 0; i < pp->nr_shares && !err; i++) {
		struct pp_event *e = &pp->ev[pp->shares[i].evsel];
		uint64_t period = pp->shares[i].period;

		values[0] = (struct pprof_value){ e->type_sample, 1 };
		values[1] = (struct pprof_value){ e->type_event, (int64_t)period };
		err = pprof_add_sample(pp->p, pp->locs, nr, labels, nr_labels, values, 2);
		if (!err) {
			e->nr_samples++;
			e->period += period;
		}
	}
	sampo_thread__put(leader);
	return err;
}

int pprof_perf_finish(struct pprof_perf *pp)
{
	const struct sampo_features *f = sampo_session__features(pp->session);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	int err = 0;

	if (!f)
		return 0;
	/* perf_data_converter's "perf-version:" and "perf-command:" comments, and the host */
	if (sampo_features__has(f, SAMPO_FEAT_VERSION) && f->version) {
		fp = open_memstream(&buf, &len);
		if (!fp)
			return -ENOMEM;
		fprintf(fp, "perf-version:%s", f->version);
		fclose(fp);
		err = pprof_add_comment(pp->p, buf);
		free(buf);
		buf = NULL;
	}
	if (!err && sampo_features__has(f, SAMPO_FEAT_CMDLINE) && f->cmdline.nr) {
		fp = open_memstream(&buf, &len);
		if (!fp)
			return -ENOMEM;
		fputs("perf-command:", fp);
		for (uint32_t i = 0; i < f->cmdline.nr; i++)
			fprintf(fp, "%s%s", i ? " " : "", f->cmdline.strs[i]);
		fclose(fp);
		err = pprof_add_comment(pp->p, buf);
		free(buf);
		buf = NULL;
	}
	if (!err && sampo_features__has(f, SAMPO_FEAT_HOSTNAME) && f->hostname) {
		fp = open_memstream(&buf, &len);
		if (!fp)
			return -ENOMEM;
		fprintf(fp, "hostname:%s", f->hostname);
		if (sampo_features__has(f, SAMPO_FEAT_OSRELEASE) && f->osrelease)
			fprintf(fp, " os-release:%s", f->osrelease);
		if (sampo_features__has(f, SAMPO_FEAT_ARCH) && f->arch)
			fprintf(fp, " arch:%s", f->arch);
		fclose(fp);
		err = pprof_add_comment(pp->p, buf);
		free(buf);
	}
	return err;
}

uint64_t pprof_perf_nr_samples(const struct pprof_perf *pp, int evsel)
{
	return evsel >= 0 && (size_t)evsel < pp->nr_ev ? pp->ev[evsel].nr_samples : 0;
}

uint64_t pprof_perf_total_period(const struct pprof_perf *pp, int evsel)
{
	return evsel >= 0 && (size_t)evsel < pp->nr_ev ? pp->ev[evsel].period : 0;
}
