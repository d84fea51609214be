// SPDX-License-Identifier: LGPL-2.1
/*
 * session.c - one input opened for a command (include/sampo/session.h): the
 * reader, the features, the machine, the event names, the lost counters and
 * an optional symbolizer, and the walk that hands the records to a tool.
 *
 *	session ─┬─ reader ──────── records, attrs, raw features
 *	         ├─ features ────── file: parsed at open; pipe: HEADER_FEATUREs as they pass
 *	         ├─ names[] ─────── one per attr: EVENT_DESC, EVENT_UPDATE, or made up when asked
 *	         ├─ machine ─────── fed the state records (before or after the tool)
 *	         ├─ module sections  file mode, when a symbolizer may be made
 *	         ├─ embedded symbols file mode, likewise (a damaged section: one warning)
 *	         ├─ symbolizer ──── made at the first sampo_session__symbolizer()
 *	         └─ lost counters
 *
 * Invariants: names[] has one slot per attr the reader knew at the last
 * record (a pipe's attrs appear after their HEADER_ATTR has been handed
 * out); a NULL slot is an event nobody has named yet. The session's state
 * is updated before the tool sees a record, the machine's before or after
 * it (.machine_after_tool).
 *
 * The rules for names are perf 6.1's: evlist__set_event_name() fills only
 * events without a name, perf_event__process_event_update() replaces it,
 * and evsel__name() stores the name it makes up. An EVENT_UPDATE whose id is
 * 0, or whose id is unknown in a file of one event, is the first event's (as
 * perf's synthesized ones in files of one event).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/embedded-symbols.h>
#include <sampo/event.h>
#include <sampo/evsel.h>
#include <sampo/feature.h>
#include <sampo/kmodule.h>
#include <sampo/machine.h>
#include <sampo/modsections.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/symbolizer.h>
#include <sampo/trace-data.h>

#include "internal/hash.h"
#include "internal/log.h"
#include "internal/machine.h"
#include "internal/reader.h"
#include "internal/opts.h"
#include "internal/util.h"

#define SESSION_ERR_MAX 512

/* the record types that change a machine (sampo_machine__process_event()) */
#define MACHINE_TYPES                                                                       \
	((1ULL << SAMPO_RECORD_COMM) | (1ULL << SAMPO_RECORD_FORK) |                        \
	 (1ULL << SAMPO_RECORD_EXIT) | (1ULL << SAMPO_RECORD_MMAP) |                        \
	 (1ULL << SAMPO_RECORD_MMAP2) | (1ULL << SAMPO_RECORD_KSYMBOL))

struct sampo_session {
	char *name;
	struct sampo_reader *reader;
	struct sampo_features *features;
	struct sampo_machine *machine;
	struct sampo_module_sections *module_sections;
	struct sampo_embedded_symbols *embedded; /* file mode, when a symbolizer may be made */
	struct sampo_symbolizer *symbolizer;
	struct sampo_symbolizer_opts sym_opts;
	bool has_sym_opts;
	bool symbolizer_failed;

	enum sampo_session_features feat_mode;
	uint64_t feature_mask;
	int nr_damaged;			      /* FEATURES_EACH: features left out */
	struct sampo_feature_error damaged;   /* the first of them */
	uint64_t machine_mask;
	bool machine_after_tool;

	char **names; /* one per attr; NULL: not named yet */
	size_t nr_names;

	/* the tracing data: file mode when first asked, pipe mode at its record */
	struct sampo_trace_data *trace;
	bool trace_read;

	/* PERF_SAMPLE_READ: the last value per event id (perf's sid->period) */
	struct sampo_hash_index read_ix;
	struct read_last {
		uint64_t id, value;
	} *read_last;
	size_t nr_read_last, read_last_cap;

	struct sampo_session_lost lost;
	char errbuf[SESSION_ERR_MAX];
	char reader_errbuf[SESSION_ERR_MAX]; /* the reader writes its failures here, open or later */
};

static void set_error(struct sampo_session *s, const char *fmt, ...) SAMPO_PRINTF(2, 3);
static void set_error(struct sampo_session *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->errbuf, sizeof(s->errbuf), fmt, ap);
	va_end(ap);
}

/* ---- names -------------------------------------------------------------- */

