// SPDX-License-Identifier: LGPL-2.1
/*
 * reader.c - stream the records of a perf.data file or pipe.
 *
 * Reader states: HEADER → ATTRS → DATA → END (or FAILED). sampo_reader__open()
 * does the first two and reads the feature table (reader-header.c);
 * sampo_reader__next() walks DATA. After an error the reader stays FAILED
 * and keeps its message.
 *
 * Input comes from a source (reader-source.c) that hands out contiguous byte
 * ranges at increasing offsets: a window mapped over a regular file, a read
 * buffer for pipes, or a caller's memory image (fuzzing, tests).
 *
 * Each record is checked before anyone sees it: its size against what is
 * left, then (after swapping an opposite-endian record into host order the
 * way perf does) its variable-length parts (record.c) and, for kernel
 * records, its sample fields (sample.c). A record whose type is unknown is
 * skipped by its size and counted.
 *
 * COMPRESSED records are fed to one zstd stream per file (inflate.c: perf
 * flushes but never ends the frame); the inflated bytes are a record stream
 * of their own, read before the source, and a record cut between two chunks
 * is completed by the next chunk.
 *
 * In ordered mode records with a timestamp wait in the ordered-events queue
 * (ordered-events.c) and come out sorted by (time, arrival), round by round,
 * as in perf's ordered_events; records without one are handed out at once.
 *
 * In threaded mode a second thread (prefetch.c) does all of the above and
 * hands the events over in batches; the caller's sampo_reader__next() only
 * copies an event out of the current batch (the session's
 * sampo_reader__next_ref() not even that).
 *
 * A regular file is mapped whole (reader-source.c): its records stay valid
 * until close, so the queue and the batches keep pointers to them, not
 * copies (records inflated, swapped or misaligned are still copied), and the
 * reader gives back the pages behind what it still needs every DROP_STEP
 * bytes (reader_drop_behind()).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/reader.h>
#include "internal/log.h"
#include "internal/inflate.h"
#include "internal/ordered-events.h"
#include "internal/prefetch.h"
#include "internal/reader.h"
#include "internal/reader-source.h"
#include "internal/record.h"
#include "internal/util.h"
#include "internal/opts.h"

/* ---- attrs and ids ------------------------------------------------------ */

static size_t id_hash(uint64_t id, size_t cap)
{
	return (size_t)((id * 0x9E3779B97F4A7C15ULL) >> 17) & (cap - 1);
}

static int id_table_add(struct id_table *t, uint64_t id, int32_t idx)
{
	size_t i;

	if (id == 0)
		return 0;
	if ((t->nr + 1) * 2 > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		uint64_t *nk = calloc(ncap, sizeof(*nk));
		int32_t *nv = calloc(ncap, sizeof(*nv));

		if (!nk || !nv) {
			free(nk);
			free(nv);
			return -ENOMEM;
		}
		for (size_t j = 0; j < t->cap; j++) {
			if (!t->keys[j])
				continue;
			i = id_hash(t->keys[j], ncap);
			while (nk[i])
				i = (i + 1) & (ncap - 1);
			nk[i] = t->keys[j];
			nv[i] = t->vals[j];
		}
		free(t->keys);
		free(t->vals);
		t->keys = nk;
		t->vals = nv;
		t->cap = ncap;
	}
	i = id_hash(id, t->cap);
	while (t->keys[i] && t->keys[i] != id)
		i = (i + 1) & (t->cap - 1);
	if (!t->keys[i])
		t->nr++;
	t->keys[i] = id; /* a later attr claiming the same id wins, as in perf */
	t->vals[i] = idx;
	return 0;
}

static int id_table_find(const struct id_table *t, uint64_t id)
{
	size_t i;

	if (!t->cap)
		return -1;
	i = id_hash(id, t->cap);
	while (t->keys[i]) {
		if (t->keys[i] == id)
			return t->vals[i];
		i = (i + 1) & (t->cap - 1);
	}
	return -1;
}

/* ---- the reader ------------------------------------------------------- */

int sampo_reader__fail(struct sampo_reader *r, int err, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->err, sizeof(r->err), "%s: ", r->name);
	va_start(ap, fmt);
	vsnprintf(r->err + n, sizeof(r->err) - (size_t)n, fmt, ap);
	va_end(ap);
	if (r->errbuf && r->errbuf_sz)
		snprintf(r->errbuf, r->errbuf_sz, "%s", r->err);
	r->state = ST_FAILED;
	r->last_err = err;
	return err;
}

int sampo_reader__io_fail(struct sampo_reader *r, int err, uint64_t off)
{
	char buf[128];

	return sampo_reader__fail(r, err, "read error at offset %#" PRIx64 ": %s", off,
			   sampo_strerror(err, buf, sizeof(buf)));
}

static void compute_id_pos(struct sampo_reader *r)
{
	uint64_t st = r->attrs[0].attr.sample_type;

	r->sample_id_all = !!(r->attrs[0].attr.flags & SAMPO_ATTR_SAMPLE_ID_ALL);
	if (st & SAMPO_SAMPLE_IDENTIFIER) {
		r->id_pos = 0;
		r->is_pos = 1;
	} else if (!(st & SAMPO_SAMPLE_ID)) {
		r->id_pos = r->is_pos = -1;
	} else {
		r->id_pos = !!(st & SAMPO_SAMPLE_IP) + !!(st & SAMPO_SAMPLE_TID) +
			    !!(st & SAMPO_SAMPLE_TIME) + !!(st & SAMPO_SAMPLE_ADDR);
		r->is_pos = 1 + !!(st & SAMPO_SAMPLE_CPU) + !!(st & SAMPO_SAMPLE_STREAM_ID);
	}
}

