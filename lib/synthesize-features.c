// SPDX-License-Identifier: LGPL-2.1
/*
 * synthesize-features.c - the header features perf 6.1 writes about the host
 * (hostname, osrelease, arch, nrcpus, cpudesc, cpuid, total memory, CPU and
 * NUMA topology, PMU mappings, caches, memory topology, and the empty BPF and
 * PMU caps forms), read from /proc and /sys under the options' directories.
 *
 * Each feature's payload is built in host order, as perf's write_*()
 * functions lay it out, and goes either to a writer (`sampo record`,
 * sampo_synthesize__features()) or to a features object parsed as a reader
 * of the file would (`sampo header`'s view of this machine,
 * sampo_synthesize__host_features()), so both see the same bytes.
 *
 * As in synthesize.c, what /proc and /sys say is untrusted text: lines are
 * bounded, and a file that is missing or unreadable leaves its feature out
 * or its field zero.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sampo/feature.h>
#include <sampo/synthesize.h>
#include <sampo/writer.h>

#include "internal/opts.h"
#include "internal/synthesize.h"
#include "internal/util.h"

/* A growable payload in host order. */
struct pbuf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

static uint8_t *pb_grow(struct pbuf *b, size_t n)
{
	if (b->oom)
		return NULL;
	if (b->len + n > b->cap) {
		size_t cap = MAX(b->cap * 2, b->len + n + 256);
		uint8_t *p = realloc(b->p, cap);

		if (!p) {
			b->oom = true;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	b->len += n;
	return b->p + b->len - n;
}

static void pb_u32(struct pbuf *b, uint32_t v)
{
	uint8_t *p = pb_grow(b, 4);

	if (p)
		memcpy(p, &v, 4);
}

static void pb_u64(struct pbuf *b, uint64_t v)
{
	uint8_t *p = pb_grow(b, 8);

	if (p)
		memcpy(p, &v, 8);
}

static void pb_put_u32_at(struct pbuf *b, size_t off, uint32_t v)
{
	if (!b->oom)
		memcpy(b->p + off, &v, 4);
}

static void pb_string(struct pbuf *b, const char *s)
{
	size_t n = sampo_feature__encode_string(NULL, 0, s);
	uint8_t *p = pb_grow(b, n);

	if (p)
		(void)sampo_feature__encode_string(p, n, s);
}

/*
 * Where the host features go: a writer (record), or a features object that
 * gets them parsed as a reader of the file would (header's view of this
 * machine). Both see the same payloads.
 */
struct feat_sink {
	struct sampo_writer *w;
	struct sampo_features *f;
};

static int sink_raw(struct feat_sink *k, int feat, const void *p, size_t len)
{
	if (k->w)
		return sampo_writer__set_feature(k->w, feat, p, len);
	return sampo_features__parse_one(k->f, feat, p, len, false, NULL);
}

static int sink_u32s(struct feat_sink *k, int feat, const uint32_t *v, size_t n)
{
	if (k->w)
		return sampo_writer__set_feature_u32s(k->w, feat, v, n);
	return sink_raw(k, feat, v, n * sizeof(*v));
}

static int sink_u64s(struct feat_sink *k, int feat, const uint64_t *v, size_t n)
{
	if (k->w)
		return sampo_writer__set_feature_u64s(k->w, feat, v, n);
	return sink_raw(k, feat, v, n * sizeof(*v));
}

static int pb_set(struct feat_sink *k, int feat, struct pbuf *b)
{
	int err = b->oom ? -ENOMEM : sink_raw(k, feat, b->p, b->len);

	free(b->p);
	memset(b, 0, sizeof(*b));
	return err;
}

static int sink_string(struct feat_sink *k, int feat, const char *str)
{
	struct pbuf b = { 0 };

	if (k->w)
		return sampo_writer__set_feature_string(k->w, feat, str);
	pb_string(&b, str);
	return pb_set(k, feat, &b);
}

/* "key : value" from /proc/cpuinfo (first CPU) */
static bool cpuinfo_value(struct sampo_synth *s, const char *key, char *out, size_t size)
{
	char path[PATH_MAX], line[512];
	size_t klen = strlen(key);
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cpuinfo", s->proc);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *p;
		size_t n;

		if (strncmp(line, key, klen) ||
		    (line[klen] != ' ' && line[klen] != '\t' && line[klen] != ':'))
			continue;
		p = strchr(line, ':');
		if (!p)
			continue;
		p++;
		while (*p == ' ')
			p++;
		n = strcspn(p, "\n");
		while (n && p[n - 1] == ' ')
			n--;
		snprintf(out, size, "%.*s", (int)n, p);
		found = true;
		break;
	}
	fclose(f);
	return found;
}

static uint64_t meminfo_kb(const char *path, const char *key)
{
	char line[256];
	FILE *f = fopen(path, "re");
	uint64_t v = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, key);

		if (p && p[strlen(key)] == ':') {
			v = strtoull(p + strlen(key) + 1, NULL, 10);
			break;
		}
	}
	fclose(f);
	return v;
}

