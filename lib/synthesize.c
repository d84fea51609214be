// SPDX-License-Identifier: LGPL-2.1
/*
 * synthesize.c - the machine's state at the start of a recording, from /proc
 * and /sys: records (threads, maps, kernel, modules) and header features.
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
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <sampo/feature.h>
#include <sampo/proc-modules.h>
#include <sampo/synthesize.h>
#include <sampo/writer.h>

#include "internal/kmodule.h"
#include "internal/log.h"
#include "internal/util.h"
#include "internal/opts.h"

#define REC_BUF_SIZE 8192 /* a map record: 72 bytes + PATH_MAX name + trailer */
#define KERNEL_PID   ((uint32_t)-1)

struct synth {
	const char *proc;
	const char *sys;
	const char *modules;
	const char *release;
	char release_buf[65];
	size_t sid_size;
	bool mmap_data;
	sampo_synth_fn fn;
	void *ctx;
	uint64_t buf[REC_BUF_SIZE / 8];
};

static int synth_init(struct synth *s, const struct sampo_synth_opts *opts, sampo_synth_fn fn,
		      void *ctx)
{
	memset(s, 0, offsetof(struct synth, buf));
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
	s->fn = fn;
	s->ctx = ctx;
	return 0;
}

/* Finish the record in s->buf whose body is @len bytes: trailer, size, hand out. */
static int synth_emit(struct synth *s, size_t len)
{
	union sampo_record *rec = (union sampo_record *)s->buf;

	len = ALIGN_UP(len, (size_t)8);
	memset((uint8_t *)s->buf + len, 0, s->sid_size);
	len += s->sid_size;
	rec->header.size = (uint16_t)len;
	return s->fn ? s->fn(s->ctx, rec) : 0;
}

/* Copy a NUL-terminated string after @off, NUL padded to 8; return the new length. */
static size_t put_name(struct synth *s, size_t off, const char *name)
{
	size_t max = REC_BUF_SIZE - off - 64 - 8; /* room for padding and the trailer */
	size_t n = strnlen(name, max);
	uint8_t *p = (uint8_t *)s->buf + off;

	memcpy(p, name, n);
	memset(p + n, 0, ALIGN_UP(n + 1, (size_t)8) - n);
	return off + ALIGN_UP(n + 1, (size_t)8);
}

static int emit_comm(struct synth *s, uint32_t pid, uint32_t tid, const char *comm)
{
	union sampo_record *rec = (union sampo_record *)s->buf;

	memset(rec, 0, sizeof(rec->comm));
	rec->header.type = SAMPO_RECORD_COMM;
	rec->comm.pid = pid;
	rec->comm.tid = tid;
	return synth_emit(s, put_name(s, sizeof(rec->comm), comm));
}

static int emit_fork(struct synth *s, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	union sampo_record *rec = (union sampo_record *)s->buf;

	memset(rec, 0, sizeof(rec->fork));
	rec->header.type = SAMPO_RECORD_FORK;
	rec->fork.pid = pid;
	rec->fork.ppid = ppid;
	rec->fork.tid = tid;
	rec->fork.ptid = ptid;
	return synth_emit(s, sizeof(rec->fork));
}

static int emit_mmap(struct synth *s, uint16_t misc, uint32_t pid, uint64_t start, uint64_t len,
		     uint64_t pgoff, const char *name)
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

/* Read a small file into @buf (NUL terminated, trailing newline dropped). */
static int read_line_file(const char *path, char *buf, size_t size)
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

static int read_u64_file(const char *path, int base, uint64_t *ret)
{
	char buf[64], *end;
	int err = read_line_file(path, buf, sizeof(buf));

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
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	memset(st, 0, sizeof(*st));
	st->tgid = -1;
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
static void read_comm(struct synth *s, int pid, int tid, char *comm, size_t size,
		      const char *fallback)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%d/task/%d/comm", s->proc, pid, tid);
	if (read_line_file(path, comm, size) || !comm[0])
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

static int synth_maps(struct synth *s, int pid)
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

static int cmp_int(const void *a, const void *b)
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
		qsort(v, nr, sizeof(*v), cmp_int);
	*ret = v;
	*ret_nr = nr;
	return 0;
}

