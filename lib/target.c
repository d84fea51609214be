// SPDX-License-Identifier: LGPL-2.1
/*
 * target.c - the CPUs and threads perf record opens its events on, and the
 * processes whose state it synthesizes.
 *
 * Three growable lists of ints, each bounded by SAMPO_TARGET_MAX:
 *
 *	cpus	 -C list or the online CPUs, in increasing order, once each
 *	threads	 every thread of each -p process, each -t thread, the command
 *	pids	 each -p process and the process of each -t thread, once each
 *
 * /proc and /sys are read below roots given at creation (tests build fake
 * trees). Everything read from them is parsed with bounds: a task directory
 * whose name is not a positive number is skipped, a status file without a
 * Tgid line means the thread is gone.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sampo/cpuset.h>
#include <sampo/target.h>
#include "internal/util.h"
#include "internal/opts.h"

struct int_list {
	int *v;
	size_t nr, alloc;
};

struct sampo_target {
	char *proc_dir;
	char *sys_dir;
	struct int_list cpus, threads, pids;
};

static int list_add(struct int_list *l, int v)
{
	if (l->nr >= SAMPO_TARGET_MAX)
		return -E2BIG;
	if (l->nr == l->alloc) {
		size_t n = l->alloc ? l->alloc * 2 : 16;
		int *nv = realloc(l->v, n * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		l->v = nv;
		l->alloc = n;
	}
	l->v[l->nr++] = v;
	return 0;
}

static int list_add_once(struct int_list *l, int v)
{
	for (size_t i = 0; i < l->nr; i++) {
		if (l->v[i] == v)
			return 0;
	}
	return list_add(l, v);
}

struct sampo_target *sampo_target__new(const struct sampo_target_opts *opts)
{
	const char *proc = OPTS_GET(opts, proc_dir, NULL);
	const char *sys = OPTS_GET(opts, sys_dir, NULL);
	struct sampo_target *t;

	if (!OPTS_VALID(opts, sampo_target_opts))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->proc_dir = strdup(proc ? proc : "/proc");
	t->sys_dir = strdup(sys ? sys : "/sys");
	if (!t->proc_dir || !t->sys_dir) {
		sampo_target__delete(t);
		return NULL;
	}
	return t;
}

void sampo_target__delete(struct sampo_target *t)
{
	if (!t)
		return;
	free(t->cpus.v);
	free(t->threads.v);
	free(t->pids.v);
	free(t->proc_dir);
	free(t->sys_dir);
	free(t);
}

/* One decimal number in [0, INT_MAX] at *p; advances *p. */
static int parse_number(const char **p, long *ret)
{
	char *end;
	long v;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(*p, &end, 10);
	if (errno || v > INT_MAX)
		return -EINVAL;
	*p = end;
	*ret = v;
	return 0;
}

int sampo_target__parse_list(const char *str, int *vals, size_t max, size_t *ret_nr)
{
	const char *p = str;
	size_t nr = 0;

	if (!str || !ret_nr || (!vals && max))
		return -EINVAL;
	while (*p) {
		long v;

		if (parse_number(&p, &v))
			return -EINVAL;
		if (nr >= max)
			return -E2BIG;
		vals[nr++] = (int)v;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	if (!nr)
		return -EINVAL;
	*ret_nr = nr;
	return 0;
}

/* Parse @str into a temporary array of up to SAMPO_TARGET_MAX entries. */
static int parse_list_alloc(const char *str, int **ret_vals, size_t *ret_nr)
{
	int *vals = malloc(SAMPO_TARGET_MAX * sizeof(*vals));
	int err;

	if (!vals)
		return -ENOMEM;
	err = sampo_target__parse_list(str, vals, SAMPO_TARGET_MAX, ret_nr);
	if (err) {
		free(vals);
		return err;
	}
	*ret_vals = vals;
	return 0;
}

/* A CPU list in perf's syntax, through the library's one parser of it (cpuset.c). */
static int add_cpus(struct sampo_target *t, const char *list)
{
	struct sampo_cpu_set *set;
	int err;

	err = sampo_cpu_set__parse(list, &set, NULL, 0);
	if (err)
		return err;
	if (!sampo_cpu_set__nr(set))
		err = -EINVAL; /* "" names no CPU: nothing to record on */
	for (uint32_t cpu = 0; !err && cpu < SAMPO_CPU_SET_MAX; cpu++) {
		if (sampo_cpu_set__has(set, cpu))
			err = list_add(&t->cpus, (int)cpu);
	}
	sampo_cpu_set__delete(set);
	return err;
}

int sampo_target__add_cpu_list(struct sampo_target *t, const char *list)
{
	if (!t || !list)
		return -EINVAL;
	return add_cpus(t, list);
}

int sampo_target__add_online_cpus(struct sampo_target *t)
{
	char path[PATH_MAX], buf[4096];
	FILE *f;
	int err;

	if (!t)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", t->sys_dir);
	f = fopen(path, "re");
	if (!f) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		err = 0;
		for (long i = 0; i < n && !err; i++)
			err = list_add(&t->cpus, (int)i);
		if (err == -E2BIG)
			err = 0; /* as before: the first SAMPO_TARGET_MAX */
		return err ? err : t->cpus.nr ? 0 : -ENOENT;
	}
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return add_cpus(t, buf);
}

