// SPDX-License-Identifier: LGPL-2.1
/*
 * parse-events.c - perf record's -e: event names and modifiers to specs,
 * specs to the attrs perf record opens, and perf's fallbacks when the
 * kernel refuses them.
 *
 * Only the generic events are known (perf's tools/perf/util/parse-events.c
 * tables of hardware and software events): no PMU names, raw codes,
 * tracepoints or cache events. Modifiers: u, k, p and P (precise, ignored).
 *
 * The attrs follow perf 6.1's choices for the same options (evsel__config()):
 * every event samples IP | TID | TIME | PERIOD, reads ID | LOST, starts
 * disabled with sample_id_all and exclude_guest, inherits unless -t; the
 * first one tracks (mmap, mmap2, comm, comm_exec, task, ksymbol, bpf_event,
 * and build-ids in MMAP2 records when recording per task).
 *
 * Fallbacks (evsel__fallback() and perf record's paranoid retry), tried by
 * the caller in a loop: each one changes the specs so that a second failure
 * of the same kind finds nothing left to change, so the loop ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/event.h>
#include <sampo/parse-events.h>
#include <sampo/regs.h>
#include "internal/util.h"
#include "internal/opts.h"

#define DEFAULT_FREQ_HZ 4000 /* perf's default sampling frequency */

struct event_name {
	const char *name;
	uint32_t type;
	uint64_t config;
};

/* perf's names for the generic events (tools/perf/util/parse-events.c) */
static const struct event_name event_names[] = {
	{ "cycles", SAMPO_TYPE_HARDWARE, 0 },
	{ "cpu-cycles", SAMPO_TYPE_HARDWARE, 0 },
	{ "instructions", SAMPO_TYPE_HARDWARE, 1 },
	{ "cache-references", SAMPO_TYPE_HARDWARE, 2 },
	{ "cache-misses", SAMPO_TYPE_HARDWARE, 3 },
	{ "branch-instructions", SAMPO_TYPE_HARDWARE, 4 },
	{ "branches", SAMPO_TYPE_HARDWARE, 4 },
	{ "branch-misses", SAMPO_TYPE_HARDWARE, 5 },
	{ "bus-cycles", SAMPO_TYPE_HARDWARE, 6 },
	{ "stalled-cycles-frontend", SAMPO_TYPE_HARDWARE, 7 },
	{ "stalled-cycles-backend", SAMPO_TYPE_HARDWARE, 8 },
	{ "ref-cycles", SAMPO_TYPE_HARDWARE, 9 },
	{ "cpu-clock", SAMPO_TYPE_SOFTWARE, 0 },
	{ "task-clock", SAMPO_TYPE_SOFTWARE, 1 },
	{ "page-faults", SAMPO_TYPE_SOFTWARE, 2 },
	{ "faults", SAMPO_TYPE_SOFTWARE, 2 },
	{ "context-switches", SAMPO_TYPE_SOFTWARE, 3 },
	{ "cs", SAMPO_TYPE_SOFTWARE, 3 },
	{ "cpu-migrations", SAMPO_TYPE_SOFTWARE, 4 },
	{ "migrations", SAMPO_TYPE_SOFTWARE, 4 },
	{ "minor-faults", SAMPO_TYPE_SOFTWARE, 5 },
	{ "major-faults", SAMPO_TYPE_SOFTWARE, 6 },
	{ "alignment-faults", SAMPO_TYPE_SOFTWARE, 7 },
	{ "emulation-faults", SAMPO_TYPE_SOFTWARE, 8 },
	{ "dummy", SAMPO_TYPE_SOFTWARE, 9 },
};

#define HW_CPU_CYCLES 0 /* PERF_COUNT_HW_CPU_CYCLES */

