// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-dump.c - `sampo dump` (also `sampo report -D`): print every record of a
 * perf.data file exactly as `perf report -D` of perf 6.1 does.
 *
 * For each record, in perf's delivery order (the reader's .ordered mode:
 * time-stamped records are released round by round, the others when read):
 *
 *	\n<offset>@<path> [<size>]: event: <type>	record header line
 *	. ... raw event: size N bytes			hex dump, 16 bytes a line
 *	[<cpu> ][<time> ]<offset> [<size>]: PERF_RECORD_<NAME><details>
 *
 * then what perf report's handler for that type prints: the decoded fields,
 * ": unhandled!" for the types perf report has no handler for, or nothing
 * (the line then ends with the next record's leading newline, as in perf).
 * SAMPLE records also get perf report's " ... thread:" and " ...... dso:"
 * lines, which need the machine state (lib/machine.c) fed with every
 * record. At the end, "Aggregated stats:" counts the records by type, then
 * the samples by event.
 *
 * The output is large (a million records make hundreds of MB) and all of it
 * is formatted by hand into the outbuf: no printf on any per-record path,
 * hex digits from lookup tables. Cold paths (stats, rare record types) use
 * ob_printf().
 *
 * Where perf 6.1 gives up on a file (an unknown record type, an event id it
 * cannot find), sampo prints the record and goes on; docs/dump-differences.md
 * lists these choices.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/record.h>
#include <sampo/regs.h>
#include <sampo/sample.h>
#include <sampo/session.h>

#include "builtin.h"
#include "cli.h"
#include "options.h"
#include "outbuf.h"
#include "record-text.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* branch_sample_type bit: the branch stack is an LBR call stack */
#define BRANCH_CALL_STACK (1ULL << 11)

static const char *const dump_usage[] = {
	"sampo dump [<options>]",
	"sampo report -D [<options>]",
	"sampo report --stats [<options>]",
	"",
	"Print every record of a perf.data file, as 'perf report -D' does;",
	"with --stats only the counts of the records, as 'perf report --stats'.",
	NULL,
};

/* One attr of the file: its sample count (its name is the session's). */
struct dump_evsel {
	uint64_t nr_samples;
	uint64_t nr_lost_samples; /* its LOST_SAMPLES records: perf report --stats shows them */
};

struct dump_ctx {
	struct sampo_session *session;
	struct sampo_reader *reader;   /* the session's */
	struct sampo_machine *machine; /* the session's: it sees each record after it is printed */
	const char *label;	       /* the -i path, or "pipe" */
	const char *arch;		 /* perf's normalized arch, for register names */
	char arch_buf[64];

	/* the evlist as perf sees it, refreshed when attrs appear (pipe mode) */
	size_t nr_attrs;
	uint64_t combined_type; /* OR of every attr's sample_type */
	bool sample_id_all;	/* of the first attr */
	struct dump_evsel *evsels;

	uint32_t nr_events[SAMPO_RECORD_PERF_MAX]; /* [0] is the total */
	uint64_t nr_invalid;		       /* types perf 6.1 does not know (>= 83) */
	uint64_t nr_unknown_id;		       /* samples of no known event */
	uint64_t nr_simpleperf;		       /* simpleperf's own records, printed by name */

	struct sampo_addr_location al;
	bool stats_only; /* --stats: the records go to a sink, the counts to stdout */
	struct outbuf ob;
};

/* ---- hand formatting ---------------------------------------------------- */

static const char hex_lc[] = "0123456789abcdef";

/* "%02x" of every byte, and the character perf shows for it in a dump */
static char hex2[256][2];
static char printable[256];

static void init_tables(void)
{
	for (int i = 0; i < 256; i++) {
		hex2[i][0] = hex_lc[i >> 4];
		hex2[i][1] = hex_lc[i & 15];
		printable[i] = (i >= 0x20 && i < 0x7f) ? (char)i : '.';
	}
}

/* Room for @n bytes at the end of the buffer; commit with ob_commit(). */
static inline char *ob_reserve(struct outbuf *ob, size_t n)
{
	if (OB_SIZE - ob->len < n)
		(void)ob_flush(ob);
	return ob->buf + ob->len;
}

static inline void ob_commit(struct outbuf *ob, const char *end)
{
	ob->len = (size_t)(end - ob->buf);
}

/* printf("%016" PRIx64) into @p; returns the end */
static inline char *put_hex16(char *p, uint64_t v)
{
	for (int i = 15; i >= 0; i--) {
		p[i] = hex_lc[v & 15];
		v >>= 4;
	}
	return p + 16;
}

static void ob_str_n(struct outbuf *ob, const char *s, size_t max)
{
	ob_write(ob, s, strnlen(s, max));
}

/* A field of the record by its name, or 0 past its end (perf would read garbage). */
static uint64_t read_field(const union sampo_record *rec, const char *name)
{
	uint64_t v = 0;

	if (sampo_record__field(rec, name, &v))
		return 0;
	return v;
}

/* ---- evsels ------------------------------------------------------------- */

static const char *evsel_name(struct dump_ctx *ctx, int idx)
{
	return sampo_session__evsel_name(ctx->session, idx);
}

/* the family of the file's machine (its ARCH feature, else this one), for the register names */
static void update_arch(struct dump_ctx *ctx)
{
	ctx->arch = cli_file_arch(ctx->session, ctx->arch_buf, sizeof(ctx->arch_buf));
}

/* New attrs take effect after their HEADER_ATTR record; catch up with the reader. */
static int refresh_attrs(struct dump_ctx *ctx)
{
	size_t nr = sampo_reader__nr_attrs(ctx->reader);
	struct dump_evsel *ne;

	if (nr == ctx->nr_attrs)
		return 0;
	ne = realloc(ctx->evsels, nr * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	memset(ne + ctx->nr_attrs, 0, (nr - ctx->nr_attrs) * sizeof(*ne));
	ctx->evsels = ne;
	ctx->nr_attrs = nr;
	ctx->combined_type = 0;
	for (size_t i = 0; i < nr; i++)
		ctx->combined_type |= sampo_reader__attr(ctx->reader, i)->sample_type;
	ctx->sample_id_all = sampo_reader__attr(ctx->reader, 0)->flags & SAMPO_ATTR_SAMPLE_ID_ALL;
	return 0;
}

/* ---- the common part of every record ----------------------------------- */

/* "\n<offset>@<path> [<size>]: event: <type>\n" */
/*
 * The size of the record in the file: a simpleperf record over 64 KiB comes
 * as its header alone with the body as payload (reader.h).
 */
static uint64_t record_size(const struct sampo_event *ev)
{
	const union sampo_record *rec = ev->record;

	if (rec->header.type > SAMPO_SIMPLEPERF_RECORD_START &&
	    rec->header.size == sizeof(rec->header) && ev->payload_size)
		return sizeof(rec->header) + ev->payload_size;
	return rec->header.size;
}

static void dump_header_line(struct dump_ctx *ctx, const struct sampo_event *ev)
{
	struct outbuf *ob = &ctx->ob;

	ob_putc(ob, '\n');
	ob_hex_alt(ob, ev->offset);
	ob_putc(ob, '@');
	ob_puts(ob, ctx->label);
	OB_LIT(ob, " [");
	ob_hex_alt(ob, record_size(ev));
	OB_LIT(ob, "]: event: ");
	ob_dec_u64(ob, ev->record->header.type);
	ob_putc(ob, '\n');
}

/* perf's trace_event(): the record bytes, 16 a line, with a character column */
static void dump_raw(struct dump_ctx *ctx, const union sampo_record *rec)
{
	struct outbuf *ob = &ctx->ob;
	const uint8_t *data = (const uint8_t *)rec;
	size_t size = rec->header.size;
	char *p;

	OB_LIT(ob, ".\n. ... raw event: size ");
	ob_dec_u64(ob, size);
	OB_LIT(ob, " bytes\n");
	for (size_t off = 0; off < size; off += 16) {
		size_t n = size - off < 16 ? size - off : 16;
		size_t i;

		p = ob_reserve(ob, 80);
		*p++ = '.';
		*p++ = ' ';
		*p++ = ' ';
		/* "%04x": offsets stay below 0x10000, records being at most 64 KiB */
		*p++ = hex_lc[(off >> 12) & 15];
		*p++ = hex_lc[(off >> 8) & 15];
		*p++ = hex_lc[(off >> 4) & 15];
		*p++ = hex_lc[off & 15];
		*p++ = ':';
		*p++ = ' ';
		for (i = 0; i < n; i++) {
			*p++ = ' ';
			*p++ = hex2[data[off + i]][0];
			*p++ = hex2[data[off + i]][1];
		}
		for (; i < 16; i++) {
			*p++ = ' ';
			*p++ = ' ';
			*p++ = ' ';
		}
		*p++ = ' ';
		*p++ = ' ';
		for (i = 0; i < n; i++)
			*p++ = printable[data[off + i]];
		for (; i < 16; i++)
			*p++ = ' ';
		*p++ = '\n';
		ob_commit(ob, p);
	}
	ob_putc(ob, '\n');
}

/* perf's evlist__print_tstamp(), then "<offset> [<size>]: PERF_RECORD_<NAME>" */
static void dump_decoded_prefix(struct dump_ctx *ctx, const struct sampo_event *ev)
{
	struct outbuf *ob = &ctx->ob;
	uint32_t type = ev->record->header.type;
	uint32_t cpu = ev->sample.cpu;
	uint64_t time = ev->sample.time;

	if (type >= SAMPO_RECORD_USER_TYPE_START) {
		/* perf hands tool records a zeroed sample */
		cpu = 0;
		time = 0;
	}
	if (type != SAMPO_RECORD_SAMPLE && !ctx->sample_id_all) {
		OB_LIT(ob, "-1 -1 ");
	} else {
		if (ctx->combined_type & SAMPO_SAMPLE_CPU) {
			ob_dec_u64(ob, cpu);
			ob_putc(ob, ' ');
		}
		if (ctx->combined_type & SAMPO_SAMPLE_TIME) {
			ob_dec_u64(ob, time);
			ob_putc(ob, ' ');
		}
	}
	ob_hex_alt(ob, ev->offset);
	OB_LIT(ob, " [");
	ob_hex_alt(ob, record_size(ev));
	if (sampo_record__simpleperf_name(type)) {
		OB_LIT(ob, "]: SIMPLEPERF_RECORD_");
		ob_puts(ob, sampo_record__simpleperf_name(type));
		return;
	}
	OB_LIT(ob, "]: PERF_RECORD_");
	ob_puts(ob, sampo_record__perf_name(type));
}

#define UNHANDLED(ob) OB_LIT((ob), ": unhandled!\n")

/* ---- SAMPLE ------------------------------------------------------------- */

static void dump_callchain_entry(struct outbuf *ob, uint64_t idx, uint64_t v)
{
	char *p = ob_reserve(ob, 48);

	memcpy(p, "..... ", 6);
	p += 6;
	if (idx < 10) {
		*p++ = ' ';
		*p++ = (char)('0' + idx);
	} else if (idx < 100) {
		*p++ = (char)('0' + idx / 10);
		*p++ = (char)('0' + idx % 10);
	} else {
		ob_commit(ob, p);
		ob_dec_u64(ob, idx);
		p = ob_reserve(ob, 24);
	}
	*p++ = ':';
	*p++ = ' ';
	p = put_hex16(p, v);
	*p++ = '\n';
	ob_commit(ob, p);
}

/* perf's callchain__lbr_callstack_printf() */
static void dump_lbr_callstack(struct outbuf *ob, const struct sampo_sample *s)
{
	uint64_t nr = s->callchain_nr, i;

	for (i = 0; i < nr; i++) {
		if (s->callchain[i] == SAMPO_CONTEXT_USER)
			break;
	}
	if (i == nr || !s->branch_nr)
		return;
	OB_LIT(ob, "... LBR call chain: nr:");
	ob_dec_u64(ob, i + 1 + s->branch_nr + 1);
	ob_putc(ob, '\n');
	for (uint64_t k = 0; k <= i; k++)
		dump_callchain_entry(ob, k, s->callchain[k]);
	dump_callchain_entry(ob, i + 1, s->branch[0].to);
	for (uint64_t k = 0; k < s->branch_nr; k++)
		dump_callchain_entry(ob, k + i + 2, s->branch[k].from);
}

static void dump_branch_stack(struct outbuf *ob, const struct sampo_event_attr *attr,
			      const struct sampo_sample *s)
{
	bool callstack = attr->branch_sample_type & BRANCH_CALL_STACK;

	ob_puts(ob, callstack ? "... branch callstack: nr:" : "... branch stack: nr:");
	ob_dec_u64(ob, callstack ? s->branch_nr + 1 : s->branch_nr);
	ob_putc(ob, '\n');
	for (uint64_t i = 0; i < s->branch_nr; i++) {
		const struct sampo_branch_entry *e = &s->branch[i];
		/* struct branch_flags of perf 6.1, little-endian bitfields */
		uint64_t f = e->flags;
		const char *tname = record_text__branch_type(f);
		char *p;

		if (callstack) {
			if (i == 0)
				dump_callchain_entry(ob, 0, e->to);
			dump_callchain_entry(ob, i + 1, e->from);
			continue;
		}
		dump_callchain_entry(ob, i, e->from);
		ob->len--; /* the entry line's newline: the line goes on */
		p = ob_reserve(ob, 24);
		memcpy(p, " -> ", 4);
		p = put_hex16(p + 4, e->to);
		*p++ = ' ';
		ob_commit(ob, p);
		ob_dec_u64(ob, (f >> 4) & 0xffff);
		OB_LIT(ob, " cycles ");
		ob_putc(ob, (f & 1) ? 'M' : ' ');
		ob_putc(ob, (f & 2) ? 'P' : ' ');
		ob_putc(ob, (f & 8) ? 'A' : ' ');
		ob_putc(ob, (f & 4) ? 'T' : ' ');
		ob_putc(ob, ' ');
		ob_hex(ob, f >> 33, 0, false);
		ob_putc(ob, ' ');
		ob_puts(ob, tname);
		ob_putc(ob, '\n');
	}
}

static void dump_regs(struct dump_ctx *ctx, const char *kind, const struct sampo_regs *regs)
{
	static const char *const abi_names[] = { "none", "32-bit", "64-bit" };
	struct outbuf *ob = &ctx->ob;
	uint64_t mask = regs->mask;
	size_t i = 0;

	if (!regs->regs)
		return;
	OB_LIT(ob, "... ");
	ob_puts(ob, kind);
	OB_LIT(ob, " regs: mask 0x");
	ob_hex(ob, mask, 0, false);
	OB_LIT(ob, " ABI ");
	ob_puts(ob, regs->abi < ARRAY_SIZE(abi_names) ? abi_names[regs->abi] : "unknown");
	ob_putc(ob, '\n');
	for (unsigned int id = 0; id < 64; id++) {
		const char *name;
		size_t len;
		char *p;

		if (!(mask & (1ULL << id)))
			continue;
		name = sampo_reg__name(ctx->arch, id);
		len = strlen(name);
		p = ob_reserve(ob, 48);
		memcpy(p, ".... ", 5);
		p += 5;
		memcpy(p, name, len);
		p += len;
		/* "%-5s" */
		for (; len < 5; len++)
			*p++ = ' ';
		memcpy(p, " 0x", 3);
		p = put_hex16(p + 3, regs->regs[i++]);
		*p++ = '\n';
		ob_commit(ob, p);
	}
}

/* perf's unit_number__scnprintf() behind get_page_size_name() */
static void dump_page_size(struct outbuf *ob, const char *what, uint64_t n)
{
	static const char units[] = "BKMG";
	int i = 0;

	ob_puts(ob, what);
	if (!n) {
		OB_LIT(ob, "N/A\n");
		return;
	}
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	ob_dec_u64(ob, n);
	ob_putc(ob, units[i]);
	ob_putc(ob, '\n');
}

/* perf's sample_read__printf() */
static void dump_sample_read(struct outbuf *ob, uint64_t read_format, const struct sampo_sample *s)
{
	const uint64_t *v = s->read_values;
	size_t n = s->read_nr_words, i = 0;
	uint64_t nr = 1;

#define NEXT() (i < n ? v[i++] : 0)
	OB_LIT(ob, "... sample_read:\n");
	if (read_format & SAMPO_FORMAT_GROUP)
		nr = NEXT();
	else
		i = 0;
	if (!(read_format & SAMPO_FORMAT_GROUP)) {
		/* value first, then the times */
		uint64_t value = NEXT(), ena = 0, run = 0, id = 0, lost = 0;

		if (read_format & SAMPO_FORMAT_TOTAL_TIME_ENABLED)
			ena = NEXT();
		if (read_format & SAMPO_FORMAT_TOTAL_TIME_RUNNING)
			run = NEXT();
		if (read_format & SAMPO_FORMAT_ID)
			id = NEXT();
		if (read_format & SAMPO_FORMAT_LOST)
			lost = NEXT();
		if (read_format & SAMPO_FORMAT_TOTAL_TIME_ENABLED) {
			OB_LIT(ob, "...... time enabled ");
			ob_hex(ob, ena, 16, true);
			ob_putc(ob, '\n');
		}
		if (read_format & SAMPO_FORMAT_TOTAL_TIME_RUNNING) {
			OB_LIT(ob, "...... time running ");
			ob_hex(ob, run, 16, true);
			ob_putc(ob, '\n');
		}
		OB_LIT(ob, "..... id ");
		ob_hex(ob, id, 16, true);
		OB_LIT(ob, ", value ");
		ob_hex(ob, value, 16, true);
		if (read_format & SAMPO_FORMAT_LOST) {
			OB_LIT(ob, ", lost ");
			ob_dec_u64(ob, lost);
		}
		ob_putc(ob, '\n');
		return;
	}
	if (read_format & SAMPO_FORMAT_TOTAL_TIME_ENABLED) {
		OB_LIT(ob, "...... time enabled ");
		ob_hex(ob, NEXT(), 16, true);
		ob_putc(ob, '\n');
	}
	if (read_format & SAMPO_FORMAT_TOTAL_TIME_RUNNING) {
		OB_LIT(ob, "...... time running ");
		ob_hex(ob, NEXT(), 16, true);
		ob_putc(ob, '\n');
	}
	OB_LIT(ob, ".... group nr ");
	ob_dec_u64(ob, nr);
	ob_putc(ob, '\n');
	for (uint64_t k = 0; k < nr && i < n; k++) {
		uint64_t value = NEXT(), id = 0, lost = 0;

		if (read_format & SAMPO_FORMAT_ID)
			id = NEXT();
		if (read_format & SAMPO_FORMAT_LOST)
			lost = NEXT();
		OB_LIT(ob, "..... id ");
		ob_hex(ob, id, 16, true);
		OB_LIT(ob, ", value ");
		ob_hex(ob, value, 16, true);
		if (read_format & SAMPO_FORMAT_LOST) {
			OB_LIT(ob, ", lost ");
			ob_dec_u64(ob, lost);
		}
		ob_putc(ob, '\n');
	}
#undef NEXT
}

/* perf's dump_sample() */
static void dump_sample_fields(struct dump_ctx *ctx, const struct sampo_event_attr *attr,
			       const struct sampo_event *ev)
{
	struct outbuf *ob = &ctx->ob;
	const struct sampo_sample *s = &ev->sample;
	uint64_t type = attr->sample_type;

	OB_LIT(ob, "(IP, 0x");
	ob_hex(ob, ev->record->header.misc, 0, false);
	OB_LIT(ob, "): ");
	ob_dec_s64(ob, (int32_t)s->pid);
	ob_putc(ob, '/');
	ob_dec_s64(ob, (int32_t)s->tid);
	OB_LIT(ob, ": ");
	ob_hex_alt(ob, s->ip);
	OB_LIT(ob, " period: ");
	ob_dec_u64(ob, s->period);
	OB_LIT(ob, " addr: ");
	ob_hex_alt(ob, s->addr);
	ob_putc(ob, '\n');

	if (type & SAMPO_SAMPLE_CALLCHAIN) {
		if ((attr->branch_sample_type & BRANCH_CALL_STACK) && s->branch)
			dump_lbr_callstack(ob, s);
		OB_LIT(ob, "... FP chain: nr:");
		ob_dec_u64(ob, s->callchain_nr);
		ob_putc(ob, '\n');
		for (uint64_t i = 0; i < s->callchain_nr; i++)
			dump_callchain_entry(ob, i, s->callchain[i]);
	}
	if (type & SAMPO_SAMPLE_BRANCH_STACK)
		dump_branch_stack(ob, attr, s);
	if (type & SAMPO_SAMPLE_REGS_USER)
		dump_regs(ctx, "user", &s->user_regs);
	if (type & SAMPO_SAMPLE_REGS_INTR)
		dump_regs(ctx, "intr", &s->intr_regs);
	if (type & SAMPO_SAMPLE_STACK_USER) {
		OB_LIT(ob, "... ustack: size ");
		ob_dec_u64(ob, s->user_stack_size ? s->user_stack_dyn_size : 0);
		OB_LIT(ob, ", offset 0x");
		ob_hex(ob, sampo_sample__user_stack_offset(attr, s), 0, false);
		ob_putc(ob, '\n');
	}
	if (type & (SAMPO_SAMPLE_WEIGHT | SAMPO_SAMPLE_WEIGHT_STRUCT)) {
		OB_LIT(ob, "... weight: ");
		ob_dec_u64(ob, s->weight);
		if (type & SAMPO_SAMPLE_WEIGHT_STRUCT) {
			OB_LIT(ob, ",0x");
			ob_hex(ob, s->ins_lat, 0, false);
			/* perf's x86 build never fills p_stage_cyc (only powerpc does) */
			OB_LIT(ob, ",0x0");
		}
		ob_putc(ob, '\n');
	}
	if (type & SAMPO_SAMPLE_DATA_SRC) {
		OB_LIT(ob, " . data_src: 0x");
		ob_hex(ob, s->data_src, 0, false);
		ob_putc(ob, '\n');
	}
	if (type & SAMPO_SAMPLE_PHYS_ADDR) {
		OB_LIT(ob, " .. phys_addr: 0x");
		ob_hex(ob, s->phys_addr, 0, false);
		ob_putc(ob, '\n');
	}
	if (type & SAMPO_SAMPLE_DATA_PAGE_SIZE)
		dump_page_size(ob, " .. data page size: ", s->data_page_size);
	if (type & SAMPO_SAMPLE_CODE_PAGE_SIZE)
		dump_page_size(ob, " .. code page size: ", s->code_page_size);
	if (type & SAMPO_SAMPLE_TRANSACTION) {
		OB_LIT(ob, "... transaction: ");
		ob_hex(ob, s->transaction, 0, false);
		ob_putc(ob, '\n');
	}
	if (type & SAMPO_SAMPLE_READ)
		dump_sample_read(ob, attr->read_format, s);
}

/* perf report's machine__resolve(): " ... thread:" and " ...... dso:" */
static int deliver_sample(struct dump_ctx *ctx, const struct sampo_sample *s, int evsel)
{
	struct outbuf *ob = &ctx->ob;
	struct sampo_thread *thread;
	int err;

	err = sampo_machine__resolve(ctx->machine, s, &ctx->al);
	if (err)
		return err;
	thread = ctx->al.thread;
	OB_LIT(ob, " ... thread: ");
	ob_puts(ob, sampo_thread__comm(thread));
	ob_putc(ob, ':');
	ob_dec_s64(ob, sampo_thread__tid(thread));
	OB_LIT(ob, "\n ...... dso: ");
	if (ctx->al.map)
		ob_puts(ob, sampo_dso__long_name(sampo_map__dso(ctx->al.map)));
	else if (ctx->al.level == 'H')
		OB_LIT(ob, "[hypervisor]");
	else
		OB_LIT(ob, "<not found>");
	ob_putc(ob, '\n');
	if (evsel >= 0 && (size_t)evsel < ctx->nr_attrs)
		ctx->evsels[evsel].nr_samples++;
	return 0;
}

/* a PERF_SAMPLE_READ sample counts for the event of each value that increased */
struct read_delivery {
	struct dump_ctx *ctx;
	const struct sampo_sample *sample;
};

static int deliver_read_value(void *arg, const struct sampo_sample_value *v)
{
	struct read_delivery *d = arg;

	if (v->evsel < 0) {
		d->ctx->nr_unknown_id++;
		return 0;
	}
	return deliver_sample(d->ctx, d->sample, v->evsel);
}

static int dump_sample(struct dump_ctx *ctx, const struct sampo_event *ev)
{
	const struct sampo_event_attr *attr;

	if (ev->attr_idx < 0 || (size_t)ev->attr_idx >= ctx->nr_attrs) {
		/* perf: a sample of no known event is counted and skipped */
		ctx->nr_unknown_id++;
		return 0;
	}
	attr = sampo_reader__attr(ctx->reader, (size_t)ev->attr_idx);
	dump_sample_fields(ctx, attr, ev);
	if (attr->sample_type & SAMPO_SAMPLE_READ) {
		struct read_delivery d = { ctx, &ev->sample };

		return sampo_session__sample_values(ctx->session, ev, deliver_read_value, &d);
	}
	return deliver_sample(ctx, &ev->sample, ev->attr_idx);
}

/* ---- other kernel records ------------------------------------------------ */

static void put_pid_tid(struct outbuf *ob, uint32_t pid, uint32_t tid)
{
	ob_dec_s64(ob, (int32_t)pid);
	ob_putc(ob, '/');
	ob_dec_s64(ob, (int32_t)tid);
}

static void dump_text_poke(struct outbuf *ob, const union sampo_record *rec)
{
	const struct sampo_record_text_poke *e = &rec->text_poke;
	size_t room = rec->header.size > sizeof(*e) ? rec->header.size - sizeof(*e) : 0;
	const uint8_t *bytes = e->bytes;

	/* perf names the kernel symbol here when it has kernel symbols; we have none */
	ob_putc(ob, ' ');
	ob_hex(ob, e->addr, 0, false);
	OB_LIT(ob, "  old len ");
	ob_dec_u64(ob, e->old_len);
	OB_LIT(ob, " new len ");
	ob_dec_u64(ob, e->new_len);
	ob_putc(ob, '\n');
	for (int pass = 0; pass < 2; pass++) {
		size_t len = pass ? e->new_len : e->old_len;

		for (size_t i = 0; i < len; i++) {
			size_t at = (pass ? e->old_len : 0) + i;

			if (i % 16 == 0)
				ob_puts(ob,
					pass ? "            New bytes:" : "            Old bytes:");
			ob_putc(ob, ' ');
			ob_write(ob, hex2[at < room ? bytes[at] : 0], 2);
			if (i % 16 == 15 || i == len - 1)
				ob_putc(ob, '\n');
		}
	}
}

/* ---- tool records --------------------------------------------------------- */

/* perf's cpu_map__snprint(): "0-3,5", within perf's 1 KiB buffer */
/* perf's cpu_map__new_data() + cpu_map__fprintf() for the cpu map data at @data */
static void put_cpu_map(struct outbuf *ob, const uint8_t *data, size_t len)
{
	char buf[1024]; /* cpu_map__fprintf()'s */
	int *cpus;
	size_t n;

	if (sampo_cpu_map__decode(data, len, &cpus, &n)) {
		OB_LIT(ob, "failed to get cpumap from event\n");
		return;
	}
	sampo_cpu_map__snprint(cpus, n, buf, sizeof(buf));
	free(cpus);
	ob_puts(ob, buf);
	ob_putc(ob, '\n');
}

static void dump_thread_map(struct outbuf *ob, const union sampo_record *rec)
{
	const struct sampo_record_thread_map *e = &rec->thread_map;
	size_t room = rec->header.size > sizeof(*e) ?
			      (rec->header.size - sizeof(*e)) / sizeof(e->entries[0]) :
			      0;
	uint64_t nr = e->nr;

	OB_LIT(ob, " nr: ");
	ob_dec_s64(ob, (int32_t)nr);
	ob_puts(ob, (int32_t)nr > 1 ? " threads: " : " thread: ");
	for (uint64_t i = 0; i < nr && i < room; i++) {
		if (i)
			OB_LIT(ob, ", ");
		ob_dec_s64(ob, (int32_t)e->entries[i].pid);
	}
	ob_putc(ob, '\n');
	UNHANDLED(ob);
}

static void dump_id_index(struct dump_ctx *ctx, const union sampo_record *rec)
{
	struct outbuf *ob = &ctx->ob;
	const size_t entry = sizeof(struct sampo_id_index_entry);
	const size_t entry2 = sizeof(struct sampo_id_index_entry2);
	size_t sz = rec->header.size - sizeof(rec->id_index);
	uint64_t nr = rec->id_index.nr;
	const uint8_t *e2 = NULL;

	if (nr > sz / entry) {
		ob_printf(ob, "Too big: nr %" PRIu64 " max_nr %zu\n", nr, sz / entry);
		return;
	}
	if (sz >= nr * (entry + entry2))
		e2 = (const uint8_t *)&rec->id_index.entries[nr];
	OB_LIT(ob, " nr: ");
	ob_dec_u64(ob, nr);
	ob_putc(ob, '\n');
	for (uint64_t i = 0; i < nr; i++) {
		const struct sampo_id_index_entry *e = &rec->id_index.entries[i];

		OB_LIT(ob, " ... id: ");
		ob_dec_u64(ob, e->id);
		OB_LIT(ob, "  idx: ");
		ob_dec_u64(ob, e->idx);
		OB_LIT(ob, "  cpu: ");
		ob_dec_s64(ob, (int64_t)e->cpu);
		OB_LIT(ob, "  tid: ");
		ob_dec_s64(ob, (int64_t)e->tid);
		if (e2) {
			struct sampo_id_index_entry2 x;

			memcpy(&x, e2 + entry2 * i, sizeof(x));
			OB_LIT(ob, "  machine_pid: ");
			ob_dec_s64(ob, (int64_t)x.machine_pid);
			OB_LIT(ob, "  vcpu: ");
			ob_dec_u64(ob, x.vcpu);
		}
		ob_putc(ob, '\n');
	}
}

static void dump_event_update(struct dump_ctx *ctx, const union sampo_record *rec)
{
	struct outbuf *ob = &ctx->ob;
	const struct sampo_record_event_update *e = &rec->event_update;
	size_t len = rec->header.size > sizeof(*e) ? rec->header.size - sizeof(*e) : 0;

	OB_LIT(ob, "\n... id:    ");
	ob_dec_u64(ob, e->id);
	ob_putc(ob, '\n');
	switch (e->type) {
	case SAMPO_EVENT_UPDATE_SCALE: {
		double scale = 0;

		if (len >= 8)
			memcpy(&scale, e->data, 8);
		ob_printf(ob, "... scale: %f\n", scale);
		break;
	}
	case SAMPO_EVENT_UPDATE_UNIT:
		OB_LIT(ob, "... unit:  ");
		ob_str_n(ob, (const char *)e->data, len);
		ob_putc(ob, '\n');
		break;
	case SAMPO_EVENT_UPDATE_NAME:
		OB_LIT(ob, "... name:  ");
		ob_str_n(ob, (const char *)e->data, len);
		ob_putc(ob, '\n');
		/* the session has renamed the event, as perf report does */
		break;
	case SAMPO_EVENT_UPDATE_CPUS:
		OB_LIT(ob, "... ");
		put_cpu_map(ob, e->data, len);
		break;
	default:
		OB_LIT(ob, "... unknown type\n");
		break;
	}
}

static void dump_stat_config(struct outbuf *ob, const union sampo_record *rec)
{
	const struct sampo_record_stat_config *e = &rec->stat_config;
	size_t room = rec->header.size > sizeof(*e) ?
			      (rec->header.size - sizeof(*e)) / sizeof(e->data[0]) :
			      0;
	int aggr_mode = 0, scale = 0;
	unsigned int interval = 0;

	for (uint64_t i = 0; i < e->nr && i < room; i++) {
		uint64_t tag = e->data[i].tag, val = e->data[i].val;

		if (tag == SAMPO_STAT_CONFIG_AGGR_MODE)
			aggr_mode = (int)val;
		else if (tag == SAMPO_STAT_CONFIG_INTERVAL)
			interval = (unsigned int)val;
		else if (tag == SAMPO_STAT_CONFIG_SCALE)
			scale = val != 0;
		else
			fprintf(stderr, "unknown stat config term %" PRIu64 "\n", tag);
	}
	ob_printf(ob, "\n... aggr_mode %d\n... scale     %d\n... interval  %u\n", aggr_mode, scale,
		  interval);
	UNHANDLED(ob);
}

static void dump_time_conv(struct outbuf *ob, const union sampo_record *rec)
{
	const struct sampo_record_time_conv *e = &rec->time_conv;

	ob_printf(ob,
		  "\n... Time Shift      %" PRIu64 "\n... Time Muliplier  %" PRIu64
		  "\n... Time Zero       %" PRIu64 "\n",
		  e->time_shift, e->time_mult, e->time_zero);
	if (rec->header.size >= 40 + 8) {
		ob_printf(ob,
			  "... Time Cycles     %" PRIu64 "\n... Time Mask       %#" PRIx64
			  "\n... Cap Time Zero   %d\n... Cap Time Short  %d\n",
			  e->time_cycles, e->time_mask, e->cap_user_time_zero,
			  e->cap_user_time_short);
	}
	UNHANDLED(ob);
}

/* ---- dispatch ------------------------------------------------------------- */

static int dump_kernel_record(struct dump_ctx *ctx, const struct sampo_event *ev)
{
	struct outbuf *ob = &ctx->ob;
	const union sampo_record *rec = ev->record;

	switch (rec->header.type) {
	case SAMPO_RECORD_SAMPLE:
		return dump_sample(ctx, ev);
	case SAMPO_RECORD_FORK: {
		int32_t ppid = (int32_t)rec->fork.ppid;
		struct sampo_thread *parent;

		record_text__body(ob, rec);
		/* perf says so when the parent's tid belongs to another process */
		parent = sampo_machine__find_thread(ctx->machine, ppid, (int32_t)rec->fork.ptid);
		if (parent && sampo_thread__pid(parent) != ppid) {
			OB_LIT(ob, "removing erroneous parent thread ");
			put_pid_tid(ob, (uint32_t)sampo_thread__pid(parent),
				    (uint32_t)sampo_thread__tid(parent));
			ob_putc(ob, '\n');
		}
		sampo_thread__put(parent);
		break;
	}
	case SAMPO_RECORD_LOST:
		OB_LIT(ob, ": id:");
		ob_dec_u64(ob, rec->lost.id);
		OB_LIT(ob, ": lost:");
		ob_dec_u64(ob, rec->lost.lost);
		ob_putc(ob, '\n');
		break;
	case SAMPO_RECORD_LOST_SAMPLES:
		if (ev->attr_idx >= 0 && (size_t)ev->attr_idx < ctx->nr_attrs)
			ctx->evsels[ev->attr_idx].nr_lost_samples++;
		OB_LIT(ob, ": id:");
		ob_dec_u64(ob, ev->sample.id);
		OB_LIT(ob, ": lost samples :");
		ob_dec_u64(ob, rec->lost_samples.lost);
		ob_putc(ob, '\n');
		break;
	case SAMPO_RECORD_READ: {
		uint64_t rf = 0;

		/* perf reads the fixed perf_record_read layout, whatever the read_format */
		OB_LIT(ob, ": ");
		ob_dec_s64(ob, (int32_t)rec->read.pid);
		ob_putc(ob, ' ');
		ob_dec_s64(ob, (int32_t)rec->read.tid);
		ob_putc(ob, ' ');
		ob_puts(ob, evsel_name(ctx, ev->attr_idx));
		ob_putc(ob, ' ');
		ob_dec_u64(ob, read_field(rec, "value"));
		ob_putc(ob, '\n');
		if (ev->attr_idx < 0)
			break;
		rf = sampo_reader__attr(ctx->reader, (size_t)ev->attr_idx)->read_format;
		if (rf & SAMPO_FORMAT_TOTAL_TIME_ENABLED) {
			OB_LIT(ob, "... time enabled : ");
			ob_dec_u64(ob, read_field(rec, "time_enabled"));
			ob_putc(ob, '\n');
		}
		if (rf & SAMPO_FORMAT_TOTAL_TIME_RUNNING) {
			OB_LIT(ob, "... time running : ");
			ob_dec_u64(ob, read_field(rec, "time_running"));
			ob_putc(ob, '\n');
		}
		if (rf & SAMPO_FORMAT_ID) {
			OB_LIT(ob, "... id           : ");
			ob_dec_u64(ob, read_field(rec, "id"));
			ob_putc(ob, '\n');
		}
		if (rf & SAMPO_FORMAT_LOST) {
			OB_LIT(ob, "... lost         : ");
			ob_dec_u64(ob, read_field(rec, "lost"));
			ob_putc(ob, '\n');
		}
		break;
	}
	case SAMPO_RECORD_THROTTLE:
	case SAMPO_RECORD_UNTHROTTLE:
		UNHANDLED(ob);
		break;
	case SAMPO_RECORD_AUX: {
		uint64_t flags = rec->aux.flags;

		OB_LIT(ob, " offset: ");
		ob_hex_alt(ob, rec->aux.aux_offset);
		OB_LIT(ob, " size: ");
		ob_hex_alt(ob, rec->aux.aux_size);
		OB_LIT(ob, " flags: ");
		ob_hex_alt(ob, flags);
		OB_LIT(ob, " [");
		if (flags & SAMPO_AUX_FLAG_TRUNCATED)
			ob_putc(ob, 'T');
		if (flags & SAMPO_AUX_FLAG_OVERWRITE)
			ob_putc(ob, 'O');
		if (flags & SAMPO_AUX_FLAG_PARTIAL)
			ob_putc(ob, 'P');
		OB_LIT(ob, "]\n");
		break;
	}
	case SAMPO_RECORD_ITRACE_START:
		OB_LIT(ob, " pid: ");
		ob_dec_u64(ob, rec->itrace_start.pid);
		OB_LIT(ob, " tid: ");
		ob_dec_u64(ob, rec->itrace_start.tid);
		ob_putc(ob, '\n');
		break;
	case SAMPO_RECORD_TEXT_POKE:
		dump_text_poke(ob, rec);
		break;
	case SAMPO_RECORD_AUX_OUTPUT_HW_ID:
		OB_LIT(ob, " hw_id: ");
		ob_hex_alt(ob, rec->aux_output_hw_id.hw_id);
		ob_putc(ob, '\n');
		break;
	default:
		/* MMAP, COMM, SWITCH, ...: perf_event__fprintf()'s text (record-text.c) */
		if (record_text__body(ob, rec))
			break;
		/* perf 6.1 counts it as unknown and stops at the next round; we go on */
		return 0;
	}
	/* the session gives the record to the machine now that it is printed */
	return 0;
}

static void dump_user_record(struct dump_ctx *ctx, const struct sampo_event *ev)
{
	struct outbuf *ob = &ctx->ob;
	const union sampo_record *rec = ev->record;

	switch (rec->header.type) {
	case SAMPO_RECORD_FINISHED_ROUND:
		ob_putc(ob, '\n');
		break;
	case SAMPO_RECORD_ID_INDEX:
		dump_id_index(ctx, rec);
		break;
	case SAMPO_RECORD_THREAD_MAP:
		dump_thread_map(ob, rec);
		break;
	case SAMPO_RECORD_CPU_MAP:
		OB_LIT(ob, ": ");
		put_cpu_map(ob, (const uint8_t *)&rec->cpu_map.type,
			    rec->header.size - offsetof(struct sampo_record_cpu_map, type));
		UNHANDLED(ob);
		break;
	case SAMPO_RECORD_EVENT_UPDATE:
		dump_event_update(ctx, rec);
		break;
	case SAMPO_RECORD_STAT_CONFIG:
		dump_stat_config(ob, rec);
		break;
	case SAMPO_RECORD_STAT:
		ob_printf(ob,
			  "\n... id %" PRIu64 ", cpu %d, thread %d\n"
			  "... value %" PRIu64 ", enabled %" PRIu64 ", running %" PRIu64 "\n",
			  rec->stat.id, (int32_t)rec->stat.cpu, (int32_t)rec->stat.thread,
			  rec->stat.val, rec->stat.ena, rec->stat.run);
		UNHANDLED(ob);
		break;
	case SAMPO_RECORD_STAT_ROUND:
		ob_printf(ob, "\n... time %" PRIu64 ", type %s\n", rec->stat_round.time,
			  rec->stat_round.type == SAMPO_STAT_ROUND_FINAL ? "FINAL" : "INTERVAL");
		UNHANDLED(ob);
		break;
	case SAMPO_RECORD_TIME_CONV:
		dump_time_conv(ob, rec);
		break;
	case SAMPO_RECORD_AUXTRACE_INFO:
		OB_LIT(ob, " type: ");
		ob_dec_u64(ob, rec->auxtrace_info.type);
		ob_putc(ob, '\n');
		break;
	case SAMPO_RECORD_AUXTRACE:
		ob_printf(ob,
			  " size: %#" PRIx64 "  offset: %#" PRIx64 "  ref: %#" PRIx64
			  "  idx: %u  tid: %d  cpu: %d\n",
			  rec->auxtrace.size, rec->auxtrace.offset, rec->auxtrace.reference,
			  rec->auxtrace.idx, (int32_t)rec->auxtrace.tid,
			  (int32_t)rec->auxtrace.cpu);
		break;
	case SAMPO_RECORD_AUXTRACE_ERROR:
	case SAMPO_RECORD_FINISHED_INIT:
		UNHANDLED(ob);
		break;
	case SAMPO_RECORD_HEADER_FEATURE:
		/* the session has parsed it (EVENT_DESC and ARCH, as perf report keeps) */
		if (rec->feature.feat_id == SAMPO_FEAT_ARCH)
			update_arch(ctx);
		break;
	default:
		/* ATTR, EVENT_TYPE, TRACING_DATA, BUILD_ID: perf report prints nothing */
		break;
	}
}

/* u64 @i of @body (@len bytes), or 0 past its end */
static uint64_t body_u64(const uint8_t *body, size_t len, size_t i)
{
	uint64_t v = 0;

	if (body && len / 8 > i)
		memcpy(&v, body + 8 * i, 8);
	return v;
}

/* the NUL-terminated string at @off of @body, or "" */
static const char *body_str(const uint8_t *body, size_t len, size_t off)
{
	if (!body || off >= len || !memchr(body + off, '\0', len - off))
		return "";
	return (const char *)body + off;
}

/*
 * simpleperf's own records (record.h of AOSP simpleperf): their main fields
 * on the decoded line. perf 6.1 stops at them; simpleperf's `dump` prints
 * them its own way, which this does not copy.
 */
static void dump_simpleperf_record(struct dump_ctx *ctx, const struct sampo_event *ev)
{
	struct outbuf *ob = &ctx->ob;
	const union sampo_record *rec = ev->record;
	const uint8_t *body = (const uint8_t *)rec + sizeof(rec->header);
	size_t len = rec->header.size - sizeof(rec->header);
	uint32_t u32 = 0;

	if (rec->header.size == sizeof(rec->header) && ev->payload_size) {
		body = ev->payload; /* NULL when too big to map: fields left out */
		len = body ? ev->payload_size : 0;
	}
	if (body && len >= 4)
		memcpy(&u32, body, 4);
	switch (rec->header.type) {
	case SAMPO_SIMPLEPERF_RECORD_KERNEL_SYMBOL:
	case SAMPO_SIMPLEPERF_RECORD_TRACING_DATA:
		if (len >= 4)
			ob_printf(ob, " size %u", u32);
		break;
	case SAMPO_SIMPLEPERF_RECORD_DSO:
		ob_printf(ob, " type %" PRIu64 " id %" PRIu64 " min_vaddr %#" PRIx64 " %s",
			  body_u64(body, len, 0), body_u64(body, len, 1), body_u64(body, len, 2),
			  body_str(body, len, 24));
		break;
	case SAMPO_SIMPLEPERF_RECORD_SYMBOL:
		ob_printf(ob, " addr %#" PRIx64 " len %#" PRIx64 " dso_id %" PRIu64 " %s",
			  body_u64(body, len, 0), body_u64(body, len, 1), body_u64(body, len, 2),
			  body_str(body, len, 24));
		break;
	case SAMPO_SIMPLEPERF_RECORD_EVENT_ID: {
		uint64_t nr = body_u64(body, len, 0);

		ob_printf(ob, " count %" PRIu64, nr);
		for (uint64_t i = 0; i < nr && 1 + 2 * i + 1 < len / 8; i++)
			ob_printf(ob, " (attr %" PRIu64 " id %" PRIu64 ")",
				  body_u64(body, len, 1 + 2 * i), body_u64(body, len, 2 + 2 * i));
		break;
	}
	case SAMPO_SIMPLEPERF_RECORD_CALLCHAIN:
		ob_printf(ob, " %d/%d chain_type %" PRIu64 " time %" PRIu64 " nr %" PRIu64,
			  (int32_t)u32, (int32_t)(body_u64(body, len, 0) >> 32),
			  body_u64(body, len, 1), body_u64(body, len, 2), body_u64(body, len, 3));
		break;
	case SAMPO_SIMPLEPERF_RECORD_UNWINDING_RESULT:
		ob_printf(ob, " time %" PRIu64 " used_time %" PRIu64 " error_code %" PRIu64
			  " error_addr %#" PRIx64,
			  body_u64(body, len, 0), body_u64(body, len, 1), body_u64(body, len, 2),
			  body_u64(body, len, 3));
		break;
	case SAMPO_SIMPLEPERF_RECORD_DEBUG:
		ob_printf(ob, " time %" PRIu64 " %s", body_u64(body, len, 0),
			  body_str(body, len, 8));
		break;
	default: /* SPLIT, SPLIT_END: pieces of a record */
		break;
	}
	ob_putc(ob, '\n');
}

/*
 * A kernel record of a type the library does not know comes without its
 * sample_id decoded; with a single event there is no doubt whose trailer it
 * carries, so decode it for the cpu/time columns, as perf does.
 */
static const struct sampo_event *decode_unknown(struct dump_ctx *ctx, const struct sampo_event *ev,
						struct sampo_event *copy)
{
	uint32_t type = ev->record->header.type;

	if (type >= SAMPO_RECORD_USER_TYPE_START || sampo_record__perf_known(type) ||
	    ev->attr_idx >= 0 || ctx->nr_attrs != 1)
		return ev;
	*copy = *ev;
	if (sampo_sample__parse(sampo_reader__attr(ctx->reader, 0), ev->record,
				sampo_reader__needs_swap(ctx->reader), &copy->sample))
		return ev;
	return copy;
}

static int dump_one(struct dump_ctx *ctx, const struct sampo_event *ev)
{
	uint32_t type = ev->record->header.type;
	struct sampo_event copy;

	ev = decode_unknown(ctx, ev, &copy);

	if (type < SAMPO_RECORD_PERF_MAX) {
		ctx->nr_events[0]++;
		ctx->nr_events[type]++;
	} else {
		ctx->nr_invalid++;
	}
	dump_header_line(ctx, ev);
	dump_raw(ctx, ev->record);
	dump_decoded_prefix(ctx, ev);
	if (sampo_record__simpleperf_name(type)) {
		ctx->nr_simpleperf++;
		dump_simpleperf_record(ctx, ev);
		return 0;
	}
	if (type >= SAMPO_RECORD_USER_TYPE_START) {
		dump_user_record(ctx, ev);
		return 0;
	}
	return dump_kernel_record(ctx, ev);
}

/* perf's perf_session__fprintf_nr_events() and evlist__fprintf_nr_events() */
static void dump_stats(struct dump_ctx *ctx)
{
	struct outbuf *ob = &ctx->ob;
	const struct sampo_reader_stats *st = sampo_reader__stats(ctx->reader);
	uint32_t total;

	/* the reader does not hand out COMPRESSED records, but perf counts them */
	ctx->nr_events[SAMPO_RECORD_COMPRESSED] +=
		(uint32_t)st->nr_records[SAMPO_RECORD_COMPRESSED];
	ctx->nr_events[0] += (uint32_t)st->nr_records[SAMPO_RECORD_COMPRESSED];
	total = ctx->nr_events[0];

	OB_LIT(ob, "\nAggregated stats:");
	if (sampo_reader__has_feature(ctx->reader, SAMPO_FEAT_AUXTRACE))
		OB_LIT(ob,
		       " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)");
	ob_putc(ob, '\n');
	for (uint32_t i = 0; i < SAMPO_RECORD_PERF_MAX; i++) {
		const char *name = sampo_record__perf_name(i);

		if (!strcmp(name, "UNKNOWN") || !ctx->nr_events[i])
			continue;
		if (i && total)
			ob_printf(ob, "%16s events: %10d  (%4.1f%%)\n", name,
				  (int)ctx->nr_events[i], 100.0 * ctx->nr_events[i] / total);
		else
			ob_printf(ob, "%16s events: %10d\n", name, (int)ctx->nr_events[i]);
	}
	/* perf report --stats counts each event's LOST_SAMPLES records too, -D does not */
	for (size_t i = 0; i < ctx->nr_attrs; i++) {
		uint64_t nr_lost = ctx->stats_only ? ctx->evsels[i].nr_lost_samples : 0;

		if (!ctx->evsels[i].nr_samples && !nr_lost)
			continue;
		ob_printf(ob, "%s stats:\n", evsel_name(ctx, (int)i));
		if (ctx->evsels[i].nr_samples)
			ob_printf(ob, "%16s events: %10d\n", "SAMPLE",
				  (int)ctx->evsels[i].nr_samples);
		if (nr_lost)
			ob_printf(ob, "%16s events: %10d\n", "LOST_SAMPLES", (int)nr_lost);
	}
}

/* perf's end-of-session warnings that concern what dump shows */
static void warn_at_end(struct dump_ctx *ctx)
{
	const struct sampo_reader_stats *st = sampo_reader__stats(ctx->reader);
	uint64_t unknown = st->nr_unknown_type > ctx->nr_simpleperf ?
				   st->nr_unknown_type - ctx->nr_simpleperf : 0;

	if (ctx->nr_simpleperf)
		cli_warn("%" PRIu64 " simpleperf records were printed by name (perf 6.1 stops at "
			 "the first)",
			 ctx->nr_simpleperf);
	if (unknown)
		cli_warn("%" PRIu64 " records of a type perf 6.1 does not know were printed raw",
			 unknown);
	if (ctx->nr_unknown_id)
		cli_warn("%" PRIu64 " samples with id not present in the header",
			 ctx->nr_unknown_id);
}

static void dump_ctx_release(struct dump_ctx *ctx)
{
	sampo_addr_location__exit(&ctx->al);
	free(ctx->evsels);
	sampo_session__close(ctx->session);
}

/* the tool's one callback, for every record */
static int dump_record(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct dump_ctx *ctx = arg;
	int err;

	(void)session;
	err = refresh_attrs(ctx);
	if (!err)
		err = dump_one(ctx, ev);
	if (!err && ob_error(&ctx->ob))
		return 1; /* a full pipe or disk: stop */
	return err;
}

static int run_dump(struct dump_ctx *ctx, const char *input)
{
	char errbuf[256] = "";
	/*
	 * perf report uses only EVENT_DESC, ARCH and the build-id table (the
	 * kernel's name in the " ...... dso:" lines) before the records
	 */
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true,
		   .features = SAMPO_SESSION_FEATURES_EACH,
		   .feature_mask = (1ULL << SAMPO_FEAT_ARCH) | (1ULL << SAMPO_FEAT_EVENT_DESC) |
				   (1ULL << SAMPO_FEAT_BUILD_ID),
		   .machine_after_tool = true, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	const struct sampo_tool tool = { .other = dump_record };
	int err, ret;

	err = sampo_session__open(input, &opts, &ctx->session);
	if (err)
		return cli_err_open(err, input, errbuf);
	ctx->reader = sampo_session__reader(ctx->session);
	ctx->machine = sampo_session__machine(ctx->session);
	ctx->label = sampo_reader__is_pipe(ctx->reader) ? "pipe" : input;
	err = refresh_attrs(ctx);
	if (err)
		return cli_err(err, "cannot set up the events");
	update_arch(ctx);

	if (!ctx->stats_only)
		OB_LIT(&ctx->ob, "# To display the perf.data header info, please use "
				 "--header/--header-only options.\n#\n");
	ret = sampo_session__process(ctx->session, &tool, ctx);
	if (ctx->stats_only)
		ob_init_fd(&ctx->ob, STDOUT_FILENO);
	if (!ob_error(&ctx->ob) && ret < 0) {
		/* everything before the bad record is out; then say what was wrong */
		err = ob_flush(&ctx->ob);
		if (err)
			return cli_err(err, "cannot write output");
		return cli_err_read(ret, ctx->reader, sampo_session__error(ctx->session));
	}
	if (!ob_error(&ctx->ob)) {
		(void)refresh_attrs(ctx);
		dump_stats(ctx);
	}
	err = ob_flush(&ctx->ob);
	if (err)
		return err == -EPIPE ? err : cli_err(err, "cannot write output");
	warn_at_end(ctx);
	return 0;
}

static int discard_output(void *arg, const char *data, size_t len)
{
	(void)arg;
	(void)data;
	(void)len;
	return 0;
}

int cmd_dump(int argc, const char **argv)
{
	const char *input = NULL;
	bool stdio = false, stats = false;
	const struct option opts[] = {
		OPT_STRING('i', "input", &input, "file",
			   "input file, '-' for stdin (default: perf.data, or stdin if a pipe)"),
		OPT_BOOLEAN(0, "stats", &stats,
			    "only the counts of the records by type, and of the samples by event"),
		/* perf report -D --stdio: the text is the only output there is */
		OPT_BOOLEAN(0, "stdio", &stdio, "text output (accepted as perf report -D does)"),
		OPT_END(),
	};
	struct dump_ctx *ctx;
	int ret;

	argc = parse_options(argc, argv, opts, dump_usage, 0);
	if (argc < 0)
		return argc;
	if (argc > 0)
		return usage_error(dump_usage, opts, "unexpected argument '%s'", argv[0]);
	if (!input || !*input)
		input = cli_default_input();

	init_tables();
	/* the context holds the 64 KiB output buffer: keep it off the stack */
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return cli_err(-ENOMEM, "out of memory");
	/*
	 * --stats: every record is decoded and counted as for the dump (the same
	 * counts, by the same code), into a sink that keeps nothing
	 */
	ctx->stats_only = stats;
	if (stats)
		ob_init_sink(&ctx->ob, discard_output, NULL);
	else
		ob_init_fd(&ctx->ob, STDOUT_FILENO);
	(void)fflush(stdout);
	ret = run_dump(ctx, input);
	dump_ctx_release(ctx);
	free(ctx);
	return ret;
}
