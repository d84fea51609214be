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
 * The writer is three files around one struct (lib/internal/writer.h): this
 * one opens and closes, owns the output buffer and writes the header, the
 * attrs and ids, and the file layout above; lib/writer-record.c builds the
 * records and converts them to the file's byte order; lib/writer-feature.c
 * holds the feature sections and the build-id table until close.
 *
 * Byte order: callers hand in host-order values. A record is copied into the
 * output buffer and converted there when the file's order is not the host's:
 * its fields and variable parts as record.c describes them (the same
 * description the reader swaps by), a SAMPLE field by field from its attr,
 * and the sample_id trailer of kernel records from the attr (see
 * writer-record.c). Headers, attrs and features go through
 * sampo_writer__store_u16/u32/u64(), which write the FILE's byte order
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
 *    64-p-n) after swapping the u64; writer-record.c mirrors, then stores the
 *    u64.
 *
 * Killed while writing (keep_readable, for `sampo record`): the header is
 * written as soon as the attrs are out and rewritten after every flush, so
 * a file cut at any moment reads up to its last flushed record. The order
 * of the writes is what makes this hold (see writer_checkpoint()):
 *
 *	1. header without feature bits (only when it had some): the table
 *	   after the data is about to be overwritten by more data
 *	2. the buffered records, at the end of the data
 *	3. feature table + payloads of the features set so far, after them;
 *	   when the header on disk still says no data, first a header with
 *	   the data size and no feature bits (readers take a zero data size
 *	   for a killed recorder and read records to the end of the file)
 *	4. header with the new data size and those feature bits
 *
 * A process killed between any two of these leaves a header that claims
 * only bytes already written: data it counts and, when it has feature
 * bits, a complete table. close() does the same around the final features:
 * header without bits, final table and payloads, final header. (A crash of
 * the machine may lose any page the kernel had not yet written back, in
 * any order; then the reader stops at the first damaged record, with what
 * came before it.)
 *
 * I/O errors are sticky: the first one is kept in w->err and returned by
 * every later call and by close. Argument errors (-EINVAL) are not sticky.
 *
 * Opening by path trusts the directory when it is the user's; in one that
 * others may write to (world-writable or sticky: /tmp, /dev/shm) the name
 * may be a link someone planted, so nothing there is followed (see
 * <sampo/output-file.h>).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sampo/output-file.h>
#include <sampo/writer.h>
#include "internal/record.h"
#include "internal/util.h"
#include "internal/opts.h"
#include "internal/writer.h"

#define WRITER_BUF_SIZE (256 * 1024)
#define FILE_HEADER_SIZE 104u
#define PIPE_HEADER_SIZE 16u

/* ---- attrs in the file's byte order ----------------------------------- */

