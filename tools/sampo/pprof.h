/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pprof.h - a pprof profile (profile.proto, gzipped) built in memory and
 * written with protobuf-c, and the conversion of a session's samples into
 * it, shared by `sampo pprof`, `sampo report --format pprof` and
 * `sampo merge -o out.pb.gz`.
 *
 * Two layers:
 *
 * 1. The profile (struct pprof): strings, sample types, mappings,
 *    functions, locations and samples, each deduplicated, ids from 1.
 *    Samples with the same locations and labels are one sample whose
 *    values add up. Usable alone for any profile:
 *
 *	struct pprof *p;
 *	pprof_new(&p);
 *	int t = pprof_sample_type(p, "cycles_event", "count");
 *	uint64_t m = pprof_mapping(p, &(struct pprof_mapping){ ... });
 *	uint64_t f = pprof_function(p, "main", "main", "a.c", 0);
 *	uint64_t l = pprof_location(p, m, addr, &(struct pprof_line){ f, 12 }, 1);
 *	struct pprof_value v = { t, 1000 };
 *	pprof_add_sample(p, &l, 1, NULL, 0, &v, 1);
 *	pprof_write(p, "out.pb.gz");
 *	pprof_delete(p);
 *
 * 2. The samples of one perf.data session (struct pprof_perf): each SAMPLE
 *    resolved on the session's machine and symbolizer to its call chain,
 *    as perf report resolves it, each frame a location in the mapping of
 *    its map (with the DSO's build-id, file offset and name), with the
 *    symbol as function and, where the file has DWARF, source lines
 *    (inlined frames as several lines). Values per event, as Google's
 *    perf_data_converter makes them: "<event>_sample" (count of samples)
 *    and "<event>_event" (sum of the periods). Several sessions may feed
 *    one profile (sampo merge): events are joined by name, and a
 *    .host label tells the files apart.
 *
 *	struct pprof_perf *pp;
 *	pprof_perf_new(p, session, &opts, &pp);
 *	... in the tool's .sample callback: pprof_perf_add_sample(pp, ev);
 *	pprof_perf_finish(pp);	(comments: perf version, command, host)
 *	pprof_perf_delete(pp);
 *
 * Functions return 0 or a negative errno; ids are 0 when out of memory.
 */
#ifndef SAMPO_CLI_PPROF_H
#define SAMPO_CLI_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pprof;
struct pprof_perf;
struct sampo_event;
struct sampo_session;

struct pprof_mapping {
	uint64_t start, limit; /* memory_start, memory_limit (exclusive) */
	uint64_t file_offset;
	const char *filename; /* NULL: "" */
	const char *build_id; /* hex; NULL: none */
	bool has_functions, has_filenames, has_line_numbers, has_inline_frames;
};

struct pprof_line {
	uint64_t function_id;
	int64_t line; /* 0: unknown */
};

/* a label: a string or a number (with an optional unit) */
struct pprof_label {
	const char *key;
	const char *str; /* NULL: a number label */
	int64_t num;
	const char *num_unit; /* NULL: none */
};

/* the value of sample type @type (pprof_sample_type()'s index) */
struct pprof_value {
	int type;
	int64_t value;
};

int pprof_new(struct pprof **ret);
void pprof_delete(struct pprof *p);

/* the string's index in the string table (0 for "" and NULL), -ENOMEM */
int64_t pprof_string(struct pprof *p, const char *s);

/* the index of sample type (@type, @unit), added at the end if new; -ENOMEM */
int pprof_sample_type(struct pprof *p, const char *type, const char *unit);
/* the sample type go tool pprof shows by default; NULL: the last one */
int pprof_set_default_sample_type(struct pprof *p, const char *type);
/* a comment line (profile.comment), once per distinct text */
int pprof_add_comment(struct pprof *p, const char *text);
/* time_nanos and duration_nanos */
void pprof_set_time(struct pprof *p, int64_t time_nanos, int64_t duration_nanos);

uint64_t pprof_mapping(struct pprof *p, const struct pprof_mapping *m);
uint64_t pprof_function(struct pprof *p, const char *name, const char *system_name,
			const char *filename, int64_t start_line);
/* @lines: the innermost (inlined) function first, the caller last; @nr may be 0 */
uint64_t pprof_location(struct pprof *p, uint64_t mapping_id, uint64_t address,
			const struct pprof_line *lines, size_t nr);

/* add @values to the sample of these locations (leaf first) and labels */
int pprof_add_sample(struct pprof *p, const uint64_t *locations, size_t nr_locations,
		     const struct pprof_label *labels, size_t nr_labels,
		     const struct pprof_value *values, size_t nr_values);

/* counts, for tests and messages */
size_t pprof_nr_samples(const struct pprof *p);
size_t pprof_nr_locations(const struct pprof *p);

/*
 * Write the gzipped profile to @path ("-": standard output), created by
 * sampo_output_file__create(). Return: 0, or a negative errno (the CLI
 * says which file: cli_err_write()).
 */
int pprof_write(struct pprof *p, const char *path);

/* ---- the samples of a perf.data session ------------------------------- */

/* label bits of struct pprof_perf_opts.labels, named as perf_data_converter names them */
enum {
	PPROF_LABEL_PID = 1u << 0,	      /* "pid" */
	PPROF_LABEL_TID = 1u << 1,	      /* "tid" */
	PPROF_LABEL_TIMESTAMP = 1u << 2,      /* "timestamp_ns" */
	PPROF_LABEL_EXECUTION_MODE = 1u << 3, /* "execution_mode" */
	PPROF_LABEL_COMM = 1u << 4,	      /* "comm": the process's */
	PPROF_LABEL_THREAD_COMM = 1u << 6,    /* "thread_comm": the thread's */
	PPROF_LABEL_CPU = 1u << 7,	      /* "cpu" */
};

/*
 * pprof_labels_parse() - "pid,tid,comm,thread_comm,cpu,timestamp_ns,
 * execution_mode" (or "all", "none") as label bits. Return: 0 or -EINVAL.
 */
int pprof_labels_parse(const char *list, unsigned *ret);

struct pprof_perf_opts {
	unsigned labels; /* PPROF_LABEL_* */
	/* a "host" label on every sample (sampo merge); NULL: none */
	const char *host;
	/* function names and mappings only: no DWARF source lines */
	bool no_lines;
	/* one line per location (the symbol's): no inlined frames */
	bool no_inline;
	/* keep at most this many callchain entries; 0: 127, as perf */
	unsigned max_stack;
	/* guest samples too (else dropped, as perf report drops them) */
	bool guests;
};

/*
 * pprof_perf_new() - a converter from @session (which must have been opened
 * with symbolizer options) into @p. Adds the sample types of the session's
 * events known so far (a pipe's are added as their samples come).
 */
int pprof_perf_new(struct pprof *p, struct sampo_session *session,
		   const struct pprof_perf_opts *opts, struct pprof_perf **ret);
/* one SAMPLE record, after the session's machine saw the records before it */
int pprof_perf_add_sample(struct pprof_perf *pp, const struct sampo_event *ev);
/* the comments from the header features: perf version, command line, host */
int pprof_perf_finish(struct pprof_perf *pp);
void pprof_perf_delete(struct pprof_perf *pp);

/* what was converted, per event (the session's attr index) */
uint64_t pprof_perf_nr_samples(const struct pprof_perf *pp, int evsel);
uint64_t pprof_perf_total_period(const struct pprof_perf *pp, int evsel);

/* ---- the whole conversion (cmd-pprof.c) --------------------------------- */

struct sampo_symbolizer_opts;

struct pprof_convert_opts {
	const char *input;  /* perf.data, "-" for a pipe */
	const char *output; /* the .pb.gz, "-" for stdout */
	const struct sampo_symbolizer_opts *symbolizer;
	struct pprof_perf_opts perf;
};

/*
 * pprof_convert() - read @o->input through a session and write its samples
 * as a pprof profile to @o->output (sampo pprof, sampo report --format
 * pprof). Return: 0, or the CLI's error code (the message is printed).
 */
int pprof_convert(const struct pprof_convert_opts *o);

#endif /* SAMPO_CLI_PPROF_H */
