// SPDX-License-Identifier: LGPL-2.1
/*
 * synthesize.c - the machine's state at the start of a recording, from /proc
 * and /sys, as records: threads, maps, kernel, modules (the host's header
 * features are in synthesize-features.c); and the running kernel's maps
 * with their build-ids as a list (the same kallsyms reading, for
 * `buildid-list -m`).
 *
 * Records are built in a local, 8-byte aligned buffer in host order and
 * handed to the caller's callback; each ends with a zeroed sample_id trailer
 * of opts->sample_id_size bytes, as perf writes synthesized records.
 *
 * Per process, perf 6.1's order (synthetic-events.c, __event__synthesize_thread):
 *
 *	FORK (pid:pid):(ppid:ppid)   COMM comm:pid/pid   MMAP2 ... (address order)
 *	FORK (pid:tid):(pid:pid)     COMM comm:pid/tid   (each other thread)
 *
 * Everything read from /proc and /sys is treated as untrusted text: lines are
 * bounded, numbers checked, names cut to the record's limits.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sampo/machine.h>
#include <sampo/proc-modules.h>
#include <sampo/synthesize.h>

#include "internal/dso.h"
#include "internal/kmodule.h"
#include "internal/log.h"
#include "internal/map.h"
#include "internal/util.h"
#include "internal/opts.h"
#include "internal/synthesize.h"
#include "internal/thread.h"

#define KERNEL_PID ((uint32_t)-1)

int sampo_synthesize__init(struct sampo_synth *s, const struct sampo_synth_opts *opts,
			   sampo_synth_fn fn, void *ctx)
{
	memset(s, 0, offsetof(struct sampo_synth, buf));
	if (!OPTS_VALID(opts, sampo_synth_opts))
		return -EINVAL;
	s->proc = OPTS_GET(opts, proc_dir, NULL) ? opts->proc_dir : "/proc";
	s->sys = OPTS_GET(opts, sys_dir, NULL) ? opts->sys_dir : "/sys";
	s->modules = OPTS_GET(opts, modules_dir, NULL) ? opts->modules_dir : "/lib/modules";
	s->release = OPTS_GET(opts, osrelease, NULL);
	if (!s->release) {
		struct utsname u;

		if (!uname(&u))
			snprintf(s->release_buf, sizeof(s->release_buf), "%s", u.release);
		s->release = s->release_buf;
	}
	s->sid_size = OPTS_GET(opts, sample_id_size, 0);
	if (s->sid_size > 64 || s->sid_size % 8)
		return -EINVAL;
	s->mmap_data = OPTS_GET(opts, mmap_data, false);
	s->namespaces = OPTS_GET(opts, namespaces, false);
	s->fn = fn;
	s->ctx = ctx;
	return 0;
}

/* Finish the record in s->buf whose body is @len bytes: trailer, size, hand out. */
static int synth_emit(struct sampo_synth *s, size_t len)
{
	union sampo_record *rec = (union sampo_record *)s->buf;

	len = ALIGN_UP(len, (size_t)8);
	memset((uint8_t *)s->buf + len, 0, s->sid_size);
	len += s->sid_size;
	rec->header.size = (uint16_t)len;
	return s->fn ? s->fn(s->ctx, rec) : 0;
}

/* Copy a NUL-terminated string after @off, NUL padded to 8; return the new length. */
static size_t put_name(struct sampo_synth *s, size_t off, const char *name)
{
	size_t max = SAMPO_SYNTH_BUF_SIZE - off - 64 - 8; /* room for padding and the trailer */
	size_t n = strnlen(name, max);
	uint8_t *p = (uint8_t *)s->buf + off;

	memcpy(p, name, n);
	memset(p + n, 0, ALIGN_UP(n + 1, (size_t)8) - n);
	return off + ALIGN_UP(n + 1, (size_t)8);
}

