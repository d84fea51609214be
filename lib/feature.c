// SPDX-License-Identifier: LGPL-2.1
/*
 * feature.c - decode the header features of a perf.data file.
 *
 * Each feature payload is a small hand-rolled serialisation (perf's
 * tools/perf/util/header.c, write_* / process_* functions): u32 and u64
 * words in the recorder's byte order, "strings" (u32 len; char[len], NUL
 * padded to 64) and "string lists" (u32 nr; nr strings). This file turns
 * them into the typed view of <sampo/feature.h>.
 *
 * How it works:
 * - A struct feat_cursor walks one payload. Every read goes through it and is
 *   checked against the payload size first; a failed check records what was
 *   being read, where, and why in struct sampo_feature_error, and the parser
 *   returns -SAMPO_ERR_MALFORMED. Counts are checked against the bytes left
 *   (count * smallest possible element) before anything is allocated, so a
 *   hostile count cannot make us allocate gigabytes.
 * - Everything a parsed feature points to comes from one arena owned by the
 *   struct sampo_features. A parser that fails half way just clears its
 *   fields and its present bit; the arena memory is released with the whole
 *   object. This keeps each parser a straight sequence of reads.
 *
 * - The parsers of the features that describe the machine's processors and
 *   memory (topologies, caches, PMUs) live in feature-topology.c; the cursor
 *   and the arena they share are declared in "internal/feature.h".
 *
 * Invariants: a present bit is set only after the feature's fields are fully
 * written; strings in the view are always NUL terminated; nothing keeps a
 * pointer into the caller's buffer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sampo/feature.h>
#include <sampo/reader.h>
#include "internal/feature.h"
#include "internal/record.h"
#include "internal/util.h"

/* ---- arena -------------------------------------------------------------- */

#define ARENA_CHUNK (16 * 1024)

struct arena_block {
	struct arena_block *next;
	size_t size; /* usable bytes in data[] */
	size_t used;
	_Alignas(max_align_t) unsigned char data[];
};

/* The public struct is embedded first so that a view pointer is the object. */
struct features_obj {
	struct sampo_features view;
	struct arena_block *blocks;
};

static struct features_obj *features_obj(struct sampo_features *f)
{
	return (struct features_obj *)f;
}

void *sampo_features__arena_alloc(struct features_obj *obj, size_t size)
{
	struct arena_block *b = obj->blocks;
	size_t need = ALIGN_UP(size, sizeof(max_align_t));

	if (need < size)
		return NULL;
	if (!b || b->size - b->used < need) {
		size_t bsize = need > ARENA_CHUNK ? need : ARENA_CHUNK;

		if (bsize > SIZE_MAX - sizeof(*b))
			return NULL;
		b = malloc(sizeof(*b) + bsize);
		if (!b)
			return NULL;
		b->size = bsize;
		b->used = 0;
		b->next = obj->blocks;
		obj->blocks = b;
	}
	void *p = b->data + b->used;

	b->used += need;
	memset(p, 0, size);
	return p;
}

/* calloc-like, with the multiplication checked */
void *sampo_features__arena_array(struct features_obj *obj, size_t nmemb, size_t size)
{
	if (nmemb == 0)
		return NULL;
	if (size && nmemb > SIZE_MAX / size)
		return NULL;
	return sampo_features__arena_alloc(obj, nmemb * size);
}

/* ---- cursor --------------------------------------------------------------- */

int sampo_feat_cursor__fail(struct feat_cursor *c, size_t at, int errcode, const char *fmt, ...)
{
	va_list ap;

	if (c->err) {
		c->err->feat = c->feat;
		c->err->offset = at;
		va_start(ap, fmt);
		vsnprintf(c->err->msg, sizeof(c->err->msg), fmt, ap);
		va_end(ap);
	}
	return errcode;
}

int sampo_feat_cursor__nomem(struct feat_cursor *c)
{
	return sampo_feat_cursor__fail(c, c->pos, -ENOMEM, "out of memory");
}

size_t sampo_feat_cursor__left(const struct feat_cursor *c)
{
	return c->len - c->pos;
}

/* Make sure @n more bytes of @what are there. */
int sampo_feat_cursor__need(struct feat_cursor *c, size_t n, const char *what)
{
	if (sampo_feat_cursor__left(c) >= n)
		return 0;
	return sampo_feat_cursor__fail(c, c->pos, -SAMPO_ERR_MALFORMED,
				       "%s (%zu bytes) runs past the section end (size %#zx)", what,
				       n, c->len);
}

int sampo_feat_cursor__u32(struct feat_cursor *c, uint32_t *v, const char *what)
{
	int err = sampo_feat_cursor__need(c, 4, what);

	if (err)
		return err;
	*v = load_u32_sw(c->buf + c->pos, c->swap);
	c->pos += 4;
	return 0;
}

int sampo_feat_cursor__u64(struct feat_cursor *c, uint64_t *v, const char *what)
{
	int err = sampo_feat_cursor__need(c, 8, what);

	if (err)
		return err;
	*v = load_u64_sw(c->buf + c->pos, c->swap);
	c->pos += 8;
	return 0;
}