/* one slot per attr the reader knows (a pipe's grow as HEADER_ATTRs pass) */
static int sync_names(struct sampo_session *s)
{
	size_t nr = sampo_reader__nr_attrs(s->reader);
	char **n;

	if (nr <= s->nr_names)
		return 0;
	n = realloc(s->names, nr * sizeof(*n));
	if (!n)
		return -ENOMEM;
	memset(n + s->nr_names, 0, (nr - s->nr_names) * sizeof(*n));
	s->names = n;
	s->nr_names = nr;
	return 0;
}

/* perf's evlist__set_event_name() for every EVENT_DESC entry: unnamed events only */
static void apply_event_desc(struct sampo_session *s)
{
	for (size_t i = 0; i < s->nr_names; i++) {
		const char *name = sampo_evsel__desc_name(s->features, i);

		if (name && !s->names[i])
			s->names[i] = strdup(name); /* out of memory: made up when asked */
	}
}

/* perf_event__process_event_update(), type NAME */
static int apply_event_update(struct sampo_session *s, const union sampo_record *rec)
{
	const struct sampo_record_event_update *e = &rec->event_update;
	size_t len;
	char *name;
	int idx;

	if (e->type != SAMPO_EVENT_UPDATE_NAME || rec->header.size <= sizeof(*e))
		return 0;
	len = strnlen((const char *)e->data, rec->header.size - sizeof(*e));
	idx = sampo_reader__attr_by_id(s->reader, e->id);
	if (e->id == 0 || (s->nr_names == 1 && idx < 0))
		idx = s->nr_names ? 0 : -1;
	if (idx < 0 || (size_t)idx >= s->nr_names)
		return 0;
	name = strndup((const char *)e->data, len);
	if (!name)
		return -ENOMEM;
	free(s->names[idx]);
	s->names[idx] = name;
	return 0;
}

const char *sampo_session__evsel_name(struct sampo_session *s, int idx)
{
	if (!s || idx < 0)
		return "unknown";
	if ((size_t)idx >= s->nr_names && sync_names(s))
		return "unknown";
	if ((size_t)idx >= s->nr_names)
		return "unknown";
	if (!s->names[idx]) {
		const struct sampo_event_attr *attr = sampo_reader__attr(s->reader, (size_t)idx);
		const char *tp = NULL;

		/* perf's evlist__prepare_tracepoint_events(): "system:name" */
		if (attr && attr->type == SAMPO_TYPE_TRACEPOINT)
			tp = sampo_trace_data__event_name(sampo_session__trace_data(s), attr->config);
		s->names[idx] = tp ? strdup(tp) : sampo_evsel__default_name(attr);
	}
	return s->names[idx] ? s->names[idx] : "unknown";
}

/* ---- tracing data ------------------------------------------------------- */

/* the tracing data in @buf, at @offset of the file (0: a pipe record's data, bytes counted in them) */
static void read_trace_data(struct sampo_session *s, const void *buf, size_t size,
			    uint64_t offset, const char *where)
{
	char msg[200];
	size_t at = 0;
	int err;

	sampo_trace_data__delete(s->trace);
	s->trace = NULL;
	err = sampo_trace_data__parse(buf, size, &s->trace, &at, msg, sizeof(msg));
	if (err == -ENOMEM)
		pr_warn("%s: %s: out of memory; tracepoints are printed without their fields\n",
			s->name, where);
	else if (err)
		pr_warn("%s: %s: at %s %#" PRIx64 ": %s; the event formats after it are "
			"left out\n",
			s->name, where, offset ? "offset" : "byte", offset + at, msg);
}

struct sampo_trace_data *sampo_session__trace_data(struct sampo_session *s)
{
	const struct sampo_features *f = s ? s->features : NULL;

	if (!s || s->trace_read)
		return s ? s->trace : NULL;
	s->trace_read = true;
	if (f && sampo_features__has(f, SAMPO_FEAT_TRACING_DATA) && f->tracing_data_size)
		read_trace_data(s, f->tracing_data, f->tracing_data_size,
				sampo_reader__feature_offset(s->reader, SAMPO_FEAT_TRACING_DATA),
				"the TRACING_DATA feature");
	return s->trace;
}

