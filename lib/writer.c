// SPDX-License-Identifier: LGPL-2.1
/*
 * writer.c - produce perf.data, in file or pipe format, in either byte order.
 *
 * File layout, as perf 6.1 writes it (see perf-data-format.md):
 *
 *	0	file header (104 bytes; a zeroed placeholder until close)
 *	104	ids of attr 0, attr 1, ...	(u64 each)
 *	A	attrs: attr (attr_size bytes) + {ids offset, ids size}, per attr
 *	D	data: the records
 *	D+DS	feature table: {offset, size} per set feature bit, increasing
 *	...	feature payloads, back to back
 *
 * Everything goes through one output buffer, front to back, with write(2);
 * only the header is written in place (pwrite) at close. So memory does not
 * grow with the number of records, and only features and the build-id table
 * (a few KB) are held until close.
 *
 * States (file mode): ATTRS (attrs may be added) -> DATA (first record, or
 * sampo_writer__offset(), wrote ids and attrs) -> closed. Pipe mode starts in
 * DATA: the 16-byte header is written at open and attrs become HEADER_ATTR
 * records.
 *
 * Byte order: callers hand in host-order values. A record is copied into the
 * output buffer and converted there when the file's order is not the host's:
 * its fields and variable parts as record.c describes them (the same
 * description the reader swaps by), a SAMPLE field by field from its attr,
 * and the sample_id trailer of kernel records from the attr. Headers, attrs
 * and features go through st16/st32/st64, which write the FILE's byte order
 * whatever the host is. Two places are not plain field swaps, because perf
 * does not read them as such:
 *
 *  - attr.flags (the bitfield at offset 40): perf 6.1 (perf_event__attr_swap)
 *    does not byte-swap this u64, it reverses the bits of each of its 8 bytes
 *    (a big-endian compiler allocates bitfields from the most significant
 *    bit). sampo_attr__swap() does the same, its own inverse. Single-bit
 *    flags land where a big-endian compiler puts them; the 2-bit precise_ip
 *    (bits 15-16) straddles two bytes and comes out as perf decodes it, not
 *    as a big-endian compiler would lay it out.
 *  - branch entry flags: perf (evsel__bitfield_swap_branch_flags) mirrors
 *    each bitfield across the u64 (a field at bit p of size n moves to bit
 *    64-p-n) after swapping the u64; we mirror, then store the u64.
 *
 * I/O errors are sticky: the first one is kept in w->err and returned by
 * every later call and by close. Argument errors (-EINVAL) are not sticky.
 *
 * Opening by path trusts the directory when it is the user's; in one that
 * others may write to (world-writable or sticky: /tmp, /dev/shm) the name
 * may be a link someone planted, so nothing there is followed (see
 * writer_open_path()).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sampo/writer.h>
#include "internal/record.h"
#include "internal/util.h"
#include "internal/opts.h"

#define WRITER_BUF_SIZE (256 * 1024)
#define RECORD_MAX 65535u
#define FILE_HEADER_SIZE 104u
#define PIPE_HEADER_SIZE 16u
#define DEFAULT_ATTR_SIZE SAMPO_ATTR_SIZE_VER7

struct writer_attr {
	struct sampo_event_attr attr; /* host order; bytes past attr.size are zero */
	uint64_t *ids;
	size_t nr_ids;
	uint64_t ids_offset; /* file mode, once written */
};

struct writer_feature {
	uint8_t *data; /* file byte order */
	size_t size;
	bool set;
};

struct sampo_writer {
	int fd;
	bool own_fd;
	bool pipe;
	bool big;	     /* the file is big-endian */
	bool swap;	     /* ... and the host is not, or the other way round */
	bool guard_sigpipe;  /* fd is a pipe or socket */
	bool data_started;   /* ids and attrs are out (file mode); always in pipe mode */
	int err;	     /* first I/O error, sticky */
	uint64_t pos;	     /* bytes produced so far, from the start of the perf.data */
	uint64_t attrs_offset;
	uint64_t data_offset;
	uint32_t attr_size; /* file mode: the size every attr is written with */

	struct writer_attr *attrs;
	size_t nr_attrs;

	struct writer_feature feats[SAMPO_FEAT_MAX_BITS];

	uint8_t *scratch; /* RECORD_MAX bytes, 8-aligned: records built in host order */
	uint8_t *buf;	  /* WRITER_BUF_SIZE bytes of output not yet written */
	size_t buf_len;
};

/* ---- options --------------------------------------------------------- */

/* ---- stores in the file's byte order, loads in the host's ------------ */

static void st16(const struct sampo_writer *w, void *p, uint16_t v)
{
	uint8_t *b = p;

	if (w->big) {
		b[0] = (uint8_t)(v >> 8);
		b[1] = (uint8_t)v;
	} else {
		b[0] = (uint8_t)v;
		b[1] = (uint8_t)(v >> 8);
	}
}

