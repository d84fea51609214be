// SPDX-License-Identifier: GPL-2.0
/*
 * pprof.c - the pprof writer (pprof.h): a profile.proto built in memory,
 * encoded with protobuf-c and gzipped with zlib, and the conversion of a
 * perf.data session's samples into it.
 *
 * The profile keeps every table deduplicated by content: a key is a run of
 * u64 words in one arena (struct keytab), looked up through an open
 * addressing index, so that equal mappings, functions, locations and
 * samples are stored once and ids are their positions + 1. Strings have
 * their own table (string_table[0] is "").
 *
 * Writing streams: protobuf's rule that concatenated encodings of a message
 * merge (repeated fields append) lets each sample, location, ... be packed
 * as a Profile holding just that one element and written on, so the encoded
 * profile never sits in memory whole, only the tables do.
 *
 * The perf side resolves a sample as perf report does (sampo_machine__
 * find_map() + the symbolizer for every entry of the call chain, context
 * markers switching the cpumode, at most max_stack entries, a chain with an
 * unknown marker dropped) and keeps the sampled ip as the leaf, the chain's
 * first entry being the same ip again (perf_data_converter skips it too).
 * A location is a (mapping, address) with its lines; resolved locations are
 * cached per (process maps or kernel, cpumode, address) and machine
 * generation, so a sample costs a few hash lookups.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <sampo/buildid.h>
#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/output-file.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include <sampo/session.h>
#include <sampo/srcline.h>
#include <sampo/symbol.h>
#include <sampo/symbolizer.h>
#include <sampo/thread.h>

#include "pprof.h"
#include "profile.pb-c.h"

#define MAX_STACK_DEFAULT 127
#define MAX_INLINE	  16

/* ---- hashing -------------------------------------------------------------- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static uint64_t hash_words(const uint64_t *w, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;

	for (size_t i = 0; i < n; i++)
		h = mix64(h ^ w[i]) + i;
	return h;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return mix64(h);
}

static int grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 16;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* ---- a table of keys (runs of u64), each stored once --------------------- */

struct keyent {
	size_t off;
	uint32_t len;
	uint64_t hash;
};

struct keytab {
	uint64_t *words;
	size_t nr_words, cap_words;
	struct keyent *ent;
	size_t nr, cap;
	uint32_t *slots; /* 0: empty, else entry + 1 */
	size_t nr_slots; /* a power of two */
};

static void keytab_release(struct keytab *t)
{
	free(t->words);
	free(t->ent);
	free(t->slots);
}

static int keytab_rehash(struct keytab *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 1024;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		size_t j = t->ent[i].hash & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nr_slots = n;
	return 0;
}

/* the index of key @w[0..@n) (added if new, *@ret_new then true); -ENOMEM */
static int64_t keytab_intern(struct keytab *t, const uint64_t *w, size_t n, bool *ret_new)
{
	uint64_t h = hash_words(w, n);
	size_t j;

	if (ret_new)
		*ret_new = false;
	if ((t->nr + 1) * 2 > t->nr_slots && keytab_rehash(t))
		return -ENOMEM;
	for (j = h & (t->nr_slots - 1); t->slots[j]; j = (j + 1) & (t->nr_slots - 1)) {
		const struct keyent *e = &t->ent[t->slots[j] - 1];

		if (e->hash == h && e->len == n && !memcmp(t->words + e->off, w, n * sizeof(*w)))
			return t->slots[j] - 1;
	}
	if (t->nr >= UINT32_MAX - 1 || grow((void **)&t->ent, &t->cap, t->nr + 1, sizeof(*t->ent)) ||
	    grow((void **)&t->words, &t->cap_words, t->nr_words + n, sizeof(*t->words)))
		return -ENOMEM;
	memcpy(t->words + t->nr_words, w, n * sizeof(*w));
	t->ent[t->nr] = (struct keyent){ .off = t->nr_words, .len = (uint32_t)n, .hash = h };
	t->nr_words += n;
	t->slots[j] = (uint32_t)++t->nr;
	if (ret_new)
		*ret_new = true;
	return (int64_t)t->nr - 1;
}

static const uint64_t *keytab_key(const struct keytab *t, size_t idx, size_t *ret_len)
{
	*ret_len = t->ent[idx].len;
	return t->words + t->ent[idx].off;
}

