/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gen-perfdata.c - write a large, realistic perf.data file through the
 * libsampo writer, for the benchmarks (bench/README.md).
 *
 * The file imitates what perf 6.1 writes for `perf record -a [-g] -F 1000`
 * on a busy machine:
 *
 *	ID_INDEX, MMAP [kernel.kallsyms]_text, EVENT_UPDATE (unit, scale),
 *	THREAD_MAP, CPU_MAP, then per process (pid order) FORK + COMM +
 *	MMAP2 of each executable mapping and FORK + COMM of its other threads,
 *	kernel threads with FORK + COMM only, FINISHED_INIT, FINISHED_ROUND;
 *	then rounds: for each CPU in turn, that CPU's samples of the round
 *	(its ring buffer), then FINISHED_ROUND. Every CPU samples the same
 *	time window in a round, so sorting by time interleaves the CPUs: the
 *	ordered reader has real merging to do.
 *
 * Two attrs, as `perf record -a` makes them: cpu-clock (the samples) and the
 * tracking event dummy:HG (FORK/COMM/MMAP2/EXIT of processes started while
 * recording, with a filled sample_id trailer), both with sample_type
 * IP|TID|TIME|ID|CPU|PERIOD (+CALLCHAIN), one id per CPU each.
 *
 * Samples come from a pool of stack templates (--stacks) picked with a Zipf
 * distribution, because real profiles repeat: a few hot stacks, a long tail.
 * A template belongs to a process (or to the idle task, or a kernel thread)
 * and holds a whole callchain: [PERF_CONTEXT_KERNEL, kernel frames,]
 * [PERF_CONTEXT_USER, user frames], innermost first. The sample's ip is the
 * leaf frame, moved by one of eight small offsets, so distinct chains number
 * up to 8 x the templates. Kernel ips lie in [_text, _etext), user ips in the
 * executable mapping of a DSO of the owning process.
 *
 * The features are the ones perf 6.1 writes (hostname ... mem_topology,
 * bpf_prog_info, bpf_btf, pmu_caps) and the build-id table lists the DSOs
 * that have samples (by sample ip, as perf 6.1 marks hits). The DSOs do not
 * exist, so reports show raw addresses for user code. The kernel gets no
 * build-id entry by default: a made-up one makes perf warn that it finds no
 * kallsyms for it, while without one perf quietly uses /proc/kallsyms
 * (--kernel-build-id host writes the running kernel's, which perf also
 * accepts; the file then depends on the machine).
 *
 * Everything derives from --seed through one splitmix64 generator, and the
 * order of draws is fixed: the same options give the same bytes.
 */
#include <byteswap.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sampo/writer.h>

#define KERNEL_TEXT	 0xffffffff81000000ULL
#define KERNEL_TEXT_LEN	 0x120bb08ULL
#define NR_KERNEL_FUNCS	 30000u
#define NR_SYSCALL_FUNCS 300u
#define SAMPLE_PERIOD_NS 1000000ULL /* cpu-clock at -F 1000 */
#define MAX_CHAIN	 127u	    /* perf's default kernel.perf_event_max_stack */
#define NR_LEAF_VARIANTS 8u
#define PAGE		 0x1000ULL

#define PROT_R	 1u
#define PROT_X	 4u
#define MAP_PRIV 2u

/* ---- deterministic randomness ------------------------------------------ */

struct rng {
	uint64_t s;
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rng_next(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix64(r->s);
}

static uint64_t rng_below(struct rng *r, uint64_t n)
{
	return n ? rng_next(r) % n : 0;
}

static double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Zipf over ranks 0..n-1: P(k) proportional to 1/(k+1)^s. */
struct zipf {
	double *cdf;
	size_t n;
};

static int zipf_init(struct zipf *z, size_t n, double s)
{
	double sum = 0;

	z->cdf = malloc((n ? n : 1) * sizeof(*z->cdf));
	if (!z->cdf)
		return -ENOMEM;
	z->n = n;
	for (size_t k = 0; k < n; k++) {
		sum += 1.0 / pow((double)(k + 1), s);
		z->cdf[k] = sum;
	}
	for (size_t k = 0; k < n; k++)
		z->cdf[k] /= sum;
	return 0;
}

static size_t zipf_pick(const struct zipf *z, struct rng *r)
{
	double u = rng_unit(r);
	size_t lo = 0, hi = z->n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (z->cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* ---- the simulated machine --------------------------------------------- */

struct dso {
	char *path;
	uint64_t text_len; /* bytes of the r-xp mapping */
	uint64_t pgoff;	   /* file offset of the mapping */
	uint64_t ino;
	uint64_t seed; /* function offsets derive from it */
	uint32_t nr_funcs;
	uint8_t build_id[20];
	bool vdso;
	bool hit; /* a sample ip fell in it: goes to the build-id table */
};

struct pmap {
	uint32_t dso;
	uint64_t start;
};

struct proc {
	uint32_t pid, ppid;
	char comm[16];
	bool kernel;  /* idle task or kernel thread: no mappings, no user frames */
	uint32_t exe; /* its executable (dsos[] index) */
	uint32_t *tids;
	size_t nr_tids;
	struct pmap *maps; /* sorted by start */
	size_t nr_maps;
	uint32_t *stacks; /* templates owned by this process */
	size_t nr_stacks, cap_stacks;
};

struct stack {
	uint32_t proc;
	uint16_t nr;	   /* callchain entries, markers included */
	uint16_t leaf_idx; /* index of the sample ip in chain[] */
	uint8_t cpumode;
	int32_t leaf_dso; /* -1: kernel */
	uint64_t leaf_base;
	uint64_t *chain;
};

struct gen_opts {
	const char *output;
	uint64_t nr_samples;
	unsigned int depth; /* mean callchain depth; 0 = no callchains */
	unsigned int nr_dsos;
	unsigned int nr_threads;
	unsigned int nr_cpus;
	unsigned int nr_stacks;
	uint64_t seed;
	const char *kernel_build_id; /* "none", "host", "fake" or 40 hex digits */
	const char *hostname;	     /* HOSTNAME feature (default "bench") */
	uint64_t kaslr_slide;	     /* added to the kernel's _text and to every kernel ip */
	bool big_endian;
	bool pipe;
	bool quiet;
};

struct gen {
	struct gen_opts o;
	struct rng rng;
	struct sampo_writer *w;
	bool swap; /* feature payloads: file byte order differs from the host's */

	struct dso *dsos;
	size_t nr_dsos;
	uint32_t dso_libc, dso_ld, dso_libm, dso_libstdcxx, dso_vdso, dso_gen0, dso_exe0;
	uint32_t nr_exes;
	bool kernel_hit;
	uint64_t kernel_seed;
	uint8_t kernel_build_id[20];
	bool kernel_no_build_id; /* --kernel-build-id none */

	struct proc *procs;
	size_t nr_procs, nr_user_first;
	uint32_t next_pid;

	struct stack *stacks;
	size_t nr_stacks;
	struct zipf stack_zipf;
	uint8_t *seen; /* (stack, leaf variant) pairs emitted: distinct chains */

	uint64_t id_base;
	size_t attr_clock, attr_dummy;
	uint64_t first_time, last_time;
	uint64_t nr_samples, nr_records, nr_rounds, nr_spawned, nr_distinct;
};

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		fprintf(stderr, "gen-perfdata: out of memory\n");
		exit(1);
	}
	return p;
}

static char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p) {
		fprintf(stderr, "gen-perfdata: out of memory\n");
		exit(1);
	}
	return p;
}