int sampo_reader__add_ids(struct sampo_reader *r, size_t idx, const uint64_t *ids, size_t nr_ids)
{
	for (size_t i = 0; i < nr_ids; i++) {
		int err = id_table_add(&r->ids, ids[i], (int32_t)idx);

		if (err)
			return err;
	}
	return 0;
}

/* Take ownership of ids. */
int sampo_reader__add_attr(struct sampo_reader *r, const void *attr_bytes, size_t attr_len,
			   uint64_t *ids, size_t nr_ids)
{
	struct attr_entry *e;
	size_t copy = MIN(attr_len, sizeof(struct sampo_event_attr));
	int err;

	if (r->nr_attrs >= MAX_ATTRS) {
		free(ids);
		return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED, "more than %u attrs", MAX_ATTRS);
	}
	if (sampo_array_grow((void **)&r->attrs, &r->attrs_cap, r->nr_attrs + 1,
			     sizeof(*r->attrs))) {
		free(ids);
		return -ENOMEM;
	}
	e = &r->attrs[r->nr_attrs];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr_bytes, copy);
	e->ids = ids;
	e->nr_ids = nr_ids;
	e->own_ids = true;
	err = sampo_reader__add_ids(r, r->nr_attrs, ids, nr_ids);
	if (err) {
		free(ids);
		return err;
	}
	r->nr_attrs++;
	if (r->nr_attrs == 1)
		compute_id_pos(r);
	return 0;
}

static int reader_init(struct sampo_reader *r, const char *name,
		       const struct sampo_reader_opts *opts)
{
	if (!OPTS_VALID(opts, sampo_reader_opts))
		return -EINVAL;
	r->name = strdup(name);
	if (!r->name)
		return -ENOMEM;
	r->ordered = OPTS_GET(opts, ordered, false);
	r->raw = OPTS_GET(opts, raw, false);
	r->threaded = OPTS_GET(opts, threaded, false);
	r->errbuf = OPTS_GET(opts, errbuf, NULL);
	r->errbuf_sz = OPTS_GET(opts, errbuf_sz, 0);
	if (r->errbuf && r->errbuf_sz)
		r->errbuf[0] = '\0';
	r->recbuf = aligned_alloc(8, 65536 + 8);
	if (!r->recbuf)
		return -ENOMEM;
	return 0;
}

static int reader_finish_open(struct sampo_reader *r, struct sampo_reader **ret_reader)
{
	int err = sampo_reader__read_header(r);

	if (err) {
		if (err == -ENOMEM && r->state != ST_FAILED)
			sampo_reader__fail(r, err, "out of memory");
		sampo_reader__close(r);
		return err;
	}
	r->state = ST_DATA;
	*ret_reader = r;
	return 0;
}

static int open_fail_early(const struct sampo_reader_opts *opts, const char *name, int err)
{
	char buf[128];

	if (OPTS_GET(opts, errbuf, NULL) && OPTS_GET(opts, errbuf_sz, 0))
		snprintf(opts->errbuf, opts->errbuf_sz, "%s: %s", name,
			 sampo_strerror(err, buf, sizeof(buf)));
	return err ? err : -EIO; /* never "success" from a failed open, even if errno was 0 */
}

int sampo_reader__open_fd(int fd, const char *name, const struct sampo_reader_opts *opts,
			  struct sampo_reader **ret_reader)
{
	struct sampo_reader *r;
	struct stat st;
	int err;

	if (fstat(fd, &st) < 0)
		return open_fail_early(opts, name, -errno);
	if (S_ISDIR(st.st_mode))
		return open_fail_early(opts, name, -EISDIR);
	r = calloc(1, sizeof(*r));
	if (!r)
		return open_fail_early(opts, name, -ENOMEM);
	err = reader_init(r, name, opts);
	if (err) {
		sampo_reader__close(r);
		return open_fail_early(opts, name, err);
	}
	r->src.fd = fd;
	r->mtime = st.st_mtime;
	if (S_ISREG(st.st_mode)) {
		r->src.kind = SAMPO_SOURCE_MMAP;
		r->src.page_size = (uint64_t)sysconf(_SC_PAGESIZE);
		r->src.size = (uint64_t)st.st_size;
		r->file_size = (uint64_t)st.st_size;
	} else {
		r->src.kind = SAMPO_SOURCE_STREAM;
	}
	return reader_finish_open(r, ret_reader);
}

int sampo_reader__open(const char *path, const struct sampo_reader_opts *opts,
		       struct sampo_reader **ret_reader)
{
	struct sampo_reader *r = NULL;
	int fd, err;

	if (!strcmp(path, "-"))
		return sampo_reader__open_fd(STDIN_FILENO, "pipe", opts, ret_reader);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return open_fail_early(opts, path, -errno);
	err = sampo_reader__open_fd(fd, path, opts, &r);
	if (err) {
		close(fd);
		return err;
	}
	r->own_fd = true;
	*ret_reader = r;
	return 0;
}

int sampo_reader__open_mem(const void *buf, size_t len, const char *name,
			   const struct sampo_reader_opts *opts, struct sampo_reader **ret_reader)
{
	struct sampo_reader *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return open_fail_early(opts, name, -ENOMEM);
	err = reader_init(r, name, opts);
	if (err) {
		sampo_reader__close(r);
		return open_fail_early(opts, name, err);
	}
	r->src.kind = SAMPO_SOURCE_MEM;
	r->src.fd = -1;
	r->src.mem = buf;
	r->src.size = len;
	r->file_size = len;
	return reader_finish_open(r, ret_reader);
}

