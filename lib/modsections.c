// SPDX-License-Identifier: LGPL-2.1
/*
 * modsections.c - module section maps: collected from sysfs at record time,
 * stored in a feature section of their own, read back at report time.
 *
 * The set is a small array of modules, each with its name, build-id and a
 * sections array whose names live in the module's own allocations. Every
 * count and string of a payload is checked against its length before use.
 * See include/sampo/modsections.h for the payload layout and
 * docs/kernel-symbols.md for why a feature section.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/buildid.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/kmodule.h>
#include <sampo/modsections.h>
#include <sampo/reader.h>
#include <sampo/symbol.h>
#include <sampo/writer.h>
#include "internal/modsections.h"
#include "internal/path.h"
#include "internal/util.h"

#define MODSECTIONS_VERSION 1
#define MAX_SECTIONS	    65536

struct sampo_module_sections *sampo_module_sections__new(void)
{
	return calloc(1, sizeof(struct sampo_module_sections));
}

static void module_release(struct modsec_module *m)
{
	for (size_t i = 0; i < m->nr; i++)
		free((char *)m->secs[i].name);
	free(m->secs);
	free(m->name);
	memset(m, 0, sizeof(*m));
}

void sampo_module_sections__delete(struct sampo_module_sections *ms)
{
	if (!ms)
		return;
	for (size_t i = 0; i < ms->nr; i++)
		module_release(&ms->mods[i]);
	free(ms->mods);
	free(ms);
}

/*
 * @name, already in the kernel's form, names a module and keeps that form when
 * derived again (as parsing the encoded set does): "..ko" gives ".", which is
 * no name, and "..ko.kot..." gives "..ko", which gives "." in turn.
 */
static bool module_name_is_stable(const char *name)
{
	char *again = sampo_module__name(name);
	bool ok = again && sampo_path__is_name(name) && !strcmp(again, name);

	free(again);
	return ok;
}

int sampo_module_sections__add(struct sampo_module_sections *ms, const char *name,
			       const struct sampo_build_id *bid,
			       const struct sampo_section_addr *secs, size_t nr)
{
	struct modsec_module m = { 0 };
	size_t idx;

	/* a module's name becomes a path component (/sys/module/NAME): one name, never "a/b" */
	if (!ms || !sampo_path__is_name(name) || (nr && !secs) || nr > MAX_SECTIONS ||
	    (bid && bid->size > SAMPO_BUILD_ID_SIZE))
		return -EINVAL;
	/* kept as the kernel names it (<sampo/kmodule.h>): "nf-tables" is "nf_tables" */
	m.name = sampo_module__name(name);
	if (m.name && !module_name_is_stable(m.name)) {
		free(m.name);
		return -EINVAL;
	}
	m.secs = calloc(nr ? nr : 1, sizeof(*m.secs));
	if (!m.name || !m.secs)
		goto out_nomem;
	if (bid)
		m.bid = *bid;
	for (size_t i = 0; i < nr; i++) {
		m.secs[i].addr = secs[i].addr;
		m.secs[i].name = strdup(secs[i].name ? secs[i].name : "");
		m.nr++;
		if (!m.secs[i].name)
			goto out_nomem;
	}
	for (idx = 0; idx < ms->nr; idx++) {
		if (!strcmp(ms->mods[idx].name, m.name))
			break;
	}
	if (idx == ms->nr) {
		if (ms->nr == ms->cap) {
			size_t ncap = ms->cap ? ms->cap * 2 : 16;
			struct modsec_module *nm = realloc(ms->mods, ncap * sizeof(*nm));

			if (!nm)
				goto out_nomem;
			ms->mods = nm;
			ms->cap = ncap;
		}
		ms->nr++;
	} else {
		module_release(&ms->mods[idx]);
	}
	ms->mods[idx] = m;
	return 0;

out_nomem:
	module_release(&m);
	return -ENOMEM;
}

size_t sampo_module_sections__nr(const struct sampo_module_sections *ms)
{
	return ms ? ms->nr : 0;
}

const char *sampo_module_sections__name(const struct sampo_module_sections *ms, size_t idx)
{
	return ms && idx < ms->nr ? ms->mods[idx].name : NULL;
}