/* Write @a (host order) as @size bytes of perf_event_attr in file order. */
void sampo_writer__encode_attr(const struct sampo_writer *w, uint8_t *out,
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

static int writer_checkpoint(struct sampo_writer *w);
static void writer_encode_header(const struct sampo_writer *w, uint8_t *hdr, uint64_t data_size,
				 const uint64_t words[4]);

static int writer_flush(struct sampo_writer *w)
{
	int err;

	if (w->keep_readable && w->data_started && !w->closing)
		return writer_checkpoint(w);

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
 * Fill it, then sampo_writer__commit(); not committing drops it.
 */
uint8_t *sampo_writer__reserve(struct sampo_writer *w, size_t size)
{
	if (w->err)
		return NULL;
	if (WRITER_BUF_SIZE - w->buf_len < size && writer_flush(w))
		return NULL;
	return w->buf + w->buf_len;
}

/* Append bytes that are already in file order, of any length. */
int sampo_writer__append(struct sampo_writer *w, const void *data, size_t size)
{
	const uint8_t *p = data;

	while (size) {
		size_t n = MIN(size, (size_t)WRITER_BUF_SIZE);
		uint8_t *dst = sampo_writer__reserve(w, n);

		if (!dst)
			return w->err;
		memcpy(dst, p, n);
		sampo_writer__commit(w, n);
		p += n;
		size -= n;
	}
	return w->err;
}

static int writer_put_u64(struct sampo_writer *w, uint64_t v)
{
	uint8_t *dst = sampo_writer__reserve(w, 8);

	if (!dst)
		return w->err;
	sampo_writer__store_u64(w, dst, v);
	sampo_writer__commit(w, 8);
	return 0;
}

/* File mode: the ids arrays, then the attrs section. The data starts after. */
int sampo_writer__start_data(struct sampo_writer *w)
{
	size_t entry = w->attr_size + 16u;

	if (w->data_started)
		return w->err;

	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct sampo_writer_attr *wa = &w->attrs[i];

		wa->ids_offset = w->pos;
		for (size_t j = 0; j < wa->nr_ids; j++) {
			if (writer_put_u64(w, wa->ids[j]))
				return w->err;
		}
	}

	w->attrs_offset = w->pos;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		struct sampo_writer_attr *wa = &w->attrs[i];
		uint8_t *dst = sampo_writer__reserve(w, entry);

		if (!dst)
			return w->err;
		sampo_writer__encode_attr(w, dst, &wa->attr, w->attr_size);
		sampo_writer__store_u64(w, dst + w->attr_size, wa->ids_offset);
		sampo_writer__store_u64(w, dst + w->attr_size + 8, wa->nr_ids * 8);
		sampo_writer__commit(w, entry);
	}

	w->data_offset = w->pos;
	w->data_started = true;
	if (w->keep_readable) {
		const uint64_t zero[4] = { 0, 0, 0, 0 };

		/*
		 * The first valid header (attrs, no data yet), in the buffer
		 * when the placeholder is still there: then the file is never
		 * seen non-empty with a zeroed header.
		 */
		if (w->pos == w->buf_len)
			writer_encode_header(w, w->buf, 0, zero);
		return writer_checkpoint(w);
	}
	return w->err;
}

/* ---- attrs ------------------------------------------------------------ */