void sampo_reader__close(struct sampo_reader *r)
{
	if (!r)
		return;
	sampo_prefetch__stop(r->pf);
	r->pf = NULL;
	sampo_source__release(&r->src);
	if (r->own_fd)
		close(r->src.fd);
	for (size_t i = 0; i < r->nr_attrs; i++)
		if (r->attrs[i].own_ids)
			free(r->attrs[i].ids);
	for (size_t i = 0; i < r->nr_id_bufs; i++)
		free(r->id_bufs[i]);
	free(r->id_bufs);
	free(r->attrs);
	free(r->ids.keys);
	free(r->ids.vals);
	for (int i = 0; i < SAMPO_FEAT_MAX_BITS; i++)
		free(r->features[i].data);
	sampo_inflate__release(&r->decomp);
	free(r->pending);
	sampo_ordered_events__release(&r->queue);
	free(r->recbuf);
	free(r->name);
	free(r);
}

/* ---- records ------------------------------------------------------------ */

static int record_attr(struct sampo_reader *r, const union sampo_record *rec)
{
	size_t nwords = (rec->header.size - 8u) / 8;
	const uint8_t *body = (const uint8_t *)rec + 8;
	uint64_t id;
	int idx;

	if (r->nr_attrs == 0)
		return -1;
	if (r->nr_attrs == 1)
		return 0;
	if (rec->header.type != SAMPO_RECORD_SAMPLE && !r->sample_id_all)
		return 0;
	if (rec->header.type == SAMPO_RECORD_SAMPLE) {
		if (r->id_pos < 0)
			return 0;
		if ((size_t)r->id_pos >= nwords)
			return -1;
		id = load_u64(body + 8 * (size_t)r->id_pos);
	} else {
		if (r->is_pos < 0)
			return 0;
		if ((size_t)r->is_pos > nwords)
			return -1;
		id = load_u64(body + 8 * (nwords - (size_t)r->is_pos));
	}
	if (id == 0) /* synthesized records carry id 0: the first attr */
		return 0;
	idx = id_table_find(&r->ids, id);
	return idx;
}

static void apply_pending(struct sampo_reader *r)
{
	union sampo_record *rec = r->pending;

	r->pending = NULL;
	if (rec->header.type == SAMPO_RECORD_HEADER_ATTR) {
		size_t asz = rec->attr.attr.size;
		size_t nr_ids = (rec->header.size - 8u - asz) / 8;
		uint64_t *ids = nr_ids ? malloc(nr_ids * 8) : NULL;

		if (nr_ids && !ids) {
			sampo_reader__fail(r, -ENOMEM, "out of memory");
		} else {
			if (nr_ids)
				memcpy(ids, (uint8_t *)&rec->attr.attr + asz, nr_ids * 8);
			(void)sampo_reader__add_attr(r, &rec->attr.attr, asz, ids, nr_ids);
		}
	} else if (rec->header.type == SAMPO_RECORD_HEADER_FEATURE) {
		uint64_t feat = rec->feature.feat_id;
		size_t len = rec->header.size - sizeof(rec->feature);

		if (feat < SAMPO_FEAT_MAX_BITS) {
			struct feature_slot *f = &r->features[feat];
			uint8_t *copy = malloc(len ? len : 1);

			if (copy) {
				memcpy(copy, rec->feature.data, len);
				free(f->data);
				f->data = copy;
				f->size = len;
				f->present = true;
				r->header.adds_features[feat / 64] |= 1ULL << (feat % 64);
			}
		}
	}
	free(rec);
}

/*
 * The buffer size the file records in its COMPRESSED feature (perf's
 * mmap_len) bounds what one COMPRESSED record inflates to, as it bounds
 * perf's output buffer. A file reads it once (a pread: the feature lies past
 * the data); a pipe looks until its HEADER_FEATURE has come.
 */
static void reader_set_inflate_cap(struct sampo_reader *r)
{
	struct feature_slot *f = &r->features[SAMPO_FEAT_COMPRESSED];
	uint32_t v[5];

	if (r->decomp.record_cap || r->comp_cap_read)
		return;
	r->comp_cap_read = !r->pipe;
	if (!f->present || f->size < sizeof(v))
		return;
	if (f->data)
		memcpy(v, f->data, sizeof(v));
	else if (r->src.kind == SAMPO_SOURCE_MEM)
		memcpy(v, r->src.mem + f->offset, sizeof(v));
	else if (pread(r->src.fd, v, sizeof(v), (off_t)f->offset) != (ssize_t)sizeof(v))
		return;
	r->decomp.record_cap = r->swap ? bswap_32(v[4]) : v[4];
}

/*
 * The size of the record whose header is at @hdr, @size16 being its 16-bit
 * size field in host order. Android simpleperf's own record types
 * (SAMPO_SIMPLEPERF_RECORD_*, from 32768 on: perf never writes them) keep
 * the high 16 bits of a 32-bit size where perf has misc.
 */
static size_t simpleperf_size(const struct sampo_reader *r, const uint8_t *hdr, size_t size16)
{
	uint32_t type;
	uint16_t hi;

	memcpy(&type, hdr, sizeof(type));
	memcpy(&hi, hdr + offsetof(struct sampo_record_header, misc), sizeof(hi));
	if (r->swap) {
		type = bswap_32(type);
		hi = bswap_16(hi);
	}
	if (type < SAMPO_SIMPLEPERF_RECORD_START)
		return size16;
	return (size_t)hi << 16 | size16;
}

/*
 * simpleperf's TRACING_DATA of type 66 (before it had a type of its own):
 * u32 size, then the data padded to 64 bytes, all inside the record, where
 * perf's 12-byte record is followed by its data.
 */
static bool simpleperf_tracing_data(const union sampo_record *rec)
{
	size_t size = rec->header.size;

	return rec->header.type == SAMPO_RECORD_HEADER_TRACING_DATA &&
	       size > 2 * sizeof(rec->tracing_data) &&
	       size - sizeof(rec->tracing_data) >= rec->tracing_data.size;
}

/*
 * simpleperf's EVENT_ID record: the ids of events opened after the file's
 * attr section was written, as (attr index, id) pairs, for the records that
 * follow. Pairs naming no attr are left out.
 */