const struct sampo_section_addr *
sampo_module_sections__find(const struct sampo_module_sections *ms,
			    const struct sampo_build_id *bid, const char *name, size_t *nr)
{
	const struct sampo_section_addr *found = NULL;
	/* the stored names are the kernel's (see __add()); NULL (out of memory): by build-id only */
	char *modname = name ? sampo_module__name(name) : NULL;

	if (!ms)
		goto out;
	for (size_t i = 0; i < ms->nr; i++) {
		const struct modsec_module *m = &ms->mods[i];

		if (bid && bid->size && m->bid.size) {
			if (!sampo_build_id__equal(bid, &m->bid))
				continue;
		} else if (!modname || strcmp(modname, m->name)) {
			continue;
		}
		*nr = m->nr;
		found = m->secs;
		break;
	}
out:
	free(modname);
	return found;
}

/* ---- sysfs --------------------------------------------------------------------------------- */

static int read_small_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

static int cmp_section(const void *a, const void *b)
{
	const struct sampo_section_addr *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return strcmp(x->name, y->name);
}

int sampo_module_sections__collect_one(struct sampo_module_sections *ms, const char *sysfs_root,
				       const char *name)
{
	struct sampo_section_addr *secs = NULL;
	struct sampo_build_id bid = { 0 };
	size_t nr = 0, cap = 0;
	char *dir = NULL, *path = NULL;
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (!ms || !sysfs_root || !sampo_path__is_name(name))
		return -EINVAL;
	if (asprintf(&dir, "%s/module/%s/sections", sysfs_root, name) < 0)
		return -ENOMEM;
	d = opendir(dir);
	if (!d) {
		err = -errno;
		free(dir);
		return err;
	}
	while ((de = readdir(d))) {
		char buf[64], *end;
		uint64_t addr;

		if (de->d_name[0] == '.' && (!de->d_name[1] || !strcmp(de->d_name, "..")))
			continue;
		free(path);
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0) {
			path = NULL;
			err = -ENOMEM;
			break;
		}
		if (read_small_file(path, buf, sizeof(buf)))
			continue;
		addr = strtoull(buf, &end, 16);
		if (end == buf || addr == 0)
			continue; /* hidden: no privilege */
		if (nr == cap) {
			size_t ncap = cap ? cap * 2 : 32;
			struct sampo_section_addr *ns = realloc(secs, ncap * sizeof(*ns));

			if (!ns) {
				err = -ENOMEM;
				break;
			}
			secs = ns;
			cap = ncap;
		}
		secs[nr].name = strdup(de->d_name);
		if (!secs[nr].name) {
			err = -ENOMEM;
			break;
		}
		secs[nr++].addr = addr;
	}
	closedir(d);
	free(path);
	path = NULL;
	if (!err && !nr)
		err = -ENOENT;
	if (!err) {
		qsort(secs, nr, sizeof(*secs), cmp_section);
		if (asprintf(&path, "%s/module/%s/notes/.note.gnu.build-id", sysfs_root, name) >= 0)
			(void)sampo_build_id__from_notes_file(path, &bid);
		else
			path = NULL;
		err = sampo_module_sections__add(ms, name, bid.size ? &bid : NULL, secs, nr);
	}
	for (size_t i = 0; i < nr; i++)
		free((char *)secs[i].name);
	free(secs);
	free(path);
	free(dir);
	return err;
}

static int cmp_module(const void *a, const void *b)
{
	return strcmp(((const struct modsec_module *)a)->name,
		      ((const struct modsec_module *)b)->name);
}

