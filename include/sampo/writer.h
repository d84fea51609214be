/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * writer.h - write a perf.data file or stream, in either byte order.
 *
 * The writer is what `sampo record`, the benchmark generator and the tests
 * use to produce perf.data: a file in the layout perf 6.1 writes (header,
 * ids, attrs, data, feature table, feature payloads) or a pipe-mode stream
 * (16-byte header, HEADER_ATTR / HEADER_FEATURE records, records).
 *
 * Callers always hand in HOST byte order values (struct sampo_event_attr,
 * union sampo_record, struct sampo_sample); the writer stores them in the
 * byte order asked for, field by field, so a big-endian file is a true
 * big-endian file that perf 6.1 reads back as intended. The exceptions,
 * where perf expects something other than a plain field swap, are listed in
 * docs/writer.md (attr flags bitfield, branch flags, feature payloads).
 *
 * Records stream through a fixed buffer: memory does not grow with the
 * number of records. Typical use:
 *
 *	SAMPO_OPTS(sampo_writer_opts, opts, .byte_order = SAMPO_BYTE_ORDER_BIG);
 *	err = sampo_writer__open("perf.data", &opts, &w);
 *	idx = sampo_writer__add_attr(w, &attr, ids, nr_ids);
 *	err = sampo_writer__write_comm(w, pid, tid, "burn", true, NULL);
 *	err = sampo_writer__write_sample(w, idx, SAMPO_CPUMODE_USER, &sample);
 *	err = sampo_writer__set_feature_string(w, SAMPO_FEAT_HOSTNAME, "host");
 *	err = sampo_writer__close(w);
 */
#ifndef SAMPO_WRITER_H
#define SAMPO_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>
#include <sampo/event.h>
#include <sampo/sample.h>

struct sampo_writer;

enum sampo_byte_order {
	SAMPO_BYTE_ORDER_HOST = 0, /* the machine the writer runs on */
	SAMPO_BYTE_ORDER_LITTLE,
	SAMPO_BYTE_ORDER_BIG,
};

struct sampo_writer_opts {
	size_t sz;
	enum sampo_byte_order byte_order;
	/*
	 * Pipe format: 16-byte header, attrs as HEADER_ATTR records, features
	 * as HEADER_FEATURE records, build-ids as HEADER_BUILD_ID records, no
	 * data size. Needs no seeking, so it can go to a pipe or stdout.
	 */
	bool pipe;
	/*
	 * File mode: keep the file readable at every moment, for a recorder
	 * that may be killed (SIGKILL, OOM killer) or cut by a crash. The
	 * header is written as soon as the attrs are out and rewritten in
	 * place after each flush, with the size of the data on disk and a
	 * feature table of the features set so far (written after the data,
	 * up to 64 KiB of them); the header never claims more than what was
	 * written before it. Costs two or three extra writes per flush.
	 */
	bool keep_readable;
};
#define sampo_writer_opts__last_field keep_readable

/**
 * sampo_writer__open() - create (or truncate) a file and start writing perf.data
 * @path: file to create (O_CREAT|O_TRUNC|O_CLOEXEC, mode 0600); "-" means
 *        standard output, as with sampo_writer__open_fd(1)
 * @opts: optional; NULL means file mode in host byte order
 * @ret_writer: on success, the new writer; finish with sampo_writer__close()
 *
 * In a directory others may write to (world-writable or sticky, as /tmp),
 * no link at @path is followed: the file is created with O_EXCL |
 * O_NOFOLLOW, and an existing one is truncated only if it is a regular file
 * owned by the caller with a single link. In the caller's own directories a
 * symlink is followed, as perf does.
 *
 * Return: 0, -EINVAL (bad opts), -ENOMEM, -ELOOP (@path is a symbolic link,
 * dangling or not, in a shared directory), -EEXIST (@path in a shared
 * directory is not a regular file of the caller's alone: another user's,
 * a hard link, a FIFO), or the -errno of open(2).
 */
SAMPO_API int sampo_writer__open(const char *path, const struct sampo_writer_opts *opts,
				 struct sampo_writer **ret_writer);

/**
 * sampo_writer__open_fd() - write perf.data to an open descriptor
 * @fd: borrowed, never closed by the writer. File mode needs a seekable
 *      descriptor (the header is rewritten at close), and the file starts
 *      at the descriptor's current offset; pipe mode takes anything.
 * @opts: optional; NULL means file mode in host byte order
 * @ret_writer: on success, the new writer
 *
 * Writing to a pipe or socket whose reader went away fails with -EPIPE;
 * the writer blocks SIGPIPE around its own writes so the process survives.
 *
 * Return: 0, -EINVAL, -ENOMEM, -ESPIPE (file mode on a pipe), -EBADF.
 */