static int emit_comm(struct sampo_synth *s, uint32_t pid, uint32_t tid, const char *comm)
{
	union sampo_record *rec = (union sampo_record *)s->buf;

	memset(rec, 0, sizeof(rec->comm));
	rec->header.type = SAMPO_RECORD_COMM;
	rec->comm.pid = pid;
	rec->comm.tid = tid;
	return synth_emit(s, put_name(s, sizeof(rec->comm), comm));
}

/* @misc: SAMPO_MISC_FORK_EXEC says the maps follow (a reader copies none from the parent) */
static int emit_fork(struct sampo_synth *s, uint16_t misc, uint32_t pid, uint32_t ppid,
		     uint32_t tid, uint32_t ptid)
{
	union sampo_record *rec = (union sampo_record *)s->buf;

	memset(rec, 0, sizeof(rec->fork));
	rec->header.type = SAMPO_RECORD_FORK;
	rec->header.misc = misc;
	rec->fork.pid = pid;
	rec->fork.ppid = ppid;
	rec->fork.tid = tid;
	rec->fork.ptid = ptid;
	return synth_emit(s, sizeof(rec->fork));
}

/*
 * perf's perf_event__synthesize_namespaces(): the namespaces of thread @tid
 * of process @pid, each as the device and inode of its link under
 * /proc/PID/task/TID/ns (0 and 0 where the kernel has none, or the thread
 * went away)
 */
static int emit_namespaces(struct sampo_synth *s, uint32_t pid, uint32_t tid)
{
	/* the kernel's NET_NS_INDEX .. CGROUP_NS_INDEX order */
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	union sampo_record *rec = (union sampo_record *)s->buf;
	size_t size = sizeof(rec->namespaces) +
		      sizeof(names) / sizeof(names[0]) * sizeof(struct sampo_ns_link_info);

	if (!s->namespaces)
		return 0;
	memset(rec, 0, size);
	rec->header.type = SAMPO_RECORD_NAMESPACES;
	rec->namespaces.pid = pid;
	rec->namespaces.tid = tid;
	rec->namespaces.nr_namespaces = sizeof(names) / sizeof(names[0]);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[PATH_MAX];
		struct stat st;

		snprintf(path, sizeof(path), "%s/%u/task/%u/ns/%s", s->proc, pid, tid, names[i]);
		if (stat(path, &st))
			continue;
		rec->namespaces.link_info[i].dev = (uint64_t)st.st_dev;
		rec->namespaces.link_info[i].ino = (uint64_t)st.st_ino;
	}
	return synth_emit(s, size);
}

static int emit_mmap(struct sampo_synth *s, uint16_t misc, uint32_t pid, uint64_t start,
		     uint64_t len, uint64_t pgoff, const char *name)
{
	union sampo_record *rec = (union sampo_record *)s->buf;

	memset(rec, 0, sizeof(rec->mmap));
	rec->header.type = SAMPO_RECORD_MMAP;
	rec->header.misc = misc;
	rec->mmap.pid = pid;
	rec->mmap.tid = pid == KERNEL_PID ? 0 : pid;
	rec->mmap.start = start;
	rec->mmap.len = len;
	rec->mmap.pgoff = pgoff;
	return synth_emit(s, put_name(s, sizeof(rec->mmap), name));
}

/* ---- small file helpers --------------------------------------------------- */