/* Copy @n raw bytes (file byte order) into the arena. */
int sampo_feat_cursor__bytes(struct feat_cursor *c, size_t n, uint8_t **ret, const char *what)
{
	int err = sampo_feat_cursor__need(c, n, what);
	uint8_t *p = NULL;

	if (err)
		return err;
	if (n) {
		p = sampo_features__arena_alloc(c->obj, n);
		if (!p)
			return sampo_feat_cursor__nomem(c);
		memcpy(p, c->buf + c->pos, n);
	}
	c->pos += n;
	*ret = p;
	return 0;
}

/*
 * A perf header string: u32 len, then len bytes holding a NUL-terminated
 * string and its padding. The string ends at the first NUL; perf writes at
 * least one, and we insist on it.
 */
int sampo_feat_cursor__string(struct feat_cursor *c, char **ret, const char *what)
{
	size_t at = c->pos;
	uint32_t len;
	int err;

	err = sampo_feat_cursor__u32(c, &len, what);
	if (err)
		return err;
	if (len > sampo_feat_cursor__left(c))
		return sampo_feat_cursor__fail(
			c, at, -SAMPO_ERR_MALFORMED,
			"%s: string length %u runs past the section end (size %#zx)", what, len,
			c->len);

	const char *s = (const char *)c->buf + c->pos;
	const char *nul = memchr(s, '\0', len);

	if (!nul)
		return sampo_feat_cursor__fail(c, at, -SAMPO_ERR_MALFORMED,
					       "%s: string of length %u has no terminating NUL",
					       what, len);

	size_t slen = (size_t)(nul - s);
	char *copy = sampo_features__arena_alloc(c->obj, slen + 1);

	if (!copy)
		return sampo_feat_cursor__nomem(c);
	memcpy(copy, s, slen + 1);
	c->pos += len;
	*ret = copy;
	return 0;
}

/*
 * A count of elements that each take at least @min_elem bytes: refuse counts
 * that cannot fit in what is left, before anybody allocates for them.
 */
int sampo_feat_cursor__check_count(struct feat_cursor *c, size_t at, uint64_t count,
				   size_t min_elem, const char *what)
{
	if (min_elem && count > sampo_feat_cursor__left(c) / min_elem)
		return sampo_feat_cursor__fail(
			c, at, -SAMPO_ERR_MALFORMED,
			"%s count %llu cannot fit in the section (size %#zx)", what,
			(unsigned long long)count, c->len);
	return 0;
}

/*
 * What perf counts for a string when it guesses which CPU_TOPOLOGY layout it
 * is reading (string_size() in perf's header.c): u32 length plus strlen + 1
 * rounded up to 64, whatever the length field said.
 */
size_t sampo_feat__string_size(const char *s)
{
	return 4 + ALIGN_UP(strlen(s) + 1, (size_t)SAMPO_NAME_ALIGN);
}

size_t sampo_feat__strlist_size(const struct sampo_feat_strlist *list)
{
	size_t size = 4;

	for (uint32_t i = 0; i < list->nr; i++)
		size += sampo_feat__string_size(list->strs[i]);
	return size;
}

int sampo_feat_cursor__strlist(struct feat_cursor *c, struct sampo_feat_strlist *list,
			       const char *what)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, what);
	if (err)
		return err;
	/* each string is at least its u32 length */
	err = sampo_feat_cursor__check_count(c, at, nr, 4, what);
	if (err)
		return err;
	list->nr = nr;
	list->strs = sampo_features__arena_array(c->obj, nr, sizeof(char *));
	if (nr && !list->strs)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		err = sampo_feat_cursor__string(c, &list->strs[i], what);
		if (err)
			return err;
	}
	return 0;
}

/* ---- parsers, one per feature ---------------------------------------------- */

static int parse_tracing_data(struct feat_cursor *c, struct sampo_features *f)
{
	f->tracing_data_size = c->len;
	return sampo_feat_cursor__bytes(c, c->len, &f->tracing_data, "tracing data");
}

/*
 * The BUILD_ID table: back-to-back entries, each a perf_event_header, s32
 * pid, u8 build_id[24] and a NUL-padded filename up to header.size. Entries
 * written before 2010 (commit a1645ce1) lack the pid; perf recognises them by
 * the first entry's name looking like "[kernel.kallsyms]" shifted by four
 * bytes, and so do we.
 */
#define BUILD_ID_ENTRY_MIN     36 /* header + pid + build_id[24] */
#define OLD_BUILD_ID_ENTRY_MIN 32 /* header + build_id[24] */