int sampo_event_spec__parse(const char *str, size_t len, struct sampo_event_spec *ret)
{
	struct sampo_event_spec ev;
	char name[SAMPO_EVENT_SPEC_NAME_SIZE];
	char *mods;

	if (!str || !ret || len == 0 || len >= sizeof(name) || memchr(str, '\0', len))
		return -EINVAL;
	memcpy(name, str, len);
	name[len] = '\0';
	memset(&ev, 0, sizeof(ev));
	memcpy(ev.name, name, len + 1);
	mods = strchr(name, ':');
	if (mods) {
		bool guest_excluded = false;

		*mods++ = '\0';
		for (const char *m = mods; *m; m++) {
			if (*m == 'u')
				ev.exclude_kernel = true;
			else if (*m == 'k')
				ev.exclude_user = true;
			else if (*m != 'p' && *m != 'P')
				return -EINVAL;
			/*
			 * perf's get_event_modifier(): the first of u or k excludes
			 * every level but those named, the hypervisor's too; u, and p
			 * (precise needs it), exclude guests, k alone does not
			 */
			if (*m == 'u' || *m == 'k')
				ev.exclude_hv = true;
			if (*m == 'u' || *m == 'p')
				guest_excluded = true;
		}
		if (ev.exclude_kernel && ev.exclude_user)
			ev.exclude_kernel = ev.exclude_user = false; /* ":uk" is both */
		ev.include_guest = !guest_excluded;
	}
	for (size_t i = 0; i < ARRAY_SIZE(event_names); i++) {
		if (!strcmp(event_names[i].name, name)) {
			ev.type = event_names[i].type;
			ev.config = event_names[i].config;
			*ret = ev;
			return 0;
		}
	}
	return -ENOENT;
}

int sampo_event_specs__parse(const char *list, struct sampo_event_spec *specs, size_t max,
			     size_t *ret_nr, size_t *ret_bad_off)
{
	const char *p = list;
	size_t nr = 0;
	int err = 0;

	if (!list || !specs || !ret_nr)
		return -EINVAL;
	while (*p) {
		size_t len = strcspn(p, ",");

		if (nr >= max) {
			err = -E2BIG;
			break;
		}
		err = sampo_event_spec__parse(p, len, &specs[nr]);
		if (err) {
			if (ret_bad_off)
				*ret_bad_off = (size_t)(p - list);
			break;
		}
		nr++;
		p += len;
		if (*p == ',')
			p++;
	}
	*ret_nr = nr;
	return err;
}

/* perf_event.h's branch_sample_type bits for an LBR call stack */
#define SAMPO_BRANCH_USER	(1ULL << 0)
#define SAMPO_BRANCH_CALL_STACK (1ULL << 11)
#define SAMPO_BRANCH_NO_FLAGS	(1ULL << 14)
#define SAMPO_BRANCH_NO_CYCLES	(1ULL << 15)

/* the next comma-separated token of *@p, empty ones skipped (strtok_r()) */
static bool next_token(const char **p, const char **tok, size_t *len)
{
	while (**p == ',')
		(*p)++;
	if (!**p)
		return false;
	*tok = *p;
	*len = strcspn(*p, ",");
	*p += *len;
	return true;
}

/* strtoul(tok, &end, 0) over exactly @len bytes; false: trailing junk */
static bool token_ulong(const char *tok, size_t len, unsigned long *ret)
{
	char buf[64], *end;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, tok, len);
	buf[len] = '\0';
	*ret = strtoul(buf, &end, 0);
	return *end == '\0';
}

int sampo_callgraph__parse(const char *arg, unsigned long max_stack_limit,
			   struct sampo_callgraph *ret)
{
	const char *p = arg, *tok = NULL;
	size_t len = 0;
	unsigned long v;

