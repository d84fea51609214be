/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * parse-events.h - what `perf record -e` accepts, as the attrs to open.
 *
 * An event spec is one item of an -e list: a generic event name as perf
 * spells it ("cycles", "cpu-clock", "task-clock", "page-faults", ...)
 * with optional modifiers after a colon (u: user only, k: kernel only,
 * p/P: precise, accepted and ignored). A list is comma separated:
 * "cycles:u,task-clock".
 *
 * From specs to attrs: sampo_event_specs__attrs() builds the attrs the way
 * perf record does for the options given (sampling by frequency or period,
 * call chains, system-wide or per task, the first event tracking maps,
 * comms and tasks). When opening fails, sampo_event_specs__fallback()
 * applies perf's fallbacks to the specs (kernel sampling forbidden: user
 * only; no hardware cycles: cpu-clock) and the caller tries again.
 *
 * Typical use (sampo record):
 *
 *	err = sampo_event_specs__parse("cycles:u", specs, MAX, &nr, &bad);
 *	for (;;) {
 *		sampo_event_specs__attrs(specs, nr, &opts, attrs);
 *		err = open them;
 *		if (!err || !sampo_event_specs__fallback(specs, nr, failed, err, &fb))
 *			break;
 *		tell the user about fb;
 *	}
 */
#ifndef SAMPO_PARSE_EVENTS_H
#define SAMPO_PARSE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_event_attr;

#define SAMPO_EVENT_SPEC_NAME_SIZE 64

/* One parsed -e item. A value type: copy it freely. */
struct sampo_event_spec {
	char name[SAMPO_EVENT_SPEC_NAME_SIZE]; /* as given, modifiers included ("cpu-clock:u") */
	uint32_t type;			       /* SAMPO_TYPE_HARDWARE or SAMPO_TYPE_SOFTWARE */
	uint64_t config;		       /* PERF_COUNT_HW_* or PERF_COUNT_SW_* */
	bool exclude_user;		       /* ":k" */
	bool exclude_kernel;		       /* ":u" */
	bool exclude_hv;		       /* ":u" or ":k" (perf: the others are excluded) */
	bool include_guest; /* no exclude_guest: ":k" without 'u' or 'p' (perf's rule) */
};

/**
 * sampo_event_spec__parse() - parse one event ("cycles", "cpu-clock:u")
 * @str: the text; need not be NUL-terminated
 * @len: its length in bytes
 * @ret: on success, the spec
 *
 * ":uk" (or ":ku") means both, as in perf.
 * Return: 0, -ENOENT (not a known event name), -EINVAL (empty, longer than
 * SAMPO_EVENT_SPEC_NAME_SIZE - 1, or an unknown modifier)
 */
SAMPO_API int sampo_event_spec__parse(const char *str, size_t len, struct sampo_event_spec *ret);

/**
 * sampo_event_specs__parse() - parse a comma-separated -e list
 * @list: "cycles:u,task-clock" (a trailing comma is allowed, as before)
 * @specs: where the specs go
 * @max: room in @specs
 * @ret_nr: the number parsed (also on failure: the ones before the bad one)
 * @ret_bad_off: optional; on -ENOENT or -EINVAL, the offset in @list of the
 *		 bad event, which runs to the next comma or the end
 *
 * Return: 0, -ENOENT or -EINVAL (as sampo_event_spec__parse(), for the
 * event at *@ret_bad_off), -E2BIG (more than @max events)
 */
SAMPO_API int sampo_event_specs__parse(const char *list, struct sampo_event_spec *specs,
				       size_t max, size_t *ret_nr, size_t *ret_bad_off);

/* --call-graph's modes */
enum sampo_callgraph_mode {
	SAMPO_CALLGRAPH_NONE,
	SAMPO_CALLGRAPH_FP,
	SAMPO_CALLGRAPH_DWARF,
	SAMPO_CALLGRAPH_LBR,
};

#define SAMPO_CALLGRAPH_DWARF_DEFAULT_SIZE 8192u  /* perf's default stack dump size */
#define SAMPO_CALLGRAPH_DWARF_MAX_SIZE	   65528u /* USHRT_MAX rounded down to u64s */

/* perf record --call-graph MODE[,ARG] */
struct sampo_callgraph {
	enum sampo_callgraph_mode mode;
	uint32_t dump_size; /* dwarf: bytes of user stack per sample */
	uint16_t max_stack; /* fp,N: attr.sample_max_stack (0: the kernel's) */
};

/**
 * sampo_callgraph__parse() - perf 6.1's parse_callchain_record()
 * @arg: "fp[,N]", "dwarf[,SIZE]" or "lbr"
 * @max_stack_limit: the kernel's perf_event_max_stack: fp,N takes N only
 *		     below it (perf's rule; anything else keeps the default)
 * @ret: filled in on success
 *
 * Tokens are split on commas, empty ones skipped (perf's strtok_r()). SIZE
 * is a C number (strtoul base 0) rounded up to 8 bytes, 8..65528;
 * anything after dwarf,SIZE is ignored as perf ignores it.
 * Return: 0; -EINVAL (unknown mode), -ERANGE (bad dwarf SIZE),
 * -E2BIG (lbr given an argument).
 */
SAMPO_API int sampo_callgraph__parse(const char *arg, unsigned long max_stack_limit,
				     struct sampo_callgraph *ret);