/* ---- the profile ----------------------------------------------------------- */

struct strtab {
	char **str;
	uint64_t *hash;
	size_t nr, cap;
	uint32_t *slots;
	size_t nr_slots;
};

struct sample_values {
	int64_t *v;
	uint32_t n;
};

struct pprof {
	struct strtab strings;
	/* sample types: (type, unit) string indexes */
	int64_t (*types)[2];
	size_t nr_types, cap_types;
	int64_t default_type; /* string index, 0: the last type */
	int64_t *comments;
	size_t nr_comments, cap_comments;
	int64_t time_nanos, duration_nanos;

	/*
	 * Keys: mapping (start, limit, offset, filename, build_id, flags);
	 * function (name, system_name, filename, start_line); location
	 * (mapping, address, then function, line per line); sample (number
	 * of locations, the locations, then key, str, num, unit per label).
	 */
	struct keytab mappings, functions, locations, samples;
	struct sample_values *values;
	size_t cap_values;
};

static void strtab_release(struct strtab *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->str[i]);
	free(t->str);
	free(t->hash);
	free(t->slots);
}

static int strtab_rehash(struct strtab *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 1024;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		size_t j = t->hash[i] & (n - 1);

		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = slots;
	t->nr_slots = n;
	return 0;
}

int64_t pprof_string(struct pprof *p, const char *s)
{
	struct strtab *t = &p->strings;
	uint64_t h;
	size_t j;
	char *copy;

	if (!s)
		s = "";
	h = hash_str(s);
	if ((t->nr + 1) * 2 > t->nr_slots && strtab_rehash(t))
		return -ENOMEM;
	for (j = h & (t->nr_slots - 1); t->slots[j]; j = (j + 1) & (t->nr_slots - 1)) {
		size_t i = t->slots[j] - 1;

		if (t->hash[i] == h && !strcmp(t->str[i], s))
			return (int64_t)i;
	}
	if (grow((void **)&t->str, &t->cap, t->nr + 1, sizeof(*t->str)))
		return -ENOMEM;
	/* the same capacity for the hashes: grow() moved cap already */
	{
		uint64_t *nh = realloc(t->hash, t->cap * sizeof(*nh));

		if (!nh)
			return -ENOMEM;
		t->hash = nh;
	}
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	t->str[t->nr] = copy;
	t->hash[t->nr] = h;
	t->slots[j] = (uint32_t)++t->nr;
	return (int64_t)t->nr - 1;
}

int pprof_new(struct pprof **ret)
{
	struct pprof *p = calloc(1, sizeof(*p));

	*ret = NULL;
	if (!p)
		return -ENOMEM;
	if (pprof_string(p, "") != 0) {
		pprof_delete(p);
		return -ENOMEM;
	}
	*ret = p;
	return 0;
}

void pprof_delete(struct pprof *p)
{
	if (!p)
		return;
	strtab_release(&p->strings);
	free(p->types);
	free(p->comments);
	keytab_release(&p->mappings);
	keytab_release(&p->functions);
	keytab_release(&p->locations);
	for (size_t i = 0; i < p->samples.nr; i++)
		free(p->values[i].v);
	free(p->values);
	keytab_release(&p->samples);
	free(p);
}

int pprof_sample_type(struct pprof *p, const char *type, const char *unit)
{
	int64_t t = pprof_string(p, type), u = pprof_string(p, unit);

	if (t < 0 || u < 0)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_types; i++)
		if (p->types[i][0] == t && p->types[i][1] == u)
			return (int)i;
	if (grow((void **)&p->types, &p->cap_types, p->nr_types + 1, sizeof(*p->types)))
		return -ENOMEM;
	p->types[p->nr_types][0] = t;
	p->types[p->nr_types][1] = u;
	return (int)p->nr_types++;
}

int pprof_set_default_sample_type(struct pprof *p, const char *type)
{
	int64_t t = type ? pprof_string(p, type) : 0;

	if (t < 0)
		return -ENOMEM;
	p->default_type = t;
	return 0;
}

int pprof_add_comment(struct pprof *p, const char *text)
{
	int64_t s = pprof_string(p, text);

	if (s < 0)
		return -ENOMEM;
	for (size_t i = 0; i < p->nr_comments; i++)
		if (p->comments[i] == s)
			return 0;
	if (grow((void **)&p->comments, &p->cap_comments, p->nr_comments + 1,
		 sizeof(*p->comments)))
		return -ENOMEM;
	p->comments[p->nr_comments++] = s;
	return 0;
}