/* Highest present CPU + 1 (perf's nr_cpus_avail) */
static uint32_t present_cpus(struct sampo_synth *s)
{
	char path[PATH_MAX], buf[256];
	const char *p;
	uint32_t max = 0;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/present", s->sys);
	if (sampo_synthesize__read_line(path, buf, sizeof(buf)))
		return (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	for (p = buf; *p;) {
		char *end;
		unsigned long v = strtoul(p, &end, 10);

		if (end == p)
			break;
		if (v + 1 > max)
			max = (uint32_t)v + 1;
		p = end;
		while (*p == ',' || *p == '-')
			p++;
	}
	return max ? max : 1;
}

/* Append @str to a string list unless present; the list's strings are owned. */
static int strlist_add(char ***v, size_t *nr, const char *str)
{
	char **nv;

	for (size_t i = 0; i < *nr; i++) {
		if (!strcmp((*v)[i], str))
			return 0;
	}
	nv = realloc(*v, (*nr + 1) * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*nr] = strdup(str);
	if (!nv[*nr])
		return -ENOMEM;
	(*nr)++;
	return 0;
}

static void strlist_free(char **v, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

static void pb_strlist(struct pbuf *b, char **v, size_t nr)
{
	pb_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++)
		pb_string(b, v[i]);
}

/* perf's write_cpu_topology(): package and core sibling lists, ids, die lists and ids */
static int feat_cpu_topology(struct sampo_synth *s, struct feat_sink *k, uint32_t nr_cpus)
{
	char *kinds[3][2] = {
		{ "package_cpus_list", "core_siblings_list" },
		{ "core_cpus_list", "thread_siblings_list" },
		{ "die_cpus_list", NULL },
	};
	char **lists[3] = { NULL, NULL, NULL };
	size_t nr_lists[3] = { 0, 0, 0 };
	char path[PATH_MAX], buf[1024];
	struct pbuf b = { 0 };
	int err = 0;

	for (uint32_t cpu = 0; cpu < nr_cpus && !err; cpu++) {
		for (int ki = 0; ki < 3 && !err; ki++) {
			for (int alt = 0; alt < 2; alt++) {
				if (!kinds[ki][alt])
					continue;
				snprintf(path, sizeof(path),
					 "%s/devices/system/cpu/cpu%u/topology/%s", s->sys, cpu,
					 kinds[ki][alt]);
				if (sampo_synthesize__read_line(path, buf, sizeof(buf)))
					continue;
				err = strlist_add(&lists[ki], &nr_lists[ki], buf);
				break;
			}
		}
	}
	if (err || !nr_lists[0] || !nr_lists[1])
		goto out;
	pb_strlist(&b, lists[0], nr_lists[0]);
	pb_strlist(&b, lists[1], nr_lists[1]);
	for (uint32_t cpu = 0; cpu < nr_cpus; cpu++) {
		uint64_t core = 0, socket = 0;

		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/topology/core_id", s->sys,
			 cpu);
		(void)sampo_synthesize__read_u64(path, 10, &core);
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%u/topology/physical_package_id", s->sys, cpu);
		(void)sampo_synthesize__read_u64(path, 10, &socket);
		pb_u32(&b, (uint32_t)core);
		pb_u32(&b, (uint32_t)socket);
	}
	if (nr_lists[2]) {
		pb_strlist(&b, lists[2], nr_lists[2]);
		for (uint32_t cpu = 0; cpu < nr_cpus; cpu++) {
			uint64_t die = 0;

			snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/topology/die_id",
				 s->sys, cpu);
			(void)sampo_synthesize__read_u64(path, 10, &die);
			pb_u32(&b, (uint32_t)die);
		}
	}
	err = pb_set(k, SAMPO_FEAT_CPU_TOPOLOGY, &b);
