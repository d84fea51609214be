// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-header.c - sampo header: print the header of a perf.data file, exactly
 * as `perf report --header-only [-I]` (perf 6.1) does.
 *
 *	sampo header [-I] [-i <file>]
 *	sampo report --header-only [-I] [-i <file>]	(alias, see main.c)
 *
 * Output, file mode:
 *	# ========
 *	# captured on    : <ctime(3) of the file's mtime, local time>
 *	# header version, data offset, data size, feat offset
 *	one block per feature present, in feature id order
 *	# missing features: <names of the known features that are absent>
 *	# ========
 *	#
 * Pipe mode: the file header has no features, so perf prints the frame
 * (with zero offsets and sizes) first, then each feature as its
 * HEADER_FEATURE record goes by, and stops at the record with feature id
 * HEADER_LAST_FEATURE (32 in perf 6.1) that perf record writes after them.
 *
 * Each print_*() below mirrors perf's print function of the same name in
 * tools/perf/util/header.c, quirks included (see the comments); the values
 * come from libsampo's typed features (<sampo/feature.h>). Features whose
 * perf printer is "full only" (topologies, caches) print a one-line hint
 * unless -I is given.
 *
 * perf processes all the features before it prints any, and where its
 * processing of one fails (DIR_FORMAT on a plain file, a socket id it finds
 * too big, an inconsistent GROUP_DESC) the later features stay unprocessed
 * and print as if empty; perf61_processed() reproduces those outcomes. In
 * pipe mode such a failure ends perf's output, and so it ends ours, with a
 * warning.
 *
 * Errors: in file mode, a feature whose payload does not parse is left out
 * and prints as empty;
 * everything else prints, and one warning at the end names the first such
 * feature, where and why, and how many more there were. Exit status 0, as
 * perf goes on too (perf, though, stops processing the features after one
 * whose damage it notices: the later ones print as if empty there). In pipe
 * mode a feature record that does not parse ends the output with one line
 * on stderr, the lines printed before it staying; exit status 1. A damaged
 * BUILD_ID table (never printed here, and ignored by perf) only warns.
 */
#include <byteswap.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sampo/bpf.h>
#include <sampo/cpuset.h>
#include <sampo/event.h>
#include <sampo/evsel.h>
#include <sampo/feature.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/synthesize.h>

#include "builtin.h"
#include "cli.h"
#include "options.h"

/* perf 6.1's HEADER_LAST_FEATURE: ends the feature records of a pipe */
#define PERF61_LAST_FEATURE 32
/* perf 6.1's PERF_RECORD_HEADER_MAX: it stops at a record of this type or above */
#define PERF61_RECORD_HEADER_MAX 83

/* perf 6.1's limits for perf_attr_check() (uapi perf_event.h of 6.1) */
#define PERF61_SAMPLE_MAX    (1ULL << 25)
#define PERF61_FORMAT_MAX    (1ULL << 5)
#define PERF61_BRANCH_MAX    (1ULL << 19)
#define ATTR_RESERVED_1_MASK (~0ULL << 38) /* flag bits after sigtrap */

static const char *const header_usage[] = {
	"sampo header [-I] [-i <file>]",
	"sampo report --header-only [-I] [-i <file>]",
	NULL,
};

struct header_ctx {
	const char *input;
	bool full;   /* -I: expand the "full only" features */
	bool is_dir; /* input is a perf.data directory (record --threads) */
	struct sampo_session *session;
	struct sampo_reader *reader;  /* the session's */
	struct sampo_features *feat; /* parsed here, as perf 6.1 processes them */
	struct sampo_features *host; /* this machine's, read when a perf quirk needs them */
	int nr_damaged;		     /* features left out because they do not parse */
	struct sampo_feature_error first_damage;
	FILE *out;
	int ret; /* pipe mode: the result when a record ends the output */
	/* the event groups from GROUP_DESC, per attr (print_group_desc) */
	size_t nr_evsels;
	struct sampo_evsel_group *groups;
};

/* A damaged feature, left out: one warning for all of them, at the end. */
static void note_damage(struct header_ctx *ctx, const struct sampo_feature_error *fe)
{
	if (!ctx->nr_damaged++)
		ctx->first_damage = *fe;
}

/* ---- small formatting helpers ------------------------------------------------ */

/* A growable string, for outputs perf builds in a buffer first. */
struct strbuf {
	char *buf;
	size_t len, alloc;
};

static void sb_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if (sb->len + (size_t)n + 1 > sb->alloc) {
		size_t alloc = (sb->len + (size_t)n + 1) * 2;
		char *p = realloc(sb->buf, alloc);

		if (!p)
			return;
		sb->buf = p;
		sb->alloc = alloc;
	}
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

static const char *sb_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

static void sb_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}

/* ---- EVENT_DESC: perf_event_attr__fprintf() of perf 6.1 --------------------- */

struct bit_name {
	uint64_t bit;
	const char *name;
};

