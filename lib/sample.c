// SPDX-License-Identifier: LGPL-2.1
/*
 * sample.c - decode a SAMPLE record body, or the sample_id trailer that
 * sample_id_all appends to other kernel records.
 *
 * Fields come in the order the kernel writes them (not bit order; see
 * perf-data-format.md section 5). Every read is bounded by the record size:
 * a field that would run past it makes the whole record malformed. For an
 * opposite-endian file the reader has already swapped the body as u64s (as
 * perf does), so u32 pairs (pid/tid, cpu/res, raw size) are crossed and are
 * un-crossed here.
 */
#include <errno.h>
#include <string.h>

#include <sampo/event.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include "internal/util.h"

struct cursor {
	const uint8_t *p;
	const uint8_t *end;
	bool swapped;
};

static bool take_u64(struct cursor *c, uint64_t *v)
{
	if ((size_t)(c->end - c->p) < 8)
		return false;
	*v = load_u64(c->p);
	c->p += 8;
	return true;
}

/* Two u32 packed in one u64 slot; perf swaps the slot as u64, so undo that. */
static bool take_u32_pair(struct cursor *c, uint32_t *lo, uint32_t *hi)
{
	uint64_t v;
	uint32_t w[2];

	if (!take_u64(c, &v))
		return false;
	if (c->swapped) {
		v = bswap_64(v);
		memcpy(w, &v, 8);
		w[0] = bswap_32(w[0]);
		w[1] = bswap_32(w[1]);
	} else {
		memcpy(w, &v, 8);
	}
	*lo = w[0];
	*hi = w[1];
	return true;
}

static bool take_bytes(struct cursor *c, uint64_t n, const uint8_t **out)
{
	if (n > (uint64_t)(c->end - c->p))
		return false;
	*out = c->p;
	c->p += n;
	return true;
}

static bool take_regs(struct cursor *c, uint64_t mask, struct sampo_regs *regs)
{
	const uint8_t *p;

	if (!take_u64(c, &regs->abi))
		return false;
	regs->mask = mask;
	regs->regs = NULL;
	if (regs->abi == 0)
		return true;
	if (!take_bytes(c, 8ULL * (unsigned)__builtin_popcountll(mask), &p))
		return false;
	regs->regs = (const uint64_t *)p;
	return true;
}

/*
 * The branch flags are a bitfield of mixed widths, which a big-endian compiler
 * lays out from the top bit: after the u64 swap each field sits mirrored
 * across the word. Put every field back (perf's bitfield_swap).
 */
static uint64_t mirror_branch_flags(uint64_t v)
{
	/* mispred, predicted, in_tx, abort, cycles, type, spec, new_type, priv, reserved */
	static const uint8_t fields[][2] = { { 0, 1 },	 { 1, 1 },   { 2, 1 },	 { 3, 1 },   { 4, 16 },
					      { 20, 4 }, { 24, 2 }, { 26, 4 }, { 30, 3 }, { 33, 31 } };
	uint64_t out = 0;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		unsigned pos = fields[i][0], size = fields[i][1];
		uint64_t mask = size == 64 ? ~0ULL : (1ULL << size) - 1;

		out |= ((v >> (63 - (pos + size - 1))) & mask) << pos;
	}
	return out;
}

static size_t read_format_words(uint64_t read_format, uint64_t group_nr)
{
	size_t per_value = 1 + !!(read_format & SAMPO_FORMAT_ID) + !!(read_format & SAMPO_FORMAT_LOST);
	size_t head = 1 + !!(read_format & SAMPO_FORMAT_TOTAL_TIME_ENABLED) +
		      !!(read_format & SAMPO_FORMAT_TOTAL_TIME_RUNNING);

	if (read_format & SAMPO_FORMAT_GROUP)
		return head + (size_t)group_nr * per_value;
	return head + per_value - 1;
}

static void sample_defaults(const struct sampo_event_attr *attr, const union sampo_record *rec,
			    struct sampo_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->cpu = s->pid = s->tid = (uint32_t)-1;
	s->stream_id = s->id = s->time = (uint64_t)-1;
	s->period = attr->sample_period;
	s->cpumode = rec->header.misc & SAMPO_MISC_CPUMODE_MASK;
	s->misc = rec->header.misc;
	s->branch_hw_idx = (uint64_t)-1;
}