static void st32(const struct sampo_writer *w, void *p, uint32_t v)
{
	uint8_t *b = p;

	for (int i = 0; i < 4; i++)
		b[w->big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static void st64(const struct sampo_writer *w, void *p, uint64_t v)
{
	uint8_t *b = p;

	for (int i = 0; i < 8; i++)
		b[w->big ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

/* Convert a host-order field in place. */
static void cv16(const struct sampo_writer *w, uint8_t *p)
{
	st16(w, p, load_u16(p));
}

static void cv32(const struct sampo_writer *w, uint8_t *p)
{
	st32(w, p, load_u32(p));
}

static void cv64(const struct sampo_writer *w, uint8_t *p)
{
	st64(w, p, load_u64(p));
}

/* Convert the u64s in [from, to) in place. */
static void cv64_range(const struct sampo_writer *w, uint8_t *rec, size_t from, size_t to)
{
	for (size_t off = from; off + 8 <= to; off += 8)
		cv64(w, rec + off);
}

/* struct branch_flags of perf 6.1, {position, width} with little-endian numbering */
static const uint8_t branch_flag_fields[][2] = {
	{ 0, 1 },  /* mispred */
	{ 1, 1 },  /* predicted */
	{ 2, 1 },  /* in_tx */
	{ 3, 1 },  /* abort */
	{ 4, 16 }, /* cycles */
	{ 20, 4 }, /* type */
	{ 24, 2 }, /* spec */
	{ 26, 4 }, /* new_type */
	{ 30, 3 }, /* priv */
	{ 33, 31 }, /* reserved */
};

static void st_branch_flags(const struct sampo_writer *w, uint8_t *p, uint64_t v)
{
	if (w->big) {
		uint64_t m = 0;

		for (size_t i = 0; i < ARRAY_SIZE(branch_flag_fields); i++) {
			unsigned int pos = branch_flag_fields[i][0], n = branch_flag_fields[i][1];
			uint64_t mask = (1ULL << n) - 1;

			m |= ((v >> pos) & mask) << (64 - pos - n);
		}
		v = m;
	}
	st64(w, p, v);
}

/* Write @a (host order) as @size bytes of perf_event_attr in file order. */
static void encode_attr(const struct sampo_writer *w, uint8_t *out,
			const struct sampo_event_attr *a, size_t size)
{
	struct sampo_event_attr img = *a;

	size = MIN(size, sizeof(img));
	if (w->swap)
		sampo_attr__swap(&img, size);
	memcpy(out, &img, size);
}

/* ---- output ----------------------------------------------------------- */

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/*
 * A write to a pipe without a reader raises SIGPIPE, which kills the
 * process by default; a library must return -EPIPE instead. Block the
 * signal in this thread for the write, and swallow the one we caused (not
 * one that was already pending).
 */
static int write_all_nosigpipe(int fd, const uint8_t *p, size_t n)
{
	sigset_t pipe_set, old_set, pending;
	bool was_pending;
	int err;

	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	sigpending(&pending);
	was_pending = sigismember(&pending, SIGPIPE) == 1;
	if (pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set))
		return write_all(fd, p, n);

	err = write_all(fd, p, n);
	if (err == -EPIPE && !was_pending) {
		const struct timespec zero = { 0, 0 };

		(void)sigtimedwait(&pipe_set, NULL, &zero);
	}
	(void)pthread_sigmask(SIG_SETMASK, &old_set, NULL);
	return err;
}

static int writer_flush(struct sampo_writer *w)
{
	int err;

	if (w->err)
		return w->err;
	if (w->buf_len == 0)
		return 0;
	if (w->guard_sigpipe)
		err = write_all_nosigpipe(w->fd, w->buf, w->buf_len);
	else
		err = write_all(w->fd, w->buf, w->buf_len);
	w->buf_len = 0;
	if (err)
		w->err = err;
	return err;
}

/*
 * Room for @size bytes (at most WRITER_BUF_SIZE) at the end of the buffer.
 * Fill it, then writer_commit(); not committing drops it.
 */
static uint8_t *writer_reserve(struct sampo_writer *w, size_t size)
{
	if (w->err)
		return NULL;
	if (WRITER_BUF_SIZE - w->buf_len < size && writer_flush(w))
		return NULL;
	return w->buf + w->buf_len;
}

static void writer_commit(struct sampo_writer *w, size_t size)
{
	w->buf_len += size;
	w->pos += size;
}

/* Append bytes that are already in file order, of any length. */
static int writer_put(struct sampo_writer *w, const void *data, size_t size)
{
	const uint8_t *p = data;

	while (size) {
		size_t n = MIN(size, (size_t)WRITER_BUF_SIZE);
		uint8_t *dst = writer_reserve(w, n);

		if (!dst)
			return w->err;
		memcpy(dst, p, n);
		writer_commit(w, n);
		p += n;
		size -= n;
	}
	return w->err;
}

static int writer_put_u64(struct sampo_writer *w, uint64_t v)
{
	uint8_t *dst = writer_reserve(w, 8);

	if (!dst)
		return w->err;
	st64(w, dst, v);
	writer_commit(w, 8);
	return 0;
}

/* File mode: the ids arrays, then the attrs section. The data starts after. */
static int writer_start_data(struct sampo_writer *w)
{
	size_t entry = w->attr_size + 16u;

	if (w->data_started)
		return w->err;

	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct writer_attr *wa = &w->attrs[i];

		wa->ids_offset = w->pos;
		for (size_t j = 0; j < wa->nr_ids; j++) {
			if (writer_put_u64(w, wa->ids[j]))
				return w->err;
		}
	}

	w->attrs_offset = w->pos;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct writer_attr *wa = &w->attrs[i];
		uint8_t *dst = writer_reserve(w, entry);

		if (!dst)
			return w->err;
		encode_attr(w, dst, &wa->attr, w->attr_size);
		st64(w, dst + w->attr_size, wa->ids_offset);
		st64(w, dst + w->attr_size + 8, wa->nr_ids * 8);
		writer_commit(w, entry);
	}

	w->data_offset = w->pos;
	w->data_started = true;
	return w->err;
}

/* ---- which attr a record belongs to ---------------------------------- */

static size_t sid_size(const struct sampo_event_attr *a)
{
	static const uint64_t bits[] = {
		SAMPO_SAMPLE_TID, SAMPO_SAMPLE_TIME, SAMPO_SAMPLE_ID,
		SAMPO_SAMPLE_STREAM_ID, SAMPO_SAMPLE_CPU, SAMPO_SAMPLE_IDENTIFIER,
	};
	size_t n = 0;

	if (!a || !(a->flags & SAMPO_ATTR_SAMPLE_ID_ALL))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++)
		n += (a->sample_type & bits[i]) ? 8 : 0;
	return n;
}

static bool is_kernel_type(uint32_t type)
{
	return type >= SAMPO_RECORD_MMAP && type < SAMPO_RECORD_KERNEL_MAX &&
	       type != SAMPO_RECORD_SAMPLE;
}

static const struct writer_attr *attr_by_id(const struct sampo_writer *w, uint64_t id)
{
	if (w->nr_attrs == 0)
		return NULL;
	/* perf maps id 0 (synthesized records) to the first attr */
	if (id != 0) {
		for (size_t i = 0; i < w->nr_attrs; i++) {
			for (size_t j = 0; j < w->attrs[i].nr_ids; j++) {
				if (w->attrs[i].ids[j] == id)
					return &w->attrs[i];
			}
		}
	}
	return &w->attrs[0];
}

/*
 * perf requires every attr to put the id at the same place, so attr 0's
 * sample_type says where to look (perf-data-format.md, "Mapping a record to
 * its attr").
 */
static const struct writer_attr *attr_for_record(const struct sampo_writer *w,
						 const uint8_t *rec, size_t size)
{
	const struct sampo_event_attr *a0;
	uint32_t type = load_u32(rec);
	uint64_t t;
	size_t pos;

	if (w->nr_attrs <= 1)
		return w->nr_attrs ? &w->attrs[0] : NULL;

	a0 = &w->attrs[0].attr;
	t = a0->sample_type;
	if (type == SAMPO_RECORD_SAMPLE) {
		if (t & SAMPO_SAMPLE_IDENTIFIER) {
			pos = 8;
		} else if (t & SAMPO_SAMPLE_ID) {
			pos = 8;
			pos += (t & SAMPO_SAMPLE_IP) ? 8 : 0;
			pos += (t & SAMPO_SAMPLE_TID) ? 8 : 0;
			pos += (t & SAMPO_SAMPLE_TIME) ? 8 : 0;
			pos += (t & SAMPO_SAMPLE_ADDR) ? 8 : 0;
		} else {
			return &w->attrs[0];
		}
	} else if (is_kernel_type(type) && sid_size(a0)) {
		if (t & SAMPO_SAMPLE_IDENTIFIER) {
			pos = size - 8;
		} else if (t & SAMPO_SAMPLE_ID) {
			size_t back = 8;

			back += (t & SAMPO_SAMPLE_CPU) ? 8 : 0;
			back += (t & SAMPO_SAMPLE_STREAM_ID) ? 8 : 0;
			if (size < back)
				return &w->attrs[0];
			pos = size - back;
		} else {
			return &w->attrs[0];
		}
	} else {
		return &w->attrs[0];
	}
	if (size < 8 || pos > size - 8)
		return &w->attrs[0];
	return attr_by_id(w, load_u64(rec + pos));
}

/* ---- host -> file conversion of one record, in place ----------------- */

static void convert_sid(const struct sampo_writer *w, uint8_t *p, const struct sampo_event_attr *a)
{
	uint64_t t = a->sample_type;

	if (t & SAMPO_SAMPLE_TID) {
		cv32(w, p);
		cv32(w, p + 4);
		p += 8;
	}
	if (t & SAMPO_SAMPLE_TIME) {
		cv64(w, p);
		p += 8;
	}
	if (t & SAMPO_SAMPLE_ID) {
		cv64(w, p);
		p += 8;
	}
	if (t & SAMPO_SAMPLE_STREAM_ID) {
		cv64(w, p);
		p += 8;
	}
	if (t & SAMPO_SAMPLE_CPU) {
		cv32(w, p);
		cv32(w, p + 4);
		p += 8;
	}
	if (t & SAMPO_SAMPLE_IDENTIFIER)
		cv64(w, p);
}

static int convert_regs(const struct sampo_writer *w, uint8_t *p, size_t size, size_t *off,
			uint64_t mask)
{
	uint64_t abi;
	size_t n;

	if (size - *off < 8)
		return -EINVAL;
	abi = load_u64(p + *off);
	cv64(w, p + *off);
	*off += 8;
	if (abi == 0)
		return 0;
	n = (size_t)__builtin_popcountll(mask);
	if ((size - *off) / 8 < n)
		return -EINVAL;
	cv64_range(w, p, *off, *off + 8 * n);
	*off += 8 * n;
	return 0;
}

