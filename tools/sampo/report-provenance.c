// SPDX-License-Identifier: GPL-2.0
/*
 * report-provenance.c - where each object's symbols came from
 * (sampo_symbolizer__provenance(): recorded by the symbolizer where it
 * chose the file) and, for an object left without symbols, its samples,
 * the reason and the command that would fix it. Objects are listed by
 * their samples (the sample's own IP), most first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/buildid.h>
#include <sampo/dso.h>
#include <sampo/hist.h>
#include <sampo/symbolizer.h>

#include "report-provenance.h"

struct row {
	struct sampo_dso *dso;
	uint64_t nr, resolved;
	struct sampo_symbolizer_provenance p;
	bool known; /* the symbolizer looked at it */
};

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->nr != y->nr)
		return x->nr > y->nr ? -1 : 1;
	return strcmp(sampo_dso__long_name(x->dso), sampo_dso__long_name(y->dso));
}

/* the objects with samples, most first; *@ret_total: all their samples */
static int collect(const struct sampo_hists *h, struct sampo_symbolizer *s, struct row **ret,
		   size_t *ret_nr)
{
	size_t n = sampo_hists__nr_dsos(h), nr = 0;
	struct row *rows = calloc(n ? n : 1, sizeof(*rows));

	if (!rows)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct row *r = &rows[nr];

		r->dso = sampo_hists__dso(h, i);
		r->nr = sampo_hists__dso_samples(h, r->dso, &r->resolved);
		if (!r->nr)
			continue;
		r->known = !sampo_symbolizer__provenance(s, r->dso, &r->p);
		nr++;
	}
	qsort(rows, nr, sizeof(*rows), row_cmp);
	*ret = rows;
	*ret_nr = nr;
	return 0;
}

static bool is_kernel(const struct row *r)
{
	return sampo_dso__is_kernel(r->dso);
}

/* has samples without symbols for a reason a file could fix */
static bool unresolved(const struct row *r)
{
	if (!r->known)
		return false;
	if (r->p.origin != SAMPO_ORIGIN_NONE)
		return r->p.missing == SAMPO_MISSING_NO_SYMBOLS ||
		       (r->p.stripped && r->resolved < r->nr);
	return r->p.missing != SAMPO_MISSING_NONE && r->p.missing != SAMPO_MISSING_NO_FILE;
}

static void print_bid(FILE *fp, const char *label, const struct sampo_build_id *bid)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];

	if (!bid->size || sampo_build_id__to_hex(bid, hex, sizeof(hex)) < 0)
		strcpy(hex, "(none)");
	fprintf(fp, "    %-10s%s\n", label, hex);
}

static void print_fix(FILE *fp, const struct row *r)
{
	const char *name = sampo_dso__long_name(r->dso);
	bool kernel = is_kernel(r) && !strcmp(name, "[kernel.kallsyms]");
	bool module = is_kernel(r) && !kernel;

	switch (r->p.missing) {
	case SAMPO_MISSING_FILE:
		if (kernel)
			fprintf(fp, "    %-10s-k VMLINUX or --kallsyms FILE (the recording machine's "
				"/proc/kallsyms), or on that machine `sampo buildid-cache -a` it "
				"(`sampo archive`), or DEBUGINFOD_URLS=URL\n", "fix");
		else if (module)
			fprintf(fp, "    %-10s--symfs DIR holding lib/modules/RELEASE of the recording "
				"machine, or `sampo buildid-cache -a %s` there, or DEBUGINFOD_URLS=URL\n",
				"fix", r->p.path ? r->p.path : "MODULE.ko");
		else
			fprintf(fp, "    %-10s`sampo buildid-cache -a %s` on the recording machine (or "
				"`sampo archive` there), --symfs DIR, or DEBUGINFOD_URLS=URL\n", "fix",
				name);
		break;
	case SAMPO_MISSING_NO_BUILD_ID:
		fprintf(fp, "    %-10sno build-id to look it up by: put the file at its path or "
			"under --symfs DIR (and record with build-ids next time)\n", "fix");
		break;
	case SAMPO_MISSING_BUILD_ID_MISMATCH:
		fprintf(fp, "    %-10sthe recorded version, by build-id: `sampo buildid-cache -a "
			"%s` on the recording machine, --symfs DIR, or DEBUGINFOD_URLS=URL; "
			"--force uses the file found (wrong if the code moved)\n", "fix",
			kernel ? "VMLINUX" : name);
		break;
	case SAMPO_MISSING_WRONG_ARCH:
		fprintf(fp, "    %-10sthe recording machine's files: --symfs DIR, its build-id "
			"cache (`sampo archive` there), or DEBUGINFOD_URLS=URL\n", "fix");
		break;
	case SAMPO_MISSING_NO_SYMBOLS:
		fprintf(fp, "    %-10sits debug file (/usr/lib/debug/.build-id/, a -dbgsym "
			"package) or DEBUGINFOD_URLS=URL\n", "fix");
		break;
	case SAMPO_MISSING_UNREADABLE:
		fprintf(fp, "    %-10sa readable copy with the recorded build-id (see the "
			"warnings above for what failed)\n", "fix");
		break;
	case SAMPO_MISSING_REPLACED:
		fprintf(fp, "    %-10srecord with build-ids (perf record --buildid-mmap) so that "
			"the versions can be told apart\n", "fix");
		break;
	case SAMPO_MISSING_NOT_RELOCATABLE:
		fprintf(fp, "    %-10srecord with kernel.kptr_restrict=0 (the kernel's _text was "
			"hidden), or --force to use the symbols unrelocated\n", "fix");
		break;
	case SAMPO_MISSING_NO_FILE:
		fprintf(fp, "    %-10sa JIT can name its code in /tmp/perf-PID.map\n", "fix");
		break;
	default:
		break;
	}
}