static void fill_build_id(uint8_t *bid, uint64_t seed, const char *name)
{
	uint64_t h = seed ^ 0xb1d0b1d0ULL;

	for (const char *c = name; *c; c++)
		h = mix64(h ^ (uint8_t)*c);
	for (int i = 0; i < 20; i++)
		bid[i] = (uint8_t)mix64(h + (uint64_t)i);
}

static uint32_t add_dso(struct gen *g, const char *path, uint64_t min_len, uint64_t max_len)
{
	struct dso *d = &g->dsos[g->nr_dsos];

	d->path = xstrdup(path);
	d->text_len = (min_len + rng_below(&g->rng, max_len - min_len + 1)) & ~(PAGE - 1);
	d->pgoff = PAGE * (1 + rng_below(&g->rng, 64));
	d->ino = 100000 + rng_below(&g->rng, 20000000);
	d->seed = rng_next(&g->rng);
	d->nr_funcs = (uint32_t)(d->text_len / 320);
	fill_build_id(d->build_id, g->o.seed, path);
	return (uint32_t)g->nr_dsos++;
}

/* Start of function @i of @d, relative to the mapping. */
static uint64_t dso_func(const struct dso *d, uint32_t i)
{
	return (mix64(d->seed + i) % (d->text_len - 0x400)) & ~0xfULL;
}

static uint64_t kernel_func(const struct gen *g, uint32_t i)
{
	return KERNEL_TEXT + g->o.kaslr_slide +
	       ((mix64(g->kernel_seed + i) % (KERNEL_TEXT_LEN - 0x400)) & ~0xfULL);
}

/* An address inside the function: a return address or an ip. */
static uint64_t in_func(struct rng *r)
{
	return 5 + rng_below(r, 0x300);
}