static void simpleperf_event_ids(struct sampo_reader *r, const union sampo_record *rec)
{
	const uint8_t *body = (const uint8_t *)rec + sizeof(rec->header);
	size_t nwords = (rec->header.size - sizeof(rec->header)) / 8;
	uint64_t nr = nwords && !r->swap ? load_u64(body) : 0; /* simpleperf writes little-endian */

	for (uint64_t i = 0; i < nr && 2 + 2 * i < nwords; i++) {
		uint64_t idx = load_u64(body + 8 * (1 + 2 * i));
		uint64_t id = load_u64(body + 8 * (2 + 2 * i));

		if (idx < r->nr_attrs)
			(void)sampo_reader__add_ids(r, (size_t)idx, &id, 1);
	}
}

/*
 * A simpleperf record over 64 KiB (a kallsyms, tracing data): handed out as
 * its 8-byte header alone (type kept, misc 0, size 8), the body after it as
 * the payload (NULL when larger than the source window; payload_size says
 * how much). No struct of sampo's has a 32-bit size.
 */
static int simpleperf_big_record(struct sampo_reader *r, uint64_t where, size_t size,
				 union sampo_record **out, uint64_t *offset, bool *decompressed,
				 const void **payload, size_t *payload_size)
{
	union sampo_record *rec = r->recbuf;
	const uint8_t *p;
	size_t avail;
	int err;

	err = sampo_source__get(&r->src, where, sizeof(rec->header), &p, &avail);
	if (err < 0)
		return sampo_reader__io_fail(r, err, where);
	if (err > 0)
		return sampo_reader__fail(r, -SAMPO_ERR_TRUNCATED,
				   "record header at offset %#" PRIx64 " is cut off", where);
	memcpy(&rec->header, p, sizeof(rec->header));
	if (r->swap)
		rec->header.type = bswap_32(rec->header.type);
	rec->header.misc = 0;
	rec->header.size = sizeof(rec->header);
	r->stats.nr_unknown_type++;
	if (size - sizeof(rec->header) <= SAMPO_SOURCE_WINDOW) {
		err = sampo_source__get(&r->src, where + sizeof(rec->header),
					size - sizeof(rec->header), &p, &avail);
		if (err < 0)
			return sampo_reader__io_fail(r, err, where);
		if (err > 0)
			return sampo_reader__fail(r, -SAMPO_ERR_TRUNCATED,
					   "record at offset %#" PRIx64 " of size %#zx is cut off",
					   where, size);
		*payload = p;
	}
	*payload_size = size - sizeof(rec->header);
	r->pos += size;
	r->stats.bytes_read += size;
	*offset = where - r->offset_base;
	*decompressed = false;
	*out = rec;
	return 1;
}

/*
 * Get the next raw record from the inflated stream (if any) or the source,
 * copied or pointed to in host order, checked. Return 1 with *out set, 0 at
 * the end, or an error.
 */
static int read_one(struct sampo_reader *r, union sampo_record **out, uint64_t *offset,
		    bool *decompressed, const void **payload, size_t *payload_size);

/* Swap, check and count one record that sits in r->recbuf or at *p. */
static int take_record(struct sampo_reader *r, const uint8_t *p, size_t size, uint64_t where,
		       bool from_decomp, union sampo_record **out)
{
	union sampo_record *rec;
	char why[200];
	int err;

	if (r->swap || ((uintptr_t)p & 7)) {
		memcpy(r->recbuf, p, size);
		rec = r->recbuf;
	} else {
		rec = (union sampo_record *)p;
	}
	if (r->swap) {
		/* header first: the type-specific swap needs the host-order size */
		rec->header.type = bswap_32(rec->header.type);
		rec->header.misc = bswap_16(rec->header.misc);
		rec->header.size = bswap_16(rec->header.size);
	}
	if (sampo_record__known(rec->header.type))
		r->stats.nr_records[rec->header.type]++;
	else
		r->stats.nr_unknown_type++;
	if (r->swap)
		sampo_record__swap(rec, r->sample_id_all);
	if (rec->header.type == SAMPO_RECORD_MMAP2 && size >= sizeof(rec->mmap2) &&
	    (rec->header.misc & SAMPO_MISC_MMAP_BUILD_ID) &&
	    rec->mmap2.build_id_size > SAMPO_BUILD_ID_MAX) {
		/*
		 * Some kernels set the build-id flag on every MMAP2 while any
		 * recorder asks for build-ids, over the device and inode
		 * fields: no build-id can be that long, so read it as the
		 * inode form (perf 6.1 aborts on such a record).
		 */
		if (rec != r->recbuf) {
			memcpy(r->recbuf, p, size);
			rec = r->recbuf;
		}
		rec->header.misc &= (uint16_t)~SAMPO_MISC_MMAP_BUILD_ID;
		if (!r->warned_mmap2_build_id++)
			pr_warn("%s: MMAP2 record at offset %#" PRIx64 " has the build-id flag with a %u-byte build-id; read as device and inode\n",
				r->name, where, rec->mmap2.build_id_size);
	}
	err = sampo_record__validate(rec, why, sizeof(why));
	if (err)
		return sampo_reader__fail(r, err, "%s record at offset %#" PRIx64 "%s: %s",
				   sampo_record__name(rec->header.type), where,
				   from_decomp ? " (inflated from a COMPRESSED record)" : "", why);
	*out = rec;
	return 0;
}