out:
	free(b.p);
	for (int ki = 0; ki < 3; ki++)
		strlist_free(lists[ki], nr_lists[ki]);
	return err;
}

/* perf's write_numa_topology(): per online node, memory in kB and its CPU list */
static int feat_numa(struct sampo_synth *s, struct feat_sink *k)
{
	char path[PATH_MAX], buf[1024];
	int *nodes = NULL;
	size_t nr = 0;
	struct pbuf b = { 0 };
	DIR *d;
	struct dirent *de;
	int err;

	snprintf(path, sizeof(path), "%s/devices/system/node", s->sys);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		int *nv;

		if (strncmp(de->d_name, "node", 4) || !isdigit((unsigned char)de->d_name[4]))
			continue;
		nv = realloc(nodes, (nr + 1) * sizeof(*nodes));
		if (!nv) {
			closedir(d);
			free(nodes);
			return -ENOMEM;
		}
		nodes = nv;
		nodes[nr++] = atoi(de->d_name + 4);
	}
	closedir(d);
	if (!nr) {
		free(nodes);
		return 0;
	}
	qsort(nodes, nr, sizeof(*nodes), sampo_synthesize__cmp_int);
	pb_u32(&b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/meminfo", s->sys,
			 nodes[i]);
		pb_u32(&b, (uint32_t)nodes[i]);
		pb_u64(&b, meminfo_kb(path, "MemTotal"));
		pb_u64(&b, meminfo_kb(path, "MemFree"));
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist", s->sys,
			 nodes[i]);
		if (sampo_synthesize__read_line(path, buf, sizeof(buf)))
			buf[0] = '\0';
		pb_string(&b, buf);
	}
	free(nodes);
	err = pb_set(k, SAMPO_FEAT_NUMA_TOPOLOGY, &b);
	return err;
}

/* perf's write_pmu_mappings(): {type, name} of each PMU, in directory order */
static int feat_pmu_mappings(struct sampo_synth *s, struct feat_sink *k)
{
	char path[PATH_MAX];
	struct pbuf b = { 0 };
	struct dirent *de;
	uint32_t nr = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices", s->sys);
	d = opendir(path);
	if (!d)
		return 0;
	pb_u32(&b, 0);
	while ((de = readdir(d))) {
		uint64_t type;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s/type", s->sys,
			 de->d_name);
		if (sampo_synthesize__read_u64(path, 10, &type))
			continue;
		pb_u32(&b, (uint32_t)type);
		pb_string(&b, de->d_name);
		nr++;
	}
	closedir(d);
	pb_put_u32_at(&b, 0, nr);
	return pb_set(k, SAMPO_FEAT_PMU_MAPPINGS, &b);
}

struct cache_ent {
	uint32_t level, line_size, sets, ways;
	char type[32], size[32], map[256];
};