static int parse_build_id(struct feat_cursor *c, struct sampo_features *f)
{
	bool old_abi = false;
	size_t nr = 0, alloc = 0;
	struct sampo_feat_build_id *ents = NULL;

	if (c->len >= BUILD_ID_ENTRY_MIN + 13 &&
	    memcmp(c->buf + BUILD_ID_ENTRY_MIN, "nel.kallsyms]", 13) == 0)
		old_abi = true;

	while (sampo_feat_cursor__left(c) > 0) {
		size_t at = c->pos;
		size_t hdr_min = old_abi ? OLD_BUILD_ID_ENTRY_MIN : BUILD_ID_ENTRY_MIN;
		const uint8_t *p;
		uint16_t size;
		int err;

		err = sampo_feat_cursor__need(c, hdr_min, "build-id entry");
		if (err)
			return err;
		p = c->buf + at;
		size = load_u16_sw(p + 6, c->swap);
		if (size < hdr_min)
			return sampo_feat_cursor__fail(
				c, at, -SAMPO_ERR_MALFORMED,
				"build-id entry size %u is smaller than its header (%zu)", size,
				hdr_min);
		if (size > sampo_feat_cursor__left(c))
			return sampo_feat_cursor__fail(
				c, at, -SAMPO_ERR_MALFORMED,
				"build-id entry size %u runs past the section end (size %#zx)",
				size, c->len);

		if (nr == alloc) {
			/* entries are >= 32 bytes, so this stays below len / 32 */
			size_t n = alloc ? alloc * 2 : 16;
			struct sampo_feat_build_id *grown =
				sampo_features__arena_array(c->obj, n, sizeof(*grown));

			if (!grown)
				return sampo_feat_cursor__nomem(c);
			if (nr)
				memcpy(grown, ents, nr * sizeof(*ents));
			ents = grown;
			alloc = n;
		}

		struct sampo_feat_build_id *e = &ents[nr];
		const uint8_t *id = old_abi ? p + 8 : p + 12;
		const char *name = (const char *)(old_abi ? p + 32 : p + 36);
		size_t name_max = size - hdr_min;
		const char *nul = memchr(name, '\0', name_max);

		e->offset = at;
		e->misc = load_u16_sw(p + 4, c->swap);
		e->cpumode = e->misc & SAMPO_MISC_CPUMODE_MASK;
		if (old_abi) {
			/* perf's guess for the missing pid: guests by cpumode */
			e->pid = (e->misc == SAMPO_CPUMODE_GUEST_USER ||
				  e->misc == SAMPO_CPUMODE_GUEST_KERNEL) ?
					 0 :
					 -1;
		} else {
			e->pid = (int32_t)load_u32_sw(p + 8, c->swap);
		}
		e->size = SAMPO_BUILD_ID_MAX;
		if (e->misc & SAMPO_MISC_BUILD_ID_SIZE) {
			e->size = id[SAMPO_BUILD_ID_MAX];
			if (e->size > SAMPO_BUILD_ID_MAX)
				return sampo_feat_cursor__fail(
					c, at + (size_t)(id - p) + SAMPO_BUILD_ID_MAX,
					-SAMPO_ERR_MALFORMED, "build-id size %u is larger than %d",
					e->size, SAMPO_BUILD_ID_MAX);
		}
		memcpy(e->build_id, id, SAMPO_BUILD_ID_MAX);
		if (!nul)
			return sampo_feat_cursor__fail(
				c, at + hdr_min, -SAMPO_ERR_MALFORMED,
				"build-id entry filename has no terminating NUL");
		e->filename = sampo_features__arena_alloc(c->obj, (size_t)(nul - name) + 1);
		if (!e->filename)
			return sampo_feat_cursor__nomem(c);
		memcpy(e->filename, name, (size_t)(nul - name) + 1);
		nr++;
		c->pos += size;
	}
	f->nr_build_ids = nr;
	f->build_ids = ents;
	return 0;
}

static int parse_hostname(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__string(c, &f->hostname, "hostname");
}

static int parse_osrelease(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__string(c, &f->osrelease, "os release");
}

static int parse_version(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__string(c, &f->version, "perf version");
}

static int parse_arch(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__string(c, &f->arch, "arch");
}

static int parse_nrcpus(struct feat_cursor *c, struct sampo_features *f)
{
	int err = sampo_feat_cursor__u32(c, &f->nr_cpus_avail, "nr_cpus_avail");

	if (err)
		return err;
	return sampo_feat_cursor__u32(c, &f->nr_cpus_online, "nr_cpus_online");
}

static int parse_cpudesc(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__string(c, &f->cpudesc, "cpudesc");
}

static int parse_cpuid(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__string(c, &f->cpuid, "cpuid");
}

static int parse_total_mem(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__u64(c, &f->total_mem_kb, "total memory");
}

static int parse_cmdline(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__strlist(c, &f->cmdline, "cmdline");
}

/*
 * EVENT_DESC: u32 nr, u32 attr_size, then per event the attr (attr_size
 * bytes), u32 nr_ids, the name string and u64 ids[nr_ids].
 */