static int read_one(struct sampo_reader *r, union sampo_record **out, uint64_t *offset,
		    bool *decompressed, const void **payload, size_t *payload_size)
{
	for (;;) {
		struct sampo_inflate *d = &r->decomp;
		const uint8_t *p;
		size_t avail = 0, size;
		uint16_t size16;
		uint64_t where;
		int err;

		*payload = NULL;
		*payload_size = 0;
		/* records inflated from the last COMPRESSED record come first */
		if (sampo_inflate__avail(d) >= sizeof(struct sampo_record_header)) {
			memcpy(&size16, sampo_inflate__next(d) + offsetof(struct sampo_record_header, size),
			       sizeof(size16));
			size = r->swap ? bswap_16(size16) : size16;
			size = simpleperf_size(r, sampo_inflate__next(d), size);
			if (size < 8)
				return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
						   "record in the COMPRESSED data at offset %#" PRIx64
						   ": size %zu is smaller than the 8-byte header",
						   d->offset, size);
			if (size > UINT16_MAX)
				return sampo_reader__fail(r, -SAMPO_ERR_UNSUPPORTED,
						   "simpleperf record of %zu bytes in the COMPRESSED data at offset %#" PRIx64
						   ": records over 64 KiB are only read uncompressed",
						   size, d->offset);
			if (sampo_inflate__avail(d) >= size) {
				p = sampo_inflate__next(d);
				sampo_inflate__take(d, size);
				*offset = d->offset - r->offset_base;
				*decompressed = true;
				err = take_record(r, p, size, d->offset, true, out);
				return err ? err : 1;
			}
		}

		if (!r->pipe && r->pos >= r->data_end) {
			if (r->data_truncated)
				return sampo_reader__fail(r, -SAMPO_ERR_TRUNCATED,
						   "truncated: the data section should end at %#" PRIx64
						   " but the file ends at %#" PRIx64,
						   r->header.data.offset + r->header.data.size,
						   r->file_size);
			return 0;
		}
		where = r->pos;
		err = sampo_source__get(&r->src, where, 8, &p, &avail);
		if (err < 0)
			return sampo_reader__io_fail(r, err, where);
		if (err > 0) {
			if (avail == 0 && r->pipe)
				return 0; /* a stream ends between records */
			return sampo_reader__fail(r, -SAMPO_ERR_TRUNCATED,
					   "record header at offset %#" PRIx64 " is cut off: only %zu of 8 bytes",
					   where, avail);
		}
		memcpy(&size16, p + 6, 2);
		size = r->swap ? bswap_16(size16) : size16;
		size = simpleperf_size(r, p, size);
		if (size < 8)
			return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
					   "record at offset %#" PRIx64
					   ": size %zu is smaller than the 8-byte header",
					   where, size);
		if (!r->pipe && size > r->data_end - where && r->unfinished) {
			pr_warn("%s: the file ends inside the record at offset %#" PRIx64
				" (%" PRIu64 " of its %zu bytes), the last one the unfinished "
				"recording wrote: %" PRIu64 " bytes of records read before it\n",
				r->name, where, r->data_end - where, size, r->stats.bytes_read);
			r->pos = r->data_end;
			return 0;
		}
		if (!r->pipe && size > r->data_end - where)
			return sampo_reader__fail(r, r->data_truncated ? -SAMPO_ERR_TRUNCATED : -SAMPO_ERR_MALFORMED,
					   "record at offset %#" PRIx64 " of size %#zx runs past the end of the %s (%#" PRIx64 ")",
					   where, size, r->data_truncated ? "file" : "data section", r->data_end);
		if (size > UINT16_MAX)
			return simpleperf_big_record(r, where, size, out, offset, decompressed,
						     payload, payload_size);
		err = sampo_source__get(&r->src, where, size, &p, &avail);
		if (err < 0)
			return sampo_reader__io_fail(r, err, where);
		if (err > 0)
			return sampo_reader__fail(r, -SAMPO_ERR_TRUNCATED,
					   "record at offset %#" PRIx64 " of size %#zx is cut off after %zu bytes",
					   where, size, avail);
		r->pos += size;
		r->stats.bytes_read += size;

		err = take_record(r, p, size, where, false, out);
		if (err)
			return err;
		*offset = where - r->offset_base;
		*decompressed = false;

		switch ((*out)->header.type) {
		case SAMPO_RECORD_COMPRESSED:
		case SAMPO_RECORD_COMPRESSED2: {
			const union sampo_record *c = *out;
			const void *data = c->compressed.data;
			size_t len = size - 8;
			char why[256];

			if (c->header.type == SAMPO_RECORD_COMPRESSED2) {
				data = c->compressed2.data;
				len = (size_t)c->compressed2.data_size;
			}
			reader_set_inflate_cap(r);
			err = sampo_inflate__feed(d, data, len, where, why, sizeof(why));
			if (err)
				return sampo_reader__fail(r, err, "%s", why);
			continue; /* not handed out: its records are */
		}
		case SAMPO_RECORD_HEADER_TRACING_DATA:
		case SAMPO_RECORD_AUXTRACE: {
			/* the payload follows the record; keep the record, then map the payload */
			uint64_t extra = (*out)->header.type == SAMPO_RECORD_AUXTRACE ?
						 (*out)->auxtrace.size :
						 (*out)->tracing_data.size;

			if (simpleperf_tracing_data(*out)) {
				/* simpleperf's: the data are inside the record */
				*payload = (const uint8_t *)*out + sizeof((*out)->tracing_data);
				*payload_size = (size_t)extra;
				return 1;
			}

			if (*out != r->recbuf) {
				memcpy(r->recbuf, *out, size);
				*out = r->recbuf;
			}
			if (!r->pipe && extra > r->data_end - r->pos)
				return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
						   "%s record at offset %#" PRIx64 ": payload of %" PRIu64
						   " bytes runs past the end of the data section",
						   sampo_record__name((*out)->header.type), where, extra);
			if (extra <= SAMPO_SOURCE_WINDOW) {
				err = sampo_source__get(&r->src, r->pos, (size_t)extra, &p, &avail);
				if (err < 0)
					return sampo_reader__io_fail(r, err, r->pos);
				if (err > 0)
					return sampo_reader__fail(r, -SAMPO_ERR_TRUNCATED,
							   "%s payload at offset %#" PRIx64 " is cut off",
							   sampo_record__name((*out)->header.type), r->pos);
				*payload = p;
			}
			*payload_size = (size_t)extra;
			r->pos += extra;
			return 1;
		}
		case SAMPO_SIMPLEPERF_RECORD_EVENT_ID:
			simpleperf_event_ids(r, *out);
			return 1;
		default:
			return 1;
		}
	}
}