/* perf's order, which is not bit order; TRANSACTION has no name in 6.1 */
static const struct bit_name sample_type_names[] = {
	{ SAMPO_SAMPLE_IP, "IP" },
	{ SAMPO_SAMPLE_TID, "TID" },
	{ SAMPO_SAMPLE_TIME, "TIME" },
	{ SAMPO_SAMPLE_ADDR, "ADDR" },
	{ SAMPO_SAMPLE_READ, "READ" },
	{ SAMPO_SAMPLE_CALLCHAIN, "CALLCHAIN" },
	{ SAMPO_SAMPLE_ID, "ID" },
	{ SAMPO_SAMPLE_CPU, "CPU" },
	{ SAMPO_SAMPLE_PERIOD, "PERIOD" },
	{ SAMPO_SAMPLE_STREAM_ID, "STREAM_ID" },
	{ SAMPO_SAMPLE_RAW, "RAW" },
	{ SAMPO_SAMPLE_BRANCH_STACK, "BRANCH_STACK" },
	{ SAMPO_SAMPLE_REGS_USER, "REGS_USER" },
	{ SAMPO_SAMPLE_STACK_USER, "STACK_USER" },
	{ SAMPO_SAMPLE_IDENTIFIER, "IDENTIFIER" },
	{ SAMPO_SAMPLE_REGS_INTR, "REGS_INTR" },
	{ SAMPO_SAMPLE_DATA_SRC, "DATA_SRC" },
	{ SAMPO_SAMPLE_WEIGHT, "WEIGHT" },
	{ SAMPO_SAMPLE_PHYS_ADDR, "PHYS_ADDR" },
	{ SAMPO_SAMPLE_AUX, "AUX" },
	{ SAMPO_SAMPLE_CGROUP, "CGROUP" },
	{ SAMPO_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE" },
	{ SAMPO_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE" },
	{ SAMPO_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT" },
	{ 0, NULL },
};

static const struct bit_name branch_sample_type_names[] = {
	{ 1ULL << 0, "USER" },	     { 1ULL << 1, "KERNEL" },
	{ 1ULL << 2, "HV" },	     { 1ULL << 3, "ANY" },
	{ 1ULL << 4, "ANY_CALL" },   { 1ULL << 5, "ANY_RETURN" },
	{ 1ULL << 6, "IND_CALL" },   { 1ULL << 7, "ABORT_TX" },
	{ 1ULL << 8, "IN_TX" },	     { 1ULL << 9, "NO_TX" },
	{ 1ULL << 10, "COND" },	     { 1ULL << 11, "CALL_STACK" },
	{ 1ULL << 12, "IND_JUMP" },  { 1ULL << 13, "CALL" },
	{ 1ULL << 14, "NO_FLAGS" },  { 1ULL << 15, "NO_CYCLES" },
	{ 1ULL << 16, "TYPE_SAVE" }, { 1ULL << 17, "HW_INDEX" },
	{ 1ULL << 18, "PRIV_SAVE" }, { 0, NULL },
};

static const struct bit_name read_format_names[] = {
	{ SAMPO_FORMAT_TOTAL_TIME_ENABLED, "TOTAL_TIME_ENABLED" },
	{ SAMPO_FORMAT_TOTAL_TIME_RUNNING, "TOTAL_TIME_RUNNING" },
	{ SAMPO_FORMAT_ID, "ID" },
	{ SAMPO_FORMAT_GROUP, "GROUP" },
	{ SAMPO_FORMAT_LOST, "LOST" },
	{ 0, NULL },
};

/*
 * perf formats every field into one buffer and, when none of a bit field's
 * bits has a name, leaves the buffer as the previous field left it. Keep that.
 */
struct attr_printer {
	FILE *fp;
	char buf[1024];
};

static void ap_bits(struct attr_printer *ap, uint64_t value, const struct bit_name *names)
{
	size_t pos = 0;
	bool first = true;

	for (; names->name; names++) {
		if (!(value & names->bit))
			continue;
		pos += (size_t)snprintf(ap->buf + pos, sizeof(ap->buf) - pos, "%s%s",
					first ? "" : "|", names->name);
		if (pos >= sizeof(ap->buf))
			pos = sizeof(ap->buf) - 1;
		first = false;
	}
}

static void ap_field(struct attr_printer *ap, const char *name)
{
	fprintf(ap->fp, ", %s = %s", name, ap->buf);
}

static void ap_unsigned(struct attr_printer *ap, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(ap->buf, sizeof(ap->buf), "%" PRIu64, v);
	ap_field(ap, name);
}

static void ap_signed(struct attr_printer *ap, const char *name, int64_t v)
{
	if (!v)
		return;
	snprintf(ap->buf, sizeof(ap->buf), "%" PRId64, v);
	ap_field(ap, name);
}

static void ap_hex(struct attr_printer *ap, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(ap->buf, sizeof(ap->buf), "%#" PRIx64, v);
	ap_field(ap, name);
}

static void ap_names(struct attr_printer *ap, const char *name, uint64_t v,
		     const struct bit_name *names)
{
	if (!v)
		return;
	ap_bits(ap, v, names);
	ap_field(ap, name);
}

/* the flag bits of perf_event_attr, by bit number (15-16: precise_ip, printed apart) */
static const char *const attr_flag_names[] = {
	[0] = "disabled",
	[1] = "inherit",
	[2] = "pinned",
	[3] = "exclusive",
	[4] = "exclude_user",
	[5] = "exclude_kernel",
	[6] = "exclude_hv",
	[7] = "exclude_idle",
	[8] = "mmap",
	[9] = "comm",
	[10] = "freq",
	[11] = "inherit_stat",
	[12] = "enable_on_exec",
	[13] = "task",
	[14] = "watermark",
	[17] = "mmap_data",
	[18] = "sample_id_all",
	[19] = "exclude_host",
	[20] = "exclude_guest",
	[21] = "exclude_callchain_kernel",
	[22] = "exclude_callchain_user",
	[23] = "mmap2",
	[24] = "comm_exec",
	[25] = "use_clockid",
	[26] = "context_switch",
	[27] = "write_backward",
	[28] = "namespaces",
	[29] = "ksymbol",
	[30] = "bpf_event",
	[31] = "aux_output",
	[32] = "cgroup",
	[33] = "text_poke",
	[34] = "build_id",
	[35] = "inherit_thread",
	[36] = "remove_on_exec",
	[37] = "sigtrap",
};

/*
 * @swapped: the file is opposite-endian. perf 6.1's perf_event__attr_swap()
 * forgets clockid, sample_regs_intr and sig_data; libsampo swaps them, so
 * swap them back to print what perf prints.
 */
static void print_attr(FILE *fp, const struct sampo_event_attr *attr_in, bool swapped)
{
	struct attr_printer ap = { .fp = fp };
	struct sampo_event_attr copy = *attr_in;
	const struct sampo_event_attr *attr = &copy;

	if (swapped) {
		copy.clockid = (int32_t)bswap_32((uint32_t)copy.clockid);
		copy.sample_regs_intr = bswap_64(copy.sample_regs_intr);
		copy.sig_data = bswap_64(copy.sig_data);
	}

	ap_unsigned(&ap, "type", attr->type);
	ap_unsigned(&ap, "size", attr->size);
	ap_hex(&ap, "config", attr->config);
	ap_unsigned(&ap, "{ sample_period, sample_freq }", attr->sample_period);
	ap_names(&ap, "sample_type", attr->sample_type, sample_type_names);
	ap_names(&ap, "read_format", attr->read_format, read_format_names);

	/* in bit order, which is perf's order */
	for (size_t bit = 0; bit < sizeof(attr_flag_names) / sizeof(attr_flag_names[0]); bit++) {
		if (bit == SAMPO_ATTR_PRECISE_IP_SHIFT) {
			ap_unsigned(&ap, "precise_ip", (attr->flags >> bit) & 3);
			continue;
		}
		if (attr_flag_names[bit])
			ap_unsigned(&ap, attr_flag_names[bit], (attr->flags >> bit) & 1);
	}

	ap_unsigned(&ap, "{ wakeup_events, wakeup_watermark }", attr->wakeup_events);
	ap_unsigned(&ap, "bp_type", attr->bp_type);
	ap_hex(&ap, "{ bp_addr, config1 }", attr->config1);
	ap_hex(&ap, "{ bp_len, config2 }", attr->config2);
	ap_names(&ap, "branch_sample_type", attr->branch_sample_type, branch_sample_type_names);
	ap_hex(&ap, "sample_regs_user", attr->sample_regs_user);
	ap_unsigned(&ap, "sample_stack_user", attr->sample_stack_user);
	ap_signed(&ap, "clockid", attr->clockid);
	ap_hex(&ap, "sample_regs_intr", attr->sample_regs_intr);
	ap_unsigned(&ap, "aux_watermark", attr->aux_watermark);
	ap_unsigned(&ap, "sample_max_stack", attr->sample_max_stack);
	ap_unsigned(&ap, "aux_sample_size", attr->aux_sample_size);
	ap_unsigned(&ap, "sig_data", attr->sig_data);
}

/* perf 6.1's perf_attr_check(): attrs it refuses make it drop the whole EVENT_DESC */
static bool attr_check(const struct sampo_event_attr *attr)
{
	if ((attr->flags & ATTR_RESERVED_1_MASK) || attr->reserved_2 || attr->reserved_3)
		return false;
	if (attr->sample_type & ~(PERF61_SAMPLE_MAX - 1))
		return false;
	if (attr->read_format & ~(PERF61_FORMAT_MAX - 1))
		return false;
	if ((attr->sample_type & SAMPO_SAMPLE_BRANCH_STACK) &&
	    (attr->branch_sample_type & ~(PERF61_BRANCH_MAX - 1)))
		return false;
	return true;
}

static void print_event_desc(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;
	FILE *fp = ctx->out;

	/* perf's read_event_desc() failed (damaged) */
	if (!sampo_features__has(f, SAMPO_FEAT_EVENT_DESC)) {
		fprintf(fp, "# event desc: not available or unable to read\n");
		return;
	}
	for (uint32_t i = 0; i < f->nr_events; i++) {
		if (!attr_check(&f->events[i].attr)) {
			fprintf(fp, "# event desc: not available or unable to read\n");
			return;
		}
	}
	for (uint32_t i = 0; i < f->nr_events; i++) {
		const struct sampo_feat_event *ev = &f->events[i];

		/* perf's event array ends at the first attr with size 0 */
		if (!ev->attr.size)
			break;
		fprintf(fp, "# event : name = %s, ", ev->name);
		if (ev->nr_ids) {
			fprintf(fp, ", id = {");
			for (uint32_t j = 0; j < ev->nr_ids; j++)
				fprintf(fp, "%s %" PRIu64, j ? "," : "", ev->ids[j]);
			fprintf(fp, " }");
		}
		print_attr(fp, &ev->attr, sampo_reader__needs_swap(ctx->reader));
		fputc('\n', fp);
	}
}

/* ---- evsel names, for GROUP_DESC (evsel__name() of perf) ------------------------- */

/* the library's one naming rule (EVENT_DESC, else perf's made-up name) */
static char *evsel_name(const struct header_ctx *ctx, size_t idx)
{
	return sampo_evsel__name(ctx->feat, idx, sampo_reader__attr(ctx->reader, idx));
}

static void print_group_desc(struct header_ctx *ctx)
{
	FILE *fp = ctx->out;
	uint32_t nr = 0;

	for (size_t e = 0; e < ctx->nr_evsels; e++) {
		char *name;

		const struct sampo_evsel_group *g = &ctx->groups[e];

		if (g->leader == e && g->nr_members > 1) {
			name = evsel_name(ctx, e);
			fprintf(fp, "# group: %s{%s", g->name ? g->name : "", name ? name : "");
			nr = g->nr_members - 1;
		} else if (nr) {
			name = evsel_name(ctx, e);
			fprintf(fp, ",%s", name ? name : "");
			if (--nr == 0)
				fprintf(fp, "}\n");
		} else {
			continue;
		}
		free(name);
	}
}

/* ---- CPU lists (libperf's cpu_map__snprint(); sampo_cpu_map__parse() reads them) --- */

/* cpu_map__snprint(): "0-3,8,10-11" */
static void print_cpu_map(FILE *fp, const int *cpus, int nr)
{
	int start = 0;
	bool first = true;

	for (int i = 1; i <= nr; i++) {
		if (i < nr && cpus[i] - cpus[start] == i - start)
			continue;
		if (start == i - 1)
			fprintf(fp, "%s%d", first ? "" : ",", cpus[start]);
		else
			fprintf(fp, "%s%d-%d", first ? "" : ",", cpus[start], cpus[i - 1]);
		first = false;
		start = i;
	}
	fputc('\n', fp);
}

/* ---- the other features --------------------------------------------------------- */

static void print_cmdline(struct header_ctx *ctx)
{
	const struct sampo_feat_strlist *cmd = &ctx->feat->cmdline;
	FILE *fp = ctx->out;

	fprintf(fp, "# cmdline : ");
	for (uint32_t i = 0; i < cmd->nr; i++) {
		/* perf escapes single quotes as \' */
		for (const char *s = cmd->strs[i]; *s; s++) {
			if (*s == '\'')
				fputs("\\'", fp);
			else
				fputc(*s, fp);
		}
		fputc(' ', fp);
	}
	fputc('\n', fp);
}

static void print_cpu_topology(struct header_ctx *ctx)
{
	const struct sampo_feat_cpu_topology *t = &ctx->feat->cpu_topology;
	FILE *fp = ctx->out;
	bool dies = t->has_dies && t->die_cpus.nr;

	for (uint32_t i = 0; i < t->package_cpus.nr; i++)
		fprintf(fp, "# sibling sockets : %s\n", t->package_cpus.strs[i]);
	if (dies) {
		for (uint32_t i = 0; i < t->die_cpus.nr; i++)
			fprintf(fp, "# sibling dies    : %s\n", t->die_cpus.strs[i]);
	}
	for (uint32_t i = 0; i < t->core_cpus.nr; i++)
		fprintf(fp, "# sibling threads : %s\n", t->core_cpus.strs[i]);

	if (!t->has_cpus) {
		fprintf(fp,
			dies ? "# Core ID, Die ID and Socket ID information is not available\n" :
			       "# Core ID and Socket ID information is not available\n");
		return;
	}
	for (uint32_t i = 0; i < t->nr_cpus; i++) {
		/* perf prints the u32 ids with %d */
		if (dies)
			fprintf(fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				(int)t->cpus[i].core_id, (int)t->cpus[i].die_id,
				(int)t->cpus[i].socket_id);
		else
			fprintf(fp, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				(int)t->cpus[i].core_id, (int)t->cpus[i].socket_id);
	}
}

static int print_numa_topology(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;
	FILE *fp = ctx->out;

	/* perf parses every node's list before printing any */
	for (uint32_t i = 0; i < f->nr_numa_nodes; i++) {
		int *cpus = NULL;

		int nr = sampo_cpu_map__parse(f->numa_nodes[i].cpus, &cpus);

		if (nr < 0) {
			struct sampo_feature_error fe = {
				.feat = SAMPO_FEAT_NUMA_TOPOLOGY,
				.section_offset = sampo_reader__feature_offset(
					ctx->reader, SAMPO_FEAT_NUMA_TOPOLOGY),
			};

			/* damaged: perf's processing fails, it prints no node */
			snprintf(fe.msg, sizeof(fe.msg), "node %u: %s cpu list '%.64s'",
				 f->numa_nodes[i].node,
				 nr == -E2BIG ? "too long a" : "invalid", f->numa_nodes[i].cpus);
			note_damage(ctx, &fe);
			return 0;
		}
		free(cpus);
	}
	for (uint32_t i = 0; i < f->nr_numa_nodes; i++) {
		const struct sampo_feat_numa_node *n = &f->numa_nodes[i];
		int *cpus = NULL;
		int nr = sampo_cpu_map__parse(n->cpus, &cpus);

		fprintf(fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
			n->node, n->mem_total_kb, n->mem_free_kb);
		fprintf(fp, "# node%u cpu list : ", n->node);
		print_cpu_map(fp, cpus, nr);
		free(cpus);
	}
	return 0;
}

/*
 * This machine's features (CPUID, PMU_MAPPINGS, ...) as perf record would
 * write them, read once: NULL when they cannot be read.
 */
static const struct sampo_features *host_features(struct header_ctx *ctx)
{
	if (!ctx->host && sampo_synthesize__host_features(NULL, &ctx->host))
		ctx->host = NULL;
	return ctx->host;
}

/* PMU mappings as perf prints them */
static void print_pmu_mapping_list(FILE *fp, const struct sampo_features *f)
{
	if (!f || !f->nr_pmu_mappings) {
		fprintf(fp, "# pmu mappings: not available\n");
		return;
	}
	for (uint32_t i = 0; i < f->nr_pmu_mappings; i++)
		fprintf(fp, "%s%s = %" PRIu32, i ? ", " : "# pmu mappings: ",
			f->pmu_mappings[i].name, f->pmu_mappings[i].type);
	fputc('\n', fp);
}

static void print_pmu_mappings(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;

	/* the local PMUs: /sys/bus/event_source/devices in readdir order */
	if (!f->nr_pmu_mappings &&
	    sampo_features__uses_host_pmus(f, sampo_reader__is_pipe(ctx->reader), host_features(ctx)))
		f = host_features(ctx);
	print_pmu_mapping_list(ctx->out, f);
}

static void print_cache(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;
	FILE *fp = ctx->out;

	fprintf(fp, "# CPU cache info:\n");
	for (uint32_t i = 0; i < f->nr_caches; i++) {
		const struct sampo_feat_cache *c = &f->caches[i];

		fprintf(fp, "#  L%d %-15s %8s [%s]\n", (int)c->level, c->type, c->size, c->map);
	}
}

static void print_sample_time(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;
	FILE *fp = ctx->out;
	uint64_t first = f->first_sample_time, last = f->last_sample_time;

	fprintf(fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", first / 1000000000,
		first % 1000000000 / 1000);
	fprintf(fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", last / 1000000000,
		last % 1000000000 / 1000);
	/* unsigned difference, as perf */
	fprintf(fp, "# sample duration : %10.3f ms\n", (double)(last - first) / 1000000);
}

/* unit_number__scnprintf(): divide by 1024 while the quotient stays above 1 */
static void unit_number(char *buf, size_t size, uint64_t n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, unit[i]);
}

static bool test_bit64(const uint64_t *map, uint64_t bit)
{
	return map[bit / 64] & (1ULL << (bit % 64));
}

/*
 * memory_node__fprintf() of perf. Its map buffer lives on the stack and
 * bitmap_scnprintf() writes nothing for an empty bitmap, so a node without
 * memory shows the map of the node printed before it: @prev_map keeps it.
 */
static void print_memory_node(FILE *fp, const struct sampo_feat_memory_node *n, uint64_t bsize,
			      struct strbuf *prev_map)
{
	struct strbuf map = { 0 };
	char size_buf[50];
	uint64_t weight = 0;

	for (uint64_t b = 0; b < n->nr_bits; b++)
		weight += test_bit64(n->bitmap, b);
	unit_number(size_buf, sizeof(size_buf), bsize * weight);

	/* bitmap_scnprintf(): ranges, into perf's 100-byte buffer */
	for (uint64_t b = 0; b < n->nr_bits;) {
		uint64_t start, end;

		if (!test_bit64(n->bitmap, b)) {
			b++;
			continue;
		}
		start = end = b;
		while (end + 1 < n->nr_bits && test_bit64(n->bitmap, end + 1))
			end++;
		sb_addf(&map, "%s%d", map.len ? "," : "", (int)start);
		if (end > start)
			sb_addf(&map, "-%d", (int)end);
		b = end + 1;
	}
	if (map.len) {
		sb_release(prev_map);
		*prev_map = map;
	}
	fprintf(fp, "#  %3" PRIu64 " [%s]: %.99s\n", n->node, size_buf, sb_str(prev_map));
}

static void print_mem_topology(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;
	struct strbuf prev_map = { 0 };
	FILE *fp = ctx->out;

	fprintf(fp, "# memory nodes (nr %d, block size 0x%llx):\n", (int)f->nr_memory_nodes,
		(unsigned long long)f->memory_block_size);
	for (uint64_t i = 0; i < f->nr_memory_nodes; i++)
		print_memory_node(fp, &f->memory_nodes[i], f->memory_block_size, &prev_map);
	sb_release(&prev_map);
}

/* perf's clockid_name() says "(not found)" for an id it does not know */
static const char *clockid_name(uint32_t clockid)
{
	const char *name = sampo_clockid__name(clockid);

	return name ? name : "(not found)";
}

static void print_clock_data(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;
	FILE *fp = ctx->out;
	time_t tod_sec = (time_t)(f->clock_tod_ns / 1000000000);
	int tod_usec = (int)(f->clock_tod_ns % 1000000000 / 1000);
	long clk_sec = (long)(f->clock_clockid_ns / 1000000000);
	long clk_nsec = (long)(f->clock_clockid_ns % 1000000000);
	char tstr[64], date[40];
	struct tm ltime;

	if (!localtime_r(&tod_sec, &ltime)) {
		snprintf(tstr, sizeof(tstr), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &ltime);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, tod_usec);
	}
	fprintf(fp, "# clockid: %s (%u)\n", clockid_name(f->clockid), f->clockid);
	fprintf(fp, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr, (long)tod_sec,
		tod_usec, clk_sec, clk_nsec, clockid_name(f->clockid));
}

static void print_pmu_caps_one(FILE *fp, const char *pmu_name, const struct sampo_feat_pmu_caps *pc)
{
	if (!pc->nr_caps) {
		fprintf(fp, "# %s pmu capabilities: not available\n", pmu_name);
		return;
	}
	fprintf(fp, "# %s pmu capabilities: ", pmu_name);
	for (uint32_t i = 0; i < pc->nr_caps; i++)
		fprintf(fp, "%s%s=%s", i ? ", " : "", pc->names[i], pc->values[i]);
	fputc('\n', fp);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* perf keeps BTFs in a tree keyed by id: sorted, first of each id wins */
static void print_bpf_btf(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;
	uint32_t *ids;

	if (!f->nr_btfs)
		return;
	ids = malloc(f->nr_btfs * sizeof(*ids));
	if (!ids)
		return;
	for (uint32_t i = 0; i < f->nr_btfs; i++)
		ids[i] = f->btfs[i].id;
	qsort(ids, f->nr_btfs, sizeof(*ids), cmp_u32);
	for (uint32_t i = 0; i < f->nr_btfs; i++) {
		if (i && ids[i] == ids[i - 1])
			continue;
		fprintf(ctx->out, "# btf info of id %u\n", ids[i]);
	}
	free(ids);
}

/* ---- BPF_PROG_INFO: bpf_event__print_bpf_prog_info() of perf ------------------------ */

/* The name of sub-program @sub, whatever its length (perf prints it whole); free() it. */
static char *bpf_sub_name(const struct sampo_bpf_prog_info *info, const struct sampo_btf *btf,
			  uint32_t sub)
{
	int len = sampo_bpf_prog_info__sub_name(info, btf, sub, NULL, 0);
	char *name;

	if (len < 0)
		return NULL;
	name = malloc((size_t)len + 1);
	if (name)
		(void)sampo_bpf_prog_info__sub_name(info, btf, sub, name, (size_t)len + 1);
	return name;
}

static void print_one_bpf_prog(struct header_ctx *ctx, const struct sampo_bpf_prog_info *info)
{
	const struct sampo_feat_btf *btf_node;
	struct sampo_btf *btf = NULL;
	uint32_t nr = info->nr_jited_ksyms;
	FILE *fp = ctx->out;

	if (nr != info->nr_prog_tags || nr != info->nr_jited_func_lens)
		return;
	if (nr && (!info->jited_ksyms || !info->jited_func_lens || !info->prog_tags))
		return; /* perf would follow pointers that are not there */

	/* names come from BTF only when every sub-program has its func_info record */
	btf_node = info->btf_id ? sampo_features__find_btf(ctx->feat, info->btf_id) : NULL;
	if (btf_node && info->func_info && info->nr_func_info >= nr &&
	    sampo_btf__new(btf_node->data, btf_node->size, &btf))
		btf = NULL; /* perf's btf__new() failed: names without BTF */

	if (nr != 1)
		fprintf(fp, "# bpf_prog_info %u:\n", info->id);
	for (uint32_t i = 0; i < nr; i++) {
		char *name = bpf_sub_name(info, btf, i);

		if (!name)
			break;
		if (nr == 1)
			fprintf(fp, "# bpf_prog_info %u: %s addr 0x%llx size %u\n", info->id, name,
				(unsigned long long)info->jited_ksyms[0], info->jited_func_lens[0]);
		else
			fprintf(fp, "# \tsub_prog %u: %s addr 0x%llx size %u\n", i, name,
				(unsigned long long)info->jited_ksyms[i], info->jited_func_lens[i]);
		free(name);
	}
	sampo_btf__delete(btf);
}

static int cmp_bpf_prog(const void *a, const void *b)
{
	const struct sampo_bpf_prog_info *x = *(const struct sampo_bpf_prog_info *const *)a;
	const struct sampo_bpf_prog_info *y = *(const struct sampo_bpf_prog_info *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* perf keeps the programs in a tree keyed by id: sorted, first of each id wins */
static void print_bpf_prog_info(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;
	struct sampo_bpf_prog_info **progs;
	uint32_t n = 0;

	if (!f->nr_bpf_progs)
		return;
	progs = calloc(f->nr_bpf_progs, sizeof(*progs));
	if (!progs)
		return;
	for (uint32_t i = 0; i < f->nr_bpf_progs; i++) {
		/* perf refuses (and stops at) an info larger than its own struct */
		if (f->bpf_progs[i].info_len > SAMPO_BPF_PROG_INFO_SIZE_PERF61)
			break;
		if (sampo_bpf_prog_info__decode(&f->bpf_progs[i],
						sampo_reader__needs_swap(ctx->reader), &progs[n]))
			break;
		n++;
	}
	/* a stable sort keeps the first of equal ids first */
	for (uint32_t i = 1; i < n; i++) {
		for (uint32_t j = i; j > 0 && cmp_bpf_prog(&progs[j - 1], &progs[j]) > 0; j--) {
			struct sampo_bpf_prog_info *t = progs[j];

			progs[j] = progs[j - 1];
			progs[j - 1] = t;
		}
	}
	for (uint32_t i = 0; i < n; i++) {
		if (i && !cmp_bpf_prog(&progs[i - 1], &progs[i]))
			continue;
		print_one_bpf_prog(ctx, progs[i]);
	}
	for (uint32_t i = 0; i < n; i++)
		sampo_bpf_prog_info__delete(progs[i]);
	free(progs);
}

/*
 * Print one feature as perf's print_<feature>() does. Return 0, or an error
 * already reported.
 */
static int print_feature(struct header_ctx *ctx, int feat)
{
	const struct sampo_features *f = ctx->feat;
	FILE *fp = ctx->out;

	switch (feat) {
	case SAMPO_FEAT_HOSTNAME:
		fprintf(fp, "# hostname : %s\n", f->hostname);
		break;
	case SAMPO_FEAT_OSRELEASE:
		fprintf(fp, "# os release : %s\n", f->osrelease);
		break;
	case SAMPO_FEAT_VERSION:
		fprintf(fp, "# perf version : %s\n", f->version);
		break;
	case SAMPO_FEAT_ARCH:
		fprintf(fp, "# arch : %s\n", f->arch);
		break;
	case SAMPO_FEAT_NRCPUS:
		fprintf(fp, "# nrcpus online : %u\n", f->nr_cpus_online);
		fprintf(fp, "# nrcpus avail : %u\n", f->nr_cpus_avail);
		break;
	case SAMPO_FEAT_CPUDESC:
		fprintf(fp, "# cpudesc : %s\n", f->cpudesc);
		break;
	case SAMPO_FEAT_CPUID:
		fprintf(fp, "# cpuid : %s\n", f->cpuid);
		break;
	case SAMPO_FEAT_TOTAL_MEM:
		fprintf(fp, "# total memory : %llu kB\n", (unsigned long long)f->total_mem_kb);
		break;
	case SAMPO_FEAT_CMDLINE:
		print_cmdline(ctx);
		break;
	case SAMPO_FEAT_EVENT_DESC:
		print_event_desc(ctx);
		break;
	case SAMPO_FEAT_CPU_TOPOLOGY:
		print_cpu_topology(ctx);
		break;
	case SAMPO_FEAT_NUMA_TOPOLOGY:
		return print_numa_topology(ctx);
	case SAMPO_FEAT_BRANCH_STACK:
		fprintf(fp, "# contains samples with branch stack\n");
		break;
	case SAMPO_FEAT_PMU_MAPPINGS:
		print_pmu_mappings(ctx);
		break;
	case SAMPO_FEAT_GROUP_DESC:
		print_group_desc(ctx);
		break;
	case SAMPO_FEAT_AUXTRACE:
		fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case SAMPO_FEAT_STAT:
		fprintf(fp, "# contains stat data\n");
		break;
	case SAMPO_FEAT_CACHE:
		print_cache(ctx);
		break;
	case SAMPO_FEAT_SAMPLE_TIME:
		print_sample_time(ctx);
		break;
	case SAMPO_FEAT_MEM_TOPOLOGY:
		print_mem_topology(ctx);
		break;
	case SAMPO_FEAT_CLOCKID:
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", f->clockid_res_ns * 1000);
		break;
	case SAMPO_FEAT_DIR_FORMAT:
		/* perf shows the version of the directory it opened: 0 for a plain file */
		fprintf(fp, "# directory data version : %" PRIu64 "\n",
			ctx->is_dir ? f->dir_format_version : 0);
		break;
	case SAMPO_FEAT_BPF_PROG_INFO:
		/* perf 6.1 ignores BPF data of opposite-endian files */
		if (!sampo_reader__needs_swap(ctx->reader))
			print_bpf_prog_info(ctx);
		break;
	case SAMPO_FEAT_BPF_BTF:
		/* perf 6.1 ignores BPF data of opposite-endian files */
		if (!sampo_reader__needs_swap(ctx->reader))
			print_bpf_btf(ctx);
		break;
	case SAMPO_FEAT_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
			f->comp_type == 1 ? "Zstd" : "Unknown", (int)f->comp_level,
			(int)f->comp_ratio);
		break;
	case SAMPO_FEAT_CPU_PMU_CAPS:
		print_pmu_caps_one(fp, "cpu", &f->cpu_pmu_caps);
		break;
	case SAMPO_FEAT_CLOCK_DATA:
		if (sampo_features__has(f, SAMPO_FEAT_CLOCK_DATA))
			print_clock_data(ctx);
		else
			fprintf(fp, "# reference time disabled\n");
		break;
	case SAMPO_FEAT_HYBRID_TOPOLOGY:
		fprintf(fp, "# hybrid cpu system:\n");
		for (uint32_t i = 0; i < f->nr_hybrid_nodes; i++)
			fprintf(fp, "# %s cpu list : %s\n", f->hybrid_nodes[i].pmu_name,
				f->hybrid_nodes[i].cpus);
		break;
	case SAMPO_FEAT_PMU_CAPS:
		for (uint32_t i = 0; i < f->nr_pmu_caps; i++)
			print_pmu_caps_one(fp, f->pmu_caps[i].pmu_name, &f->pmu_caps[i]);
		break;
	default: /* TRACING_DATA, BUILD_ID: perf has no printer */
		break;
	}
	return 0;
}

/* perf 6.1's feat_ops[].print == NULL */
static bool feature_has_printer(int feat)
{
	return feat != SAMPO_FEAT_TRACING_DATA && feat != SAMPO_FEAT_BUILD_ID;
}

/* perf 6.1's feat_ops[].full_only */
static bool feature_full_only(int feat)
{
	return feat == SAMPO_FEAT_CPU_TOPOLOGY || feat == SAMPO_FEAT_NUMA_TOPOLOGY ||
	       feat == SAMPO_FEAT_CACHE || feat == SAMPO_FEAT_MEM_TOPOLOGY ||
	       feat == SAMPO_FEAT_HYBRID_TOPOLOGY;
}

static int report_feature_error(struct header_ctx *ctx, int err,
				const struct sampo_feature_error *fe)
{
	const char *name = sampo_feature__name(fe->feat);

	fflush(ctx->out);
	if (err == -SAMPO_ERR_MALFORMED && fe->feat == SAMPO_FEAT_BUILD_ID) {
		cli_warn("%s: feature %s at offset %#" PRIx64 ": %s",
			 sampo_reader__name(ctx->reader), name, fe->section_offset + fe->offset,
			 fe->msg);
		return err;
	}
	if (err == -ENOMEM)
		return cli_err(err, "%s: feature %s", sampo_reader__name(ctx->reader),
			       name ? name : "?");
	return cli_err(0, "%s: feature %s at offset %#" PRIx64 ": %s",
		       sampo_reader__name(ctx->reader), name ? name : "?",
		       fe->section_offset + fe->offset, fe->msg);
}

/* Parse one feature's payload into ctx->feat; report a failure. */
static int parse_feature(struct header_ctx *ctx, int feat, const void *data, size_t size,
			 uint64_t file_offset)
{
	struct sampo_feature_error fe;
	int err;

	err = sampo_features__parse_one(ctx->feat, feat, data, size,
					sampo_reader__needs_swap(ctx->reader), &fe);
	if (!err)
		return 0;
	fe.section_offset = file_offset;
	report_feature_error(ctx, err, &fe);
	return err;
}

static void print_frame_head(struct header_ctx *ctx)
{
	const struct sampo_file_header *h = sampo_reader__file_header(ctx->reader);
	time_t mtime = (time_t)sampo_reader__mtime(ctx->reader);
	char when[64];
	FILE *fp = ctx->out;

	fprintf(fp, "# ========\n");
	fprintf(fp, "# captured on    : %s", ctime_r(&mtime, when) ? when : "(null)\n");
	/* perf's enum: PERF_HEADER_VERSION_1 is 0, _2 is 1 */
	fprintf(fp, "# header version : %d\n", sampo_reader__version(ctx->reader) - 1);
	fprintf(fp, "# data offset    : %" PRIu64 "\n", h->data.offset);
	fprintf(fp, "# data size      : %" PRIu64 "\n", h->data.size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", h->data.offset + h->data.size);
}

/*
 * Read and parse feature @feat of a file. A damaged feature (its payload
 * does not parse) is left out, with one warning for all at the end, and the
 * rest is read: return 1. Else 0, or an error already reported.
 */
static int file_parse_feature(struct header_ctx *ctx, int feat)
{
	struct sampo_feature_error fe = { .feat = feat };
	const void *data;
	size_t size;
	int err;

	err = sampo_reader__feature(ctx->reader, feat, &data, &size);
	if (err) {
		fflush(ctx->out);
		return cli_err(0, "%s",
			       sampo_reader__error(ctx->reader)[0] ?
				       sampo_reader__error(ctx->reader) :
				       "cannot read a feature section");
	}
	err = sampo_features__parse_one(ctx->feat, feat, data, size,
					sampo_reader__needs_swap(ctx->reader), &fe);
	if (!err)
		return 0;
	if (err != -SAMPO_ERR_MALFORMED && err != -SAMPO_ERR_UNSUPPORTED)
		return report_feature_error(ctx, err, &fe);
	fe.section_offset = sampo_reader__feature_offset(ctx->reader, feat);
	note_damage(ctx, &fe);
	return 1;
}

/*
 * After perf has processed feature @feat: false when its processing failed
 * (perf then stops processing features, and the later ones print as if
 * empty). Sets up what print_group_desc() needs.
 */
static int perf61_processed(struct header_ctx *ctx, int feat, bool *ok)
{
	struct sampo_features *f = ctx->feat;
	int ret;

	*ok = true;
	switch (feat) {
	case SAMPO_FEAT_CPU_TOPOLOGY:
		*ok = sampo_features__cpu_ids_plausible(f);
		if (!*ok)
			sampo_features__drop_cpu_ids(f);
		break;
	case SAMPO_FEAT_GROUP_DESC:
		free(ctx->groups);
		ctx->groups = NULL;
		ctx->nr_evsels = 0;
		ret = sampo_evsel__groups(f, sampo_reader__nr_attrs(ctx->reader), &ctx->groups, ok);
		if (ret < 0)
			return cli_err(ret, "%s", sampo_reader__name(ctx->reader));
		ctx->nr_evsels = sampo_reader__nr_attrs(ctx->reader);
		break;
	case SAMPO_FEAT_DIR_FORMAT:
		/* it only reads the version when the input is a directory */
		*ok = ctx->is_dir;
		break;
	case SAMPO_FEAT_BPF_PROG_INFO:
		/* it refuses a bpf_prog_info larger than its own */
		for (uint32_t i = 0; i < f->nr_bpf_progs; i++) {
			if (f->bpf_progs[i].info_len > SAMPO_BPF_PROG_INFO_SIZE_PERF61)
				*ok = false;
		}
		break;
	default:
		break;
	}
	return 0;
}

static const char *const sp_dso_types[] = {
	[SAMPO_SP_DSO_KERNEL] = "kernel",	  [SAMPO_SP_DSO_KERNEL_MODULE] = "kernel module",
	[SAMPO_SP_DSO_ELF_FILE] = "elf",	  [SAMPO_SP_DSO_DEX_FILE] = "dex",
	[SAMPO_SP_DSO_SYMBOL_MAP_FILE] = "symbol map", [SAMPO_SP_DSO_UNKNOWN_FILE] = "unknown",
};

/*
 * simpleperf's features, which perf does not print: META_INFO, the DSO symbol
 * tables (each DSO and, with -I, its symbols), the files kept for unwinding.
 */
static void print_simpleperf(struct header_ctx *ctx)
{
	const struct sampo_features *f = ctx->feat;
	const struct sampo_feat_sp_file *files;
	FILE *fp = ctx->out;
	uint64_t nr_syms = 0;
	uint32_t nr;

	for (uint32_t i = 0; sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_META_INFO) &&
			     i < f->nr_sp_meta;
	     i++) {
		fprintf(fp, "# simpleperf meta_info : %s = ", f->sp_meta[i].key);
		/* event_type_info holds one line per event: keep each value on one line */
		for (const char *c = f->sp_meta[i].value; *c; c++) {
			if (*c == '\n')
				fputs("\\n", fp);
			else
				fputc((unsigned char)*c < ' ' ? '?' : *c, fp);
		}
		fputc('\n', fp);
	}
	files = sampo_features__simpleperf_files(f, &nr);
	for (uint32_t i = 0; i < nr; i++)
		nr_syms += files[i].nr_symbols;
	if (files || sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_FILE2))
		fprintf(fp, "# simpleperf %s : %u files, %" PRIu64 " symbols\n",
			sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_FILE) ? "file" : "file2", nr,
			nr_syms);
	for (uint32_t i = 0; ctx->full && i < nr; i++) {
		const struct sampo_feat_sp_file *e = &files[i];

		fprintf(fp, "#   %s: %s, min_vaddr %#" PRIx64, e->path,
			e->type < sizeof(sp_dso_types) / sizeof(sp_dso_types[0]) ? sp_dso_types[e->type] : "?",
			e->min_vaddr);
		if (e->has_file_offset)
			fprintf(fp, ", %s offset %#" PRIx64,
				e->type == SAMPO_SP_DSO_KERNEL_MODULE ? "memory" : "file",
				e->file_offset);
		fprintf(fp, ", %u symbols\n", e->nr_symbols);
		for (uint32_t j = 0; j < e->nr_symbols; j++)
			fprintf(fp, "#     %#" PRIx64 " %#" PRIx64 " %s\n", e->symbols[j].vaddr,
				e->symbols[j].len, e->symbols[j].name);
	}
	if (sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_DEBUG_UNWIND)) {
		fprintf(fp, "# simpleperf debug_unwind : %u files, %" PRIu64 " bytes kept\n",
			f->nr_sp_debug_unwind, f->sp_debug_unwind_file_size);
		for (uint32_t i = 0; ctx->full && i < f->nr_sp_debug_unwind; i++)
			fprintf(fp, "#   %s (%" PRIu64 " bytes)\n", f->sp_debug_unwind[i].path,
				f->sp_debug_unwind[i].size);
	}
	if (sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_ETM_BRANCH_LIST))
		fprintf(fp, "# simpleperf etm_branch_list : %" PRIu64 " bytes\n",
			f->sp_etm_branch_list_size);
	if (sampo_features__has(f, SAMPO_FEAT_SIMPLEPERF_INIT_MAP))
		fprintf(fp, "# simpleperf init_map : %" PRIu64 " bytes\n", f->sp_init_map_size);
}