static int parse_event_desc(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint32_t nr, sz;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, "event count");
	if (err)
		return err;
	err = sampo_feat_cursor__u32(c, &sz, "attr size");
	if (err)
		return err;
	/* an event is at least its attr, nr_ids and a string length */
	err = sampo_feat_cursor__check_count(c, at, nr, (size_t)sz + 8, "event");
	if (err)
		return err;

	f->nr_events = nr;
	f->event_attr_size = sz;
	f->events = sampo_features__arena_array(c->obj, nr, sizeof(*f->events));
	if (nr && !f->events)
		return sampo_feat_cursor__nomem(c);

	for (uint32_t i = 0; i < nr; i++) {
		struct sampo_feat_event *ev = &f->events[i];
		size_t copy = MIN((size_t)sz, sizeof(ev->attr));

		err = sampo_feat_cursor__need(c, sz, "attr");
		if (err)
			return err;
		memcpy(&ev->attr, c->buf + c->pos, copy);
		if (c->swap)
			sampo_attr__swap(&ev->attr, copy);
		c->pos += sz;

		at = c->pos;
		err = sampo_feat_cursor__u32(c, &ev->nr_ids, "id count");
		if (err)
			return err;
		err = sampo_feat_cursor__string(c, &ev->name, "event name");
		if (err)
			return err;
		err = sampo_feat_cursor__check_count(c, at, ev->nr_ids, 8, "id");
		if (err)
			return err;
		ev->ids = sampo_features__arena_array(c->obj, ev->nr_ids, sizeof(uint64_t));
		if (ev->nr_ids && !ev->ids)
			return sampo_feat_cursor__nomem(c);
		for (uint32_t j = 0; j < ev->nr_ids; j++) {
			err = sampo_feat_cursor__u64(c, &ev->ids[j], "id");
			if (err)
				return err;
		}
	}
	return 0;
}

static int parse_group_desc(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, "group count");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, at, nr, 12, "group");
	if (err)
		return err;
	f->nr_groups = nr;
	f->groups = sampo_features__arena_array(c->obj, nr, sizeof(*f->groups));
	if (nr && !f->groups)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		err = sampo_feat_cursor__string(c, &f->groups[i].name, "group name");
		if (!err)
			err = sampo_feat_cursor__u32(c, &f->groups[i].leader_idx, "group leader");
		if (!err)
			err = sampo_feat_cursor__u32(c, &f->groups[i].nr_members, "group members");
		if (err)
			return err;
	}
	return 0;
}

static int parse_auxtrace(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint64_t nr;
	int err;

	err = sampo_feat_cursor__u64(c, &nr, "auxtrace index count");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, at, nr, 16, "auxtrace index entry");
	if (err)
		return err;
	f->nr_auxtrace = nr;
	f->auxtrace = sampo_features__arena_array(c->obj, (size_t)nr, sizeof(*f->auxtrace));
	if (nr && !f->auxtrace)
		return sampo_feat_cursor__nomem(c);
	for (uint64_t i = 0; i < nr; i++) {
		err = sampo_feat_cursor__u64(c, &f->auxtrace[i].file_offset, "auxtrace offset");
		if (!err)
			err = sampo_feat_cursor__u64(c, &f->auxtrace[i].size, "auxtrace size");
		if (err)
			return err;
	}
	return 0;
}

static int parse_sample_time(struct feat_cursor *c, struct sampo_features *f)
{
	int err = sampo_feat_cursor__u64(c, &f->first_sample_time, "first sample time");

	if (err)
		return err;
	return sampo_feat_cursor__u64(c, &f->last_sample_time, "last sample time");
}

static int parse_clockid(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__u64(c, &f->clockid_res_ns, "clock resolution");
}

static int parse_dir_format(struct feat_cursor *c, struct sampo_features *f)
{
	return sampo_feat_cursor__u64(c, &f->dir_format_version, "directory format version");
}

/*
 * BPF_PROG_INFO: u32 count, then per program a perf_bpil: u32 info_len,
 * u32 data_len, u64 arrays, struct bpf_prog_info (info_len bytes) and the
 * array data (data_len bytes). The info struct is kept as bytes: its layout
 * belongs to the kernel's bpf ABI, not to perf.data.
 */
static int parse_bpf_prog_info(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, "bpf program count");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, at, nr, 16, "bpf program");
	if (err)
		return err;
	f->nr_bpf_progs = nr;
	f->bpf_progs = sampo_features__arena_array(c->obj, nr, sizeof(*f->bpf_progs));
	if (nr && !f->bpf_progs)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		struct sampo_feat_bpf_prog *p = &f->bpf_progs[i];

		err = sampo_feat_cursor__u32(c, &p->info_len, "bpf info length");
		if (!err)
			err = sampo_feat_cursor__u32(c, &p->data_len, "bpf data length");
		if (!err)
			err = sampo_feat_cursor__u64(c, &p->arrays, "bpf arrays");
		if (!err)
			err = sampo_feat_cursor__bytes(c, p->info_len, &p->info,
						       "bpf program info");
		if (!err)
			err = sampo_feat_cursor__bytes(c, p->data_len, &p->data,
						       "bpf program data");
		if (err)
			return err;
	}
	return 0;
}

static int parse_bpf_btf(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	uint32_t nr;
	int err;

	err = sampo_feat_cursor__u32(c, &nr, "btf count");
	if (err)
		return err;
	err = sampo_feat_cursor__check_count(c, at, nr, 8, "btf");
	if (err)
		return err;
	f->nr_btfs = nr;
	f->btfs = sampo_features__arena_array(c->obj, nr, sizeof(*f->btfs));
	if (nr && !f->btfs)
		return sampo_feat_cursor__nomem(c);
	for (uint32_t i = 0; i < nr; i++) {
		struct sampo_feat_btf *b = &f->btfs[i];

		err = sampo_feat_cursor__u32(c, &b->id, "btf id");
		if (!err)
			err = sampo_feat_cursor__u32(c, &b->size, "btf size");
		if (!err)
			err = sampo_feat_cursor__bytes(c, b->size, &b->data, "btf data");
		if (err)
			return err;
	}
	return 0;
}