int sampo_module_sections__collect(const char *sysfs_root, struct sampo_module_sections **ret)
{
	struct sampo_module_sections *ms;
	struct dirent *de;
	char *dir;
	DIR *d;
	int err = 0;

	if (asprintf(&dir, "%s/module", sysfs_root ? sysfs_root : "/sys") < 0)
		return -ENOMEM;
	d = opendir(dir);
	free(dir);
	if (!d)
		return -errno;
	ms = sampo_module_sections__new();
	if (!ms) {
		closedir(d);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		int e;

		if (de->d_name[0] == '.')
			continue;
		e = sampo_module_sections__collect_one(ms, sysfs_root ? sysfs_root : "/sys",
						       de->d_name);
		if (e == -ENOMEM) {
			err = e;
			break;
		}
	}
	closedir(d);
	if (err) {
		sampo_module_sections__delete(ms);
		return err;
	}
	/* readdir order is the file system's: sort for reproducible files */
	if (ms->nr)
		qsort(ms->mods, ms->nr, sizeof(*ms->mods), cmp_module);
	*ret = ms;
	return 0;
}

/* ---- encoding ------------------------------------------------------------------------------ */

struct enc {
	uint8_t *p;
	size_t len, cap;
	bool swap, oom;
};

static uint8_t *enc_grow(struct enc *e, size_t n)
{
	if (e->oom)
		return NULL;
	if (e->len + n > e->cap) {
		size_t ncap = MAX(e->cap * 2, e->len + n + 256);
		uint8_t *np = realloc(e->p, ncap);

		if (!np) {
			e->oom = true;
			return NULL;
		}
		e->p = np;
		e->cap = ncap;
	}
	e->len += n;
	return e->p + e->len - n;
}

static void enc_u32(struct enc *e, uint32_t v)
{
	uint8_t *p = enc_grow(e, 4);

	if (e->swap)
		v = bswap_32(v);
	if (p)
		memcpy(p, &v, 4);
}

static void enc_u64(struct enc *e, uint64_t v)
{
	uint8_t *p = enc_grow(e, 8);

	if (e->swap)
		v = bswap_64(v);
	if (p)
		memcpy(p, &v, 8);
}

static void enc_str(struct enc *e, const char *s)
{
	size_t n = sampo_feature__encode_string(NULL, 0, s);
	uint8_t *p = enc_grow(e, n);

	if (!p)
		return;
	(void)sampo_feature__encode_string(p, n, s);
	if (e->swap) {
		uint32_t len = load_u32(p);

		len = bswap_32(len);
		memcpy(p, &len, 4);
	}
}

int sampo_module_sections__encode(const struct sampo_module_sections *ms, bool swap,
				  void **ret_buf, size_t *ret_len)
{
	struct enc e = { .swap = swap };
	size_t nr = ms ? ms->nr : 0;

	enc_u32(&e, MODSECTIONS_VERSION);
	enc_u32(&e, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		const struct modsec_module *m = &ms->mods[i];
		uint8_t *p = enc_grow(&e, 24);

		if (p) {
			memset(p, 0, 24);
			p[0] = (uint8_t)m->bid.size;
			memcpy(p + 4, m->bid.data, m->bid.size);
		}
		enc_str(&e, m->name);
		enc_u32(&e, (uint32_t)m->nr);
		enc_u32(&e, 0);
		for (size_t j = 0; j < m->nr; j++) {
			enc_u64(&e, m->secs[j].addr);
			enc_str(&e, m->secs[j].name);
		}
	}
	if (e.oom) {
		free(e.p);
		return -ENOMEM;
	}
	*ret_buf = e.p;
	*ret_len = e.len;
	return 0;
}

int sampo_module_sections__write(const struct sampo_module_sections *ms, struct sampo_writer *w)
{
	void *buf;
	size_t len;
	int err = sampo_module_sections__encode(ms, false, &buf, &len);

	if (err)
		return err;
	err = sampo_writer__set_feature(w, SAMPO_FEAT_MODULE_SECTIONS, buf, len);
	free(buf);
	return err;
}

/* ---- decoding ------------------------------------------------------------------------------ */

struct dec {
	const uint8_t *p;
	size_t len, off;
	bool swap;
};

static int dec_u32(struct dec *d, uint32_t *v)
{
	if (d->len - d->off < 4)
		return -SAMPO_ERR_MALFORMED;
	*v = load_u32_sw(d->p + d->off, d->swap);
	d->off += 4;
	return 0;
}

static int dec_u64(struct dec *d, uint64_t *v)
{
	if (d->len - d->off < 8)
		return -SAMPO_ERR_MALFORMED;
	*v = load_u64_sw(d->p + d->off, d->swap);
	d->off += 8;
	return 0;
}

