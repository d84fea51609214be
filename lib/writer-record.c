// SPDX-License-Identifier: LGPL-2.1
/*
 * writer-record.c - the perf.data records of the writer, in the file's byte
 * order.
 *
 * Two ways in. sampo_writer__write_record() takes a whole record in host
 * order (as the reader hands them out), finds its attr by the id where perf
 * looks for it (attr 0's sample_type says where), and checks and converts it
 * by record.c's description: the same table the reader swaps by, so what one
 * reads the other writes. The typed writers (sampo_writer__write_sample(),
 * __write_mmap2(), ...) build the record in host order in w->scratch with a
 * rec_builder, which refuses to grow past 65535 bytes, then go the same way.
 *
 * Either way the record is copied once into the output buffer and converted
 * there, in place: a SAMPLE field by field from its attr's sample_type, in
 * the kernel's order; any other record by record.c, then the sample_id
 * trailer of a kernel record from the attr. A record whose variable parts do
 * not add up to header.size is refused (-EINVAL) before anything is
 * committed, so a bad call never leaves half a record in the file.
 *
 * branch entry flags: perf (evsel__bitfield_swap_branch_flags) mirrors each
 * bitfield across the u64 (a field at bit p of size n moves to bit 64-p-n)
 * after swapping the u64; st_branch_flags() mirrors, then stores the u64.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/writer.h>
#include "internal/record.h"
#include "internal/util.h"
#include "internal/writer.h"

/* ---- host-order fields to the file's order, in place ----------------- */

/* Convert a host-order field in place. */
static void cv16(const struct sampo_writer *w, uint8_t *p)
{
	sampo_writer__store_u16(w, p, load_u16(p));
}

static void cv32(const struct sampo_writer *w, uint8_t *p)
{
	sampo_writer__store_u32(w, p, load_u32(p));
}

static void cv64(const struct sampo_writer *w, uint8_t *p)
{
	sampo_writer__store_u64(w, p, load_u64(p));
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
	sampo_writer__store_u64(w, p, v);
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

static const struct sampo_writer_attr *attr_by_id(const struct sampo_writer *w, uint64_t id)
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
static const struct sampo_writer_attr *attr_for_record(const struct sampo_writer *w,
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
		if (nr > WRITER_RECORD_MAX / 8)
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

	if (size < sid ||
	    size - sid < MAX(sampo_record__min_size(type), sizeof(struct sampo_record_header)))
		return -EINVAL;
	if (!w->swap)
		return 0;
	sampo_record__convert(p, size - sid);
	if (sid)
		convert_sid(w, p + size - sid, a);
	return 0;
}

/* ---- emitting records ------------------------------------------------- */

/*
 * Copy the host-order record @rec (header.size bytes) into the output
 * buffer and convert it there. @wa is its attr (SAMPLE, trailers) or NULL.
 */
static int writer_emit(struct sampo_writer *w, const void *rec, const struct sampo_writer_attr *wa)
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
	if (!w->data_started && sampo_writer__start_data(w))
		return w->err;

	dst = sampo_writer__reserve(w, size);
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

	sampo_writer__store_u32(w, dst, type);
	cv16(w, dst + 4);
	sampo_writer__store_u16(w, dst + 6, (uint16_t)size);
	sampo_writer__commit(w, size);
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
		err = sampo_writer__register_attr(w, &rec->attr.attr, ids, nr);
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
	if (!w->data_started && sampo_writer__start_data(w))
		return w->err;
	return sampo_writer__append(w, buf, size);
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

	if (b->overflow || n > WRITER_RECORD_MAX - b->len) {
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
static void rb_sid(struct rec_builder *b, const struct sampo_writer_attr *wa,
		   const struct sampo_sample *sid)
{
	static const struct sampo_sample zero;
	uint64_t t;

	if (!wa || !sid_size(&wa->attr))
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

static int rb_emit(struct sampo_writer *w, struct rec_builder *b,
		   const struct sampo_writer_attr *wa)
{
	uint16_t size;

	if (b->overflow)
		return -EINVAL;
	size = (uint16_t)b->len;
	memcpy(b->p + offsetof(struct sampo_record_header, size), &size, sizeof(size));
	return writer_emit(w, b->p, wa);
}

static const struct sampo_writer_attr *attr_for_sid(const struct sampo_writer *w,
						    const struct sampo_sample *sid)
{
	return attr_by_id(w, sid ? sid->id : 0);
}

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
	const struct sampo_writer_attr *wa;
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
		if (s->read_nr_words > WRITER_RECORD_MAX / 8)
			return -EINVAL;
		rb_bytes(&b, s->read_values, 8 * s->read_nr_words);
	}
	if (t & SAMPO_SAMPLE_CALLCHAIN) {
		if (s->callchain_nr > WRITER_RECORD_MAX / 8)
			return -EINVAL;
		rb_u64(&b, s->callchain_nr);
		rb_bytes(&b, s->callchain, 8 * (size_t)s->callchain_nr);
	}
	if (t & SAMPO_SAMPLE_RAW) {
		/* the kernel pads the data and counts the padding in the size */
		size_t total = ALIGN_UP((size_t)s->raw_size + 4, 8);

		if (total > WRITER_RECORD_MAX)
			return -EINVAL;
		rb_u32(&b, (uint32_t)(total - 4));
		rb_bytes(&b, s->raw_data, s->raw_size);
		rb_zero(&b, total - 4 - s->raw_size);
	}
	if (t & SAMPO_SAMPLE_BRANCH_STACK) {
		if (s->branch_nr > WRITER_RECORD_MAX / sizeof(struct sampo_branch_entry))
			return -EINVAL;
		rb_u64(&b, s->branch_nr);
		if (a->branch_sample_type & SAMPO_SAMPLE_BRANCH_HW_INDEX)
			rb_u64(&b, s->branch_hw_idx);
		rb_bytes(&b, s->branch, sizeof(struct sampo_branch_entry) * (size_t)s->branch_nr);
	}
	if (t & SAMPO_SAMPLE_REGS_USER)
		rb_regs(&b, &s->user_regs, a->sample_regs_user);
	if (t & SAMPO_SAMPLE_STACK_USER) {
		if (s->user_stack_size > WRITER_RECORD_MAX)
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
		if (s->aux_size > WRITER_RECORD_MAX)
			return -EINVAL;
		rb_u64(&b, s->aux_size);
		rb_bytes(&b, s->aux_data, (size_t)s->aux_size);
	}
	return rb_emit(w, &b, wa);
}

static int write_map(struct sampo_writer *w, uint32_t type, const struct sampo_writer_map *m,
		     const struct sampo_sample *sid)
{
	const struct sampo_writer_attr *wa = attr_for_sid(w, sid);
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
	const struct sampo_writer_attr *wa;
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
	const struct sampo_writer_attr *wa;
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
	if ((nr && !entries) || nr > WRITER_RECORD_MAX / sizeof(*entries))
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
	if ((nr && !entries) || nr > WRITER_RECORD_MAX / sizeof(*entries))
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