	if (!arg || !ret)
		return -EINVAL;
	memset(ret, 0, sizeof(*ret));
	if (!next_token(&p, &tok, &len))
		return -EINVAL;
	if (len == 2 && !memcmp(tok, "fp", 2)) {
		ret->mode = SAMPO_CALLGRAPH_FP;
		/* perf takes N only below the limit; "fp,x" reads as 0, the default */
		if (next_token(&p, &tok, &len)) {
			char buf[64];

			snprintf(buf, sizeof(buf), "%.*s", (int)MIN(len, sizeof(buf) - 1), tok);
			v = strtoul(buf, NULL, 0);
			if (v < max_stack_limit)
				ret->max_stack = (uint16_t)v;
		}
		return 0;
	}
	if (len == 5 && !memcmp(tok, "dwarf", 5)) {
		ret->mode = SAMPO_CALLGRAPH_DWARF;
		ret->dump_size = SAMPO_CALLGRAPH_DWARF_DEFAULT_SIZE;
		if (next_token(&p, &tok, &len)) {
			if (!token_ulong(tok, len, &v) || v > SAMPO_CALLGRAPH_DWARF_MAX_SIZE)
				return -ERANGE;
			v = (v + 7) & ~7ul;
			if (!v || v > SAMPO_CALLGRAPH_DWARF_MAX_SIZE)
				return -ERANGE;
			ret->dump_size = (uint32_t)v;
		}
		return 0;
	}
	if (len == 3 && !memcmp(tok, "lbr", 3)) {
		ret->mode = SAMPO_CALLGRAPH_LBR;
		return next_token(&p, &tok, &len) ? -E2BIG : 0;
	}
	return -EINVAL;
}

/* perf's evsel__config_callchain() and, for dwarf, its sample_address */
static void config_callgraph(struct sampo_event_attr *a, const struct sampo_callgraph *cg,
			     bool tracking)
{
	switch (cg->mode) {
	case SAMPO_CALLGRAPH_FP:
		a->sample_type |= SAMPO_SAMPLE_CALLCHAIN;
		a->sample_max_stack = cg->max_stack;
		break;
	case SAMPO_CALLGRAPH_DWARF:
		a->sample_type |= SAMPO_SAMPLE_CALLCHAIN | SAMPO_SAMPLE_REGS_USER |
				  SAMPO_SAMPLE_STACK_USER | SAMPO_SAMPLE_ADDR |
				  SAMPO_SAMPLE_DATA_SRC;
		/*
		 * perf's evsel__config_callchain(): all of them, or with a
		 * --user-regs list, those and the minimal set (SP, IP)
		 */
		a->sample_regs_user |= a->sample_regs_user ? sampo_reg__dwarf_minimal_mask() :
							     sampo_reg__user_mask();
		a->sample_stack_user = cg->dump_size;
		a->flags |= SAMPO_ATTR_EXCLUDE_CALLCHAIN_USER;
		if (tracking)
			a->flags |= SAMPO_ATTR_MMAP_DATA;
		break;
	case SAMPO_CALLGRAPH_LBR:
		a->sample_type |= SAMPO_SAMPLE_CALLCHAIN;
		/* perf falls back to frame pointers for an event that excludes user */
		if (a->flags & SAMPO_ATTR_EXCLUDE_USER)
			break;
		a->sample_type |= SAMPO_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = SAMPO_BRANCH_USER | SAMPO_BRANCH_CALL_STACK |
					SAMPO_BRANCH_NO_CYCLES | SAMPO_BRANCH_NO_FLAGS |
					SAMPO_SAMPLE_BRANCH_HW_INDEX;
		break;
	default:
		break;
	}
}

int sampo_event_specs__attrs(const struct sampo_event_spec *specs, size_t nr,
			     const struct sampo_event_attr_opts *opts,
			     struct sampo_event_attr *ret_attrs)
{
	uint64_t freq = OPTS_GET(opts, freq_hz, (uint64_t)0);
	uint64_t period = OPTS_GET(opts, period, (uint64_t)0);
	bool system_wide = OPTS_GET(opts, system_wide, false);
	const struct sampo_callgraph *cg = OPTS_GET(opts, callgraph, NULL);

