/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * embedded-symbols.h - symbol tables carried inside a perf.data file, so
 * that a profile names its samples on a machine that has none of the
 * recorded files (a self-contained profile).
 *
 * Write side: `sampo inject --embed-symbols` and `sampo record
 * --embed-symbols` read the profile once with a symbolizer that notes every
 * symbol a sample's address, callchain entry or branch lands in
 * (struct sampo_symbolizer_opts.track_hits); sampo_symbolizer__embed()
 * then copies those symbols, per DSO and keyed by the DSO's build-id, into
 * a struct sampo_embedded_symbols, and sampo_embedded_symbols__encode()
 * makes the feature payload (zstd-compressed) that sampo_inject__file()
 * adds to the file as feature SAMPO_FEAT_EMBEDDED_SYMBOLS.
 *
 * Read side: a session reads the section (sampo_embedded_symbols__read())
 * and hands it to its symbolizer (struct sampo_symbolizer_opts
 * .embedded_symbols); each DSO whose recorded build-id has a table there
 * uses it when no local file with that build-id is found
 * (docs/symbols.md has the order). The format is
 * docs/format-embedded-symbols.md: versioned, every integer little-endian
 * whatever the byte order of the perf.data file.
 *
 * perf 6.1 reads a file with this section: it skips feature bits past its
 * last one (HEADER_LAST_FEATURE, 32), and a bit far above keeps perf's
 * own future features clear of it.
 */
#ifndef SAMPO_EMBEDDED_SYMBOLS_H
#define SAMPO_EMBEDDED_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/buildid.h>
#include <sampo/common.h>

struct sampo_reader;
struct sampo_writer;
struct sampo_embedded_symbols;

/* Feature bit of the embedded symbol tables (the module section maps are 192). */
#define SAMPO_FEAT_EMBEDDED_SYMBOLS 193

/* The version this library writes and the only one it reads. */
#define SAMPO_EMBEDDED_SYMBOLS_VERSION 1

/* What a table holds the symbols of. */
enum sampo_embedded_kind {
	SAMPO_EMBEDDED_USER = 1,     /* a user DSO or [vdso]: ELF virtual addresses */
	SAMPO_EMBEDDED_KERNEL = 2,   /* the kernel: its source's addresses and _text */
	SAMPO_EMBEDDED_MODULE = 3,   /* a kernel module, as its .ko was placed */
	SAMPO_EMBEDDED_KALLSYMS = 4, /* the kallsyms snapshot kept beside a vmlinux (modules) */
};

/* One table, as sampo_embedded_symbols__table() describes it. */
struct sampo_embedded_table_info {
	int kind;		    /* enum sampo_embedded_kind */
	const char *name;	    /* the DSO ("/usr/bin/foo", "[kernel.kallsyms]", "ext4") */
	struct sampo_build_id bid;  /* what it is keyed by */
	size_t nr_symbols;
};

/** sampo_embedded_symbols__new() - an empty set; NULL when out of memory */
SAMPO_API struct sampo_embedded_symbols *sampo_embedded_symbols__new(void);

/** sampo_embedded_symbols__delete() - free it; NULL is fine */
SAMPO_API void sampo_embedded_symbols__delete(struct sampo_embedded_symbols *es);

/** sampo_embedded_symbols__nr_tables() - how many tables (one per DSO) */
SAMPO_API size_t sampo_embedded_symbols__nr_tables(const struct sampo_embedded_symbols *es);

/** sampo_embedded_symbols__nr_symbols() - how many symbols in all the tables */
SAMPO_API size_t sampo_embedded_symbols__nr_symbols(const struct sampo_embedded_symbols *es);

/**
 * sampo_embedded_symbols__table() - table @idx (in the order of the section)
 * @info: filled; its strings are borrowed from @es
 * Return: 0, or -ENOENT past the last one
 */
SAMPO_API int sampo_embedded_symbols__table(const struct sampo_embedded_symbols *es, size_t idx,
					    struct sampo_embedded_table_info *info);

/**
 * sampo_embedded_symbols__set_origin() - what --provenance names as the
 * place of these symbols (the profile's path); copied
 * Return: 0, -ENOMEM
 */
SAMPO_API int sampo_embedded_symbols__set_origin(struct sampo_embedded_symbols *es,
						 const char *origin);

/**
 * sampo_embedded_symbols__encode() - the feature payload
 * @ret_buf: on success, the bytes (header and zstd frame); free() them
 * @ret_len: their size
 *
 * Return: 0, -ENOMEM, -EFBIG (a body over the 256 MiB the reader takes),
 * -SAMPO_ERR_DECOMPRESS (zstd refused to compress)
 */
SAMPO_API int sampo_embedded_symbols__encode(const struct sampo_embedded_symbols *es,
					     void **ret_buf, size_t *ret_len);

/**
 * sampo_embedded_symbols__parse() - decode a payload
 * @buf: the payload (any alignment); borrowed
 * @errbuf: optional; on -SAMPO_ERR_MALFORMED or -SAMPO_ERR_UNSUPPORTED,
 *	    where and what ("table 2 (at body offset 0x1a0): symbol 7 starts
 *	    before symbol 6")
 *
 * Every count, offset, string and address is checked: nothing is read
 * outside the payload, and the body inflates to at most 256 MiB (and to at
 * most 1024 times the compressed bytes, plus 1 MiB).
 * Return: 0, -SAMPO_ERR_MALFORMED, -SAMPO_ERR_UNSUPPORTED (another version
 * or compression), -SAMPO_ERR_DECOMPRESS, -ENOMEM
 */
SAMPO_API int sampo_embedded_symbols__parse(const void *buf, size_t len,
					    struct sampo_embedded_symbols **ret, char *errbuf,
					    size_t errbuf_sz);

/**
 * sampo_embedded_symbols__read() - the embedded tables of an open file
 * @errbuf: optional, as for sampo_embedded_symbols__parse()
 * Return: 0, -ENOENT when the file has none, or as sampo_embedded_symbols__parse()
 */
SAMPO_API int sampo_embedded_symbols__read(struct sampo_reader *reader,
					   struct sampo_embedded_symbols **ret, char *errbuf,
					   size_t errbuf_sz);

/**
 * sampo_embedded_symbols__write() - store the set in a perf.data being written
 *
 * File mode only: a pipe would carry it as a HEADER_FEATURE record, which
 * perf 6.1 warns about.
 * Return: as sampo_embedded_symbols__encode(), then sampo_writer__set_feature()
 */
SAMPO_API int sampo_embedded_symbols__write(const struct sampo_embedded_symbols *es,
					    struct sampo_writer *w);

#endif /* SAMPO_EMBEDDED_SYMBOLS_H */
