/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * inject.h - add to a perf.data file what it lacks (sampo inject): today its
 * own symbol tables, for a self-contained profile
 * (include/sampo/embedded-symbols.h).
 *
 * The output is the input with one feature section added (or replaced):
 * the header, the attrs, the ids and the data are copied byte for byte
 * (only the header's feature bitmap changes), then the feature table and
 * the feature payloads, the new one last (its bit is above every other).
 * So every reader sees the same records: perf 6.1's report of the output
 * is its report of the input.
 */
#ifndef SAMPO_INJECT_H
#define SAMPO_INJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_symbolizer_opts;

/* What an inject did. */
struct sampo_inject_stats {
	uint64_t nr_samples;  /* samples read */
	size_t nr_tables;     /* embedded tables (DSOs) */
	size_t nr_symbols;    /* embedded symbols */
	size_t section_bytes; /* the embedded section's payload */
};

struct sampo_inject_opts {
	size_t sz;
	/*
	 * Read the input with a symbolizer set up by @symbolizer (NULL:
	 * defaults), resolve every sample's address, callchain entries and
	 * branch addresses as report and script do, and embed the symbols they
	 * land in (sampo_symbolizer__embed()).
	 */
	bool embed_symbols;
	const struct sampo_symbolizer_opts *symbolizer;
	struct sampo_inject_stats *stats; /* optional, filled */
	char *errbuf;			  /* one line naming the file and the problem */
	size_t errbuf_sz;
};
#define sampo_inject_opts__last_field errbuf_sz

/**
 * sampo_inject__file() - write @output as @input with what @opts asks added
 * @input: a perf.data file (file mode: a pipe-mode stream is refused)
 * @output: the file to write (through a temporary file beside it, renamed
 *	    at the end, so @output may be @input), or "-" for standard output
 *
 * Return: 0, -EINVAL, -SAMPO_ERR_UNSUPPORTED (pipe mode, an old header),
 * -SAMPO_ERR_MALFORMED (a feature table that lies outside the file), a
 * reader or session error, or the -errno of an I/O call.
 */
SAMPO_API int sampo_inject__file(const char *input, const char *output,
				 const struct sampo_inject_opts *opts);

/**
 * sampo_inject__add_feature() - write @output as @input plus feature @feat
 * @feat: 1 to 255; an existing payload of @feat is replaced
 * @payload: in the byte order of @input's features (bytes as they are)
 * @errbuf: optional: one line naming the file and the problem
 *
 * Return: as sampo_inject__file()
 */
SAMPO_API int sampo_inject__add_feature(const char *input, const char *output, int feat,
					const void *payload, size_t len, char *errbuf,
					size_t errbuf_sz);

#endif /* SAMPO_INJECT_H */
