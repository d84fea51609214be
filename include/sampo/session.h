/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * session.h - one perf.data file or pipe opened for a command: the reader,
 * the features, the machine state, the event names and an optional
 * symbolizer, kept together, and the records handed to a table of callbacks
 * (perf's perf_session + perf_tool, without their globals).
 *
 *	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true, .errbuf = buf, .errbuf_sz = n);
 *	err = sampo_session__open(path, &opts, &session);	(buf says why on failure)
 *	const struct sampo_tool tool = { .sample = my_sample, .other = my_other };
 *	err = sampo_session__process(session, &tool, ctx);	(sampo_session__error() says why)
 *	... sampo_session__evsel_name(session, idx), sampo_session__lost(session) ...
 *	sampo_session__close(session);
 *
 * For each record, in the reader's order, sampo_session__process():
 *
 *	1. keeps the session's own state: the lost counters (LOST,
 *	   LOST_SAMPLES), the event names (EVENT_UPDATE, and in pipe mode the
 *	   EVENT_DESC of a HEADER_FEATURE), the features of a pipe
 *	   (HEADER_FEATURE records are parsed as they pass);
 *	2. gives the state records (COMM, FORK, EXIT, MMAP, MMAP2, KSYMBOL) to
 *	   the machine, so that a callback sees the machine as it is after the
 *	   record, as perf's tools that call perf_event__process_*() first do;
 *	   with .machine_after_tool the machine sees the record after the
 *	   callback instead (perf report -D prints a record before perf acts
 *	   on it);
 *	3. calls the tool's callback for the record's type, or its .other
 *	   callback when that one is NULL.
 *
 * Event names follow perf 6.1's evsel->name: EVENT_DESC names the events by
 * position (file mode: at open; pipe mode: when its HEADER_FEATURE passes,
 * for the events not yet named), an EVENT_UPDATE of type NAME renames its
 * event, and an event never named gets perf's made-up name
 * (sampo_evsel__default_name()) the first time it is asked for, which then
 * sticks, as perf's evsel__name() stores it.
 */
#ifndef SAMPO_SESSION_H
#define SAMPO_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>
#include <sampo/event.h>

struct sampo_event;
struct sampo_feature_error;
struct sampo_features;
struct sampo_machine;
struct sampo_module_sections;
struct sampo_reader;
struct sampo_session;
struct sampo_symbolizer;
struct sampo_symbolizer_opts;

/* What the session does with the features of a file (pipe: see each mode). */
enum sampo_session_features {
	/*
	 * Every feature must parse, or the open fails (the default). Pipe mode:
	 * every HEADER_FEATURE is parsed as it passes; one that does not
	 * parse is left out.
	 */
	SAMPO_SESSION_FEATURES_ALL = 0,
	/*
	 * All or none: when one does not parse (malformed, or a version this
	 * library does not know), the session goes on without features and
	 * sampo_session__error() says why (script). Pipe mode: as ALL.
	 */
	SAMPO_SESSION_FEATURES_OPTIONAL,
	/*
	 * Each feature (of .feature_mask) that parses; a damaged one is left
	 * out and the others are read, as perf goes on (report, dump):
	 * sampo_session__damaged_features() counts them and describes the
	 * first. Pipe mode: the same, record by record, without the count.
	 */
	SAMPO_SESSION_FEATURES_EACH,
	/* None: the caller reads them itself from the reader (header, buildid-list). */
	SAMPO_SESSION_FEATURES_NONE,
};

struct sampo_session_opts {
	size_t sz;
	bool ordered;  /* deliver in perf's order (sampo_reader_opts.ordered) */
	bool threaded; /* read in a second thread (sampo_reader_opts.threaded; files only) */
	bool raw;      /* do not decode sample fields (sampo_reader_opts.raw) */
	enum sampo_session_features features;
	/* FEATURES_EACH: bit (1 << SAMPO_FEAT_*) for each feature wanted; 0 means all */
	uint64_t feature_mask;
	bool no_machine; /* keep no machine state (header) */
	/*
	 * Bit (1 << SAMPO_RECORD_*) for each record type the machine is given;
	 * 0 means all the types that change it (COMM, FORK, EXIT, MMAP, MMAP2,
	 * KSYMBOL). perf's buildid-list tool, for one, handles no COMM and no
	 * KSYMBOL.
	 */
	uint64_t machine_mask;
	bool machine_after_tool; /* the machine sees each record after the callback */
	bool guests;		 /* a machine per guest (sampo_machine__enable_guests()) */
	/*
	 * When set, the session can make a symbolizer (sampo_session__symbolizer())
	 * with these options (copied; the strings they point to are borrowed and
	 * must outlive the session). In file mode the module section maps that
	 * sampo record saved are read at open and given to it.
	 */
	const struct sampo_symbolizer_opts *symbolizer;
	/* where the one-line reason for a failed open goes ("" when none) */
	char *errbuf;
	size_t errbuf_sz;
};
#define sampo_session_opts__last_field errbuf_sz