	if (!specs || !nr || !ret_attrs || !OPTS_VALID(opts, sampo_event_attr_opts))
		return -EINVAL;
	if (cg && cg->mode == SAMPO_CALLGRAPH_DWARF &&
	    (!sampo_reg__user_mask() || !cg->dump_size || cg->dump_size % 8 ||
	     cg->dump_size > SAMPO_CALLGRAPH_DWARF_MAX_SIZE))
		return -EINVAL;
	if (!freq && !period)
		freq = DEFAULT_FREQ_HZ;
	for (size_t i = 0; i < nr; i++) {
		const struct sampo_event_spec *ev = &specs[i];
		struct sampo_event_attr *a = &ret_attrs[i];

		memset(a, 0, sizeof(*a));
		a->type = ev->type;
		a->size = SAMPO_ATTR_SIZE_VER7;
		a->config = ev->config;
		a->sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |
				 SAMPO_SAMPLE_PERIOD;
		if (OPTS_GET(opts, callchain, false))
			a->sample_type |= SAMPO_SAMPLE_CALLCHAIN;
		if (system_wide || OPTS_GET(opts, sample_cpu, false))
			a->sample_type |= SAMPO_SAMPLE_CPU;
		if (OPTS_GET(opts, sample_address, false))
			a->sample_type |= SAMPO_SAMPLE_ADDR | SAMPO_SAMPLE_DATA_SRC;
		if (OPTS_GET(opts, intr_regs, (uint64_t)0)) {
			a->sample_type |= SAMPO_SAMPLE_REGS_INTR;
			a->sample_regs_intr = opts->intr_regs;
		}
		if (OPTS_GET(opts, user_regs, (uint64_t)0)) {
			a->sample_type |= SAMPO_SAMPLE_REGS_USER;
			a->sample_regs_user = opts->user_regs;
		}
		if (nr > 1)
			a->sample_type |= SAMPO_SAMPLE_ID;
		a->read_format = SAMPO_FORMAT_ID | SAMPO_FORMAT_LOST;
		if (period) {
			a->sample_period = period;
		} else {
			a->sample_period = freq;
			a->flags |= SAMPO_ATTR_FREQ;
		}
		a->flags |= SAMPO_ATTR_DISABLED | SAMPO_ATTR_SAMPLE_ID_ALL;
		if (!ev->include_guest)
			a->flags |= SAMPO_ATTR_EXCLUDE_GUEST;
		if (ev->exclude_hv)
			a->flags |= SAMPO_ATTR_EXCLUDE_HV;
		if (!OPTS_GET(opts, per_thread, false) && !OPTS_GET(opts, no_inherit, false))
			a->flags |= SAMPO_ATTR_INHERIT;
		if (OPTS_GET(opts, enable_on_exec, false) && !system_wide)
			a->flags |= SAMPO_ATTR_ENABLE_ON_EXEC;
		if (ev->exclude_user)
			a->flags |= SAMPO_ATTR_EXCLUDE_USER;
		if (ev->exclude_kernel)
			a->flags |= SAMPO_ATTR_EXCLUDE_KERNEL;
		/* perf's evsel__config(): they override the events' modifiers */
		if (OPTS_GET(opts, all_user, false))
			a->flags =
				(a->flags | SAMPO_ATTR_EXCLUDE_KERNEL) & ~SAMPO_ATTR_EXCLUDE_USER;
		if (OPTS_GET(opts, all_kernel, false))
			a->flags =
				(a->flags | SAMPO_ATTR_EXCLUDE_USER) & ~SAMPO_ATTR_EXCLUDE_KERNEL;
		if (cg)
			config_callgraph(a, cg, i == 0);
		if (i > 0)
			continue;
		/* the tracking event: maps, comms and tasks come with it */
		a->flags |= SAMPO_ATTR_MMAP | SAMPO_ATTR_COMM | SAMPO_ATTR_TASK | SAMPO_ATTR_MMAP2 |
			    SAMPO_ATTR_COMM_EXEC | SAMPO_ATTR_KSYMBOL | SAMPO_ATTR_BPF_EVENT;
		if (OPTS_GET(opts, switch_events, false))
			a->flags |= SAMPO_ATTR_CONTEXT_SWITCH;
		if (OPTS_GET(opts, namespaces, false))
			a->flags |= SAMPO_ATTR_NAMESPACES;
		if (OPTS_GET(opts, sample_address, false))
			a->flags |= SAMPO_ATTR_MMAP_DATA;
		/*
		 * Not system-wide: on the kernels tried here (6.18), one event
		 * with attr.build_id on every CPU makes the kernel mark the
		 * MMAP2 records of OTHER sessions as build-id records while
		 * they hold maj/min/ino, and a perf 6.1 running meanwhile dies
		 * on them ("assertion failed at util/build-id.c"). perf
		 * --buildid-mmap -a does the same. Per task, only the MMAP2
		 * records of the recorded tasks are at stake.
		 */
		if (!OPTS_GET(opts, no_buildid_mmap, false) && !system_wide)
			a->flags |= SAMPO_ATTR_BUILD_ID;
	}
	return 0;
}