int sampo_writer__register_attr(struct sampo_writer *w, const struct sampo_event_attr *attr,
				const uint64_t *ids, size_t nr_ids)
{
	struct sampo_writer_attr *attrs, *wa;
	uint32_t size = attr->size ? attr->size : WRITER_DEFAULT_ATTR_SIZE;

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
	size = attr->size ? attr->size : WRITER_DEFAULT_ATTR_SIZE;
	if (size < SAMPO_ATTR_SIZE_VER0 || size > sizeof(*attr) || size % 8)
		return -EINVAL;
	if (nr_ids > WRITER_RECORD_MAX / 8)
		return -EINVAL;

	if (!w->pipe) {
		if (w->data_started)
			return -EBUSY;
		if (w->nr_attrs && size != w->attr_size)
			return -EINVAL;
		idx = sampo_writer__register_attr(w, attr, ids, nr_ids);
		if (idx >= 0)
			w->attr_size = size;
		return idx;
	}

	rec_size = 8 + size + 8 * nr_ids;
	if (rec_size > WRITER_RECORD_MAX)
		return -EINVAL;
	idx = sampo_writer__register_attr(w, attr, ids, nr_ids);
	if (idx < 0)
		return idx;
	dst = sampo_writer__reserve(w, rec_size);
	if (!dst)
		return w->err;
	sampo_writer__store_u32(w, dst, SAMPO_RECORD_HEADER_ATTR);
	sampo_writer__store_u16(w, dst + 4, 0);
	sampo_writer__store_u16(w, dst + 6, (uint16_t)rec_size);
	sampo_writer__encode_attr(w, dst + 8, &w->attrs[idx].attr, size);
	for (size_t i = 0; i < nr_ids; i++)
		sampo_writer__store_u64(w, dst + 8 + size + 8 * i, ids[i]);
	sampo_writer__commit(w, rec_size);
	return idx;
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
	w->attr_size = WRITER_DEFAULT_ATTR_SIZE;
	w->buf = malloc(WRITER_BUF_SIZE);
	w->scratch = malloc(WRITER_RECORD_MAX + 1);
	if (!w->buf || !w->scratch) {
		writer_free(w);
		return -ENOMEM;
	}

	if (w->pipe) {
		dst = sampo_writer__reserve(w, PIPE_HEADER_SIZE);
		sampo_writer__store_u64(w, dst, SAMPO_MAGIC2);
		sampo_writer__store_u64(w, dst + 8, PIPE_HEADER_SIZE);
		sampo_writer__commit(w, PIPE_HEADER_SIZE);
		w->data_offset = PIPE_HEADER_SIZE;
		w->data_started = true;
	} else {
		/* the header is rewritten in place at close (and at each flush) */
		off_t base = lseek(fd, 0, SEEK_CUR);

		if (base < 0) {
			int err = -errno;

			writer_free(w);
			return err;
		}
		w->base = (uint64_t)base;
		w->keep_readable = OPTS_GET(opts, keep_readable, false);
		dst = sampo_writer__reserve(w, FILE_HEADER_SIZE);
		memset(dst, 0, FILE_HEADER_SIZE);
		sampo_writer__commit(w, FILE_HEADER_SIZE);
	}
	*ret_writer = w;
	return 0;
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

	/* 0600 as perf: the file holds kernel addresses and command lines */
	fd = sampo_output_file__create(path, 0600);
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
		const struct sampo_writer_feature *f = &w->feats[i];
		uint8_t *dst;

		if (!f->set)
			continue;
		dst = sampo_writer__reserve(w, 16);
		if (!dst)
			return w->err;
		sampo_writer__store_u64(w, dst, off);
		sampo_writer__store_u64(w, dst + 8, f->size);
		sampo_writer__commit(w, 16);
		off += f->size;
	}
	for (size_t i = 0; i < ARRAY_SIZE(w->feats); i++) {
		if (w->feats[i].set && sampo_writer__append(w, w->feats[i].data, w->feats[i].size))
			return w->err;
	}
	return w->err;
}