static void build_dsos(struct gen *g)
{
	char path[128];
	unsigned int nr_exes = g->o.nr_threads / 8 + 8;

	g->dsos = xcalloc(g->o.nr_dsos + nr_exes + 8, sizeof(*g->dsos));
	g->dso_libc = add_dso(g, "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x156000, 0x156000);
	g->dso_ld = add_dso(g, "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2", 0x26000, 0x26000);
	g->dso_libm = add_dso(g, "/usr/lib/x86_64-linux-gnu/libm.so.6", 0x74000, 0x74000);
	g->dso_libstdcxx =
		add_dso(g, "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30", 0x101000, 0x101000);
	g->dso_vdso = add_dso(g, "[vdso]", 0x2000, 0x2000);
	g->dsos[g->dso_vdso].vdso = true;
	g->dsos[g->dso_vdso].pgoff = 0;
	g->dsos[g->dso_vdso].ino = 0;

	g->dso_exe0 = (uint32_t)g->nr_dsos;
	g->nr_exes = nr_exes;
	for (unsigned int i = 0; i < nr_exes; i++) {
		snprintf(path, sizeof(path), "/usr/bin/gen-app-%03u", i);
		add_dso(g, path, 0x10000, 0x600000);
	}
	g->dso_gen0 = (uint32_t)g->nr_dsos;
	for (unsigned int i = 0; i < g->o.nr_dsos; i++) {
		snprintf(path, sizeof(path), "/usr/lib/x86_64-linux-gnu/libgen-%04u.so.%u", i,
			 1 + i % 3);
		add_dso(g, path, 0x8000, 0x400000);
	}
}

static struct proc *add_proc(struct gen *g, uint32_t pid, uint32_t ppid, const char *comm,
			     bool kernel, size_t nr_tids)
{
	struct proc *p = &g->procs[g->nr_procs++];

	p->pid = pid;
	p->ppid = ppid;
	snprintf(p->comm, sizeof(p->comm), "%.15s", comm);
	p->kernel = kernel;
	p->tids = xcalloc(nr_tids, sizeof(*p->tids));
	p->nr_tids = nr_tids;
	p->tids[0] = pid;
	for (size_t i = 1; i < nr_tids; i++)
		p->tids[i] = g->next_pid++;
	return p;
}

static int cmp_pmap(const void *a, const void *b)
{
	const struct pmap *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static bool proc_has_dso(const struct proc *p, uint32_t dso)
{
	for (size_t i = 0; i < p->nr_maps; i++)
		if (p->maps[i].dso == dso)
			return true;
	return false;
}

/*
 * Lay out a user process: the executable low (0x55...), the libraries high
 * (0x7f...) going up, then [vdso], then ld.so, as /proc/PID/maps shows them.
 */
static void map_proc(struct gen *g, struct proc *p, uint32_t exe, const uint32_t *libs,
		     size_t nr_libs)
{
	uint64_t addr;

	p->maps = xcalloc(nr_libs + 4, sizeof(*p->maps));
	p->maps[p->nr_maps++] =
		(struct pmap){ exe, 0x550000000000ULL + rng_below(&g->rng, 0x1000000) * PAGE };
	addr = 0x7f0000000000ULL + rng_below(&g->rng, 0x8000000) * PAGE;
	for (size_t i = 0; i < nr_libs; i++) {
		if (proc_has_dso(p, libs[i]))
			continue;
		p->maps[p->nr_maps++] = (struct pmap){ libs[i], addr };
		addr += g->dsos[libs[i]].text_len + PAGE * (1 + rng_below(&g->rng, 64));
	}
	p->maps[p->nr_maps++] = (struct pmap){ g->dso_vdso, addr };
	addr += 0x3000;
	p->maps[p->nr_maps++] = (struct pmap){ g->dso_ld, addr };
	qsort(p->maps, p->nr_maps, sizeof(*p->maps), cmp_pmap);
}

static const char *const kthread_names[] = {
	"rcu_preempt", "kcompactd0", "khungtaskd", "kswapd0", "jbd2/vda1-8", "kauditd",
};
static const char *const kthread_percpu[] = {
	"ksoftirqd/%u",
	"migration/%u",
	"cpuhp/%u",
	"kworker/%u:1-events",
};

static void build_procs(struct gen *g)
{
	unsigned int nr_kthreads = 4 * g->o.nr_cpus + 6;
	size_t max_procs = g->o.nr_threads + nr_kthreads + 8;
	size_t nr_user, threads_left = g->o.nr_threads;
	size_t nr_gen = g->o.nr_dsos;
	uint32_t *libs;
	size_t cap_libs = 64;
	char comm[32];

	g->procs = xcalloc(max_procs, sizeof(*g->procs));
	add_proc(g, 0, 0, "swapper", true, 1);
	g->next_pid = 2;
	add_proc(g, g->next_pid++, 0, "kthreadd", true, 1);
	for (unsigned int i = 0; i < g->o.nr_cpus; i++) {
		for (size_t k = 0; k < sizeof(kthread_percpu) / sizeof(*kthread_percpu); k++) {
			snprintf(comm, sizeof(comm), kthread_percpu[k], i);
			add_proc(g, g->next_pid++, 2, comm, true, 1);
		}
	}
	for (size_t k = 0; k < sizeof(kthread_names) / sizeof(*kthread_names); k++)
		add_proc(g, g->next_pid++, 2, kthread_names[k], true, 1);

	/* user processes: mostly single-threaded, a few with many threads */
	g->nr_user_first = g->nr_procs;
	g->next_pid = 300;
	while (threads_left > 0) {
		size_t n = 1;
		uint64_t r = rng_below(&g->rng, 10);
		uint32_t exe = g->dso_exe0 + (uint32_t)rng_below(&g->rng, g->nr_exes);
		struct proc *p;

		if (r >= 9)
			n = 8 + rng_below(&g->rng, 25);
		else if (r >= 6)
			n = 2 + rng_below(&g->rng, 7);
		if (n > threads_left)
			n = threads_left;
		threads_left -= n;
		if (g->nr_procs == g->nr_user_first) /* init */
			p = add_proc(g, 1, 0, strrchr(g->dsos[exe].path, '/') + 1, false, n);
		else
			p = add_proc(g, g->next_pid++, 1, strrchr(g->dsos[exe].path, '/') + 1,
				     false, n);
		p->exe = exe;
		g->next_pid += (uint32_t)rng_below(&g->rng, 40);
	}
	nr_user = g->nr_procs - g->nr_user_first;

	/* every generated library goes to one process, popular ones to several */
	libs = xcalloc(cap_libs, sizeof(*libs));
	for (size_t i = 0; i < nr_user; i++) {
		struct proc *p = &g->procs[g->nr_user_first + i];
		size_t nr_libs = 0;

		for (size_t d = i; d < nr_gen; d += nr_user) {
			if (nr_libs + 8 >= cap_libs) {
				cap_libs *= 2;
				libs = realloc(libs, cap_libs * sizeof(*libs));
				if (!libs) {
					fprintf(stderr, "gen-perfdata: out of memory\n");
					exit(1);
				}
			}
			libs[nr_libs++] = g->dso_gen0 + (uint32_t)d;
		}
		for (unsigned int k = 0; nr_gen && k < 3; k++)
			libs[nr_libs++] = g->dso_gen0 +
					  (uint32_t)rng_below(&g->rng, nr_gen < 100 ? nr_gen : 100);
		if (rng_below(&g->rng, 2))
			libs[nr_libs++] = g->dso_libm;
		if (rng_below(&g->rng, 5) < 2)
			libs[nr_libs++] = g->dso_libstdcxx;
		libs[nr_libs++] = g->dso_libc;
		map_proc(g, p, p->exe, libs, nr_libs);
	}
	free(libs);
}

/* ---- stack templates ---------------------------------------------------- */

static void proc_add_stack(struct proc *p, uint32_t idx)
{
	if (p->nr_stacks == p->cap_stacks) {
		p->cap_stacks = p->cap_stacks ? 2 * p->cap_stacks : 8;
		p->stacks = realloc(p->stacks, p->cap_stacks * sizeof(*p->stacks));
		if (!p->stacks) {
			fprintf(stderr, "gen-perfdata: out of memory\n");
			exit(1);
		}
	}
	p->stacks[p->nr_stacks++] = idx;
}

static unsigned int pick_depth(struct gen *g)
{
	unsigned int d;

	if (g->o.depth == 0)
		return 1;
	d = g->o.depth / 2 + (unsigned int)rng_below(&g->rng, g->o.depth + 1);
	if (d < 3)
		d = 3;
	if (d > MAX_CHAIN - 2)
		d = MAX_CHAIN - 2;
	return d;
}

static size_t find_map(const struct proc *p, uint32_t dso)
{
	for (size_t i = 0; i < p->nr_maps; i++)
		if (p->maps[i].dso == dso)
			return i;
	return 0;
}

enum stack_kind { STACK_IDLE, STACK_KTHREAD, STACK_USER, STACK_SYSCALL };

/*
 * Kernel frames, outermost first: the idle loop, a kernel thread's
 * ret_from_fork/kthread/worker_thread, or the syscall entry, then random
 * functions. Short chains (no callchain wanted) keep only the leaf part.
 */
static size_t kernel_frames(struct gen *g, uint64_t *out, size_t n, enum stack_kind kind)
{
	size_t k = 0;

	if (kind == STACK_IDLE) {
		/* secondary_startup_64 .. native_safe_halt: fixed functions 10..16 */
		for (uint32_t i = n >= 7 ? 10 : 17 - (uint32_t)n; i < 17; i++)
			out[k++] = kernel_func(g, i) + 0x20 + i;
		return k;
	}
	if (n >= 4 && kind == STACK_KTHREAD) {
		for (uint32_t i = 3; i < 6; i++) /* ret_from_fork, kthread, worker_thread */
			out[k++] = kernel_func(g, i) + 0x30 + i;
	} else if (n >= 4) {
		out[k++] = kernel_func(g, 0) + 0x66; /* entry_SYSCALL_64_after_hwframe */
		out[k++] = kernel_func(g, 1) + 0x3b; /* do_syscall_64 */
		out[k++] = kernel_func(g, 20 + (uint32_t)rng_below(&g->rng, NR_SYSCALL_FUNCS)) +
			   in_func(&g->rng);
	}
	while (k < n)
		out[k++] = kernel_func(g, (uint32_t)rng_below(&g->rng, NR_KERNEL_FUNCS)) +
			   in_func(&g->rng);
	return k;
}

/*
 * User frames, outermost first: _start, __libc_start_call_main, main, then
 * functions that mostly stay in the same DSO; a syscall leaves from libc,
 * a few leaves are in [vdso]. Sets *@leaf_dso.
 */
static size_t user_frames(struct gen *g, const struct proc *p, uint64_t *out, size_t n,
			  bool syscall, int32_t *leaf_dso)
{
	size_t m_exe = find_map(p, p->exe), m_libc = find_map(p, g->dso_libc);
	const struct dso *exe = &g->dsos[p->exe], *libc = &g->dsos[g->dso_libc];
	size_t cur = m_exe, k = 0;

	if (n >= 4) {
		out[k++] = p->maps[m_exe].start + dso_func(exe, 0) + 0x25;
		out[k++] = p->maps[m_libc].start + dso_func(libc, 1) + 0x8a;
		out[k++] = p->maps[m_exe].start + dso_func(exe, 2) + in_func(&g->rng);
	}
	while (k < n) {
		const struct dso *d;
		bool leaf = k == n - 1;

		if (rng_below(&g->rng, 10) >= 6) {
			do {
				cur = rng_below(&g->rng, p->nr_maps);
			} while (g->dsos[p->maps[cur].dso].vdso);
		}
		if (leaf && syscall)
			cur = m_libc;
		else if (leaf && rng_below(&g->rng, 50) == 0)
			cur = find_map(p, g->dso_vdso);
		d = &g->dsos[p->maps[cur].dso];
		out[k++] = p->maps[cur].start +
			   dso_func(d, (uint32_t)rng_below(&g->rng, d->nr_funcs)) +
			   in_func(&g->rng);
	}
	*leaf_dso = (int32_t)p->maps[cur].dso;
	return k;
}

static void build_stack(struct gen *g, struct stack *s, uint32_t proc, enum stack_kind kind)
{
	uint64_t frames[MAX_CHAIN];
	uint64_t chain[MAX_CHAIN];
	unsigned int depth = pick_depth(g);
	const struct proc *p = &g->procs[proc];
	size_t nr = 0, nk = 0, nu = 0;
	int32_t leaf_dso = -1;

	s->proc = proc;
	if (kind == STACK_USER) {
		nu = user_frames(g, p, frames, depth, false, &leaf_dso);
	} else if (kind == STACK_SYSCALL && depth >= 4) {
		nk = depth / 3 + 1 < 24 ? depth / 3 + 1 : 24;
		nk = kernel_frames(g, frames, nk, kind);
		nu = user_frames(g, p, frames + nk, depth - nk, true, &leaf_dso);
	} else {
		nk = kernel_frames(g, frames, depth > 40 ? 40 : depth, kind);
	}

	/* innermost first, with context markers, as the kernel writes it */
	if (nk) {
		chain[nr++] = SAMPO_CONTEXT_KERNEL;
		s->leaf_idx = (uint16_t)nr;
		for (size_t i = nk; i-- > 0;)
			chain[nr++] = frames[i];
		s->cpumode = SAMPO_CPUMODE_KERNEL;
		s->leaf_dso = -1;
	}
	if (nu) {
		chain[nr++] = SAMPO_CONTEXT_USER;
		if (!nk) {
			s->leaf_idx = (uint16_t)nr;
			s->cpumode = SAMPO_CPUMODE_USER;
			s->leaf_dso = leaf_dso;
		}
		for (size_t i = nu; i-- > 0;)
			chain[nr++] = frames[nk + i];
	}
	s->nr = (uint16_t)nr;
	s->leaf_base = chain[s->leaf_idx];
	s->chain = xcalloc(nr, sizeof(*s->chain));
	memcpy(s->chain, chain, nr * sizeof(*chain));
}

/*
 * The template pool, in rank order for the Zipf pick: the four hottest are
 * idle loops (cpu-clock samples idle CPUs too), the rest is shuffled: ~4%
 * kernel threads, then user stacks (a third of them inside a syscall) whose
 * owners follow a Zipf too, so a few processes are busy and most are not.
 */
static int build_stacks(struct gen *g)
{
	size_t n = g->o.nr_stacks, nr_kthreads = g->nr_user_first - 2;
	size_t nr_user = g->nr_procs - g->nr_user_first;
	enum stack_kind *kinds = xcalloc(n, sizeof(*kinds));
	struct zipf proc_zipf;
	int err;

	err = zipf_init(&proc_zipf, nr_user, 0.9);
	if (err)
		return err;
	g->stacks = xcalloc(n, sizeof(*g->stacks));
	g->nr_stacks = n;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = rng_below(&g->rng, 100);

		kinds[i] = i < 4  ? STACK_IDLE :
			   r < 4  ? STACK_KTHREAD :
			   r < 36 ? STACK_SYSCALL :
				    STACK_USER;
	}
	for (size_t i = n - 1; i > 4; i--) {
		size_t j = 4 + rng_below(&g->rng, i - 4 + 1);
		enum stack_kind t = kinds[i];

		kinds[i] = kinds[j];
		kinds[j] = t;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t proc;

		if (kinds[i] == STACK_IDLE)
			proc = 0;
		else if (kinds[i] == STACK_KTHREAD)
			proc = 1 + (uint32_t)rng_below(&g->rng, nr_kthreads);
		else
			proc = (uint32_t)(g->nr_user_first + zipf_pick(&proc_zipf, &g->rng));
		build_stack(g, &g->stacks[i], proc, kinds[i]);
		proc_add_stack(&g->procs[proc], (uint32_t)i);
	}
	free(kinds);
	free(proc_zipf.cdf);
	return zipf_init(&g->stack_zipf, n, 1.0);
}

/* ---- records ------------------------------------------------------------ */

static int check(int err, const char *what)
{
	if (err < 0) {
		char buf[128];

		fprintf(stderr, "gen-perfdata: %s: %s\n", what,
			sampo_strerror(err, buf, sizeof(buf)));
		exit(1);
	}
	return err;
}

static void add_attrs(struct gen *g)
{
	struct sampo_event_attr a;
	uint64_t *ids = xcalloc(g->o.nr_cpus, sizeof(*ids));
	uint64_t sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |
			       SAMPO_SAMPLE_ID | SAMPO_SAMPLE_CPU | SAMPO_SAMPLE_PERIOD;

	if (g->o.depth)
		sample_type |= SAMPO_SAMPLE_CALLCHAIN;

	memset(&a, 0, sizeof(a));
	a.type = SAMPO_TYPE_SOFTWARE;
	a.config = 0; /* PERF_COUNT_SW_CPU_CLOCK */
	a.sample_period = 1000;
	a.sample_type = sample_type;
	a.read_format = SAMPO_FORMAT_ID | SAMPO_FORMAT_LOST;
	a.flags = SAMPO_ATTR_DISABLED | SAMPO_ATTR_INHERIT | SAMPO_ATTR_FREQ |
		  SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_EXCLUDE_GUEST;
	for (unsigned int c = 0; c < g->o.nr_cpus; c++)
		ids[c] = g->id_base + c;
	g->attr_clock = (size_t)check(sampo_writer__add_attr(g->w, &a, ids, g->o.nr_cpus),
				      "add cpu-clock attr");

	a.config = 9; /* PERF_COUNT_SW_DUMMY */
	a.flags = SAMPO_ATTR_INHERIT | SAMPO_ATTR_MMAP | SAMPO_ATTR_COMM | SAMPO_ATTR_FREQ |
		  SAMPO_ATTR_TASK | SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_MMAP2 |
		  SAMPO_ATTR_COMM_EXEC | SAMPO_ATTR_KSYMBOL | SAMPO_ATTR_BPF_EVENT;
	for (unsigned int c = 0; c < g->o.nr_cpus; c++)
		ids[c] = g->id_base + g->o.nr_cpus + c;
	g->attr_dummy = (size_t)check(sampo_writer__add_attr(g->w, &a, ids, g->o.nr_cpus),
				      "add dummy attr");
	free(ids);
}

static void write_mmap2(struct gen *g, uint32_t pid, uint64_t start, const struct dso *d,
			const struct sampo_sample *sid)
{
	struct sampo_writer_map m = {
		.misc = SAMPO_CPUMODE_USER,
		.pid = pid,
		.tid = pid,
		.start = start,
		.len = d->text_len,
		.pgoff = d->pgoff,
		.maj = d->vdso ? 0 : 0xfe,
		.min = 0,
		.ino = d->ino,
		.prot = PROT_R | PROT_X,
		.flags = MAP_PRIV,
		.filename = d->path,
	};

	check(sampo_writer__write_mmap2(g->w, &m, sid), "write MMAP2");
	g->nr_records++;
}

static void write_vsyscall(struct gen *g, uint32_t pid, const struct sampo_sample *sid)
{
	struct sampo_writer_map m = {
		.misc = SAMPO_CPUMODE_USER,
		.pid = pid,
		.tid = pid,
		.start = 0xffffffffff600000ULL,
		.len = PAGE,
		.prot = PROT_X,
		.flags = MAP_PRIV,
		.filename = "[vsyscall]",
	};

	check(sampo_writer__write_mmap2(g->w, &m, sid), "write MMAP2");
	g->nr_records++;
}

/* A process's existing state as perf synthesizes it: zeroed sample_id trailers. */
static void write_proc(struct gen *g, const struct proc *p)
{
	check(sampo_writer__write_fork(g->w, p->pid, p->ppid, p->pid, p->ppid, 0, NULL),
	      "write FORK");
	check(sampo_writer__write_comm(g->w, p->pid, p->pid, p->comm, false, NULL), "write COMM");
	g->nr_records += 2;
	for (size_t i = 0; i < p->nr_maps; i++)
		write_mmap2(g, p->pid, p->maps[i].start, &g->dsos[p->maps[i].dso], NULL);
	if (!p->kernel)
		write_vsyscall(g, p->pid, NULL);
	for (size_t t = 1; t < p->nr_tids; t++) {
		check(sampo_writer__write_fork(g->w, p->pid, p->pid, p->tids[t], p->pid, 0, NULL),
		      "write FORK");
		check(sampo_writer__write_comm(g->w, p->pid, p->tids[t], p->comm, false, NULL),
		      "write COMM");
		g->nr_records += 2;
	}
}

static void write_init(struct gen *g)
{
	size_t nr = 2 * (size_t)g->o.nr_cpus;
	struct sampo_id_index_entry *idx = xcalloc(nr, sizeof(*idx));
	uint16_t *cpus = xcalloc(g->o.nr_cpus, sizeof(*cpus));
	struct sampo_thread_map_entry tm = { .pid = (uint64_t)-1 };
	struct sampo_writer_map kmap = {
		.misc = SAMPO_CPUMODE_KERNEL,
		.pid = (uint32_t)-1,
		.tid = 0,
		.start = KERNEL_TEXT + g->o.kaslr_slide,
		.len = KERNEL_TEXT_LEN,
		.pgoff = KERNEL_TEXT + g->o.kaslr_slide,
		.filename = "[kernel.kallsyms]_text",
	};

	for (size_t i = 0; i < nr; i++) {
		idx[i].id = g->id_base + i;
		idx[i].idx = i % g->o.nr_cpus;
		idx[i].cpu = i % g->o.nr_cpus;
		idx[i].tid = (uint64_t)-1;
	}
	for (unsigned int c = 0; c < g->o.nr_cpus; c++)
		cpus[c] = (uint16_t)c;

	check(sampo_writer__write_id_index(g->w, idx, nr), "write ID_INDEX");
	check(sampo_writer__write_mmap(g->w, &kmap, NULL), "write MMAP");
	check(sampo_writer__write_event_update(g->w, SAMPO_EVENT_UPDATE_UNIT, g->id_base, "msec"),
	      "write EVENT_UPDATE");
	check(sampo_writer__write_event_update_scale(g->w, g->id_base, 1e-6), "write EVENT_UPDATE");
	check(sampo_writer__write_thread_map(g->w, &tm, 1), "write THREAD_MAP");
	check(sampo_writer__write_cpu_map(g->w, cpus, g->o.nr_cpus), "write CPU_MAP");
	g->nr_records += 6;
	free(idx);
	free(cpus);

	/* pid order, as perf walks /proc; the idle task (pid 0) is implicit */
	for (size_t i = 1; i < g->nr_procs; i++)
		write_proc(g, &g->procs[i]);

	check(sampo_writer__write_finished_init(g->w), "write FINISHED_INIT");
	check(sampo_writer__write_finished_round(g->w), "write FINISHED_ROUND");
	g->nr_records += 2;
}

static void emit_sample(struct gen *g, unsigned int cpu, uint64_t time, uint32_t stack_idx,
			uint32_t pid, uint32_t tid)
{
	struct stack *st = &g->stacks[stack_idx];
	unsigned int variant = (unsigned int)__builtin_ctzll(rng_next(&g->rng) | 0x80);
	uint64_t ip = st->leaf_base + 3 * variant;
	struct sampo_sample s = {
		.ip = ip,
		.pid = pid,
		.tid = tid,
		.time = time,
		.id = g->id_base + cpu,
		.cpu = cpu,
		.period = SAMPLE_PERIOD_NS,
	};
	size_t bit = (size_t)stack_idx * NR_LEAF_VARIANTS + variant;

	if (rng_below(&g->rng, 64) == 0)
		s.period += rng_below(&g->rng, 40000);
	st->chain[st->leaf_idx] = ip;
	if (g->o.depth) {
		s.callchain_nr = st->nr;
		s.callchain = st->chain;
	}
	check(sampo_writer__write_sample(g->w, g->attr_clock, st->cpumode, &s), "write SAMPLE");
	if (st->leaf_dso < 0)
		g->kernel_hit = true;
	else
		g->dsos[st->leaf_dso].hit = true;
	if (!(g->seen[bit / 8] & (1u << (bit % 8)))) {
		g->seen[bit / 8] |= (uint8_t)(1u << (bit % 8));
		g->nr_distinct++;
	}
	if (!g->first_time || time < g->first_time)
		g->first_time = time;
	if (time > g->last_time)
		g->last_time = time;
	g->nr_samples++;
	g->nr_records++;
}

/* The sample_id trailer of a tracking record: dummy event of @cpu. */
static struct sampo_sample tracking_sid(const struct gen *g, uint32_t pid, uint32_t tid,
					uint64_t time, unsigned int cpu)
{
	struct sampo_sample sid = {
		.pid = pid,
		.tid = tid,
		.time = time,
		.id = g->id_base + g->o.nr_cpus + cpu,
		.cpu = cpu,
	};

	return sid;
}

/*
 * A short-lived process started while recording: a user process forks,
 * the child execs the same program (same addresses: a non-PIE binary),
 * samples for a while on @cpu and exits.
 */
struct spawn {
	uint32_t pid;
	uint32_t parent; /* index in procs[] */
	uint64_t left;	 /* samples still to take */
};

static void spawn_start(struct gen *g, struct spawn *sp, unsigned int cpu, uint64_t time)
{
	size_t nr_user = g->nr_procs - g->nr_user_first;
	const struct proc *p;
	struct sampo_sample sid;

	for (int tries = 0; tries < 16; tries++) {
		sp->parent = (uint32_t)(g->nr_user_first + rng_below(&g->rng, nr_user));
		if (g->procs[sp->parent].nr_stacks)
			break;
	}
	p = &g->procs[sp->parent];
	if (!p->nr_stacks)
		return;
	sp->pid = g->next_pid++;
	sp->left = 10 + rng_below(&g->rng, 200);

	sid = tracking_sid(g, p->pid, p->pid, time - 900000, cpu);
	check(sampo_writer__write_fork(g->w, sp->pid, p->pid, sp->pid, p->pid, time - 900000, &sid),
	      "write FORK");
	sid = tracking_sid(g, sp->pid, sp->pid, time - 600000, cpu);
	check(sampo_writer__write_comm(g->w, sp->pid, sp->pid, p->comm, true, &sid), "write COMM");
	g->nr_records += 2;
	for (size_t i = 0; i < p->nr_maps; i++) {
		sid = tracking_sid(g, sp->pid, sp->pid, time - 500000 + 1000 * i, cpu);
		write_mmap2(g, sp->pid, p->maps[i].start, &g->dsos[p->maps[i].dso], &sid);
	}
	g->nr_spawned++;
}

static void spawn_exit(struct gen *g, struct spawn *sp, unsigned int cpu, uint64_t time)
{
	const struct proc *p = &g->procs[sp->parent];
	struct sampo_sample sid = tracking_sid(g, sp->pid, sp->pid, time, cpu);

	check(sampo_writer__write_exit(g->w, sp->pid, p->pid, sp->pid, p->pid, time, &sid),
	      "write EXIT");
	g->nr_records++;
	sp->pid = 0;
}

/* Just after the last sample, inside the round (EXIT is a timed record too). */
static uint64_t exit_time(uint64_t last_sample, uint64_t round_end)
{
	return last_sample + 20000 < round_end ? last_sample + 20000 : round_end - 1;
}

static void write_samples(struct gen *g)
{
	uint64_t *clock = xcalloc(g->o.nr_cpus, sizeof(*clock));
	uint64_t round_start = 1000000000000ULL + rng_below(&g->rng, 4000000000000ULL);
	struct spawn sp = { 0 };
	uint64_t last = 0; /* time of the spawned process's last sample */

	g->seen = xcalloc(g->nr_stacks * NR_LEAF_VARIANTS / 8 + 1, 1);
	for (unsigned int c = 0; c < g->o.nr_cpus; c++)
		clock[c] = round_start + rng_below(&g->rng, SAMPLE_PERIOD_NS);

	while (g->nr_samples < g->o.nr_samples) {
		/* a flush of all ring buffers every 2000..6000 records */
		uint64_t records = 2000 + rng_below(&g->rng, 4001);
		uint64_t round_end = round_start + records / g->o.nr_cpus * SAMPLE_PERIOD_NS;
		unsigned int spawn_cpu = (unsigned int)rng_below(&g->rng, g->o.nr_cpus);
		bool spawn = rng_below(&g->rng, 4) == 0;

		for (unsigned int c = 0; c < g->o.nr_cpus; c++) {
			while (clock[c] < round_end && g->nr_samples < g->o.nr_samples) {
				uint64_t t = clock[c];

				if (c == spawn_cpu && spawn && !sp.pid &&
				    t >= round_start + SAMPLE_PERIOD_NS &&
				    rng_below(&g->rng, 64) == 0) {
					spawn_start(g, &sp, c, t);
					spawn = false;
				}
				if (c == spawn_cpu && sp.pid) {
					const struct proc *p = &g->procs[sp.parent];
					uint32_t idx = p->stacks[rng_below(&g->rng, p->nr_stacks)];

					emit_sample(g, c, t, idx, sp.pid, sp.pid);
					last = t;
					if (--sp.left == 0)
						spawn_exit(g, &sp, c, exit_time(last, round_end));
				} else {
					uint32_t idx = (uint32_t)zipf_pick(&g->stack_zipf, &g->rng);
					const struct proc *p = &g->procs[g->stacks[idx].proc];
					uint32_t tid = p->tids[rng_below(&g->rng, p->nr_tids)];

					emit_sample(g, c, t, idx, p->pid, tid);
				}
				clock[c] += SAMPLE_PERIOD_NS - 20000 + rng_below(&g->rng, 40001);
			}
			/* a spawned process does not outlive its CPU's part of the round */
			if (sp.pid && c == spawn_cpu)
				spawn_exit(g, &sp, c, exit_time(last, round_end));
		}
		check(sampo_writer__write_finished_round(g->w), "write FINISHED_ROUND");
		g->nr_records++;
		g->nr_rounds++;
		round_start = round_end;
	}
	free(clock);
}

/* ---- features ----------------------------------------------------------- */

/* A feature payload in the file's byte order. */
struct pbuf {
	uint8_t *p;
	size_t len, cap;
	bool swap;
};

static void pb_put(struct pbuf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 256;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			fprintf(stderr, "gen-perfdata: out of memory\n");
			exit(1);
		}
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void pb_u32(struct pbuf *b, uint32_t v)
{
	if (b->swap)
		v = bswap_32(v);
	pb_put(b, &v, sizeof(v));
}

static void pb_u64(struct pbuf *b, uint64_t v)
{
	if (b->swap)
		v = bswap_64(v);
	pb_put(b, &v, sizeof(v));
}

/* perf's string: u32 length, then the text NUL padded to a multiple of 64 */
static void pb_str(struct pbuf *b, const char *s)
{
	static const uint8_t zeros[64];
	size_t n = strlen(s) + 1, len = (n + 63) / 64 * 64;

	pb_u32(b, (uint32_t)len);
	pb_put(b, s, n - 1);
	pb_put(b, zeros, len - (n - 1));
}

static void set_feature(struct gen *g, int feat, struct pbuf *b)
{
	check(sampo_writer__set_feature(g->w, feat, b->p, b->len), "set feature");
	b->len = 0;
}

static void set_features(struct gen *g)
{
	struct pbuf b = { .swap = g->swap };
	unsigned int n = g->o.nr_cpus;
	char all[32], one[16], secs[32];
	uint32_t nrcpus[2] = { n, n };
	uint64_t total_mem = 24684084, sample_time[2] = { g->first_time, g->last_time };
	const char *names[] = { "cpu-clock", "dummy:HG" };
	static const struct {
		uint32_t type;
		const char *name;
	} pmus[] = { { 1, "software" },
		     { 8, "uprobe" },
		     { 5, "breakpoint" },
		     { 2, "tracepoint" },
		     { 9, "msr" } };
	const char *argv[16];
	size_t argc = 0;

	snprintf(all, sizeof(all), n > 1 ? "0-%u" : "%u", n - 1);
	snprintf(secs, sizeof(secs), "%" PRIu64,
		 (uint64_t)((g->last_time - g->first_time) / 1000000000ULL + 1));
	argv[argc++] = "/usr/bin/perf";
	argv[argc++] = "record";
	argv[argc++] = "-a";
	if (g->o.depth)
		argv[argc++] = "-g";
	argv[argc++] = "-F";
	argv[argc++] = "1000";
	argv[argc++] = "-o";
	argv[argc++] = "perf.data";
	argv[argc++] = "--";
	argv[argc++] = "sleep";
	argv[argc++] = secs;

	check(sampo_writer__set_feature_string(g->w, SAMPO_FEAT_HOSTNAME,
						 g->o.hostname ? g->o.hostname : "bench"), "hostname");
	check(sampo_writer__set_feature_string(g->w, SAMPO_FEAT_OSRELEASE, "6.1.0-gen-perfdata"),
	      "osrelease");
	check(sampo_writer__set_feature_string(g->w, SAMPO_FEAT_VERSION, "6.1.187"), "version");
	check(sampo_writer__set_feature_string(g->w, SAMPO_FEAT_ARCH, "x86_64"), "arch");
	check(sampo_writer__set_feature_u32s(g->w, SAMPO_FEAT_NRCPUS, nrcpus, 2), "nrcpus");
	check(sampo_writer__set_feature_string(g->w, SAMPO_FEAT_CPUDESC, "AMD EPYC"), "cpudesc");
	check(sampo_writer__set_feature_string(g->w, SAMPO_FEAT_CPUID, "AuthenticAMD,26,2,1"),
	      "cpuid");
	check(sampo_writer__set_feature_u64s(g->w, SAMPO_FEAT_TOTAL_MEM, &total_mem, 1),
	      "total_mem");
	check(sampo_writer__set_feature_strings(g->w, SAMPO_FEAT_CMDLINE, argv, argc), "cmdline");
	check(sampo_writer__set_feature_event_desc(g->w, names, 2), "event_desc");

	/* CPU_TOPOLOGY: one socket, one die, one thread per core */
	pb_u32(&b, 1);
	pb_str(&b, all);
	pb_u32(&b, n);
	for (unsigned int c = 0; c < n; c++) {
		snprintf(one, sizeof(one), "%u", c);
		pb_str(&b, one);
	}
	for (unsigned int c = 0; c < n; c++) {
		pb_u32(&b, c); /* core id */
		pb_u32(&b, 0); /* socket id */
	}
	pb_u32(&b, 1);
	pb_str(&b, all);
	for (unsigned int c = 0; c < n; c++)
		pb_u32(&b, 0); /* die id */
	set_feature(g, SAMPO_FEAT_CPU_TOPOLOGY, &b);

	/* NUMA_TOPOLOGY: one node, sizes in kB */
	pb_u32(&b, 1);
	pb_u32(&b, 0);
	pb_u64(&b, 24684084);
	pb_u64(&b, 23000000);
	pb_str(&b, all);
	set_feature(g, SAMPO_FEAT_NUMA_TOPOLOGY, &b);

	pb_u32(&b, sizeof(pmus) / sizeof(*pmus));
	for (size_t i = 0; i < sizeof(pmus) / sizeof(*pmus); i++) {
		pb_u32(&b, pmus[i].type);
		pb_str(&b, pmus[i].name);
	}
	set_feature(g, SAMPO_FEAT_PMU_MAPPINGS, &b);

	/* CACHE: version, count, then {level, line, sets, ways, type, size, map} */
	pb_u32(&b, 1);
	pb_u32(&b, 3 * n + 1);
	for (unsigned int c = 0; c < n; c++) {
		static const struct {
			uint32_t level, sets, ways;
			const char *type, *size;
		} per_cpu[] = { { 1, 64, 12, "Data", "48K" },
				{ 1, 64, 8, "Instruction", "32K" },
				{ 2, 2048, 8, "Unified", "1024K" } };

		snprintf(one, sizeof(one), "%u", c);
		for (size_t k = 0; k < 3; k++) {
			pb_u32(&b, per_cpu[k].level);
			pb_u32(&b, 64);
			pb_u32(&b, per_cpu[k].sets);
			pb_u32(&b, per_cpu[k].ways);
			pb_str(&b, per_cpu[k].type);
			pb_str(&b, per_cpu[k].size);
			pb_str(&b, one);
		}
	}
	pb_u32(&b, 3);
	pb_u32(&b, 64);
	pb_u32(&b, 32768);
	pb_u32(&b, 16);
	pb_str(&b, "Unified");
	pb_str(&b, "32768K");
	pb_str(&b, all);
	set_feature(g, SAMPO_FEAT_CACHE, &b);

	if (!g->o.pipe)
		check(sampo_writer__set_feature_u64s(g->w, SAMPO_FEAT_SAMPLE_TIME, sample_time, 2),
		      "sample_time");

	/* MEM_TOPOLOGY: version 1, 128 MiB blocks, one node with 200 of them */
	pb_u64(&b, 1);
	pb_u64(&b, 0x8000000);
	pb_u64(&b, 1);
	pb_u64(&b, 0);
	pb_u64(&b, 200);
	pb_u64(&b, 200);
	pb_u64(&b, 0xffffffff00ffffffULL);
	pb_u64(&b, ~0ULL);
	pb_u64(&b, ~0ULL);
	pb_u64(&b, 0xff);
	set_feature(g, SAMPO_FEAT_MEM_TOPOLOGY, &b);

	/*
	 * perf 6.1 warns about these two in an opposite-endian file even when
	 * they are empty ("... is not yet supported"), so leave them out there.
	 */
	if (!g->swap) {
		pb_u32(&b, 0);
		set_feature(g, SAMPO_FEAT_BPF_PROG_INFO, &b);
		pb_u32(&b, 0);
		set_feature(g, SAMPO_FEAT_BPF_BTF, &b);
	}
	pb_u32(&b, 0);
	set_feature(g, SAMPO_FEAT_PMU_CAPS, &b);
	free(b.p);
}

static void add_build_ids(struct gen *g)
{
	if (g->kernel_hit && !g->kernel_no_build_id)
		check(sampo_writer__add_build_id(g->w, SAMPO_CPUMODE_KERNEL, -1, g->kernel_build_id,
						 20, "[kernel.kallsyms]"),
		      "add build-id");
	for (size_t i = 0; i < g->nr_dsos; i++) {
		const struct dso *d = &g->dsos[i];

		if (d->hit)
			check(sampo_writer__add_build_id(g->w, SAMPO_CPUMODE_USER, -1, d->build_id,
							 20, d->path),
			      "add build-id");
	}
}

/* The GNU build-id note of the running kernel. */
static int read_host_build_id(uint8_t *bid)
{
	uint8_t notes[4096];
	size_t len, off = 0;
	FILE *f = fopen("/sys/kernel/notes", "rb");

	if (!f)
		return -errno;
	len = fread(notes, 1, sizeof(notes), f);
	fclose(f);
	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;

		memcpy(&namesz, notes + off, 4);
		memcpy(&descsz, notes + off + 4, 4);
		memcpy(&type, notes + off + 8, 4);
		off += 12;
		if (off + ((namesz + 3) & ~3u) + descsz > len)
			break;
		if (type == 3 && namesz == 4 && !memcmp(notes + off, "GNU", 4) && descsz == 20) {
			memcpy(bid, notes + off + 4, 20);
			return 0;
		}
		off += ((namesz + 3) & ~3u) + ((descsz + 3) & ~3u);
	}
	return -ENOENT;
}

