// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-record.c - `sampo record`: sample a command, processes, threads or the
 * whole machine with perf_event_open(2) and write a perf.data file that perf
 * 6.1 and sampo both read.
 *
 * Flow:
 *
 *	parse options -> events (default cycles, else cpu-clock) -> targets
 *	-> [fork the command, stopped before exec on a pipe]
 *	-> open the events per CPU (+ per thread) -> one ring per CPU
 *	-> writer: attrs, then the synthesized state: kernel map, modules
 *	   (+ their section maps), threads (all with -a, the targets' with
 *	   -p/-t, "sampo-exec" COMM for a command), FINISHED_INIT; the header
 *	   features known now (host, cmdline, event_desc); meanwhile a second
 *	   thread puts the kallsyms snapshot into the build-id cache. From the
 *	   attrs on, the file's header is valid and rewritten at each flush
 *	   (the writer's keep_readable): SIGKILL leaves a readable file
 *	-> start (the command's exec enables the counters: enable_on_exec)
 *	-> loop: poll, drain every ring (records go to the file as they are and
 *	   to the DSO hit tracker), FINISHED_ROUND and a flush after each pass
 *	   with data
 *	-> command exit, SIGINT/SIGTERM, or every target gone: disable, drain
 *	-> SAMPLE_TIME, build-id table of the DSOs with samples, close (on a
 *	   write error: recover the complete records); build-id cache; summary.
 *
 * The DSOs with samples are known when the loop ends (lib/dsohits.c keeps
 * them up to date while draining), so unlike perf there is no second pass
 * over the file: the time after the workload ends is the final drain, a few
 * ELF note reads and the cache copies.
 *
 * What perf record decides lives in the library; this file holds the
 * options, the order of the steps and the messages: -e and the attrs with
 * perf's fallbacks (parse-events.h), CPUs and threads (target.h), the
 * modules loaded while recording (proc-modules.h), the build-id table
 * (dsohits.h) and what goes into the build-id cache (buildid-cache.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <sampo/buildid-cache.h>
#include <sampo/buildid.h>
#include <sampo/dsohits.h>
#include <sampo/event.h>
#include <sampo/evlist.h>
#include <sampo/feature.h>
#include <sampo/inject.h>
#include <sampo/modsections.h>
#include <sampo/parse-events.h>
#include <sampo/reader.h>
#include <sampo/regs.h>
#include <sampo/proc-modules.h>
#include <sampo/recover.h>
#include <sampo/synthesize.h>
#include <sampo/target.h>
#include <sampo/workload.h>
#include <sampo/writer.h>

#include "builtin.h"
#include "cli.h"
#include "options.h"
#include "record-compress.h"
#include "record-state.h"

#ifndef SAMPO_VERSION
#define SAMPO_VERSION "unknown"
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_EVENTS   16
#define DEFAULT_FREQ 4000 /* perf's default sampling frequency, Hz */

static const char *const record_usage[] = {
	"sampo record [<options>] [--] <command> [<args>]",
	"sampo record [<options>] (-a | -p <pid> | -t <tid> | -u <user>)",
	"",
	"Sample a command (or processes, threads, a user's processes, every CPU) into perf.data.",
	NULL,
};

/* Set by the signal handlers, read by the main loop. */
static volatile sig_atomic_t record_done;
static volatile sig_atomic_t record_child_exited;
static volatile sig_atomic_t record_signal;
static volatile sig_atomic_t record_switch; /* SIGUSR2 with --switch-output */

/* --switch-output: the file changes on SIGUSR2, at a size, or every so often */
enum switch_mode {
	SWITCH_NONE,
	SWITCH_SIGNAL,
	SWITCH_SIZE,
	SWITCH_TIME,
};

struct record_opts {
	const char *output;
	char *events_arg; /* every -e, joined by commas (perf takes each) */
	const char *pids_arg;
	const char *tids_arg;
	const char *cpus_arg;
	const char *uid_arg; /* -u: the processes of this user */
	uint64_t freq;
	uint64_t period;
	int mmap_pages;
	struct sampo_callgraph callgraph; /* -g, --call-graph */
	bool freq_max;			  /* -F max */
	bool all_cpus;
	bool quiet;
	bool no_buildid_cache;
	bool no_buildid_mmap;
	bool embed_symbols; /* --embed-symbols: sampo inject's, as the recording ends */
	bool all_user, all_kernel, no_inherit, switch_events, namespaces, sample_address,
		sample_cpu; /* as struct sampo_event_attr_opts */
	bool always;	    /* -T, -P: what every sample has anyway */
	uint64_t max_size;  /* --max-size: stop once the file has this many bytes (0: none) */
	int comp_level;	    /* -z: zstd level of the COMPRESSED records, -1: none */
	int delay_ms;	    /* -D: no samples in the first ms after the start (the exec) */
	uint64_t intr_regs, user_regs; /* -I, --user-regs: register masks */
	enum switch_mode switch_output; /* --switch-output: what starts a new file */
	uint64_t switch_size;		/* its bytes (SWITCH_SIZE) */
	uint64_t switch_secs;		/* its seconds (SWITCH_TIME) */
	int switch_max_files;		/* --switch-max-files: keep the last n (0: all) */
	int clockid;			/* -k: the sample times' clock, -1: perf_clock */
	bool no_buildid;		/* -B: no build-id table (and no cache) */
	bool buildid_all;		/* the build-ids of every DSO mapped, hit or not */
	bool timestamp_filename;	/* OUTPUT.<timestamp>, as --switch-output names them */
	bool kernel_callchains;		/* only the kernel part of the call chains */
	bool user_callchains;		/* only the user part */
	bool weight, phys_data, sample_identifier; /* -W, --phys-data, --sample-identifier */
	bool strict_freq;			   /* -F above the kernel's limit is an error */
	bool no_bpf_event, no_samples, raw_samples, running_time, data_page_size,
		code_page_size;	 /* perf's attribute switches of the same names */
	bool timestamp_boundary; /* always: SAMPLE_TIME is written anyway */
	bool no_buffering;	 /* a wakeup for every sample (perf's --no-buffering) */
	bool buildid_mmap;	 /* the default: said against --no-buildid-mmap */
	bool dry_run;		 /* check the options and the events, record nothing */
	int realtime_prio;	 /* -r: the recorder runs SCHED_FIFO at this priority */
	int verbose;
};

struct record_ctx {
	struct record_opts opts;
	struct sampo_event_spec events[MAX_EVENTS];
	size_t nr_events;
	struct sampo_target *target; /* CPUs, threads; the processes of -p and -t to synthesize */

	struct sampo_evlist *evlist;
	struct sampo_writer *writer;
	struct sampo_dsohits *hits;
	struct sampo_event_attr attr0; /* for parsing records: all events share the layout */
	bool pipe_output;
	uint64_t data_offset; /* file mode: where the records start (for recovery) */

	struct sampo_workload *workload; /* the command, when there is one */
	pid_t child;			 /* its pid, or 0 */
	bool child_reaped;

	struct record_compress *comp; /* -z */
	size_t comp_cap;	      /* what one COMPRESSED record may inflate to */
	/*
	 * -D: the samples of the first delay_ms are dropped as they are read,
	 * by their own time: from the first record of the recording (the
	 * command's exec, its COMM), in the kernel's clock
	 */
	uint64_t delay_from;	     /* that record's time; 0 before it */
	bool delay_over;	     /* "Events enabled" said */
	struct timespec delay_start; /* the start, for that message */
	uint64_t nr_samples;
	uint64_t nr_lost;
	int write_err;
	struct timespec t_workload_end;

	/* the kallsyms snapshot goes into the cache while the workload runs */
	pthread_t kallsyms_thread;
	bool kallsyms_started;
	struct sampo_build_id kernel_bid;

	/*
	 * Modules: the ones seen so far, and the section maps of all of them.
	 * Modules loaded while recording get a map when they are noticed and
	 * their sections are read at once (and again at the end).
	 */
	struct sampo_module_watch *modwatch; /* NULL: not tracked */
	struct sampo_module_sections *modsecs;
	struct timespec modules_checked;

	/*
	 * --switch-output: each finished file is renamed OUTPUT.<timestamp>;
	 * the names kept (--switch-max-files: the last n, in a ring)
	 */
	struct timespec file_start;
	char **dumped;
	size_t nr_dumped;
	char last_name[PATH_MAX];	/* the file the summary names */
	union sampo_record *kernel_map; /* the first synthesis's, written again */
	/*
	 * The threads and maps the records so far made (--switch-output): a
	 * new file starts with them, not with /proc, where a process that has
	 * just ended would be missing while its last samples are in the rings
	 */
	struct record_state *state;
	int switch_err; /* a new file failed (said) */
	/* -k: one instant on the time of day and on the sampling clock (CLOCK_DATA) */
	uint64_t clock_tod_ns, clock_clockid_ns, clock_res_ns;
};

/* What is one output file's: start_next_file() trades it with swap_file(). */
struct output_state {
	struct sampo_writer *writer;
	struct sampo_dsohits *hits;
	struct record_compress *comp;
	uint64_t data_offset, nr_samples, nr_lost;
	int write_err;
};

/* ---- argument parsing ------------------------------------------------- */

static int parse_events(struct record_ctx *ctx, const char *arg)
{
	size_t bad = 0;
	int err;

	err = sampo_event_specs__parse(arg, ctx->events, MAX_EVENTS, &ctx->nr_events, &bad);
	if (err == -E2BIG)
		return usage_error(record_usage, NULL, "too many events");
	if (err == -ENOENT)
		return cli_err(-EINVAL,
			       "unknown event '%.*s' (known: cycles, instructions, "
			       "cpu-clock, task-clock, page-faults, context-switches, "
			       "cpu-migrations, ...)",
			       (int)strcspn(arg + bad, ","), arg + bad);
	if (err)
		return cli_err(-EINVAL, "invalid event '%.*s'", (int)strcspn(arg + bad, ","),
			       arg + bad);
	return 0;
}

/* the kernel's perf_event_max_stack, which caps fp,N as in perf */
static unsigned long max_stack_sysctl(void)
{
	unsigned long v = 127; /* PERF_MAX_STACK_DEPTH, perf's fallback */
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");

	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 127;
		fclose(f);
	}
	return v;
}

/* --call-graph MODE[,ARG], read as perf's parse_callchain_record() reads it */
static int opt_call_graph(const struct option *opt, const char *arg, bool unset)
{
	struct sampo_callgraph *cg = opt->value;
	int err;

	if (unset) {
		memset(cg, 0, sizeof(*cg));
		return 0;
	}
	err = sampo_callgraph__parse(arg, max_stack_sysctl(), cg);
	if (err == -ERANGE)
		parse_opt_fail("callchain: Incorrect stack dump size (max %u): %s",
			       SAMPO_CALLGRAPH_DWARF_MAX_SIZE, strchr(arg, ',') + 1);
	else if (err == -E2BIG)
		parse_opt_fail("callchain: No more arguments needed for --call-graph lbr");
	else if (err)
		parse_opt_fail("callchain: Unknown --call-graph option value: %s (fp, dwarf[,SIZE], lbr)",
			       arg);
	return err;
}

/* -g: frame pointers, perf's default record mode */
static int opt_g(const struct option *opt, const char *arg, bool unset)
{
	struct sampo_callgraph *cg = opt->value;

	(void)arg;
	memset(cg, 0, sizeof(*cg));
	if (!unset)
		cg->mode = SAMPO_CALLGRAPH_FP;
	return 0;
}

/* -e: one more list of events; perf records those of every -e */
static int opt_event(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char *joined;

	if (unset)
		return -EINVAL;
	if (!o->events_arg)
		joined = strdup(arg);
	else if (asprintf(&joined, "%s,%s", o->events_arg, arg) < 0)
		joined = NULL;
	if (!joined) {
		parse_opt_fail("out of memory");
		return -EINVAL;
	}
	free(o->events_arg);
	o->events_arg = joined;
	return 0;
}

/* -z, --compression-level[=N]: perf's record__parse_comp_level(); 1 without N */
static int opt_comp_level(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char *end;
	long n;

	if (unset) {
		o->comp_level = -1;
		return 0;
	}
	if (!arg) {
		o->comp_level = 1;
		return 0;
	}
	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || end == arg || *end || n < 0 || n > RECORD_COMPRESS_MAX_LEVEL) {
		parse_opt_fail("-z: invalid compression level '%s' (0 to %d; 0: zstd's default, "
			       "1: the fastest, as perf's -z)",
			       arg, RECORD_COMPRESS_MAX_LEVEL);
		return -EINVAL;
	}
	o->comp_level = (int)n;
	return 0;
}

/*
 * -I[=REGS], --user-regs[=REGS]: perf's parse_regs(). The registers this
 * machine can sample (those --call-graph dwarf samples: AX ... R15 on
 * x86_64), all without a list, else the ones named, in any case; "?" lists
 * them.
 */
static int opt_regs(const struct option *opt, const char *arg, bool unset)
{
	uint64_t *mask = opt->value, avail = sampo_reg__user_mask();
	const char *flag = opt->short_name ? "-I" : "--user-regs";
	const char *arch;
	struct utsname uts;
	char *copy, *save = NULL;

	if (unset) {
		*mask = 0;
		return 0;
	}
	if (!avail) {
		parse_opt_fail("%s: sampo samples no registers on this architecture", flag);
		return -EINVAL;
	}
	if (!arg) {
		*mask = avail;
		return 0;
	}
	arch = sampo_arch__normalize(uname(&uts) ? "" : uts.machine);
	if (!strcmp(arg, "?")) {
		fprintf(stderr, "available registers:");
		for (unsigned int r = 0; r < 64; r++)
			if (avail & (1ULL << r))
				fprintf(stderr, " %s", sampo_reg__name(arch, r));
		fputc('\n', stderr);
		parse_opt_fail("%s: those are the registers sampo samples here", flag);
		return -EINVAL;
	}
	copy = strdup(arg);
	if (!copy)
		return -ENOMEM;
	*mask = 0;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		unsigned int r;

		for (r = 0; r < 64; r++)
			if ((avail & (1ULL << r)) && !strcasecmp(sampo_reg__name(arch, r), name))
				break;
		if (r == 64) {
			parse_opt_fail("%s: unknown register '%s' ('sampo record %s?' lists them)",
				       flag, name, opt->short_name ? "-I" : "--user-regs=");
			free(copy);
			return -EINVAL;
		}
		*mask |= 1ULL << r;
	}
	free(copy);
	return 0;
}