static int header_file_mode(struct header_ctx *ctx)
{
	const struct sampo_file_header *h = sampo_reader__file_header(ctx->reader);
	struct sampo_features *f = ctx->feat;
	bool processing = true, damaged_btf = false, ok;
	FILE *fp = ctx->out;
	int err;

	print_frame_head(ctx);

	/*
	 * perf processes every feature, then prints them all. Features depend
	 * on features with smaller ids (CPU_TOPOLOGY on NRCPUS, GROUP_DESC on
	 * EVENT_DESC), except BPF_PROG_INFO which takes names from BPF_BTF:
	 * parsing each in turn (BPF_BTF ahead) prints the same, and prints
	 * everything before a damaged feature.
	 */
	for (int feat = SAMPO_FEAT_RESERVED + 1; feat <= SAMPO_FEAT_LAST_KNOWN; feat++) {
		if (!sampo_reader__has_feature(ctx->reader, feat))
			continue;
		if (processing && feat == SAMPO_FEAT_BPF_PROG_INFO &&
		    sampo_reader__has_feature(ctx->reader, SAMPO_FEAT_BPF_BTF)) {
			err = file_parse_feature(ctx, SAMPO_FEAT_BPF_BTF);
			if (err < 0)
				return err;
			damaged_btf = err > 0;
		}
		/*
		 * A damaged feature is left out with a warning and prints as
		 * empty; the others are read (where perf notices the damage, it
		 * stops processing: later features print as if empty there).
		 */
		if (processing && !sampo_features__has(f, feat) &&
		    !(feat == SAMPO_FEAT_BPF_BTF && damaged_btf)) {
			err = file_parse_feature(ctx, feat);
			if (err < 0)
				return err;
		}
		if (processing) {
			err = perf61_processed(ctx, feat, &ok);
			if (err)
				return err;
			if (!ok) {
				processing = false;
				if (feat == SAMPO_FEAT_BPF_PROG_INFO)
					f->nr_btfs = 0; /* perf never got to BPF_BTF */
			}
		}
		if (!feature_has_printer(feat))
			continue;
		if (feature_full_only(feat) && !ctx->full) {
			fprintf(fp, "# %s info available, use -I to display\n",
				sampo_feature__name(feat));
			continue;
		}
		err = print_feature(ctx, feat);
		if (err)
			return err;
	}

	for (int feat = SAMPO_FEAT_SIMPLEPERF_FILE; feat <= SAMPO_FEAT_SIMPLEPERF_LAST; feat++) {
		if (!sampo_reader__has_feature(ctx->reader, feat) || sampo_features__has(f, feat))
			continue;
		err = file_parse_feature(ctx, feat);
		if (err < 0)
			return err;
	}
	print_simpleperf(ctx);

	fprintf(fp, "# missing features: ");
	for (int feat = SAMPO_FEAT_RESERVED + 1; feat <= SAMPO_FEAT_LAST_KNOWN; feat++) {
		if (!(h->adds_features[feat / 64] & (1ULL << (feat % 64))))
			fprintf(fp, "%s ", sampo_feature__name(feat));
	}
	fprintf(fp, "\n# ========\n#\n");

	/*
	 * A file cut inside its data section has no feature table: perf then
	 * prints the frame alone, and so do we, but say why.
	 */
	for (int feat = 0; feat < SAMPO_FEAT_MAX_BITS; feat++) {
		if ((h->adds_features[feat / 64] & (1ULL << (feat % 64))) &&
		    !sampo_reader__has_feature(ctx->reader, feat)) {
			fflush(fp);
			return cli_err(0,
				       "%s: the file ends at %" PRIu64
				       " bytes, before its feature table (offset %#" PRIx64 ")",
				       sampo_reader__name(ctx->reader),
				       sampo_reader__file_size(ctx->reader),
				       h->data.offset + h->data.size);
		}
	}
	return 0;
}