static int pwrite_all(int fd, const uint8_t *p, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = pwrite(fd, p + done, n - done, (off_t)(off + done));

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

/* The file header into @hdr (FILE_HEADER_SIZE bytes); @words: the feature bits it claims. */
static void writer_encode_header(const struct sampo_writer *w, uint8_t *hdr, uint64_t data_size,
				 const uint64_t words[4])
{
	memset(hdr, 0, FILE_HEADER_SIZE);

	sampo_writer__store_u64(w, hdr + 0, SAMPO_MAGIC2);
	sampo_writer__store_u64(w, hdr + 8, FILE_HEADER_SIZE);
	sampo_writer__store_u64(w, hdr + 16, w->attr_size + 16u);
	sampo_writer__store_u64(w, hdr + 24, w->attrs_offset);
	sampo_writer__store_u64(w, hdr + 32, w->nr_attrs * (w->attr_size + 16u));
	sampo_writer__store_u64(w, hdr + 40, w->data_offset);
	sampo_writer__store_u64(w, hdr + 48, data_size);
	/* event_types (56..71) stays zero, as in perf 6.1 */
	for (size_t i = 0; i < 4; i++)
		sampo_writer__store_u64(w, hdr + 72 + 8 * i, words[i]);
}

/* The file header, in place at w->base. */
static int writer_write_header(struct sampo_writer *w, uint64_t data_size, const uint64_t words[4])
{
	uint8_t hdr[FILE_HEADER_SIZE];

	writer_encode_header(w, hdr, data_size, words);
	return pwrite_all(w->fd, hdr, sizeof(hdr), w->base);
}

/* The feature bits of every feature set. */
static void writer_feature_words(const struct sampo_writer *w, uint64_t words[4])
{
	memset(words, 0, 4 * sizeof(*words));
	for (size_t i = 0; i < ARRAY_SIZE(w->feats); i++) {
		if (w->feats[i].set)
			words[i / 64] |= 1ULL << (i % 64);
	}
}

/*
 * A checkpoint's features: those set so far, in bit order, as long as they
 * add up to at most this (hostname, CPU and memory descriptions, event
 * names, cmdline: a few KB). Each checkpoint rewrites them after the data.
 */
#define CHECKPOINT_FEATS_MAX (64u * 1024u)

/*
 * Flush the buffer and make the file on disk readable up to its last byte
 * (keep_readable): the four steps listed at the top of this file. The
 * data size is counted from w->pos, so it only ever covers whole records:
 * the buffer only ever holds committed records.
 */
static int writer_checkpoint(struct sampo_writer *w)
{
	uint64_t words[4] = { 0, 0, 0, 0 }, zero[4] = { 0, 0, 0, 0 };
	uint8_t *blob = NULL;
	size_t nr = 0, payload = 0, off;
	int err;

	if (w->err)
		return w->err;
	if (w->hdr_has_feats) {
		err = writer_write_header(w, w->hdr_data_size, zero);
		if (err)
			goto fail;
		w->hdr_has_feats = false;
	}
	if (w->buf_len) {
		err = write_all(w->fd, w->buf, w->buf_len);
		w->buf_len = 0;
		if (err)
			goto fail;
	}

	for (size_t i = 0; i < ARRAY_SIZE(w->feats) && w->pos > w->data_offset; i++) {
		if (!w->feats[i].set || payload + w->feats[i].size > CHECKPOINT_FEATS_MAX)
			continue;
		words[i / 64] |= 1ULL << (i % 64);
		payload += w->feats[i].size;
		nr++;
	}
	if (nr) {
		size_t len = nr * 16 + payload;

		/*
		 * A header with a zero data size is read (by perf and sampo) as
		 * an unfinished recording: records up to the end of the file. A
		 * table there would be read as records: first a header that
		 * counts the data.
		 */
		if (w->hdr_data_size == 0) {
			err = writer_write_header(w, w->pos - w->data_offset, zero);
			if (err)
				goto fail;
			w->hdr_data_size = w->pos - w->data_offset;
		}
		blob = malloc(len);
		if (!blob) {
			err = -ENOMEM;
			goto fail;
		}
		off = nr * 16;
		for (size_t i = 0, t = 0; i < ARRAY_SIZE(w->feats); i++) {
			if (!(words[i / 64] & (1ULL << (i % 64))))
				continue;
			sampo_writer__store_u64(w, blob + 16 * t, w->pos + off);
			sampo_writer__store_u64(w, blob + 16 * t + 8, w->feats[i].size);
			if (w->feats[i].size)
				memcpy(blob + off, w->feats[i].data, w->feats[i].size);
			off += w->feats[i].size;
			t++;
		}
		err = pwrite_all(w->fd, blob, len, w->base + w->pos);
		free(blob);
		if (err)
			goto fail;
	}
	err = writer_write_header(w, w->pos - w->data_offset, words);
	if (err)
		goto fail;
	w->hdr_data_size = w->pos - w->data_offset;
	w->hdr_has_feats = nr != 0;
	return 0;
fail:
	w->err = err;
	return err;
}

int sampo_writer__close(struct sampo_writer *w)
{
	int err;

	if (!w)
		return 0;

	if (!w->pipe && !w->err) {
		uint64_t data_size, words[4], zero[4] = { 0, 0, 0, 0 };

		if (!sampo_writer__start_data(w) && !writer_flush(w)) {
			data_size = w->pos - w->data_offset;
			w->closing = true;
			/* keep_readable: the table the header points at is overwritten next */
			if (w->hdr_has_feats) {
				err = writer_write_header(w, data_size, zero);
				if (err)
					w->err = err;
				w->hdr_has_feats = false;
			}
			if (!w->err && !writer_write_features(w) && !writer_flush(w)) {
				writer_feature_words(w, words);
				err = writer_write_header(w, data_size, words);
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
		(void)sampo_writer__start_data(w);
	return w->pipe ? w->pos - PIPE_HEADER_SIZE : w->pos;
}