/* The trailer is read backwards from the end of the record. */
static int parse_id_trailer(const struct sampo_event_attr *attr, const union sampo_record *rec,
			    bool swapped, struct sampo_sample *s)
{
	uint64_t type = attr->sample_type;
	const uint8_t *base = (const uint8_t *)rec + 8;
	size_t nwords = (rec->header.size - 8u) / 8;
	size_t need = !!(type & SAMPO_SAMPLE_IDENTIFIER) + !!(type & SAMPO_SAMPLE_CPU) +
		      !!(type & SAMPO_SAMPLE_STREAM_ID) + !!(type & SAMPO_SAMPLE_ID) +
		      !!(type & SAMPO_SAMPLE_TIME) + !!(type & SAMPO_SAMPLE_TID);
	struct cursor c = { .swapped = swapped };
	size_t i;

	if (need > nwords)
		return -SAMPO_ERR_MALFORMED;
	s->sample_type = type & (SAMPO_SAMPLE_IDENTIFIER | SAMPO_SAMPLE_CPU | SAMPO_SAMPLE_STREAM_ID |
				 SAMPO_SAMPLE_ID | SAMPO_SAMPLE_TIME | SAMPO_SAMPLE_TID);
	i = nwords;
#define PREV() (c.p = base + 8 * --i, c.end = c.p + 8)
	if (type & SAMPO_SAMPLE_IDENTIFIER) {
		PREV();
		take_u64(&c, &s->id);
	}
	if (type & SAMPO_SAMPLE_CPU) {
		uint32_t res;

		PREV();
		take_u32_pair(&c, &s->cpu, &res);
	}
	if (type & SAMPO_SAMPLE_STREAM_ID) {
		PREV();
		take_u64(&c, &s->stream_id);
	}
	if (type & SAMPO_SAMPLE_ID) {
		PREV();
		take_u64(&c, &s->id);
	}
	if (type & SAMPO_SAMPLE_TIME) {
		PREV();
		take_u64(&c, &s->time);
	}
	if (type & SAMPO_SAMPLE_TID) {
		PREV();
		take_u32_pair(&c, &s->pid, &s->tid);
	}
#undef PREV
	return 0;
}

int sampo_sample__parse(const struct sampo_event_attr *attr, const union sampo_record *rec,
			bool swapped, struct sampo_sample *s)
{
	uint64_t type = attr->sample_type;
	struct cursor c = {
		.p = (const uint8_t *)rec + 8,
		.end = (const uint8_t *)rec + rec->header.size,
		.swapped = swapped,
	};
	const uint8_t *bytes = NULL;
	uint64_t v;

	sample_defaults(attr, rec, s);
	if (rec->header.type != SAMPO_RECORD_SAMPLE) {
		if (!(attr->flags & SAMPO_ATTR_SAMPLE_ID_ALL))
			return 0;
		return parse_id_trailer(attr, rec, swapped, s);
	}
	s->sample_type = type;

#define U64(field)                                                                                 \
	do {                                                                                       \
		if (!take_u64(&c, &(field)))                                                       \
			return -SAMPO_ERR_MALFORMED;                                               \
	} while (0)
	if (type & SAMPO_SAMPLE_IDENTIFIER)
		U64(s->id);
	if (type & SAMPO_SAMPLE_IP)
		U64(s->ip);
	if ((type & SAMPO_SAMPLE_TID) && !take_u32_pair(&c, &s->pid, &s->tid))
		return -SAMPO_ERR_MALFORMED;
	if (type & SAMPO_SAMPLE_TIME)
		U64(s->time);
	if (type & SAMPO_SAMPLE_ADDR)
		U64(s->addr);
	if (type & SAMPO_SAMPLE_ID)
		U64(s->id);
	if (type & SAMPO_SAMPLE_STREAM_ID)
		U64(s->stream_id);
	if (type & SAMPO_SAMPLE_CPU) {
		uint32_t res;

		if (!take_u32_pair(&c, &s->cpu, &res))
			return -SAMPO_ERR_MALFORMED;
	}
	if (type & SAMPO_SAMPLE_PERIOD)
		U64(s->period);
	if (type & SAMPO_SAMPLE_READ) {
		uint64_t first;
		size_t words;

		if (c.end - c.p < 8)
			return -SAMPO_ERR_MALFORMED;
		first = load_u64(c.p);
		if ((attr->read_format & SAMPO_FORMAT_GROUP) && first > (uint64_t)(c.end - c.p) / 8)
			return -SAMPO_ERR_MALFORMED;
		words = read_format_words(attr->read_format, first);
		if (!take_bytes(&c, 8ULL * words, &bytes))
			return -SAMPO_ERR_MALFORMED;
		s->read_values = (const uint64_t *)bytes;
		s->read_nr_words = words;
	}
	if (type & SAMPO_SAMPLE_CALLCHAIN) {
		U64(s->callchain_nr);
		if (s->callchain_nr > (uint64_t)(c.end - c.p) / 8)
			return -SAMPO_ERR_MALFORMED;
		if (!take_bytes(&c, 8 * s->callchain_nr, &bytes))
			return -SAMPO_ERR_MALFORMED;
		s->callchain = (const uint64_t *)bytes;
	}
	if (type & SAMPO_SAMPLE_RAW) {
		uint32_t size, pad;

		if (!take_u32_pair(&c, &size, &pad))
			return -SAMPO_ERR_MALFORMED;
		/* the u32 size is followed by the data in the same u64 slot */
		c.p -= 4;
		if (!take_bytes(&c, size, &bytes))
			return -SAMPO_ERR_MALFORMED;
		if (swapped) /* raw data is opaque: give back the file's bytes */
			mem_bswap_64((void *)(bytes - 4), ALIGN_UP((size_t)size + 4, 8));
		s->raw_size = size;
		s->raw_data = bytes;
		/* kernel pads u32 + data to 8 bytes */
		c.p = bytes - 4 + ALIGN_UP((size_t)size + 4, 8);
		if (c.p > c.end)
			return -SAMPO_ERR_MALFORMED;
	}
	if (type & SAMPO_SAMPLE_BRANCH_STACK) {
		U64(s->branch_nr);
		if (attr->branch_sample_type & SAMPO_SAMPLE_BRANCH_HW_INDEX) {
			s->branch_has_hw_idx = true;
			U64(s->branch_hw_idx);
		}
		if (s->branch_nr > (uint64_t)(c.end - c.p) / sizeof(struct sampo_branch_entry))
			return -SAMPO_ERR_MALFORMED;
		if (!take_bytes(&c, s->branch_nr * sizeof(struct sampo_branch_entry), &bytes))
			return -SAMPO_ERR_MALFORMED;
		s->branch = (const struct sampo_branch_entry *)bytes;
		if (swapped) {
			struct sampo_branch_entry *e = (struct sampo_branch_entry *)bytes;

			for (uint64_t i = 0; i < s->branch_nr; i++)
				e[i].flags = mirror_branch_flags(e[i].flags);
		}
	}
	if ((type & SAMPO_SAMPLE_REGS_USER) && !take_regs(&c, attr->sample_regs_user, &s->user_regs))
		return -SAMPO_ERR_MALFORMED;
	if (type & SAMPO_SAMPLE_STACK_USER) {
		U64(s->user_stack_size);
		if (s->user_stack_size) {
			if (!take_bytes(&c, s->user_stack_size, &s->user_stack))
				return -SAMPO_ERR_MALFORMED;
			U64(s->user_stack_dyn_size);
			if (s->user_stack_dyn_size > s->user_stack_size)
				return -SAMPO_ERR_MALFORMED;
		}
	}
	if (type & (SAMPO_SAMPLE_WEIGHT | SAMPO_SAMPLE_WEIGHT_STRUCT)) {
		U64(v);
		if (type & SAMPO_SAMPLE_WEIGHT_STRUCT) {
			s->weight = v & 0xffffffffu;
			s->ins_lat = (uint16_t)(v >> 32);
			s->p_stage_cyc = (uint16_t)(v >> 48);
		} else {
			s->weight = v;
		}
	}
	if (type & SAMPO_SAMPLE_DATA_SRC)
		U64(s->data_src);
	if (type & SAMPO_SAMPLE_TRANSACTION)
		U64(s->transaction);
	if ((type & SAMPO_SAMPLE_REGS_INTR) && !take_regs(&c, attr->sample_regs_intr, &s->intr_regs))
		return -SAMPO_ERR_MALFORMED;
	if (type & SAMPO_SAMPLE_PHYS_ADDR)
		U64(s->phys_addr);
	if (type & SAMPO_SAMPLE_CGROUP)
		U64(s->cgroup);
	if (type & SAMPO_SAMPLE_DATA_PAGE_SIZE)
		U64(s->data_page_size);
	if (type & SAMPO_SAMPLE_CODE_PAGE_SIZE)
		U64(s->code_page_size);
	if (type & SAMPO_SAMPLE_AUX) {
		U64(s->aux_size);
		if (!take_bytes(&c, s->aux_size, &s->aux_data))
			return -SAMPO_ERR_MALFORMED;
	}
#undef U64
	return 0;
}

