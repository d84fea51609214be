// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-script.c - `sampo script`: one line per sample, with the fields of
 * perf 6.1's `perf script -F ...` (comm, tid, pid, cpu, time, period, event,
 * ip, sym, symoff, dso), in perf's format, so that samples can be compared
 * with perf's, or scored against a ground truth, line by line.
 *
 * Flow: a session (ordered, as perf delivers records) feeds every record to
 * the machine and names the events; each SAMPLE is resolved to its thread and map, symbolized by
 * the symbolizer (which picks files by build-id, relocates the kernel, places
 * modules) and formatted into the outbuf:
 *
 *	<comm> <pid>/<tid> [<cpu>] <sec>.<usec>: <period> <event>: <ip> <sym>+<off> (<dso>)
 *
 * each part only when its field is selected, with perf's widths. A sample
 * with a call chain (and -F ip, without -G) prints the chain instead of the
 * ip, one "\t<ip> <sym> (<dso>)" line per entry then an empty line, as perf
 * does: user-space entries show the address in the DSO, kernel ones the
 * address itself.
 *
 * Fields asked for with -F must be in the samples (perf's evsel__check_attr);
 * the default field set silently drops the ones that are not.
 *
 * The text of an address (" <ip> <sym>+<off> (<dso>)") is kept in a frame
 * cache, per thread and address, as long as the process's and the kernel's
 * maps do not change (the machine's generation counters): a sample's ip and
 * each callchain entry are then one hash probe and one copy instead of a map
 * lookup, a symbol lookup and the formatting (issue 16: half of script's time
 * on a real recording with callchains).
 *
 * --folded prints folded stacks instead (folded.c, docs/format-folded.md):
 * the frames are those of the printed call chains, counted per distinct
 * stack as perf's stackcollapse script counts them. --folded=flamegraph
 * prints what FlameGraph's stackcollapse-perf.pl makes of the text: the
 * text is printed as usual, into the collapser (collapse.c) instead of
 * stdout, which reads it by the Perl script's rules.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sampo/cpuset.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/kmodule.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/regs.h>
#include <sampo/record.h>
#include <sampo/sample.h>
#include <sampo/session.h>
#include <sampo/srclines.h>
#include <sampo/symbol.h>
#include <sampo/symbol-filter.h>
#include <sampo/symbolizer.h>
#include <sampo/time-range.h>
#include <sampo/trace-data.h>

#include "archive-read.h"
#include "builtin.h"
#include "cli.h"
#include "collapse.h"
#include "data-src.h"
#include "debuginfod-cli.h"
#include "evswitch.h"
#include "folded.h"
#include "format-json.h"
#include "format-speedscope.h"
#include "options.h"
#include "perf-options.h"
#include "outbuf.h"
#include "record-text.h"
#include "profile.h"
#include "resolve.h"
#include "unwind-cli.h"

#define PERF_CONTEXT_MAX     ((uint64_t)-4095)
#define PERF_CONTEXT_HV	     ((uint64_t)-32)
#define PERF_CONTEXT_KERNEL  ((uint64_t)-128)
#define PERF_CONTEXT_USER    ((uint64_t)-512)

#define PERF_COUNT_SW_DUMMY  9 /* the software event that only carries side-band records */
#define PERF_TYPE_MAX	     6 /* perf script's fields are per type; PMUs' types share one */
#define PERF_MAX_STACK_DEPTH 127

static const char *const script_usage[] = {
	"sampo script [<options>]",
	"",
	"Print the samples of a perf.data file one per line, as 'perf script' does.",
	NULL,
};

enum script_field {
	F_COMM,
	F_TID,
	F_PID,
	F_CPU,
	F_TOD,
	F_TIME,
	F_PERIOD,
	F_EVENT,
	F_TRACE,
	F_IP,
	F_SYM,
	F_SYMOFF,
	F_DSO,
	F_SRCLINE,
	F_ADDR,
	F_DATA_SRC,
	F_WEIGHT,
	F_INS_LAT,
	F_PHYS_ADDR,
	F_BRSTACK,
	F_BRSTACKSYM,
	F_IREGS,
	F_UREGS,
	F_MAX,
};

/* -F names, and the sample_type bit each one needs (0: none) */
static const struct {
	const char *name;
	uint64_t needs;
	const char *attr_name; /* perf's word for the missing attribute */
} field_info[F_MAX] = {
	[F_COMM] = { "comm", SAMPO_SAMPLE_TID, "TID" },
	[F_TID] = { "tid", SAMPO_SAMPLE_TID, "TID" },
	[F_PID] = { "pid", SAMPO_SAMPLE_TID, "TID" },
	[F_CPU] = { "cpu", SAMPO_SAMPLE_CPU, "CPU" },
	/* the time of day, from CLOCK_DATA (record -k): checked by check_evsel() */
	[F_TOD] = { "tod", 0, NULL },
	[F_TIME] = { "time", SAMPO_SAMPLE_TIME, "TIME" },
	/* without PERIOD in sample_type a sample's period is the event's fixed
	 * sample_period (sample.c): perf prints that column too */
	[F_PERIOD] = { "period", 0, NULL },
	[F_EVENT] = { "event", 0, NULL },
	/* a tracepoint's fields, formatted by its print format (trace-data.h) */
	[F_TRACE] = { "trace", SAMPO_SAMPLE_RAW, "RAW" },
	[F_IP] = { "ip", SAMPO_SAMPLE_IP, "IP" },
	[F_SYM] = { "sym", SAMPO_SAMPLE_IP, "IP" },
	[F_SYMOFF] = { "symoff", SAMPO_SAMPLE_IP, "IP" },
	[F_DSO] = { "dso", SAMPO_SAMPLE_IP, "IP" },
	[F_SRCLINE] = { "srcline", SAMPO_SAMPLE_IP, "IP" },
	[F_ADDR] = { "addr", SAMPO_SAMPLE_ADDR, "ADDR" },
	[F_DATA_SRC] = { "data_src", SAMPO_SAMPLE_DATA_SRC, "DATA_SRC" },
	[F_WEIGHT] = { "weight", SAMPO_SAMPLE_WEIGHT | SAMPO_SAMPLE_WEIGHT_STRUCT, "WEIGHT" },
	[F_INS_LAT] = { "ins_lat", SAMPO_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	[F_PHYS_ADDR] = { "phys_addr", SAMPO_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	[F_BRSTACK] = { "brstack", SAMPO_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	[F_BRSTACKSYM] = { "brstacksym", SAMPO_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	[F_IREGS] = { "iregs", SAMPO_SAMPLE_REGS_INTR, "IREGS" },
	[F_UREGS] = { "uregs", SAMPO_SAMPLE_REGS_USER, "UREGS" },
};

/* perf's default for hardware and software events */
#define DEFAULT_FIELDS                                                                        \
	((1u << F_COMM) | (1u << F_TID) | (1u << F_CPU) | (1u << F_TIME) | (1u << F_PERIOD) | \
	 (1u << F_EVENT) | (1u << F_IP) | (1u << F_SYM) | (1u << F_SYMOFF) | (1u << F_DSO))
/*
 * perf's default for tracepoints; with the symbols of their call chains when
 * they have them
 */
#define TRACEPOINT_FIELDS                                                                      \
	((1u << F_COMM) | (1u << F_TID) | (1u << F_CPU) | (1u << F_TIME) | (1u << F_EVENT) |  \
	 (1u << F_TRACE))
#define TRACEPOINT_CHAIN_FIELDS ((1u << F_IP) | (1u << F_SYM) | (1u << F_SYMOFF) | (1u << F_DSO))

/*
 * perf's default for raw events (PERF_TYPE_RAW, the memory events of perf
 * mem and perf c2c) adds these, each where the samples have it
 */
#define RAW_EXTRA_FIELDS                                                                      \
	((1u << F_ADDR) | (1u << F_DATA_SRC) | (1u << F_WEIGHT) | (1u << F_INS_LAT) |         \
	 (1u << F_PHYS_ADDR))

/* --per-event-dump: INPUT.EVENT.dump */
struct dump_file {
	char *path;
	FILE *fp;
	uint64_t samples;
};

struct script_evsel {
	unsigned fields; /* F_* bits printed for this event */
	bool checked;
};

/*
 * One rendered address: its text as print_callchain() or process_sample()
 * wrote it, valid while the epoch (kernel generation << 32 | the process's
 * generation) holds. Longer texts are not kept.
 */
#define FCACHE_BITS 13
#define FCACHE_TEXT 216
struct fcache_slot {
	const void *thread;
	uint64_t ip;
	uint64_t epoch;
	unsigned fields;
	int32_t pid;
	uint8_t cpumode;
	uint8_t kind; /* FC_CHAIN or FC_SELF */
	uint8_t len;  /* 0: empty */
	char text[FCACHE_TEXT];
};
enum { FC_CHAIN = 1, FC_SELF = 2 };

struct script_ctx {
	struct sampo_session *session;
	struct sampo_reader *reader;	     /* the session's */
	struct sampo_machine *machine;	     /* the session's */
	struct sampo_symbolizer *symbolizer; /* the session's, from the first sample on */
	struct sampo_symbolizer_opts sym_opts;
	const char *input;

	unsigned fields;     /* F_* bits asked for */
	bool user_fields;    /* -F given: a missing field is an error */
	bool fields_relative; /* -F +f or -f: the changes apply to each event type's defaults */
	unsigned fields_removed; /* what -F -f took away */
	unsigned fields_added;	 /* what -F +f added */
	bool hide_callchain; /* -G */
	int max_stack;	     /* --max-stack: chain entries printed (perf's default 127) */
	const char *stop_bt; /* --stop-bt: chains end after an entry in these functions */
	struct cli_word_list stop_bt_list;
	bool inline_frames;  /* --inline: inlined functions in call chains */
	bool full_source_path; /* --full-source-path: srcline's whole path */
	bool use_callchain;  /* some event samples call chains and -G is off */

	size_t nr_evsels;
	struct script_evsel *evsels;
	int name_width; /* perf's evlist__max_name_len(), fixed at the first sample */
	int pid_width;	/* of the pid and tid columns: 5, or perf 6.12's 7 (pid_width()) */
	/* the host modules of the build-id table: "[name]" and the recorded path */
	char **kmod_names;
	const char **kmod_paths;
	size_t nr_kmods;
	bool kmods_read;
	bool started;	/* the first sample was seen */
	int data_src_width; /* the widest data_src so far: perf pads each to it */

	/* the filters (perf's thread__is_filtered(), the dso list and cpu_list) */
	const char *comms, *dsos, *symbols, *pids, *tids, *cpus; /* the options' values */
	struct cli_word_list comm_list, dso_list, symbol_list;
	struct sampo_symbol_filter *sym_filter; /* -S */
	int32_t *pid_list, *tid_list;
	size_t nr_pids, nr_tids;
	struct sampo_cpu_set *cpu_set;
	const char *time_str;		      /* --time */
	bool ns;			      /* --ns: times to the nanosecond */
	bool reltime, deltatime;	      /* times since the first sample, or the previous */
	uint64_t initial_time, previous_time; /* of the samples printed */
	struct sampo_time_range *time_ranges; /* its windows: samples outside are left out */
	size_t nr_time_ranges;

	/* --per-event-dump: each event's samples into a file of its own */
	bool per_event_dump;
	struct dump_file *dumps; /* in the order of their first event */
	size_t nr_dumps;
	ssize_t *dump_of; /* per event: its index in dumps, -1 before its first sample */
	size_t nr_dump_of;
	FILE *dump_to;	   /* where the outbuf goes now: a dump file, or NULL (stdout) */
	FILE *dump_failed; /* the first stream a write to failed */

	struct evswitch evswitch; /* --switch-on, --switch-off */

	unsigned show;			      /* SHOW_*: --show-*-events */
	bool header, show_info;		      /* --header [-I]: the file's header first */
	bool guest;			      /* --guest: guest samples too, in their machines */
	struct sampo_machine *sample_machine; /* the current sample's: the host's or a guest's */
	struct sampo_addr_location al;
	struct sampo_addr_location chain_al;
	struct sampo_unwinder *unwinder; /* --call-graph dwarf files, chains shown */
	struct sampo_sample unwound;	 /* a DWARF sample with its unwound chain */
	size_t nr_unwound;		 /* its user frames, capped apart from the rest */
	struct sampo_srclines *srclines; /* -F srcline: the lines of each DSO, cached */
	struct folded *folded; /* --folded: the stacks, printed at the end */
	struct collapse *collapse; /* --folded=flamegraph: reads the text printed into ob */
	struct outbuf ob;
	struct fcache_slot *fcache; /* the text of addresses (plain text output only) */
	uint64_t epoch;		    /* the current sample's, for fcache */
	bool json;		/* --format json (format-json.c) */
	const char *arch;	/* the recording machine's family, for register names */
	char arch_buf[64];
	const struct sampo_trace_data *resolver_set; /* whose kernel functions cli_trace_func() names */
	struct cli_trace_resolver resolver;
	struct json_script js;
};

/* ---- fields ------------------------------------------------------------- */

static int field_by_name(const char *name, size_t len)
{
	for (int i = 0; i < F_MAX; i++) {
		if (strlen(field_info[i].name) == len && !strncmp(field_info[i].name, name, len))
			return i;
	}
	return -1;
}

/* -F with a name sampo lacks: say which, and what perf and sampo know */
static int unknown_field(const char *name, size_t len)
{
	char known[256] = "";
	size_t n = 0;

	for (int i = 0; i < F_MAX && n < sizeof(known); i++)
		n += (size_t)snprintf(known + n, sizeof(known) - n, "%s%s", i ? "," : "",
				      field_info[i].name);
	for (const char *const *pf = perf_script_fields; *pf; pf++) {
		if (strlen(*pf) == len && !strncmp(*pf, name, len)) {
			parse_opt_fail("-F: perf's field '%.*s' is not supported by sampo (yet); "
				       "sampo's fields: %s",
				       (int)len, name, known);
			return -EINVAL;
		}
	}
	parse_opt_fail("-F: unknown field '%.*s'; the fields are %s", (int)len, name, known);
	return -EINVAL;
}

/*
 * -F LIST: "ip,sym,dso" replaces the defaults; "+f,..." / "-f,..." add to or
 * take from them; a "type:" prefix (perf's "sw:ip,sym") is accepted and
 * applies to every event type alike.
 */
static int parse_fields(const char *arg, unsigned *ret, unsigned *ret_removed, unsigned *ret_added,
			bool *ret_relative)
{
	const char *p = arg, *colon = strchr(arg, ':');
	unsigned fields = 0;
	char mode = 0;

	if (colon)
		p = colon + 1;
	if (*p == '+' || *p == '-') {
		mode = *p++;
		fields = DEFAULT_FIELDS;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		int f = field_by_name(p, len);

		if (f < 0)
			return unknown_field(p, len);
		if (mode == '-') {
			fields &= ~(1u << f);
			*ret_removed |= 1u << f;
		} else {
			fields |= 1u << f;
			if (mode)
				*ret_added |= 1u << f;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	if (!fields && !mode)
		return -EINVAL;
	*ret = fields;
	*ret_relative = mode != 0;
	return 0;
}

static int fields_cb(const struct option *opt, const char *arg, bool unset)
{
	struct script_ctx *ctx = opt->value;

	if (unset)
		return -EINVAL;
	if (parse_fields(arg, &ctx->fields, &ctx->fields_removed, &ctx->fields_added,
			 &ctx->fields_relative))
		return -EINVAL;
	ctx->user_fields = true;
	return 0;
}

/* ---- events ------------------------------------------------------------- */

static int refresh_evsels(struct script_ctx *ctx)
{
	size_t nr = sampo_reader__nr_attrs(ctx->reader);
	struct script_evsel *e;

	if (nr <= ctx->nr_evsels)
		return 0;
	e = realloc(ctx->evsels, nr * sizeof(*e));
	if (!e)
		return -ENOMEM;
	memset(e + ctx->nr_evsels, 0, (nr - ctx->nr_evsels) * sizeof(*e));
	ctx->evsels = e;
	ctx->nr_evsels = nr;
	return 0;
}

static bool has_callchain(const struct sampo_event_attr *attr)
{
	return attr->sample_type & SAMPO_SAMPLE_CALLCHAIN;
}

/*
 * What perf adds to a tracepoint's fields for call chains: in a file, the
 * symbols of the chain when some tracepoint has one (check_output_opt());
 * in a pipe, the ip and sym fields when some event announced so far has
 * one (process_attr(): the combined sample_type)
 */
static unsigned tracepoint_chain_fields(struct script_ctx *ctx, size_t idx)
{
	bool pipe = sampo_reader__is_pipe(ctx->reader);

	if (ctx->hide_callchain)
		return 0;
	for (size_t i = 0; i < ctx->nr_evsels && (!pipe || i <= idx); i++) {
		const struct sampo_event_attr *a = sampo_reader__attr(ctx->reader, i);

		if (!a || !has_callchain(a) || (!pipe && a->type != SAMPO_TYPE_TRACEPOINT))
			continue;
		return pipe ? (1u << F_IP) | (1u << F_SYM) : TRACEPOINT_CHAIN_FIELDS;
	}
	return 0;
}

/* perf's output[type].fields of event @idx's type, before evsel__check_attr() */
static unsigned type_fields(struct script_ctx *ctx, size_t idx)
{
	const struct sampo_event_attr *attr = sampo_reader__attr(ctx->reader, idx);
	unsigned fields = ctx->fields;

	if ((!ctx->user_fields || ctx->fields_relative) && attr->type == SAMPO_TYPE_RAW)
		fields |= RAW_EXTRA_FIELDS & ~ctx->fields_removed;
	if (attr->type == SAMPO_TYPE_TRACEPOINT) {
		/*
		 * perf's output[PERF_TYPE_TRACEPOINT], and the chain's symbols: in
		 * a file only without -F, in a pipe whatever -F gave but what -F
		 * took away
		 */
		if (!ctx->user_fields || ctx->fields_relative)
			fields = (TRACEPOINT_FIELDS | ctx->fields_added) & ~ctx->fields_removed;
		if (!ctx->user_fields || sampo_reader__is_pipe(ctx->reader))
			fields |= tracepoint_chain_fields(ctx, idx) & ~ctx->fields_removed;
	} else if (attr->type != SAMPO_TYPE_TRACEPOINT) {
		/* perf: "'trace' not valid for hardware events" */
		fields &= ~(1u << F_TRACE);
	}
	return fields;
}

/*
 * perf's evsel__check_attr(), for each event at its first sample (perf checks
 * the first event of each type before any sample): a field given
 * with -F that the samples lack is an error; a default one is dropped.
 */
static int check_evsel(struct script_ctx *ctx, size_t idx)
{
	const struct sampo_event_attr *attr = sampo_reader__attr(ctx->reader, idx);
	struct script_evsel *e = &ctx->evsels[idx];
	unsigned fields = type_fields(ctx, idx);

	e->checked = true;
	for (int f = 0; f < F_MAX; f++) {
		if (!(fields & (1u << f)) || !field_info[f].needs ||
		    (attr->sample_type & field_info[f].needs))
			continue;
		if (f == F_SYM || f == F_DSO || f == F_SYMOFF) {
			if (attr->sample_type & SAMPO_SAMPLE_ADDR)
				continue;
		}
		/* perf's user_set_fields: -F +f names f alone, the defaults it keeps may go */
		if (ctx->user_fields && (!ctx->fields_relative || (ctx->fields_added & (1u << f))))
			return cli_err(
				0,
				"'%s': samples of event '%s' have no %s: cannot print field '%s'",
				ctx->input, sampo_session__evsel_name(ctx->session, (int)idx),
				field_info[f].attr_name, field_info[f].name);
		fields &= ~(1u << f);
	}
	if ((fields & (1u << F_TOD)) &&
	    !sampo_reader__has_feature(ctx->reader, SAMPO_FEAT_CLOCK_DATA))
		return cli_err(0,
			       "'%s' has no clock data (CLOCK_DATA) for field 'tod': record with "
			       "-k/--clockid",
			       ctx->input);
	if ((fields & (1u << F_SYMOFF)) && !(fields & (1u << F_SYM))) {
		if (ctx->user_fields)
			return cli_err(0, "field 'symoff' needs field 'sym'");
		fields &= ~(1u << F_SYMOFF);
	}
	e->fields = fields;
	return 0;
}

/*
 * At the first sample: names, widths, the symbolizer (perf sets these up
 * before the first; in pipe mode the features that came so far are known).
 * The names the session gives now stick (perf's evsel__name() stores them),
 * unless an EVENT_UPDATE renames an event later.
 */
/*
 * perf 6.1 refuses the files (not the pipes) of perf 6.3 and later, which
 * perf 6.12 reads: sampo prints those as perf 6.12 does, which widened the
 * pid and tid columns from 5 to 7 digits (pid_max can reach 4 million)
 */
static int pid_width(const struct script_ctx *ctx)
{
	const struct sampo_features *f = sampo_session__features(ctx->session);
	unsigned int major = 0, minor = 0;

	if (sampo_reader__is_pipe(ctx->reader) || !f ||
	    !sampo_features__has(f, SAMPO_FEAT_VERSION) || !f->version ||
	    sscanf(f->version, "%u.%u", &major, &minor) != 2)
		return 5;
	return major > 6 || (major == 6 && minor >= 3) ? 7 : 5;
}

static int dump_open(struct script_ctx *ctx, size_t idx);

static int start_samples(struct script_ctx *ctx)
{
	ctx->started = true;
	ctx->pid_width = pid_width(ctx);
	for (size_t i = 0; i < ctx->nr_evsels; i++) {
		int len = (int)strlen(sampo_session__evsel_name(ctx->session, (int)i));

		if (len > ctx->name_width)
			ctx->name_width = len;
		if (has_callchain(sampo_reader__attr(ctx->reader, i)) && !ctx->hide_callchain)
			ctx->use_callchain = true;
	}
	if (evswitch_active(&ctx->evswitch) &&
	    evswitch_setup(&ctx->evswitch, ctx->session, ctx->nr_evsels, ctx->input))
		return CLI_EXIT_FAILURE;
	ctx->symbolizer = sampo_session__symbolizer(ctx->session);
	if (!ctx->symbolizer)
		return cli_err(0, "%s", sampo_session__error(ctx->session));
	if ((ctx->fields & (1u << F_SRCLINE) || ctx->inline_frames) &&
	    sampo_srclines__new(ctx->symbolizer, &ctx->srclines))
		return cli_err(-ENOMEM, "out of memory");
	/* the frame cache: plain text without source lines or inlined frames (out of memory: none) */
	if (!ctx->json && !ctx->folded && !ctx->inline_frames)
		ctx->fcache = calloc((size_t)1 << FCACHE_BITS, sizeof(*ctx->fcache));
	/* perf creates a file for every event, one that has no samples too */
	for (size_t i = 0; ctx->per_event_dump && i < ctx->nr_evsels; i++) {
		int err = dump_open(ctx, i);

		if (err)
			return err;
	}
	if (ctx->use_callchain)
		return cli_unwinder_open(ctx->session, &ctx->unwinder);
	return 0;
}

/* ---- symbols ------------------------------------------------------------ */

/* the modules of the build-id table, once: perf made their DSOs from it, named by path */
static void read_kmods(struct script_ctx *ctx)
{
	const struct sampo_features *f = sampo_session__features(ctx->session);

	ctx->kmods_read = true;
	if (!f || !f->nr_build_ids)
		return;
	ctx->kmod_names = calloc(f->nr_build_ids, sizeof(*ctx->kmod_names));
	ctx->kmod_paths = calloc(f->nr_build_ids, sizeof(*ctx->kmod_paths));
	if (!ctx->kmod_names || !ctx->kmod_paths)
		return; /* out of memory: modules keep their "[name]" */
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct sampo_feat_build_id *b = &f->build_ids[i];
		char *name = NULL;

		if (b->pid != -1 || b->cpumode != SAMPO_CPUMODE_KERNEL || !b->filename ||
		    b->filename[0] != '/' || !sampo_kmod__is_module(b->filename) ||
		    sampo_kmod__name(b->filename, &name))
			continue;
		ctx->kmod_names[ctx->nr_kmods] = name;
		ctx->kmod_paths[ctx->nr_kmods++] = b->filename;
	}
}

/*
 * perf's dso->name: the kernel's name, the mapped path, and for a module its
 * "[name]", or the path of its build-id table entry (perf's DSO was made from it)
 */
static const char *dso_name(struct script_ctx *ctx, const struct sampo_map *map)
{
	struct sampo_map *kmap = sampo_machine__kernel_map(ctx->machine);
	struct sampo_dso *dso = sampo_map__dso(map);
	const char *name;

	if (!sampo_dso__is_kernel(dso) || (kmap && sampo_map__dso(kmap) == dso))
		return sampo_dso__long_name(dso);
	name = sampo_dso__short_name(dso);
	if (!ctx->kmods_read)
		read_kmods(ctx);
	for (size_t i = 0; i < ctx->nr_kmods; i++)
		if (ctx->kmod_names[i] && name && !strcmp(ctx->kmod_names[i], name))
			return ctx->kmod_paths[i];
	return name;
}

/*
 * " <sym>[+0x<off>]" and " (<dso>)" as selected, for @addr in @map (either
 * may be NULL); with srcline, "\n  file:line" after them (perf's
 * map__fprintf_srcline())
 */
static void print_sym_dso(struct script_ctx *ctx, unsigned fields, struct sampo_map *map,
			  uint64_t addr)
{
	struct cli_frame fr = { .map = map };
	struct sampo_map *sampled_map = map;
	struct outbuf *ob = &ctx->ob;
	const struct sampo_symbol *sym = NULL;
	const char *module = NULL;
	uint64_t off = 0; /* @addr - the start of sym, both in the symbol table's addresses */

	if (fields & ((1u << F_SYM) | (1u << F_SYMOFF) | (1u << F_DSO) | (1u << F_SRCLINE))) {
		cli_resolve_frame(ctx->symbolizer, ctx->sample_machine, map, addr,
				  fields & ((1u << F_SYM) | (1u << F_SYMOFF) | (1u << F_SRCLINE)), &fr);
		map = fr.map;
		sym = fr.sym;
		off = fr.symoff;
		module = fr.module;
	}
	if (fields & (1u << F_SYM)) {
		ob_putc(ob, ' ');
		if (sym) {
			ob_puts(ob, sampo_symbol__name(sym));
			if (fields & (1u << F_SYMOFF)) {
				ob_puts(ob, "+0x");
				ob_hex(ob, off, 0, false);
			}
		} else {
			ob_puts(ob, "[unknown]");
		}
	}
	if (fields & (1u << F_DSO)) {
		ob_puts(ob, " (");
		if (map) {
			ob_puts(ob, dso_name(ctx, map));
		} else if (sym && module) {
			ob_putc(ob, '[');
			ob_puts(ob, module);
			ob_putc(ob, ']');
		} else {
			ob_puts(ob, "[unknown]");
		}
		ob_putc(ob, ')');
	}
	if (fields & (1u << F_SRCLINE)) {
		char line[512];

		/* the address in the map, as perf's al->addr (the kernel's: itself) */
		if (fr.map &&
		    cli_srcline(ctx->srclines, &fr,
				fr.map == sampled_map ? sampo_map__map_ip(map, addr) : addr,
				ctx->full_source_path, line, sizeof(line))) {
			ob_puts(ob, "\n  ");
			ob_puts(ob, line);
		}
	}
}

/* --format json: one address, with the fields selected, as print_sym_dso() shows it */
static void json_frame(struct script_ctx *ctx, unsigned fields, struct sampo_map *map,
		       uint64_t addr, uint64_t shown_ip, bool in_chain)
{
	struct json_script_frame jf = {
		.has_ip = fields & (1u << F_IP),
		.ip = shown_ip,
		.want_sym = fields & (1u << F_SYM),
		.want_symoff = fields & (1u << F_SYMOFF),
		.want_dso = fields & (1u << F_DSO),
	};
	struct cli_frame fr = { .map = map };
	char module[256];

	if (jf.want_sym || jf.want_dso)
		cli_resolve_frame(ctx->symbolizer, ctx->sample_machine, map, addr, jf.want_sym,
				  &fr);
	jf.sym = fr.sym ? sampo_symbol__name(fr.sym) : NULL;
	jf.symoff = fr.symoff;
	if (fr.map) {
		jf.dso = dso_name(ctx, fr.map);
	} else if (fr.sym && fr.module) {
		snprintf(module, sizeof(module), "[%s]", fr.module);
		jf.dso = module;
	}
	if (in_chain)
		json_script__frame(&ctx->js, &jf);
	else
		json_script__ip(&ctx->js, &jf);
}

/*
 * --inline: the functions inlined at a callchain entry, innermost first,
 * each on a line of its own before the entry (perf's append_inlines() and
 * sample__fprintf_callchain()): the address, the inlined function's name
 * (with the entry's offset: it shares the symbol's start), no object, the
 * entry's source line, then "(inlined)"
 */
static void print_inlined(struct script_ctx *ctx, unsigned fields, struct sampo_map *map,
			  uint64_t ip, uint64_t shown_ip)
{
	const struct sampo_srcline_frame *lines = NULL;
	struct outbuf *ob = &ctx->ob;
	struct cli_frame fr;
	char line[512];
	bool has_line;
	size_t nr = 0;

	cli_resolve_frame(ctx->symbolizer, ctx->sample_machine, map, ip, true, &fr);
	if (!fr.map || !fr.sym ||
	    sampo_srclines__find(ctx->srclines, sampo_map__dso(fr.map),
				 sampo_symbol__start(fr.sym) + fr.symoff, &lines, &nr) ||
	    nr < 2)
		return;
	has_line = (fields & (1u << F_SRCLINE)) &&
		   cli_srcline(ctx->srclines, &fr, sampo_map__map_ip(fr.map, ip),
			       ctx->full_source_path, line, sizeof(line));
	for (size_t i = 0; i + 1 < nr; i++) {
		ob_putc(ob, '\t');
		if (fields & (1u << F_IP))
			ob_hex(ob, shown_ip, 16, false);
		if (fields & (1u << F_SYM)) {
			ob_putc(ob, ' ');
			ob_puts(ob, lines[i].function ? lines[i].function : "??");
			if (fields & (1u << F_SYMOFF)) {
				ob_puts(ob, "+0x");
				ob_hex(ob, fr.symoff, 0, false);
			}
		}
		if (has_line) {
			ob_puts(ob, "\n  ");
			ob_puts(ob, line);
		}
		ob_puts(ob, " (inlined)\n");
	}
}

/*
 * A frame of a folded stack: its symbol as the chain prints it; "_[k]" for
 * the host kernel's own code (perf's script names its DSO "[kernel.kallsyms]")
 */
static void folded_chain_entry(struct script_ctx *ctx, struct sampo_map *map, uint64_t ip)
{
	struct sampo_map *kmap = sampo_machine__kernel_map(ctx->machine);
	struct cli_frame fr;

	cli_resolve_frame(ctx->symbolizer, ctx->sample_machine, map, ip, true, &fr);
	folded_frame(ctx->folded, fr.sym ? sampo_symbol__name(fr.sym) : NULL,
		     fr.map && kmap && sampo_map__dso(fr.map) == sampo_map__dso(kmap));
}

/* ---- registers ----------------------------------------------------------- */

/*
 * -F iregs, uregs (perf's perf_sample__fprintf_regs()): " ABI:<abi> ", then
 * each sampled register "%5s:0x%x " by the name the recording machine's
 * architecture gives it; nothing when the sample has none (ABI 0)
 */
static void print_regs(struct script_ctx *ctx, const struct sampo_regs *regs)
{
	struct outbuf *ob = &ctx->ob;
	size_t i = 0;

	if (!regs->abi || !regs->regs)
		return;
	if (!ctx->arch)
		ctx->arch = cli_file_arch(ctx->session, ctx->arch_buf, sizeof(ctx->arch_buf));
	OB_LIT(ob, " ABI:");
	ob_dec_u64(ob, regs->abi);
	ob_putc(ob, ' ');
	for (unsigned int r = 0; r < 64; r++) {
		const char *name;
		size_t len;

		if (!(regs->mask & (1ULL << r)))
			continue;
		name = sampo_reg__name(ctx->arch, r);
		len = strlen(name);
		ob_pad(ob, ' ', len < 5 ? 5 - len : 0);
		ob_puts(ob, name);
		OB_LIT(ob, ":0x");
		ob_hex(ob, regs->regs[i++], 0, false);
		ob_putc(ob, ' ');
	}
}

/* ---- branch stacks ------------------------------------------------------- */

/*
 * perf's thread__find_map_fb(): the map of @addr in the sample's mode, else
 * in the other one (a branch from user space into the kernel, or back)
 */
static struct sampo_map *branch_map(struct script_ctx *ctx, uint8_t cpumode, uint64_t addr)
{
	struct sampo_map *map = sampo_machine__find_map(ctx->sample_machine, ctx->al.thread,
							cpumode, addr, &ctx->chain_al);

	if (map || (cpumode != SAMPO_CPUMODE_USER && cpumode != SAMPO_CPUMODE_KERNEL))
		return map;
	cpumode = cpumode == SAMPO_CPUMODE_USER ? SAMPO_CPUMODE_KERNEL : SAMPO_CPUMODE_USER;
	return sampo_machine__find_map(ctx->sample_machine, ctx->al.thread, cpumode, addr,
				       &ctx->chain_al);
}

/* one side of a branch: "0x<addr>" or "<sym>+0x<off>", then "(<dso>)" with the dso field */
static void print_branch_side(struct script_ctx *ctx, unsigned fields, bool sym, uint8_t cpumode,
			      uint64_t addr)
{
	struct sampo_map *map = branch_map(ctx, cpumode, addr);
	struct outbuf *ob = &ctx->ob;
	struct cli_frame fr = { .map = map };

	if (sym || (fields & (1u << F_DSO)))
		cli_resolve_frame(ctx->symbolizer, ctx->sample_machine, map, addr, sym, &fr);
	if (!sym) {
		OB_LIT(ob, "0x");
		ob_hex(ob, addr, 0, false);
	} else if (fr.sym) {
		ob_puts(ob, sampo_symbol__name(fr.sym));
		OB_LIT(ob, "+0x");
		ob_hex(ob, fr.symoff, 0, false);
	} else {
		OB_LIT(ob, "[unknown]");
	}
	if (fields & (1u << F_DSO)) {
		ob_putc(ob, '(');
		ob_puts(ob, fr.map ? dso_name(ctx, fr.map) : "[unknown]");
		ob_putc(ob, ')');
	}
}

/*
 * -F brstack, brstacksym (perf's perf_sample__fprintf_brstack() and
 * _brstacksym(), brstack first when both): each entry as FROM/TO, then
 * perf 6.1's flags "/P/X/A/<cycles>/<type> " (predicted or mispredicted,
 * in a transaction, an abort, the cycles since the previous entry, the
 * type when the kernel saved it)
 */
static void print_brstack(struct script_ctx *ctx, unsigned fields, const struct sampo_sample *s)
{
	bool sym = !(fields & (1u << F_BRSTACK));
	struct outbuf *ob = &ctx->ob;

	for (uint64_t i = 0; i < s->branch_nr; i++) {
		const struct sampo_branch_entry *e = &s->branch[i];
		uint64_t f = e->flags;

		if (!sym)
			ob_putc(ob, ' ');
		print_branch_side(ctx, fields, sym, s->cpumode, e->from);
		ob_putc(ob, '/');
		print_branch_side(ctx, fields, sym, s->cpumode, e->to);
		ob_putc(ob, '/');
		ob_putc(ob, !(f & 3) ? '-' : (f & 2) ? 'P' : 'M');
		ob_putc(ob, '/');
		ob_putc(ob, (f & 4) ? 'X' : '-');
		ob_putc(ob, '/');
		ob_putc(ob, (f & 8) ? 'A' : '-');
		ob_putc(ob, '/');
		ob_dec_u64(ob, (f >> 4) & 0xffff);
		ob_putc(ob, '/');
		ob_puts(ob, record_text__branch_type(f));
		ob_putc(ob, ' ');
	}
}

/* ---- the frame cache ---------------------------------------------------- */

/* the slot of (the current thread, @cpumode, @ip, @kind), or NULL: no cache for this output */
static struct fcache_slot *fcache_slot(struct script_ctx *ctx, unsigned fields, uint8_t cpumode,
				       uint64_t ip, uint8_t kind)
{
	uint64_t h;

	/* guests' machines count their changes apart; source lines are not kept */
	if (!ctx->fcache || !ctx->al.thread || ctx->sample_machine != ctx->machine ||
	    (fields & (1u << F_SRCLINE)))
		return NULL;
	h = ((uint64_t)(uintptr_t)ctx->al.thread ^ ip ^ ((uint64_t)cpumode << 56) ^ kind) *
	    0x9e3779b97f4a7c15ULL;
	return &ctx->fcache[h >> (64 - FCACHE_BITS)];
}

static bool fcache_hit(const struct script_ctx *ctx, const struct fcache_slot *slot,
		       unsigned fields, int32_t pid, uint8_t cpumode, uint64_t ip, uint8_t kind)
{
	return slot->len && slot->ip == ip && slot->thread == ctx->al.thread &&
	       slot->epoch == ctx->epoch && slot->fields == fields && slot->pid == pid &&
	       slot->cpumode == cpumode && slot->kind == kind;
}

/* keep what was written to the outbuf since @start (@flushes: its flush count then) */
static void fcache_store(struct script_ctx *ctx, struct fcache_slot *slot, unsigned fields,
			 int32_t pid, uint8_t cpumode, uint64_t ip, uint8_t kind, size_t start,
			 unsigned long flushes)
{
	size_t len = ctx->ob.len - start;

	slot->len = 0;
	if (ctx->ob.nr_flushes != flushes || ctx->ob.len < start || !len || len > FCACHE_TEXT ||
	    ob_error(&ctx->ob))
		return;
	memcpy(slot->text, ctx->ob.buf + start, len);
	slot->thread = ctx->al.thread;
	slot->ip = ip;
	slot->epoch = ctx->epoch;
	slot->fields = fields;
	slot->pid = pid;
	slot->cpumode = cpumode;
	slot->kind = kind;
	slot->len = (uint8_t)len;
}

static bool in_words(const struct cli_word_list *list, const char *word);

/* --stop-bt: the chain ends after the entry at @ip when its function is in the list */
static bool ends_backtrace(struct script_ctx *ctx, struct sampo_map *map, uint64_t ip)
{
	struct cli_frame fr;

	if (!ctx->stop_bt_list.nr)
		return false;
	cli_resolve_frame(ctx->symbolizer, ctx->sample_machine, map, ip, true, &fr);
	return fr.sym && in_words(&ctx->stop_bt_list, sampo_symbol__name(fr.sym));
}

/*
 * perf's thread__resolve_callchain_sample() + sample__fprintf_callchain() for
 * frame-pointer chains: context markers switch the cpumode (user at first),
 * every other entry is looked up at its address and printed on its own line.
 */
static void print_callchain(struct script_ctx *ctx, unsigned fields, const struct sampo_sample *s)
{
	struct outbuf *ob = &ctx->ob;
	uint8_t cpumode = SAMPO_CPUMODE_USER;
	unsigned nr_entries = 0;
	/* perf caps a DWARF sample's unwound user part apart from the recorded one */
	size_t max = (size_t)ctx->max_stack + ctx->nr_unwound;

	/* an unknown context marker makes perf drop the whole chain */
	for (uint64_t i = 0; i < s->callchain_nr && nr_entries < max; i++) {
		uint64_t ip = s->callchain[i];

		if (ip < PERF_CONTEXT_MAX)
			nr_entries++;
		else if (ip != PERF_CONTEXT_HV && ip != PERF_CONTEXT_KERNEL &&
			 ip != PERF_CONTEXT_USER)
			return;
	}
	nr_entries = 0;
	for (uint64_t i = 0; i < s->callchain_nr && nr_entries < max; i++) {
		uint64_t ip = s->callchain[i];
		struct fcache_slot *slot;
		unsigned long flushes;
		struct sampo_map *map;
		size_t start;

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_HV)
				cpumode = SAMPO_CPUMODE_HYPERVISOR;
			else if (ip == PERF_CONTEXT_KERNEL)
				cpumode = SAMPO_CPUMODE_KERNEL;
			else
				cpumode = SAMPO_CPUMODE_USER;
			continue;
		}
		nr_entries++;
		slot = ctx->folded || ctx->json ? NULL :
						  fcache_slot(ctx, fields, cpumode, ip, FC_CHAIN);
		if (slot && fcache_hit(ctx, slot, fields, (int32_t)s->pid, cpumode, ip, FC_CHAIN)) {
			ob_write(ob, slot->text, slot->len);
			if (ctx->stop_bt_list.nr &&
			    ends_backtrace(ctx,
					   sampo_machine__find_map(ctx->sample_machine,
								   ctx->al.thread, cpumode, ip,
								   &ctx->chain_al),
					   ip))
				break;
			continue;
		}
		start = ob->len;
		flushes = ob->nr_flushes;
		map = sampo_machine__find_map(ctx->sample_machine, ctx->al.thread, cpumode, ip,
					      &ctx->chain_al);
		if (ctx->folded) {
			folded_chain_entry(ctx, map, ip);
			if (ends_backtrace(ctx, map, ip))
				break;
			continue;
		}
		if (ctx->json) {
			bool user = map && !sampo_dso__is_kernel(sampo_map__dso(map));

			json_frame(ctx, fields, map, ip, user ? sampo_map__map_ip(map, ip) : ip, true);
			if (ends_backtrace(ctx, map, ip))
				break;
			continue;
		}
		{
			/* user space: the address in the DSO; the kernel: the address */
			bool user = map && !sampo_dso__is_kernel(sampo_map__dso(map));
			uint64_t shown = user ? sampo_map__map_ip(map, ip) : ip;

			if (ctx->inline_frames)
				print_inlined(ctx, fields, map, ip, shown);
			ob_putc(ob, '\t');
			if (fields & (1u << F_IP))
				ob_hex(ob, shown, 16, false);
		}
		print_sym_dso(ctx, fields, map, ip);
		ob_putc(ob, '\n');
		if (slot)
			fcache_store(ctx, slot, fields, (int32_t)s->pid, cpumode, ip, FC_CHAIN,
				     start, flushes);
		if (ends_backtrace(ctx, map, ip))
			break;
	}
}

/* ---- --per-event-dump ---------------------------------------------------- */

/*
 * perf's --per-event-dump: the sample lines of each event go to a file of
 * their own, INPUT.EVENT.dump beside the input ("stdin.EVENT.dump" for a
 * pipe, where perf writes "(null).EVENT.dump"); side-band lines and the
 * header stay on stdout, and the end says what was written, as perf does.
 * The outbuf's sink writes into the stream of the event being printed,
 * buffered by stdio: a switch between events is a flush of the outbuf into
 * that buffer, not a system call.
 */
static int dump_sink(void *arg, const char *data, size_t len)
{
	struct script_ctx *ctx = arg;

	FILE *fp = ctx->dump_to ? ctx->dump_to : stdout;

	errno = 0;
	if (fwrite(data, 1, len, fp) == len)
		return 0;
	ctx->dump_failed = fp;
	return errno ? -errno : -EIO;
}

/*
 * The file of event @idx's name: created as every output (a link planted
 * beside the input is not followed), and shared by the events of one name.
 * A '/' of the name (a PMU's "cpu/cycles/") or a control character becomes
 * '_': the name comes from the file, and must not choose a directory.
 */
static int dump_open(struct script_ctx *ctx, size_t idx)
{
	const char *input = strcmp(ctx->input, "-") ? ctx->input : "stdin";
	struct dump_file *d;
	char *path;
	int fd;

	if (idx >= ctx->nr_dump_of) {
		ssize_t *of = realloc(ctx->dump_of, (idx + 1) * sizeof(*of));

		if (!of)
			return cli_err(0, "out of memory");
		for (size_t i = ctx->nr_dump_of; i <= idx; i++)
			of[i] = -1;
		ctx->dump_of = of;
		ctx->nr_dump_of = idx + 1;
	}
	if (ctx->dump_of[idx] >= 0)
		return 0;
	if (asprintf(&path, "%s.%s.dump", input,
		     sampo_session__evsel_name(ctx->session, (int)idx)) < 0)
		return cli_err(0, "out of memory");
	for (char *c = path + strlen(input) + 1; *c; c++)
		if (*c == '/' || (unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '_';
	for (size_t i = 0; i < ctx->nr_dumps; i++) {
		if (!strcmp(ctx->dumps[i].path, path)) {
			free(path);
			ctx->dump_of[idx] = (ssize_t)i;
			return 0;
		}
	}
	d = realloc(ctx->dumps, (ctx->nr_dumps + 1) * sizeof(*d));
	if (!d) {
		free(path);
		return cli_err(0, "out of memory");
	}
	ctx->dumps = d;
	fd = cli_create_output(path, 0666);
	if (fd < 0) {
		free(path);
		return CLI_EXIT_FAILURE;
	}
	d[ctx->nr_dumps] = (struct dump_file){ .path = path, .fp = fdopen(fd, "w") };
	if (!d[ctx->nr_dumps].fp) {
		close(fd);
		free(path);
		return cli_err(0, "out of memory");
	}
	ctx->dump_of[idx] = (ssize_t)ctx->nr_dumps++;
	return 0;
}

/* the text from here on goes to event @idx's file (@idx < 0: stdout) */
static int dump_switch(struct script_ctx *ctx, int idx)
{
	struct dump_file *d = NULL;
	int err;

	if (idx >= 0) {
		err = dump_open(ctx, (size_t)idx);
		if (err)
			return err;
		d = &ctx->dumps[ctx->dump_of[idx]];
		d->samples++;
	}
	if ((d ? d->fp : NULL) == ctx->dump_to)
		return 0;
	(void)ob_flush(&ctx->ob); /* an error stays in the outbuf, reported at the end */
	ctx->dump_to = d ? d->fp : NULL;
	return 0;
}

/* the end: every file closed, then perf's line for each on stdout */
static int dump_finish(struct script_ctx *ctx)
{
	int err = ob_flush(&ctx->ob), ret = 0;

	if (err) {
		const char *path = "output";

		for (size_t i = 0; i < ctx->nr_dumps; i++)
			if (ctx->dumps[i].fp == ctx->dump_failed)
				path = ctx->dumps[i].path;
		return err == -EPIPE ? err : cli_err(err, "cannot write '%s'", path);
	}
	ctx->dump_to = NULL;
	for (size_t i = 0; i < ctx->nr_dumps; i++) {
		struct dump_file *d = &ctx->dumps[i];
		struct stat st;

		if (fflush(d->fp) || fstat(fileno(d->fp), &st)) {
			ret = cli_err(-errno, "cannot write '%s'", d->path);
			continue;
		}
		printf("[ perf script: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
		       (double)st.st_size / 1024.0 / 1024.0, d->path, d->samples);
	}
	if (fflush(stdout) && !ret)
		ret = errno == EPIPE ? -EPIPE : cli_err(-errno, "cannot write output");
	return ret;
}

/* ---- samples ------------------------------------------------------------ */

/*
 * perf's time column (perf_sample__fprintf_start()): "%12s: " of
 * timestamp__scnprintf_usec(), "SEC.USEC", or with --ns "%5lu.%09llu: ";
 * with --reltime the time since the first sample printed, with --deltatime
 * since the previous one (0 for the first)
 */
/*
 * -F tod: perf's tod_scnprintf(): the sample time moved to the time of day
 * by CLOCK_DATA's reference (the same instant on both clocks), in local time,
 * to the microsecond (the nanosecond with --ns)
 */
static void print_tod(struct script_ctx *ctx, struct outbuf *ob, uint64_t t)
{
	const struct sampo_features *f = sampo_session__features(ctx->session);
	uint64_t tod = f->clock_tod_ns;
	char date[64], buf[96];
	struct tm tm;
	time_t sec;

	if (t > f->clock_clockid_ns)
		tod += t - f->clock_clockid_ns;
	else
		tod -= f->clock_clockid_ns - t;
	sec = (time_t)(tod / 1000000000u);
	if (!localtime_r(&sec, &tm)) {
		OB_LIT(ob, "failed ");
		return;
	}
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm);
	if (ctx->ns)
		snprintf(buf, sizeof(buf), "%s.%09u ", date, (unsigned)(tod % 1000000000u));
	else
		snprintf(buf, sizeof(buf), "%s.%06u ", date, (unsigned)(tod % 1000000000u / 1000u));
	ob_puts(ob, buf);
}

static void print_time(struct script_ctx *ctx, struct outbuf *ob, uint64_t t)
{
	char buf[32], *p = buf + sizeof(buf);
	int digits = ctx->ns ? 9 : 6;
	uint64_t sec, frac;
	size_t n;

	if (ctx->reltime) {
		if (!ctx->initial_time)
			ctx->initial_time = t;
		t -= ctx->initial_time;
	} else if (ctx->deltatime) {
		uint64_t prev = ctx->previous_time;

		ctx->previous_time = t;
		t = prev ? t - prev : 0;
	}
	sec = t / 1000000000;
	frac = ctx->ns ? t % 1000000000 : t % 1000000000 / 1000;
	for (int i = 0; i < digits; i++) {
		*--p = (char)('0' + frac % 10);
		frac /= 10;
	}
	*--p = '.';
	do {
		*--p = (char)('0' + sec % 10);
		sec /= 10;
	} while (sec);
	/* the width: 12 for the whole with USEC, 5 for the seconds with NSEC */
	n = (size_t)(buf + sizeof(buf) - p);
	if (ctx->ns)
		ob_pad(ob, ' ', n - 10 < 5 ? 5 - (n - 10) : 0);
	else
		ob_pad(ob, ' ', n < 12 ? 12 - n : 0);
	ob_write(ob, p, n);
	ob_puts(ob, ": ");
}

/*
 * perf_sample__fprintf_start(): the comm, pid/tid, cpu and time columns of
 * a sample or, with --show-*-events, of a side-band record (@s: its
 * sample_id)
 */
static void print_start(struct script_ctx *ctx, unsigned fields, int attr_idx, const char *comm,
			const struct sampo_sample *s)
{
	struct outbuf *ob = &ctx->ob;

	if (fields & (1u << F_COMM)) {
		const struct sampo_event_attr *attr =
			sampo_reader__attr(ctx->reader, (size_t)attr_idx);

		if ((fields & (1u << F_IP)) && has_callchain(attr) && ctx->use_callchain) {
			ob_puts(ob, comm);
		} else {
			size_t len = strlen(comm);

			ob_pad(ob, ' ', len < 16 ? 16 - len : 0);
			ob_puts(ob, comm);
		}
		ob_putc(ob, ' ');
	}
	if ((fields & (1u << F_PID)) && (fields & (1u << F_TID))) {
		ob_dec_s64_width(ob, (int32_t)s->pid, ctx->pid_width, false);
		ob_putc(ob, '/');
		ob_dec_s64_left(ob, (int32_t)s->tid, ctx->pid_width);
		ob_putc(ob, ' ');
	} else if (fields & (1u << F_PID)) {
		ob_dec_s64_width(ob, (int32_t)s->pid, ctx->pid_width, false);
		ob_putc(ob, ' ');
	} else if (fields & (1u << F_TID)) {
		ob_dec_s64_width(ob, (int32_t)s->tid, ctx->pid_width, false);
		ob_putc(ob, ' ');
	}
	if (fields & (1u << F_CPU)) {
		ob_putc(ob, '[');
		ob_dec_s64_width(ob, (int32_t)s->cpu, 3, true);
		ob_puts(ob, "] ");
	}
	if (fields & (1u << F_TOD))
		print_tod(ctx, ob, s->time);
	if (fields & (1u << F_TIME))
		print_time(ctx, ob, s->time);
}

/* --format json: the sample's selected fields as one object (format-json.c) */
static void json_sample(struct script_ctx *ctx, const struct sampo_event *ev, unsigned fields,
			bool chain)
{
	const struct sampo_sample *s = &ev->sample;
	const struct json_script_sample h = {
		.event = (fields & (1u << F_EVENT)) ?
				 sampo_session__evsel_name(ctx->session, ev->attr_idx) :
				 NULL,
		.comm = !(fields & (1u << F_COMM)) ? NULL :
			ctx->al.thread		     ? sampo_thread__comm(ctx->al.thread) :
						       ":-1",
		.has_pid = fields & (1u << F_PID),
		.pid = (int32_t)s->pid,
		.has_tid = fields & (1u << F_TID),
		.tid = (int32_t)s->tid,
		.has_cpu = fields & (1u << F_CPU),
		.cpu = (int32_t)s->cpu,
		.has_time = fields & (1u << F_TIME),
		.time_ns = s->time,
		.has_period = fields & (1u << F_PERIOD),
		.period = s->period,
	};

	json_script__sample_begin(&ctx->js, &h);
	if (chain) {
		json_script__chain_begin(&ctx->js);
		print_callchain(ctx, fields, s);
	} else if (fields & ((1u << F_IP) | (1u << F_SYM) | (1u << F_DSO))) {
		json_frame(ctx, fields, ctx->al.map, s->ip, s->ip, false);
	}
	json_script__sample_end(&ctx->js);
}

/* perf's "%16" PRIx64 (@hex) or "%16" PRIu64 */
static void print_u64(struct outbuf *ob, bool hex, uint64_t v)
{
	char buf[32];

	if (hex)
		snprintf(buf, sizeof(buf), "%16" PRIx64, v);
	else
		snprintf(buf, sizeof(buf), "%16" PRIu64, v);
	ob_puts(ob, buf);
}

/*
 * perf's addr, data_src, weight and ins_lat fields, between the event and
 * the address: "%16" each; data_src is the word in hex then its meaning,
 * padded to the widest one printed so far (perf's static maxlen). The
 * address is not resolved: perf does that only for page faults and BTS.
 */
static void print_mem_fields(struct script_ctx *ctx, unsigned fields, const struct sampo_sample *s)
{
	struct outbuf *ob = &ctx->ob;

	if (fields & (1u << F_ADDR))
		print_u64(ob, true, s->addr);
	if (fields & (1u << F_DATA_SRC)) {
		char out[100], decode[256]; /* perf's out[100]: longer ones are cut */
		int len;

		(void)data_src__scnprintf(decode, sizeof(decode), s->data_src);
		len = snprintf(out, sizeof(out), "%16" PRIx64 " %s", s->data_src, decode);
		if (len > (int)sizeof(out) - 1)
			len = (int)sizeof(out) - 1;
		if (len > ctx->data_src_width)
			ctx->data_src_width = len;
		ob_puts(ob, out);
		ob_pad(ob, ' ', (size_t)(ctx->data_src_width - len));
	}
	if (fields & (1u << F_WEIGHT))
		print_u64(ob, false, s->weight);
	if (fields & (1u << F_INS_LAT))
		print_u64(ob, false, s->ins_lat);
}

/*
 * the trace field: the tracepoint's fields by its print format (perf's
 * event_format__fprintf()); nothing for an event the tracing data lacks
 */
static void print_trace(struct script_ctx *ctx, const struct sampo_event *ev)
{
	const struct sampo_event_attr *attr = sampo_reader__attr(ctx->reader, (size_t)ev->attr_idx);
	struct sampo_trace_data *td = sampo_session__trace_data(ctx->session);
	char *text = NULL;

	/* perf 6.1 names kernel functions (%ps) from a file's tracing data, not a pipe's */
	if (td && td != ctx->resolver_set && !sampo_reader__is_pipe(ctx->reader)) {
		ctx->resolver = (struct cli_trace_resolver){ .symbolizer = ctx->symbolizer,
							     .machine = ctx->machine };
		sampo_trace_data__set_resolver(td, cli_trace_func, &ctx->resolver);
		ctx->resolver_set = td;
	}
	if (!attr ||
	    sampo_trace_data__format(td, attr->config,
				     (int)ev->sample.cpu, ev->sample.raw_data, ev->sample.raw_size,
				     &text))
		return;
	ob_puts(&ctx->ob, text);
	free(text);
}

static bool in_words(const struct cli_word_list *list, const char *word)
{
	for (size_t i = 0; word && i < list->nr; i++)
		if (!strcmp(list->words[i], word))
			return true;
	return false;
}

static bool in_ids(const int32_t *ids, size_t nr, int32_t id)
{
	for (size_t i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/*
 * --comms, --pid, --tid, --dsos: perf's machine__resolve() marks the sample
 * filtered by its thread's comm, pid and tid, and by its map's object
 * (short or long name), and perf script prints none such
 */
static bool sample_filtered(const struct script_ctx *ctx, const struct sampo_sample *s)
{
	const struct sampo_thread *t = ctx->al.thread;
	const struct sampo_dso *dso = ctx->al.map ? sampo_map__dso(ctx->al.map) : NULL;

	if (ctx->comm_list.nr && !in_words(&ctx->comm_list, t ? sampo_thread__comm(t) : NULL))
		return true;
	if (ctx->nr_pids &&
	    !in_ids(ctx->pid_list, ctx->nr_pids, t ? sampo_thread__pid(t) : (int32_t)s->pid))
		return true;
	if (ctx->nr_tids &&
	    !in_ids(ctx->tid_list, ctx->nr_tids, t ? sampo_thread__tid(t) : (int32_t)s->tid))
		return true;
	if (ctx->dso_list.nr && (!dso || (!in_words(&ctx->dso_list, sampo_dso__short_name(dso)) &&
					  !in_words(&ctx->dso_list, sampo_dso__long_name(dso)))))
		return true;
	if (ctx->sym_filter) {
		struct cli_frame fr;

		cli_resolve_frame(ctx->symbolizer, ctx->sample_machine, ctx->al.map, s->ip, true,
				  &fr);
		if (!sampo_symbol_filter__keeps(ctx->sym_filter,
						fr.sym ? sampo_symbol__name(fr.sym) : NULL, fr.map,
						s->ip))
			return true;
	}
	return false;
}

static int process_sample(struct script_ctx *ctx, const struct sampo_event *ev)
{
	const struct sampo_sample *s = &ev->sample;
	struct outbuf *ob = &ctx->ob;
	struct script_evsel *e;
	unsigned fields;
	bool chain;
	int err;

	if (ev->attr_idx < 0)
		return 0;
	if (!ctx->started) {
		err = start_samples(ctx);
		if (err)
			return err;
	}
	if ((size_t)ev->attr_idx >= ctx->nr_evsels)
		return 0;
	e = &ctx->evsels[ev->attr_idx];
	if (!e->checked) {
		err = check_evsel(ctx, (size_t)ev->attr_idx);
		if (err)
			return err;
	}
	/* without --guest, perf filters guest samples out */
	if (!ctx->guest &&
	    (s->cpumode == SAMPO_CPUMODE_GUEST_KERNEL || s->cpumode == SAMPO_CPUMODE_GUEST_USER))
		return 0;
	if (ctx->cpu_set && (s->sample_type & SAMPO_SAMPLE_CPU) &&
	    !sampo_cpu_set__has(ctx->cpu_set, s->cpu))
		return 0;
	ctx->nr_unwound = 0;
	ctx->sample_machine = sampo_machine__for_cpumode(ctx->machine, s->cpumode, (int32_t)s->pid);
	if (!ctx->sample_machine)
		return -ENOMEM;
	err = sampo_machine__resolve(ctx->sample_machine, s, &ctx->al);
	if (err)
		return err;
	if (sample_filtered(ctx, s))
		return 0;
	if (evswitch_active(&ctx->evswitch) && evswitch_discard(&ctx->evswitch, ev->attr_idx))
		return 0;
	ctx->epoch = (uint64_t)sampo_machine__kernel_generation(ctx->machine) << 32 |
		     sampo_machine__process_generation(ctx->machine, (int32_t)s->pid);
	/* perf script unwinds a DWARF sample's user stack, at most 127 frames */
	if (ctx->unwinder && ctx->al.thread && sampo_unwinder__wants(s)) {
		const uint64_t *ips;
		size_t nr;

		err = sampo_unwinder__chain(ctx->unwinder, ctx->sample_machine, ctx->al.thread, s,
					    (size_t)ctx->max_stack, &ips, &nr, &ctx->nr_unwound);
		if (err)
			return err;
		ctx->unwound = *s;
		ctx->unwound.callchain = ips;
		ctx->unwound.callchain_nr = nr;
		ctx->unwound.sample_type |= SAMPO_SAMPLE_CALLCHAIN;
		s = &ctx->unwound;
	}
	if (ctx->folded) {
		/* stackcollapse.py: the comm alone for a sample without a chain */
		folded_begin(ctx->folded,
			     ctx->al.thread ? sampo_thread__comm(ctx->al.thread) : ":-1",
			     (int32_t)s->pid, (int32_t)s->tid);
		if (ctx->use_callchain && (s->sample_type & SAMPO_SAMPLE_CALLCHAIN))
			print_callchain(ctx, 0, s);
		return folded_end(ctx->folded, 1);
	}
	fields = e->fields;
	/* nothing to print for this event (-F trace on a hardware event): no line at all, as perf */
	if (!fields)
		return 0;
	/* perf prints a chain, even an empty one, for every sample that has the field */
	chain = ctx->use_callchain && (fields & (1u << F_IP)) &&
		(s->sample_type & SAMPO_SAMPLE_CALLCHAIN);
	if (ctx->json) {
		json_sample(ctx, ev, fields, chain);
		return 0;
	}

	if (ctx->per_event_dump) {
		err = dump_switch(ctx, ev->attr_idx);
		if (err)
			return err;
	}
	print_start(ctx, fields, ev->attr_idx,
		    ctx->al.thread ? sampo_thread__comm(ctx->al.thread) : ":-1", s);
	if (fields & (1u << F_PERIOD)) {
		ob_dec_u64_width(ob, s->period, 10, false);
		ob_putc(ob, ' ');
	}
	if (fields & (1u << F_EVENT)) {
		const char *name = sampo_session__evsel_name(ctx->session, ev->attr_idx);
		size_t len = strlen(name);

		ob_pad(ob, ' ', (size_t)ctx->name_width > len ? (size_t)ctx->name_width - len : 0);
		ob_puts(ob, name);
		ob_puts(ob, ": ");
	}
	if ((fields & (1u << F_TRACE)) && s->raw_data)
		print_trace(ctx, ev);
	print_mem_fields(ctx, fields, s);
	if (fields & ((1u << F_IP) | (1u << F_SYM) | (1u << F_DSO))) {
		if (chain) {
			ob_putc(ob, '\n');
			print_callchain(ctx, fields, s);
		} else {
			struct fcache_slot *slot =
				fcache_slot(ctx, fields, s->cpumode, s->ip, FC_SELF);
			unsigned long flushes = ob->nr_flushes;
			size_t start = ob->len;

			if (slot && fcache_hit(ctx, slot, fields, (int32_t)s->pid, s->cpumode,
					       s->ip, FC_SELF)) {
				ob_write(ob, slot->text, slot->len);
			} else {
				if (fields & (1u << F_IP)) {
					ob_putc(ob, ' ');
					ob_hex(ob, s->ip, 16, false);
				}
				print_sym_dso(ctx, fields, ctx->al.map, s->ip);
				if (slot)
					fcache_store(ctx, slot, fields, (int32_t)s->pid,
						     s->cpumode, s->ip, FC_SELF, start, flushes);
			}
		}
	}
	if (fields & (1u << F_IREGS))
		print_regs(ctx, &s->intr_regs);
	if (fields & (1u << F_UREGS))
		print_regs(ctx, &s->user_regs);
	if (fields & ((1u << F_BRSTACK) | (1u << F_BRSTACKSYM)))
		print_brstack(ctx, fields, s);
	if (fields & (1u << F_PHYS_ADDR))
		print_u64(ob, true, s->phys_addr);
	ob_putc(ob, '\n');
	return 0;
}

struct read_delivery {
	struct script_ctx *ctx;
	const struct sampo_event *ev;
};

/* one value of a PERF_SAMPLE_READ sample: a sample of its event, of its increase */
static int script_read_value(void *arg, const struct sampo_sample_value *v)
{
	const struct read_delivery *d = arg;
	struct sampo_event ev = *d->ev;

	if (v->evsel < 0)
		return 0; /* perf counts it in nr_unknown_id */
	ev.attr_idx = v->evsel;
	ev.sample.id = v->id;
	ev.sample.period = v->period;
	return process_sample(d->ctx, &ev);
}

/*
 * The tool's one callback: the session has given the records to the
 * machine. A sample that reads counters (PERF_SAMPLE_READ) is, as perf's
 * deliver_sample_value() makes it, one sample per value read: of the
 * value's event, with the counter's increase since its last read as
 * period (none when it did not increase).
 */
static int script_sample(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct script_ctx *ctx = arg;
	int err;

	/* perf drops a sample out of the --time windows first */
	if (sampo_time_ranges__skip(ctx->time_ranges, ctx->nr_time_ranges, ev->sample.time))
		return 0;
	err = refresh_evsels(ctx);
	if (!err && (ev->sample.sample_type & SAMPO_SAMPLE_READ)) {
		struct read_delivery d = { .ctx = ctx, .ev = ev };

		err = sampo_session__sample_values(session, ev, script_read_value, &d);
	} else if (!err) {
		err = process_sample(ctx, ev);
	}
	/* a full pipe or disk: stop reading */
	if (!err && ob_error(&ctx->ob))
		err = 1;
	return err;
}

/* ---- side-band records (--show-*-events) --------------------------------- */

/* the records each --show-*-events option prints */
enum {
	SHOW_TASK = 1u << 0,	   /* COMM, FORK, EXIT */
	SHOW_MMAP = 1u << 1,	   /* MMAP, MMAP2 */
	SHOW_SWITCH = 1u << 2,	   /* SWITCH, SWITCH_CPU_WIDE */
	SHOW_NAMESPACES = 1u << 3, /* NAMESPACES */
	SHOW_CGROUP = 1u << 4,	   /* CGROUP */
	SHOW_LOST = 1u << 5,	   /* LOST (perf 6.1 prints no LOST_SAMPLES) */
	SHOW_BPF = 1u << 6,	   /* KSYMBOL, BPF_EVENT */
	SHOW_ROUND = 1u << 7,	   /* FINISHED_ROUND: the records then come in file order */
};

static unsigned show_bit(uint32_t type)
{
	switch (type) {
	case SAMPO_RECORD_COMM:
	case SAMPO_RECORD_FORK:
	case SAMPO_RECORD_EXIT:
		return SHOW_TASK;
	case SAMPO_RECORD_MMAP:
	case SAMPO_RECORD_MMAP2:
		return SHOW_MMAP;
	case SAMPO_RECORD_SWITCH:
	case SAMPO_RECORD_SWITCH_CPU_WIDE:
		return SHOW_SWITCH;
	case SAMPO_RECORD_NAMESPACES:
		return SHOW_NAMESPACES;
	case SAMPO_RECORD_CGROUP:
		return SHOW_CGROUP;
	case SAMPO_RECORD_LOST:
		return SHOW_LOST;
	case SAMPO_RECORD_KSYMBOL:
	case SAMPO_RECORD_BPF_EVENT:
		return SHOW_BPF;
	case SAMPO_RECORD_FINISHED_ROUND:
		return SHOW_ROUND;
	default:
		return 0;
	}
}

/*
 * The columns of a side-band record of event @idx. perf prints them by the
 * fields of the event's type (output[type]), which it checked against the
 * first event of that type that is not a dummy one; with none, the type's
 * defaults stay unchecked (so the dummy event of a hybrid machine's
 * recording, without CPU in its samples, shows CPU -1 as "[-01]").
 */
static int side_band_fields(struct script_ctx *ctx, size_t idx, unsigned *ret)
{
	const struct sampo_event_attr *attr = sampo_reader__attr(ctx->reader, idx);

	for (size_t i = 0; i < ctx->nr_evsels; i++) {
		const struct sampo_event_attr *a = sampo_reader__attr(ctx->reader, i);
		int err;

		if (!a || (a->type == SAMPO_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY) ||
		    (a->type != attr->type &&
		     (a->type < PERF_TYPE_MAX || attr->type < PERF_TYPE_MAX)))
			continue;
		if (!ctx->evsels[i].checked) {
			err = check_evsel(ctx, i);
			if (err)
				return err;
		}
		*ret = ctx->evsels[i].fields;
		return 0;
	}
	*ret = type_fields(ctx, idx);
	return 0;
}

/*
 * The thread whose comm starts the line, as perf's process_*_event() pick
 * it: the one the record is about (COMM, MMAP, FORK, EXIT, NAMESPACES), else
 * the one it happened in (@s: the record's sample_id)
 */
static void side_band_thread(const struct sampo_event *ev, const struct sampo_sample *s,
			     int32_t *pid, int32_t *tid)
{
	const union sampo_record *rec = ev->record;

	switch (rec->header.type) {
	case SAMPO_RECORD_COMM:
		*pid = (int32_t)rec->comm.pid;
		*tid = (int32_t)rec->comm.tid;
		break;
	case SAMPO_RECORD_MMAP:
		*pid = (int32_t)rec->mmap.pid;
		*tid = (int32_t)rec->mmap.tid;
		break;
	case SAMPO_RECORD_MMAP2:
		*pid = (int32_t)rec->mmap2.pid;
		*tid = (int32_t)rec->mmap2.tid;
		break;
	case SAMPO_RECORD_FORK:
	case SAMPO_RECORD_EXIT:
		*pid = (int32_t)rec->fork.pid;
		*tid = (int32_t)rec->fork.tid;
		break;
	case SAMPO_RECORD_NAMESPACES:
		*pid = (int32_t)rec->namespaces.pid;
		*tid = (int32_t)rec->namespaces.tid;
		break;
	default:
		*pid = (int32_t)s->pid;
		*tid = (int32_t)s->tid;
		break;
	}
}

/*
 * perf script's print_event_with_time(): the columns of the record's event
 * (none when its id names no event), then "PERF_RECORD_<NAME>" and the
 * record's text. Records of an event without sample_id_all have no sample
 * fields: perf shows CPU 0, the record's own pid/tid, and time 0 (FORK and
 * EXIT: their own time); a field the sample_id lacks is -1, as perf leaves
 * it. The machine has seen the record already, as in perf (which prints
 * EXIT first, but keeps the exited thread's comm).
 */
static int script_side_band(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct script_ctx *ctx = arg;
	const union sampo_record *rec = ev->record;
	uint32_t type = rec->header.type;
	struct sampo_sample s = ev->sample;
	struct outbuf *ob = &ctx->ob;
	int32_t pid, tid;
	int err;

	(void)session;
	if (!(ctx->show & show_bit(type)))
		return 0;
	if (ctx->per_event_dump)
		(void)dump_switch(ctx, -1); /* perf prints them on stdout */
	if (type == SAMPO_RECORD_FINISHED_ROUND) {
		OB_LIT(ob, "PERF_RECORD_FINISHED_ROUND\n");
		return ob_error(ob) ? 1 : 0;
	}
	err = refresh_evsels(ctx);
	if (!err && !ctx->started)
		err = start_samples(ctx);
	if (err)
		return err;
	side_band_thread(ev, &s, &pid, &tid);
	if (ev->attr_idx >= 0 && !(sampo_reader__attr(ctx->reader, (size_t)ev->attr_idx)->flags &
				   SAMPO_ATTR_SAMPLE_ID_ALL)) {
		s.cpu = 0;
		s.time = 0;
		if (type == SAMPO_RECORD_FORK || type == SAMPO_RECORD_EXIT)
			s.time = rec->fork.time;
		s.pid = (uint32_t)pid;
		s.tid = (uint32_t)tid;
	}
	/* perf's filter_cpu(): a record without a CPU passes */
	if (ctx->cpu_set && s.cpu != (uint32_t)-1 && !sampo_cpu_set__has(ctx->cpu_set, s.cpu))
		return 0;
	if (ev->attr_idx >= 0 && (size_t)ev->attr_idx < ctx->nr_evsels) {
		struct sampo_thread *thread = NULL;
		char unknown[16] = ":-1";
		unsigned fields;

		err = side_band_fields(ctx, (size_t)ev->attr_idx, &fields);
		if (err)
			return err;
		/* perf makes the threads it has not seen, named ":TID" */
		if (tid != -1) {
			thread = sampo_machine__find_thread(ctx->machine, pid, tid);
			(void)snprintf(unknown, sizeof(unknown), ":%d", tid);
		}
		print_start(ctx, fields, ev->attr_idx,
			    thread ? sampo_thread__comm(thread) : unknown, &s);
		sampo_thread__put(thread);
	}
	OB_LIT(ob, "PERF_RECORD_");
	ob_puts(ob, sampo_record__perf_name(type));
	if (type == SAMPO_RECORD_LOST) {
		OB_LIT(ob, " lost ");
		ob_dec_u64(ob, rec->lost.lost);
		ob_putc(ob, '\n');
	} else {
		record_text__body(ob, rec);
	}
	return ob_error(ob) ? 1 : 0;
}

enum folded_style {
	FOLDED_NONE,
	FOLDED_PERF,	   /* perf's stackcollapse.py (folded.c) */
	FOLDED_FLAMEGRAPH, /* FlameGraph's stackcollapse-perf.pl (collapse.c) */
};

/* --folded[=perf|flamegraph] */
static int folded_cb(const struct option *opt, const char *arg, bool unset)
{
	int *style = opt->value;

	if (unset)
		*style = FOLDED_NONE;
	else if (!arg || !strcmp(arg, "perf"))
		*style = FOLDED_PERF;
	else if (!strcmp(arg, "flamegraph"))
		*style = FOLDED_FLAMEGRAPH;
	else {
		parse_opt_fail("unknown --folded style '%s' (perf or flamegraph)", arg);
		return -EINVAL;
	}
	return 0;
}

/* the options of stackcollapse-perf.pl that perf's script lacks */
struct flamegraph_opts {
	bool jit, all, addrs;
	const char *event_filter;
};

/* the folded options go with --folded, and as each stackcollapse script pairs them */
static int check_folded_opts(const char *const *usage, const struct option *opts, int folded,
			     bool user_fields, const struct folded_opts *f,
			     const struct flamegraph_opts *g)
{
	bool g_opts = g->jit || g->all || g->addrs || g->event_filter;

	if (!folded && (f->kernel || f->include_pid || f->include_tid || f->no_comm ||
			f->tidy_java || g_opts))
		return usage_error(usage, opts,
				   "--kernel, --include-pid, --include-tid, --no-comm, "
				   "--tidy-java, --jit, --all, --addrs and --event-filter go with "
				   "--folded");
	if (folded == FOLDED_PERF && g_opts)
		return usage_error(usage, opts,
				   "--jit, --all, --addrs and --event-filter are options of "
				   "stackcollapse-perf.pl: use --folded=flamegraph");
	if (folded == FOLDED_FLAMEGRAPH && (f->no_comm || f->tidy_java))
		return usage_error(usage, opts,
				   "--no-comm and --tidy-java are options of perf's stackcollapse "
				   "script: stackcollapse-perf.pl always keeps the comm and "
				   "shortens Java names (use --folded or --folded=perf)");
	if (folded == FOLDED_PERF && user_fields)
		return usage_error(usage, opts,
				   "--folded prints stacks, not -F fields (--folded=flamegraph "
				   "reads the text of the fields given)");
	if (f->no_comm && (f->include_pid || f->include_tid))
		return usage_error(usage, opts, "--include-pid and --include-tid need the comm: "
						"drop --no-comm");
	return 0;
}

static void script_ctx_release(struct script_ctx *ctx)
{
	sampo_addr_location__exit(&ctx->al);
	sampo_addr_location__exit(&ctx->chain_al);
	sampo_unwinder__delete(ctx->unwinder);
	free(ctx->fcache);
	free(ctx->evsels);
	for (size_t i = 0; i < ctx->nr_dumps; i++) {
		(void)fclose(ctx->dumps[i].fp);
		free(ctx->dumps[i].path);
	}
	free(ctx->dumps);
	free(ctx->dump_of);
	sampo_srclines__delete(ctx->srclines);
	folded_delete(ctx->folded);
	collapse_delete(ctx->collapse);
	for (size_t i = 0; i < ctx->nr_kmods; i++)
		free(ctx->kmod_names[i]);
	free(ctx->kmod_names);
	free(ctx->kmod_paths);
	free(ctx->time_ranges);
	cli_word_list_release(&ctx->comm_list);
	cli_word_list_release(&ctx->dso_list);
	cli_word_list_release(&ctx->symbol_list);
	cli_word_list_release(&ctx->stop_bt_list);
	sampo_symbol_filter__delete(ctx->sym_filter);
	free(ctx->pid_list);
	free(ctx->tid_list);
	sampo_cpu_set__delete(ctx->cpu_set);
	sampo_session__close(ctx->session);
}

/*
 * --folded=flamegraph, at the end of the samples: the rest of the text into
 * the collapser, then its stacks to stdout through the same buffer
 */
static int write_collapsed(struct script_ctx *ctx)
{
	const char *kept, *skipped;
	uint64_t nr;
	int err;

	err = ob_flush(&ctx->ob);
	if (!err)
		err = collapse_finish(ctx->collapse);
	ob_init_fd(&ctx->ob, STDOUT_FILENO);
	if (!err)
		err = collapse_write(ctx->collapse, &ctx->ob);
	if (err)
		return cli_err(err, "cannot fold the stacks");
	skipped = collapse_skipped_event(ctx->collapse, &kept);
	if (skipped)
		cli_warn("'%s': only the samples of the first event, '%s', are folded, as "
			 "stackcollapse-perf.pl folds them ('%s' and any other left out: "
			 "--event-filter=EVENT chooses)",
			 ctx->input, kept, skipped);
	nr = collapse_unrecognized(ctx->collapse);
	if (nr)
		cli_warn("'%s': %" PRIu64 " lines of the script's text left out, as "
			 "stackcollapse-perf.pl leaves them (it warns \"Unrecognized line\")",
			 ctx->input, nr);
	return 0;
}

/* the filters' lists; --cpu only of a file whose samples say their CPU, as perf */
static int parse_filters(struct script_ctx *ctx)
{
	char errbuf[256] = "";
	int err = 0;

	if (ctx->comms && cli_split_words(ctx->comms, &ctx->comm_list))
		return cli_err(-ENOMEM, "out of memory");
	if (ctx->dsos && cli_split_words(ctx->dsos, &ctx->dso_list))
		return cli_err(-ENOMEM, "out of memory");
	if (ctx->stop_bt && cli_split_words(ctx->stop_bt, &ctx->stop_bt_list))
		return cli_err(-ENOMEM, "out of memory");
	if (ctx->symbols && (cli_split_words(ctx->symbols, &ctx->symbol_list) ||
			     sampo_symbol_filter__new((const char *const *)ctx->symbol_list.words,
						      ctx->symbol_list.nr, &ctx->sym_filter)))
		return cli_err(-ENOMEM, "out of memory");
	if (ctx->pids)
		err = cli_parse_ids("pid", ctx->pids, &ctx->pid_list, &ctx->nr_pids);
	if (!err && ctx->tids)
		err = cli_parse_ids("tid", ctx->tids, &ctx->tid_list, &ctx->nr_tids);
	if (err || !ctx->cpus)
		return err;
	err = sampo_cpu_set__parse(ctx->cpus, &ctx->cpu_set, errbuf, sizeof(errbuf));
	if (err)
		return err == -EINVAL ? cli_err(0, "%s", errbuf) : cli_err(err, "out of memory");
	if (sampo_reader__is_pipe(ctx->reader))
		return 0;
	for (size_t i = 0; i < sampo_reader__nr_attrs(ctx->reader); i++)
		if (sampo_reader__attr(ctx->reader, i)->sample_type & SAMPO_SAMPLE_CPU)
			return 0;
	return cli_err(0, "'%s' has no CPU in its samples: remove --cpu", ctx->input);
}

static int run_script(struct script_ctx *ctx)
{
	char errbuf[512] = "";
	/* perf script --show-round-events turns perf's ordering off */
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = !(ctx->show & SHOW_ROUND), .threaded = true,
		   .features = SAMPO_SESSION_FEATURES_EACH, .guests = ctx->guest,
		   .symbolizer = &ctx->sym_opts, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	const struct sampo_tool tool = {
		.sample = script_sample,
		.mmap = ctx->show ? script_side_band : NULL,
		.comm = ctx->show ? script_side_band : NULL,
		.fork = ctx->show ? script_side_band : NULL,
		.exit = ctx->show ? script_side_band : NULL,
		.lost = ctx->show ? script_side_band : NULL,
		.ksymbol = ctx->show ? script_side_band : NULL,
		.finished_round = ctx->show ? script_side_band : NULL,
		.other = ctx->show ? script_side_band : NULL,
	};
	const struct sampo_feature_error *ferr;
	int err, ret, nr_damaged;

	err = sampo_session__open(ctx->input, &opts, &ctx->session);
	if (err)
		return cli_err_open(err, ctx->input, errbuf);
	/* a damaged feature is left out with one warning; the others (build-ids) are read */
	nr_damaged = sampo_session__damaged_features(ctx->session, &ferr);
	if (nr_damaged)
		cli_warn_damaged_features(ctx->input, nr_damaged, ferr);
	ctx->reader = sampo_session__reader(ctx->session);
	ctx->machine = sampo_session__machine(ctx->session);
	if (ctx->header) {
		if (sampo_reader__is_pipe(ctx->reader))
			return cli_err(0,
				       "--header: '%s' is a pipe, which is read once: the header "
				       "alone is 'sampo header', or record to a file",
				       ctx->input);
		err = header_print(ctx->input, ctx->show_info, stdout);
		if (err)
			return err;
		if (fflush(stdout))
			return cli_err(-errno, "cannot write output");
	}
	err = parse_filters(ctx);
	if (err)
		return err;
	if (ctx->time_str) {
		/* shares of the time between the first and last sample (a pipe has none yet) */
		const struct sampo_features *f = sampo_session__features(ctx->session);
		uint64_t first = f ? f->first_sample_time : 0;

		if (ctx->reltime && !first && !(f && f->last_sample_time))
			return cli_err(0,
				       "'%s' has no time of its first sample (perf record writes "
				       "it since perf 4.16): --time takes no relative times here",
				       ctx->input);
		err = sampo_time_ranges__parse(ctx->time_str, first, f ? f->last_sample_time : 0,
					       &ctx->time_ranges, &ctx->nr_time_ranges, errbuf,
					       sizeof(errbuf));
		if (err)
			return err == -EINVAL ? cli_err(0, "%s", errbuf) :
						cli_err(err, "out of memory");
		/*
		 * --reltime: the windows count from the first sample (perf's
		 * perf_time__parse_for_ranges_reltime(), which also moves an open
		 * end there and so closes it; sampo keeps it open)
		 */
		for (size_t i = 0;
		     ctx->reltime && !strchr(ctx->time_str, '%') && i < ctx->nr_time_ranges; i++) {
			ctx->time_ranges[i].start += first;
			if (ctx->time_ranges[i].end)
				ctx->time_ranges[i].end += first;
		}
	}
	if (ctx->json)
		json_script__begin(&ctx->js, &ctx->ob);
	ret = sampo_session__process(ctx->session, &tool, ctx);
	cli_unwinder_close(ctx->unwinder, ctx->input);
	ctx->unwinder = NULL;
	if (!ret && ctx->folded && folded_write(ctx->folded, &ctx->ob))
		return cli_err(-ENOMEM, "out of memory");
	if (!ret && ctx->collapse && !ob_error(&ctx->ob)) {
		err = write_collapsed(ctx);
		if (err)
			return err;
	}
	if (ctx->json && !ret)
		json_script__end(&ctx->js);
	if (ret > 0 && !ob_error(&ctx->ob)) {
		/* a callback said why */
		(void)ob_flush(&ctx->ob);
		return ret;
	}
	if (!ob_error(&ctx->ob) && ret < 0) {
		err = ob_flush(&ctx->ob);
		if (err)
			return cli_err(err, "cannot write output");
		return cli_err_read(ret, ctx->reader, sampo_session__error(ctx->session));
	}
	if (ctx->per_event_dump)
		return dump_finish(ctx);
	err = ob_flush(&ctx->ob);
	if (err)
		return err == -EPIPE ? err : cli_err(err, "cannot write output");
	return 0;
}

int cmd_script(int argc, const char **argv)
{
	struct script_ctx *ctx;
	const char *input = NULL, *vmlinux = NULL, *kallsyms = NULL, *symfs = NULL;
	const char *archive = NULL;
	const char *guest_vmlinux = NULL, *guest_kallsyms = NULL, *guestmount = NULL;
	bool hide_callchain = false, guest = false, force = false;
	bool inline_frames = false, header_only = false;
	bool show_task = false, show_mmap = false, show_switch = false, show_namespaces = false;
	bool show_cgroup = false, show_lost = false, show_bpf = false, show_round = false;
	int folded = FOLDED_NONE;
	struct folded_opts fopts = { 0 };
	struct flamegraph_opts gopts = { 0 };
	const char *format = NULL;
	int ret;

	/* the context holds the 64 KiB output buffer: keep it off the stack */
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return cli_err(-ENOMEM, "out of memory");
	ctx->fields = DEFAULT_FIELDS;
	ctx->max_stack = PERF_MAX_STACK_DEPTH;
	{
		const struct option opts[] = {
			OPT_STRING(
				'i', "input", &input, "file",
				"input file, '-' for stdin (default: perf.data, or stdin if a pipe)"),
			OPT_CALLBACK(
				'F', "fields", ctx, "fields",
				"fields to print (comm,tid,pid,tod,time,cpu,event,period,trace,ip,sym,"
				"symoff,dso,srcline,addr,data_src,weight,ins_lat,phys_addr,iregs,"
				"uregs,brstack,brstacksym)",
				fields_cb),
			OPT_BOOLEAN('G', "hide-call-graph", &hide_callchain,
				    "do not print call chains"),
			OPT_INTEGER_RANGE(
				0, "max-stack", &ctx->max_stack, "n",
				"print at most n entries of each call chain (default 127)", 0,
				INT_MAX),
			OPT_STRING(0, "stop-bt", &ctx->stop_bt, "symbol[,symbol...]",
				   "end each call chain after an entry in one of these functions"),
			OPT_STRING('c', "comms", &ctx->comms, "comm[,comm...]",
				   "only samples of these commands"),
			OPT_STRING(0, "pid", &ctx->pids, "pid[,pid...]",
				   "only samples of these processes"),
			OPT_STRING(0, "tid", &ctx->tids, "tid[,tid...]",
				   "only samples of these threads"),
			OPT_STRING('C', "cpu", &ctx->cpus, "cpus",
				   "only samples of these CPUs (0-3,7)"),
			OPT_STRING(0, "dsos", &ctx->dsos, "dso[,dso...]",
				   "only samples in these shared objects"),
			OPT_STRING('S', "symbols", &ctx->symbols, "symbol[,symbol...]",
				   "only samples in these functions, or at these addresses (hex)"),
			OPT_STRING(0, "switch-on", &ctx->evswitch.on_name, "event",
				   "only samples after a sample of this event"),
			OPT_STRING(0, "switch-off", &ctx->evswitch.off_name, "event",
				   "no samples after a sample of this event (until the next "
				   "--switch-on)"),
			OPT_BOOLEAN(0, "show-on-off-events", &ctx->evswitch.show_on_off,
				    "the samples of --switch-on and --switch-off events too"),
			OPT_BOOLEAN(0, "ns", &ctx->ns, "times to the nanosecond"),
			OPT_BOOLEAN(0, "reltime", &ctx->reltime,
				    "times since the first sample shown (--time's too)"),
			OPT_BOOLEAN(0, "deltatime", &ctx->deltatime,
				    "times since the previous sample shown"),
			OPT_STRING(0, "time", &ctx->time_str, "start,stop",
				   "only samples in these windows: seconds (664.1,664.2; either "
				   "may be empty; several separated by spaces) or shares of the "
				   "recording (10%/2, 0%-10%,30%-40%, 50%)"),
			OPT_BOOLEAN(0, "full-source-path", &ctx->full_source_path,
				    "srcline: the source file's whole path, not its base name"),
			OPT_BOOLEAN(
				0, "inline", &inline_frames,
				"inlined functions as entries of their own in call chains (DWARF)"),
			OPT_BOOLEAN(0, "header", &ctx->header,
				    "print the file's header first, as sampo header does"),
			OPT_BOOLEAN(0, "header-only", &header_only,
				    "print the file's header only (sampo header)"),
			OPT_BOOLEAN(
				'I', "show-info", &ctx->show_info,
				"with --header: the CPU and NUMA topologies, caches and memory too"),
			OPT_BOOLEAN(
				0, "per-event-dump", &ctx->per_event_dump,
				"each event's samples into a file of its own, INPUT.EVENT.dump; "
				"the side-band records and the header stay on stdout"),
			OPT_STRING(0, "format", &format, "format",
				   "output format: text (the default), json or speedscope"),
			OPT_STRING('k', "vmlinux", &vmlinux, "file", "vmlinux pathname"),
			OPT_STRING(0, "kallsyms", &kallsyms, "file", "kallsyms pathname"),
			OPT_STRING(0, "symfs", &symfs, "dir",
				   "look for files with symbols under this directory"),
			OPT_STRING(0, "archive", &archive, "file",
				   "read symbols from an archive of sampo/perf archive (--all: the "
				   "profile too)"),
			OPT_BOOLEAN(
				'f', "force", &force,
				"use files whose build-id differs, and other users' JIT perf maps"),
			OPT_DEBUGINFOD(),
			OPT_BOOLEAN(0, "guest", &guest,
				    "print guest samples too, each guest as a machine of its own"),
			OPT_STRING(0, "guestvmlinux", &guest_vmlinux, "file",
				   "the guest kernel's vmlinux (implies --guest)"),
			OPT_STRING(0, "guestkallsyms", &guest_kallsyms, "file",
				   "the guest's /proc/kallsyms, saved (implies --guest)"),
			OPT_STRING(0, "guestmount", &guestmount, "dir",
				   "guest PID's files under dir/PID (implies --guest)"),
			OPT_GROUP("Side-band records, each a line among the samples"),
			OPT_BOOLEAN(0, "show-task-events", &show_task,
				    "COMM, FORK and EXIT records"),
			OPT_BOOLEAN(0, "show-mmap-events", &show_mmap, "MMAP and MMAP2 records"),
			OPT_BOOLEAN(0, "show-switch-events", &show_switch,
				    "context switch records (SWITCH, SWITCH_CPU_WIDE)"),
			OPT_BOOLEAN(0, "show-namespace-events", &show_namespaces,
				    "NAMESPACES records"),
			OPT_BOOLEAN(0, "show-cgroup-events", &show_cgroup, "CGROUP records"),
			OPT_BOOLEAN(0, "show-lost-events", &show_lost, "LOST records"),
			OPT_BOOLEAN(0, "show-bpf-events", &show_bpf,
				    "KSYMBOL and BPF_EVENT records"),
			OPT_BOOLEAN(0, "show-round-events", &show_round,
				    "FINISHED_ROUND records; everything then comes in file order, "
				    "not in time order"),
			OPT_GROUP("Folded stacks (perf's stackcollapse script, or FlameGraph's "
				  "stackcollapse-perf.pl)"),
			OPT_CALLBACK_OPTARG(
				0, "folded", &folded, "style",
				"print 'comm;caller;...;callee count' per distinct stack, "
				"as perf's stackcollapse script (perf, the default) or "
				"stackcollapse-perf.pl (flamegraph) makes them",
				folded_cb),
			OPT_BOOLEAN(0, "kernel", &fopts.kernel,
				    "with --folded: '_[k]' after kernel functions"),
			OPT_BOOLEAN(0, "include-pid", &fopts.include_pid,
				    "with --folded: 'comm-pid' as the first frame"),
			OPT_BOOLEAN(0, "include-tid", &fopts.include_tid,
				    "with --folded: 'comm-tid' ('comm-pid/tid' with --include-pid "
				    "or =flamegraph)"),
			{ .type = OPTION_BOOLEAN,
			  .long_name = "no-comm",
			  .value = &fopts.no_comm,
			  .help = "with --folded: no comm frame, all commands together",
			  .flags = OPT_F_NONEG },
			OPT_BOOLEAN(0, "tidy-java", &fopts.tidy_java,
				    "with --folded: Java signatures shortened"),
			OPT_BOOLEAN(0, "jit", &gopts.jit,
				    "with --folded=flamegraph: '_[j]' after /tmp/perf-PID.map "
				    "functions"),
			OPT_BOOLEAN(0, "all", &gopts.all,
				    "with --folded=flamegraph: --kernel and --jit"),
			OPT_BOOLEAN(0, "addrs", &gopts.addrs,
				    "with --folded=flamegraph: '[dso <address>]' for unresolved "
				    "frames"),
			OPT_STRING(0, "event-filter", &gopts.event_filter, "event",
				   "with --folded=flamegraph: the event whose samples are folded "
				   "(default: the first seen)"),
			OPT_END(),
		};

		argc = parse_options(argc, argv, opts, script_usage, 0);
		if (argc > 0)
			argc = usage_error(script_usage, opts, "unexpected argument '%s'", argv[0]);
		else if (argc == 0 && guest_vmlinux && guest_kallsyms)
			argc = usage_error(script_usage, opts,
					   "--guestvmlinux and --guestkallsyms conflict: name one");
		else if (argc == 0)
			argc = check_folded_opts(script_usage, opts, folded, ctx->user_fields,
						 &fopts, &gopts);
	}
	if (argc == 0 && (ctx->fields & (1u << F_SRCLINE)) && !(ctx->fields & (1u << F_IP)))
		argc = usage_error(script_usage, NULL,
				   "-F srcline: sample IP is not selected, so there is no address "
				   "to look the source line up (add ip)");
	else if (argc == 0 && format && strcmp(format, "text") && strcmp(format, "json") &&
	    strcmp(format, "speedscope"))
		argc = usage_error(script_usage, NULL,
				   "unknown --format '%s' (text, json, speedscope)", format);
	else if (argc == 0 && format && folded && !strcmp(format, "json"))
		argc = usage_error(script_usage, NULL, "--folded and --format json conflict");
	else if (argc == 0 && ctx->reltime && ctx->deltatime)
		argc = usage_error(script_usage, NULL,
				   "--reltime and --deltatime conflict: one or the other");
	if (argc < 0) {
		free(ctx);
		return argc;
	}
	ctx->json = format && !strcmp(format, "json");
	ctx->show = (show_task ? SHOW_TASK : 0) | (show_mmap ? SHOW_MMAP : 0) |
		    (show_switch ? SHOW_SWITCH : 0) | (show_namespaces ? SHOW_NAMESPACES : 0) |
		    (show_cgroup ? SHOW_CGROUP : 0) | (show_lost ? SHOW_LOST : 0) |
		    (show_bpf ? SHOW_BPF : 0) | (show_round ? SHOW_ROUND : 0);
	if (ctx->show && (folded || ctx->json || (format && !strcmp(format, "speedscope")))) {
		free(ctx);
		return usage_error(script_usage, NULL,
				   "--show-*-events print text lines among the samples: not with "
				   "--folded or --format json|speedscope");
	}
	if (ctx->per_event_dump &&
	    (folded || ctx->json || (format && !strcmp(format, "speedscope")))) {
		free(ctx);
		return usage_error(
			script_usage, NULL,
			"--per-event-dump writes the text of each event's samples to a "
			"file of its own: not with --folded or --format json|speedscope");
	}
	argc = archive_view_setup(archive, &input);
	if (argc) {
		free(ctx);
		return argc;
	}
	ctx->input = input && *input ? input : cli_default_input();
	if (header_only) {
		bool show_info = ctx->show_info;

		free(ctx);
		return header_print(input && *input ? input : cli_default_input(), show_info,
				    stdout);
	}
	if (format && !strcmp(format, "speedscope")) {
		const struct profile_sym_opts sym = {
			.vmlinux = vmlinux, .kallsyms = kallsyms, .symfs = symfs, .force = force
		};

		free(ctx);
		return script_speedscope(input && *input ? input : cli_default_input(), &sym);
	}
	ctx->hide_callchain = hide_callchain;
	ctx->inline_frames = inline_frames;
	/* perf script turns guests on when given a guest's symbols */
	ctx->guest = guest || guest_vmlinux || guest_kallsyms || guestmount;
	/* fields left NULL (live_root, for tests) keep the library's defaults */
	ctx->sym_opts = (struct sampo_symbolizer_opts){
		.sz = sizeof(struct sampo_symbolizer_opts),
		.vmlinux = vmlinux,
		.kallsyms = kallsyms,
		.symfs = symfs,
		.force = force,
		.guest_vmlinux = guest_vmlinux,
		.guest_kallsyms = guest_kallsyms,
		.guestmount = guestmount,
	};
	cli_debuginfod_apply(&ctx->sym_opts);
	if (folded == FOLDED_PERF && folded_new(&fopts, &ctx->folded)) {
		free(ctx);
		return cli_err(-ENOMEM, "out of memory");
	}
	ob_init_fd(&ctx->ob, STDOUT_FILENO);
	if (ctx->per_event_dump)
		ob_init_sink(&ctx->ob, dump_sink, ctx);
	if (folded == FOLDED_FLAMEGRAPH) {
		/* stackcollapse-perf.pl's --pid and --tid want perf script -F +pid */
		const struct collapse_opts copts = {
			.pid = fopts.include_pid,
			.tid = fopts.include_tid,
			.kernel = fopts.kernel || gopts.all,
			.jit = gopts.jit || gopts.all,
			.addrs = gopts.addrs,
			.event_filter = gopts.event_filter,
		};

		if (!ctx->user_fields && (copts.pid || copts.tid))
			ctx->fields |= 1u << F_PID;
		if (collapse_new(&copts, &ctx->collapse)) {
			free(ctx);
			return cli_err(-ENOMEM, "out of memory");
		}
		ob_init_sink(&ctx->ob, collapse_sink, ctx->collapse);
	}
	(void)fflush(stdout);
	ret = run_script(ctx);
	script_ctx_release(ctx);
	free(ctx);
	return ret;
}