/* perf's write_cache(): every distinct cache of every CPU, version 1 */
static int feat_cache(struct sampo_synth *s, struct feat_sink *k, uint32_t nr_cpus)
{
	struct cache_ent *v = NULL;
	size_t nr = 0;
	struct pbuf b = { 0 };
	char path[PATH_MAX];

	for (uint32_t cpu = 0; cpu < nr_cpus; cpu++) {
		for (int idx = 0; idx < 16; idx++) {
			struct cache_ent c;
			uint64_t x;
			bool dup = false;
			char *base = path;
			size_t bl;

			memset(&c, 0, sizeof(c));
			snprintf(base, sizeof(path), "%s/devices/system/cpu/cpu%u/cache/index%d/",
				 s->sys, cpu, idx);
			bl = strlen(base);
#define CACHE_FILE(f) (snprintf(path + bl, sizeof(path) - bl, "%s", f), path)
			if (sampo_synthesize__read_u64(CACHE_FILE("level"), 10, &x))
				break;
			c.level = (uint32_t)x;
			if (!sampo_synthesize__read_u64(CACHE_FILE("coherency_line_size"), 10, &x))
				c.line_size = (uint32_t)x;
			if (!sampo_synthesize__read_u64(CACHE_FILE("number_of_sets"), 10, &x))
				c.sets = (uint32_t)x;
			if (!sampo_synthesize__read_u64(CACHE_FILE("ways_of_associativity"), 10,
							&x))
				c.ways = (uint32_t)x;
			(void)sampo_synthesize__read_line(CACHE_FILE("type"), c.type,
							  sizeof(c.type));
			(void)sampo_synthesize__read_line(CACHE_FILE("size"), c.size,
							  sizeof(c.size));
			(void)sampo_synthesize__read_line(CACHE_FILE("shared_cpu_list"), c.map,
							  sizeof(c.map));
#undef CACHE_FILE
			for (size_t i = 0; i < nr && !dup; i++) {
				dup = v[i].level == c.level && !strcmp(v[i].type, c.type) &&
				      !strcmp(v[i].map, c.map);
			}
			if (dup)
				continue;
			{
				struct cache_ent *nv = realloc(v, (nr + 1) * sizeof(*v));

				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
				v[nr++] = c;
			}
		}
	}
	if (!nr)
		return 0;
	/* by level, CPU order kept within a level, as perf lists them */
	for (size_t i = 1; i < nr; i++) {
		struct cache_ent c = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1].level > c.level; j--)
			v[j] = v[j - 1];
		v[j] = c;
	}
	pb_u32(&b, 1);
	pb_u32(&b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		pb_u32(&b, v[i].level);
		pb_u32(&b, v[i].line_size);
		pb_u32(&b, v[i].sets);
		pb_u32(&b, v[i].ways);
		pb_string(&b, v[i].type);
		pb_string(&b, v[i].size);
		pb_string(&b, v[i].map);
	}
	free(v);
	return pb_set(k, SAMPO_FEAT_CACHE, &b);
}

/* perf's write_mem_topology(): memory blocks per node, as bitmaps */
static int feat_mem_topology(struct sampo_synth *s, struct feat_sink *k)
{
	char path[PATH_MAX];
	uint64_t block_size, max_block = 0;
	struct pbuf b = { 0 };
	DIR *d;
	struct dirent *de;
	int *nodes = NULL;
	size_t nr_nodes = 0;

	snprintf(path, sizeof(path), "%s/devices/system/memory/block_size_bytes", s->sys);
	if (sampo_synthesize__read_u64(path, 16, &block_size))
		return 0;
	snprintf(path, sizeof(path), "%s/devices/system/memory", s->sys);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "memory", 6) && isdigit((unsigned char)de->d_name[6])) {
			uint64_t m = strtoull(de->d_name + 6, NULL, 10);

			if (m + 1 > max_block)
				max_block = m + 1;
		}
	}
	closedir(d);
	snprintf(path, sizeof(path), "%s/devices/system/node", s->sys);
	d = opendir(path);
	if (d) {
		while ((de = readdir(d))) {
			int *nv;

			if (strncmp(de->d_name, "node", 4) ||
			    !isdigit((unsigned char)de->d_name[4]))
				continue;
			nv = realloc(nodes, (nr_nodes + 1) * sizeof(*nodes));
			if (!nv) {
				closedir(d);
				free(nodes);
				return -ENOMEM;
			}
			nodes = nv;
			nodes[nr_nodes++] = atoi(de->d_name + 4);
		}
		closedir(d);
	}
	if (!nr_nodes || !max_block || max_block > (1u << 24)) {
		free(nodes);
		return 0;
	}
	qsort(nodes, nr_nodes, sizeof(*nodes), sampo_synthesize__cmp_int);
	pb_u64(&b, 1);
	pb_u64(&b, block_size);
	pb_u64(&b, nr_nodes);
	for (size_t i = 0; i < nr_nodes; i++) {
		size_t words = (size_t)(max_block + 63) / 64;
		uint64_t *bits = calloc(words, sizeof(uint64_t));

		if (!bits) {
			free(b.p);
			free(nodes);
			return -ENOMEM;
		}
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d", s->sys, nodes[i]);
		d = opendir(path);
		while (d && (de = readdir(d))) {
			if (!strncmp(de->d_name, "memory", 6) &&
			    isdigit((unsigned char)de->d_name[6])) {
				uint64_t m = strtoull(de->d_name + 6, NULL, 10);

				if (m < max_block)
					bits[m / 64] |= 1ULL << (m % 64);
			}
		}
		if (d)
			closedir(d);
		/* node, size, then the bitmap as perf's do_write_bitmap(): its size again, words */
		pb_u64(&b, (uint64_t)nodes[i]);
		pb_u64(&b, max_block);
		pb_u64(&b, max_block);
		for (size_t j = 0; j < words; j++)
			pb_u64(&b, bits[j]);
		free(bits);
	}
	free(nodes);
	return pb_set(k, SAMPO_FEAT_MEM_TOPOLOGY, &b);
}