/* The read_format words of a sample or READ record, counting @nr for GROUP. */
static size_t read_format_words(uint64_t read_format, uint64_t nr)
{
	size_t ena = (read_format & SAMPO_FORMAT_TOTAL_TIME_ENABLED) ? 1 : 0;
	size_t run = (read_format & SAMPO_FORMAT_TOTAL_TIME_RUNNING) ? 1 : 0;
	size_t id = (read_format & SAMPO_FORMAT_ID) ? 1 : 0;
	size_t lost = (read_format & SAMPO_FORMAT_LOST) ? 1 : 0;

	if (read_format & SAMPO_FORMAT_GROUP) {
		if (nr > RECORD_MAX / 8)
			return SIZE_MAX;
		return 1 + ena + run + (size_t)nr * (1 + id + lost);
	}
	return 1 + ena + run + id + lost;
}

/* A SAMPLE body, field by field in the kernel's order (perf-data-format.md §5). */
static int convert_sample(const struct sampo_writer *w, uint8_t *p, size_t size,
			  const struct sampo_event_attr *a)
{
	uint64_t t = a->sample_type;
	size_t off = 8;
	uint64_t nr;

#define NEED(n)                                                                                    \
	do {                                                                                       \
		if ((uint64_t)(n) > size - off)                                                    \
			return -EINVAL;                                                            \
	} while (0)
#define U64_FIELD(bit)                                                                             \
	do {                                                                                       \
		if (t & (bit)) {                                                                   \
			NEED(8);                                                                   \
			cv64(w, p + off);                                                          \
			off += 8;                                                                  \
		}                                                                                  \
	} while (0)
#define U32_PAIR(bit)                                                                              \
	do {                                                                                       \
		if (t & (bit)) {                                                                   \
			NEED(8);                                                                   \
			cv32(w, p + off);                                                          \
			cv32(w, p + off + 4);                                                      \
			off += 8;                                                                  \
		}                                                                                  \
	} while (0)

	U64_FIELD(SAMPO_SAMPLE_IDENTIFIER);
	U64_FIELD(SAMPO_SAMPLE_IP);
	U32_PAIR(SAMPO_SAMPLE_TID);
	U64_FIELD(SAMPO_SAMPLE_TIME);
	U64_FIELD(SAMPO_SAMPLE_ADDR);
	U64_FIELD(SAMPO_SAMPLE_ID);
	U64_FIELD(SAMPO_SAMPLE_STREAM_ID);
	U32_PAIR(SAMPO_SAMPLE_CPU);
	U64_FIELD(SAMPO_SAMPLE_PERIOD);
	if (t & SAMPO_SAMPLE_READ) {
		size_t words;

		NEED(8);
		words = read_format_words(a->read_format, load_u64(p + off));
		if (words == SIZE_MAX)
			return -EINVAL;
		NEED(8 * words);
		cv64_range(w, p, off, off + 8 * words);
		off += 8 * words;
	}
	if (t & SAMPO_SAMPLE_CALLCHAIN) {
		NEED(8);
		nr = load_u64(p + off);
		cv64(w, p + off);
		off += 8;
		if (nr > (size - off) / 8)
			return -EINVAL;
		cv64_range(w, p, off, off + 8 * nr);
		off += 8 * nr;
	}
	if (t & SAMPO_SAMPLE_RAW) {
		uint32_t raw_size;
		size_t total;

		NEED(4);
		raw_size = load_u32(p + off);
		total = ALIGN_UP((size_t)raw_size + 4, 8);
		NEED(total);
		cv32(w, p + off);
		off += total;
	}
	if (t & SAMPO_SAMPLE_BRANCH_STACK) {
		NEED(8);
		nr = load_u64(p + off);
		cv64(w, p + off);
		off += 8;
		if (a->branch_sample_type & SAMPO_SAMPLE_BRANCH_HW_INDEX) {
			NEED(8);
			cv64(w, p + off);
			off += 8;
		}
		if (nr > (size - off) / 24)
			return -EINVAL;
		for (uint64_t i = 0; i < nr; i++, off += 24) {
			cv64(w, p + off);
			cv64(w, p + off + 8);
			st_branch_flags(w, p + off + 16, load_u64(p + off + 16));
		}
	}
	if ((t & SAMPO_SAMPLE_REGS_USER) && convert_regs(w, p, size, &off, a->sample_regs_user))
		return -EINVAL;
	if (t & SAMPO_SAMPLE_STACK_USER) {
		NEED(8);
		nr = load_u64(p + off);
		cv64(w, p + off);
		off += 8;
		NEED(nr);
		off += nr;
		if (nr) {
			NEED(8);
			cv64(w, p + off);
			off += 8;
		}
	}
	if (t & (SAMPO_SAMPLE_WEIGHT | SAMPO_SAMPLE_WEIGHT_STRUCT)) {
		NEED(8);
		cv64(w, p + off);
		off += 8;
	}
	U64_FIELD(SAMPO_SAMPLE_DATA_SRC);
	U64_FIELD(SAMPO_SAMPLE_TRANSACTION);
	if ((t & SAMPO_SAMPLE_REGS_INTR) && convert_regs(w, p, size, &off, a->sample_regs_intr))
		return -EINVAL;
	U64_FIELD(SAMPO_SAMPLE_PHYS_ADDR);
	U64_FIELD(SAMPO_SAMPLE_CGROUP);
	U64_FIELD(SAMPO_SAMPLE_DATA_PAGE_SIZE);
	U64_FIELD(SAMPO_SAMPLE_CODE_PAGE_SIZE);
	if (t & SAMPO_SAMPLE_AUX) {
		NEED(8);
		nr = load_u64(p + off);
		cv64(w, p + off);
		off += 8;
		NEED(nr);
		off += nr;
	}
#undef U32_PAIR
#undef U64_FIELD
#undef NEED
	return off == size ? 0 : -EINVAL;
}

/*
 * Any other record: its fields and variable parts, from record.c's
 * description, then the sample_id trailer of a kernel record from @a.
 */
static int convert_record(const struct sampo_writer *w, uint8_t *p, size_t size,
			  const struct sampo_event_attr *a)
{
	uint32_t type = load_u32(p);
	size_t sid = is_kernel_type(type) ? sid_size(a) : 0;

	if (size < sid || size - sid < MAX(sampo_record__min_size(type), sizeof(struct sampo_record_header)))
		return -EINVAL;
	if (!w->swap)
		return 0;
	sampo_record__convert(p, size - sid);
	if (sid)
		convert_sid(w, p + size - sid, a);
	return 0;
}

/* ---- emitting records ------------------------------------------------- */

static int writer_register_attr(struct sampo_writer *w, const struct sampo_event_attr *attr,
				const uint64_t *ids, size_t nr_ids);

/*
 * Copy the host-order record @rec (header.size bytes) into the output
 * buffer and convert it there. @wa is its attr (SAMPLE, trailers) or NULL.
 */
static int writer_emit(struct sampo_writer *w, const void *rec, const struct writer_attr *wa)
{
	const struct sampo_record_header *hdr = rec;
	uint32_t type = hdr->type;
	size_t size = hdr->size;
	uint8_t *dst;
	int err = 0;

	if (size < sizeof(*hdr))
		return -EINVAL;
	if (type == SAMPO_RECORD_SAMPLE && !wa)
		return -EINVAL;
	if (!w->data_started && writer_start_data(w))
		return w->err;

	dst = writer_reserve(w, size);
	if (!dst)
		return w->err;
	memcpy(dst, rec, size);

	if (type == SAMPO_RECORD_SAMPLE) {
		err = convert_sample(w, dst, size, &wa->attr);
	} else if (type == SAMPO_RECORD_HEADER_ATTR) {
		const struct sampo_record_header_attr *ha = rec;
		uint32_t asz = ha->attr.size;

		if (asz < SAMPO_ATTR_SIZE_VER0 || asz > sizeof(ha->attr) || asz % 8 ||
		    asz > size - sizeof(*hdr))
			err = -EINVAL;
		else
			err = convert_record(w, dst, size, NULL);
	} else {
		err = convert_record(w, dst, size, wa ? &wa->attr : NULL);
	}
	if (err)
		return err;

	st32(w, dst, type);
	cv16(w, dst + 4);
	st16(w, dst + 6, (uint16_t)size);
	writer_commit(w, size);
	return 0;
}