static int parse_compressed(struct feat_cursor *c, struct sampo_features *f)
{
	int err = sampo_feat_cursor__u32(c, &f->comp_version, "compression version");

	if (!err)
		err = sampo_feat_cursor__u32(c, &f->comp_type, "compression type");
	if (!err)
		err = sampo_feat_cursor__u32(c, &f->comp_level, "compression level");
	if (!err)
		err = sampo_feat_cursor__u32(c, &f->comp_ratio, "compression ratio");
	if (!err)
		err = sampo_feat_cursor__u32(c, &f->comp_mmap_len, "compression mmap length");
	return err;
}

static int parse_clock_data(struct feat_cursor *c, struct sampo_features *f)
{
	size_t at = c->pos;
	int err;

	err = sampo_feat_cursor__u32(c, &f->clock_data_version, "clock data version");
	if (err)
		return err;
	if (f->clock_data_version != 1)
		return sampo_feat_cursor__fail(c, at, -SAMPO_ERR_UNSUPPORTED,
					       "unknown clock data version %u",
					       f->clock_data_version);
	err = sampo_feat_cursor__u32(c, &f->clockid, "clockid");
	if (!err)
		err = sampo_feat_cursor__u64(c, &f->clock_tod_ns, "wall-clock reference time");
	if (!err)
		err = sampo_feat_cursor__u64(c, &f->clock_clockid_ns, "clockid reference time");
	return err;
}

/*
 * perf's clockid_name() table (tools/perf/util/clockid.c, clockids[]):
 * the ids are Linux's (the file's clockid is the recording kernel's, the
 * same ABI), in perf's order; perf names an id by its first entry, so the
 * short aliases ("mono", "raw", "real", "boot") never show.
 */
static const struct {
	clockid_t id;
	const char *name;
} clockids[] = {
	{ CLOCK_MONOTONIC, "monotonic" }, { CLOCK_MONOTONIC_RAW, "monotonic_raw" },
	{ CLOCK_REALTIME, "realtime" },	  { CLOCK_BOOTTIME, "boottime" },
	{ CLOCK_TAI, "tai" },
};

const char *sampo_clockid__name(uint32_t clockid)
{
	for (size_t i = 0; i < ARRAY_SIZE(clockids); i++) {
		if ((uint32_t)clockids[i].id == clockid)
			return clockids[i].name;
	}
	return NULL;
}

/*
 * Which fields of struct sampo_features each parser writes, so that a failed
 * parse can reset exactly them. offsetof ranges keep this next to the
 * struct's layout: each feature's fields are contiguous in the public struct.
 */
struct feat_desc {
	feat_parse_fn parse;
	size_t field_start; /* offsetof() of the first field */
	size_t field_end;   /* offsetof() just past the last field */
};

#define FIELDS(first, last)                     \
	offsetof(struct sampo_features, first), \
		offsetof(struct sampo_features, last) + sizeof(((struct sampo_features *)0)->last)

