// SPDX-License-Identifier: LGPL-2.1
/*
 * reader-header.c - what sampo_reader__open() reads before the first record:
 * the file header (byte order, file or pipe mode), the attrs with their ids
 * and the feature table, each checked against the file's size so that a
 * malformed file fails at open with the offset of the bad field.
 *
 * It is apart from reader.c because it runs once per file, with random
 * access (pread, so the data window is not disturbed), while reader.c walks
 * the data section record by record. The attrs it reads go through
 * sampo_reader__add_attr() in reader.c, as the pipe's HEADER_ATTR records do.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampo/reader.h>
#include "internal/log.h"
#include "internal/reader.h"
#include "internal/record.h"
#include "internal/util.h"

#define MAX_IDS (1U << 24)	      /* ids per attr */

/* Read exactly len bytes at off during open; a short input is truncation. */
int sampo_reader__read_at(struct sampo_reader *r, uint64_t off, void *dst, size_t len,
			  const char *what)
{
	const uint8_t *p;
	size_t avail = 0;
	int err;

	if (r->src.kind == SAMPO_SOURCE_MMAP) {
		/* random access during open: pread, so the data window is not disturbed */
		ssize_t n;

		if (off > r->file_size || len > r->file_size - off)
			goto truncated;
		n = pread(r->src.fd, dst, len, (off_t)off);
		if (n < 0)
			return sampo_reader__io_fail(r, -errno, off);
		if ((size_t)n != len)
			goto truncated;
		return 0;
	}
	err = sampo_source__get(&r->src, off, len, &p, &avail);
	if (err < 0)
		return sampo_reader__io_fail(r, err, off);
	if (err > 0)
		goto truncated;
	memcpy(dst, p, len);
	return 0;
truncated:
	return sampo_reader__fail(r, -SAMPO_ERR_TRUNCATED,
			   "%s at offset %#" PRIx64 " (%zu bytes) runs past the end of the file (%" PRIu64
			   " bytes)",
			   what, off, len, r->file_size);
}

/*
 * The ids sections of the attrs. Attrs may name the same section: it is read
 * once and shared (a file of 8192 attrs naming one 256 KiB section asked for
 * 2 GiB of copies), and the distinct sections may not add up to more than
 * the file, so that memory and the id table's work stay bounded by the
 * input. An id claimed by several attrs belongs to the last, as in perf:
 * each section's ids go into the table once, sections in the order of the
 * last attr naming them.
 */
struct ids_sec {
	uint64_t offset, size;
	uint32_t attr; /* the first attr naming it (sorted), then the last */
	uint32_t group; /* its distinct section, in (offset, size) order */
};

static int ids_sec_cmp(const void *a, const void *b)
{
	const struct ids_sec *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->attr < y->attr ? -1 : x->attr > y->attr;
}

static int ids_sec_cmp_last(const void *a, const void *b)
{
	const struct ids_sec *x = a, *y = b;

	return x->attr < y->attr ? -1 : x->attr > y->attr;
}

static int reader_read_ids(struct sampo_reader *r, struct ids_sec *secs, size_t nr)
{
	struct ids_sec *groups = NULL;
	uint32_t *group_of = NULL; /* attr -> group */
	size_t nr_groups = 0;
	uint64_t total = 0;
	int err = -ENOMEM;

	if (!nr)
		return 0;
	r->nr_id_bufs = 0;
	groups = calloc(nr, sizeof(*groups));
	group_of = calloc(nr, sizeof(*group_of));
	r->id_bufs = calloc(nr, sizeof(*r->id_bufs));
	if (!groups || !group_of || !r->id_bufs)
		goto out;
	qsort(secs, nr, sizeof(*secs), ids_sec_cmp);
	for (size_t i = 0; i < nr;) {
		size_t j = i;

		for (; j < nr && secs[j].offset == secs[i].offset && secs[j].size == secs[i].size; j++)
			group_of[secs[j].attr] = (uint32_t)nr_groups;
		groups[nr_groups] = secs[i];
		groups[nr_groups].attr = secs[j - 1].attr; /* the last attr naming it */
		groups[nr_groups].group = (uint32_t)nr_groups;
		total += secs[i].size;
		nr_groups++;
		i = j;
	}
	if (total > r->file_size) {
		err = sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
				   "the attrs' ids sections add up to %" PRIu64
				   " bytes, more than the file (%" PRIu64 " bytes): they overlap",
				   total, r->file_size);
		goto out;
	}
	qsort(groups, nr_groups, sizeof(*groups), ids_sec_cmp_last);
	for (size_t g = 0; g < nr_groups; g++) {
		size_t nr_ids = (size_t)(groups[g].size / 8);
		uint64_t *ids;

		if (!nr_ids)
			continue;
		ids = malloc(nr_ids * 8);
		if (!ids) {
			err = -ENOMEM;
			goto out;
		}
		r->id_bufs[groups[g].group] = ids;
		err = sampo_reader__read_at(r, groups[g].offset, ids, nr_ids * 8, "ids array");
		if (err)
			goto out;
		if (r->swap)
			mem_bswap_64(ids, nr_ids * 8);
		err = sampo_reader__add_ids(r, groups[g].attr, ids, nr_ids);
		if (err)
			goto out;
	}
	/* every attr points at its section's one copy */
	for (size_t i = 0; i < nr; i++) {
		struct attr_entry *e = &r->attrs[secs[i].attr];

		e->ids = r->id_bufs[group_of[secs[i].attr]];
		e->own_ids = false;
		e->nr_ids = (size_t)(secs[i].size / 8);
	}
	err = 0;