static int decode_event(struct sampo_reader *r, union sampo_record *rec, struct sampo_event *ev)
{
	uint32_t type = rec->header.type;
	int err;

	ev->record = rec;
	ev->attr_idx = -1;
	ev->has_sample_id = false;
	if (type >= SAMPO_RECORD_USER_TYPE_START || !sampo_record__known(type))
		goto no_fields;
	ev->attr_idx = record_attr(r, rec);
	if (ev->attr_idx < 0) {
		if (type == SAMPO_RECORD_SAMPLE)
			r->stats.nr_unknown_id++;
		goto no_fields;
	}
	if (r->raw && !r->ordered)
		goto no_fields;
	/* it clears the sample first (the sample is 312 bytes: clearing it twice showed) */
	err = sampo_sample__parse(&r->attrs[ev->attr_idx].attr, rec, r->swap, &ev->sample);
	if (err)
		return sampo_reader__fail(r, err,
				   "%s record at offset %#" PRIx64 ": sample fields of sample_type %#" PRIx64
				   " run past the end of the %u-byte record",
				   sampo_record__name(type), ev->offset,
				   r->attrs[ev->attr_idx].attr.sample_type, rec->header.size);
	ev->has_sample_id = type != SAMPO_RECORD_SAMPLE &&
			    (r->attrs[ev->attr_idx].attr.flags & SAMPO_ATTR_SAMPLE_ID_ALL);
	return 0;
no_fields:
	memset(&ev->sample, 0, sizeof(ev->sample));
	ev->sample.time = (uint64_t)-1;
	ev->sample.cpu = ev->sample.pid = ev->sample.tid = (uint32_t)-1;
	ev->sample.cpumode = rec->header.misc & SAMPO_MISC_CPUMODE_MASK;
	ev->sample.misc = rec->header.misc;
	return 0;
}

static uint64_t event_time(const struct sampo_reader *r, const struct sampo_event *ev)
{
	const struct sampo_event_attr *attr;

	if (ev->attr_idx < 0)
		return (uint64_t)-1;
	attr = &r->attrs[ev->attr_idx].attr;
	if (!(attr->sample_type & SAMPO_SAMPLE_TIME))
		return (uint64_t)-1;
	if (ev->record->header.type != SAMPO_RECORD_SAMPLE && !ev->has_sample_id)
		return (uint64_t)-1;
	return ev->sample.time;
}

/*
 * The next record the queue releases, decoded again (it decoded when it was
 * queued). In a pipe, a HEADER_ATTR read meanwhile may have given its id to
 * another attr, whose fields the record does not hold: then the reader
 * fails there, as for any such record, rather than hand out a sample half
 * decoded (a callchain count without its callchain).
 * Return: 1 (a record in @ev), 0 (none), or the reader's error.
 */
static int reader_pop(struct sampo_reader *r, struct sampo_event *ev)
{
	union sampo_record *rec;
	int err;

	if (!sampo_ordered_events__pop(&r->queue, &rec, &ev->offset, &ev->decompressed))
		return 0;
	ev->payload = NULL; /* records with a payload are never queued */
	ev->payload_size = 0;
	err = decode_event(r, rec, ev);
	return err ? err : 1;
}

/*
 * The time of a SAMPLE record of attr @idx that the ordered mode is about to
 * queue, and whether its fields fit in it, without decoding it: for a
 * sample_type of fixed-size fields with at most a callchain after them,
 * which is what perf record writes by default. The queue decodes the record
 * when it releases it (reader_pop()), so a full decoding here is thrown
 * away: it was a quarter of report's reading. A record this check lets
 * through decodes without error later (the same bounds as
 * sampo_sample__parse()'s).
 * Return: true with *@time, false: decode the record whole.
 */
#define FIXED_SAMPLE_FIELDS                                                                        \
	(SAMPO_SAMPLE_IDENTIFIER | SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |        \
	 SAMPO_SAMPLE_ADDR | SAMPO_SAMPLE_ID | SAMPO_SAMPLE_STREAM_ID | SAMPO_SAMPLE_CPU |         \
	 SAMPO_SAMPLE_PERIOD)

static bool sample_time_fast(const struct sampo_reader *r, const union sampo_record *rec, int idx,
			     uint64_t *time)
{
	uint64_t type = r->attrs[idx].attr.sample_type;
	const uint8_t *body = (const uint8_t *)rec + 8;
	size_t size = rec->header.size, words;

	if (!(type & SAMPO_SAMPLE_TIME) || (type & ~(FIXED_SAMPLE_FIELDS | SAMPO_SAMPLE_CALLCHAIN)))
		return false;
	/* counted by hand: without -mpopcnt __builtin_popcountll() is a call */
	words = !!(type & SAMPO_SAMPLE_IDENTIFIER) + !!(type & SAMPO_SAMPLE_IP) +
		!!(type & SAMPO_SAMPLE_TID) + 1 /* TIME */ + !!(type & SAMPO_SAMPLE_ADDR) +
		!!(type & SAMPO_SAMPLE_ID) + !!(type & SAMPO_SAMPLE_STREAM_ID) +
		!!(type & SAMPO_SAMPLE_CPU) + !!(type & SAMPO_SAMPLE_PERIOD);
	if (size < 8 + 8 * words)
		return false;
	if (type & SAMPO_SAMPLE_CALLCHAIN) {
		if (size < 8 + 8 * (words + 1) ||
		    load_u64(body + 8 * words) > (size - 8 - 8 * (words + 1)) / 8)
			return false;
	}
	/* IDENTIFIER, IP and TID come before TIME */
	*time = load_u64(body + 8 * (size_t)(!!(type & SAMPO_SAMPLE_IDENTIFIER) +
					     !!(type & SAMPO_SAMPLE_IP) +
					     !!(type & SAMPO_SAMPLE_TID)));
	return true;
}