int sampo_target__add_process(struct sampo_target *t, int pid)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (!t || pid < 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%d/task", t->proc_dir, pid);
	d = opendir(path);
	if (!d)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!err && (de = readdir(d))) {
		long tid = strtol(de->d_name, NULL, 10);

		if (tid <= 0 || tid > INT_MAX)
			continue;
		err = list_add(&t->threads, (int)tid);
	}
	closedir(d);
	if (err)
		return err;
	/* full: the process is not synthesized, as before (its threads are sampled) */
	err = list_add_once(&t->pids, pid);
	return err == -E2BIG ? 0 : err;
}

/* The process (thread group) of thread @tid, from its status file. */
static int tgid_of(const struct sampo_target *t, int tid)
{
	char path[PATH_MAX], line[128];
	FILE *f;
	int tgid = -1;

	snprintf(path, sizeof(path), "%s/%d/status", t->proc_dir, tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "Tgid:", 5)) {
			const char *p = line + 5;
			long v;

			while (*p == ' ' || *p == '\t')
				p++;
			tgid = parse_number(&p, &v) ? -1 : (int)v;
			break;
		}
	}
	fclose(f);
	return tgid;
}

int sampo_target__add_thread(struct sampo_target *t, int tid)
{
	int tgid, err;

	if (!t || tid < 0)
		return -EINVAL;
	tgid = tgid_of(t, tid);
	if (tgid < 0)
		return -ESRCH;
	err = list_add(&t->threads, tid);
	if (err)
		return err;
	err = list_add_once(&t->pids, tgid);
	return err == -E2BIG ? 0 : err;
}

int sampo_target__add_new_thread(struct sampo_target *t, int tid)
{
	if (!t)
		return -EINVAL;
	return list_add(&t->threads, tid);
}

static int add_id_list(struct sampo_target *t, const char *list, int *ret_bad,
		       int (*add)(struct sampo_target *, int))
{
	int *vals = NULL;
	size_t nr = 0;
	int err;

	if (ret_bad)
		*ret_bad = -1;
	if (!t || !list)
		return -EINVAL;
	err = parse_list_alloc(list, &vals, &nr);
	if (err)
		return err == -ENOMEM ? err : -EINVAL;
	for (size_t i = 0; i < nr; i++) {
		err = add(t, vals[i]);
		if (err) {
			if (ret_bad)
				*ret_bad = vals[i];
			break;
		}
	}
	free(vals);
	return err;
}

int sampo_target__add_pid_list(struct sampo_target *t, const char *list, int *ret_bad)
{
	return add_id_list(t, list, ret_bad, sampo_target__add_process);
}

int sampo_target__add_tid_list(struct sampo_target *t, const char *list, int *ret_bad)
{
	return add_id_list(t, list, ret_bad, sampo_target__add_thread);
}

static const int *list_get(const struct int_list *l, size_t *ret_nr)
{
	if (ret_nr)
		*ret_nr = l->nr;
	return l->nr ? l->v : NULL;
}

const int *sampo_target__cpus(const struct sampo_target *t, size_t *ret_nr)
{
	return list_get(&t->cpus, ret_nr);
}

const int *sampo_target__threads(const struct sampo_target *t, size_t *ret_nr)
{
	return list_get(&t->threads, ret_nr);
}

const int *sampo_target__pids(const struct sampo_target *t, size_t *ret_nr)
{
	return list_get(&t->pids, ret_nr);
}
