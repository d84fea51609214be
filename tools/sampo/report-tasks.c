// SPDX-License-Identifier: GPL-2.0
/*
 * report-tasks.c - sampo report --tasks and --mmaps: perf report's
 * tasks_print(), the host machine's threads as a tree of parents and
 * children, in perf's own order and layout so that the two can be diffed:
 *
 *	#      pid      tid     ppid  comm
 *	         0        0       -1 |swapper
 *	         1        1        0 | systemd
 *	                                 55d1c000-55d1e000 r-xp 00002000 1234 /usr/lib/systemd/systemd
 *
 * perf walks its thread table (256 trees by tid % 256, each by increasing tid)
 * and links each thread to its parent (the thread whose tid is its ppid);
 * a thread with ppid -1 is a root. The order of roots and of children is
 * that in which the walk first reached them. perf gives up with "failed to
 * process tasks" when a parent is not in the recording, and leaves out the
 * threads whose parents make a loop; sampo prints such a thread as a root,
 * with the ppid it has, rather than print nothing.
 *
 * As perf's tasks_setup(), the machine is given COMM, FORK and EXIT records
 * (and MMAP, MMAP2 for --mmaps) and no samples: a thread that only samples
 * or maps name is not a task of the tree.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <sampo/dso.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/thread.h>

#include "cli.h"
#include "progress.h"
#include "report-tasks.h"

#define NONE SIZE_MAX

struct task {
	const struct sampo_thread *thread;
	size_t first_child, last_child; /* indexes into the task array, or NONE */
	size_t next;			/* next sibling (or next root) */
	size_t walk;			/* the walk that linked it (below), or NONE */
};

/* perf 6.1's walk of its thread table: by tid % 256, then by tid */
static int cmp_table_order(const void *a, const void *b)
{
	const struct task *x = a, *y = b;
	int32_t tx = sampo_thread__tid(x->thread), ty = sampo_thread__tid(y->thread);
	uint32_t bx = (uint32_t)tx % 256, by = (uint32_t)ty % 256;

	if (bx != by)
		return bx < by ? -1 : 1;
	return (tx > ty) - (tx < ty);
}

struct tid_index {
	int32_t tid;
	size_t task;
};