/* --max-size N[BKMG]: perf's parse_output_max_size() wants the unit */
static int opt_max_size(const struct option *opt, const char *arg, bool unset)
{
	static const char units[] = "BKMG";
	struct record_opts *o = opt->value;
	const char *unit;
	uint64_t n;
	char *end;

	if (unset) {
		o->max_size = 0;
		return 0;
	}
	errno = 0;
	n = strtoull(arg, &end, 10);
	unit = *end ? strchr(units, *end) : NULL;
	if (errno || end == arg || arg[0] == '-' || !unit || end[1] || !n ||
	    n > (UINT64_MAX >> (10 * (unit - units)))) {
		parse_opt_fail(
			"--max-size: invalid size '%s' (a number with its unit: B, K, M or G, "
			"as 512M)",
			arg);
		return -EINVAL;
	}
	o->max_size = n << (10 * (unit - units));
	return 0;
}

/*
 * -k/--clockid NAME|NUMBER, perf's parse_clockid(): monotonic (mono),
 * monotonic_raw (raw), realtime (real), boottime (boot), tai, with or
 * without CLOCK_ in front, or the clock's number; one this kernel has
 */
static int opt_clockid(const struct option *opt, const char *arg, bool unset)
{
	static const struct {
		const char *name;
		clockid_t id;
	} names[] = {
		{ "monotonic", CLOCK_MONOTONIC },
		{ "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW },
		{ "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME },
		{ "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME },
		{ "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	struct record_opts *o = opt->value;
	const char *name = arg;
	struct timespec res;
	char *end;
	long n;

	if (unset) {
		o->clockid = -1;
		return 0;
	}
	if (!strncasecmp(name, "CLOCK_", 6))
		name += 6;
	o->clockid = -1;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcasecmp(name, names[i].name))
			o->clockid = names[i].id;
	errno = 0;
	n = strtol(name, &end, 10);
	if (o->clockid < 0 && !errno && end != name && !*end && n >= 0 && n < INT_MAX)
		o->clockid = (int)n;
	if (o->clockid < 0 || clock_getres(o->clockid, &res)) {
		parse_opt_fail("-k: unknown clock '%s' (monotonic, monotonic_raw, realtime, "
			       "boottime, tai, or a number this kernel knows)",
			       arg);
		o->clockid = -1;
		return -EINVAL;
	}
	return 0;
}

/*
 * --switch-output[=signal|SIZE|TIME], perf's switch_output_setup(): SIGUSR2
 * (the default), a size with its unit (B, K, M, G: 100M), or a time with its
 * (s, m, h, d: 30s)
 */
static int opt_switch_output(const struct option *opt, const char *arg, bool unset)
{
	static const char sizes[] = "BKMG";
	static const struct {
		char unit;
		uint64_t secs;
	} times[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
	struct record_opts *o = opt->value;
	const char *unit;
	uint64_t n;
	char *end;

	if (unset) {
		o->switch_output = SWITCH_NONE;
		return 0;
	}
	if (!arg || !strcmp(arg, "signal")) {
		o->switch_output = SWITCH_SIGNAL;
		return 0;
	}
	errno = 0;
	n = strtoull(arg, &end, 10);
	if (!errno && end != arg && arg[0] != '-' && n && *end && !end[1]) {
		unit = strchr(sizes, *end);
		if (unit && n <= (UINT64_MAX >> (10 * (unit - sizes)))) {
			o->switch_output = SWITCH_SIZE;
			o->switch_size = n << (10 * (unit - sizes));
			return 0;
		}
		for (size_t i = 0; i < ARRAY_SIZE(times); i++) {
			if (*end == times[i].unit && n <= UINT64_MAX / times[i].secs) {
				o->switch_output = SWITCH_TIME;
				o->switch_secs = n * times[i].secs;
				return 0;
			}
		}
	}
	parse_opt_fail("--switch-output: invalid value '%s' (signal, a size with its unit: B, K, "
		       "M or G, as 100M, or a time with its: s, m, h or d, as 30s)",
		       arg);
	return -EINVAL;
}

/* -F N or -F max (perf's record__parse_freq()) */
static int opt_freq(const struct option *opt, const char *arg, bool unset)
{
	struct record_opts *o = opt->value;
	char *end;

	if (unset)
		return -EINVAL;
	if (!strcmp(arg, "max")) {
		o->freq_max = true;
		return 0;
	}
	o->freq_max = false;
	errno = 0;
	o->freq = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || arg[0] == '-') {
		parse_opt_fail("-F: invalid frequency '%s' (a number of Hz, or max)", arg);
		return -EINVAL;
	}
	return 0;
}

/* ---- signals and the command ------------------------------------------- */

static void on_signal(int sig)
{
	record_signal = sig;
	record_done = 1;
}

static void on_sigusr2(int sig)
{
	(void)sig;
	record_switch = 1;
}

static void on_sigchld(int sig)
{
	(void)sig;
	record_child_exited = 1;
}

static void install_signals(const struct record_opts *o)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_signal; /* no SA_RESTART: poll() returns at once */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (o->switch_output == SWITCH_SIGNAL) {
		sa.sa_handler = on_sigusr2;
		sigaction(SIGUSR2, &sa, NULL);
	}
	sa.sa_handler = on_sigchld;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

/* Whether the command has ended; when it did, for -v. */
static bool reap_child(struct record_ctx *ctx, bool block)
{
	if (!ctx->workload || ctx->child_reaped)
		return ctx->child_reaped;
	if (sampo_workload__reap(ctx->workload, block)) {
		ctx->child_reaped = true;
		clock_gettime(CLOCK_MONOTONIC, &ctx->t_workload_end);
	}
	return ctx->child_reaped;
}

/* ---- events ------------------------------------------------------------ */

/* -a or -C: every thread of the CPUs, the command's or not */
static bool system_wide(const struct record_ctx *ctx)
{
	return ctx->opts.all_cpus || ctx->opts.cpus_arg;
}

static int make_attrs(struct record_ctx *ctx, struct sampo_event_attr *attrs)
{
	const struct record_opts *o = &ctx->opts;
	SAMPO_OPTS(sampo_event_attr_opts, ao, .freq_hz = o->freq, .period = o->period,
		   .callgraph = o->callgraph.mode ? &o->callgraph : NULL,
		   .system_wide = system_wide(ctx), .per_thread = o->tids_arg != NULL,
		   .enable_on_exec = ctx->child > 0, .no_buildid_mmap = o->no_buildid_mmap,
		   .all_user = o->all_user, .all_kernel = o->all_kernel,
		   .no_inherit = o->no_inherit, .switch_events = o->switch_events,
		   .namespaces = o->namespaces, .sample_address = o->sample_address,
		   .sample_cpu = o->sample_cpu, .intr_regs = o->intr_regs,
		   .user_regs = o->user_regs);

	int err = sampo_event_specs__attrs(ctx->events, ctx->nr_events, &ao, attrs);

	for (size_t i = 0; !err && i < ctx->nr_events; i++) {
		struct sampo_event_attr *a = &attrs[i];

		if (o->clockid >= 0) {
			a->flags |= SAMPO_ATTR_USE_CLOCKID;
			a->clockid = o->clockid;
		}
		/* perf's evsel__config_callchain(): both flags may be set */
		if ((a->sample_type & SAMPO_SAMPLE_CALLCHAIN) && o->kernel_callchains)
			a->flags |= SAMPO_ATTR_EXCLUDE_CALLCHAIN_USER;
		if ((a->sample_type & SAMPO_SAMPLE_CALLCHAIN) && o->user_callchains)
			a->flags |= SAMPO_ATTR_EXCLUDE_CALLCHAIN_KERNEL;
			/* perf's arch_evsel__set_sample_weight(): x86 has the struct of weights */
#if defined(__x86_64__) || defined(__i386__)
		if (o->weight)
			a->sample_type |= SAMPO_SAMPLE_WEIGHT_STRUCT;
#else
		if (o->weight)
			a->sample_type |= SAMPO_SAMPLE_WEIGHT;
#endif
		if (o->phys_data)
			a->sample_type |= SAMPO_SAMPLE_PHYS_ADDR;
		if (o->data_page_size)
			a->sample_type |= SAMPO_SAMPLE_DATA_PAGE_SIZE;
		if (o->code_page_size)
			a->sample_type |= SAMPO_SAMPLE_CODE_PAGE_SIZE;
		/* perf's -R: the raw data, with the time and the CPU */
		if (o->raw_samples)
			a->sample_type |= SAMPO_SAMPLE_RAW | SAMPO_SAMPLE_TIME | SAMPO_SAMPLE_CPU;
		if (o->running_time)
			a->read_format |=
				SAMPO_FORMAT_TOTAL_TIME_ENABLED | SAMPO_FORMAT_TOTAL_TIME_RUNNING;
		if (o->no_bpf_event)
			a->flags &= ~SAMPO_ATTR_BPF_EVENT;
		/* perf's -n: the events count, nothing samples them (the frequency stays set) */
		if (o->no_samples)
			a->sample_period = 0;
		if (o->no_buffering)
			a->wakeup_events = 1;
		/* perf's evsel__set_sample_id(): the identifier stands for ID */
		if (o->sample_identifier)
			a->sample_type = (a->sample_type & ~(uint64_t)SAMPO_SAMPLE_ID) |
					 SAMPO_SAMPLE_IDENTIFIER;
	}
	return err;
}

/* The notice for perf's fallbacks (sampo_event_specs__fallback()). */
static void say_fallback(const struct record_ctx *ctx, enum sampo_event_fallback what,
			 const char *old_name)
{
	int paranoid;

	if (ctx->opts.quiet)
		return;
	if (what == SAMPO_EVENT_FALLBACK_CPU_CLOCK) {
		fprintf(stderr,
			"sampo record: no hardware '%s' event here, falling back to "
			"'cpu-clock'\n",
			old_name);
		return;
	}
	sampo_event_limits__read(NULL, &paranoid, NULL);
	fprintf(stderr,
		"sampo record: kernel sampling is not permitted (perf_event_paranoid=%d), "
		"recording user space only\n",
		paranoid);
}

/* the threads of @threads still there (a tid has its /proc entry too); how many */
static size_t live_threads(const int *threads, size_t nr, int *live)
{
	size_t n = 0;

	for (size_t i = 0; i < nr; i++) {
		char path[32];

		snprintf(path, sizeof(path), "/proc/%d", threads[i]);
		if (!access(path, F_OK))
			live[n++] = threads[i];
	}
	return n;
}

static int open_events(struct record_ctx *ctx)
{
	size_t nr_cpus, nr_threads;
	const int *cpus = sampo_target__cpus(ctx->target, &nr_cpus);
	const int *threads = sampo_target__threads(ctx->target, &nr_threads);
	struct sampo_event_attr attrs[MAX_EVENTS];
	enum sampo_event_fallback what;
	char old_name[SAMPO_EVENT_SPEC_NAME_SIZE];
	int *live = NULL, err, idx, tries = 0;

	for (;;) {
		ctx->evlist = sampo_evlist__new();
		if (!ctx->evlist) {
			err = cli_err(-ENOMEM, "out of memory");
			goto out;
		}
		err = make_attrs(ctx, attrs);
		if (err) {
			err = cli_err(err, "cannot set up the events");
			goto out;
		}
		for (size_t i = 0; i < ctx->nr_events; i++) {
			err = sampo_evlist__add(ctx->evlist, &attrs[i], ctx->events[i].name);
			if (err < 0) {
				err = cli_err(err, "cannot add event '%s'", ctx->events[i].name);
				goto out;
			}
		}
		err = sampo_evlist__open(ctx->evlist, cpus, nr_cpus, threads, nr_threads);
		if (!err)
			goto out;
		/*
		 * -p, -u: a thread that ended since it was listed is left out, as
		 * perf's ignore_missing_thread does (a user's short-lived processes)
		 */
		if (err == -ESRCH && (ctx->opts.pids_arg || ctx->opts.uid_arg) && tries++ < 100) {
			if (!live)
				live = malloc((nr_threads ? nr_threads : 1) * sizeof(*live));
			if (!live) {
				err = cli_err(-ENOMEM, "out of memory");
				goto out;
			}
			nr_threads = live_threads(threads, nr_threads, live);
			threads = live;
			sampo_evlist__delete(ctx->evlist);
			ctx->evlist = NULL;
			if (nr_threads)
				continue;
			err = cli_err(err, "every process to record has ended");
			goto out;
		}
		idx = sampo_evlist__failed_event(ctx->evlist);
		snprintf(old_name, sizeof(old_name), "%s",
			 idx >= 0 && (size_t)idx < ctx->nr_events ? ctx->events[idx].name : "?");
		if (!sampo_event_specs__fallback(ctx->events, ctx->nr_events, idx, err, &what))
			break;
		say_fallback(ctx, what, old_name);
		sampo_evlist__delete(ctx->evlist);
		ctx->evlist = NULL;
	}
	if (ctx->opts.callgraph.mode == SAMPO_CALLGRAPH_LBR &&
	    (err == -EOPNOTSUPP || err == -EINVAL || err == -ENOENT))
		err = cli_err(err,
			      "%s: PMU Hardware or event type doesn't support branch stack "
			      "sampling: --call-graph lbr needs a hardware event on a CPU with "
			      "LBR call stacks (Intel Haswell or later); use fp or dwarf",
			      old_name);
	else if (err == -EACCES || err == -EPERM)
		err = cli_err(err,
			      "cannot open event '%s' (check "
			      "/proc/sys/kernel/perf_event_paranoid)",
			      old_name);
	else if (err == -ESRCH)
		err = cli_err(err, "cannot open event '%s': no such process", old_name);
	else if (sampo_event_open_error__missing(err))
		err = cli_err(err, "event '%s' is not supported here", old_name);
	else
		err = cli_err(err, "cannot open event '%s'", old_name);
out:
	free(live);
	return err;
}

/* ---- the record stream --------------------------------------------------- */

static int on_synth(void *opaque, const union sampo_record *rec)
{
	struct record_ctx *ctx = opaque;
	int err = sampo_writer__write_record(ctx->writer, rec);

	/* --switch-output: what a new file starts with (synthesized records come in order) */
	if (!err && ctx->state)
		err = record_state__apply(ctx->state, rec);
	if (!err)
		err = sampo_dsohits__add(ctx->hits, &ctx->attr0, rec);
	return err == -SAMPO_ERR_MALFORMED ? 0 : err;
}

/* the kernel map, kept for the next files of --switch-output (_text does not move) */
static int on_synth_kernel(void *opaque, const union sampo_record *rec)
{
	struct record_ctx *ctx = opaque;

	if (ctx->opts.switch_output && !ctx->kernel_map && rec->header.type == SAMPO_RECORD_MMAP) {
		ctx->kernel_map = malloc(rec->header.size);
		if (!ctx->kernel_map)
			return -ENOMEM;
		memcpy(ctx->kernel_map, rec, rec->header.size);
	}
	return on_synth(opaque, rec);
}

/* -D: whether @rec is a sample of the delay, to be dropped */
static bool in_delay(struct record_ctx *ctx, const union sampo_record *rec)
{
	struct sampo_sample s;

	if (sampo_sample__parse(&ctx->attr0, rec, false, &s) || s.time == (uint64_t)-1)
		return false;
	if (!ctx->delay_from)
		ctx->delay_from = s.time;
	return rec->header.type == SAMPO_RECORD_SAMPLE &&
	       s.time - ctx->delay_from < (uint64_t)ctx->opts.delay_ms * 1000000u;
}

static int on_record(void *opaque, const union sampo_record *rec, size_t ring)
{
	struct record_ctx *ctx = opaque;
	int err;

	(void)ring;
	if (ctx->opts.delay_ms > 0 && in_delay(ctx, rec))
		return 0;
	switch (rec->header.type) {
	case SAMPO_RECORD_SAMPLE:
		ctx->nr_samples++;
		break;
	case SAMPO_RECORD_LOST:
		ctx->nr_lost += rec->header.size >= sizeof(rec->lost) ? rec->lost.lost : 0;
		break;
	case SAMPO_RECORD_LOST_SAMPLES:
		ctx->nr_lost +=
			rec->header.size >= sizeof(rec->lost_samples) ? rec->lost_samples.lost : 0;
		break;
	default:
		break;
	}
	/* host order in, host order out: the bytes go to the file as the kernel wrote them */
	err = ctx->comp ? record_compress__add(ctx->comp, ctx->writer, rec, rec->header.size) :
			  sampo_writer__write_raw(ctx->writer, rec, rec->header.size);
	if (err) {
		ctx->write_err = err;
		return err;
	}
	if (ctx->state && rec->header.type != SAMPO_RECORD_SAMPLE) {
		err = record_state__queue(ctx->state, rec);
		if (err)
			return err;
	}
	err = sampo_dsohits__add(ctx->hits, &ctx->attr0, rec);
	return err == -SAMPO_ERR_MALFORMED ? 0 : err;
}

/* One pass over every ring; FINISHED_ROUND when it wrote anything. */
static int drain_round(struct record_ctx *ctx)
{
	int64_t n = sampo_evlist__drain(ctx->evlist, on_record, ctx);
	int err;

	if (n < 0)
		return (int)n;
	if (n == 0)
		return 0;
	err = sampo_dsohits__flush(ctx->hits);
	if (!err && ctx->state)
		err = record_state__end_round(ctx->state);
	if (!err && ctx->comp)
		err = record_compress__flush(ctx->comp, ctx->writer);
	if (!err)
		err = sampo_writer__write_finished_round(ctx->writer);
	/* file mode: on disk, with a header that counts it, should we be killed now */
	if (!err && !ctx->pipe_output)
		err = sampo_writer__flush(ctx->writer);
	if (err)
		ctx->write_err = err;
	return err;
}

/*
 * Where each section of each module is, from /sys/module/NAME/sections, in a
 * feature of its own (see modsections.h), so that reports place every
 * section. File mode only: perf 6.1 skips an unknown feature bit in a file
 * but stops at an unknown HEADER_FEATURE record in a pipe. Called at the
 * start and again at the end, so that the modules loaded in between are in
 * it too.
 */
static void save_module_sections(struct record_ctx *ctx)
{
	if (ctx->pipe_output)
		return;
	if (!ctx->modsecs && sampo_module_sections__collect("/sys", &ctx->modsecs)) {
		cli_warn("cannot read the module sections under /sys/module");
		return;
	}
	/* the modules loaded since: still listed under /sys/module if still loaded */
	for (size_t i = 0; i < sampo_module_watch__nr(ctx->modwatch); i++) {
		const char *name = sampo_module_watch__name(ctx->modwatch, i);
		size_t nr_secs;

		if (!sampo_module_sections__find(ctx->modsecs, NULL, name, &nr_secs))
			(void)sampo_module_sections__collect_one(ctx->modsecs, "/sys", name);
	}
	if (sampo_module_sections__nr(ctx->modsecs) &&
	    sampo_module_sections__write(ctx->modsecs, ctx->writer))
		cli_warn("cannot save the module sections");
}

/* writes only the maps of the modules the last poll found */
static int on_synth_new_module(void *opaque, const union sampo_record *rec)
{
	struct record_ctx *ctx = opaque;

	if (rec->header.type != SAMPO_RECORD_MMAP ||
	    !sampo_module_watch__is_new(ctx->modwatch, rec->mmap.filename))
		return 0;
	return on_synth(opaque, rec);
}

/*
 * A module loaded while recording: a map for it (perf has none, so its
 * samples stay unresolved there) and its section addresses, read now,
 * before its init code is freed. /proc/modules is read at most every 50 ms.
 */
static void track_modules(struct record_ctx *ctx, bool first)
{
	SAMPO_OPTS(sampo_synth_opts, so,
		   .sample_id_size = sampo_evlist__sample_id_size(&ctx->attr0));
	struct timespec now;
	size_t nr;
	int nr_new;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!first && (now.tv_sec - ctx->modules_checked.tv_sec) * 1000000000L +
				      (now.tv_nsec - ctx->modules_checked.tv_nsec) < 50000000L)
		return;
	ctx->modules_checked = now;
	if (first) {
		(void)sampo_module_watch__new(NULL, &ctx->modwatch);
		return;
	}
	nr_new = sampo_module_watch__poll(ctx->modwatch);
	if (nr_new <= 0)
		return;
	nr = sampo_module_watch__nr(ctx->modwatch);
	for (size_t i = nr - (size_t)nr_new; i < nr && !ctx->pipe_output && ctx->modsecs; i++)
		(void)sampo_module_sections__collect_one(ctx->modsecs, "/sys",
							 sampo_module_watch__name(ctx->modwatch, i));
	if (sampo_synthesize__modules(&so, on_synth_new_module, ctx) < 0)
		cli_warn("cannot write the maps of modules loaded while recording");
}

/*
 * The machine as it is now: the kernel and its modules, and the processes
 * recorded (every one with -a). Again (@again) at the start of each file of
 * --switch-output, so that each reads alone: the kernel map kept, the
 * modules read anew, the threads and maps as the records so far left them.
 */
static int synthesize_state(struct record_ctx *ctx, bool again)
{
	SAMPO_OPTS(sampo_synth_opts, so,
		   .sample_id_size = sampo_evlist__sample_id_size(&ctx->attr0),
		   .namespaces = ctx->opts.namespaces);
	struct sampo_synth_kernel k;
	int err;

	if (again && ctx->kernel_map) {
		err = on_synth(ctx, ctx->kernel_map);
		k.hidden = false;
	} else {
		err = sampo_synthesize__kernel_mmap(&so, on_synth_kernel, ctx, &k);
	}
	if (err == -EACCES || err == -ENOENT) {
		if (!again)
			cli_warn("cannot read /proc/kallsyms: kernel samples will not be resolved");
	} else if (err) {
		return cli_err(err, "cannot write the kernel map");
	} else if (k.hidden && !again) {
		cli_warn("kernel addresses are hidden from this user (kptr_restrict=%d): the "
			 "kernel map is written without its address, so kernel samples will not "
			 "resolve to symbols (run as root, or with CAP_SYSLOG)",
			 k.kptr_restrict);
	}
	err = sampo_synthesize__modules(&so, on_synth, ctx);
	if (err < 0 && err != -EACCES)
		return cli_err(err, "cannot write the module maps");
	if (err > 0)
		save_module_sections(ctx);
	if (err >= 0 && !again)
		track_modules(ctx, true);

	if (again) {
		err = record_state__synthesize(ctx->state, &so, on_synth, ctx);
	} else if (ctx->opts.all_cpus) {
		err = sampo_synthesize__all_processes(&so, on_synth, ctx);
	} else {
		err = 0;
		size_t nr_pids;
		const int *pids = sampo_target__pids(ctx->target, &nr_pids);

		for (size_t i = 0; i < nr_pids && !err; i++) {
			err = sampo_synthesize__process(&so, pids[i], on_synth, ctx);
			if (err == -ENOENT)
				err = 0;
		}
	}
	if (!err && ctx->child > 0 && !again)
		err = sampo_writer__write_comm(ctx->writer, (uint32_t)ctx->child,
					       (uint32_t)ctx->child, "sampo-exec", false, NULL);
	/* perf synthesizes the command's namespaces after its COMM */
	if (!err && ctx->child > 0 && !again && ctx->opts.namespaces)
		err = sampo_synthesize__namespaces(&so, ctx->child, ctx->child, on_synth, ctx);
	if (!err)
		err = sampo_writer__write_finished_init(ctx->writer);
	if (err)
		return cli_err(err, "cannot write '%s'", ctx->opts.output);
	return 0;
}

static int open_output(struct record_ctx *ctx)
{
	/*
	 * keep_readable: a valid header from the first record on, rewritten at
	 * each flush (after each round), so that a recording killed by
	 * SIGKILL reads up to its last round (perf's is then unreadable).
	 */
	SAMPO_OPTS(sampo_writer_opts, wo, .pipe = ctx->pipe_output,
		   .keep_readable = !ctx->pipe_output);
	const char *out = ctx->opts.output;
	struct stat st;
	int err;

	if (ctx->pipe_output)
		return sampo_writer__open_fd(STDOUT_FILENO, &wo, &ctx->writer);
	if (!stat(out, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		char old[PATH_MAX];

		snprintf(old, sizeof(old), "%s.old", out);
		if (rename(out, old))
			return cli_err(-errno, "cannot rename '%s' to '%s'", out, old);
	}
	err = sampo_writer__open(out, &wo, &ctx->writer);
	if (err)
		return cli_err_create(err, out);
	return 0;
}

static int add_attrs(struct record_ctx *ctx)
{
	for (size_t i = 0; i < sampo_evlist__nr_events(ctx->evlist); i++) {
		size_t nr;
		const uint64_t *ids = sampo_evlist__ids(ctx->evlist, i, &nr);
		struct sampo_event_attr a = *sampo_evlist__attr(ctx->evlist, i);
		int err;

		/* the file says what happened: disabled until exec or enable */
		err = sampo_writer__add_attr(ctx->writer, &a, ids, nr);
		if (err < 0)
			return cli_err(err, "cannot write '%s'", ctx->opts.output);
	}
	ctx->attr0 = *sampo_evlist__attr(ctx->evlist, 0);
	if (!ctx->pipe_output)
		ctx->data_offset = sampo_writer__offset(ctx->writer); /* freezes the attrs */
	return 0;
}

/* ---- the end: features, build-ids, cache ----------------------------------- */

/* argv of this process with argv[0] made absolute, as perf's CMDLINE */
static int set_cmdline(struct record_ctx *ctx)
{
	char buf[65536], exe[PATH_MAX];
	const char *v[512];
	size_t n = 0, len;
	ssize_t r;
	FILE *f = fopen("/proc/self/cmdline", "re");

	if (!f)
		return 0;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	for (size_t off = 0; off < len && n < ARRAY_SIZE(v); off += strlen(buf + off) + 1)
		v[n++] = buf + off;
	r = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (r > 0 && n) {
		exe[r] = '\0';
		v[0] = exe;
	}
	return sampo_writer__set_feature_strings(ctx->writer, SAMPO_FEAT_CMDLINE, v, n);
}

/*
 * -k: CLOCKID (the clock's resolution) and CLOCK_DATA (version 1, the clock,
 * then one instant as time of day and on that clock, in ns), which turn the
 * sample times into times of day (script -F tod)
 */
static int set_clock_features(struct record_ctx *ctx)
{
	struct {
		uint32_t version, clockid;
		uint64_t tod_ns, clockid_ns;
	} data = { 1, (uint32_t)ctx->opts.clockid, ctx->clock_tod_ns, ctx->clock_clockid_ns };
	int err = sampo_writer__set_feature_u64s(ctx->writer, SAMPO_FEAT_CLOCKID,
						 &ctx->clock_res_ns, 1);

	return err ? err :
		     sampo_writer__set_feature(ctx->writer, SAMPO_FEAT_CLOCK_DATA, &data,
					       sizeof(data));
}

/* The features known before the first sample (all but SAMPLE_TIME and BUILD_ID). */
static int set_features(struct record_ctx *ctx)
{
	SAMPO_OPTS(sampo_synth_opts, so);
	const char *names[MAX_EVENTS];
	int err;

	err = sampo_synthesize__features(&so, ctx->writer);
	if (!err)
		err = sampo_writer__set_feature_string(ctx->writer, SAMPO_FEAT_VERSION,
						       SAMPO_VERSION);
	if (!err)
		err = set_cmdline(ctx);
	for (size_t i = 0; i < ctx->nr_events; i++)
		names[i] = sampo_evlist__name(ctx->evlist, i);
	if (!err)
		err = sampo_writer__set_feature_event_desc(ctx->writer, names, ctx->nr_events);
	if (!err && ctx->opts.clockid >= 0)
		err = set_clock_features(ctx);
	/* before the first COMPRESSED record: how to read them (a pipe's reader needs it first) */
	if (!err && ctx->comp)
		err = record_compress__set_feature(ctx->comp, ctx->writer);
	if (err)
		return cli_err(err, "cannot write '%s'", ctx->opts.output);
	return 0;
}

static void add_to_cache(struct record_ctx *ctx, const struct sampo_dsohit_build_id *row,
			 const char *dir, const void *vdso_image, size_t vdso_size)
{
	SAMPO_OPTS(sampo_buildid_cache_dso_opts, co, .vdso_image = vdso_image,
		   .vdso_size = vdso_size);
	int err;

	if (row->hit->kernel)
		return; /* start_kallsyms_snapshot() did it */
	err = sampo_buildid_cache__add_dso(dir, row->hit->name, &row->bid, &co);
	if (err && err != -EOPNOTSUPP && ctx->opts.verbose)
		cli_warn("cannot add '%s' to the build-id cache", row->hit->name);
}

static int write_build_ids(struct record_ctx *ctx)
{
	struct sampo_build_id vdso = { .size = 0 };
	SAMPO_OPTS(sampo_dsohit_bid_opts, bo, .vdso_bid = &vdso, .all = ctx->opts.buildid_all);
	struct sampo_dsohit_build_id *rows = NULL;
	void *vdso_image = NULL;
	size_t vdso_size = 0, nr = 0;
	int err;

	(void)sampo_synthesize__vdso_build_id(&vdso, &vdso_image, &vdso_size);
	err = sampo_dsohits__build_ids(ctx->hits, &bo, &rows, &nr);
	for (size_t i = 0; i < nr && !err; i++)
		err = sampo_writer__add_build_id(ctx->writer, rows[i].hit->cpumode, -1,
						 rows[i].bid.data, rows[i].bid.size,
						 rows[i].hit->name);

	if (!err && !ctx->opts.no_buildid_cache) {
		char *dir = sampo_buildid_cache__dir(NULL);

		for (size_t i = 0; dir && i < nr; i++)
			add_to_cache(ctx, &rows[i], dir, vdso_image, vdso_size);
		free(dir);
	}
	free(vdso_image);
	free(rows);
	return err;
}

/*
 * Copy /proc/kallsyms into the cache under the kernel's build-id, unless it
 * is there already. It is the one large copy of the cache step (~5 MB, about
 * 0.1 s of kallsyms generation by the kernel), so it runs on its own thread
 * while the initial state is synthesized and is done before the workload
 * starts: neither the workload nor the time after it pays for it. (perf
 * copies it after the workload.) The kernel is in the cache whether or not a
 * sample hits it.
 */
static void *kallsyms_worker(void *arg)
{
	struct record_ctx *ctx = arg;

	(void)sampo_buildid_cache__add_kallsyms(NULL, &ctx->kernel_bid, NULL);
	return NULL;
}

static void start_kallsyms_snapshot(struct record_ctx *ctx)
{
	if (ctx->opts.no_buildid_cache ||
	    sampo_build_id__from_notes_file("/sys/kernel/notes", &ctx->kernel_bid))
		return;
	ctx->kallsyms_started = !pthread_create(&ctx->kallsyms_thread, NULL, kallsyms_worker, ctx);
}

static void join_kallsyms_snapshot(struct record_ctx *ctx)
{
	if (ctx->kallsyms_started)
		(void)pthread_join(ctx->kallsyms_thread, NULL);
	ctx->kallsyms_started = false;
}

/* ---- main loop --------------------------------------------------------- */

/*
 * -D: perf's "Events enabled" once the delay has passed (the samples are
 * dropped by their own time, not by this clock); the poll waits no longer
 * than the delay left, so the line comes on time. Return: the poll timeout.
 */
static int delay_poll(struct record_ctx *ctx)
{
	struct timespec now;
	long left_ms;

	if (ctx->opts.delay_ms <= 0 || ctx->delay_over)
		return 500;
	clock_gettime(CLOCK_MONOTONIC, &now);
	left_ms = ctx->opts.delay_ms - ((now.tv_sec - ctx->delay_start.tv_sec) * 1000L +
					(now.tv_nsec - ctx->delay_start.tv_nsec) / 1000000L);
	if (left_ms > 0)
		return left_ms < 500 ? (int)left_ms + 1 : 500;
	fprintf(stderr, "Events enabled\n");
	ctx->delay_over = true;
	return 500;
}

static double elapsed_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * The file could not be written to the end (full disk, I/O error): make what
 * reached the disk readable up to the last complete record, and say so.
 */
static int write_failed(struct record_ctx *ctx, const char *path, int err)
{
	uint64_t kept = 0;
	int rerr;

	if (ctx->pipe_output || !ctx->data_offset)
		return cli_err(err, "cannot write '%s'", path);
	if (ctx->comp) {
		/* COMPRESSED records are read only with their feature */
		uint32_t comp[5];

		record_compress__feature(ctx->comp, comp);
		rerr = sampo_perfdata__recover_feature(
			path, ctx->data_offset, sampo_evlist__nr_events(ctx->evlist),
			SAMPO_FEAT_COMPRESSED, comp, sizeof(comp), &kept);
	} else {
		rerr = sampo_perfdata__recover(path, ctx->data_offset,
					       sampo_evlist__nr_events(ctx->evlist), &kept);
	}
	if (rerr) {
		cli_err(err, "cannot write '%s'", path);
		return cli_err(rerr, "cannot make '%s' readable", path);
	}
	err = cli_err(err, "cannot write '%s'", path);
	cli_warn("'%s' holds the %.3f MB of complete records written before the error "
		 "(without header features%s and build-ids)",
		 path, (double)kept / 1024.0 / 1024.0, ctx->comp ? " but COMPRESSED" : "");
	return err;
}


/*
 * --embed-symbols: the finished file read once more and written again with
 * the symbols its samples hit (sampo inject --embed-symbols, lib/inject.c),
 * from the files just copied into the build-id cache.
 */
static int embed_symbols(struct record_ctx *ctx, const char *path)
{
	struct sampo_inject_stats stats = { 0 };
	char errbuf[1024] = "";
	int err;

	SAMPO_OPTS(sampo_inject_opts, io, .embed_symbols = true, .stats = &stats,
		   .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	err = sampo_inject__file(path, path, &io);
	if (err) {
		(void)cli_err(0, "%s (the profile is written, without its symbols)",
			      errbuf[0] ? errbuf : "cannot embed the symbols");
		return err;
	}
	if (ctx->opts.verbose)
		fprintf(stderr,
			"sampo record: embedded %zu symbols of %zu DSOs (%zu bytes) into '%s'\n",
			stats.nr_symbols, stats.nr_tables, stats.section_bytes, path);
	return 0;
}

/*
 * The end of an output file, at @path now: its last records, features and
 * build-ids, closed.
 */
static int close_output(struct record_ctx *ctx, const char *path)
{
	uint64_t times[2] = { 0, 0 };
	int err;

	err = sampo_dsohits__flush(ctx->hits);
	/* the last records, and in a file the ratio (a pipe said its feature at the start) */
	if (!err && !ctx->write_err && ctx->comp) {
		err = record_compress__flush(ctx->comp, ctx->writer);
		if (!err && !ctx->pipe_output)
			err = record_compress__set_feature(ctx->comp, ctx->writer);
	}
	(void)sampo_dsohits__time_range(ctx->hits, &times[0], &times[1]);
	if (!err && !ctx->write_err)
		err = sampo_writer__set_feature_u64s(ctx->writer, SAMPO_FEAT_SAMPLE_TIME, times, 2);
	if (!err && !ctx->write_err && !ctx->opts.no_buildid)
		err = write_build_ids(ctx);
	if (!err && !ctx->write_err && ctx->modsecs)
		save_module_sections(ctx); /* now with the modules loaded while recording */
	join_kallsyms_snapshot(ctx);
	if (!err)
		err = ctx->write_err;
	{
		int cerr = sampo_writer__close(ctx->writer);

		ctx->writer = NULL;
		if (!err)
			err = cerr;
	}
	if (err)
		return write_failed(ctx, path, err);
	if (ctx->opts.embed_symbols)
		return embed_symbols(ctx, path);
	return 0;
}

/*
 * --switch-output, --timestamp-filename: the output renamed with perf's
 * timestamp (local time to the hundredth of a second:
 * OUTPUT.2026112912294158) into @name; its writer writes on through its
 * descriptor. A name taken already (two switches in one hundredth) waits for
 * the next.
 */
static int rename_output(struct record_ctx *ctx, char *name, size_t size)
{
	const char *out = ctx->opts.output;

	for (int tries = 0;; tries++) {
		struct timeval tv;
		struct tm tm;
		char date[32];

		gettimeofday(&tv, NULL);
		localtime_r(&tv.tv_sec, &tm);
		strftime(date, sizeof(date), "%Y%m%d%H%M%S", &tm);
		if ((size_t)snprintf(name, size, "%s.%s%02u", out, date,
				     (unsigned)(tv.tv_usec / 10000)) >= size)
			return cli_err(-ENAMETOOLONG, "cannot name the file after '%s'", out);
		if (!renameat2(AT_FDCWD, out, AT_FDCWD, name, RENAME_NOREPLACE))
			return 0;
		if (errno != EEXIST || tries == 100)
			return cli_err(-errno, "cannot rename '%s' to '%s'", out, name);
		usleep(10000);
	}
}

/*
 * A file of --switch-output (or --timestamp-filename) is complete: said, the
 * summary's from now on; --switch-max-files keeps the last n names in a ring,
 * the one it drops goes
 */
static int dumped(struct record_ctx *ctx, const char *name)
{
	size_t n = (size_t)ctx->opts.switch_max_files;
	char **slot;

	if (!ctx->opts.quiet)
		fprintf(stderr, "[ sampo record: Dump %s ]\n", name);
	snprintf(ctx->last_name, sizeof(ctx->last_name), "%s", name);
	if (!n)
		return 0;
	if (!ctx->dumped) {
		ctx->dumped = calloc(n, sizeof(*ctx->dumped));
		if (!ctx->dumped)
			return cli_err(-ENOMEM, "out of memory");
	}
	slot = &ctx->dumped[ctx->nr_dumped++ % n];
	if (*slot && unlink(*slot) && errno != ENOENT)
		cli_warn("cannot remove '%s' (--switch-max-files): %s", *slot, strerror(errno));
	free(*slot);
	*slot = strdup(name);
	return *slot ? 0 : cli_err(-ENOMEM, "out of memory");
}

static void swap_file(struct record_ctx *ctx, struct output_state *o)
{
	const struct output_state mine = {
		.writer = ctx->writer,
		.hits = ctx->hits,
		.comp = ctx->comp,
		.data_offset = ctx->data_offset,
		.nr_samples = ctx->nr_samples,
		.nr_lost = ctx->nr_lost,
		.write_err = ctx->write_err,
	};

	ctx->writer = o->writer;
	ctx->hits = o->hits;
	ctx->comp = o->comp;
	ctx->data_offset = o->data_offset;
	ctx->nr_samples = o->nr_samples;
	ctx->nr_lost = o->nr_lost;
	ctx->write_err = o->write_err;
	*o = mine;
}

/* a fresh compressor, as perf's: each file says its own ratio */
static int new_compressor(struct record_ctx *ctx)
{
	int err;

	record_compress__delete(ctx->comp);
	ctx->comp = NULL;
	err = record_compress__new(ctx->opts.comp_level, ctx->comp_cap, &ctx->comp);
	if (err)
		return cli_err(err, "cannot set up the compression (-z %d)", ctx->opts.comp_level);
	return 0;
}

/* the new file of start_next_file(): the machine's state, then the rings */
static int open_next_file(struct record_ctx *ctx, bool compress)
{
	int err;

	ctx->hits = sampo_dsohits__new();
	if (!ctx->hits)
		return cli_err(-ENOMEM, "out of memory");
	err = compress ? new_compressor(ctx) : 0;
	if (!err)
		err = open_output(ctx);
	if (!err)
		err = add_attrs(ctx);
	if (!err)
		err = synthesize_state(ctx, true);
	if (!err)
		err = set_features(ctx);
	if (!err && (err = sampo_writer__flush(ctx->writer)))
		return cli_err(err, "cannot write '%s'", ctx->opts.output);
	if (!err)
		(void)sampo_dsohits__flush(ctx->hits);
	return err;
}

/*
 * --switch-output: the file so far is renamed, a new one takes its name and
 * gets the machine's state synthesized again, so that it reads alone (its
 * build-ids are those of its own samples); then the file so far gets its
 * end. The state is read first: a process that ends while the old file is
 * closed is in the new one, and names its last samples there.
 */
static int start_next_file(struct record_ctx *ctx)
{
	struct output_state old = { 0 };
	char name[PATH_MAX];
	int err, cerr;

	err = rename_output(ctx, name, sizeof(name));
	if (err)
		return err;
	swap_file(ctx, &old); /* ctx: an empty file; old: the file so far */
	err = open_next_file(ctx, old.comp != NULL);
	swap_file(ctx, &old);
	cerr = close_output(ctx, name);
	sampo_dsohits__delete(ctx->hits);
	record_compress__delete(ctx->comp);
	ctx->hits = NULL;
	ctx->comp = NULL;
	swap_file(ctx, &old); /* the new file's */
	if (!cerr)
		cerr = dumped(ctx, name);
	clock_gettime(CLOCK_MONOTONIC, &ctx->file_start);
	return err ? err : cerr;
}

static bool switch_due(struct record_ctx *ctx)
{
	struct timespec now;

	switch (ctx->opts.switch_output) {
	case SWITCH_SIGNAL:
		if (!record_switch)
			return false;
		record_switch = 0;
		return true;
	case SWITCH_SIZE:
		return sampo_writer__offset(ctx->writer) >= ctx->opts.switch_size;
	case SWITCH_TIME:
		clock_gettime(CLOCK_MONOTONIC, &now);
		return (double)(now.tv_sec - ctx->file_start.tv_sec) +
			       (double)(now.tv_nsec - ctx->file_start.tv_nsec) / 1e9 >=
		       (double)ctx->opts.switch_secs;
	default:
		return false;
	}
}

static int finish(struct record_ctx *ctx)
{
	char name[PATH_MAX];
	uint64_t unresolved = 0;
	int err = close_output(ctx, ctx->opts.output);

	if (!err && (ctx->opts.switch_output || ctx->opts.timestamp_filename)) {
		err = rename_output(ctx, name, sizeof(name));
		if (!err)
			err = dumped(ctx, name);
	}
	if (err)
		return err;

	(void)sampo_dsohits__nr_samples(ctx->hits, &unresolved);
	if (ctx->opts.verbose && unresolved)
		fprintf(stderr, "sampo record: %" PRIu64 " user samples outside every known map\n",
			unresolved);
	if (ctx->opts.verbose && ctx->child_reaped)
		fprintf(stderr, "sampo record: %.3f s after the workload ended\n",
			elapsed_since(&ctx->t_workload_end));
	if (!ctx->opts.quiet) {
		struct stat st;
		double mb = 0;

		if (!ctx->pipe_output && !stat(ctx->last_name, &st))
			mb = (double)st.st_size / 1024.0 / 1024.0;
		char comp[128] = "";

		if (ctx->comp) {
			uint64_t in, out;

			record_compress__bytes(ctx->comp, &in, &out);
			snprintf(comp, sizeof(comp),
				 ", compressed (original %.3f MB, ratio is %.3f)",
				 (double)in / 1024.0 / 1024.0,
				 out ? (double)in / (double)out : 0.0);
		}
		if (ctx->nr_lost)
			fprintf(stderr,
				"[ sampo record: Captured and wrote %.3f MB %s (%" PRIu64
				" samples, %" PRIu64 " lost)%s ]\n",
				mb, ctx->pipe_output ? "(pipe)" : ctx->last_name, ctx->nr_samples,
				ctx->nr_lost, comp);
		else
			fprintf(stderr,
				"[ sampo record: Captured and wrote %.3f MB %s (%" PRIu64
				" samples)%s ]\n",
				mb, ctx->pipe_output ? "(pipe)" : ctx->last_name, ctx->nr_samples,
				comp);
	}
	return 0;
}

static int record_loop(struct record_ctx *ctx)
{
	bool all_hup = false;
	int err = 0;

	while (!record_done) {
		err = drain_round(ctx);
		if (!err && switch_due(ctx)) {
			err = start_next_file(ctx);
			if (err) {
				ctx->switch_err = err;
				break;
			}
		}
		if (err)
			break;
		if (ctx->opts.max_size && sampo_writer__offset(ctx->writer) >= ctx->opts.max_size) {
			/* perf's words; perf checks at each write and may not stop at all */
			if (!ctx->opts.quiet)
				fprintf(stderr,
					"[ sampo record: size limit reached (%" PRIu64
					" KB), stopping session ]\n",
					sampo_writer__offset(ctx->writer) >> 10);
			record_done = 1;
			break;
		}
		if (ctx->modwatch)
			track_modules(ctx, false);
		if (record_child_exited) {
			if (reap_child(ctx, false))
				break;
			record_child_exited = 0;
		}
		if (ctx->child <= 0 && !ctx->opts.all_cpus && !ctx->opts.cpus_arg && all_hup)
			break; /* -p / -t: every target is gone */
		err = sampo_evlist__poll(ctx->evlist, delay_poll(ctx), &all_hup);
		if (err < 0)
			break;
		err = 0;
	}
	if (err)
		return err;
	(void)sampo_evlist__disable(ctx->evlist);
	return drain_round(ctx);
}

/* ---- setup ------------------------------------------------------------- */

/* -u NAME|UID: the user's id; -1 when there is no such user */
static long user_id(const char *arg)
{
	const struct passwd *pw = getpwnam(arg);
	char *end;
	long n;

	if (pw)
		return (long)pw->pw_uid;
	errno = 0;
	n = strtol(arg, &end, 10);
	return !errno && end != arg && !*end && n >= 0 && n <= UINT32_MAX ? n : -1;
}

/*
 * -u: every process of the user now (perf's thread_map__new_by_uid(): the
 * owner of /proc/PID, its effective uid), each with its threads; one that
 * ends meanwhile is skipped. Return: how many, or a negative errno.
 */
static int add_user_processes(struct record_ctx *ctx, uid_t uid)
{
	DIR *dir = opendir("/proc");
	const struct dirent *d;
	int nr = 0, err = 0;

	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir))) {
		char path[64], *end;
		long pid = strtol(d->d_name, &end, 10);
		struct stat st;

		if (*end || pid <= 0 || pid > INT_MAX)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld", pid);
		if (stat(path, &st) || st.st_uid != uid)
			continue;
		err = sampo_target__add_process(ctx->target, (int)pid);
		if (!err)
			nr++;
		else if (err == -ESRCH || err == -ENOENT)
			err = 0; /* it ended */
	}
	closedir(dir);
	return err ? err : nr;
}

static int setup_targets(struct record_ctx *ctx, int argc)
{
	struct record_opts *o = &ctx->opts;
	size_t nr_threads;
	int err, bad;

	ctx->target = sampo_target__new(NULL);
	if (!ctx->target)
		return cli_err(-ENOMEM, "out of memory");
	if (o->cpus_arg) {
		err = sampo_target__add_cpu_list(ctx->target, o->cpus_arg);
		if (err)
			return usage_error(record_usage, NULL, "invalid CPU list '%s'",
					   o->cpus_arg);
	} else {
		err = sampo_target__add_online_cpus(ctx->target);
		if (err)
			return cli_err(err, "cannot list the online CPUs");
	}
	if (o->pids_arg) {
		err = sampo_target__add_pid_list(ctx->target, o->pids_arg, &bad);
		if (err && bad < 0)
			return usage_error(record_usage, NULL, "invalid pid list '%s'",
					   o->pids_arg);
		if (err)
			return cli_err(err, "cannot attach to process %d", bad);
	}
	if (o->tids_arg) {
		err = sampo_target__add_tid_list(ctx->target, o->tids_arg, &bad);
		if (err && bad < 0)
			return usage_error(record_usage, NULL, "invalid tid list '%s'",
					   o->tids_arg);
		if (err == -E2BIG)
			return cli_err(err, "too many threads");
		if (err)
			return cli_err(err, "cannot attach to thread %d", bad);
	}
	if (o->uid_arg) {
		long uid = user_id(o->uid_arg);

		if (o->pids_arg || o->tids_arg || o->all_cpus || o->cpus_arg || argc)
			return usage_error(record_usage, NULL,
					   "-u records a user's processes: not with -p, -t, -a, "
					   "-C or a command");
		if (uid < 0)
			return usage_error(record_usage, NULL, "-u: no user '%s'", o->uid_arg);
		err = add_user_processes(ctx, (uid_t)uid);
		if (err < 0)
			return cli_err(err, "cannot list the processes of user '%s'", o->uid_arg);
		if (!err)
			return cli_err(0, "user '%s' has no process to record", o->uid_arg);
	}
	(void)sampo_target__threads(ctx->target, &nr_threads);
	if (!argc && !o->all_cpus && !o->cpus_arg && !nr_threads)
		return usage_error(record_usage, NULL,
				   "nothing to record: give a command, -a, -C, -p, -t or -u");
	if (argc && nr_threads)
		return usage_error(record_usage, NULL,
				   "a command cannot be combined with -p or -t");
	return 0;
}

static int setup_events(struct record_ctx *ctx)
{
	struct record_opts *o = &ctx->opts;
	uint64_t max_rate;
	int err;

	if (o->events_arg) {
		err = parse_events(ctx, o->events_arg);
		if (err)
			return err;
	} else {
		(void)sampo_event_spec__parse("cycles", 6, &ctx->events[0]);
		ctx->nr_events = 1;
	}
	if ((o->freq || o->freq_max) && o->period)
		return usage_error(record_usage, NULL, "-F and -c cannot be used together");
	if (o->callgraph.mode == SAMPO_CALLGRAPH_DWARF && o->user_regs &&
	    (o->user_regs | sampo_reg__dwarf_minimal_mask()) != sampo_reg__user_mask())
		cli_warn(
			"--call-graph dwarf with --user-regs naming some registers: only those, the "
			"stack pointer and the instruction pointer are sampled, and DWARF unwinding "
			"may stop early (perf warns the same)");
	if (o->freq_max) {
		sampo_event_limits__read(NULL, NULL, &max_rate);
		if (!max_rate)
			return cli_err(-EINVAL, "-F max: cannot read "
						"/proc/sys/kernel/perf_event_max_sample_rate");
		o->freq = max_rate;
		/* perf says it on stderr, even with -q */
		fprintf(stderr, "info: Using a maximum frequency rate of %" PRIu64 " Hz\n", max_rate);
	}
	if (!o->period) {
		if (!o->freq)
			o->freq = DEFAULT_FREQ;
		sampo_event_limits__read(NULL, NULL, &max_rate);
		if (max_rate && o->freq > max_rate && o->strict_freq)
			return cli_err(0,
				       "-F %" PRIu64 " is above the kernel's limit of %" PRIu64
				       " Hz (perf_event_max_sample_rate) and --strict-freq is "
				       "given: use a lower -F, or raise the limit",
				       o->freq, max_rate);
		if (max_rate && o->freq > max_rate) {
			if (!o->quiet)
				fprintf(stderr,
					"sampo record: -F %" PRIu64 " is above the kernel's limit "
					"(perf_event_max_sample_rate), using %" PRIu64 " Hz\n",
					o->freq, max_rate);
			o->freq = max_rate;
		}
	}
	if (o->mmap_pages < 0 || (o->mmap_pages & (o->mmap_pages - 1)))
		return usage_error(record_usage, NULL, "-m must be a power of 2");
	return 0;
}

static int record_run(struct record_ctx *ctx, int argc, const char **argv)
{
	int err;

	ctx->pipe_output = !strcmp(ctx->opts.output, "-");
	if (ctx->pipe_output && ctx->opts.embed_symbols)
		return usage_error(record_usage, NULL,
				   "--embed-symbols needs a file: perf would warn about its section "
				   "in a pipe (use -o FILE, or sampo inject later)");
	if (ctx->pipe_output && (ctx->opts.switch_output || ctx->opts.timestamp_filename))
		return usage_error(
			record_usage, NULL,
			"--switch-output and --timestamp-filename need a file to rename: "
			"not -o -");
	if (ctx->opts.no_buildid)
		ctx->opts.no_buildid_cache = true; /* as perf's -B: nothing to copy by */
	if (ctx->opts.no_buildid && ctx->opts.buildid_all)
		return usage_error(record_usage, NULL, "-B and --buildid-all conflict");
	if (ctx->opts.max_size && ctx->opts.switch_output)
		return usage_error(record_usage, NULL,
				   "--max-size stops the recording; --switch-output=SIZE starts a "
				   "new file at a size: one or the other");
	if (ctx->opts.switch_max_files && !ctx->opts.switch_output)
		return usage_error(record_usage, NULL,
				   "--switch-max-files goes with --switch-output");
	if (ctx->opts.buildid_mmap && ctx->opts.no_buildid_mmap)
		return usage_error(record_usage, NULL,
				   "--buildid-mmap and --no-buildid-mmap conflict");
	snprintf(ctx->last_name, sizeof(ctx->last_name), "%s", ctx->opts.output);
	err = setup_events(ctx);
	if (!err)
		err = setup_targets(ctx, argc);
	if (err || ctx->opts.dry_run)
		return err;

	install_signals(&ctx->opts);
	if (argc) {
		SAMPO_OPTS(sampo_workload_opts, wo, .stdout_to_stderr = ctx->pipe_output);

		err = sampo_workload__prepare(argv, &wo, &ctx->workload);
		if (err)
			return cli_err(err, "cannot start '%s'", argv[0]);
		ctx->child = sampo_workload__pid(ctx->workload);
		if (!system_wide(ctx)) {
			/* not synthesized: until exec it is a copy of sampo */
			err = sampo_target__add_new_thread(ctx->target, ctx->child);
			if (err)
				return cli_err(err, "cannot record '%s'", argv[0]);
		}
	}
	/* -r: the recorder, not the command (forked already), keeps up under load */
	if (ctx->opts.realtime_prio) {
		struct sched_param sp = { .sched_priority = ctx->opts.realtime_prio };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			return cli_err(-errno, "-r %d: cannot run at SCHED_FIFO priority %d",
				       ctx->opts.realtime_prio, ctx->opts.realtime_prio);
	}
	err = open_events(ctx);
	if (err)
		return err;
	err = sampo_evlist__mmap(ctx->evlist, (size_t)ctx->opts.mmap_pages);
	if (err)
		return cli_err(err, "cannot map the ring buffers (-m %d)", ctx->opts.mmap_pages);
	ctx->hits = sampo_dsohits__new();
	if (ctx->opts.switch_output)
		(void)record_state__new(sampo_evlist__attr(ctx->evlist, 0), &ctx->state);
	if (!ctx->hits || (ctx->opts.switch_output && !ctx->state))
		return cli_err(-ENOMEM, "out of memory");
	if (ctx->opts.comp_level >= 0) {
		/* perf's mmap_len: what one COMPRESSED record may inflate to */
		size_t pages = ctx->opts.mmap_pages ? (size_t)ctx->opts.mmap_pages : 128;

		ctx->comp_cap = (pages + 1) * (size_t)sysconf(_SC_PAGESIZE);
		err = new_compressor(ctx);
		if (err)
			return err;
	}
	if (ctx->opts.clockid >= 0) {
		struct timespec tod, clk, res;

		/* perf's record__init_clock(): the two clocks read back to back */
		clock_gettime(CLOCK_REALTIME, &tod);
		clock_gettime(ctx->opts.clockid, &clk);
		clock_getres(ctx->opts.clockid, &res);
		if (ctx->opts.clockid == CLOCK_REALTIME)
			tod = clk; /* the same clock: one reading, exactly the same instant */
		ctx->clock_tod_ns = (uint64_t)tod.tv_sec * 1000000000u + (uint64_t)tod.tv_nsec;
		ctx->clock_clockid_ns = (uint64_t)clk.tv_sec * 1000000000u + (uint64_t)clk.tv_nsec;
		ctx->clock_res_ns = (uint64_t)res.tv_sec * 1000000000u + (uint64_t)res.tv_nsec;
	}
	err = open_output(ctx);
	if (err)
		return err;
	start_kallsyms_snapshot(ctx);
	err = add_attrs(ctx);
	if (!err)
		err = synthesize_state(ctx, false);
	if (!err)
		err = set_features(ctx);
	if (!err && !ctx->pipe_output) {
		/* the synthesized state and the first features, readable from now on */
		err = sampo_writer__flush(ctx->writer);
		if (err)
			return cli_err(err, "cannot write '%s'", ctx->opts.output);
	}
	if (err)
		return err;
	(void)sampo_dsohits__flush(ctx->hits);
	join_kallsyms_snapshot(ctx); /* before the workload: it must not compete with it */
	clock_gettime(CLOCK_MONOTONIC, &ctx->file_start);

	if (system_wide(ctx) || ctx->child <= 0) {
		err = sampo_evlist__enable(ctx->evlist);
		if (err)
			return cli_err(err, "cannot enable the events");
	}
	if (ctx->opts.delay_ms > 0) {
		fprintf(stderr, "Events disabled\n"); /* perf's words */
		clock_gettime(CLOCK_MONOTONIC, &ctx->delay_start);
	}
	if (ctx->child > 0) {
		err = sampo_workload__start(ctx->workload);
		if (err) {
			reap_child(ctx, true);
			(void)sampo_writer__close(ctx->writer);
			ctx->writer = NULL;
			return cli_err(err, "cannot run '%s'", argv[0]);
		}
	}

	err = record_loop(ctx);
	if (ctx->child > 0 && !ctx->child_reaped) {
		if (record_done || err)
			(void)sampo_workload__kill(ctx->workload, SIGTERM);
		reap_child(ctx, true);
	}
	if (ctx->switch_err)
		return ctx->switch_err;
	if (err && !ctx->write_err)
		return cli_err(err, "cannot read the ring buffers");
	return finish(ctx);
}

static void record_ctx_release(struct record_ctx *ctx)
{
	join_kallsyms_snapshot(ctx);
	sampo_workload__delete(ctx->workload); /* kills a command still running */
	(void)sampo_writer__close(ctx->writer);
	sampo_dsohits__delete(ctx->hits);
	sampo_module_sections__delete(ctx->modsecs);
	sampo_module_watch__delete(ctx->modwatch);
	sampo_evlist__delete(ctx->evlist);
	sampo_target__delete(ctx->target);
	free(ctx->opts.events_arg);
	record_compress__delete(ctx->comp);
	for (int i = 0; ctx->dumped && i < ctx->opts.switch_max_files; i++)
		free(ctx->dumped[i]);
	free(ctx->dumped);
	free(ctx->kernel_map);
	record_state__delete(ctx->state);
}

int cmd_record(int argc, const char **argv)
{
	struct record_ctx *ctx;
	int ret, code;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return cli_err(-ENOMEM, "out of memory");
	ctx->opts.output = "perf.data";
	ctx->opts.clockid = -1;
	ctx->opts.comp_level = -1;
	{
		struct record_opts *o = &ctx->opts;
		const struct option opts[] = {
			OPT_CALLBACK('e', "event", o, "events",
				     "comma list of events (default: cycles, else cpu-clock); "
				     "repeat for more",
				     opt_event),
			OPT_CALLBACK('F', "freq", o, "n",
				     "sample at <n> Hz (default 4000; max: the kernel's limit)",
				     opt_freq),
			OPT_U64('c', "count", &o->period, "n", "sample every <n> events"),
			OPT_CALLBACK_NOARG('g', NULL, &o->callgraph,
					   "record frame-pointer call chains (--call-graph fp)",
					   opt_g),
			OPT_CALLBACK(0, "call-graph", &o->callgraph, "mode[,arg]",
				     "call chains: fp[,max-stack], dwarf[,stack-size] "
				     "(default 8192), lbr",
				     opt_call_graph),
			OPT_BOOLEAN('a', "all-cpus", &o->all_cpus, "system-wide, on every CPU"),
			OPT_STRING('p', "pid", &o->pids_arg, "pid", "record existing processes"),
			OPT_STRING('t', "tid", &o->tids_arg, "tid", "record existing threads"),
			OPT_STRING('u', "uid", &o->uid_arg, "user",
				   "record the processes of this user (name or uid)"),
			OPT_STRING('C', "cpu", &o->cpus_arg, "cpu",
				   "only these CPUs (list, ranges: 0-2,4); system-wide on them"),
			OPT_BOOLEAN(0, "all-user", &o->all_user,
				    "every event counts in user space only (perf's :u for all)"),
			OPT_BOOLEAN(0, "all-kernel", &o->all_kernel,
				    "every event counts in the kernel only (perf's :k for all)"),
			{ .type = OPTION_BOOLEAN,
			  .short_name = 'i',
			  .long_name = "no-inherit",
			  .value = &o->no_inherit,
			  .flags = OPT_F_NONEG,
			  .help = "child tasks are not counted" },
			OPT_BOOLEAN(0, "switch-events", &o->switch_events,
				    "record context switches (SWITCH records)"),
			OPT_BOOLEAN(0, "namespaces", &o->namespaces,
				    "record the tasks' namespaces (NAMESPACES records)"),
			OPT_BOOLEAN('d', "data", &o->sample_address,
				    "record the sampled data addresses (ADDR, DATA_SRC) and the "
				    "data maps"),
			OPT_CALLBACK_OPTARG(
				'I', "intr-regs", &o->intr_regs, "regs",
				"sample these registers at the interrupt (all without a "
				"list; -I? lists them)",
				opt_regs),
			OPT_CALLBACK_OPTARG(
				0, "user-regs", &o->user_regs, "regs",
				"sample these user-space registers (all without a list; "
				"--user-regs=? lists them)",
				opt_regs),
			OPT_BOOLEAN(0, "sample-cpu", &o->sample_cpu,
				    "record the CPU of every sample (always with -a and -C)"),
			OPT_BOOLEAN('T', "timestamp", &o->always,
				    "record the sample times (always: sampo samples record them)"),
			OPT_BOOLEAN(
				'P', "period", &o->always,
				"record the sample periods (always: sampo samples record them)"),
			OPT_INTEGER_RANGE('m', "mmap-pages", &o->mmap_pages, "pages",
					  "ring size per CPU in pages, a power of 2 (default 128)",
					  0, 1 << 20),
			OPT_CALLBACK_OPTARG(
				'z', "compression-level", o, "n",
				"write the records zstd-compressed, at level n (default "
				"1, the fastest; up to 22), as perf record -z",
				opt_comp_level),
			OPT_INTEGER_RANGE('D', "delay", &o->delay_ms, "ms",
					  "no samples in the first ms after the command starts "
					  "(its exec), as perf's -D",
					  0, INT_MAX),
			OPT_CALLBACK('k', "clockid", o, "clockid",
				     "sample times from this clock (monotonic, monotonic_raw, "
				     "realtime, boottime, tai), with its tie to the time of day "
				     "(script -F tod)",
				     opt_clockid),
			OPT_BOOLEAN(0, "kernel-callchains", &o->kernel_callchains,
				    "with -g: only the kernel part of each call chain"),
			OPT_BOOLEAN(0, "user-callchains", &o->user_callchains,
				    "with -g: only the user part of each call chain"),
			OPT_BOOLEAN('W', "weight", &o->weight,
				    "sample the weight (the events that have one: memory loads)"),
			OPT_BOOLEAN(0, "phys-data", &o->phys_data,
				    "sample the physical addresses of the data addresses"),
			OPT_BOOLEAN(0, "sample-identifier", &o->sample_identifier,
				    "samples say their event's id first (IDENTIFIER)"),
			OPT_BOOLEAN(0, "strict-freq", &o->strict_freq,
				    "-F above the kernel's limit is an error, not lowered"),
			OPT_BOOLEAN('n', "no-samples", &o->no_samples,
				    "no samples: only the records of what ran (COMM, MMAP, ...)"),
			OPT_BOOLEAN(
				'R', "raw-samples", &o->raw_samples,
				"sample the raw data (tracepoints' fields), the time and the CPU"),
			OPT_BOOLEAN(0, "running-time", &o->running_time,
				    "read the times enabled and running with the counts"),
			OPT_BOOLEAN(0, "data-page-size", &o->data_page_size,
				    "sample the page size of the data addresses"),
			OPT_BOOLEAN(0, "code-page-size", &o->code_page_size,
				    "sample the page size of the code addresses"),
			{ .type = OPTION_BOOLEAN,
			  .long_name = "no-bpf-event",
			  .value = &o->no_bpf_event,
			  .flags = OPT_F_NONEG,
			  .help = "no BPF_EVENT records (BPF programs loaded and unloaded)" },
			OPT_BOOLEAN(0, "timestamp-boundary", &o->timestamp_boundary,
				    "the first and last sample times in the header (always)"),
			OPT_BOOLEAN(0, "no-buffering", &o->no_buffering,
				    "wake the recorder at every sample (a wakeup per record)"),
			OPT_INTEGER_RANGE('r', "realtime", &o->realtime_prio, "priority",
					  "run the recorder SCHED_FIFO at this priority (1-99)", 1,
					  99),
			OPT_BOOLEAN(0, "dry-run", &o->dry_run,
				    "check the options and the events, then exit"),
			OPT_CALLBACK(0, "max-size", o, "size",
				     "stop once the file has this size (B, K, M or G: 512M)",
				     opt_max_size),
			OPT_CALLBACK_OPTARG(
				0, "switch-output", o, "signal|size|time",
				"start a new file on SIGUSR2 (the default), at a size (100M) "
				"or every so often (30s); each is renamed OUTPUT.<timestamp>",
				opt_switch_output),
			OPT_INTEGER_RANGE(0, "switch-max-files", &o->switch_max_files, "n",
					  "with --switch-output: keep the last n files only", 1,
					  INT_MAX),
			OPT_STRING(
				'o', "output", &o->output, "file",
				"output file, '-' for stdout in pipe format (default perf.data)"),
			OPT_BOOLEAN(0, "timestamp-filename", &o->timestamp_filename,
				    "rename the output OUTPUT.<timestamp> at the end"),
			OPT_BOOLEAN('q', "quiet", &o->quiet, "print no summary"),
			{ .type = OPTION_BOOLEAN,
			  .short_name = 'N',
			  .long_name = "no-buildid-cache",
			  .value = &o->no_buildid_cache,
			  .flags = OPT_F_NONEG,
			  .help = "do not copy the DSOs with samples into ~/.debug" },
			{ .type = OPTION_BOOLEAN,
			  .short_name = 'B',
			  .long_name = "no-buildid",
			  .value = &o->no_buildid,
			  .flags = OPT_F_NONEG,
			  .help = "no build-id table at the end (and no copies into ~/.debug)" },
			OPT_BOOLEAN(
				0, "buildid-all", &o->buildid_all,
				"the build-ids of every object mapped, with samples or not (and "
				"their copies in ~/.debug)"),
			OPT_BOOLEAN(0, "buildid-mmap", &o->buildid_mmap,
				    "build-ids in MMAP2 records (the default)"),
			{ .type = OPTION_BOOLEAN,
			  .long_name = "no-buildid-mmap",
			  .value = &o->no_buildid_mmap,
			  .flags = OPT_F_NONEG,
			  .help = "no build-ids in MMAP2 records: read them from the files at the end" },
			OPT_BOOLEAN(0, "embed-symbols", &o->embed_symbols,
				    "embed the symbols the samples hit in the file, keyed by "
				    "build-id (sampo inject --embed-symbols)"),
			OPT_INCR('v', "verbose", &o->verbose,
				 "say more (-v: the time spent after the workload ended)"),
			OPT_END(),
		};

		ret = parse_options(argc, argv, opts, record_usage, PARSE_OPT_STOP_AT_NON_OPTION);
		if (ret < 0) {
			free(o->events_arg);
			free(ctx);
			return ret;
		}
		argc = ret;
		o->verbose += cli_verbose();
		ret = record_run(ctx, argc, argv);
	}
	code = ret == 0 ? sampo_workload__exit_code(ctx->workload) : 0;
	record_ctx_release(ctx);
	free(ctx);
	if (ret == 0 && code != 0) {
		/*
		 * perf record exits with the command's status; main() only knows
		 * 0/1/129 (cli_exit_code), so the command's own status leaves here.
		 */
		fflush(NULL);
		exit(code);
	}
	return ret;
}