/* bytes of a file read between two hand-backs of the pages behind */
#define DROP_STEP (2U << 20)
/*
 * and kept behind what the reader needs: the records handed out last, in the
 * read-ahead batches (PF_MAX_FULL + 1 batches of at most 1 MiB of records,
 * most often far less)
 */
#define DROP_SLACK (4U << 20)
/* a record queued in place this far behind is let go of all the same (read again if needed) */
#define DROP_LAG_MAX (16 * SAMPO_SOURCE_WINDOW)

static void reader_ask_stable(struct sampo_reader *r)
{
	if (!r->stable_asked) {
		r->stable_asked = true;
		if (!sampo_source__stable(&r->src, &r->stable_lo, &r->stable_hi))
			r->stable_lo = r->stable_hi = NULL;
	}
}

/* Whether @rec (not inflated) stays valid until close: then it is queued in place. */
static bool record_stable(struct sampo_reader *r, const union sampo_record *rec)
{
	const uint8_t *p = (const uint8_t *)rec;

	reader_ask_stable(r);
	return p >= r->stable_lo && p < r->stable_hi;
}

/*
 * A file mapped whole: give back its pages behind what the reader still
 * needs, every DROP_STEP bytes: the record read last, and the records queued
 * in place (a record with a time far ahead does not hold pages longer than
 * DROP_LAG_MAX: touched again, its page is read again).
 */
static void reader_drop_behind(struct sampo_reader *r)
{
	uint64_t keep = r->pos, min;

	if (r->pos < r->drop_at || r->src.kind != SAMPO_SOURCE_MMAP)
		return;
	r->drop_at = r->pos + DROP_STEP;
	if (r->ordered) {
		min = sampo_ordered_events__min_in_place(&r->queue);
		if (min != UINT64_MAX && min + r->offset_base < keep)
			keep = min + r->offset_base;
		if (r->pos > DROP_LAG_MAX && keep < r->pos - DROP_LAG_MAX)
			keep = r->pos - DROP_LAG_MAX;
	}
	/* slack for the records handed out last, read ahead in batches */
	if (keep > DROP_SLACK)
		sampo_source__drop_before(&r->src, keep - DROP_SLACK);
}

static int reader_next_sync(struct sampo_reader *r, struct sampo_event *ev);

static int reader_next_ahead(void *arg, struct sampo_event *ev)
{
	return reader_next_sync(arg, ev);
}

int sampo_reader__next(struct sampo_reader *r, struct sampo_event *ev)
{
	const struct sampo_event *e = NULL;
	int ret;

	if (!r->threaded || r->pipe)
		return reader_next_sync(r, ev);
	ret = sampo_reader__next_ref(r, &e);
	if (ret > 0 && e)
		*ev = *e;
	return ret;
}

int sampo_reader__next_ref(struct sampo_reader *r, const struct sampo_event **ev)
{
	int ret;

	if (!r->threaded || r->pipe) {
		ret = reader_next_sync(r, &r->ev);
		*ev = &r->ev;
		return ret;
	}
	if (!r->pf) {
		reader_ask_stable(r);
		r->pf = sampo_prefetch__start(reader_next_ahead, r, &r->stats, r->stable_lo,
					      r->stable_hi);
		if (!r->pf) {
			/* no thread: read in the caller's thread instead */
			r->threaded = false;
			ret = reader_next_sync(r, &r->ev);
			*ev = &r->ev;
			return ret;
		}
	}
	ret = sampo_prefetch__next_ref(r->pf, ev);
	if (ret == -ENOMEM && r->state != ST_FAILED)
		return sampo_reader__fail(r, ret, "out of memory reading ahead");
	return ret;
}

