// SPDX-License-Identifier: LGPL-2.1
/*
 * evsel.c - names of events (include/sampo/evsel.h), as perf's evsel__name()
 * makes them: the EVENT_DESC name of the event's position, else one made from
 * its attr (type, config, then the modifiers of its exclude and precise bits).
 * This is the only place that names events; the session
 * (lib/session.c) adds the EVENT_UPDATE renames on top.
 *
 * It also rebuilds the event groups from GROUP_DESC (sampo_evsel__groups()):
 * the file keeps only each group's leader index and size, and which events
 * belong to which leader follows from the attr order, as in perf.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/event.h>
#include <sampo/evsel.h>
#include <sampo/feature.h>

#include "internal/util.h"

static const char *const hw_names[] = {
	"cycles",
	"instructions",
	"cache-references",
	"cache-misses",
	"branches",
	"branch-misses",
	"bus-cycles",
	"stalled-cycles-frontend",
	"stalled-cycles-backend",
	"ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock",	    "task-clock",   "page-faults",  "context-switches",
	"cpu-migrations",   "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy",	    "bpf-output",   "cgroup-switches",
};

static const char *const hw_cache_names[][3] = {
	{ "L1-dcache", "l1-d", "l1d" }, { "L1-icache", "l1-i", "l1i" },
	{ "LLC", "L2", NULL },		{ "dTLB", "d-tlb", NULL },
	{ "iTLB", "i-tlb", NULL },	{ "branch", "branches", "bpu" },
	{ "node", NULL, NULL },
};

static const char *const hw_cache_op_names[][3] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read" },
};

static const char *const hw_cache_result_names[][3] = {
	{ "refs", "Reference", "ops" },
	{ "misses", "miss", NULL },
};

/* perf's evsel__add_modifiers() */
static size_t add_modifiers(const struct sampo_event_attr *attr, char *bf, size_t size)
{
	size_t r = 0, colon = 0;
	bool exclude_guest_default = false;
	unsigned int precise = (attr->flags >> SAMPO_ATTR_PRECISE_IP_SHIFT) & 3;

#define MOD_PRINT(flag, mod)                     \
	do {                                     \
		if (!(attr->flags & (flag))) {   \
			if (!colon)              \
				colon = ++r;     \
			if (r < size)            \
				bf[r++] = (mod); \
		}                                \
	} while (0)

	if (attr->flags &
	    (SAMPO_ATTR_EXCLUDE_KERNEL | SAMPO_ATTR_EXCLUDE_USER | SAMPO_ATTR_EXCLUDE_HV)) {
		MOD_PRINT(SAMPO_ATTR_EXCLUDE_KERNEL, 'k');
		MOD_PRINT(SAMPO_ATTR_EXCLUDE_USER, 'u');
		MOD_PRINT(SAMPO_ATTR_EXCLUDE_HV, 'h');
		exclude_guest_default = true;
	}
	if (precise) {
		if (!colon)
			colon = ++r;
		for (unsigned int i = 0; i < precise && r < size; i++)
			bf[r++] = 'p';
		exclude_guest_default = true;
	}
	if ((attr->flags & SAMPO_ATTR_EXCLUDE_HOST) ||
	    !!(attr->flags & SAMPO_ATTR_EXCLUDE_GUEST) == exclude_guest_default) {
		MOD_PRINT(SAMPO_ATTR_EXCLUDE_HOST, 'H');
		MOD_PRINT(SAMPO_ATTR_EXCLUDE_GUEST, 'G');
	}
#undef MOD_PRINT
	if (colon && colon - 1 < size)
		bf[colon - 1] = ':';
	return r < size ? r : size;
}