int sampo_writer__write_record(struct sampo_writer *w, const union sampo_record *rec)
{
	const uint8_t *p = (const uint8_t *)rec;
	size_t size;
	int err;

	if (!w || !rec)
		return -EINVAL;
	if (w->err)
		return w->err;
	size = rec->header.size;
	if (size < sizeof(rec->header))
		return -EINVAL;

	err = writer_emit(w, rec, attr_for_record(w, p, size));
	if (err)
		return err;

	/* a HEADER_ATTR in a stream declares an attr for the records after it */
	if (w->pipe && rec->header.type == SAMPO_RECORD_HEADER_ATTR) {
		size_t asz = rec->attr.attr.size;
		size_t nr = (size - 8 - asz) / 8;
		uint64_t *ids = nr ? malloc(nr * 8) : NULL;

		if (nr && !ids)
			return -ENOMEM;
		if (nr)
			memcpy(ids, p + 8 + asz, nr * 8);
		err = writer_register_attr(w, &rec->attr.attr, ids, nr);
		free(ids);
	}
	return err;
}

int sampo_writer__write_raw(struct sampo_writer *w, const void *buf, size_t size)
{
	if (!w || (!buf && size))
		return -EINVAL;
	if (w->err)
		return w->err;
	if (!w->data_started && writer_start_data(w))
		return w->err;
	return writer_put(w, buf, size);
}

/* ---- building records in host order ---------------------------------- */

/* Appends host-order fields to w->scratch; remembers overflow past 65535. */
struct rec_builder {
	uint8_t *p;
	size_t len;
	bool overflow;
};

static void rb_init(struct rec_builder *b, struct sampo_writer *w, uint32_t type, uint16_t misc)
{
	struct sampo_record_header hdr = { .type = type, .misc = misc, .size = 0 };

	b->p = w->scratch;
	b->len = 0;
	b->overflow = false;
	memcpy(b->p, &hdr, sizeof(hdr));
	b->len = sizeof(hdr);
}

static void *rb_grow(struct rec_builder *b, size_t n)
{
	void *at;

	if (b->overflow || n > RECORD_MAX - b->len) {
		b->overflow = true;
		return NULL;
	}
	at = b->p + b->len;
	b->len += n;
	return at;
}

static void rb_bytes(struct rec_builder *b, const void *data, size_t n)
{
	void *at = rb_grow(b, n);

	if (at && n)
		memcpy(at, data, n);
}

static void rb_zero(struct rec_builder *b, size_t n)
{
	void *at = rb_grow(b, n);

	if (at)
		memset(at, 0, n);
}

static void rb_u64(struct rec_builder *b, uint64_t v)
{
	rb_bytes(b, &v, 8);
}

static void rb_u32(struct rec_builder *b, uint32_t v)
{
	rb_bytes(b, &v, 4);
}

static void rb_u16(struct rec_builder *b, uint16_t v)
{
	rb_bytes(b, &v, 2);
}

/* A string with its NUL, zero padded to a multiple of @align. */
static void rb_string(struct rec_builder *b, const char *s, size_t align)
{
	size_t len = strlen(s) + 1;

	rb_bytes(b, s, len);
	rb_zero(b, ALIGN_UP(len, align) - len);
}

/* The sample_id trailer from @sid (NULL: zeros), if @wa has sample_id_all. */
static void rb_sid(struct rec_builder *b, const struct writer_attr *wa,
		   const struct sampo_sample *sid)
{
	static const struct sampo_sample zero;
	uint64_t t;

	if (!sid_size(wa ? &wa->attr : NULL))
		return;
	if (!sid)
		sid = &zero;
	t = wa->attr.sample_type;
	if (t & SAMPO_SAMPLE_TID) {
		rb_u32(b, sid->pid);
		rb_u32(b, sid->tid);
	}
	if (t & SAMPO_SAMPLE_TIME)
		rb_u64(b, sid->time);
	if (t & SAMPO_SAMPLE_ID)
		rb_u64(b, sid->id);
	if (t & SAMPO_SAMPLE_STREAM_ID)
		rb_u64(b, sid->stream_id);
	if (t & SAMPO_SAMPLE_CPU) {
		rb_u32(b, sid->cpu);
		rb_u32(b, 0);
	}
	if (t & SAMPO_SAMPLE_IDENTIFIER)
		rb_u64(b, sid->id);
}

static int rb_emit(struct sampo_writer *w, struct rec_builder *b, const struct writer_attr *wa)
{
	uint16_t size;

	if (b->overflow)
		return -EINVAL;
	size = (uint16_t)b->len;
	memcpy(b->p + offsetof(struct sampo_record_header, size), &size, sizeof(size));
	return writer_emit(w, b->p, wa);
}

static const struct writer_attr *attr_for_sid(const struct sampo_writer *w,
					      const struct sampo_sample *sid)
{
	return attr_by_id(w, sid ? sid->id : 0);
}

/* Common prologue of the public record writers. */
#define WRITER_CHECK(w)                                                                            \
	do {                                                                                       \
		if (!(w))                                                                          \
			return -EINVAL;                                                            \
		if ((w)->err)                                                                      \
			return (w)->err;                                                           \
	} while (0)

static void rb_regs(struct rec_builder *b, const struct sampo_regs *r, uint64_t mask)
{
	size_t n = (size_t)__builtin_popcountll(mask);

	rb_u64(b, r->abi);
	if (r->abi)
		rb_bytes(b, r->regs, 8 * n);
}