static int cmp_tid(const void *a, const void *b)
{
	const struct tid_index *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

static size_t find_task(const struct tid_index *index, size_t nr, int32_t tid)
{
	const struct tid_index key = { .tid = tid };
	const struct tid_index *hit = bsearch(&key, index, nr, sizeof(*index), cmp_tid);

	return hit ? hit->task : NONE;
}

static void append(struct task *tasks, size_t *first, size_t *last, size_t t, size_t walk)
{
	tasks[t].walk = walk;
	if (*first == NONE)
		*first = t;
	else
		tasks[*last].next = t;
	*last = t;
}

static void print_maps(FILE *fp, const struct sampo_thread *thread, int indent)
{
	for (size_t i = 0; i < sampo_thread__nr_maps(thread); i++) {
		const struct sampo_map *map = sampo_thread__map(thread, i);
		const struct sampo_dso *dso = sampo_map__dso(map);
		uint32_t prot = sampo_map__prot(map);

		fprintf(fp, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n",
			indent, "", sampo_map__start(map), sampo_map__end(map),
			prot & PROT_READ ? 'r' : '-', prot & PROT_WRITE ? 'w' : '-',
			prot & PROT_EXEC ? 'x' : '-',
			sampo_map__flags(map) & MAP_SHARED ? 's' : 'p', sampo_map__pgoff(map),
			sampo_dso__inode(dso), sampo_dso__long_name(dso));
	}
}

/*
 * Depth first, each task before its children, without recursion: a hostile
 * file can make a chain of parents as long as it has threads
 */
static int print_tree(FILE *fp, const struct task *tasks, size_t nr, size_t first_root, bool mmaps)
{
	size_t *stack = malloc((nr ? nr : 1) * sizeof(*stack));
	size_t depth = 0, t = first_root;

	if (!stack)
		return -ENOMEM;
	fprintf(fp, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	while (t != NONE) {
		const struct sampo_thread *th = tasks[t].thread;
		int indent = fprintf(fp, "  %8" PRId32 " %8" PRId32 " %8" PRId32 " |%*s",
				     sampo_thread__pid(th), sampo_thread__tid(th),
				     sampo_thread__ppid(th), (int)depth, "");

		fprintf(fp, "%s\n", sampo_thread__comm(th));
		if (mmaps)
			print_maps(fp, th, indent);
		if (tasks[t].first_child != NONE) {
			stack[depth++] = t;
			t = tasks[t].first_child;
			continue;
		}
		/* no children: the next sibling, or that of the nearest ancestor with one */
		while (tasks[t].next == NONE && depth)
			t = stack[--depth];
		t = tasks[t].next;
	}
	free(stack);
	return 0;
}

static int print_tasks(FILE *fp, const struct sampo_machine *machine, bool mmaps)
{
	size_t nr = sampo_machine__nr_threads(machine), n = 0;
	struct task *tasks = calloc(nr ? nr : 1, sizeof(*tasks));
	struct tid_index *index = calloc(nr ? nr : 1, sizeof(*index));
	size_t first_root = NONE, last_root = NONE;
	const struct sampo_thread *th;
	int err;

	if (!tasks || !index) {
		free(tasks);
		free(index);
		return -ENOMEM;
	}
	sampo_machine__for_each_thread(machine, th) {
		if (n == nr)
			break;
		tasks[n++] = (struct task){ .thread = th,
					    .first_child = NONE,
					    .last_child = NONE,
					    .next = NONE,
					    .walk = NONE };
	}
	qsort(tasks, n, sizeof(*tasks), cmp_table_order);
	for (size_t i = 0; i < n; i++)
		index[i] =
			(struct tid_index){ .tid = sampo_thread__tid(tasks[i].thread), .task = i };
	qsort(index, n, sizeof(*index), cmp_tid);

	/*
	 * Walk i starts from task i when it is not yet linked and goes up its
	 * parents: each is linked under its parent until one already linked,
	 * or a root, which joins the roots. A thread whose parent is missing,
	 * or whose parents lead back to itself (a FORK can give a tid's new
	 * thread a child of the old one as parent), is a root too: perf stops
	 * at the first and leaves the second out of the tree.
	 */
	for (size_t i = 0; i < n; i++) {
		size_t t = i;

		while (tasks[t].walk == NONE) {
			int32_t ppid = sampo_thread__ppid(tasks[t].thread);
			size_t parent = ppid == -1 ? NONE : find_task(index, n, ppid);

			/* linked in this walk: one of t's own descendants, or t */
			if (parent == NONE || parent == t || tasks[parent].walk == i) {
				append(tasks, &first_root, &last_root, t, i);
				break;
			}
			append(tasks, &tasks[parent].first_child, &tasks[parent].last_child, t, i);
			t = parent;
		}
	}
	err = print_tree(fp, tasks, n, first_root, mmaps);
	free(index);
	free(tasks);
	return err;
}

static int tasks_progress(void *arg, struct sampo_session *session, const struct sampo_event *ev)
{
	struct progress *p = arg;

	(void)ev;
	if (p->enabled)
		progress_update(p, sampo_reader__stats(sampo_session__reader(session))->bytes_read);
	return 0;
}

int report_tasks(const char *input, bool mmaps)
{
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_session_opts, opts, .ordered = true, .threaded = true,
		   .features = SAMPO_SESSION_FEATURES_EACH,
		   .machine_mask =
			   (1u << SAMPO_RECORD_COMM) | (1u << SAMPO_RECORD_FORK) |
			   (1u << SAMPO_RECORD_EXIT) |
			   (mmaps ? (1u << SAMPO_RECORD_MMAP) | (1u << SAMPO_RECORD_MMAP2) : 0),
		   .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	const struct sampo_tool tool = { .other = tasks_progress };
	const struct sampo_feature_error *ferr;
	struct sampo_session *session;
	struct sampo_reader *reader;
	struct progress progress;
	int err, nr_damaged;

	err = sampo_session__open(input, &opts, &session);
	if (err)
		return cli_err_open(err, input, errbuf);
	nr_damaged = sampo_session__damaged_features(session, &ferr);
	if (nr_damaged)
		cli_warn_damaged_features(input, nr_damaged, ferr);
	reader = sampo_session__reader(session);
	progress_init(&progress, "Reading tasks",
		      sampo_reader__is_pipe(reader) ? 0 : sampo_reader__file_size(reader));
	err = sampo_session__process(session, &tool, &progress);
	progress_done(&progress);
	if (err)
		err = cli_err_read(err, reader, sampo_session__error(session));
	else if (print_tasks(stdout, sampo_session__machine(session), mmaps))
		err = cli_err(-ENOMEM, "out of memory");
	else if (fflush(stdout) || ferror(stdout))
		err = errno == EPIPE ? -EPIPE : cli_err(-EIO, "cannot write the report");
	sampo_session__close(session);
	return err;
}