static const struct feat_desc feat_descs[SAMPO_FEAT_LAST_KNOWN + 1] = {
	[SAMPO_FEAT_TRACING_DATA] = { parse_tracing_data, FIELDS(tracing_data_size, tracing_data) },
	[SAMPO_FEAT_BUILD_ID] = { parse_build_id, FIELDS(nr_build_ids, build_ids) },
	[SAMPO_FEAT_HOSTNAME] = { parse_hostname, FIELDS(hostname, hostname) },
	[SAMPO_FEAT_OSRELEASE] = { parse_osrelease, FIELDS(osrelease, osrelease) },
	[SAMPO_FEAT_VERSION] = { parse_version, FIELDS(version, version) },
	[SAMPO_FEAT_ARCH] = { parse_arch, FIELDS(arch, arch) },
	[SAMPO_FEAT_NRCPUS] = { parse_nrcpus, FIELDS(nr_cpus_avail, nr_cpus_online) },
	[SAMPO_FEAT_CPUDESC] = { parse_cpudesc, FIELDS(cpudesc, cpudesc) },
	[SAMPO_FEAT_CPUID] = { parse_cpuid, FIELDS(cpuid, cpuid) },
	[SAMPO_FEAT_TOTAL_MEM] = { parse_total_mem, FIELDS(total_mem_kb, total_mem_kb) },
	[SAMPO_FEAT_CMDLINE] = { parse_cmdline, FIELDS(cmdline, cmdline) },
	[SAMPO_FEAT_EVENT_DESC] = { parse_event_desc, FIELDS(nr_events, events) },
	[SAMPO_FEAT_CPU_TOPOLOGY] = { sampo_features__parse_cpu_topology,
				      FIELDS(cpu_topology, cpu_topology) },
	[SAMPO_FEAT_NUMA_TOPOLOGY] = { sampo_features__parse_numa_topology,
				       FIELDS(nr_numa_nodes, numa_nodes) },
	[SAMPO_FEAT_BRANCH_STACK] = { NULL, 0, 0 },
	[SAMPO_FEAT_PMU_MAPPINGS] = { sampo_features__parse_pmu_mappings,
				      FIELDS(nr_pmu_mappings, pmu_mappings) },
	[SAMPO_FEAT_GROUP_DESC] = { parse_group_desc, FIELDS(nr_groups, groups) },
	[SAMPO_FEAT_AUXTRACE] = { parse_auxtrace, FIELDS(nr_auxtrace, auxtrace) },
	[SAMPO_FEAT_STAT] = { NULL, 0, 0 },
	[SAMPO_FEAT_CACHE] = { sampo_features__parse_cache, FIELDS(cache_version, caches) },
	[SAMPO_FEAT_SAMPLE_TIME] = { parse_sample_time,
				     FIELDS(first_sample_time, last_sample_time) },
	[SAMPO_FEAT_MEM_TOPOLOGY] = { sampo_features__parse_mem_topology,
				      FIELDS(mem_topology_version, memory_nodes) },
	[SAMPO_FEAT_CLOCKID] = { parse_clockid, FIELDS(clockid_res_ns, clockid_res_ns) },
	[SAMPO_FEAT_DIR_FORMAT] = { parse_dir_format,
				    FIELDS(dir_format_version, dir_format_version) },
	[SAMPO_FEAT_BPF_PROG_INFO] = { parse_bpf_prog_info, FIELDS(nr_bpf_progs, bpf_progs) },
	[SAMPO_FEAT_BPF_BTF] = { parse_bpf_btf, FIELDS(nr_btfs, btfs) },
	[SAMPO_FEAT_COMPRESSED] = { parse_compressed, FIELDS(comp_version, comp_mmap_len) },
	[SAMPO_FEAT_CPU_PMU_CAPS] = { sampo_features__parse_cpu_pmu_caps,
				      FIELDS(cpu_pmu_caps, cpu_pmu_caps) },
	[SAMPO_FEAT_CLOCK_DATA] = { parse_clock_data,
				    FIELDS(clock_data_version, clock_clockid_ns) },
	[SAMPO_FEAT_HYBRID_TOPOLOGY] = { sampo_features__parse_hybrid_topology,
					 FIELDS(nr_hybrid_nodes, hybrid_nodes) },
	[SAMPO_FEAT_PMU_CAPS] = { sampo_features__parse_pmu_caps, FIELDS(nr_pmu_caps, pmu_caps) },
};

/* ---- public API ---------------------------------------------------------------- */