void pprof_set_time(struct pprof *p, int64_t time_nanos, int64_t duration_nanos)
{
	p->time_nanos = time_nanos;
	p->duration_nanos = duration_nanos;
}

uint64_t pprof_mapping(struct pprof *p, const struct pprof_mapping *m)
{
	int64_t fn = pprof_string(p, m->filename), bid = pprof_string(p, m->build_id), idx;
	uint64_t key[6];

	if (fn < 0 || bid < 0)
		return 0;
	key[0] = m->start;
	key[1] = m->limit;
	key[2] = m->file_offset;
	key[3] = (uint64_t)fn;
	key[4] = (uint64_t)bid;
	key[5] = (uint64_t)m->has_functions | (uint64_t)m->has_filenames << 1 |
		 (uint64_t)m->has_line_numbers << 2 | (uint64_t)m->has_inline_frames << 3;
	idx = keytab_intern(&p->mappings, key, 6, NULL);
	return idx < 0 ? 0 : (uint64_t)idx + 1;
}

uint64_t pprof_function(struct pprof *p, const char *name, const char *system_name,
			const char *filename, int64_t start_line)
{
	int64_t n = pprof_string(p, name), sn = pprof_string(p, system_name),
		fn = pprof_string(p, filename), idx;
	uint64_t key[4];

	if (n < 0 || sn < 0 || fn < 0)
		return 0;
	key[0] = (uint64_t)n;
	key[1] = (uint64_t)sn;
	key[2] = (uint64_t)fn;
	key[3] = (uint64_t)start_line;
	idx = keytab_intern(&p->functions, key, 4, NULL);
	return idx < 0 ? 0 : (uint64_t)idx + 1;
}

uint64_t pprof_location(struct pprof *p, uint64_t mapping_id, uint64_t address,
			const struct pprof_line *lines, size_t nr)
{
	uint64_t key[2 + 2 * MAX_INLINE];
	int64_t idx;

	if (nr > MAX_INLINE)
		nr = MAX_INLINE;
	key[0] = mapping_id;
	key[1] = address;
	for (size_t i = 0; i < nr; i++) {
		key[2 + 2 * i] = lines[i].function_id;
		key[3 + 2 * i] = (uint64_t)lines[i].line;
	}
	idx = keytab_intern(&p->locations, key, 2 + 2 * nr, NULL);
	return idx < 0 ? 0 : (uint64_t)idx + 1;
}

int pprof_add_sample(struct pprof *p, const uint64_t *locations, size_t nr_locations,
		     const struct pprof_label *labels, size_t nr_labels,
		     const struct pprof_value *values, size_t nr_values)
{
	size_t n = 1 + nr_locations + 4 * nr_labels;
	uint64_t stack_key[256], *key = stack_key;
	struct sample_values *sv;
	int64_t idx;
	bool added;
	int err = 0;

	if (n > sizeof(stack_key) / sizeof(stack_key[0])) {
		key = malloc(n * sizeof(*key));
		if (!key)
			return -ENOMEM;
	}
	key[0] = nr_locations;
	memcpy(key + 1, locations, nr_locations * sizeof(*key));
	for (size_t i = 0; i < nr_labels; i++) {
		uint64_t *k = key + 1 + nr_locations + 4 * i;
		int64_t ks = pprof_string(p, labels[i].key);
		int64_t ss = labels[i].str ? pprof_string(p, labels[i].str) : 0;
		int64_t us = labels[i].num_unit ? pprof_string(p, labels[i].num_unit) : 0;

		if (ks < 0 || ss < 0 || us < 0) {
			err = -ENOMEM;
			goto out;
		}
		k[0] = (uint64_t)ks;
		k[1] = (uint64_t)ss;
		k[2] = labels[i].str ? 0 : (uint64_t)labels[i].num;
		/* a string label with an empty string is still a string label */
		k[3] = (uint64_t)us | (labels[i].str ? 1ULL << 63 : 0);
	}
	idx = keytab_intern(&p->samples, key, n, &added);
	if (idx < 0) {
		err = -ENOMEM;
		goto out;
	}
	if (added) {
		if (grow((void **)&p->values, &p->cap_values, p->samples.nr, sizeof(*p->values))) {
			/* the key stays, without values: it adds nothing */
			p->samples.nr--;
			err = -ENOMEM;
			goto out;
		}
		p->values[idx] = (struct sample_values){ 0 };
	}
	sv = &p->values[idx];
	for (size_t i = 0; i < nr_values; i++) {
		int t = values[i].type;

		if (t < 0)
			continue;
		if ((uint32_t)t >= sv->n) {
			uint32_t nn = (uint32_t)t + 1;
			int64_t *v = realloc(sv->v, nn * sizeof(*v));

			if (!v) {
				err = -ENOMEM;
				goto out;
			}
			memset(v + sv->n, 0, (nn - sv->n) * sizeof(*v));
			sv->v = v;
			sv->n = nn;
		}
		sv->v[t] += values[i].value;
	}
out:
	if (key != stack_key)
		free(key);
	return err;
}

