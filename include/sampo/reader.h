/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * reader.h - stream the records of a perf.data file or pipe.
 *
 * The reader walks the data section once, in windows, so its memory follows
 * the size of one time-ordering round and not the size of the file. It hands
 * out each record in native byte order, tells which attr it belongs to,
 * decodes its sample fields, and transparently inflates COMPRESSED records.
 */
#ifndef SAMPO_READER_H
#define SAMPO_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>
#include <sampo/event.h>
#include <sampo/sample.h>

struct sampo_reader;

struct sampo_reader_opts {
	size_t sz;
	/*
	 * Deliver records in the order perf delivers them: records with a
	 * timestamp are queued and released round by round at each
	 * FINISHED_ROUND (and at the end); records without one, and the tool
	 * records (type >= 64), are delivered when read. Default: file order.
	 */
	bool ordered;
	/*
	 * Skip decoding of sample fields: struct sampo_event.sample is left
	 * zeroed except for its cpumode/misc. For bare walks.
	 */
	bool raw;
	/* Where a one-line description of an open or read failure goes. */
	char *errbuf;
	size_t errbuf_sz;
	/*
	 * Read, decode and order the records in a second thread, a few
	 * thousand records ahead of the caller (files only; pipes are read in
	 * the caller's thread). The records and their order are the same.
	 * While that thread runs, sampo_reader__feature() returns -EBUSY: read
	 * the features before the first sampo_reader__next().
	 */
	bool threaded;
};
#define sampo_reader_opts__last_field threaded

/* One record, as handed out by sampo_reader__next(). */
struct sampo_event {
	/* native byte order, 8-byte aligned; valid until the next call */
	const union sampo_record *record;
	/*
	 * Offset of the record as perf prints it: from the start of the file
	 * in file mode, from the end of the 16-byte header in pipe mode, and
	 * the offset of the enclosing COMPRESSED record for inflated records.
	 */
	uint64_t offset;
	int attr_idx;		    /* attr of the record, -1 when none (tool records) */
	struct sampo_sample sample; /* SAMPLE fields, or the sample_id trailer */
	bool has_sample_id;	    /* .sample holds a decoded sample_id trailer */
	bool decompressed;	    /* came out of a COMPRESSED record */
	/*
	 * HEADER_TRACING_DATA and AUXTRACE carry bytes past header.size
	 * (simpleperf's TRACING_DATA of type 66 points inside the record);
	 * a simpleperf record (SAMPO_SIMPLEPERF_RECORD_*) over 64 KiB comes
	 * as its 8-byte header alone (misc 0, size 8) with its body here.
	 * payload is NULL when the bytes are too many to map at once.
	 */
	const void *payload;
	size_t payload_size;
};

/* Counts of records read so far, by type (all of them, delivered or not). */
struct sampo_reader_stats {
	uint64_t nr_records[SAMPO_RECORD_MAX];
	uint64_t nr_unknown_type; /* records skipped because their type is unknown */
	uint64_t nr_unknown_id;	  /* samples whose id matches no attr */
	uint64_t nr_out_of_order; /* ordered mode: queued behind an earlier flush */
	uint64_t bytes_read;	  /* of the data section */
};

/**
 * sampo_reader__open() - open a perf.data file, or a stream in pipe format
 * @path: file name; "-" reads standard input
 * @opts: optional; NULL means defaults
 * @ret_reader: on success, the new reader; free with sampo_reader__close()
 *
 * Reads the header, the attrs and ids, and (file mode) the feature table.
 * Return: 0, or -errno, -SAMPO_ERR_BAD_MAGIC, -SAMPO_ERR_TRUNCATED,
 * -SAMPO_ERR_MALFORMED, -SAMPO_ERR_UNSUPPORTED; opts->errbuf says why.
 */
SAMPO_API int sampo_reader__open(const char *path, const struct sampo_reader_opts *opts,
				 struct sampo_reader **ret_reader);

/**
 * sampo_reader__open_fd() - like sampo_reader__open() on an open descriptor
 * @fd: borrowed; a regular file is mapped, anything else is read as a stream
 * @name: name used in messages
 */
SAMPO_API int sampo_reader__open_fd(int fd, const char *name,
				    const struct sampo_reader_opts *opts,
				    struct sampo_reader **ret_reader);

/**
 * sampo_reader__open_mem() - read a perf.data image held in memory
 * @buf: borrowed; must outlive the reader
 * @len: bytes in @buf
 * @name: name used in messages
 */
SAMPO_API int sampo_reader__open_mem(const void *buf, size_t len, const char *name,
				     const struct sampo_reader_opts *opts,
				     struct sampo_reader **ret_reader);

/** sampo_reader__close() - free the reader; NULL is allowed */
SAMPO_API void sampo_reader__close(struct sampo_reader *reader);

/**
 * sampo_reader__next() - the next record
 * @ev: filled in on success
 *
 * Tool records that change the reader's own state (HEADER_ATTR,
 * HEADER_FEATURE in pipe mode) take effect after they have been handed out,
 * so that a caller sees the state as it was before the record.
 *
 * Return: 1 with @ev filled, 0 at the end, or a negative error; after an
 * error sampo_reader__error() says what and where, and the reader stays at
 * the end.
 */