/* pipe mode: perf_event__process_tracing_data() */
static void take_pipe_trace_data(struct sampo_session *s, const struct sampo_event *ev)
{
	char where[96];

	if (!ev->payload) {
		pr_warn("%s: the TRACING_DATA record at offset %#" PRIx64 " has more data than "
			"can be read at once; tracepoints are printed without their fields\n",
			s->name, ev->offset);
		return;
	}
	snprintf(where, sizeof(where), "the data of the TRACING_DATA record at offset %#" PRIx64,
		 ev->offset);
	s->trace_read = true;
	read_trace_data(s, ev->payload, ev->payload_size, 0, where);
}

/* ---- features ----------------------------------------------------------- */

static bool feature_wanted(const struct sampo_session *s, int feat)
{
	if (s->feat_mode != SAMPO_SESSION_FEATURES_EACH || !s->feature_mask)
		return true;
	return feat < 64 && (s->feature_mask & (1ULL << feat));
}

/*
 * FEATURES_EACH: every wanted feature that parses, each on its own; the
 * ones left out are counted, the first described
 */
static int read_each_feature(struct sampo_session *s)
{
	int ret;

	if (!s->feature_mask) {
		ret = sampo_features__parse_each(s->reader, &s->features, &s->damaged);
		if (ret < 0)
			return ret;
		s->nr_damaged = ret;
		return 0;
	}
	/* only those asked for: the others are not even read */
	s->features = sampo_features__new();
	if (!s->features)
		return -ENOMEM;
	for (int feat = SAMPO_FEAT_RESERVED + 1; feat <= SAMPO_FEAT_LAST_KNOWN; feat++) {
		struct sampo_feature_error fe = { 0 };
		const void *data;
		size_t size;

		if (!feature_wanted(s, feat) || !sampo_reader__has_feature(s->reader, feat))
			continue;
		if (sampo_reader__feature(s->reader, feat, &data, &size)) {
			fe.feat = feat;
			snprintf(fe.msg, sizeof(fe.msg), "cannot read the section");
		} else {
			ret = sampo_features__parse_one(s->features, feat, data, size,
							sampo_reader__needs_swap(s->reader), &fe);
			if (ret == -ENOMEM)
				return ret;
			if (!ret)
				continue;
		}
		fe.section_offset = sampo_reader__feature_offset(s->reader, feat);
		if (!s->nr_damaged++)
			s->damaged = fe;
	}
	return 0;
}

/*
 * The symbol tables a self-contained profile carries. A damaged section is
 * one warning: the profile is read without it (its DSOs need their files).
 */
static void read_embedded_symbols(struct sampo_session *s)
{
	char msg[256] = "", why[128];
	int err = sampo_embedded_symbols__read(s->reader, &s->embedded, msg, sizeof(msg));

	if (!err)
		err = sampo_embedded_symbols__set_origin(s->embedded, s->name);
	if (!err || err == -ENOENT)
		return;
	sampo_embedded_symbols__delete(s->embedded);
	s->embedded = NULL;
	pr_warn("'%s': the embedded symbols (feature %d at %#" PRIx64 ") are not used: %s\n",
		s->name, SAMPO_FEAT_EMBEDDED_SYMBOLS,
		sampo_reader__feature_offset(s->reader, SAMPO_FEAT_EMBEDDED_SYMBOLS),
		msg[0] ? msg : sampo_strerror(err, why, sizeof(why)));
}