int sampo_writer__write_sample(struct sampo_writer *w, size_t attr_idx, uint16_t misc,
			       const struct sampo_sample *s)
{
	const struct writer_attr *wa;
	const struct sampo_event_attr *a;
	struct rec_builder b;
	uint64_t t;

	WRITER_CHECK(w);
	if (!s || attr_idx >= w->nr_attrs)
		return -EINVAL;
	wa = &w->attrs[attr_idx];
	a = &wa->attr;
	t = a->sample_type;

	/* check what cannot be checked while appending */
	if (t & SAMPO_SAMPLE_READ) {
		if (!s->read_values || s->read_nr_words == 0 ||
		    read_format_words(a->read_format, s->read_values[0]) != s->read_nr_words)
			return -EINVAL;
	}
	if ((t & SAMPO_SAMPLE_CALLCHAIN) && s->callchain_nr && !s->callchain)
		return -EINVAL;
	if ((t & SAMPO_SAMPLE_RAW) && s->raw_size && !s->raw_data)
		return -EINVAL;
	if ((t & SAMPO_SAMPLE_BRANCH_STACK) && s->branch_nr && !s->branch)
		return -EINVAL;
	if ((t & SAMPO_SAMPLE_REGS_USER) && s->user_regs.abi && a->sample_regs_user &&
	    !s->user_regs.regs)
		return -EINVAL;
	if ((t & SAMPO_SAMPLE_REGS_INTR) && s->intr_regs.abi && a->sample_regs_intr &&
	    !s->intr_regs.regs)
		return -EINVAL;
	if ((t & SAMPO_SAMPLE_STACK_USER) &&
	    (s->user_stack_size % 8 || (s->user_stack_size && !s->user_stack)))
		return -EINVAL;
	if ((t & SAMPO_SAMPLE_AUX) && (s->aux_size % 8 || (s->aux_size && !s->aux_data)))
		return -EINVAL;

	rb_init(&b, w, SAMPO_RECORD_SAMPLE, misc);
	if (t & SAMPO_SAMPLE_IDENTIFIER)
		rb_u64(&b, s->id);
	if (t & SAMPO_SAMPLE_IP)
		rb_u64(&b, s->ip);
	if (t & SAMPO_SAMPLE_TID) {
		rb_u32(&b, s->pid);
		rb_u32(&b, s->tid);
	}
	if (t & SAMPO_SAMPLE_TIME)
		rb_u64(&b, s->time);
	if (t & SAMPO_SAMPLE_ADDR)
		rb_u64(&b, s->addr);
	if (t & SAMPO_SAMPLE_ID)
		rb_u64(&b, s->id);
	if (t & SAMPO_SAMPLE_STREAM_ID)
		rb_u64(&b, s->stream_id);
	if (t & SAMPO_SAMPLE_CPU) {
		rb_u32(&b, s->cpu);
		rb_u32(&b, 0);
	}
	if (t & SAMPO_SAMPLE_PERIOD)
		rb_u64(&b, s->period);
	if (t & SAMPO_SAMPLE_READ) {
		if (s->read_nr_words > RECORD_MAX / 8)
			return -EINVAL;
		rb_bytes(&b, s->read_values, 8 * s->read_nr_words);
	}
	if (t & SAMPO_SAMPLE_CALLCHAIN) {
		if (s->callchain_nr > RECORD_MAX / 8)
			return -EINVAL;
		rb_u64(&b, s->callchain_nr);
		rb_bytes(&b, s->callchain, 8 * (size_t)s->callchain_nr);
	}
	if (t & SAMPO_SAMPLE_RAW) {
		/* the kernel pads the data and counts the padding in the size */
		size_t total = ALIGN_UP((size_t)s->raw_size + 4, 8);

		if (total > RECORD_MAX)
			return -EINVAL;
		rb_u32(&b, (uint32_t)(total - 4));
		rb_bytes(&b, s->raw_data, s->raw_size);
		rb_zero(&b, total - 4 - s->raw_size);
	}
	if (t & SAMPO_SAMPLE_BRANCH_STACK) {
		if (s->branch_nr > RECORD_MAX / sizeof(struct sampo_branch_entry))
			return -EINVAL;
		rb_u64(&b, s->branch_nr);
		if (a->branch_sample_type & SAMPO_SAMPLE_BRANCH_HW_INDEX)
			rb_u64(&b, s->branch_hw_idx);
		rb_bytes(&b, s->branch, sizeof(struct sampo_branch_entry) * (size_t)s->branch_nr);
	}
	if (t & SAMPO_SAMPLE_REGS_USER)
		rb_regs(&b, &s->user_regs, a->sample_regs_user);
	if (t & SAMPO_SAMPLE_STACK_USER) {
		if (s->user_stack_size > RECORD_MAX)
			return -EINVAL;
		rb_u64(&b, s->user_stack_size);
		rb_bytes(&b, s->user_stack, (size_t)s->user_stack_size);
		if (s->user_stack_size)
			rb_u64(&b, s->user_stack_dyn_size);
	}
	if (t & SAMPO_SAMPLE_WEIGHT_STRUCT)
		rb_u64(&b, (s->weight & 0xffffffffULL) | (uint64_t)s->ins_lat << 32 |
				   (uint64_t)s->p_stage_cyc << 48);
	else if (t & SAMPO_SAMPLE_WEIGHT)
		rb_u64(&b, s->weight);
	if (t & SAMPO_SAMPLE_DATA_SRC)
		rb_u64(&b, s->data_src);
	if (t & SAMPO_SAMPLE_TRANSACTION)
		rb_u64(&b, s->transaction);
	if (t & SAMPO_SAMPLE_REGS_INTR)
		rb_regs(&b, &s->intr_regs, a->sample_regs_intr);
	if (t & SAMPO_SAMPLE_PHYS_ADDR)
		rb_u64(&b, s->phys_addr);
	if (t & SAMPO_SAMPLE_CGROUP)
		rb_u64(&b, s->cgroup);
	if (t & SAMPO_SAMPLE_DATA_PAGE_SIZE)
		rb_u64(&b, s->data_page_size);
	if (t & SAMPO_SAMPLE_CODE_PAGE_SIZE)
		rb_u64(&b, s->code_page_size);
	if (t & SAMPO_SAMPLE_AUX) {
		if (s->aux_size > RECORD_MAX)
			return -EINVAL;
		rb_u64(&b, s->aux_size);
		rb_bytes(&b, s->aux_data, (size_t)s->aux_size);
	}
	return rb_emit(w, &b, wa);
}

static int write_map(struct sampo_writer *w, uint32_t type, const struct sampo_writer_map *m,
		     const struct sampo_sample *sid)
{
	const struct writer_attr *wa = attr_for_sid(w, sid);
	uint16_t misc = m->misc;
	struct rec_builder b;

	if (type == SAMPO_RECORD_MMAP2 && m->build_id) {
		if (m->build_id_size == 0 || m->build_id_size > SAMPO_BUILD_ID_MAX)
			return -EINVAL;
		misc |= SAMPO_MISC_MMAP_BUILD_ID;
	} else if (type == SAMPO_RECORD_MMAP2) {
		misc &= (uint16_t)~SAMPO_MISC_MMAP_BUILD_ID;
	}

	rb_init(&b, w, type, misc);
	rb_u32(&b, m->pid);
	rb_u32(&b, m->tid);
	rb_u64(&b, m->start);
	rb_u64(&b, m->len);
	rb_u64(&b, m->pgoff);
	if (type == SAMPO_RECORD_MMAP2) {
		if (m->build_id) {
			uint8_t area[24] = { 0 };

			area[0] = (uint8_t)m->build_id_size;
			memcpy(area + 4, m->build_id, m->build_id_size);
			rb_bytes(&b, area, sizeof(area));
		} else {
			rb_u32(&b, m->maj);
			rb_u32(&b, m->min);
			rb_u64(&b, m->ino);
			rb_u64(&b, m->ino_generation);
		}
		rb_u32(&b, m->prot);
		rb_u32(&b, m->flags);
	}
	rb_string(&b, m->filename, 8);
	rb_sid(&b, wa, sid);
	return rb_emit(w, &b, wa);
}

int sampo_writer__write_mmap(struct sampo_writer *w, const struct sampo_writer_map *m,
			     const struct sampo_sample *sid)
{
	WRITER_CHECK(w);
	if (!m || !m->filename)
		return -EINVAL;
	return write_map(w, SAMPO_RECORD_MMAP, m, sid);
}

int sampo_writer__write_mmap2(struct sampo_writer *w, const struct sampo_writer_map *m,
			      const struct sampo_sample *sid)
{
	WRITER_CHECK(w);
	if (!m || !m->filename)
		return -EINVAL;
	return write_map(w, SAMPO_RECORD_MMAP2, m, sid);
}

int sampo_writer__write_comm(struct sampo_writer *w, uint32_t pid, uint32_t tid,
			     const char *comm, bool exec, const struct sampo_sample *sid)
{
	const struct writer_attr *wa;
	struct rec_builder b;

	WRITER_CHECK(w);
	if (!comm)
		return -EINVAL;
	wa = attr_for_sid(w, sid);
	rb_init(&b, w, SAMPO_RECORD_COMM, exec ? SAMPO_MISC_COMM_EXEC : 0);
	rb_u32(&b, pid);
	rb_u32(&b, tid);
	rb_string(&b, comm, 8);
	rb_sid(&b, wa, sid);
	return rb_emit(w, &b, wa);
}