char *sampo_evsel__default_name(const struct sampo_event_attr *attr)
{
	char bf[128];
	size_t n = 0;
	bool mods = true;

	switch (attr->type) {
	case SAMPO_TYPE_HARDWARE:
		n = (size_t)snprintf(bf, sizeof(bf), "%s",
				     attr->config < ARRAY_SIZE(hw_names) ? hw_names[attr->config] :
									   "unknown-hardware");
		break;
	case SAMPO_TYPE_SOFTWARE:
		n = (size_t)snprintf(bf, sizeof(bf), "%s",
				     attr->config < ARRAY_SIZE(sw_names) ? sw_names[attr->config] :
									   "unknown-software");
		break;
	case SAMPO_TYPE_HW_CACHE: {
		uint64_t type = attr->config & 0xff, op = (attr->config >> 8) & 0xff;
		uint64_t result = (attr->config >> 16) & 0xff;

		if (type < ARRAY_SIZE(hw_cache_names) && op < ARRAY_SIZE(hw_cache_op_names) &&
		    result < ARRAY_SIZE(hw_cache_result_names))
			n = (size_t)snprintf(bf, sizeof(bf), "%s-%s-%s", hw_cache_names[type][0],
					     hw_cache_op_names[op][0],
					     hw_cache_result_names[result][0]);
		else
			n = (size_t)snprintf(bf, sizeof(bf), "%s", "invalid-cache");
		break;
	}
	case SAMPO_TYPE_RAW:
		n = (size_t)snprintf(bf, sizeof(bf), "raw 0x%" PRIx64, attr->config);
		break;
	case SAMPO_TYPE_BREAKPOINT: {
		static const char rwx[] = "rwx";

		n = (size_t)snprintf(bf, sizeof(bf), "mem:0x%" PRIx64 ":", attr->config1);
		for (int i = 0; i < 3 && n < sizeof(bf) - 1; i++) {
			if (attr->bp_type & (1U << i))
				bf[n++] = rwx[i];
		}
		bf[n] = 0;
		break;
	}
	case SAMPO_TYPE_TRACEPOINT:
		n = (size_t)snprintf(bf, sizeof(bf), "%s", "unknown tracepoint");
		mods = false;
		break;
	default:
		n = (size_t)snprintf(bf, sizeof(bf), "unknown attr type: %" PRIu32, attr->type);
		mods = false;
		break;
	}
	if (n >= sizeof(bf))
		n = sizeof(bf) - 1;
	if (mods)
		n += add_modifiers(attr, bf + n, sizeof(bf) - 1 - n);
	bf[n] = 0;
	return strdup(bf);
}


const char *sampo_evsel__desc_name(const struct sampo_features *f, size_t idx)
{
	if (!f || !sampo_features__has(f, SAMPO_FEAT_EVENT_DESC) || idx >= f->nr_events)
		return NULL;
	return f->events[idx].name;
}

char *sampo_evsel__name(const struct sampo_features *f, size_t idx,
			const struct sampo_event_attr *attr)
{
	const char *name = sampo_evsel__desc_name(f, idx);

	return name ? strdup(name) : sampo_evsel__default_name(attr);
}

int sampo_evsel__groups(const struct sampo_features *f, size_t nr_evsels,
			struct sampo_evsel_group **ret_groups, bool *ret_consistent)
{
	struct sampo_evsel_group *g = NULL;
	uint32_t i = 0, nr = 0;
	size_t leader = 0;
	bool consistent = true;

	if (nr_evsels) {
		g = calloc(nr_evsels, sizeof(*g));
		if (!g)
			return -ENOMEM;
	}
	for (size_t e = 0; e < nr_evsels; e++) {
		g[e].leader = e;
		g[e].nr_members = 1;
	}
	if (!f || !sampo_features__has(f, SAMPO_FEAT_GROUP_DESC))
		goto out;

	for (size_t e = 0; e < nr_evsels; e++) {
		if (i < f->nr_groups && e == f->groups[i].leader_idx) {
			if (strcmp(f->groups[i].name, "{anon_group}"))
				g[e].name = f->groups[i].name;
			g[e].nr_members = f->groups[i].nr_members;
			/* a group starting inside another: perf stops here */
			if (nr > 0) {
				consistent = false;
				goto out;
			}
			leader = e;
			/* nr_members 0 wraps, as perf's does: the rest are members */
			nr = f->groups[i].nr_members - 1;
			i++;
		} else if (nr) {
			g[e].leader = leader;
			nr--;
		}
	}
	consistent = i == f->nr_groups && nr == 0;
out:
	*ret_groups = g;
	if (ret_consistent)
		*ret_consistent = consistent;
	return 0;
}