/* file mode: the features as the mode says, then the module section maps */
static int read_file_features(struct sampo_session *s, char *errbuf, size_t errbuf_sz)
{
	struct sampo_feature_error ferr = { 0 };
	char msg[128];
	int err;

	switch (s->feat_mode) {
	case SAMPO_SESSION_FEATURES_NONE:
		return 0;
	case SAMPO_SESSION_FEATURES_EACH:
		err = read_each_feature(s);
		if (err) {
			snprintf(errbuf, errbuf_sz, "cannot read the features of '%s': %s", s->name,
				 sampo_strerror(err, msg, sizeof(msg)));
			return err;
		}
		break;
	case SAMPO_SESSION_FEATURES_OPTIONAL:
		err = sampo_features__parse(s->reader, &s->features, &ferr);
		if (err == -SAMPO_ERR_MALFORMED || err == -SAMPO_ERR_UNSUPPORTED) {
			const char *fname = sampo_feature__name(ferr.feat);

			/* go on without them, and say why */
			set_error(s, "'%s': feature %s at %#" PRIx64 ", offset %#" PRIx64 ": %s",
				  s->name, fname ? fname : "?", ferr.section_offset, ferr.offset,
				  ferr.msg);
			s->features = NULL;
			return 0;
		}
		if (err) {
			snprintf(errbuf, errbuf_sz, "cannot read the features of '%s': %s", s->name,
				 sampo_strerror(err, msg, sizeof(msg)));
			return err;
		}
		break;
	case SAMPO_SESSION_FEATURES_ALL:
	default:
		err = sampo_features__parse(s->reader, &s->features, &ferr);
		if (err) {
			snprintf(errbuf, errbuf_sz, "'%s': %s", s->name,
				 ferr.msg[0] ? ferr.msg : sampo_strerror(err, msg, sizeof(msg)));
			return err;
		}
		break;
	}
	if (!s->has_sym_opts)
		return 0;
	read_embedded_symbols(s);
	/* where each module's sections were loaded, if sampo record saved it */
	err = sampo_module_sections__read(s->reader, &s->module_sections);
	if (!err || err == -ENOENT)
		return 0;
	s->module_sections = NULL;
	if (s->feat_mode == SAMPO_SESSION_FEATURES_OPTIONAL) {
		set_error(s,
			  "'%s': the module section maps do not parse; modules are placed without "
			  "them",
			  s->name);
		return 0;
	}
	snprintf(errbuf, errbuf_sz, "'%s': the module section maps do not parse: %s", s->name,
		 sampo_strerror(err, msg, sizeof(msg)));
	return err;
}

/* pipe mode: a HEADER_FEATURE record, parsed as it passes */
static int take_pipe_feature(struct sampo_session *s, const union sampo_record *rec)
{
	uint64_t feat = rec->feature.feat_id;

	if (s->feat_mode == SAMPO_SESSION_FEATURES_NONE || rec->header.size < sizeof(rec->feature) ||
	    feat > SAMPO_FEAT_LAST_KNOWN || !feature_wanted(s, (int)feat))
		return 0;
	if (!s->features) {
		s->features = sampo_features__new();
		if (!s->features)
			return -ENOMEM;
	}
	(void)sampo_features__parse_one(s->features, (int)feat, rec->feature.data,
					rec->header.size - sizeof(rec->feature),
					sampo_reader__needs_swap(s->reader), NULL);
	if (feat == SAMPO_FEAT_EVENT_DESC)
		apply_event_desc(s);
	return 0;
}

/*
 * perf makes a DSO of every build-id table entry before it reads the
 * records, and the kernel MMAP takes the first host kernel one that is not a
 * module, whatever its name (machine__process_kernel_mmap_event()): a
 * vmlinux that perf record found names the kernel ("[kernel.vmlinux]" in
 * report, its path in script and dump), in perf 6.1 as in 6.12
 */
static int name_kernel(struct sampo_session *s)
{
	const struct sampo_features *f = s->features;

	if (!f || !sampo_features__has(f, SAMPO_FEAT_BUILD_ID))
		return 0;
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct sampo_feat_build_id *b = &f->build_ids[i];

		if (b->pid != -1 || b->cpumode != SAMPO_CPUMODE_KERNEL || !b->filename ||
		    sampo_kmod__is_module(b->filename))
			continue;
		if (!strcmp(b->filename, sampo_machine__mmap_name(s->machine)))
			return 0;
		return sampo_machine__set_kernel_name(s->machine, b->filename);
	}
	return 0;
}

/* ---- open, close -------------------------------------------------------- */

void sampo_session__close(struct sampo_session *s)
{
	if (!s)
		return;
	sampo_symbolizer__delete(s->symbolizer);
	sampo_machine__delete(s->machine);
	sampo_module_sections__delete(s->module_sections);
	sampo_embedded_symbols__delete(s->embedded);
	sampo_features__delete(s->features);
	sampo_trace_data__delete(s->trace);
	for (size_t i = 0; i < s->nr_names; i++)
		free(s->names[i]);
	free(s->names);
	sampo_hash_index__release(&s->read_ix);
	free(s->read_last);
	sampo_reader__close(s->reader);
	free(s->name);
	free(s);
}