/* A perf string: its bytes must hold a NUL. Returns a malloc'ed copy. */
static int dec_str(struct dec *d, char **ret)
{
	uint32_t n;
	const char *s;
	size_t sl;

	if (dec_u32(d, &n))
		return -SAMPO_ERR_MALFORMED;
	if (n == 0 || n > d->len - d->off)
		return -SAMPO_ERR_MALFORMED;
	s = (const char *)d->p + d->off;
	sl = strnlen(s, n);
	if (sl == n)
		return -SAMPO_ERR_MALFORMED;
	*ret = strndup(s, sl);
	if (!*ret)
		return -ENOMEM;
	d->off += n;
	return 0;
}

int sampo_module_sections__parse(const void *buf, size_t len, bool swap,
				 struct sampo_module_sections **ret)
{
	struct dec d = { .p = buf, .len = len, .swap = swap };
	struct sampo_module_sections *ms;
	struct sampo_section_addr *secs = NULL;
	uint32_t version, nr_mods;
	char *name = NULL;
	size_t nr_secs = 0;
	int err;

	if (!buf && len)
		return -EINVAL;
	if (dec_u32(&d, &version) || dec_u32(&d, &nr_mods))
		return -SAMPO_ERR_MALFORMED;
	if (version != MODSECTIONS_VERSION)
		return -SAMPO_ERR_UNSUPPORTED;
	/* each module takes at least 24 + 4 + 8 bytes */
	if (nr_mods > (len - d.off) / 36)
		return -SAMPO_ERR_MALFORMED;
	ms = sampo_module_sections__new();
	if (!ms)
		return -ENOMEM;
	for (uint32_t i = 0; i < nr_mods; i++) {
		struct sampo_build_id bid = { 0 };
		uint32_t n, pad;

		err = -SAMPO_ERR_MALFORMED;
		if (len - d.off < 24 || d.p[d.off] > SAMPO_BUILD_ID_SIZE)
			goto out_fail;
		bid.size = d.p[d.off];
		memcpy(bid.data, d.p + d.off + 4, bid.size);
		d.off += 24;
		err = dec_str(&d, &name);
		if (err)
			goto out_fail;
		err = -SAMPO_ERR_MALFORMED;
		if (dec_u32(&d, &n) || dec_u32(&d, &pad) || n > MAX_SECTIONS ||
		    n > (len - d.off) / 12)
			goto out_fail;
		secs = calloc(n ? n : 1, sizeof(*secs));
		err = -ENOMEM;
		if (!secs)
			goto out_fail;
		for (nr_secs = 0; nr_secs < n; nr_secs++) {
			char *sname;

			err = -SAMPO_ERR_MALFORMED;
			if (dec_u64(&d, &secs[nr_secs].addr))
				goto out_fail;
			err = dec_str(&d, &sname);
			if (err)
				goto out_fail;
			secs[nr_secs].name = sname;
		}
		err = sampo_module_sections__add(ms, name, bid.size ? &bid : NULL, secs, nr_secs);
		if (err == -EINVAL)
			err = -SAMPO_ERR_MALFORMED; /* a name that is no module name ("a/b", "..") */
		if (err)
			goto out_fail;
		for (size_t j = 0; j < nr_secs; j++)
			free((char *)secs[j].name);
		free(secs);
		secs = NULL;
		nr_secs = 0;
		free(name);
		name = NULL;
	}
	*ret = ms;
	return 0;

out_fail:
	for (size_t j = 0; secs && j < nr_secs; j++)
		free((char *)secs[j].name);
	free(secs);
	free(name);
	sampo_module_sections__delete(ms);
	return err;
}

int sampo_module_sections__read(struct sampo_reader *reader, struct sampo_module_sections **ret)
{
	const void *data;
	size_t size;
	int err = sampo_reader__feature(reader, SAMPO_FEAT_MODULE_SECTIONS, &data, &size);

	if (err)
		return err;
	return sampo_module_sections__parse(data, size, sampo_reader__needs_swap(reader), ret);
}