SAMPO_API int sampo_writer__open_fd(int fd, const struct sampo_writer_opts *opts,
				    struct sampo_writer **ret_writer);

/**
 * sampo_writer__close() - finish the file and free the writer
 * @w: the writer; NULL is allowed
 *
 * File mode: writes the ids and attrs if no record did it yet, the feature
 * table and payloads after the data, then the final header at the start.
 * The writer is freed even when this fails. A descriptor given to
 * sampo_writer__open_fd() stays open.
 *
 * Return: 0, or the first I/O error the writer met (-ENOSPC, -EPIPE, -EBADF,
 * -EIO, ...), now or during any earlier call.
 */
SAMPO_API int sampo_writer__close(struct sampo_writer *w);

/**
 * sampo_writer__add_attr() - declare an event: its attr and its ids
 * @w: the writer
 * @attr: host order. @attr->size is the number of bytes to write: 0 means
 *        SAMPO_ATTR_SIZE_VER7 (128, what perf 6.1 writes and the largest it
 *        reads); otherwise a multiple of 8 from SAMPO_ATTR_SIZE_VER0 to
 *        sizeof(struct sampo_event_attr). In file mode all attrs must have
 *        the same size.
 * @ids: the event ids (u64) that samples and trailers carry; may be NULL
 *       when @nr_ids is 0
 * @nr_ids: how many
 *
 * File mode: only before the first record. Pipe mode: emits a HEADER_ATTR
 * record at once.
 *
 * Return: the index of the new attr (0, 1, ...), or -EINVAL, -EBUSY (file
 * mode, records already written), -ENOMEM, or a sticky I/O error.
 */
SAMPO_API int sampo_writer__add_attr(struct sampo_writer *w, const struct sampo_event_attr *attr,
				     const uint64_t *ids, size_t nr_ids);

/**
 * sampo_writer__write_record() - write one complete record
 * @w: the writer
 * @rec: host order, @rec->header.size bytes (8 to 65535; not necessarily a
 *       multiple of 8). The writer converts it field by field to the file's
 *       byte order. For SAMPLE and for the sample_id trailer of kernel
 *       records it uses the attr the record belongs to: the one owning the
 *       record's id (found where attr 0's sample_type puts it, like perf), or
 *       attr 0 when there is a single attr or the id is 0 or unknown.
 *       HEADER_FEATURE payloads, COMPRESSED data, RAW and user-stack bytes,
 *       strings and the data of unknown record types are copied as they are.
 *
 * File mode: the first record freezes the attrs (ids and attrs sections are
 * written before it). Pipe mode: a HEADER_ATTR record also declares its
 * attr, as sampo_writer__add_attr() does. Bytes that follow a record outside
 * its header.size (HEADER_TRACING_DATA, AUXTRACE) go with
 * sampo_writer__write_raw().
 *
 * Return: 0, -EINVAL (size too small for the type or its trailer, SAMPLE
 * fields that do not add up to the size, no attr for a SAMPLE), or a
 * sticky I/O error.
 */
SAMPO_API int sampo_writer__write_record(struct sampo_writer *w, const union sampo_record *rec);

/**
 * sampo_writer__write_raw() - append bytes to the data section as they are
 * @w: the writer
 * @buf: bytes already in the file's byte order, e.g. a deliberately broken
 *       record for a reader test; nothing is checked or converted
 * @size: how many
 *
 * Return: 0 or a sticky I/O error.
 */
SAMPO_API int sampo_writer__write_raw(struct sampo_writer *w, const void *buf, size_t size);

/**
 * sampo_writer__write_sample() - encode and write a PERF_RECORD_SAMPLE
 * @w: the writer
 * @attr_idx: the attr (from sampo_writer__add_attr()) whose sample_type,
 *            read_format, branch_sample_type and register masks say which
 *            fields of @s are written and how
 * @misc: header.misc, e.g. SAMPO_CPUMODE_USER | SAMPO_MISC_EXACT_IP
 * @s: the values; ->sample_type is ignored. READ takes ->read_values
 *     (->read_nr_words raw words, checked against read_format); REGS_USER /
 *     REGS_INTR take popcount(attr mask) registers when abi != 0;
 *     STACK_USER and AUX sizes must be multiples of 8; RAW data is zero
 *     padded so the record stays 8-aligned, and its size field counts the
 *     padding, as the kernel's does.
 *
 * Return: 0, -EINVAL (bad @attr_idx, inconsistent field, record larger
 * than 65535 bytes), or a sticky I/O error.
 */
SAMPO_API int sampo_writer__write_sample(struct sampo_writer *w, size_t attr_idx, uint16_t misc,
					 const struct sampo_sample *s);