int sampo_session__open(const char *path, const struct sampo_session_opts *opts,
			struct sampo_session **ret_session)
{
	char *errbuf = OPTS_GET(opts, errbuf, NULL);
	size_t errbuf_sz = errbuf ? OPTS_GET(opts, errbuf_sz, 0) : 0;
	char local_err[SESSION_ERR_MAX] = "", msg[128];
	SAMPO_OPTS(sampo_reader_opts, ropts, .ordered = OPTS_GET(opts, ordered, false),
		   .threaded = OPTS_GET(opts, threaded, false), .raw = OPTS_GET(opts, raw, false));
	const struct sampo_symbolizer_opts *sym = OPTS_GET(opts, symbolizer, NULL);
	struct sampo_session *s;
	int err;

	if (!errbuf || !errbuf_sz) {
		errbuf = local_err;
		errbuf_sz = sizeof(local_err);
	}
	errbuf[0] = '\0';
	if (!path || !ret_session || !OPTS_VALID(opts, sampo_session_opts))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->name = strdup(path);
	if (!s->name) {
		err = -ENOMEM;
		goto out_close;
	}
	s->feat_mode = OPTS_GET(opts, features, SAMPO_SESSION_FEATURES_ALL);
	s->feature_mask = OPTS_GET(opts, feature_mask, 0);
	s->machine_mask = OPTS_GET(opts, machine_mask, 0);
	if (!s->machine_mask)
		s->machine_mask = MACHINE_TYPES;
	s->machine_after_tool = OPTS_GET(opts, machine_after_tool, false);
	if (sym) {
		/* copy what the caller's version of the struct has; the rest stays zero */
		memcpy(&s->sym_opts, sym, MIN(sym->sz, sizeof(s->sym_opts)));
		s->sym_opts.sz = sizeof(s->sym_opts);
		s->has_sym_opts = true;
	}

	ropts.errbuf = s->reader_errbuf;
	ropts.errbuf_sz = sizeof(s->reader_errbuf);
	err = sampo_reader__open(path, &ropts, &s->reader);
	if (err) {
		if (s->reader_errbuf[0])
			snprintf(errbuf, errbuf_sz, "%s", s->reader_errbuf);
		else
			snprintf(errbuf, errbuf_sz, "cannot open '%s': %s", path,
				 sampo_strerror(err, msg, sizeof(msg)));
		goto out_close;
	}
	err = sync_names(s);
	if (err)
		goto out_nomem;
	if (!sampo_reader__is_pipe(s->reader)) {
		err = read_file_features(s, errbuf, errbuf_sz);
		if (err)
			goto out_close;
		apply_event_desc(s);
	}
	if (!OPTS_GET(opts, no_machine, false)) {
		s->machine = sampo_machine__new();
		if (!s->machine) {
			err = -ENOMEM;
			goto out_nomem;
		}
		if (OPTS_GET(opts, guests, false))
			sampo_machine__enable_guests(s->machine);
		err = name_kernel(s);
		if (err)
			goto out_nomem;
	}
	s->sym_opts.module_sections = s->module_sections;
	s->sym_opts.embedded_symbols = s->embedded;
	*ret_session = s;
	return 0;

out_nomem:
	snprintf(errbuf, errbuf_sz, "'%s': %s", path, sampo_strerror(err, msg, sizeof(msg)));
out_close:
	sampo_session__close(s);
	return err;
}

/* ---- the walk ----------------------------------------------------------- */

static sampo_tool_fn tool_fn(const struct sampo_tool *tool, uint32_t type)
{
	sampo_tool_fn fn = NULL;

	if (!tool)
		return NULL;
	switch (type) {
	case SAMPO_RECORD_SAMPLE:
		fn = tool->sample;
		break;
	case SAMPO_RECORD_MMAP:
	case SAMPO_RECORD_MMAP2:
		fn = tool->mmap;
		break;
	case SAMPO_RECORD_COMM:
		fn = tool->comm;
		break;
	case SAMPO_RECORD_FORK:
		fn = tool->fork;
		break;
	case SAMPO_RECORD_EXIT:
		fn = tool->exit;
		break;
	case SAMPO_RECORD_LOST:
	case SAMPO_RECORD_LOST_SAMPLES:
		fn = tool->lost;
		break;
	case SAMPO_RECORD_KSYMBOL:
		fn = tool->ksymbol;
		break;
	case SAMPO_RECORD_EVENT_UPDATE:
		fn = tool->event_update;
		break;
	case SAMPO_RECORD_HEADER_FEATURE:
		fn = tool->feature;
		break;
	case SAMPO_RECORD_HEADER_BUILD_ID:
		fn = tool->build_id;
		break;
	case SAMPO_RECORD_FINISHED_ROUND:
		fn = tool->finished_round;
		break;
	default:
		break;
	}
	return fn ? fn : tool->other;
}

