/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/reader.h - what lib/reader.c (the records) and lib/reader-header.c
 * (the file header, attrs and feature table read at open) share: the reader's
 * state and the few helpers both call.
 */
#ifndef SAMPO_INTERNAL_READER_H
#define SAMPO_INTERNAL_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/reader.h>
#include "internal/inflate.h"
#include "internal/ordered-events.h"
#include "internal/reader-source.h"
#include "internal/util.h"

#define MAX_ATTRS 65536U	      /* more attrs than any real file has */

struct attr_entry {
	struct sampo_event_attr attr;
	uint64_t *ids; /* file mode: shared, in id_bufs; pipe mode: its own */
	size_t nr_ids;
	bool own_ids;
};

/* Open addressing, id → attr index; id 0 is never stored (synthesized records use it). */
struct id_table {
	uint64_t *keys;
	int32_t *vals;
	size_t cap; /* power of two */
	size_t nr;
};

/*
 * ST_DRAIN: reading failed in ordered mode; the records already queued are
 * handed out before the error, so nothing valid is lost.
 */
enum reader_state { ST_DATA, ST_END, ST_DRAIN, ST_FAILED };

struct feature_slot {
	uint64_t offset, size;
	uint8_t *data; /* loaded copy (file mode), or the payload (pipe mode) */
	bool present;
};

struct sampo_reader {
	char *name;
	struct sampo_source src;
	bool own_fd;
	bool pipe;
	bool swap;
	bool ordered;
	bool raw;
	enum reader_state state;
	int last_err; /* returned again by every call after a failure */
	char err[512];
	char *errbuf; /* the caller's, from opts */
	size_t errbuf_sz;

	struct sampo_file_header header;
	uint64_t file_size;
	int64_t mtime;

	struct attr_entry *attrs;
	size_t nr_attrs, attrs_cap;
	uint64_t **id_bufs; /* file mode: one copy per distinct ids section */
	size_t nr_id_bufs;
	struct id_table ids;
	int id_pos, is_pos; /* where ids sit in samples / other records (first attr's) */
	bool sample_id_all; /* of the first attr */

	struct feature_slot features[SAMPO_FEAT_MAX_BITS];

	uint64_t pos;	   /* source offset of the next record */
	uint64_t data_end; /* file mode: end of the data section (clamped to the file) */
	bool data_truncated;
	/*
	 * the header announces no data (data.size 0): the recorder never
	 * finished; records are read to the end of the file, and a record cut
	 * by the end of the file ends them (with a warning) instead of failing
	 */
	bool unfinished;
	bool v1; /* magic PERFFILE: perf's first file format, the layout of the second */
	uint64_t offset_base; /* subtracted from source offsets for sampo_event.offset */

	union sampo_record *recbuf; /* aligned copy of the current record (64 KiB + 8) */
	/* records in [stable_lo, stable_hi) stay valid until close (sampo_source__stable()) */
	const uint8_t *stable_lo, *stable_hi;
	bool stable_asked;
	struct sampo_event ev; /* sampo_reader__next_ref()'s event without a reading thread */
	uint64_t drop_at; /* pos at which pages behind are given back next */
	struct sampo_inflate decomp;
	bool comp_cap_read; /* file mode: the COMPRESSED feature's buffer size was looked up */
	union sampo_record *pending; /* HEADER_ATTR/FEATURE to apply before the next record */

	struct sampo_ordered_events queue;
	struct sampo_reader_stats stats;

	unsigned int warned_mmap2_build_id;
	bool threaded;
	struct sampo_prefetch *pf; /* threaded mode, once the first record was asked for */
};

/* Fail the reader: "NAME: " + the message into its error (and the caller's errbuf); returns @err. */
int sampo_reader__fail(struct sampo_reader *r, int err, const char *fmt, ...) SAMPO_PRINTF(3, 4);

/* Fail the reader with a read error at @off. */
int sampo_reader__io_fail(struct sampo_reader *r, int err, uint64_t off);

/* Add an attr (its first @attr_len bytes) and take ownership of @ids. */
int sampo_reader__add_attr(struct sampo_reader *r, const void *attr_bytes, size_t attr_len,
			   uint64_t *ids, size_t nr_ids);

/* Map @nr_ids ids (borrowed) to attr @idx in the id table; a later call wins an id. */
int sampo_reader__add_ids(struct sampo_reader *r, size_t idx, const uint64_t *ids, size_t nr_ids);

/* Read exactly @len bytes at @off (open, lazy features); a short input is truncation. */
int sampo_reader__read_at(struct sampo_reader *r, uint64_t off, void *dst, size_t len,
			  const char *what);

/* Read the file header, then (file mode) the attrs with their ids and the feature table. */
int sampo_reader__read_header(struct sampo_reader *r);

/*
 * sampo_reader__next_ref() - as sampo_reader__next(), without the copy of
 * the event: *@ev points to the reader's own (in the read-ahead batch, or in
 * the reader) until the next call. For the session's loop.
 */
int sampo_reader__next_ref(struct sampo_reader *r, const struct sampo_event **ev);

#endif