/*
 * Helpers for the records perf synthesizes. Each takes host values and an
 * optional @sid: the values of the sample_id trailer (pid, tid, time, id,
 * stream_id, cpu), appended when the record's attr has sample_id_all. The
 * attr is the one owning @sid->id, else attr 0. NULL @sid writes a zeroed
 * trailer, as perf does for synthesized records. They return what
 * sampo_writer__write_record() returns, and -EINVAL when a string makes the
 * record larger than 65535 bytes.
 */

/* A mapping, for MMAP and MMAP2 records. */
struct sampo_writer_map {
	uint16_t misc; /* cpumode, SAMPO_MISC_MMAP_DATA, ... */
	uint32_t pid, tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff; /* file offset of start, in bytes (kernel map: _text address) */
	/* MMAP2 only */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags; /* PROT_*, MAP_* */
	const uint8_t *build_id; /* MMAP2: non-NULL selects the build-id form */
	size_t build_id_size;	 /* at most SAMPO_BUILD_ID_MAX */
	const char *filename;
};

/** sampo_writer__write_mmap() - PERF_RECORD_MMAP from @m (MMAP2 fields ignored) */
SAMPO_API int sampo_writer__write_mmap(struct sampo_writer *w, const struct sampo_writer_map *m,
				       const struct sampo_sample *sid);

/**
 * sampo_writer__write_mmap2() - PERF_RECORD_MMAP2 from @m
 *
 * With @m->build_id set, writes the build-id form (misc gets
 * SAMPO_MISC_MMAP_BUILD_ID) instead of maj/min/ino/ino_generation.
 */
SAMPO_API int sampo_writer__write_mmap2(struct sampo_writer *w, const struct sampo_writer_map *m,
					const struct sampo_sample *sid);

/** sampo_writer__write_comm() - PERF_RECORD_COMM; @exec sets SAMPO_MISC_COMM_EXEC */
SAMPO_API int sampo_writer__write_comm(struct sampo_writer *w, uint32_t pid, uint32_t tid,
				       const char *comm, bool exec, const struct sampo_sample *sid);

/** sampo_writer__write_fork() - PERF_RECORD_FORK: (pid:tid) created by (ppid:ptid) */
SAMPO_API int sampo_writer__write_fork(struct sampo_writer *w, uint32_t pid, uint32_t ppid,
				       uint32_t tid, uint32_t ptid, uint64_t time_ns,
				       const struct sampo_sample *sid);

/** sampo_writer__write_exit() - PERF_RECORD_EXIT, same fields as FORK */
SAMPO_API int sampo_writer__write_exit(struct sampo_writer *w, uint32_t pid, uint32_t ppid,
				       uint32_t tid, uint32_t ptid, uint64_t time_ns,
				       const struct sampo_sample *sid);

/** sampo_writer__write_finished_round() - PERF_RECORD_FINISHED_ROUND (header only) */
SAMPO_API int sampo_writer__write_finished_round(struct sampo_writer *w);

/** sampo_writer__write_finished_init() - PERF_RECORD_FINISHED_INIT (header only) */
SAMPO_API int sampo_writer__write_finished_init(struct sampo_writer *w);

/** sampo_writer__write_id_index() - PERF_RECORD_ID_INDEX with @nr entries */
SAMPO_API int sampo_writer__write_id_index(struct sampo_writer *w,
					   const struct sampo_id_index_entry *entries, size_t nr);

/** sampo_writer__write_thread_map() - PERF_RECORD_THREAD_MAP with @nr entries */
SAMPO_API int sampo_writer__write_thread_map(struct sampo_writer *w,
					     const struct sampo_thread_map_entry *entries,
					     size_t nr);

/** sampo_writer__write_cpu_map() - PERF_RECORD_CPU_MAP, list form (type CPUS) */
SAMPO_API int sampo_writer__write_cpu_map(struct sampo_writer *w, const uint16_t *cpus,
					  size_t nr);

/**
 * sampo_writer__write_event_update() - PERF_RECORD_EVENT_UPDATE with a string
 * @type: SAMPO_EVENT_UPDATE_UNIT or SAMPO_EVENT_UPDATE_NAME
 * @id: an id of the event it updates
 * @str: the unit or name, NUL padded to 8
 */
SAMPO_API int sampo_writer__write_event_update(struct sampo_writer *w, uint64_t type,
					       uint64_t id, const char *str);

/**
 * sampo_writer__write_event_update_scale() - EVENT_UPDATE of type SCALE
 *
 * The double is stored in the file's byte order. perf 6.1 does not swap it
 * when reading an opposite-endian file, so such a file shows perf a garbled
 * scale (our reader is right).
 */
SAMPO_API int sampo_writer__write_event_update_scale(struct sampo_writer *w, uint64_t id,
						     double scale);