out:
	if (r->id_bufs)
		r->nr_id_bufs = nr;
	free(groups);
	free(group_of);
	return err;
}

static int reader_read_attrs(struct sampo_reader *r)
{
	const struct sampo_file_header *h = &r->header;
	uint64_t attr_size = h->attr_size, nr;
	struct ids_sec *secs;
	uint8_t entry[4096];
	int err = 0;

	if (h->attrs.size == 0)
		return 0;
	if (attr_size < SAMPO_ATTR_SIZE_VER0 + 16 || attr_size > sizeof(entry) || attr_size % 8)
		return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
				   "header field attr_size at offset 0x10: %" PRIu64
				   " is not a valid attr entry size",
				   attr_size);
	if (h->attrs.size % attr_size)
		return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
				   "attrs section size %" PRIu64 " at offset 0x20 is not a multiple of attr_size %" PRIu64,
				   h->attrs.size, attr_size);
	if (h->attrs.offset > r->file_size || h->attrs.size > r->file_size - h->attrs.offset)
		return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
				   "attrs section [%#" PRIx64 ", +%#" PRIx64
				   ") (header offset 0x18) lies outside the file (%" PRIu64 " bytes)",
				   h->attrs.offset, h->attrs.size, r->file_size);
	nr = h->attrs.size / attr_size;
	if (nr > MAX_ATTRS)
		return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED, "%" PRIu64 " attrs is too many", nr);
	secs = calloc(nr ? nr : 1, sizeof(*secs));
	if (!secs)
		return -ENOMEM;

	for (uint64_t i = 0; i < nr && !err; i++) {
		uint64_t off = h->attrs.offset + i * attr_size;
		size_t asz = (size_t)attr_size - 16;
		struct sampo_file_section ids_sec;
		struct sampo_event_attr *attr = (struct sampo_event_attr *)entry;
		uint32_t declared;

		memset(entry, 0, sizeof(entry));
		err = sampo_reader__read_at(r, off, entry, (size_t)attr_size, "attr entry");
		if (err)
			goto out;
		memcpy(&ids_sec, entry + asz, sizeof(ids_sec));
		memset(entry + asz, 0, 16);
		declared = r->swap ? bswap_32(attr->size) : attr->size;
		if (declared == 0)
			declared = SAMPO_ATTR_SIZE_VER0;
		if (declared > asz || declared < SAMPO_ATTR_SIZE_VER0) {
			err = sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
					   "attr %" PRIu64 " at offset %#" PRIx64
					   ": size field %u does not fit the %zu-byte entry",
					   i, off, declared, asz);
			goto out;
		}
		/* bytes past the declared size belong to nobody: keep them zero */
		memset(entry + declared, 0, sizeof(entry) - declared);
		if (r->swap) {
			sampo_attr__swap(attr, declared);
			ids_sec.offset = bswap_64(ids_sec.offset);
			ids_sec.size = bswap_64(ids_sec.size);
		}
		attr->size = declared;
		if (ids_sec.size % 8 || ids_sec.offset > r->file_size ||
		    ids_sec.size > r->file_size - ids_sec.offset || ids_sec.size / 8 > MAX_IDS) {
			err = sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
					   "attr %" PRIu64 " at offset %#" PRIx64
					   ": ids section [%#" PRIx64 ", +%#" PRIx64 ") lies outside the file (%" PRIu64 " bytes)",
					   i, off, ids_sec.offset, ids_sec.size, r->file_size);
			goto out;
		}
		secs[i] = (struct ids_sec){ ids_sec.offset, ids_sec.size, (uint32_t)i, (uint32_t)i };
		/* the ids come after all attrs: an ids section may serve several */
		err = sampo_reader__add_attr(r, entry, declared, NULL, 0);
		if (err)
			goto out;
	}
	err = reader_read_ids(r, secs, (size_t)nr);