/**
 * sampo_tool_fn - a callback of struct sampo_tool
 * @ctx: the pointer given to sampo_session__process()
 * @session: the session
 * @ev: the record (borrowed: valid during the call only)
 *
 * Return: 0 to go on; a negative errno to stop with an error (the session's
 * error then reads "cannot process the record at offset ...: <errno text>");
 * a positive value to stop at once, which sampo_session__process() returns
 * (a tool that printed its own message, or that has seen enough).
 */
typedef int (*sampo_tool_fn)(void *ctx, struct sampo_session *session,
			     const struct sampo_event *ev);

/* The callbacks of a tool; NULL ones fall back to .other, which may be NULL too. */
struct sampo_tool {
	sampo_tool_fn sample;	      /* SAMPLE */
	sampo_tool_fn mmap;	      /* MMAP and MMAP2 */
	sampo_tool_fn comm;	      /* COMM */
	sampo_tool_fn fork;	      /* FORK */
	sampo_tool_fn exit;	      /* EXIT */
	sampo_tool_fn lost;	      /* LOST and LOST_SAMPLES (already counted) */
	sampo_tool_fn ksymbol;	      /* KSYMBOL */
	sampo_tool_fn event_update;   /* EVENT_UPDATE (a NAME already applied) */
	sampo_tool_fn feature;	      /* HEADER_FEATURE, pipe mode (already parsed) */
	sampo_tool_fn build_id;	      /* HEADER_BUILD_ID */
	sampo_tool_fn finished_round; /* FINISHED_ROUND */
	sampo_tool_fn other;	      /* every record whose own callback is NULL */
};

/* Lost counters, summed over the records read so far. */
struct sampo_session_lost {
	uint64_t lost;	       /* events the kernel dropped (LOST records' counts) */
	uint64_t lost_samples; /* samples the kernel dropped (LOST_SAMPLES records' counts) */
	uint64_t nr_records;   /* LOST and LOST_SAMPLES records seen */
};

/**
 * sampo_session__open() - open a perf.data file or pipe and set up its state
 * @path: file name; "-" reads standard input (pipe mode)
 * @opts: optional; NULL means defaults (file order, every feature must
 *	  parse, a machine, no symbolizer)
 * @ret_session: on success, the new session; free with sampo_session__close()
 *
 * Reads the header, the attrs and (file mode) the features, and makes the
 * machine. On failure @opts->errbuf gets one line naming the file and the
 * problem ("cannot open 'x': No such file or directory", the reader's
 * "'x': ... at offset 0x..", "'x': <feature problem>").
 *
 * Return: 0, or a negative errno or -SAMPO_ERR_* (see sampo_reader__open(),
 * sampo_features__parse()).
 */
SAMPO_API int sampo_session__open(const char *path, const struct sampo_session_opts *opts,
				  struct sampo_session **ret_session);

/** sampo_session__close() - free the session and everything it owns; NULL is allowed */
SAMPO_API void sampo_session__close(struct sampo_session *session);

/**
 * sampo_session__process() - read the records to the end, through @tool
 * @tool: the callbacks; NULL reads the records for the session's state only
 * @ctx: handed to every callback
 *
 * May be called again after a stop by the tool: it goes on with the next
 * record.
 *
 * Return: 0 at the end of the records; the positive value of a callback that
 * stopped the walk; or a negative error (the reader's, the machine's or a
 * callback's), sampo_session__error() then says what and where. The records
 * before a failure have been delivered.
 */
SAMPO_API int sampo_session__process(struct sampo_session *session, const struct sampo_tool *tool,
				     void *ctx);

/**
 * sampo_session__error() - one line describing the last failure, or ""
 *
 * In SAMPO_SESSION_FEATURES_OPTIONAL mode, after a successful open, it says
 * why the features (or the module section maps) were left out, if they were.
 */
SAMPO_API const char *sampo_session__error(const struct sampo_session *session);

/** sampo_session__reader() - the reader (borrowed) */
SAMPO_API struct sampo_reader *sampo_session__reader(const struct sampo_session *session);

/** sampo_session__name() - the input's name as given ("-" for standard input) */
SAMPO_API const char *sampo_session__name(const struct sampo_session *session);

/** sampo_session__is_pipe() - the input is in pipe format */
SAMPO_API bool sampo_session__is_pipe(const struct sampo_session *session);