/* The names perf gives the features in its messages (HEADER_<name>). */
static const char *const feature_names[SAMPO_FEAT_LAST_KNOWN + 1] = {
	[SAMPO_FEAT_RESERVED] = "RESERVED",
	[SAMPO_FEAT_TRACING_DATA] = "TRACING_DATA",
	[SAMPO_FEAT_BUILD_ID] = "BUILD_ID",
	[SAMPO_FEAT_HOSTNAME] = "HOSTNAME",
	[SAMPO_FEAT_OSRELEASE] = "OSRELEASE",
	[SAMPO_FEAT_VERSION] = "VERSION",
	[SAMPO_FEAT_ARCH] = "ARCH",
	[SAMPO_FEAT_NRCPUS] = "NRCPUS",
	[SAMPO_FEAT_CPUDESC] = "CPUDESC",
	[SAMPO_FEAT_CPUID] = "CPUID",
	[SAMPO_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[SAMPO_FEAT_CMDLINE] = "CMDLINE",
	[SAMPO_FEAT_EVENT_DESC] = "EVENT_DESC",
	[SAMPO_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[SAMPO_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[SAMPO_FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[SAMPO_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[SAMPO_FEAT_GROUP_DESC] = "GROUP_DESC",
	[SAMPO_FEAT_AUXTRACE] = "AUXTRACE",
	[SAMPO_FEAT_STAT] = "STAT",
	[SAMPO_FEAT_CACHE] = "CACHE",
	[SAMPO_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[SAMPO_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[SAMPO_FEAT_CLOCKID] = "CLOCKID",
	[SAMPO_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[SAMPO_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[SAMPO_FEAT_BPF_BTF] = "BPF_BTF",
	[SAMPO_FEAT_COMPRESSED] = "COMPRESSED",
	[SAMPO_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[SAMPO_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[SAMPO_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[SAMPO_FEAT_PMU_CAPS] = "PMU_CAPS",
};

const char *sampo_feature__name(int feat)
{
	static const char *const sp_names[] = {
		"SIMPLEPERF_FILE",	       "SIMPLEPERF_META_INFO",	   "SIMPLEPERF_DEBUG_UNWIND",
		"SIMPLEPERF_DEBUG_UNWIND_FILE", "SIMPLEPERF_FILE2",	   "SIMPLEPERF_ETM_BRANCH_LIST",
		"SIMPLEPERF_INIT_MAP",
	};

	if (feat >= SAMPO_FEAT_SIMPLEPERF_FILE && feat <= SAMPO_FEAT_SIMPLEPERF_LAST)
		return sp_names[feat - SAMPO_FEAT_SIMPLEPERF_FILE];
	if (feat < 0 || feat > SAMPO_FEAT_LAST_KNOWN)
		return NULL;
	return feature_names[feat];
}

struct sampo_features *sampo_features__new(void)
{
	struct features_obj *obj = calloc(1, sizeof(*obj));

	return obj ? &obj->view : NULL;
}

void sampo_features__delete(struct sampo_features *f)
{
	struct arena_block *b, *next;

	if (!f)
		return;
	for (b = features_obj(f)->blocks; b; b = next) {
		next = b->next;
		free(b);
	}
	free(features_obj(f));
}

bool sampo_features__has(const struct sampo_features *f, int feat)
{
	if (!f || feat < 0 || feat >= SAMPO_FEAT_MAX_BITS)
		return false;
	return f->present[feat / 64] & (1ULL << (feat % 64));
}

static void features_set_present(struct sampo_features *f, int feat, bool on)
{
	if (on)
		f->present[feat / 64] |= 1ULL << (feat % 64);
	else
		f->present[feat / 64] &= ~(1ULL << (feat % 64));
}

/* The fields each simpleperf parser writes, as feat_descs[] for perf's. */
static const struct feat_desc sp_feat_descs[] = {
	[SAMPO_FEAT_SIMPLEPERF_FILE - SAMPO_FEAT_SIMPLEPERF_FILE] = { NULL,
								   FIELDS(nr_sp_files, sp_files) },
	[SAMPO_FEAT_SIMPLEPERF_META_INFO - SAMPO_FEAT_SIMPLEPERF_FILE] = { NULL,
									FIELDS(nr_sp_meta,
									       sp_meta) },
	[SAMPO_FEAT_SIMPLEPERF_DEBUG_UNWIND - SAMPO_FEAT_SIMPLEPERF_FILE] = {
		NULL, FIELDS(nr_sp_debug_unwind, sp_debug_unwind) },
	[SAMPO_FEAT_SIMPLEPERF_DEBUG_UNWIND_FILE - SAMPO_FEAT_SIMPLEPERF_FILE] = {
		NULL, FIELDS(sp_debug_unwind_file_size, sp_debug_unwind_file_size) },
	[SAMPO_FEAT_SIMPLEPERF_FILE2 - SAMPO_FEAT_SIMPLEPERF_FILE] = { NULL,
								    FIELDS(nr_sp_files2,
									   sp_files2) },
	[SAMPO_FEAT_SIMPLEPERF_ETM_BRANCH_LIST - SAMPO_FEAT_SIMPLEPERF_FILE] = {
		NULL, FIELDS(sp_etm_branch_list_size, sp_etm_branch_list_size) },
	[SAMPO_FEAT_SIMPLEPERF_INIT_MAP - SAMPO_FEAT_SIMPLEPERF_FILE] = {
		NULL, FIELDS(sp_init_map_size, sp_init_map_size) },
};

static int parse_simpleperf(struct sampo_features *f, int feat, struct feat_cursor *c)
{
	const struct feat_desc *d = &sp_feat_descs[feat - SAMPO_FEAT_SIMPLEPERF_FILE];
	int ret;

	features_set_present(f, feat, false);
	memset((char *)f + d->field_start, 0, d->field_end - d->field_start);
	ret = sampo_features__simpleperf_parser(feat)(c, f);
	if (ret) {
		memset((char *)f + d->field_start, 0, d->field_end - d->field_start);
		return ret;
	}
	features_set_present(f, feat, true);
	return 0;
}

int sampo_features__parse_one(struct sampo_features *f, int feat, const void *buf, size_t len,
			      bool swap, struct sampo_feature_error *err)
{
	struct feat_cursor c = {
		.buf = buf,
		.len = len,
		.swap = swap,
		.feat = feat,
		.obj = f ? features_obj(f) : NULL,
		.err = err,
	};
	const struct feat_desc *d;
	int ret;

	if (err) {
		memset(err, 0, sizeof(*err));
		err->feat = feat;
	}
	if (!f || feat <= SAMPO_FEAT_RESERVED || feat >= SAMPO_FEAT_MAX_BITS || (!buf && len))
		return sampo_feat_cursor__fail(&c, 0, -EINVAL, "invalid feature id %d", feat);
	if (feat >= SAMPO_FEAT_SIMPLEPERF_FILE && feat <= SAMPO_FEAT_SIMPLEPERF_LAST) {
		if (swap)
			return 0; /* simpleperf writes little-endian only: not its */
		return parse_simpleperf(f, feat, &c);
	}
	if (feat > SAMPO_FEAT_LAST_KNOWN)
		return 0; /* unknown to us, as to perf 6.1: skipped */

	d = &feat_descs[feat];
	features_set_present(f, feat, false);
	if (d->field_end > d->field_start)
		memset((char *)f + d->field_start, 0, d->field_end - d->field_start);
	if (d->parse) {
		ret = d->parse(&c, f);
		if (ret) {
			if (d->field_end > d->field_start)
				memset((char *)f + d->field_start, 0,
				       d->field_end - d->field_start);
			return ret;
		}
	}
	features_set_present(f, feat, true);
	return 0;
}

/*
 * Every feature of @reader into a new object. @each: a feature that cannot
 * be read or parsed is left out (the first one is described in @err) and
 * the others are still parsed; else the first one ends the parse.
 * Return: the number of features left out, or a negative error.
 */
static int features_parse(struct sampo_reader *reader, bool each,
			  struct sampo_features **ret_features, struct sampo_feature_error *err)
{
	struct sampo_feature_error first, cur;
	struct sampo_features *f;
	int ret = 0, nr_bad = 0;
	bool swap;

	memset(&first, 0, sizeof(first));
	if (err)
		*err = first;
	if (!reader || !ret_features)
		return -EINVAL;
	f = sampo_features__new();
	if (!f)
		return -ENOMEM;
	swap = sampo_reader__needs_swap(reader);

	for (int feat = SAMPO_FEAT_RESERVED + 1; feat <= SAMPO_FEAT_SIMPLEPERF_LAST; feat++) {
		const void *data;
		size_t size;

		if (feat == SAMPO_FEAT_LAST_KNOWN + 1)
			feat = SAMPO_FEAT_SIMPLEPERF_FILE; /* nothing in between is known */
		if (!sampo_reader__has_feature(reader, feat))
			continue;
		ret = sampo_reader__feature(reader, feat, &data, &size);
		if (ret == -ENOENT)
			continue; /* pipe mode: bit known, payload not kept */
		if (ret) {
			memset(&cur, 0, sizeof(cur));
			cur.feat = feat;
			snprintf(cur.msg, sizeof(cur.msg), "cannot read the section");
		} else {
			ret = sampo_features__parse_one(f, feat, data, size, swap, &cur);
		}
		if (!ret)
			continue;
		cur.section_offset = sampo_reader__feature_offset(reader, feat);
		if (!nr_bad++)
			first = cur;
		if (!each || ret == -ENOMEM || ret == -EINVAL)
			goto out_delete;
	}
	if (err)
		*err = first;
	*ret_features = f;
	return nr_bad;

out_delete:
	if (err)
		*err = first;
	sampo_features__delete(f);
	return ret;
}

int sampo_features__parse(struct sampo_reader *reader, struct sampo_features **ret_features,
			  struct sampo_feature_error *err)
{
	int ret = features_parse(reader, false, ret_features, err);

	return ret > 0 ? 0 : ret; /* (never > 0: the first bad feature fails) */
}

int sampo_features__parse_each(struct sampo_reader *reader, struct sampo_features **ret_features,
			       struct sampo_feature_error *err)
{
	return features_parse(reader, true, ret_features, err);
}

/* ---- encoding (for writers) ------------------------------------------------------ */

const char *sampo_arch__normalize(const char *arch)
{
	if (!strcmp(arch, "x86_64"))
		return "x86";
	if (arch[0] == 'i' && arch[1] && arch[2] == '8' && arch[3] == '6')
		return "x86";
	if (!strcmp(arch, "sun4u") || !strncmp(arch, "sparc", 5))
		return "sparc";
	if (!strncmp(arch, "aarch64", 7) || !strncmp(arch, "arm64", 5))
		return "arm64";
	if (!strncmp(arch, "arm", 3) || !strcmp(arch, "sa110"))
		return "arm";
	if (!strncmp(arch, "s390", 4))
		return "s390";
	if (!strncmp(arch, "parisc", 6))
		return "parisc";
	if (!strncmp(arch, "powerpc", 7) || !strncmp(arch, "ppc", 3))
		return "powerpc";
	if (!strncmp(arch, "mips", 4))
		return "mips";
	if (!strncmp(arch, "sh", 2) && arch[2] >= '0' && arch[2] <= '9')
		return "sh";
	if (!strncmp(arch, "loongarch", 9))
		return "loongarch";
	return arch;
}

size_t sampo_feature__encode_string(void *buf, size_t size, const char *str)
{
	size_t slen = strlen(str);
	size_t len = ALIGN_UP(slen + 1, (size_t)SAMPO_NAME_ALIGN);
	uint32_t len32 = (uint32_t)len;
	uint8_t *p = buf;

	if (!buf || size < 4 + len)
		return 4 + len;
	memcpy(p, &len32, 4);
	memcpy(p + 4, str, slen);
	memset(p + 4 + slen, 0, len - slen);
	return 4 + len;
}

size_t sampo_feature__encode_strlist(void *buf, size_t size, const char *const *strs, uint32_t nr)
{
	size_t total = 4;
	uint8_t *p = buf;

	for (uint32_t i = 0; i < nr; i++)
		total += sampo_feature__encode_string(NULL, 0, strs[i]);
	if (!buf || size < total)
		return total;
	memcpy(p, &nr, 4);
	p += 4;
	for (uint32_t i = 0; i < nr; i++)
		p += sampo_feature__encode_string(p, SIZE_MAX, strs[i]);
	return total;
}