bool sampo_event_open_error__missing(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -ENOSYS;
}

/* perf record's retry where perf_event_paranoid forbids kernel sampling */
static bool fallback_user_only(struct sampo_event_spec *specs, size_t nr)
{
	bool changed = false;

	for (size_t i = 0; i < nr; i++) {
		struct sampo_event_spec *ev = &specs[i];
		size_t len = strlen(ev->name);

		if (ev->exclude_kernel)
			continue;
		ev->exclude_kernel = true;
		ev->exclude_user = false;
		ev->exclude_hv = true; /* perf's evsel__fallback() */
		if (!strchr(ev->name, ':') && len + 2 < sizeof(ev->name))
			memcpy(ev->name + len, ":u", 3);
		changed = true;
	}
	return changed;
}

/* perf's evsel__fallback(): hardware cycles missing (most VMs) becomes cpu-clock */
static bool fallback_cpu_clock(struct sampo_event_spec *ev)
{
	char name[SAMPO_EVENT_SPEC_NAME_SIZE];
	const char *mods;
	int len;

	if (ev->type != SAMPO_TYPE_HARDWARE || ev->config != HW_CPU_CYCLES)
		return false;
	mods = strchr(ev->name, ':');
	len = snprintf(name, sizeof(name), "cpu-clock%s", mods ? mods : "");
	if (len < 0 || (size_t)len >= sizeof(name))
		return false;
	return sampo_event_spec__parse(name, (size_t)len, ev) == 0;
}

bool sampo_event_specs__fallback(struct sampo_event_spec *specs, size_t nr, int failed, int err,
				 enum sampo_event_fallback *ret_what)
{
	enum sampo_event_fallback what = SAMPO_EVENT_FALLBACK_NONE;

	if (!specs)
		return false;
	if ((err == -EACCES || err == -EPERM) && fallback_user_only(specs, nr))
		what = SAMPO_EVENT_FALLBACK_USER_ONLY;
	else if (sampo_event_open_error__missing(err) && failed >= 0 && (size_t)failed < nr &&
		 fallback_cpu_clock(&specs[failed]))
		what = SAMPO_EVENT_FALLBACK_CPU_CLOCK;
	if (what == SAMPO_EVENT_FALLBACK_NONE)
		return false;
	if (ret_what)
		*ret_what = what;
	return true;
}

/* The first integer of a small /proc file; false when missing or not a number. */
static bool read_proc_number(const char *proc_dir, const char *name, long long *ret)
{
	char path[4096];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/%s", proc_dir ? proc_dir : "/proc", name);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fscanf(f, "%lld", ret) == 1;
	fclose(f);
	return ok;
}

void sampo_event_limits__read(const char *proc_dir, int *ret_paranoid, uint64_t *ret_max_rate_hz)
{
	long long v;

	if (ret_paranoid)
		*ret_paranoid = read_proc_number(proc_dir, "sys/kernel/perf_event_paranoid", &v) &&
						v >= -1000 && v <= 1000
					? (int)v
					: -1;
	if (ret_max_rate_hz)
		*ret_max_rate_hz =
			read_proc_number(proc_dir, "sys/kernel/perf_event_max_sample_rate", &v) &&
					v > 0
				? (uint64_t)v
				: 0;
}