static int write_task(struct sampo_writer *w, uint32_t type, uint32_t pid, uint32_t ppid,
		      uint32_t tid, uint32_t ptid, uint64_t time_ns, const struct sampo_sample *sid)
{
	const struct writer_attr *wa;
	struct rec_builder b;

	WRITER_CHECK(w);
	wa = attr_for_sid(w, sid);
	rb_init(&b, w, type, 0);
	rb_u32(&b, pid);
	rb_u32(&b, ppid);
	rb_u32(&b, tid);
	rb_u32(&b, ptid);
	rb_u64(&b, time_ns);
	rb_sid(&b, wa, sid);
	return rb_emit(w, &b, wa);
}

int sampo_writer__write_fork(struct sampo_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
			     uint32_t ptid, uint64_t time_ns, const struct sampo_sample *sid)
{
	return write_task(w, SAMPO_RECORD_FORK, pid, ppid, tid, ptid, time_ns, sid);
}

int sampo_writer__write_exit(struct sampo_writer *w, uint32_t pid, uint32_t ppid, uint32_t tid,
			     uint32_t ptid, uint64_t time_ns, const struct sampo_sample *sid)
{
	return write_task(w, SAMPO_RECORD_EXIT, pid, ppid, tid, ptid, time_ns, sid);
}

static int write_header_only(struct sampo_writer *w, uint32_t type)
{
	struct rec_builder b;

	WRITER_CHECK(w);
	rb_init(&b, w, type, 0);
	return rb_emit(w, &b, NULL);
}

int sampo_writer__write_finished_round(struct sampo_writer *w)
{
	return write_header_only(w, SAMPO_RECORD_FINISHED_ROUND);
}

int sampo_writer__write_finished_init(struct sampo_writer *w)
{
	return write_header_only(w, SAMPO_RECORD_FINISHED_INIT);
}

int sampo_writer__write_id_index(struct sampo_writer *w,
				 const struct sampo_id_index_entry *entries, size_t nr)
{
	struct rec_builder b;

	WRITER_CHECK(w);
	if ((nr && !entries) || nr > RECORD_MAX / sizeof(*entries))
		return -EINVAL;
	rb_init(&b, w, SAMPO_RECORD_ID_INDEX, 0);
	rb_u64(&b, nr);
	rb_bytes(&b, entries, nr * sizeof(*entries));
	return rb_emit(w, &b, NULL);
}

int sampo_writer__write_thread_map(struct sampo_writer *w,
				   const struct sampo_thread_map_entry *entries, size_t nr)
{
	struct rec_builder b;

	WRITER_CHECK(w);
	if ((nr && !entries) || nr > RECORD_MAX / sizeof(*entries))
		return -EINVAL;
	rb_init(&b, w, SAMPO_RECORD_THREAD_MAP, 0);
	rb_u64(&b, nr);
	rb_bytes(&b, entries, nr * sizeof(*entries));
	return rb_emit(w, &b, NULL);
}

int sampo_writer__write_cpu_map(struct sampo_writer *w, const uint16_t *cpus, size_t nr)
{
	struct rec_builder b;

	WRITER_CHECK(w);
	if ((nr && !cpus) || nr > UINT16_MAX)
		return -EINVAL;
	rb_init(&b, w, SAMPO_RECORD_CPU_MAP, 0);
	rb_u16(&b, SAMPO_CPU_MAP_CPUS);
	rb_u16(&b, (uint16_t)nr);
	rb_bytes(&b, cpus, 2 * nr);
	rb_zero(&b, ALIGN_UP(b.len, 8) - b.len);
	return rb_emit(w, &b, NULL);
}

int sampo_writer__write_event_update(struct sampo_writer *w, uint64_t type, uint64_t id,
				     const char *str)
{
	struct rec_builder b;

	WRITER_CHECK(w);
	if (!str || (type != SAMPO_EVENT_UPDATE_UNIT && type != SAMPO_EVENT_UPDATE_NAME))
		return -EINVAL;
	rb_init(&b, w, SAMPO_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, type);
	rb_u64(&b, id);
	rb_string(&b, str, 8);
	return rb_emit(w, &b, NULL);
}

int sampo_writer__write_event_update_scale(struct sampo_writer *w, uint64_t id, double scale)
{
	struct rec_builder b;

	WRITER_CHECK(w);
	rb_init(&b, w, SAMPO_RECORD_EVENT_UPDATE, 0);
	rb_u64(&b, SAMPO_EVENT_UPDATE_SCALE);
	rb_u64(&b, id);
	rb_bytes(&b, &scale, sizeof(scale));
	return rb_emit(w, &b, NULL);
}

/* ---- attrs ------------------------------------------------------------ */

static int writer_register_attr(struct sampo_writer *w, const struct sampo_event_attr *attr,
				const uint64_t *ids, size_t nr_ids)
{
	struct writer_attr *attrs, *wa;
	uint32_t size = attr->size ? attr->size : DEFAULT_ATTR_SIZE;

	attrs = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*attrs));
	if (!attrs)
		return -ENOMEM;
	w->attrs = attrs;
	wa = &attrs[w->nr_attrs];
	memset(wa, 0, sizeof(*wa));
	if (nr_ids) {
		wa->ids = malloc(nr_ids * sizeof(*ids));
		if (!wa->ids)
			return -ENOMEM;
		memcpy(wa->ids, ids, nr_ids * sizeof(*ids));
	}
	wa->nr_ids = nr_ids;
	memcpy(&wa->attr, attr, size);
	wa->attr.size = size;
	return (int)w->nr_attrs++;
}

int sampo_writer__add_attr(struct sampo_writer *w, const struct sampo_event_attr *attr,
			   const uint64_t *ids, size_t nr_ids)
{
	uint32_t size;
	size_t rec_size;
	uint8_t *dst;
	int idx;

	WRITER_CHECK(w);
	if (!attr || (nr_ids && !ids))
		return -EINVAL;
	size = attr->size ? attr->size : DEFAULT_ATTR_SIZE;
	if (size < SAMPO_ATTR_SIZE_VER0 || size > sizeof(*attr) || size % 8)
		return -EINVAL;
	if (nr_ids > RECORD_MAX / 8)
		return -EINVAL;

	if (!w->pipe) {
		if (w->data_started)
			return -EBUSY;
		if (w->nr_attrs && size != w->attr_size)
			return -EINVAL;
		idx = writer_register_attr(w, attr, ids, nr_ids);
		if (idx >= 0)
			w->attr_size = size;
		return idx;
	}

	rec_size = 8 + size + 8 * nr_ids;
	if (rec_size > RECORD_MAX)
		return -EINVAL;
	idx = writer_register_attr(w, attr, ids, nr_ids);
	if (idx < 0)
		return idx;
	dst = writer_reserve(w, rec_size);
	if (!dst)
		return w->err;
	st32(w, dst, SAMPO_RECORD_HEADER_ATTR);
	st16(w, dst + 4, 0);
	st16(w, dst + 6, (uint16_t)rec_size);
	encode_attr(w, dst + 8, &w->attrs[idx].attr, size);
	for (size_t i = 0; i < nr_ids; i++)
		st64(w, dst + 8 + size + 8 * i, ids[i]);
	writer_commit(w, rec_size);
	return idx;
}

/* ---- features --------------------------------------------------------- */

static bool feat_valid(int feat)
{
	return feat > SAMPO_FEAT_RESERVED && feat < SAMPO_FEAT_MAX_BITS;
}

/* Takes ownership of @data (malloc'd, file order). */
static int writer_set_feature_owned(struct sampo_writer *w, int feat, uint8_t *data, size_t size)
{
	struct writer_feature *f = &w->feats[feat];
	uint8_t *dst;
	size_t rec_size;

	if (!w->pipe) {
		free(f->data);
		f->data = data;
		f->size = size;
		f->set = true;
		return 0;
	}

	rec_size = sizeof(struct sampo_record_feature) + size;
	if (rec_size > RECORD_MAX) {
		free(data);
		return -EINVAL;
	}
	dst = writer_reserve(w, rec_size);
	if (dst) {
		st32(w, dst, SAMPO_RECORD_HEADER_FEATURE);
		st16(w, dst + 4, 0);
		st16(w, dst + 6, (uint16_t)rec_size);
		st64(w, dst + 8, (uint64_t)feat);
		if (size)
			memcpy(dst + 16, data, size);
		writer_commit(w, rec_size);
	}
	free(data);
	return w->err;
}