static void set_kernel_build_id(struct gen *g)
{
	const char *s = g->o.kernel_build_id;

	fill_build_id(g->kernel_build_id, g->o.seed, "[kernel.kallsyms]");
	if (!strcmp(s, "fake"))
		return;
	if (!strcmp(s, "none")) {
		g->kernel_no_build_id = true;
	} else if (!strcmp(s, "host")) {
		if (read_host_build_id(g->kernel_build_id)) {
			fprintf(stderr, "gen-perfdata: no build-id in /sys/kernel/notes\n");
			exit(1);
		}
	} else {
		for (int i = 0; i < 20; i++) {
			unsigned int byte;

			if (strlen(s) != 40 || sscanf(s + 2 * i, "%2x", &byte) != 1) {
				fprintf(stderr, "gen-perfdata: bad build-id '%s'\n", s);
				exit(129);
			}
			g->kernel_build_id[i] = (uint8_t)byte;
		}
	}
}

/* ---- main ----------------------------------------------------------------- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: gen-perfdata -o FILE [options]\n"
		"\n"
		"Write a perf.data file like `perf record -a [-g] -F 1000` (perf 6.1) makes.\n"
		"\n"
		"  -o, --output FILE        file to write (\"-\" = stdout, needs --pipe)\n"
		"  -n, --samples N          samples to write (default 1000000; k/M suffixes)\n"
		"  -g, --callchain-depth D  mean callchain depth, D/2..3D/2 (default 0: none)\n"
		"      --dsos N             generated libraries libgen-NNNN.so (default 2000)\n"
		"      --threads N          user threads, spread over processes (default 400)\n"
		"      --cpus N             CPUs sampled (default 4)\n"
		"      --stacks N           distinct stack templates (default 8192)\n"
		"      --seed S             random seed (default 1)\n"
		"      --kernel-build-id ID build-id of [kernel.kallsyms]: \"none\" (default: no\n"
		"                           entry, perf then uses /proc/kallsyms), \"host\"\n"
		"                           (/sys/kernel/notes), \"fake\" (from the seed: perf\n"
		"                           warns that it finds no kallsyms) or 40 hex digits\n"
		"      --hostname NAME      HOSTNAME feature (default \"bench\")\n"
		"      --kaslr-slide BYTES  move the kernel by BYTES (a multiple of 2 MiB)\n"
		"      --big-endian         write a big-endian file\n"
		"      --pipe               write the pipe format\n"
		"  -q, --quiet              no summary on stderr\n"
		"\n"
		"No --compress: the writer does not write COMPRESSED records.\n");
}

static uint64_t parse_count(const char *s, const char *opt)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (*end == 'k' || *end == 'K')
		v *= 1000, end++;
	else if (*end == 'M' || *end == 'm')
		v *= 1000000, end++;
	if (errno || end == s || *end || s[0] == '-') {
		fprintf(stderr, "gen-perfdata: bad number '%s' for %s\n", s, opt);
		exit(129);
	}
	return v;
}

static void parse_args(int argc, char **argv, struct gen_opts *o)
{
	enum {
		OPT_DSOS = 256,
		OPT_THREADS,
		OPT_CPUS,
		OPT_STACKS,
		OPT_SEED,
		OPT_KBID,
		OPT_HOSTNAME,
		OPT_SLIDE,
		OPT_BE,
		OPT_PIPE
	};
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "samples", required_argument, NULL, 'n' },
		{ "callchain-depth", required_argument, NULL, 'g' },
		{ "dsos", required_argument, NULL, OPT_DSOS },
		{ "threads", required_argument, NULL, OPT_THREADS },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "stacks", required_argument, NULL, OPT_STACKS },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "kernel-build-id", required_argument, NULL, OPT_KBID },
		{ "hostname", required_argument, NULL, OPT_HOSTNAME },
		{ "kaslr-slide", required_argument, NULL, OPT_SLIDE },
		{ "big-endian", no_argument, NULL, OPT_BE },
		{ "pipe", no_argument, NULL, OPT_PIPE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:n:g:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'n':
			o->nr_samples = parse_count(optarg, "--samples");
			break;
		case 'g':
			o->depth = (unsigned int)parse_count(optarg, "--callchain-depth");
			break;
		case OPT_DSOS:
			o->nr_dsos = (unsigned int)parse_count(optarg, "--dsos");
			break;
		case OPT_THREADS:
			o->nr_threads = (unsigned int)parse_count(optarg, "--threads");
			break;
		case OPT_CPUS:
			o->nr_cpus = (unsigned int)parse_count(optarg, "--cpus");
			break;
		case OPT_STACKS:
			o->nr_stacks = (unsigned int)parse_count(optarg, "--stacks");
			break;
		case OPT_SEED:
			o->seed = parse_count(optarg, "--seed");
			break;
		case OPT_KBID:
			o->kernel_build_id = optarg;
			break;
		case OPT_HOSTNAME:
			o->hostname = optarg;
			break;
		case OPT_SLIDE:
			/* KASLR moves the kernel by 2 MiB steps within 1 GiB */
			o->kaslr_slide = parse_count(optarg, "--kaslr-slide");
			if (o->kaslr_slide % 0x200000 || o->kaslr_slide >= 0x3e000000) {
				fprintf(stderr, "gen-perfdata: --kaslr-slide: a multiple of 2 MiB "
						"under 992 MiB\n");
				exit(129);
			}
			break;
		case OPT_BE:
			o->big_endian = true;
			break;
		case OPT_PIPE:
			o->pipe = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			exit(129);
		}
	}
	if (optind != argc || !o->output) {
		usage(stderr);
		exit(129);
	}
	if (o->depth > MAX_CHAIN - 2 || o->nr_cpus < 1 || o->nr_cpus > 1024 || o->nr_threads < 1 ||
	    o->nr_threads > 1000000 || o->nr_stacks < 8 || o->nr_stacks > 10000000 ||
	    o->nr_dsos > 1000000) {
		fprintf(stderr,
			"gen-perfdata: out of range: need --callchain-depth <= %u, "
			"--cpus 1..1024, --threads 1..1000000, --stacks 8..10000000, "
			"--dsos <= 1000000\n",
			MAX_CHAIN - 2);
		exit(129);
	}
}