/* what the session itself keeps from a record */
static int session_state(struct sampo_session *s, const struct sampo_event *ev)
{
	const union sampo_record *rec = ev->record;

	switch (rec->header.type) {
	case SAMPO_RECORD_LOST:
		s->lost.lost += rec->lost.lost;
		s->lost.nr_records++;
		return 0;
	case SAMPO_RECORD_LOST_SAMPLES:
		s->lost.lost_samples += rec->lost_samples.lost;
		s->lost.nr_records++;
		return 0;
	case SAMPO_RECORD_EVENT_UPDATE:
		return apply_event_update(s, rec);
	case SAMPO_RECORD_HEADER_FEATURE:
		return take_pipe_feature(s, rec);
	case SAMPO_RECORD_HEADER_TRACING_DATA:
		take_pipe_trace_data(s, ev);
		return 0;
	default:
		return 0;
	}
}

static int feed_machine(struct sampo_session *s, const struct sampo_event *ev)
{
	uint32_t type = ev->record->header.type;

	if (!s->machine || type >= 64 || !(s->machine_mask & (1ULL << type)))
		return 0;
	return sampo_machine__process_event(s->machine, ev);
}

static int record_failed(struct sampo_session *s, const struct sampo_event *ev, int err)
{
	char msg[128];

	set_error(s, "cannot process the record at offset %#" PRIx64 ": %s", ev->offset,
		  sampo_strerror(err, msg, sizeof(msg)));
	return err;
}

int sampo_session__process(struct sampo_session *s, const struct sampo_tool *tool, void *ctx)
{
	const struct sampo_event *ev;
	int ret, err;

	if (!s)
		return -EINVAL;
	while ((ret = sampo_reader__next_ref(s->reader, &ev)) > 0) {
		sampo_tool_fn fn = tool_fn(tool, ev->record->header.type);

		err = sync_names(s);
		if (!err)
			err = session_state(s, ev);
		if (!err && !s->machine_after_tool)
			err = feed_machine(s, ev);
		if (err)
			return record_failed(s, ev, err);
		if (fn) {
			err = fn(ctx, s, ev);
			if (err < 0)
				return record_failed(s, ev, err);
			if (err > 0)
				return err;
		}
		if (s->machine_after_tool) {
			err = feed_machine(s, ev);
			if (err)
				return record_failed(s, ev, err);
		}
	}
	if (ret < 0) {
		set_error(s, "%s", sampo_reader__error(s->reader));
		return ret;
	}
	/* attrs announced by the last records */
	err = sync_names(s);
	if (err) {
		char msg[128];

		set_error(s, "'%s': %s", s->name, sampo_strerror(err, msg, sizeof(msg)));
	}
	return err;
}

/* ---- accessors ---------------------------------------------------------- */

const char *sampo_session__error(const struct sampo_session *s)
{
	return s ? s->errbuf : "";
}

struct sampo_reader *sampo_session__reader(const struct sampo_session *s)
{
	return s->reader;
}

const char *sampo_session__name(const struct sampo_session *s)
{
	return s->name;
}

bool sampo_session__is_pipe(const struct sampo_session *s)
{
	return sampo_reader__is_pipe(s->reader);
}

struct sampo_features *sampo_session__features(const struct sampo_session *s)
{
	return s->features;
}

struct sampo_machine *sampo_session__machine(const struct sampo_session *s)
{
	return s->machine;
}

struct sampo_symbolizer *sampo_session__symbolizer(struct sampo_session *s)
{
	char msg[128];
	int err;

	if (s->symbolizer || !s->has_sym_opts || s->symbolizer_failed || !s->machine)
		return s->symbolizer;
	err = sampo_symbolizer__new(s->machine, s->features, &s->sym_opts, &s->symbolizer);
	if (err) {
		s->symbolizer = NULL;
		s->symbolizer_failed = true;
		set_error(s, "cannot set up the symbols: %s", sampo_strerror(err, msg, sizeof(msg)));
	}
	return s->symbolizer;
}