int sampo_writer__set_feature(struct sampo_writer *w, int feat, const void *payload, size_t size)
{
	uint8_t *copy = NULL;

	WRITER_CHECK(w);
	if (!feat_valid(feat) || (size && !payload))
		return -EINVAL;
	if (size) {
		copy = malloc(size);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, payload, size);
	}
	return writer_set_feature_owned(w, feat, copy, size);
}

/* A growable payload in file order. */
struct payload {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

static uint8_t *pl_grow(struct payload *pl, size_t n)
{
	if (pl->oom)
		return NULL;
	if (pl->cap - pl->len < n) {
		size_t cap = MAX(pl->cap * 2, pl->len + n + 256);
		uint8_t *p = realloc(pl->p, cap);

		if (!p) {
			pl->oom = true;
			return NULL;
		}
		pl->p = p;
		pl->cap = cap;
	}
	pl->len += n;
	return pl->p + pl->len - n;
}

static void pl_u32(const struct sampo_writer *w, struct payload *pl, uint32_t v)
{
	uint8_t *at = pl_grow(pl, 4);

	if (at)
		st32(w, at, v);
}

static void pl_u64(const struct sampo_writer *w, struct payload *pl, uint64_t v)
{
	uint8_t *at = pl_grow(pl, 8);

	if (at)
		st64(w, at, v);
}

/* perf's do_write_string(): u32 len (strlen + 1 rounded up to 64), NUL padded */
static void pl_string(const struct sampo_writer *w, struct payload *pl, const char *s)
{
	size_t len = strlen(s) + 1;
	size_t padded = ALIGN_UP(len, (size_t)SAMPO_NAME_ALIGN);
	uint8_t *at;

	pl_u32(w, pl, (uint32_t)padded);
	at = pl_grow(pl, padded);
	if (at) {
		memcpy(at, s, len);
		memset(at + len, 0, padded - len);
	}
}

static int pl_set(struct sampo_writer *w, int feat, struct payload *pl)
{
	if (pl->oom) {
		free(pl->p);
		return -ENOMEM;
	}
	return writer_set_feature_owned(w, feat, pl->p, pl->len);
}

int sampo_writer__set_feature_string(struct sampo_writer *w, int feat, const char *s)
{
	struct payload pl = { 0 };

	WRITER_CHECK(w);
	if (!feat_valid(feat) || !s)
		return -EINVAL;
	pl_string(w, &pl, s);
	return pl_set(w, feat, &pl);
}

int sampo_writer__set_feature_strings(struct sampo_writer *w, int feat, const char *const *v,
				      size_t n)
{
	struct payload pl = { 0 };

	WRITER_CHECK(w);
	if (!feat_valid(feat) || (n && !v) || n > UINT32_MAX)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!v[i])
			return -EINVAL;
	}
	pl_u32(w, &pl, (uint32_t)n);
	for (size_t i = 0; i < n; i++)
		pl_string(w, &pl, v[i]);
	return pl_set(w, feat, &pl);
}

int sampo_writer__set_feature_u32s(struct sampo_writer *w, int feat, const uint32_t *v, size_t n)
{
	struct payload pl = { 0 };

	WRITER_CHECK(w);
	if (!feat_valid(feat) || (n && !v))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		pl_u32(w, &pl, v[i]);
	return pl_set(w, feat, &pl);
}

int sampo_writer__set_feature_u64s(struct sampo_writer *w, int feat, const uint64_t *v, size_t n)
{
	struct payload pl = { 0 };

	WRITER_CHECK(w);
	if (!feat_valid(feat) || (n && !v))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		pl_u64(w, &pl, v[i]);
	return pl_set(w, feat, &pl);
}

int sampo_writer__set_feature_event_desc(struct sampo_writer *w, const char *const *names,
					 size_t nr_names)
{
	struct payload pl = { 0 };
	uint32_t attr_size = 0;

	WRITER_CHECK(w);
	if (nr_names != w->nr_attrs || (nr_names && !names))
		return -EINVAL;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		if (!names[i])
			return -EINVAL;
		attr_size = MAX(attr_size, w->attrs[i].attr.size);
	}
	if (attr_size == 0)
		attr_size = DEFAULT_ATTR_SIZE;

	pl_u32(w, &pl, (uint32_t)w->nr_attrs);
	pl_u32(w, &pl, attr_size);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		const struct writer_attr *wa = &w->attrs[i];
		uint8_t *at = pl_grow(&pl, attr_size);

		if (at) {
			memset(at, 0, attr_size);
			encode_attr(w, at, &wa->attr, wa->attr.size);
		}
		pl_u32(w, &pl, (uint32_t)wa->nr_ids);
		pl_string(w, &pl, names[i]);
		for (size_t j = 0; j < wa->nr_ids; j++)
			pl_u64(w, &pl, wa->ids[j]);
	}
	return pl_set(w, SAMPO_FEAT_EVENT_DESC, &pl);
}

int sampo_writer__add_build_id(struct sampo_writer *w, uint16_t cpumode, int32_t pid,
			       const uint8_t *bid, size_t bid_size, const char *filename)
{
	struct writer_feature *f;
	size_t name_len, padded, size;
	uint8_t *e;

	WRITER_CHECK(w);
	f = &w->feats[SAMPO_FEAT_BUILD_ID];
	if (!bid || bid_size == 0 || bid_size > SAMPO_BUILD_ID_MAX || !filename)
		return -EINVAL;
	name_len = strlen(filename) + 1;
	padded = ALIGN_UP(name_len, (size_t)SAMPO_NAME_ALIGN);
	size = sizeof(struct sampo_record_build_id) + padded;
	if (size > RECORD_MAX)
		return -EINVAL;

	if (w->pipe) {
		e = writer_reserve(w, size);
		if (!e)
			return w->err;
	} else {
		uint8_t *p = realloc(f->data, f->size + size);

		if (!p)
			return -ENOMEM;
		f->data = p;
		e = p + f->size;
	}

	memset(e, 0, size);
	/* perf 6.1 leaves the type 0 in the feature section */
	st32(w, e, w->pipe ? SAMPO_RECORD_HEADER_BUILD_ID : 0);
	st16(w, e + 4, (uint16_t)((cpumode & SAMPO_MISC_CPUMODE_MASK) | SAMPO_MISC_BUILD_ID_SIZE));
	st16(w, e + 6, (uint16_t)size);
	st32(w, e + 8, (uint32_t)pid);
	memcpy(e + 12, bid, bid_size);
	e[12 + SAMPO_BUILD_ID_MAX] = (uint8_t)bid_size;
	memcpy(e + sizeof(struct sampo_record_build_id), filename, name_len);

	if (w->pipe) {
		writer_commit(w, size);
	} else {
		f->size += size;
		f->set = true;
	}
	return 0;
}

/* ---- open / close ------------------------------------------------------ */

static void writer_free(struct sampo_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nr_attrs; i++)
		free(w->attrs[i].ids);
	free(w->attrs);
	for (size_t i = 0; i < ARRAY_SIZE(w->feats); i++)
		free(w->feats[i].data);
	free(w->scratch);
	free(w->buf);
	free(w);
}

int sampo_writer__open_fd(int fd, const struct sampo_writer_opts *opts,
			  struct sampo_writer **ret_writer)
{
	enum sampo_byte_order order;
	struct sampo_writer *w;
	struct stat st;
	uint8_t *dst;