/*
 * Features. In file mode they are kept until sampo_writer__close() writes
 * them after the data; setting one twice replaces it. In pipe mode each is
 * written at once as a HEADER_FEATURE record (at most 65519 bytes of
 * payload). @feat is a SAMPO_FEAT_* number from 1 to 255.
 *
 * Note: perf 6.1 ignores every feature of an opposite-endian file that lacks
 * HOSTNAME (it uses that bit to guess the word size of the bitmap).
 */

/**
 * sampo_writer__set_feature() - set a feature from a raw payload
 * @payload: bytes in the FILE's byte order, copied; NULL only with @size 0
 *           (a flag feature such as BRANCH_STACK)
 *
 * Use the typed setters below for anything with numbers in it, unless the
 * point is to write something they cannot (a malformed payload).
 * Return: 0, -EINVAL, -ENOMEM, or a sticky I/O error (pipe mode).
 */
SAMPO_API int sampo_writer__set_feature(struct sampo_writer *w, int feat, const void *payload,
					size_t size);

/**
 * sampo_writer__set_feature_string() - a perf string feature (HOSTNAME,
 * OSRELEASE, VERSION, ARCH, CPUDESC, CPUID): u32 length, then @s NUL padded
 * to a multiple of 64
 */
SAMPO_API int sampo_writer__set_feature_string(struct sampo_writer *w, int feat, const char *s);

/** sampo_writer__set_feature_strings() - a string list feature (CMDLINE): u32 count, strings */
SAMPO_API int sampo_writer__set_feature_strings(struct sampo_writer *w, int feat,
						const char *const *v, size_t n);

/**
 * sampo_writer__set_feature_u32s() - a feature made of @n u32 (NRCPUS:
 * {available, online}; COMPRESSED: {version, type, level, ratio, mmap_len})
 */
SAMPO_API int sampo_writer__set_feature_u32s(struct sampo_writer *w, int feat,
					     const uint32_t *v, size_t n);

/**
 * sampo_writer__set_feature_u64s() - a feature made of @n u64 (TOTAL_MEM:
 * {kB}; SAMPLE_TIME: {first_ns, last_ns}; CLOCKID: {resolution_ns};
 * DIR_FORMAT: {version})
 */
SAMPO_API int sampo_writer__set_feature_u64s(struct sampo_writer *w, int feat,
					     const uint64_t *v, size_t n);

/**
 * sampo_writer__set_feature_event_desc() - EVENT_DESC from the attrs added so far
 * @names: one event name per attr, in attr order ("cpu-clock", ...)
 * @nr_names: must equal the number of attrs
 *
 * Each attr is written with the attrs' common size (the largest in pipe
 * mode), followed by its ids, as perf does.
 * Return: 0, -EINVAL, -ENOMEM, or a sticky I/O error (pipe mode).
 */
SAMPO_API int sampo_writer__set_feature_event_desc(struct sampo_writer *w,
						   const char *const *names, size_t nr_names);

/**
 * sampo_writer__add_build_id() - add an entry to the build-id table
 * @cpumode: SAMPO_CPUMODE_KERNEL for the kernel and modules, _USER for user
 *           DSOs and [vdso], _GUEST_* for guests
 * @pid: -1 for the host, the guest's pid otherwise
 * @bid: the build-id bytes
 * @bid_size: 1 to SAMPO_BUILD_ID_MAX (20); stored in the entry as perf 6.1
 *            does (misc |= SAMPO_MISC_BUILD_ID_SIZE)
 * @filename: "[kernel.kallsyms]", "/usr/lib/libc.so.6", "[vdso]", ...;
 *            NUL padded to a multiple of 64
 *
 * File mode: appends an entry to the BUILD_ID feature payload. Pipe mode:
 * writes a HEADER_BUILD_ID record at once.
 * Return: 0, -EINVAL, -ENOMEM, or a sticky I/O error.
 */
SAMPO_API int sampo_writer__add_build_id(struct sampo_writer *w, uint16_t cpumode, int32_t pid,
					 const uint8_t *bid, size_t bid_size,
					 const char *filename);

/**
 * sampo_writer__flush() - hand the buffered bytes to the descriptor now
 *
 * For a live pipe reader, or, with the keep_readable option, to make the
 * file on disk readable up to the last record written (the header is
 * rewritten); the writer flushes by itself when its buffer is full and at
 * close.
 * Return: 0 or a sticky I/O error.
 */
SAMPO_API int sampo_writer__flush(struct sampo_writer *w);

/**
 * sampo_writer__offset() - where the next record goes, as `perf report -D`
 * prints it: the file offset in file mode (this freezes the attrs, as a
 * record would), the offset after the 16-byte header in pipe mode
 */
SAMPO_API uint64_t sampo_writer__offset(struct sampo_writer *w);

#endif /* SAMPO_WRITER_H */