/*
 * One record of a pipe. Return: 0 to go on, 1 to stop with ctx->ret as the
 * command's result.
 */
static int header_pipe_record(void *arg, struct sampo_session *session,
			      const struct sampo_event *ev)
{
	struct header_ctx *ctx = arg;
	const struct sampo_record_feature *rec = &ev->record->feature;
	FILE *fp = ctx->out;
	size_t size;
	bool ok;
	int feat, err;

	(void)session;
	if (rec->header.type >= PERF61_RECORD_HEADER_MAX) {
		fflush(fp);
		cli_warn("%s: record at offset %#" PRIx64 " has type %u, unknown to perf 6.1: "
			 "stopping, as perf does",
			 sampo_reader__name(ctx->reader), ev->offset, rec->header.type);
		return 1;
	}
	if (rec->header.type != SAMPO_RECORD_HEADER_FEATURE)
		return 0;
	if (rec->feat_id == PERF61_LAST_FEATURE)
		return 1;
	if (rec->feat_id == SAMPO_FEAT_RESERVED || rec->feat_id > PERF61_LAST_FEATURE) {
		fflush(fp);
		ctx->ret = cli_err(0, "%s: record at offset %#" PRIx64 ": invalid feature id %" PRIu64,
				   sampo_reader__name(ctx->reader), ev->offset, rec->feat_id);
		return 1;
	}
	feat = (int)rec->feat_id;
	switch (feat) {
	case SAMPO_FEAT_BRANCH_STACK:
	case SAMPO_FEAT_STAT:
		return 0; /* no process op in perf 6.1: ignored */
	case SAMPO_FEAT_TRACING_DATA:
	case SAMPO_FEAT_AUXTRACE:
	case SAMPO_FEAT_DIR_FORMAT:
		/*
		 * perf 6.1 reads these from its standard input instead
		 * of the record, fails and stops there. perf record
		 * never writes them in pipe mode.
		 */
		fflush(fp);
		cli_warn("%s: feature %s in pipe mode: stopping, as perf 6.1 does",
			 sampo_reader__name(ctx->reader), sampo_feature__name(feat));
		return 1;
	default:
		break;
	}
	size = rec->header.size - sizeof(*rec);
	err = parse_feature(ctx, feat, rec->data, size, ev->offset + sizeof(*rec));
	if (err == -SAMPO_ERR_MALFORMED && feat == SAMPO_FEAT_BUILD_ID)
		return 0; /* reported; perf ignores it too, nothing is printed */
	if (!err)
		err = perf61_processed(ctx, feat, &ok);
	if (err) {
		ctx->ret = err;
		return 1;
	}
	if (!ok) {
		/* perf's processing of the record fails: it stops before printing */
		fflush(fp);
		cli_warn("%s: feature %s at offset %#" PRIx64 " is refused by perf 6.1: "
			 "stopping, as perf does",
			 sampo_reader__name(ctx->reader), sampo_feature__name(feat), ev->offset);
		return 1;
	}
	if (!feature_has_printer(feat))
		return 0;
	if (feature_full_only(feat) && !ctx->full) {
		fprintf(fp, "# %s info available, use -I to display\n", sampo_feature__name(feat));
		return 0;
	}
	err = print_feature(ctx, feat);
	if (err) {
		ctx->ret = err;
		return 1;
	}
	return 0;
}