static int synth_features(const struct sampo_synth_opts *opts, struct feat_sink *k)
{
	struct sampo_synth *s = malloc(sizeof(*s));
	char buf[256], vendor[64], family[16], model[16], stepping[16], path[PATH_MAX];
	struct utsname u;
	uint32_t nrcpus[2];
	uint64_t mem;
	const uint32_t zero = 0;
	int err;

	if (!s)
		return -ENOMEM;
	err = sampo_synthesize__init(s, opts, NULL, NULL);
	if (err)
		goto out;
	if (!uname(&u)) {
		err = sink_string(k, SAMPO_FEAT_HOSTNAME, u.nodename);
		if (!err)
			err = sink_string(
				k, SAMPO_FEAT_OSRELEASE,
				OPTS_GET(opts, osrelease, NULL) ? opts->osrelease : u.release);
		if (!err)
			err = sink_string(k, SAMPO_FEAT_ARCH, u.machine);
		if (err)
			goto out;
	}
	nrcpus[0] = present_cpus(s);
	nrcpus[1] = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	err = sink_u32s(k, SAMPO_FEAT_NRCPUS, nrcpus, 2);
	if (err)
		goto out;
	if (cpuinfo_value(s, "model name", buf, sizeof(buf)) ||
	    cpuinfo_value(s, "cpu model", buf, sizeof(buf))) {
		err = sink_string(k, SAMPO_FEAT_CPUDESC, buf);
		if (err)
			goto out;
	}
	if (cpuinfo_value(s, "vendor_id", vendor, sizeof(vendor)) &&
	    cpuinfo_value(s, "cpu family", family, sizeof(family)) &&
	    cpuinfo_value(s, "model", model, sizeof(model)) &&
	    cpuinfo_value(s, "stepping", stepping, sizeof(stepping))) {
		snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor, family, model, stepping);
		err = sink_string(k, SAMPO_FEAT_CPUID, buf);
		if (err)
			goto out;
	}
	snprintf(path, sizeof(path), "%s/meminfo", s->proc);
	mem = meminfo_kb(path, "MemTotal");
	if (mem) {
		err = sink_u64s(k, SAMPO_FEAT_TOTAL_MEM, &mem, 1);
		if (err)
			goto out;
	}
	err = feat_cpu_topology(s, k, nrcpus[0]);
	if (!err)
		err = feat_numa(s, k);
	if (!err)
		err = feat_pmu_mappings(s, k);
	if (!err)
		err = feat_cache(s, k, nrcpus[0]);
	if (!err)
		err = feat_mem_topology(s, k);
	/* no BPF programs or BTF are collected; perf 6.1 writes the empty forms */
	if (!err)
		err = sink_u32s(k, SAMPO_FEAT_BPF_PROG_INFO, &zero, 1);
	if (!err)
		err = sink_u32s(k, SAMPO_FEAT_BPF_BTF, &zero, 1);
	if (!err)
		err = sink_u32s(k, SAMPO_FEAT_PMU_CAPS, &zero, 1);
out:
	free(s);
	return err;
}

int sampo_synthesize__features(const struct sampo_synth_opts *opts, struct sampo_writer *w)
{
	struct feat_sink k = { .w = w };

	if (!w)
		return -EINVAL;
	return synth_features(opts, &k);
}

int sampo_synthesize__host_features(const struct sampo_synth_opts *opts,
				    struct sampo_features **ret_features)
{
	struct feat_sink k = { 0 };
	int err;

	if (!ret_features)
		return -EINVAL;
	k.f = sampo_features__new();
	if (!k.f)
		return -ENOMEM;
	err = synth_features(opts, &k);
	if (err) {
		sampo_features__delete(k.f);
		return err;
	}
	*ret_features = k.f;
	return 0;
}