/* How perf record samples, for sampo_event_specs__attrs(). */
struct sampo_event_attr_opts {
	size_t sz;
	uint64_t freq_hz;     /* sample at this frequency when period is 0 */
	uint64_t period;      /* sample every @period events; wins over freq_hz */
	bool callchain;	      /* -g: frame-pointer call chains */
	bool system_wide;     /* -a or -C: every task of the CPUs (SAMPLE_CPU) */
	bool per_thread;      /* -t: the threads given, not their children (no inherit) */
	bool enable_on_exec;  /* a forked command: counting starts at its exec */
	bool no_buildid_mmap; /* no build-ids in MMAP2 records */
	/*
	 * --call-graph (struct sampo_callgraph); when set, it wins over
	 * @callchain. dwarf: CALLCHAIN, REGS_USER (sampo_reg__user_mask()),
	 * STACK_USER, exclude_callchain_user, and perf's sample_address (ADDR,
	 * DATA_SRC, mmap_data on the tracking event); lbr: CALLCHAIN and
	 * BRANCH_STACK with a user call stack; fp: CALLCHAIN with max_stack.
	 */
	const struct sampo_callgraph *callgraph;
	bool all_user;	     /* --all-user: every event counts user space only */
	bool all_kernel;     /* --all-kernel: every event counts the kernel only */
	bool no_inherit;     /* --no-inherit: a task's children are not counted */
	bool switch_events;  /* --switch-events: context switch records (tracking event) */
	bool namespaces;     /* --namespaces: NAMESPACES records (tracking event) */
	bool sample_address; /* -d: ADDR and DATA_SRC, and the data maps (mmap_data) */
	bool sample_cpu;     /* --sample-cpu: CPU in every sample, not system-wide only */
	uint64_t intr_regs;  /* -I: registers sampled at the interrupt (REGS_INTR), a mask */
	uint64_t user_regs;  /* --user-regs: user registers (REGS_USER); dwarf's are added */
};
#define sampo_event_attr_opts__last_field user_regs

/**
 * sampo_event_specs__attrs() - the attrs perf record opens for @specs
 * @specs: the events
 * @nr: how many; one attr each
 * @opts: how to sample; NULL: 4000 Hz, per task, nothing else
 * @ret_attrs: @nr attrs, filled in
 *
 * Every attr samples IP, TID, TIME and PERIOD (+ CALLCHAIN, + CPU when
 * system-wide, + ID when there are several events) and starts disabled.
 * The first event is the tracking one: MMAP, MMAP2, COMM, TASK, KSYMBOL
 * and BPF records come with it, and, per task only, MMAP2 records with
 * build-ids (system-wide, the kernel marks other sessions' MMAP2 records
 * as build-id records: perf 6.1 then dies on them).
 * Return: 0, or -EINVAL (bad @opts, @nr of 0)
 */
SAMPO_API int sampo_event_specs__attrs(const struct sampo_event_spec *specs, size_t nr,
				       const struct sampo_event_attr_opts *opts,
				       struct sampo_event_attr *ret_attrs);

/* What sampo_event_specs__fallback() changed. */
enum sampo_event_fallback {
	SAMPO_EVENT_FALLBACK_NONE,
	SAMPO_EVENT_FALLBACK_USER_ONLY, /* kernel sampling forbidden: every event ":u" */
	SAMPO_EVENT_FALLBACK_CPU_CLOCK, /* no hardware cycles: that event is cpu-clock */
};

/**
 * sampo_event_open_error__missing() - whether an open error means "no such event here"
 * @err: the negative errno of perf_event_open()
 *
 * Return: true for -ENOENT, -EOPNOTSUPP, -ENODEV and -ENOSYS
 */
SAMPO_API bool sampo_event_open_error__missing(int err);

/**
 * sampo_event_specs__fallback() - perf's fallbacks after a failed open
 * @specs: the events; changed in place
 * @nr: how many
 * @failed: the index of the event whose open failed (-1: unknown)
 * @err: the negative errno of that open
 * @ret_what: on true, what changed
 *
 * -EACCES or -EPERM (perf_event_paranoid forbids kernel sampling): every
 * event that was not already user-only becomes so, its name gaining ":u".
 * An event missing here (sampo_event_open_error__missing()) that is
 * hardware cycles becomes cpu-clock with the same modifiers (perf's
 * evsel__fallback()). Each applies once: a second failure of the same kind
 * finds nothing to change.
 * Return: true when the specs changed and opening is worth another try
 */
SAMPO_API bool sampo_event_specs__fallback(struct sampo_event_spec *specs, size_t nr, int failed,
					   int err, enum sampo_event_fallback *ret_what);

/**
 * sampo_event_limits__read() - the kernel's limits on sampling
 * @proc_dir: where /proc is (NULL: "/proc"); tests use a fake tree
 * @ret_paranoid: on return, sys/kernel/perf_event_paranoid, or -1 if unknown
 * @ret_max_rate_hz: on return, sys/kernel/perf_event_max_sample_rate, or 0
 *		     if unknown
 *
 * Either may be NULL. A missing file is not an error (the value is unknown).
 */
SAMPO_API void sampo_event_limits__read(const char *proc_dir, int *ret_paranoid,
					uint64_t *ret_max_rate_hz);

#endif /* SAMPO_PARSE_EVENTS_H */