static int reader_next_sync(struct sampo_reader *r, struct sampo_event *ev)
{
	struct sampo_ordered_events *q = &r->queue;

	if (r->state == ST_FAILED)
		return r->last_err;
	sampo_ordered_events__recycle(q);
	if (r->pending)
		apply_pending(r);
	if (r->state == ST_FAILED)
		return -ENOMEM;

	for (;;) {
		union sampo_record *rec;
		const void *payload;
		size_t payload_size;
		bool decompressed;
		uint64_t offset = 0, time;
		int ret, err;

		ret = reader_pop(r, ev);
		if (ret)
			return ret;
		if (r->state == ST_DRAIN) {
			r->state = ST_FAILED;
			return r->last_err;
		}
		if (r->state == ST_END) {
			/* the final flush */
			sampo_ordered_events__flush(q, UINT64_MAX);
			return reader_pop(r, ev);
		}
		reader_drop_behind(r);
		ret = read_one(r, &rec, &offset, &decompressed, &payload, &payload_size);
		if (ret < 0) {
			if (!r->ordered || q->nr == 0)
				return ret;
			r->state = ST_DRAIN;
			sampo_ordered_events__flush(q, UINT64_MAX);
			continue;
		}
		if (ret == 0) {
			r->state = ST_END;
			continue;
		}
		ev->offset = offset;
		ev->decompressed = decompressed;
		ev->payload = payload;
		ev->payload_size = payload_size;
		if (r->ordered && rec->header.type == SAMPO_RECORD_SAMPLE && !payload_size) {
			int idx = record_attr(r, rec);

			if (idx >= 0 && sample_time_fast(r, rec, idx, &time) && time != 0 &&
			    time != (uint64_t)-1) {
				/* decoded once, when the queue releases it */
				if (sampo_ordered_events__late(q, time))
					r->stats.nr_out_of_order++;
				if (!decompressed && record_stable(r, rec))
					err = sampo_ordered_events__queue_in_place(q, rec, time,
										   offset);
				else
					err = sampo_ordered_events__queue(q, rec, time, offset,
									  decompressed);
				if (err)
					return sampo_reader__fail(r, err,
								  "out of memory queueing records");
				continue;
			}
		}
		err = decode_event(r, rec, ev);
		if (err) {
			if (!r->ordered || q->nr == 0)
				return err;
			r->state = ST_DRAIN;
			sampo_ordered_events__flush(q, UINT64_MAX);
			continue;
		}

		if (rec->header.type == SAMPO_RECORD_HEADER_ATTR ||
		    rec->header.type == SAMPO_RECORD_HEADER_FEATURE) {
			r->pending = malloc(rec->header.size);
			if (!r->pending)
				return sampo_reader__fail(r, -ENOMEM, "out of memory");
			memcpy(r->pending, rec, rec->header.size);
		}
		if (!r->ordered)
			return 1;

		if (rec->header.type == SAMPO_RECORD_FINISHED_ROUND) {
			/* hand out the round marker first, then what it releases */
			sampo_ordered_events__round(q);
			return 1;
		}
		time = event_time(r, ev);
		if (time == 0 || time == (uint64_t)-1)
			return 1;
		if (sampo_ordered_events__late(q, time))
			r->stats.nr_out_of_order++;
		/*
		 * Decoding gave RAW data its file byte order back, in the record
		 * itself (sampo_sample__parse()); the queue decodes the record again
		 * when it releases it, so it must get the record as read.
		 */
		if (r->swap && rec->header.type == SAMPO_RECORD_SAMPLE && ev->sample.raw_data)
			mem_bswap_64((void *)(ev->sample.raw_data - 4),
				     ALIGN_UP((size_t)ev->sample.raw_size + 4, 8));
		if (!ev->decompressed && record_stable(r, rec))
			err = sampo_ordered_events__queue_in_place(q, rec, time, ev->offset);
		else
			err = sampo_ordered_events__queue(q, rec, time, ev->offset,
							  ev->decompressed);
		if (err)
			return sampo_reader__fail(r, err, "out of memory queueing records");
	}
}

/* ---- accessors --------------------------------------------------------- */

const char *sampo_reader__error(const struct sampo_reader *r)
{
	return r->err;
}

const char *sampo_reader__name(const struct sampo_reader *r)
{
	return r->name;
}

bool sampo_reader__stable(struct sampo_reader *r, const void *p, size_t len)
{
	const uint8_t *b = p;

	reader_ask_stable(r);
	return b && b >= r->stable_lo && b < r->stable_hi && len <= (size_t)(r->stable_hi - b);
}

bool sampo_reader__is_pipe(const struct sampo_reader *r)
{
	return r->pipe;
}

int sampo_reader__version(const struct sampo_reader *r)
{
	return r->v1 ? 1 : 2;
}

bool sampo_reader__needs_swap(const struct sampo_reader *r)
{
	return r->swap;
}

const struct sampo_file_header *sampo_reader__file_header(const struct sampo_reader *r)
{
	return &r->header;
}

uint64_t sampo_reader__file_size(const struct sampo_reader *r)
{
	return r->src.kind == SAMPO_SOURCE_STREAM ? 0 : r->file_size;
}

int64_t sampo_reader__mtime(const struct sampo_reader *r)
{
	return r->mtime;
}

size_t sampo_reader__nr_attrs(const struct sampo_reader *r)
{
	return r->nr_attrs;
}

const struct sampo_event_attr *sampo_reader__attr(const struct sampo_reader *r, size_t idx)
{
	return idx < r->nr_attrs ? &r->attrs[idx].attr : NULL;
}

const uint64_t *sampo_reader__attr_ids(const struct sampo_reader *r, size_t idx, size_t *nr)
{
	if (idx >= r->nr_attrs) {
		*nr = 0;
		return NULL;
	}
	*nr = r->attrs[idx].nr_ids;
	return r->attrs[idx].ids;
}

int sampo_reader__attr_by_id(const struct sampo_reader *r, uint64_t id)
{
	return id_table_find(&r->ids, id);
}

bool sampo_reader__has_feature(const struct sampo_reader *r, int feat)
{
	return feat >= 0 && feat < SAMPO_FEAT_MAX_BITS && r->features[feat].present;
}

uint64_t sampo_reader__feature_offset(const struct sampo_reader *r, int feat)
{
	return sampo_reader__has_feature(r, feat) ? r->features[feat].offset : 0;
}

int sampo_reader__feature(struct sampo_reader *r, int feat, const void **data, size_t *size)
{
	struct feature_slot *f;
	uint8_t *copy;
	int err;

	if (!sampo_reader__has_feature(r, feat))
		return -ENOENT;
	if (r->pf && sampo_prefetch__running(r->pf))
		return -EBUSY; /* the reading thread owns the source */
	f = &r->features[feat];
	if (!f->data) {
		if (r->src.kind == SAMPO_SOURCE_MEM) {
			*data = r->src.mem + f->offset;
			*size = (size_t)f->size;
			return 0;
		}
		copy = malloc(f->size ? (size_t)f->size : 1);
		if (!copy)
			return -ENOMEM;
		err = sampo_reader__read_at(r, f->offset, copy, (size_t)f->size, "feature section");
		if (err) {
			free(copy);
			return err;
		}
		f->data = copy;
	}
	*data = f->data;
	*size = (size_t)f->size;
	return 0;
}

const struct sampo_reader_stats *sampo_reader__stats(const struct sampo_reader *r)
{
	return r->pf ? sampo_prefetch__stats(r->pf) : &r->stats;
}