int main(int argc, char **argv)
{
	struct gen g = { .o = {
				 .nr_samples = 1000000,
				 .nr_dsos = 2000,
				 .nr_threads = 400,
				 .nr_cpus = 4,
				 .nr_stacks = 8192,
				 .seed = 1,
				 .kernel_build_id = "none",
			 } };
	SAMPO_OPTS(sampo_writer_opts, wopts);
	struct timespec t0, t1;
	const uint16_t one = 1;
	bool host_le = *(const uint8_t *)&one == 1;
	int err;

	parse_args(argc, argv, &g.o);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	g.rng.s = mix64(g.o.seed ^ 0x5a3b0ULL);
	g.kernel_seed = rng_next(&g.rng);
	set_kernel_build_id(&g);
	g.id_base = 100 + rng_below(&g.rng, 5000);

	build_dsos(&g);
	build_procs(&g);
	err = build_stacks(&g);
	check(err, "build stacks");

	wopts.byte_order = g.o.big_endian ? SAMPO_BYTE_ORDER_BIG : SAMPO_BYTE_ORDER_LITTLE;
	wopts.pipe = g.o.pipe;
	g.swap = g.o.big_endian == host_le;
	err = sampo_writer__open(g.o.output, &wopts, &g.w);
	if (err) {
		char buf[128];

		fprintf(stderr, "gen-perfdata: cannot open '%s': %s\n", g.o.output,
			sampo_strerror(err, buf, sizeof(buf)));
		return 1;
	}
	add_attrs(&g);
	if (g.o.pipe)
		set_features(&g);
	write_init(&g);
	write_samples(&g);
	if (!g.o.pipe) {
		set_features(&g);
		add_build_ids(&g);
	}
	err = sampo_writer__close(g.w);
	check(err, "close");
	clock_gettime(CLOCK_MONOTONIC, &t1);

	if (!g.o.quiet) {
		size_t nr_hit = 0, nr_maps = 0;

		for (size_t i = 0; i < g.nr_dsos; i++)
			nr_hit += g.dsos[i].hit;
		for (size_t i = 0; i < g.nr_procs; i++)
			nr_maps += g.procs[i].nr_maps;
		fprintf(stderr,
			"gen-perfdata: %s: %" PRIu64 " samples (%" PRIu64
			" distinct chains), %" PRIu64 " records, %" PRIu64
			" rounds, %zu processes, %zu DSOs (%zu with samples), %zu maps, "
			"%" PRIu64 " spawned, %.2f s\n",
			g.o.output, g.nr_samples, g.nr_distinct, g.nr_records, g.nr_rounds,
			g.nr_procs, g.nr_dsos, nr_hit + g.kernel_hit, nr_maps, g.nr_spawned,
			(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	}

	for (size_t i = 0; i < g.nr_dsos; i++)
		free(g.dsos[i].path);
	free(g.dsos);
	for (size_t i = 0; i < g.nr_procs; i++) {
		free(g.procs[i].tids);
		free(g.procs[i].maps);
		free(g.procs[i].stacks);
	}
	free(g.procs);
	for (size_t i = 0; i < g.nr_stacks; i++)
		free(g.stacks[i].chain);
	free(g.stacks);
	free(g.stack_zipf.cdf);
	free(g.seen);
	return 0;
}