	if (!ret_writer || fd < 0 || !OPTS_VALID(opts, sampo_writer_opts))
		return -EINVAL;
	order = OPTS_GET(opts, byte_order, SAMPO_BYTE_ORDER_HOST);
	if (order != SAMPO_BYTE_ORDER_HOST && order != SAMPO_BYTE_ORDER_LITTLE &&
	    order != SAMPO_BYTE_ORDER_BIG)
		return -EINVAL;
	if (fstat(fd, &st))
		return -errno;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fd = fd;
	w->pipe = OPTS_GET(opts, pipe, false);
	if (order == SAMPO_BYTE_ORDER_HOST)
		w->big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	else
		w->big = order == SAMPO_BYTE_ORDER_BIG;
	w->swap = w->big != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	w->guard_sigpipe = S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode);
	w->attr_size = DEFAULT_ATTR_SIZE;
	w->buf = malloc(WRITER_BUF_SIZE);
	w->scratch = malloc(RECORD_MAX + 1);
	if (!w->buf || !w->scratch) {
		writer_free(w);
		return -ENOMEM;
	}

	if (w->pipe) {
		dst = writer_reserve(w, PIPE_HEADER_SIZE);
		st64(w, dst, SAMPO_MAGIC2);
		st64(w, dst + 8, PIPE_HEADER_SIZE);
		writer_commit(w, PIPE_HEADER_SIZE);
		w->data_offset = PIPE_HEADER_SIZE;
		w->data_started = true;
	} else {
		/* the header is rewritten in place at close */
		if (lseek(fd, 0, SEEK_CUR) < 0) {
			int err = -errno;

			writer_free(w);
			return err;
		}
		dst = writer_reserve(w, FILE_HEADER_SIZE);
		memset(dst, 0, FILE_HEADER_SIZE);
		writer_commit(w, FILE_HEADER_SIZE);
	}
	*ret_writer = w;
	return 0;
}

/* Whether others may create names in @path's directory (world-writable or sticky). */
static int writer_dir_shared(const char *path, bool *ret_shared)
{
	char *copy = strdup(path);
	struct stat st;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	if (stat(dirname(copy), &st))
		err = -errno;
	else
		*ret_shared = (st.st_mode & (S_IWOTH | S_ISVTX)) != 0;
	free(copy);
	return err;
}

/*
 * Create or truncate @path for writing. In a shared directory, a dangling
 * symlink would make us create the file its owner chose, and a symlink or
 * a hard link to an existing file would make us truncate that file. There
 * the file is created with O_EXCL | O_NOFOLLOW; an existing name is reused
 * only when it is a regular file of ours with a single link, checked on the
 * open descriptor before it is truncated.
 * Return: an fd, -ELOOP (a symlink in a shared directory), -EEXIST (a file
 * there that is not ours alone), or -errno
 */
static int writer_open_path(const char *path)
{
	bool shared = false;
	struct stat st;
	int fd, err, flags;

	err = writer_dir_shared(path, &shared);
	if (err && err != -ENOENT)
		return err;
	/* 0600 as perf: the file holds kernel addresses and command lines */
	if (!shared) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		return fd < 0 ? -errno : fd;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0 || errno != EEXIST)
		return fd < 0 ? -errno : fd;
	/* O_NONBLOCK: a FIFO planted there must not block the open */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENXIO ? -EEXIST : -errno; /* ENXIO: a FIFO without a reader */
	if (fstat(fd, &st)) {
		err = -errno;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || st.st_nlink != 1) {
		err = -EEXIST;
		goto out_close;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) || ftruncate(fd, 0)) {
		err = -errno;
		goto out_close;
	}
	return fd;
out_close:
	close(fd);
	return err;
}

int sampo_writer__open(const char *path, const struct sampo_writer_opts *opts,
		       struct sampo_writer **ret_writer)
{
	int fd, err;

	if (!path || !ret_writer)
		return -EINVAL;
	if (strcmp(path, "-") == 0)
		return sampo_writer__open_fd(STDOUT_FILENO, opts, ret_writer);
	if (!OPTS_VALID(opts, sampo_writer_opts))
		return -EINVAL;

	fd = writer_open_path(path);
	if (fd < 0)
		return fd;
	err = sampo_writer__open_fd(fd, opts, ret_writer);
	if (err) {
		close(fd);
		return err;
	}
	(*ret_writer)->own_fd = true;
	return 0;
}

/* Feature table and payloads after the data (file mode). */
static int writer_write_features(struct sampo_writer *w)
{
	uint64_t off = w->pos;
	size_t nr = 0;

	for (size_t i = 0; i < ARRAY_SIZE(w->feats); i++)
		nr += w->feats[i].set ? 1 : 0;
	off += nr * 16;

	for (size_t i = 0; i < ARRAY_SIZE(w->feats); i++) {
		const struct writer_feature *f = &w->feats[i];
		uint8_t *dst;

		if (!f->set)
			continue;
		dst = writer_reserve(w, 16);
		if (!dst)
			return w->err;
		st64(w, dst, off);
		st64(w, dst + 8, f->size);
		writer_commit(w, 16);
		off += f->size;
	}
	for (size_t i = 0; i < ARRAY_SIZE(w->feats); i++) {
		if (w->feats[i].set && writer_put(w, w->feats[i].data, w->feats[i].size))
			return w->err;
	}
	return w->err;
}

static int writer_write_header(struct sampo_writer *w, uint64_t data_size, uint64_t base)
{
	uint8_t hdr[FILE_HEADER_SIZE] = { 0 };
	uint64_t words[4] = { 0 };
	size_t done = 0;

	st64(w, hdr + 0, SAMPO_MAGIC2);
	st64(w, hdr + 8, FILE_HEADER_SIZE);
	st64(w, hdr + 16, w->attr_size + 16u);
	st64(w, hdr + 24, w->attrs_offset);
	st64(w, hdr + 32, w->nr_attrs * (w->attr_size + 16u));
	st64(w, hdr + 40, w->data_offset);
	st64(w, hdr + 48, data_size);
	/* event_types (56..71) stays zero, as in perf 6.1 */
	for (size_t i = 0; i < ARRAY_SIZE(w->feats); i++) {
		if (w->feats[i].set)
			words[i / 64] |= 1ULL << (i % 64);
	}
	for (size_t i = 0; i < 4; i++)
		st64(w, hdr + 72 + 8 * i, words[i]);

	while (done < sizeof(hdr)) {
		ssize_t r = pwrite(w->fd, hdr + done, sizeof(hdr) - done, (off_t)(base + done));

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EIO;
		done += (size_t)r;
	}
	return 0;
}

int sampo_writer__close(struct sampo_writer *w)
{
	int err;

	if (!w)
		return 0;

	if (!w->pipe && !w->err) {
		/* where the file started: the fd has advanced by all we wrote so far */
		off_t cur = lseek(w->fd, 0, SEEK_CUR);
		uint64_t base = cur >= 0 ? (uint64_t)cur - (w->pos - w->buf_len) : 0;
		uint64_t data_size;

		if (cur < 0 && !w->err)
			w->err = -errno;
		if (!w->err && !writer_start_data(w)) {
			data_size = w->pos - w->data_offset;
			if (!writer_write_features(w) && !writer_flush(w)) {
				err = writer_write_header(w, data_size, base);
				if (err)
					w->err = err;
			}
		}
	} else {
		(void)writer_flush(w);
	}

	err = w->err;
	if (w->own_fd && close(w->fd) && !err)
		err = -errno;
	writer_free(w);
	return err;
}

int sampo_writer__flush(struct sampo_writer *w)
{
	WRITER_CHECK(w);
	return writer_flush(w);
}

uint64_t sampo_writer__offset(struct sampo_writer *w)
{
	if (!w)
		return 0;
	if (!w->data_started)
		(void)writer_start_data(w);
	return w->pipe ? w->pos - PIPE_HEADER_SIZE : w->pos;
}