out:
	free(secs);
	return err;
}

static int reader_read_feature_table(struct sampo_reader *r)
{
	uint64_t table = r->header.data.offset + r->header.data.size;
	uint64_t off = table;

	for (int bit = 0; bit < SAMPO_FEAT_MAX_BITS; bit++) {
		struct sampo_file_section sec;
		int err;

		if (!(r->header.adds_features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		err = sampo_reader__read_at(r, off, &sec, sizeof(sec), "feature table entry");
		if (err)
			return err;
		if (r->swap) {
			sec.offset = bswap_64(sec.offset);
			sec.size = bswap_64(sec.size);
		}
		if (sec.offset > r->file_size || sec.size > r->file_size - sec.offset)
			return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
					   "feature %s (bit %d) at table offset %#" PRIx64
					   ": section [%#" PRIx64 ", +%#" PRIx64
					   ") lies outside the file (%" PRIu64 " bytes)",
					   sampo_feature__name(bit) ?: "unknown", bit, off, sec.offset,
					   sec.size, r->file_size);
		r->features[bit].present = true;
		r->features[bit].offset = sec.offset;
		r->features[bit].size = sec.size;
		off += sizeof(sec);
	}
	return 0;
}

/*
 * Whether the feature table (at the end of the data section) lies in the
 * file with every section it lists: how a finished file with no records
 * (data size 0) differs from an unfinished one, whose "table" is records.
 */
static bool feature_table_fits(struct sampo_reader *r)
{
	uint64_t off = r->header.data.offset + r->header.data.size;

	for (int bit = 0; bit < SAMPO_FEAT_MAX_BITS; bit++) {
		struct sampo_file_section sec;

		if (!(r->header.adds_features[bit / 64] & (1ULL << (bit % 64))))
			continue;
		if (off > r->file_size || r->file_size - off < sizeof(sec))
			return false;
		if (r->src.kind == SAMPO_SOURCE_MMAP) {
			if (pread(r->src.fd, &sec, sizeof(sec), (off_t)off) != (ssize_t)sizeof(sec))
				return false;
		} else {
			const uint8_t *p;
			size_t avail;

			if (sampo_source__get(&r->src, off, sizeof(sec), &p, &avail))
				return false;
			memcpy(&sec, p, sizeof(sec));
		}
		if (r->swap) {
			sec.offset = bswap_64(sec.offset);
			sec.size = bswap_64(sec.size);
		}
		if (sec.offset > r->file_size || sec.size > r->file_size - sec.offset)
			return false;
		off += sizeof(sec);
	}
	return off == r->header.data.offset + r->header.data.size ? off == r->file_size : true;
}

/*
 * perf's first format (magic "PERFFILE", perf before 2.6.38?) has the
 * layout of the second; its magic reads the same in either byte order, so
 * perf tells the order by the attr size, one of the attr ABI sizes plus
 * the ids section, in the file's order (try_all_file_abis()).
 */
static int read_v1_byte_order(struct sampo_reader *r)
{
	static const uint64_t attr_sizes[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136 };
	uint64_t size = 0, swapped;
	int err;

	err = sampo_reader__read_at(r, 16, &size, sizeof(size), "file header");
	if (err)
		return err;
	swapped = bswap_64(size);
	r->v1 = true;
	r->header.magic = SAMPO_MAGIC2;
	for (size_t i = 0; i < sizeof(attr_sizes) / sizeof(attr_sizes[0]); i++) {
		if (size == attr_sizes[i] + 16)
			return 0;
		if (swapped == attr_sizes[i] + 16) {
			r->swap = true;
			return 0;
		}
	}
	return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
				  "perf.data version 1 (magic PERFFILE): attr size %" PRIu64
				  " at offset 0x10 is no perf attr size plus 16, in either byte order",
				  size);
}