/*
 * Pipe mode: print the (empty) frame, then each feature as perf's
 * perf_event__process_feature() does when its HEADER_FEATURE record passes.
 */
static int header_pipe_mode(struct header_ctx *ctx)
{
	const struct sampo_tool tool = { .other = header_pipe_record };
	int ret;

	print_frame_head(ctx);
	fprintf(ctx->out, "# ========\n#\n");

	ctx->ret = 0;
	ret = sampo_session__process(ctx->session, &tool, ctx);
	if (ret > 0)
		return ctx->ret;
	if (ret < 0) {
		fflush(ctx->out);
		return cli_err(0, "%s", sampo_session__error(ctx->session));
	}
	return 0;
}

int header_print(const char *input, bool full, FILE *out)
{
	struct header_ctx ctx = { .input = input, .full = full, .out = out };
	char errbuf[512] = "";
	char *dir_data = NULL;
	struct stat st;
	/* the features are parsed here, one by one, with perf 6.1's outcomes */
	SAMPO_OPTS(sampo_session_opts, sopts, .raw = true, .features = SAMPO_SESSION_FEATURES_NONE,
		   .no_machine = true, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	int err;

	/* a directory written by perf record --threads: its header is in "data" */
	if (!stat(ctx.input, &st) && S_ISDIR(st.st_mode)) {
		if (asprintf(&dir_data, "%s/data", ctx.input) < 0)
			return cli_err(-ENOMEM, "%s", ctx.input);
		ctx.input = dir_data;
		ctx.is_dir = true;
	}
	err = sampo_session__open(ctx.input, &sopts, &ctx.session);
	if (err) {
		err = cli_err(0, "%s", errbuf);
		free(dir_data);
		return err;
	}
	ctx.reader = sampo_session__reader(ctx.session);
	ctx.feat = sampo_features__new();
	if (!ctx.feat) {
		err = cli_err(-ENOMEM, "%s", ctx.input);
		goto out_close;
	}
	if (sampo_reader__is_pipe(ctx.reader))
		err = header_pipe_mode(&ctx);
	else
		err = header_file_mode(&ctx);
	if (ctx.nr_damaged) {
		fflush(ctx.out);
		cli_warn_damaged_features(sampo_reader__name(ctx.reader), ctx.nr_damaged,
					  &ctx.first_damage);
	}

	sampo_features__delete(ctx.feat);
	sampo_features__delete(ctx.host);
	free(ctx.groups);
out_close:
	sampo_session__close(ctx.session);
	free(dir_data);
	return err;
}

int cmd_header(int argc, const char **argv)
{
	const char *input = "perf.data";
	bool full = false, stdio = false;
	const struct option opts[] = {
		OPT_STRING('i', "input", &input, "file", "input file name (default: perf.data)"),
		OPT_BOOLEAN('I', "show-info", &full,
			    "also print the CPU and NUMA topologies, caches and memory"),
		/* perf report --header-only --stdio: the text is the only output there is */
		OPT_BOOLEAN(0, "stdio", &stdio,
			    "text output (accepted as perf report --header-only does)"),
		OPT_END(),
	};

	argc = parse_options(argc, argv, opts, header_usage, 0);
	if (argc < 0)
		return argc;
	if (argc > 0)
		return usage_error(header_usage, opts, "too many arguments");
	return header_print(input, full, stdout);
}