const struct sampo_module_sections *sampo_session__module_sections(const struct sampo_session *s)
{
	return s->module_sections;
}

size_t sampo_session__nr_events(const struct sampo_session *s)
{
	return sampo_reader__nr_attrs(s->reader);
}

const struct sampo_session_lost *sampo_session__lost(const struct sampo_session *s)
{
	return &s->lost;
}

/* ---- PERF_SAMPLE_READ values ---------------------------------------------- */

/* the last value of event @id, made (0) on first sight; NULL: out of memory */
static struct read_last *read_last(struct sampo_session *s, uint64_t id)
{
	struct sampo_hash_index *ix = &s->read_ix;
	uint64_t h = hash_mix64(id);
	size_t j;

	if ((ix->nr + 1) * 2 > ix->cap && sampo_hash_index__grow(ix))
		return NULL;
	for (j = h & (ix->cap - 1); ix->slots[j]; j = (j + 1) & (ix->cap - 1))
		if (ix->hashes[j] == h && s->read_last[ix->slots[j] - 1].id == id)
			return &s->read_last[ix->slots[j] - 1];
	if (s->nr_read_last == s->read_last_cap) {
		size_t ncap = s->read_last_cap ? s->read_last_cap * 2 : 64;
		struct read_last *n = realloc(s->read_last, ncap * sizeof(*n));

		if (!n)
			return NULL;
		s->read_last = n;
		s->read_last_cap = ncap;
	}
	s->read_last[s->nr_read_last] = (struct read_last){ .id = id };
	ix->slots[j] = (uint32_t)++s->nr_read_last;
	ix->hashes[j] = h;
	ix->nr++;
	return &s->read_last[s->nr_read_last - 1];
}

/*
 * perf's deliver_sample_value(): the period is the increase since the last
 * value of the id; an unknown id is counted (evsel -1) and changes nothing.
 */
static int sample_value(struct sampo_session *s, uint64_t id, uint64_t value,
			sampo_sample_value_fn fn, void *ctx)
{
	struct sampo_sample_value v = {
		.id = id, .value = value, .evsel = sampo_reader__attr_by_id(s->reader, id)
	};
	struct read_last *last;

	if (v.evsel < 0)
		return fn(ctx, &v);
	last = read_last(s, id);
	if (!last)
		return -ENOMEM;
	v.period = value - last->value;
	last->value = value;
	if (!v.period)
		return 0;
	return fn(ctx, &v);
}

int sampo_session__sample_values(struct sampo_session *s, const struct sampo_event *ev,
				 sampo_sample_value_fn fn, void *ctx)
{
	const uint64_t *v = ev->sample.read_values;
	size_t n = ev->sample.read_nr_words, i;
	const struct sampo_event_attr *attr;
	uint64_t rf;
	int err = 0;

	if (ev->attr_idx < 0 || (size_t)ev->attr_idx >= sampo_reader__nr_attrs(s->reader) || !v ||
	    !n)
		return 0;
	attr = sampo_reader__attr(s->reader, (size_t)ev->attr_idx);
	rf = attr->read_format;
	/* { value, [time_enabled], [time_running], ... } */
	i = 1 + !!(rf & SAMPO_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & SAMPO_FORMAT_TOTAL_TIME_RUNNING);
	if (!(rf & SAMPO_FORMAT_GROUP)) {
		/* ... [id], [lost] } */
		uint64_t id = (rf & SAMPO_FORMAT_ID) && i < n ? v[i] : 0;

		return sample_value(s, id, v[0], fn, ctx);
	}
	/* { nr, [time_enabled], [time_running], { value, [id], [lost] } * nr } */
	for (uint64_t k = 0; k < v[0] && i < n && !err; k++) {
		uint64_t value = v[i++], id = 0;

		if (rf & SAMPO_FORMAT_ID)
			id = i < n ? v[i++] : 0;
		if (rf & SAMPO_FORMAT_LOST)
			i++;
		err = sample_value(s, id, value, fn, ctx);
	}
	return err;
}

int sampo_session__damaged_features(const struct sampo_session *s,
				    const struct sampo_feature_error **ret_first)
{
	if (ret_first)
		*ret_first = s->nr_damaged ? &s->damaged : NULL;
	return s->nr_damaged;
}