size_t pprof_nr_samples(const struct pprof *p)
{
	return p->samples.nr;
}

size_t pprof_nr_locations(const struct pprof *p)
{
	return p->locations.nr;
}

/* ---- writing ----------------------------------------------------------------- */

struct writer {
	gzFile gz;
	uint8_t *buf;
	size_t cap;
	int err;
};

/* pack @prof (a Profile holding one part) and append it to the stream */
static void emit(struct writer *w, const Perftools__Profiles__Profile *prof)
{
	size_t n;

	if (w->err)
		return;
	n = protobuf_c_message_get_packed_size(&prof->base);
	if (grow((void **)&w->buf, &w->cap, n ? n : 1, 1)) {
		w->err = -ENOMEM;
		return;
	}
	protobuf_c_message_pack(&prof->base, w->buf);
	if (n && gzwrite(w->gz, w->buf, (unsigned)n) != (int)n)
		w->err = -EIO;
}

static void write_types(struct writer *w, const struct pprof *p)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType *vt, **pvt;

	if (!p->nr_types)
		return;
	vt = calloc(p->nr_types, sizeof(*vt));
	pvt = calloc(p->nr_types, sizeof(*pvt));
	if (!vt || !pvt) {
		w->err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < p->nr_types; i++) {
		perftools__profiles__value_type__init(&vt[i]);
		vt[i].type = p->types[i][0];
		vt[i].unit = p->types[i][1];
		pvt[i] = &vt[i];
	}
	prof.n_sample_type = p->nr_types;
	prof.sample_type = pvt;
	prof.default_sample_type = p->default_type;
	prof.n_comment = p->nr_comments;
	prof.comment = p->comments;
	prof.time_nanos = p->time_nanos;
	prof.duration_nanos = p->duration_nanos;
	emit(w, &prof);
out:
	free(vt);
	free(pvt);
}

static void write_samples(struct writer *w, const struct pprof *p)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Sample s, *ps = &s;
	Perftools__Profiles__Label *lb = NULL, **plb = NULL;
	size_t cap_lb = 0, cap_plb = 0;
	int64_t *vals = calloc(p->nr_types ? p->nr_types : 1, sizeof(*vals));

	if (!vals) {
		w->err = -ENOMEM;
		return;
	}
	prof.n_sample = 1;
	prof.sample = &ps;
	for (size_t i = 0; i < p->samples.nr && !w->err; i++) {
		size_t len, nr_locs, nr_labels;
		const uint64_t *k = keytab_key(&p->samples, i, &len);
		const struct sample_values *sv = &p->values[i];

		nr_locs = (size_t)k[0];
		nr_labels = (len - 1 - nr_locs) / 4;
		if (grow((void **)&lb, &cap_lb, nr_labels + 1, sizeof(*lb)) ||
		    grow((void **)&plb, &cap_plb, nr_labels + 1, sizeof(*plb))) {
			w->err = -ENOMEM;
			break;
		}
		perftools__profiles__sample__init(&s);
		s.n_location_id = nr_locs;
		s.location_id = (uint64_t *)(k + 1);
		memset(vals, 0, p->nr_types * sizeof(*vals));
		for (uint32_t t = 0; t < sv->n && t < p->nr_types; t++)
			vals[t] = sv->v[t];
		s.n_value = p->nr_types;
		s.value = vals;
		for (size_t j = 0; j < nr_labels; j++) {
			const uint64_t *l = k + 1 + nr_locs + 4 * j;

			perftools__profiles__label__init(&lb[j]);
			lb[j].key = (int64_t)l[0];
			lb[j].str = (int64_t)l[1];
			lb[j].num = (int64_t)l[2];
			lb[j].num_unit = (int64_t)(l[3] & ~(1ULL << 63));
			plb[j] = &lb[j];
		}
		s.n_label = nr_labels;
		s.label = plb;
		emit(w, &prof);
	}
	free(vals);
	free(lb);
	free(plb);
}