int sampo_synthesize__read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		buf[0] = '\0';
		return -ENODATA;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int sampo_synthesize__read_u64(const char *path, int base, uint64_t *ret)
{
	char buf[64], *end;
	int err = sampo_synthesize__read_line(path, buf, sizeof(buf));

	if (err)
		return err;
	errno = 0;
	*ret = strtoull(buf, &end, base);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

/* ---- processes -------------------------------------------------------- */

struct proc_status {
	char name[16];
	int tgid, ppid;
};

static int read_status(const char *path, struct proc_status *st)
{
	char line[256];
	FILE *f;

	memset(st, 0, sizeof(*st));
	st->tgid = -1;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Name:", 5)) {
			char *p = line + 5;
			size_t n;

			while (*p == ' ' || *p == '\t')
				p++;
			n = strcspn(p, "\n");
			if (n >= sizeof(st->name))
				n = sizeof(st->name) - 1;
			memcpy(st->name, p, n);
			st->name[n] = '\0';
		} else if (!strncmp(line, "Tgid:", 5)) {
			st->tgid = atoi(line + 5);
		} else if (!strncmp(line, "PPid:", 5)) {
			st->ppid = atoi(line + 5);
			break; /* Name, Umask, State, Tgid, Ngid, Pid, PPid: done */
		}
	}
	fclose(f);
	return st->tgid < 0 ? -ENOENT : 0;
}

/* "/proc/PID/task/TID/comm", falling back to the status Name. */
static void read_comm(struct sampo_synth *s, int pid, int tid, char *comm, size_t size,
		      const char *fallback)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", s->proc, pid, tid);
	if (sampo_synthesize__read_line(path, comm, size) || !comm[0])
		snprintf(comm, size, "%s", fallback);
}

static uint32_t parse_prot(const char *perms, uint32_t *flags)
{
	uint32_t prot = 0;

	if (perms[0] == 'r')
		prot |= PROT_READ;
	if (perms[1] == 'w')
		prot |= PROT_WRITE;
	if (perms[2] == 'x')
		prot |= PROT_EXEC;
	*flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
	return prot;
}

static int synth_maps(struct sampo_synth *s, int pid)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%d/maps", s->proc, pid);
	f = fopen(path, "re");
	if (!f)
		return 0; /* a kernel thread or a process that just left: no maps */
	while (getline(&line, &cap, f) > 0) {
		union sampo_record *rec = (union sampo_record *)s->buf;
		unsigned long long start, end, pgoff, ino;
		unsigned int maj, min;
		char perms[5];
		int name_off = 0;
		char *name;
		uint32_t prot, flags;
		uint16_t misc = SAMPO_CPUMODE_USER;
		size_t n;

		if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, perms, &pgoff,
			   &maj, &min, &ino, &name_off) < 7 ||
		    strlen(perms) < 4 || end < start)
			continue;
		prot = parse_prot(perms, &flags);
		if (!(prot & PROT_EXEC)) {
			if (!s->mmap_data)
				continue;
			misc |= SAMPO_MISC_MMAP_DATA;
		}
		name = line + name_off;
		n = strcspn(name, "\n");
		name[n] = '\0';

		memset(rec, 0, sizeof(rec->mmap2));
		rec->header.type = SAMPO_RECORD_MMAP2;
		rec->header.misc = misc;
		rec->mmap2.pid = (uint32_t)pid;
		rec->mmap2.tid = (uint32_t)pid;
		rec->mmap2.start = start;
		rec->mmap2.len = end - start;
		rec->mmap2.pgoff = pgoff;
		rec->mmap2.maj = maj;
		rec->mmap2.min = min;
		rec->mmap2.ino = ino;
		rec->mmap2.prot = prot;
		rec->mmap2.flags = flags;
		err = synth_emit(s, put_name(s, sizeof(rec->mmap2), *name ? name : "//anon"));
		if (err)
			break;
	}
	free(line);
	fclose(f);
	return err;
}

int sampo_synthesize__cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The numeric entries of a directory, sorted; *ret_nr of them. */
static int list_pids(const char *path, int **ret, size_t *ret_nr)
{
	DIR *d = opendir(path);
	struct dirent *de;
	int *v = NULL;
	size_t nr = 0, cap = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char *end;
		long x = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name || x <= 0 || x > INT_MAX)
			continue;
		if (nr == cap) {
			int *nv;

			cap = cap ? cap * 2 : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
		}
		v[nr++] = (int)x;
	}
	closedir(d);
	if (nr)
		qsort(v, nr, sizeof(*v), sampo_synthesize__cmp_int);
	*ret = v;
	*ret_nr = nr;
	return 0;
}