/**
 * sampo_session__features() - the features (borrowed), or NULL
 *
 * NULL in SAMPO_SESSION_FEATURES_NONE mode, and in OPTIONAL mode when they
 * did not parse. In pipe mode it fills up as HEADER_FEATURE records pass.
 */
SAMPO_API struct sampo_features *sampo_session__features(const struct sampo_session *session);

/** sampo_session__machine() - the host machine (borrowed), or NULL with .no_machine */
SAMPO_API struct sampo_machine *sampo_session__machine(const struct sampo_session *session);

/**
 * sampo_session__symbolizer() - the symbolizer (borrowed), made at the first call
 *
 * Made from the features known at that moment: in pipe mode, call it when
 * the features that matter have passed (at the first sample, say).
 *
 * Return: the symbolizer, or NULL when the session was opened without
 * symbolizer options or it cannot be made (sampo_session__error() says why).
 */
SAMPO_API struct sampo_symbolizer *sampo_session__symbolizer(struct sampo_session *session);

/** sampo_session__module_sections() - the saved module section maps (borrowed), or NULL */
SAMPO_API const struct sampo_module_sections *
sampo_session__module_sections(const struct sampo_session *session);

/** sampo_session__nr_events() - events (attrs) known so far; a pipe's grow as they pass */
SAMPO_API size_t sampo_session__nr_events(const struct sampo_session *session);

/**
 * sampo_session__evsel_name() - the name of event @idx, as perf 6.1 names it
 *
 * See the top of this file. The string is borrowed: valid until the event
 * is renamed or the session closed.
 *
 * Return: the name, or "unknown" for a bad @idx (perf's word for a record
 * of no event) or when out of memory.
 */
SAMPO_API const char *sampo_session__evsel_name(struct sampo_session *session, int idx);

struct sampo_trace_data;

/**
 * sampo_session__trace_data() - the event formats of the recording's
 * tracing data (include/sampo/trace-data.h): the TRACING_DATA feature, read
 * when first asked; in a pipe, its TRACING_DATA record, read as it passes.
 * Damage is one warning naming the section and the offset; the formats
 * before it are kept.
 *
 * Return: the formats (the session's), or NULL when there are none.
 */
SAMPO_API struct sampo_trace_data *sampo_session__trace_data(struct sampo_session *session);

/**
 * sampo_session__damaged_features() - SAMPO_SESSION_FEATURES_EACH: how many
 * features of the file were left out because they did not parse
 * @ret_first: optional; set to the first one's description (borrowed), or
 *	       NULL when none was
 *
 * Return: their number (0: none).
 */
SAMPO_API int sampo_session__damaged_features(const struct sampo_session *session,
					      const struct sampo_feature_error **ret_first);

/** sampo_session__lost() - the lost counters so far (borrowed) */
SAMPO_API const struct sampo_session_lost *sampo_session__lost(const struct sampo_session *session);

/* One value of a PERF_SAMPLE_READ sample, as sampo_session__sample_values() hands it out. */
struct sampo_sample_value {
	uint64_t id;	 /* the event id it was read for (0 when read_format has no ID) */
	uint64_t value;	 /* the counter's value */
	uint64_t period; /* its increase since the last value of this id (0 for an unknown id) */
	int evsel;	 /* the attr that owns @id, or -1 when none does */
};

/* A callback of sampo_session__sample_values(): 0 to go on, anything else stops and is returned. */
typedef int (*sampo_sample_value_fn)(void *ctx, const struct sampo_sample_value *value);

/**
 * sampo_session__sample_values() - the events a PERF_SAMPLE_READ sample
 * counts for, and with which period (perf 6.1's deliver_sample_value())
 * @ev: a SAMPLE record of this session, whose attr has SAMPO_SAMPLE_READ
 * @fn: called once per value that perf delivers or counts as unknown
 * @ctx: handed to @fn
 *
 * Each value of the read (the one value, or each member of a
 * SAMPO_FORMAT_GROUP read, in the record's order) is the counter of the
 * event of its id. Its period is the increase since the last value of the
 * same id, which the session keeps from call to call; a value that did not
 * increase counts for nothing and @fn does not see it. A value whose id no
 * attr owns is handed to @fn with .evsel -1 (perf counts it in
 * nr_unknown_id) and leaves no state. A sample of no known attr, or without
 * read values, calls nothing.
 *
 * Return: 0, -ENOMEM (the values before were handed out), or the first
 * non-zero return of @fn.
 */
SAMPO_API int sampo_session__sample_values(struct sampo_session *session,
					   const struct sampo_event *ev, sampo_sample_value_fn fn,
					   void *ctx);

#endif /* SAMPO_SESSION_H */