static void print_row(FILE *fp, const struct row *r)
{
	const struct sampo_symbolizer_provenance *p = &r->p;

	fprintf(fp, "%s\n", sampo_dso__long_name(r->dso));
	fprintf(fp, "    %-10s%" PRIu64 " (%" PRIu64 " resolved)\n", "samples", r->nr,
		r->resolved);
	if (!r->known) {
		fprintf(fp, "    %-10snot looked up\n", "symbols");
		return;
	}
	if (p->origin != SAMPO_ORIGIN_KSYMBOL)
		print_bid(fp, "build-id", &p->recorded);
	if (p->origin != SAMPO_ORIGIN_NONE) {
		fprintf(fp, "    %-10s%s%s%s\n", "symbols", sampo_symbol_origin__name(p->origin),
			p->path ? ": " : "", p->path ? p->path : "");
		if (p->missing == SAMPO_MISSING_NO_SYMBOLS) {
			fprintf(fp, "    %-10s%s\n", "missing", sampo_symbol_missing__name(p->missing));
			print_fix(fp, r);
		} else if (p->stripped && r->resolved < r->nr) {
			struct row fix = *r;

			fprintf(fp, "    %-10sonly its dynamic symbols (stripped): %" PRIu64
				" samples unresolved\n", "missing", r->nr - r->resolved);
			fix.p.missing = SAMPO_MISSING_NO_SYMBOLS;
			print_fix(fp, &fix);
		}
		return;
	}
	fprintf(fp, "    %-10snone: %s", "symbols", sampo_symbol_missing__name(p->missing));
	if (p->path && (p->missing == SAMPO_MISSING_BUILD_ID_MISMATCH ||
			p->missing == SAMPO_MISSING_WRONG_ARCH ||
			p->missing == SAMPO_MISSING_UNREADABLE ||
			p->missing == SAMPO_MISSING_NOT_RELOCATABLE))
		fprintf(fp, " ('%s')", p->path);
	fputc('\n', fp);
	if (p->missing == SAMPO_MISSING_BUILD_ID_MISMATCH || p->missing == SAMPO_MISSING_WRONG_ARCH)
		print_bid(fp, "found", &p->found);
	if (p->tried)
		fprintf(fp, "    %-10s%s\n", "tried", p->tried);
	print_fix(fp, r);
}

int report_provenance_print(FILE *fp, const struct sampo_hists *h, struct sampo_symbolizer *s)
{
	struct row *rows;
	size_t nr, nr_unresolved = 0;
	uint64_t total = 0, lost = 0;
	int err = collect(h, s, &rows, &nr);

	if (err)
		return err;
	for (size_t i = 0; i < nr; i++) {
		total += rows[i].nr;
		if (unresolved(&rows[i])) {
			nr_unresolved++;
			lost += rows[i].nr - rows[i].resolved;
		}
	}
	fprintf(fp, "# Where the symbols of each object with samples came from\n");
	fprintf(fp, "# %zu objects with %" PRIu64 " samples; %zu without symbols for %" PRIu64
		    " of them\n#\n",
		nr, total, nr_unresolved, lost);
	for (size_t i = 0; i < nr; i++)
		print_row(fp, &rows[i]);
	free(rows);
	return 0;
}

void report_provenance_summary(FILE *fp, const struct sampo_hists *h, struct sampo_symbolizer *s)
{
	struct row *rows;
	size_t nr, nr_unresolved = 0;
	uint64_t total = 0, lost = 0;

	if (collect(h, s, &rows, &nr))
		return;
	for (size_t i = 0; i < nr; i++) {
		total += rows[i].nr;
		if (unresolved(&rows[i])) {
			nr_unresolved++;
			lost += rows[i].nr - rows[i].resolved;
		}
	}
	free(rows);
	if (!nr_unresolved)
		return;
	fprintf(fp,
		"# sampo: %zu object%s lack%s symbols for %.2f%% of the samples: "
		"sampo report --provenance says why\n#\n",
		nr_unresolved, nr_unresolved == 1 ? "" : "s", nr_unresolved == 1 ? "s" : "",
		total ? 100.0 * (double)lost / (double)total : 0.0);
}