SAMPO_API int sampo_reader__next(struct sampo_reader *reader, struct sampo_event *ev);

/**
 * sampo_reader__stable() - whether the @len bytes at @p (a record handed out,
 * or a field of its sample) stay valid until sampo_reader__close(), not only
 * until the next call: true for a regular file mapped whole (a record not
 * copied out for alignment, byte swapping or decompression) and for
 * sampo_reader__open_mem()'s buffer; false for pipes. A caller may then keep
 * pointers into the record instead of copying it. Call it from the thread
 * that calls sampo_reader__next().
 */
SAMPO_API bool sampo_reader__stable(struct sampo_reader *reader, const void *p, size_t len);

/** sampo_reader__error() - one line describing the last failure, or "" */
SAMPO_API const char *sampo_reader__error(const struct sampo_reader *reader);

SAMPO_API const char *sampo_reader__name(const struct sampo_reader *reader);
SAMPO_API bool sampo_reader__is_pipe(const struct sampo_reader *reader);
/**
 * sampo_reader__version() - the file format: 2 (magic PERFILE2), or 1 for
 * perf's first format (magic PERFFILE, its byte order told by the attr size)
 */
SAMPO_API int sampo_reader__version(const struct sampo_reader *reader);
/** sampo_reader__needs_swap() - the file's byte order is not the host's */
SAMPO_API bool sampo_reader__needs_swap(const struct sampo_reader *reader);
/**
 * sampo_reader__file_header() - the file header, in host byte order
 *
 * In pipe mode only magic and size are set.
 */
SAMPO_API const struct sampo_file_header *
sampo_reader__file_header(const struct sampo_reader *reader);
/** sampo_reader__file_size() - bytes of the input (0 for a stream) */
SAMPO_API uint64_t sampo_reader__file_size(const struct sampo_reader *reader);
/** sampo_reader__mtime() - modification time of the input, seconds since the epoch */
SAMPO_API int64_t sampo_reader__mtime(const struct sampo_reader *reader);

/** sampo_reader__nr_attrs() - attrs known so far (pipe mode: grows as HEADER_ATTRs pass) */
SAMPO_API size_t sampo_reader__nr_attrs(const struct sampo_reader *reader);
/** sampo_reader__attr() - attr @idx in host order, zero-extended to the largest known size */
SAMPO_API const struct sampo_event_attr *sampo_reader__attr(const struct sampo_reader *reader,
							   size_t idx);
/** sampo_reader__attr_ids() - the event ids of attr @idx; *@nr gets their count */
SAMPO_API const uint64_t *sampo_reader__attr_ids(const struct sampo_reader *reader, size_t idx,
						 size_t *nr);
/** sampo_reader__attr_by_id() - index of the attr that owns event @id, or -1 */
SAMPO_API int sampo_reader__attr_by_id(const struct sampo_reader *reader, uint64_t id);

/** sampo_reader__has_feature() - feature @feat is present (pipe mode: seen so far) */
SAMPO_API bool sampo_reader__has_feature(const struct sampo_reader *reader, int feat);
/**
 * sampo_reader__feature() - the raw payload of feature @feat
 * @data: set to the bytes, in the FILE's byte order; valid while the reader lives
 * @size: set to their count
 *
 * Return: 0, -ENOENT when absent, or a read error.
 */
SAMPO_API int sampo_reader__feature(struct sampo_reader *reader, int feat, const void **data,
				    size_t *size);
/** sampo_reader__feature_offset() - file offset of feature @feat's payload (0 in pipe mode) */
SAMPO_API uint64_t sampo_reader__feature_offset(const struct sampo_reader *reader, int feat);

SAMPO_API const struct sampo_reader_stats *sampo_reader__stats(const struct sampo_reader *reader);

/**
 * sampo_sample__parse() - decode a SAMPLE record or the sample_id trailer of another
 * @attr: the record's attr (its sample_type, read_format, regs masks, ...)
 * @rec: the record, host order as the reader hands it out
 * @swapped: the record came from an opposite-endian file (perf's swap leaves
 *           pairs of u32 crossed; this undoes it)
 * @sample: filled in
 *
 * Return: 0, or -SAMPO_ERR_MALFORMED when a field runs past the record.
 */
SAMPO_API int sampo_sample__parse(const struct sampo_event_attr *attr,
				  const union sampo_record *rec, bool swapped,
				  struct sampo_sample *sample);

/** sampo_record__name() - "MMAP", "SAMPLE", ... or NULL for an unknown type */
SAMPO_API const char *sampo_record__name(uint32_t type);

/**
 * sampo_feature__name() - "HOSTNAME", "BUILD_ID", ..., "SIMPLEPERF_FILE2" (simpleperf's
 * ids from 128), or NULL for an unknown id
 */
SAMPO_API const char *sampo_feature__name(int feat);

#endif /* SAMPO_READER_H */