static void write_mappings(struct writer *w, const struct pprof *p)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Mapping m, *pm = &m;

	prof.n_mapping = 1;
	prof.mapping = &pm;
	for (size_t i = 0; i < p->mappings.nr && !w->err; i++) {
		size_t len;
		const uint64_t *k = keytab_key(&p->mappings, i, &len);

		perftools__profiles__mapping__init(&m);
		m.id = i + 1;
		m.memory_start = k[0];
		m.memory_limit = k[1];
		m.file_offset = k[2];
		m.filename = (int64_t)k[3];
		m.build_id = (int64_t)k[4];
		m.has_functions = k[5] & 1;
		m.has_filenames = (k[5] >> 1) & 1;
		m.has_line_numbers = (k[5] >> 2) & 1;
		m.has_inline_frames = (k[5] >> 3) & 1;
		emit(w, &prof);
	}
}

static void write_locations(struct writer *w, const struct pprof *p)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Location loc, *ploc = &loc;
	Perftools__Profiles__Line lines[MAX_INLINE], *plines[MAX_INLINE];

	prof.n_location = 1;
	prof.location = &ploc;
	for (size_t i = 0; i < p->locations.nr && !w->err; i++) {
		size_t len;
		const uint64_t *k = keytab_key(&p->locations, i, &len);
		size_t nr = (len - 2) / 2;

		perftools__profiles__location__init(&loc);
		loc.id = i + 1;
		loc.mapping_id = k[0];
		loc.address = k[1];
		for (size_t j = 0; j < nr; j++) {
			perftools__profiles__line__init(&lines[j]);
			lines[j].function_id = k[2 + 2 * j];
			lines[j].line = (int64_t)k[3 + 2 * j];
			plines[j] = &lines[j];
		}
		loc.n_line = nr;
		loc.line = plines;
		emit(w, &prof);
	}
}

static void write_functions(struct writer *w, const struct pprof *p)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__Function f, *pf = &f;

	prof.n_function = 1;
	prof.function = &pf;
	for (size_t i = 0; i < p->functions.nr && !w->err; i++) {
		size_t len;
		const uint64_t *k = keytab_key(&p->functions, i, &len);

		perftools__profiles__function__init(&f);
		f.id = i + 1;
		f.name = (int64_t)k[0];
		f.system_name = (int64_t)k[1];
		f.filename = (int64_t)k[2];
		f.start_line = (int64_t)k[3];
		emit(w, &prof);
	}
}

static void write_strings(struct writer *w, const struct pprof *p)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;

	/* in runs, so that the table's order is kept and the packs stay small */
	for (size_t i = 0; i < p->strings.nr && !w->err; i += 1024) {
		prof.n_string_table = p->strings.nr - i < 1024 ? p->strings.nr - i : 1024;
		prof.string_table = p->strings.str + i;
		emit(w, &prof);
	}
}

int pprof_write(struct pprof *p, const char *path)
{
	struct writer w = { 0 };
	int fd, err;

	if (!strcmp(path, "-")) {
		fd = dup(STDOUT_FILENO);
		if (fd < 0)
			return -errno;
	} else {
		fd = sampo_output_file__create(path, 0644);
		if (fd < 0)
			return fd;
	}
	w.gz = gzdopen(fd, "wb");
	if (!w.gz) {
		close(fd);
		return -ENOMEM;
	}
	write_strings(&w, p);
	write_types(&w, p);
	write_mappings(&w, p);
	write_functions(&w, p);
	write_locations(&w, p);
	write_samples(&w, p);
	err = gzclose(w.gz);
	free(w.buf);
	if (w.err)
		return w.err;
	return err == Z_OK ? 0 : -EIO;
}