/*
 * perf's evsel__parse_sample() records the offset of the STACK_USER size as
 * it passes it; this repeats its walk from the decoded counts. The fields
 * before STACK_USER are fixed u64s, READ, CALLCHAIN, RAW, BRANCH_STACK and
 * REGS_USER are counted; RAW adds its u32 size and data unpadded, as perf does.
 */
uint64_t sampo_sample__user_stack_offset(const struct sampo_event_attr *attr,
					 const struct sampo_sample *s)
{
	static const uint64_t fixed = SAMPO_SAMPLE_IDENTIFIER | SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID |
				      SAMPO_SAMPLE_TIME | SAMPO_SAMPLE_ADDR | SAMPO_SAMPLE_ID |
				      SAMPO_SAMPLE_STREAM_ID | SAMPO_SAMPLE_CPU |
				      SAMPO_SAMPLE_PERIOD;
	uint64_t type = attr->sample_type;
	uint64_t off;

	if (!(type & SAMPO_SAMPLE_STACK_USER))
		return 0;
	off = 8 + 8 * (uint64_t)__builtin_popcountll(type & fixed);

	if (type & SAMPO_SAMPLE_READ)
		off += 8 * s->read_nr_words;
	if (type & SAMPO_SAMPLE_CALLCHAIN)
		off += 8 + 8 * s->callchain_nr;
	if (type & SAMPO_SAMPLE_RAW)
		off += 4 + (uint64_t)s->raw_size;
	if (type & SAMPO_SAMPLE_BRANCH_STACK)
		off += 8 + (s->branch_has_hw_idx ? 8 : 0) + 24 * s->branch_nr;
	if (type & SAMPO_SAMPLE_REGS_USER)
		off += 8 + (s->user_regs.abi ?
				    8 * (uint64_t)__builtin_popcountll(s->user_regs.mask) :
				    0);
	return off;
}