int sampo_reader__read_header(struct sampo_reader *r)
{
	struct sampo_file_header *h = &r->header;
	uint8_t first[16];
	int err;

	err = sampo_reader__read_at(r, 0, first, sizeof(first), "file header");
	if (err) {
		if (err == -SAMPO_ERR_TRUNCATED && r->file_size == 0 && r->src.kind != SAMPO_SOURCE_STREAM)
			return sampo_reader__fail(r, -SAMPO_ERR_TRUNCATED, "empty file, not a perf.data file");
		return err;
	}
	memcpy(&h->magic, first, 8);
	memcpy(&h->size, first + 8, 8);
	if (h->magic == SAMPO_MAGIC2_SWAPPED) {
		r->swap = true;
	} else if (h->magic != SAMPO_MAGIC2) {
		if (memcmp(first, "PERFFILE", 8))
			return sampo_reader__fail(r, -SAMPO_ERR_BAD_MAGIC,
					   "bad magic at offset 0: not a perf.data file (expected PERFILE2)");
		err = read_v1_byte_order(r);
		if (err)
			return err;
	}
	if (r->swap) {
		h->magic = SAMPO_MAGIC2;
		h->size = bswap_64(h->size);
	}
	if (h->size == sizeof(struct sampo_pipe_file_header)) {
		r->pipe = true;
		r->pos = 16;
		r->offset_base = 16;
		return 0;
	}
	if (h->size != sizeof(*h))
		return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
				   "header size field at offset 0x8 is %" PRIu64 ", expected 104 or 16",
				   h->size);
	if (r->src.kind == SAMPO_SOURCE_STREAM)
		return sampo_reader__fail(r, -SAMPO_ERR_UNSUPPORTED,
				   "a file-mode perf.data (header size 104) cannot be read from a "
				   "pipe; pass it with -i FILE");
	err = sampo_reader__read_at(r, 0, h, sizeof(*h), "file header");
	if (err)
		return err;
	if (r->v1)
		h->magic = SAMPO_MAGIC2; /* the format is the second's from here on */
	if (r->swap) {
		h->magic = SAMPO_MAGIC2;
		h->size = bswap_64(h->size);
		h->attr_size = bswap_64(h->attr_size);
		h->attrs.offset = bswap_64(h->attrs.offset);
		h->attrs.size = bswap_64(h->attrs.size);
		h->data.offset = bswap_64(h->data.offset);
		h->data.size = bswap_64(h->data.size);
		h->event_types.offset = bswap_64(h->event_types.offset);
		h->event_types.size = bswap_64(h->event_types.size);
		for (int i = 0; i < 4; i++)
			h->adds_features[i] = bswap_64(h->adds_features[i]);
	}
	err = reader_read_attrs(r);
	if (err)
		return err;
	if (h->data.offset > r->file_size)
		return sampo_reader__fail(r, -SAMPO_ERR_MALFORMED,
				   "data section offset %#" PRIx64
				   " (header offset 0x28) lies past the end of the file (%" PRIu64 " bytes)",
				   h->data.offset, r->file_size);
	r->pos = h->data.offset;
	r->data_end = h->data.offset + h->data.size;
	if (h->data.size == 0 && r->file_size > h->data.offset && !feature_table_fits(r)) {
		/*
		 * perf record (and sampo record) write the data size, and the
		 * feature sections after the data, when they finish: 0 with
		 * records behind the header means the recorder was killed or
		 * crashed. perf reads on as far as it can; so does sampo, to
		 * the end of the file, without the feature sections.
		 */
		pr_warn("%s: the recording did not finish (its header announces no data, as "
			"when the recorder is killed): reading the records up to the end of the "
			"file (%" PRIu64 " bytes), without the feature sections\n",
			r->name, r->file_size);
		r->data_end = r->file_size;
		r->unfinished = true;
		memset(h->adds_features, 0, sizeof(h->adds_features));
		return 0;
	}
	if (h->data.size > r->file_size - h->data.offset) {
		/* a cut file: read what is there, then say where it ends */
		r->data_end = r->file_size;
		r->data_truncated = true;
		return 0;
	}
	return reader_read_feature_table(r);
}