static int synth_process(struct synth *s, int pid)
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
	err = emit_fork(s, (uint32_t)pid, (uint32_t)st.ppid, (uint32_t)pid, (uint32_t)st.ppid);
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
		err = emit_fork(s, (uint32_t)pid, (uint32_t)pid, (uint32_t)tids[i], (uint32_t)pid);
		if (!err)
			err = emit_comm(s, (uint32_t)pid, (uint32_t)tids[i], comm);
	}
	free(tids);
	return err;
}

int sampo_synthesize__process(const struct sampo_synth_opts *opts, int pid, sampo_synth_fn fn,
			      void *ctx)
{
	struct synth *s = malloc(sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	err = synth_init(s, opts, fn, ctx);
	if (!err)
		err = synth_process(s, pid);
	free(s);
	return err;
}

int sampo_synthesize__all_processes(const struct sampo_synth_opts *opts, sampo_synth_fn fn,
				    void *ctx)
{
	struct synth *s = malloc(sizeof(*s));
	int *pids = NULL;
	size_t nr = 0;
	int err;

	if (!s)
		return -ENOMEM;
	err = synth_init(s, opts, fn, ctx);
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

static int read_kallsyms(struct synth *s, struct sampo_synth_kernel *k)
{
	char path[PATH_MAX], line[512];
	bool have_text = false, have_etext = false, any_nonzero = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/kallsyms", s->proc);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* ~120k lines, _etext near the end: big reads, no sscanf per line */
	(void)setvbuf(f, NULL, _IOFBF, 1 << 20);
	while (fgets(line, sizeof(line), f) && !(have_text && have_etext)) {
		const char *sp = strchr(line, ' ');
		const char *name = sp && sp[1] && sp[2] == ' ' ? sp + 3 : NULL;
		bool is_text, is_etext;
		unsigned long long addr;

		if (!name)
			continue;
		if (!any_nonzero && strspn(line, "0") != (size_t)(sp - line))
			any_nonzero = true;
		is_text = !have_text && !strcmp(name, "_text\n");
		is_etext = !have_etext && !strcmp(name, "_etext\n");
		if (!is_text && !is_etext)
			continue;
		addr = strtoull(line, NULL, 16);
		if (is_text) {
			k->text = addr;
			have_text = true;
		} else {
			k->etext = addr;
			have_etext = true;
		}
	}
	fclose(f);
	if (!have_text)
		return -ENOENT;
	k->hidden = !k->text || !any_nonzero;
	if (k->hidden) {
		k->text = 0;
		k->etext = 0;
	}
	return 0;
}

int sampo_synthesize__kernel_mmap(const struct sampo_synth_opts *opts, sampo_synth_fn fn, void *ctx,
				  struct sampo_synth_kernel *ret)
{
	struct synth *s = malloc(sizeof(*s));
	struct sampo_synth_kernel k = { .kptr_restrict = -1 };
	char path[PATH_MAX];
	uint64_t v, len;
	int err;

	if (!s)
		return -ENOMEM;
	err = synth_init(s, opts, fn, ctx);
	if (err)
		goto out;
	snprintf(path, sizeof(path), "%s/sys/kernel/kptr_restrict", s->proc);
	if (!read_u64_file(path, 10, &v))
		k.kptr_restrict = (int)v;
	err = read_kallsyms(s, &k);
	if (err)
		goto out;
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
static void module_path(struct synth *s, FILE *dep, struct mod_files *mf, const char *name,
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
	struct synth *s = malloc(sizeof(*s));
	struct sampo_proc_module *mods = NULL;
	char path[PATH_MAX];
	struct mod_files mf = { 0 };
	FILE *dep = NULL;
	size_t nr_mods = 0;
	int err, nr = 0;

	if (!s)
		return -ENOMEM;
	err = synth_init(s, opts, fn, ctx);
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

/* ---- features ----------------------------------------------------------- */

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
static bool cpuinfo_value(struct synth *s, const char *key, char *out, size_t size)
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
static uint32_t present_cpus(struct synth *s)
{
	char path[PATH_MAX], buf[256];
	const char *p;
	uint32_t max = 0;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/present", s->sys);
	if (read_line_file(path, buf, sizeof(buf)))
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
static int feat_cpu_topology(struct synth *s, struct feat_sink *k, uint32_t nr_cpus)
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
				if (read_line_file(path, buf, sizeof(buf)))
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
		(void)read_u64_file(path, 10, &core);
		snprintf(path, sizeof(path),
			 "%s/devices/system/cpu/cpu%u/topology/physical_package_id", s->sys, cpu);
		(void)read_u64_file(path, 10, &socket);
		pb_u32(&b, (uint32_t)core);
		pb_u32(&b, (uint32_t)socket);
	}
	if (nr_lists[2]) {
		pb_strlist(&b, lists[2], nr_lists[2]);
		for (uint32_t cpu = 0; cpu < nr_cpus; cpu++) {
			uint64_t die = 0;

			snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%u/topology/die_id",
				 s->sys, cpu);
			(void)read_u64_file(path, 10, &die);
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
static int feat_numa(struct synth *s, struct feat_sink *k)
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
	qsort(nodes, nr, sizeof(*nodes), cmp_int);
	pb_u32(&b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/meminfo", s->sys,
			 nodes[i]);
		pb_u32(&b, (uint32_t)nodes[i]);
		pb_u64(&b, meminfo_kb(path, "MemTotal"));
		pb_u64(&b, meminfo_kb(path, "MemFree"));
		snprintf(path, sizeof(path), "%s/devices/system/node/node%d/cpulist", s->sys,
			 nodes[i]);
		if (read_line_file(path, buf, sizeof(buf)))
			buf[0] = '\0';
		pb_string(&b, buf);
	}
	free(nodes);
	err = pb_set(k, SAMPO_FEAT_NUMA_TOPOLOGY, &b);
	return err;
}

/* perf's write_pmu_mappings(): {type, name} of each PMU, in directory order */
static int feat_pmu_mappings(struct synth *s, struct feat_sink *k)
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
		if (read_u64_file(path, 10, &type))
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
static int feat_cache(struct synth *s, struct feat_sink *k, uint32_t nr_cpus)
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
			if (read_u64_file(CACHE_FILE("level"), 10, &x))
				break;
			c.level = (uint32_t)x;
			if (!read_u64_file(CACHE_FILE("coherency_line_size"), 10, &x))
				c.line_size = (uint32_t)x;
			if (!read_u64_file(CACHE_FILE("number_of_sets"), 10, &x))
				c.sets = (uint32_t)x;
			if (!read_u64_file(CACHE_FILE("ways_of_associativity"), 10, &x))
				c.ways = (uint32_t)x;
			(void)read_line_file(CACHE_FILE("type"), c.type, sizeof(c.type));
			(void)read_line_file(CACHE_FILE("size"), c.size, sizeof(c.size));
			(void)read_line_file(CACHE_FILE("shared_cpu_list"), c.map, sizeof(c.map));
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
static int feat_mem_topology(struct synth *s, struct feat_sink *k)
{
	char path[PATH_MAX];
	uint64_t block_size, max_block = 0;
	struct pbuf b = { 0 };
	DIR *d;
	struct dirent *de;
	int *nodes = NULL;
	size_t nr_nodes = 0;

	snprintf(path, sizeof(path), "%s/devices/system/memory/block_size_bytes", s->sys);
	if (read_u64_file(path, 16, &block_size))
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
	qsort(nodes, nr_nodes, sizeof(*nodes), cmp_int);
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
	struct synth *s = malloc(sizeof(*s));
	char buf[256], vendor[64], family[16], model[16], stepping[16], path[PATH_MAX];
	struct utsname u;
	uint32_t nrcpus[2];
	uint64_t mem;
	const uint32_t zero = 0;
	int err;

	if (!s)
		return -ENOMEM;
	err = synth_init(s, opts, NULL, NULL);
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