static int synth_process(struct sampo_synth *s, int pid)
{
	char path[PATH_MAX], comm[64];
	struct proc_status st;
	int *tids = NULL;
	size_t nr_tids = 0;
	int err;

	snprintf(path, sizeof(path), "%s/%d/status", s->proc, pid);
	err = read_status(path, &st);
	if (err)
		return err;
	if (st.tgid != pid)
		pid = st.tgid; /* a thread id: describe its whole process */

	read_comm(s, pid, pid, comm, sizeof(comm), st.name);
	err = emit_fork(s, 0, (uint32_t)pid, (uint32_t)st.ppid, (uint32_t)pid, (uint32_t)st.ppid);
	if (!err)
		err = emit_namespaces(s, (uint32_t)pid, (uint32_t)pid);
	if (!err)
		err = emit_comm(s, (uint32_t)pid, (uint32_t)pid, comm);
	if (!err)
		err = synth_maps(s, pid);
	if (err)
		return err;

	snprintf(path, sizeof(path), "%s/%d/task", s->proc, pid);
	if (list_pids(path, &tids, &nr_tids))
		return 0; /* gone meanwhile */
	for (size_t i = 0; i < nr_tids && !err; i++) {
		if (tids[i] == pid)
			continue;
		read_comm(s, pid, tids[i], comm, sizeof(comm), st.name);
		err = emit_fork(s, 0, (uint32_t)pid, (uint32_t)pid, (uint32_t)tids[i],
				(uint32_t)pid);
		if (!err)
			err = emit_namespaces(s, (uint32_t)pid, (uint32_t)tids[i]);
		if (!err)
			err = emit_comm(s, (uint32_t)pid, (uint32_t)tids[i], comm);
	}
	free(tids);
	return err;
}

int sampo_synthesize__process(const struct sampo_synth_opts *opts, int pid, sampo_synth_fn fn,
			      void *ctx)
{
	struct sampo_synth *s = malloc(sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	err = sampo_synthesize__init(s, opts, fn, ctx);
	if (!err)
		err = synth_process(s, pid);
	free(s);
	return err;
}

int sampo_synthesize__namespaces(const struct sampo_synth_opts *opts, int pid, int tid,
				 sampo_synth_fn fn, void *ctx)
{
	struct sampo_synth *s = malloc(sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	err = sampo_synthesize__init(s, opts, fn, ctx);
	if (!err) {
		s->namespaces = true;
		err = emit_namespaces(s, (uint32_t)pid, (uint32_t)tid);
	}
	free(s);
	return err;
}

int sampo_synthesize__all_processes(const struct sampo_synth_opts *opts, sampo_synth_fn fn,
				    void *ctx)
{
	struct sampo_synth *s = malloc(sizeof(*s));
	int *pids = NULL;
	size_t nr = 0;
	int err;

	if (!s)
		return -ENOMEM;
	err = sampo_synthesize__init(s, opts, fn, ctx);
	if (!err)
		err = list_pids(s->proc, &pids, &nr);
	for (size_t i = 0; i < nr && !err; i++) {
		err = synth_process(s, pids[i]);
		if (err == -ENOENT || err == -ESRCH)
			err = 0; /* exited meanwhile */
	}
	free(pids);
	free(s);
	return err;
}

/* ---- kernel and modules --------------------------------------------------- */

/* ---- a machine's threads ------------------------------------------------ */

/* by process, its first thread (the leader when it is there) first, then by tid */
static int cmp_thread_order(const void *a, const void *b)
{
	const struct sampo_thread *x = *(const struct sampo_thread *const *)a;
	const struct sampo_thread *y = *(const struct sampo_thread *const *)b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if ((x->tid == x->pid) != (y->tid == y->pid))
		return x->tid == x->pid ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int emit_map(struct sampo_synth *s, uint32_t pid, const struct sampo_map *map)
{
	union sampo_record *rec = (union sampo_record *)s->buf;
	const struct sampo_dso *dso = map->dso;
	const char *name = dso->long_name;
	uint16_t misc = SAMPO_CPUMODE_USER;

	memset(rec, 0, sizeof(rec->mmap2));
	if (!(map->prot & PROT_EXEC))
		misc |= SAMPO_MISC_MMAP_DATA;
	/* anonymous memory: the reader names it after the pid again */
	if (map->identity && !strncmp(name, "/tmp/perf-", 10))
		name = "//anon";
	if (dso->build_id_size) {
		misc |= SAMPO_MISC_MMAP_BUILD_ID;
		rec->mmap2.build_id_size = dso->build_id_size;
		memcpy(rec->mmap2.build_id, dso->build_id, dso->build_id_size);
	} else {
		rec->mmap2.maj = dso->id.maj;
		rec->mmap2.min = dso->id.min;
		rec->mmap2.ino = dso->id.ino;
		rec->mmap2.ino_generation = dso->id.ino_generation;
	}
	rec->header.type = SAMPO_RECORD_MMAP2;
	rec->header.misc = misc;
	rec->mmap2.pid = pid;
	rec->mmap2.tid = pid;
	rec->mmap2.start = map->start;
	rec->mmap2.len = map->end - map->start;
	rec->mmap2.pgoff = map->pgoff;
	rec->mmap2.prot = map->prot;
	rec->mmap2.flags = map->flags;
	return synth_emit(s, put_name(s, sizeof(rec->mmap2), name));
}

static int synth_machine_threads(struct sampo_synth *s, const struct sampo_machine *machine)
{
	size_t cap = sampo_machine__nr_threads(machine), nr = 0;
	struct sampo_thread **threads = malloc((cap ? cap : 1) * sizeof(*threads));
	struct sampo_thread *t;
	int err = 0;

	if (!threads)
		return -ENOMEM;
	sampo_machine__for_each_thread(machine, t) {
		/* the idle task, and threads the records named without a process */
		if (nr < cap && !t->exited && t->pid > 0 && t->tid > 0)
			threads[nr++] = t;
	}
	qsort(threads, nr, sizeof(*threads), cmp_thread_order);
	for (size_t i = 0; i < nr && !err; i++) {
		const struct sampo_thread *th = threads[i];
		uint32_t pid = (uint32_t)th->pid, tid = (uint32_t)th->tid;
		bool first = !i || threads[i - 1]->pid != th->pid;

		/* FORK_EXEC, as perf's synthesized FORKs: the maps follow */
		if (first && th->ppid >= 0)
			err = emit_fork(s, SAMPO_MISC_FORK_EXEC, pid, (uint32_t)th->ppid, tid,
					(uint32_t)th->ppid);
		else if (!first)
			err = emit_fork(s, SAMPO_MISC_FORK_EXEC, pid, pid, tid, pid);
		if (!err)
			err = emit_comm(s, pid, tid, th->comm);
		for (size_t m = 0; first && th->maps && !err && m < sampo_maps__nr(th->maps); m++)
			err = emit_map(s, pid, sampo_maps__at(th->maps, m));
	}
	free(threads);
	return err;
}

int sampo_synthesize__machine_threads(const struct sampo_synth_opts *opts,
				      const struct sampo_machine *machine, sampo_synth_fn fn,
				      void *ctx)
{
	struct sampo_synth *s = malloc(sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	err = sampo_synthesize__init(s, opts, fn, ctx);
	if (!err)
		err = synth_machine_threads(s, machine);
	free(s);
	return err;
}

/* What PROC/kallsyms says of the kernel's text: _text, _stext and _etext */
struct kallsyms_refs {
	uint64_t text, stext, etext;
	bool have_text, have_stext, have_etext;
	bool any_nonzero; /* some address is not 0: kallsyms does not hide them */
};

static int read_kallsyms(const char *proc, struct kallsyms_refs *k)
{
	char path[PATH_MAX], line[512];
	FILE *f;

	memset(k, 0, sizeof(*k));
	snprintf(path, sizeof(path), "%s/kallsyms", proc);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* ~120k lines, _etext near the end: big reads, no sscanf per line */
	(void)setvbuf(f, NULL, _IOFBF, 1 << 20);
	while (fgets(line, sizeof(line), f) && !(k->have_text && k->have_etext)) {
		const char *sp = strchr(line, ' ');
		const char *name = sp && sp[1] && sp[2] == ' ' ? sp + 3 : NULL;
		uint64_t *addr;
		bool *have;

		if (!name)
			continue;
		if (!k->any_nonzero && strspn(line, "0") != (size_t)(sp - line))
			k->any_nonzero = true;
		if (!k->have_text && !strcmp(name, "_text\n")) {
			addr = &k->text;
			have = &k->have_text;
		} else if (!k->have_stext && !strcmp(name, "_stext\n")) {
			addr = &k->stext;
			have = &k->have_stext;
		} else if (!k->have_etext && !strcmp(name, "_etext\n")) {
			addr = &k->etext;
			have = &k->have_etext;
		} else {
			continue;
		}
		*addr = strtoull(line, NULL, 16);
		*have = true;
	}
	fclose(f);
	return 0;
}

int sampo_synthesize__kernel_mmap(const struct sampo_synth_opts *opts, sampo_synth_fn fn, void *ctx,
				  struct sampo_synth_kernel *ret)
{
	struct sampo_synth *s = malloc(sizeof(*s));
	struct sampo_synth_kernel k = { .kptr_restrict = -1 };
	struct kallsyms_refs refs;
	char path[PATH_MAX];
	uint64_t v, len;
	int err;

	if (!s)
		return -ENOMEM;
	err = sampo_synthesize__init(s, opts, fn, ctx);
	if (err)
		goto out;
	snprintf(path, sizeof(path), "%s/sys/kernel/kptr_restrict", s->proc);
	if (!sampo_synthesize__read_u64(path, 10, &v))
		k.kptr_restrict = (int)v;
	err = read_kallsyms(s->proc, &refs);
	if (!err && !refs.have_text)
		err = -ENOENT;
	if (err)
		goto out;
	k.hidden = !refs.text || !refs.any_nonzero;
	if (!k.hidden) {
		k.text = refs.text;
		k.etext = refs.etext;
	}
	if (k.hidden)
		len = UINT64_MAX; /* pgoff 0: no relocation possible, see perf-data-format.md */
	else if (k.etext > k.text)
		len = k.etext - k.text;
	else
		len = UINT64_MAX - k.text;
	err = emit_mmap(s, SAMPO_CPUMODE_KERNEL, KERNEL_PID, k.text, len, k.text,
			"[kernel.kallsyms]_text");
	if (ret)
		*ret = k;
out:
	free(s);
	return err;
}

/* sampo_module__name() into @out: "foo-bar.ko.xz", "[foo_bar]" or "foo-bar" -> "foo_bar" */
static void module_name(const char *in, char *out, size_t size)
{
	char *name = sampo_module__name(in);

	snprintf(out, size, "%s", name ? name : ""); /* out of memory: matches no module */
	free(name);
}

/* The module files under /lib/modules/R, walked once when modules.dep does not name a module */
struct mod_files {
	bool walked;
	size_t nr;
	struct sampo_module_file *files;
};

/* Full path of module @name from modules.dep, else from the tree, or "" */
static void module_path(struct sampo_synth *s, FILE *dep, struct mod_files *mf, const char *name,
			char *out, size_t size)
{
	char line[1024], mod[256];

	out[0] = '\0';
	if (!dep)
		goto walk;
	rewind(dep);
	while (fgets(line, sizeof(line), dep)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		module_name(line, mod, sizeof(mod));
		if (strcmp(mod, name))
			continue;
		if (line[0] == '/')
			snprintf(out, size, "%s", line);
		else
			snprintf(out, size, "%s/%s/%s", s->modules, s->release, line);
		return;
	}
walk:
	/* perf's way (maps__set_modules_path_dir()); on -ENOMEM, what was found is kept */
	if (!mf->walked) {
		char dir[PATH_MAX];

		mf->walked = true;
		if ((size_t)snprintf(dir, sizeof(dir), "%s/%s", s->modules, s->release) <
		    sizeof(dir))
			(void)sampo_module_files__walk(dir, &mf->files, &mf->nr);
	}
	for (size_t i = 0; i < mf->nr; i++) {
		if (!strcmp(mf->files[i].name, name)) {
			snprintf(out, size, "%s", mf->files[i].path);
			return;
		}
	}
}

int sampo_synthesize__modules(const struct sampo_synth_opts *opts, sampo_synth_fn fn, void *ctx)
{
	struct sampo_synth *s = malloc(sizeof(*s));
	struct sampo_proc_module *mods = NULL;
	char path[PATH_MAX];
	struct mod_files mf = { 0 };
	FILE *dep = NULL;
	size_t nr_mods = 0;
	int err, nr = 0;

	if (!s)
		return -ENOMEM;
	err = sampo_synthesize__init(s, opts, fn, ctx);
	if (err)
		goto out;
	err = sampo_proc_modules__read(s->proc, &mods, &nr_mods);
	if (err) {
		if (err == -ENOENT)
			err = 0;
		goto out;
	}
	snprintf(path, sizeof(path), "%s/%s/modules.dep", s->modules, s->release);
	dep = fopen(path, "re");
	for (size_t i = 0; i < nr_mods; i++) {
		char mod[256], file[PATH_MAX];

		if (!mods[i].addr)
			continue; /* hidden (kptr_restrict) or malformed */
		module_name(mods[i].name, mod, sizeof(mod));
		module_path(s, dep, &mf, mod, file, sizeof(file));
		if (!file[0])
			snprintf(file, sizeof(file), "[%s]", mod);
		err = emit_mmap(s, SAMPO_CPUMODE_KERNEL, KERNEL_PID, mods[i].addr,
				mods[i].size_bytes, 0, file);
		if (err)
			goto out;
		nr++;
	}
	err = nr;
out:
	if (dep)
		fclose(dep);
	free(mods);
	sampo_module_files__free(mf.files, mf.nr);
	free(s);
	return err;
}

int sampo_synthesize__module_build_id(const struct sampo_synth_opts *opts, const char *name,
				      struct sampo_build_id *ret)
{
	const char *sys = OPTS_GET(opts, sys_dir, NULL) ? opts->sys_dir : "/sys";
	char mod[256], path[PATH_MAX];

	if (!OPTS_VALID(opts, sampo_synth_opts))
		return -EINVAL;
	module_name(name, mod, sizeof(mod));
	if (!mod[0])
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/module/%s/notes/.note.gnu.build-id", sys, mod);
	return sampo_build_id__from_notes_file(path, ret);
}

/* ---- the running kernel's maps ---------------------------------------------- */

/*
 * A module's long name, as perf's maps__set_modules_path_dir() leaves it: the
 * last file of that name found in directory order (it sets the path of every
 * one it finds), else "[name]"
 */
static char *kernel_map_module_name(const struct sampo_module_file *files, size_t nr,
				    const char *name)
{
	char *out = NULL;

	for (size_t i = nr; i-- > 0;) {
		if (!strcmp(files[i].name, name))
			return strdup(files[i].path);
	}
	if (asprintf(&out, "[%s]", name) < 0)
		out = NULL;
	return out;
}

static int cmp_kernel_map(const void *a, const void *b)
{
	const struct sampo_kernel_map *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

void sampo_kernel_maps__free(struct sampo_kernel_map *maps, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(maps[i].name);
	free(maps);
}

int sampo_synthesize__kernel_maps(const struct sampo_synth_opts *opts,
				  struct sampo_kernel_map **ret_maps, size_t *ret_nr)
{
	struct sampo_synth *s;
	struct kallsyms_refs refs;
	struct sampo_kernel_map *maps = NULL;
	struct sampo_module_file *files = NULL;
	struct sampo_proc_module *mods = NULL;
	size_t nr = 0, nr_files = 0, nr_mods = 0;
	char path[PATH_MAX];
	int err;

	if (!ret_maps || !ret_nr)
		return -EINVAL;
	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	err = sampo_synthesize__init(s, opts, NULL, NULL);
	if (err)
		goto out;
	err = read_kallsyms(s->proc, &refs);
	if (err)
		goto out;
	maps = calloc(1, sizeof(*maps));
	if (!maps) {
		err = -ENOMEM;
		goto out;
	}
	/* perf's machine__get_running_kernel_start(): _text, else _stext; hidden (0): none */
	maps[0].start = refs.text ? refs.text : refs.stext;
	maps[0].end = refs.etext ? refs.etext : UINT64_MAX;
	if (!maps[0].start) {
		err = -ENOENT;
		goto out;
	}
	maps[0].name = strdup("[kernel.kallsyms]");
	if (!maps[0].name) {
		err = -ENOMEM;
		goto out;
	}
	nr = 1;
	snprintf(path, sizeof(path), "%s/kernel/notes", s->sys);
	(void)sampo_build_id__from_notes_file(path, &maps[0].bid);

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", s->modules, s->release) < sizeof(path))
		(void)sampo_module_files__walk(path, &files, &nr_files); /* short of memory: what it found */
	/* none (no loadable modules, unreadable): the kernel alone */
	(void)sampo_proc_modules__read(s->proc, &mods, &nr_mods);
	for (size_t i = 0; i < nr_mods; i++) {
		const struct sampo_proc_module *m = &mods[i];
		struct sampo_kernel_map *l = realloc(maps, (nr + 1) * sizeof(*maps));

		if (!l) {
			err = -ENOMEM;
			goto out;
		}
		maps = l;
		l = &maps[nr++];
		memset(l, 0, sizeof(*l));
		l->start = m->addr;
		l->end = m->addr + m->size_bytes;
		l->name = kernel_map_module_name(files, nr_files, m->name);
		if (!l->name) {
			err = -ENOMEM;
			goto out;
		}
		snprintf(path, sizeof(path), "%s/module/%s/notes/.note.gnu.build-id", s->sys,
			 m->name);
		(void)sampo_build_id__from_notes_file(path, &l->bid);
	}
	qsort(maps, nr, sizeof(*maps), cmp_kernel_map);
	*ret_maps = maps;
	*ret_nr = nr;
	maps = NULL;
	nr = 0;
out:
	sampo_kernel_maps__free(maps, nr);
	free(mods);
	sampo_module_files__free(files, nr_files);
	free(s);
	return err;
}

/* ---- vDSO ---------------------------------------------------------------- */

int sampo_synthesize__vdso_build_id(struct sampo_build_id *ret, void **ret_image, size_t *ret_size)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	unsigned long long start = 0, end = 0;
	char line[512];
	FILE *f;
	int err;

	if (!base)
		return -ENOENT;
	f = fopen("/proc/self/maps", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &start, &end) == 2)
			break;
		start = end = 0;
	}
	fclose(f);
	if (start != base || end <= start)
		return -ENOENT;
	err = sampo_build_id__from_elf_mem((const void *)base, end - start, ret);
	if (err)
		return err;
	if (ret_image) {
		*ret_image = malloc(end - start);
		if (!*ret_image)
			return -ENOMEM;
		memcpy(*ret_image, (const void *)base, end - start);
		*ret_size = end - start;
	}
	return 0;
}
