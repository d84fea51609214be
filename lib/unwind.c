// SPDX-License-Identifier: LGPL-2.1
/*
 * unwind.c - DWARF unwinding of sampled user stacks (include/sampo/unwind.h).
 *
 * libdw unwinds a "process" it is attached to through callbacks: the
 * registers of the first frame (set_initial_registers, from the sample's
 * REGS_USER in the architecture's DWARF numbering), and memory
 * (memory_read: the sample's copy of the stack above SP, else the bytes of
 * the ELF file mapped at that address, as perf's access_mem() does). The
 * CFI comes from the modules reported to the Dwfl: .eh_frame (and
 * .eh_frame_hdr), then .debug_frame of the file or its separate debug file.
 *
 * Each process gets one Dwfl, attached once with a stub ELF header of the
 * recording architecture (so no module is needed to pick libdw's backend),
 * and kept across the process's samples: a module is reported the first
 * time a frame's PC falls in its map, and libdw keeps its ELF and parsed
 * CFI from then on. A PC whose map's file is not the module already
 * covering that address (the process exec'd or remapped) makes the Dwfl
 * start over, once per sample at most.
 *
 * The fast path (x86_64): most frames' CFI says "CFA = rsp or rbp + N,
 * return address at CFA + M, rbp kept or saved at CFA + K". Those rules
 * are read once per PC through libdw (dwarf_cfi_addrframe()) and cached
 * per process; a sample whose frames all have such rules and whose words
 * all lie in the stack copy is unwound with them alone, in the order and
 * with the stops libdw's handle_cfi() has. Any other sample (a CFI
 * expression, a signal frame, no CFI, a word outside the copy) is unwound
 * by libdw from the start. $SAMPO_UNWIND_SLOW sends every sample to libdw
 * (tests compare both); $SAMPO_UNWIND_DEBUG counts them on stderr.
 *
 * A frame with no module (its file missing, refused for its build-id, or
 * anonymous memory) ends the chain, as perf's unwinder ends it for lack of
 * unwind information: libdw would step out of it by frame pointers.
 *
 * Addresses follow perf (unwind-libunwind-local.c, unwind-libdw.c): the
 * first frame is the sampled IP as is, the others are return addresses less
 * one unless libdw says the frame is an activation (a signal frame); at
 * most max_stack frames.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <sampo/dso.h>
#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/sample.h>
#include <sampo/symbolizer.h>
#include <sampo/thread.h>
#include <sampo/unwind.h>

#include "internal/log.h"
#include "internal/opts.h"
#include "internal/util.h"

#define PROC_BUCKETS 1024u
#define DSO_BUCKETS  1024u

enum unwind_arch { ARCH_NONE, ARCH_X86_64, ARCH_ARM64 };

/* a DSO's file as the symbolizer chose it; fd opened on first memory read */
struct dso_file {
	struct dso_file *next;
	struct sampo_dso *dso; /* reference */
	char *path;	       /* NULL: no usable file */
	int fd;		       /* -1: not opened yet, -2: cannot be */
};

/* a module reported to a process's Dwfl: which DSO at which base */
struct module_rec {
	Dwarf_Addr lo, hi;
	const struct sampo_dso *dso; /* kept alive by its dso_file */
	uint64_t base;
	uint32_t gen; /* the process generation it was last checked against the maps in */
};

/*
 * What the CFI says at one PC, for the fast path (x86_64): the CFA is
 * rsp or rbp plus an offset, the return address is saved at CFA + ra_off
 * (or undefined: the outermost frame), rbp keeps its value, is saved at
 * CFA + rbp_off, or is lost, and rsp is the CFA. Anything else (a CFI
 * expression, a signal frame, no CFI) sends the sample to libdw.
 */
enum rule_kind { RULE_EMPTY, RULE_FAST, RULE_OUTERMOST, RULE_SLOW };
enum rbp_rule { RBP_SAME, RBP_SAVED, RBP_LOST };

struct rule {
	uint64_t pc; /* the lookup address (a caller's return address less one) */
	uint32_t gen;
	uint8_t kind, cfa_reg, rbp;
	int64_t cfa_off, ra_off, rbp_off;
};

#define RULE_SLOTS 8192u

struct proc {
	struct proc *next;
	int32_t pid;
	Dwfl *dwfl;
	struct module_rec *mods;
	size_t nr_mods, cap_mods;
	struct rule *rules; /* the fast path's cache, RULE_SLOTS entries; NULL: not made yet */
	/* perf unwinds a process once one of its maps' files can be read */
	bool readable;
	size_t maps_checked; /* its number of maps when last found unreadable */
};

struct sampo_unwinder {
	struct sampo_symbolizer *symbolizer;
	enum unwind_arch arch;
	Elf *arch_elf; /* a bare ELF header with the recording e_machine */
	unsigned char ehdr[64];
	struct proc *procs[PROC_BUCKETS];
	struct dso_file *files[DSO_BUCKETS];

	/* the sample being unwound, for the callbacks */
	struct sampo_machine *machine;
	struct sampo_thread *thread;
	const struct sampo_sample *sample;
	struct proc *proc;
	uint64_t sp;
	unsigned int max_stack;
	bool restart; /* a module clashed with the maps: start over with a new Dwfl */
	uint32_t gen; /* the process's maps generation at the sample */
	/*
	 * A pool's lock around everything shared between its unwinders: the
	 * machine (its lookups move caches and reference counts) and the
	 * symbolizer. NULL: one thread only.
	 */
	pthread_mutex_t *lock;
	bool slow_only; /* $SAMPO_UNWIND_SLOW: every sample through libdw (to compare) */
	uint64_t nr_fast, nr_slow;
	struct sampo_addr_location al;

	uint64_t *chain;
	size_t nr_chain, cap_chain, nr_user;

	struct sampo_unwind_stats stats;
};

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
};

static void shared_lock(struct sampo_unwinder *u)
{
	if (u->lock)
		pthread_mutex_lock(u->lock);
}

static void shared_unlock(struct sampo_unwinder *u)
{
	if (u->lock)
		pthread_mutex_unlock(u->lock);
}

static uint64_t hash_ptr(const void *p)
{
	uint64_t x = (uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return x;
}

/* ---- registers ---------------------------------------------------------- */

/* perf register @idx of the sample, if it was sampled */
static bool sample_reg(const struct sampo_regs *regs, unsigned int idx, uint64_t *ret)
{
	if (idx >= 64 || !(regs->mask & (1ULL << idx)) || !regs->regs)
		return false;
	*ret = regs->regs[__builtin_popcountll(regs->mask & ((1ULL << idx) - 1))];
	return true;
}

/* perf_event_x86_regs indexes, in x86_64 DWARF order (rax rdx rcx rbx rsi rdi rbp rsp r8-r15 rip) */
static const unsigned char x86_64_dwarf_to_perf[17] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
};

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct sampo_unwinder *u = arg;
	const struct sampo_regs *regs = &u->sample->user_regs;
	Dwarf_Word dregs[33];

	switch (u->arch) {
	case ARCH_X86_64:
		for (unsigned int i = 0; i < 17; i++)
			if (!sample_reg(regs, x86_64_dwarf_to_perf[i], &dregs[i]))
				dregs[i] = 0;
		return dwfl_thread_state_registers(thread, 0, 17, dregs);
	case ARCH_ARM64: {
		uint64_t pc = 0;

		/* x0-x30 and sp are DWARF 0-31 as perf numbers them; pc apart */
		for (unsigned int i = 0; i < 32; i++)
			if (!sample_reg(regs, i, &dregs[i]))
				dregs[i] = 0;
		(void)sample_reg(regs, 32, &pc);
		if (!dwfl_thread_state_registers(thread, 0, 32, dregs))
			return false;
		dwfl_thread_state_register_pc(thread, pc);
		return true;
	}
	default:
		return false;
	}
}

static bool sample_sp_ip(const struct sampo_unwinder *u, const struct sampo_sample *s,
			 uint64_t *sp, uint64_t *ip)
{
	switch (u->arch) {
	case ARCH_X86_64:
		return sample_reg(&s->user_regs, 7, sp) && sample_reg(&s->user_regs, 8, ip);
	case ARCH_ARM64:
		return sample_reg(&s->user_regs, 31, sp) && sample_reg(&s->user_regs, 32, ip);
	default:
		return false;
	}
}

/* ---- files -------------------------------------------------------------- */

/* the file the symbolizer reads @map's DSO from (build-id checked), or NULL */
static struct dso_file *dso_file(struct sampo_unwinder *u, struct sampo_map *map, uint64_t addr)
{
	struct sampo_dso *dso = sampo_map__dso(map);
	struct dso_file **head = &u->files[hash_ptr(dso) & (DSO_BUCKETS - 1)], *f;
	struct sampo_symbolizer_dso_info info;

	for (f = *head; f; f = f->next)
		if (f->dso == dso)
			return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->dso = sampo_dso__get(dso);
	f->fd = -1;
	/* the lookup makes the symbolizer choose (and check) the DSO's file */
	(void)sampo_symbolizer__find(u->symbolizer, map, addr);
	if (!sampo_dso__is_kernel(dso) &&
	    !sampo_symbolizer__dso_info(u->symbolizer, dso, &info) && info.path &&
	    info.placement == SAMPO_PLACED_FILE)
		f->path = strdup(info.path);
	f->next = *head;
	*head = f;
	return f;
}

/* perf's access_dso_mem(): a word of the file mapped at @addr */
static bool read_file_word(struct sampo_unwinder *u, uint64_t addr, Dwarf_Word *ret)
{
	struct sampo_map *map;
	struct dso_file *f = NULL;
	uint64_t off = 0;

	shared_lock(u);
	map = sampo_machine__find_map(u->machine, u->thread, SAMPO_CPUMODE_USER, addr, &u->al);
	if (map) {
		f = dso_file(u, map, addr);
		off = addr - sampo_map__start(map) + sampo_map__pgoff(map);
	}
	shared_unlock(u);
	if (!f || !f->path)
		return false;
	if (f->fd == -1) {
		f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
		if (f->fd < 0)
			f->fd = -2;
	}
	if (f->fd < 0)
		return false;
	return pread(f->fd, ret, sizeof(*ret), (off_t)off) == (ssize_t)sizeof(*ret);
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct sampo_unwinder *u = arg;
	const struct sampo_sample *s = u->sample;
	uint64_t size = s->user_stack_dyn_size;

	(void)dwfl;
	/* perf's bound: a word that reaches the end of the copy is not in it */
	if (addr >= u->sp && addr + sizeof(*result) > addr &&
	    addr + sizeof(*result) < u->sp + size) {
		memcpy(result, s->user_stack + (addr - u->sp), sizeof(*result));
		return true;
	}
	return read_file_word(u, addr, result);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct sampo_unwinder *u = arg;

	(void)dwfl;
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->sample->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl;
	(void)tid;
	*thread_argp = arg;
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/*
 * perf's unwind__prepare_access(): a process's stacks are unwound only
 * once a map whose file perf can open (by its recorded path) was added to
 * it; until then its DWARF samples get no user frame at all, not even the
 * IP. Checked again when the process has more maps. (perf also unwinds
 * the children of a fork whatever their files: not followed here, such a
 * child gets no user frame either.)
 */
static bool proc_readable(struct proc *p, struct sampo_thread *thread)
{
	size_t nr = sampo_thread__nr_maps(thread);

	if (p->readable || nr == p->maps_checked)
		return p->readable;
	for (size_t i = 0; i < nr && !p->readable; i++) {
		struct sampo_dso *dso = sampo_map__dso(sampo_thread__map(thread, i));
		const char *name = dso ? sampo_dso__long_name(dso) : NULL;

		if (name && name[0] == '/' && !sampo_dso__is_kernel(dso) && !access(name, R_OK))
			p->readable = true;
	}
	p->maps_checked = nr;
	return p->readable;
}

/* ---- processes ---------------------------------------------------------- */

static void proc_reset(struct proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	p->nr_mods = 0;
	if (p->rules)
		memset(p->rules, 0, RULE_SLOTS * sizeof(*p->rules));
}

static int proc_attach(struct sampo_unwinder *u, struct proc *p)
{
	p->dwfl = dwfl_begin(&dwfl_callbacks);
	if (!p->dwfl)
		return -ENOMEM;
	if (!dwfl_attach_state(p->dwfl, u->arch_elf, p->pid, &thread_callbacks, u)) {
		proc_reset(p);
		return -EINVAL;
	}
	return 0;
}

static struct proc *proc_get(struct sampo_unwinder *u, int32_t pid)
{
	struct proc **head = &u->procs[(uint32_t)pid & (PROC_BUCKETS - 1)], *p;

	for (p = *head; p; p = p->next)
		if (p->pid == pid)
			return p;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->next = *head;
	*head = p;
	return p;
}

/*
 * Make sure the module of @pc is reported, as the file of the map @pc falls
 * in, at that map's base. A module already there for another file or base
 * means the Dwfl is stale: ask for a restart.
 * Return: whether a module covers @pc (false: no map, or no file the
 * symbolizer would use for it: missing, refused for its build-id, anonymous
 * memory).
 */
static bool report_module(struct sampo_unwinder *u, Dwarf_Addr pc)
{
	struct proc *p = u->proc;
	struct module_rec *rec = NULL;
	struct sampo_map *map;
	struct dso_file *f = NULL;
	Dwfl_Module *mod;
	uint64_t base = 0;
	Dwarf_Addr lo, hi;

	/*
	 * A module this unwinder reported covers @pc, in the Dwfl by
	 * construction: no need to ask libdw (dwfl_addrmodule() for every
	 * frame was 4% of a DWARF report)
	 */
	for (size_t i = 0; i < p->nr_mods && !rec; i++)
		if (pc >= p->mods[i].lo && pc < p->mods[i].hi)
			rec = &p->mods[i];
	/* the maps have not changed since the module was checked */
	if (rec && rec->gen == u->gen)
		return true;
	/* libdw has a module at @pc outside every range reported here: as before, leave it */
	if (!rec && dwfl_addrmodule(p->dwfl, pc))
		return true;
	shared_lock(u);
	map = sampo_machine__find_map(u->machine, u->thread, SAMPO_CPUMODE_USER, pc, &u->al);
	if (map) {
		base = sampo_map__start(map) - sampo_map__pgoff(map);
		if (rec) {
			if (rec->dso != sampo_map__dso(map) || rec->base != base)
				u->restart = true;
			else
				rec->gen = u->gen;
			map = NULL;
		} else {
			f = dso_file(u, map, pc);
		}
	}
	shared_unlock(u);
	if (rec)
		return true; /* the same module, or a restart asked for */
	if (!f || !f->path)
		return false;
	if (sampo_array_grow((void **)&p->mods, &p->cap_mods, p->nr_mods + 1, sizeof(*p->mods)))
		return false;
	dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_elf(p->dwfl, sampo_dso__short_name(f->dso), f->path, -1, base, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!mod) {
		/* it overlaps a module of an older mapping */
		if (p->nr_mods)
			u->restart = true;
		return false;
	}
	dwfl_module_info(mod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	p->mods[p->nr_mods++] =
		(struct module_rec){ .lo = lo, .hi = hi, .dso = f->dso, .base = base, .gen = u->gen };
	return true;
}

static int push(struct sampo_unwinder *u, uint64_t ip)
{
	if (sampo_array_grow((void **)&u->chain, &u->cap_chain, u->nr_chain + 1, sizeof(*u->chain)))
		return -ENOMEM;
	u->chain[u->nr_chain++] = ip;
	return 0;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct sampo_unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation, has_module;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	/* before libdw looks for the CFI to step out of this frame */
	has_module = report_module(u, pc);
	if (u->restart)
		return DWARF_CB_ABORT;
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	if (push(u, pc))
		return DWARF_CB_ABORT;
	u->nr_user++;
	/*
	 * Without a module libdw has no CFI to step out of this frame and
	 * falls back to frame pointers (x86_64's ebl_unwind), which in code
	 * built without them takes words of the stack for return addresses:
	 * invented frames. perf's unwinder finds no unwind information there
	 * and ends the chain with this frame; so does this one.
	 */
	if (!has_module)
		return DWARF_CB_ABORT;
	return u->nr_user >= u->max_stack ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* ---- the fast path ------------------------------------------------------ */

/* a location "CFA + N" as dwarf_frame_register() gives it; false: anything else */
static bool cfa_plus(const Dwarf_Op *ops, size_t nops, int64_t *ret)
{
	if (nops == 1 && ops[0].atom == DW_OP_call_frame_cfa) {
		*ret = 0;
		return true;
	}
	if (nops == 2 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_plus_uconst) {
		*ret = (int64_t)ops[1].number;
		return true;
	}
	if (nops == 3 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_consts &&
	    ops[2].atom == DW_OP_plus) {
		*ret = (int64_t)ops[1].number;
		return true;
	}
	return false;
}

/* the rule at @pc from @cfi, as libdw's handle_cfi() would apply it */
static bool rule_from_cfi(Dwarf_CFI *cfi, Dwarf_Addr pc, struct rule *r)
{
	Dwarf_Frame *frame = NULL;
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal = false, ok = false;
	int64_t off;

	if (!cfi || dwarf_cfi_addrframe(cfi, pc, &frame) != 0 || !frame)
		return false;
	if (dwarf_frame_info(frame, NULL, NULL, &signal) < 0 || signal)
		goto slow;
	/* CFA = rsp/rbp + offset */
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1)
		goto slow;
	if (ops[0].atom == DW_OP_bregx) {
		r->cfa_reg = (uint8_t)ops[0].number;
		r->cfa_off = (int64_t)ops[0].number2;
	} else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		r->cfa_reg = (uint8_t)(ops[0].atom - DW_OP_breg0);
		r->cfa_off = (int64_t)ops[0].number;
	} else {
		goto slow;
	}
	if (r->cfa_reg != 6 && r->cfa_reg != 7)
		goto slow;
	/* rsp: the CFA (the ABI's rule) */
	if (dwarf_frame_register(frame, 7, ops_mem, &ops, &nops) != 0 || nops != 2 ||
	    ops[0].atom != DW_OP_call_frame_cfa || ops[1].atom != DW_OP_stack_value)
		goto slow;
	/* rbp: kept, saved, or lost */
	if (dwarf_frame_register(frame, 6, ops_mem, &ops, &nops) != 0)
		goto slow;
	if (nops == 0) {
		r->rbp = ops ? RBP_LOST : RBP_SAME;
	} else if (cfa_plus(ops, nops, &off)) {
		r->rbp = RBP_SAVED;
		r->rbp_off = off;
	} else {
		goto slow;
	}
	/* the return address (column 16) */
	if (dwarf_frame_register(frame, 16, ops_mem, &ops, &nops) != 0)
		goto slow;
	if (nops == 0 && ops) {
		r->kind = RULE_OUTERMOST;
	} else if (cfa_plus(ops, nops, &off)) {
		r->kind = RULE_FAST;
		r->ra_off = off;
	} else {
		goto slow;
	}
	ok = true;
	free(frame);
	return ok;
slow:
	free(frame);
	r->kind = RULE_SLOW;
	return true;
}

/* the cached rule at @pc (a lookup address), made on first use */
static const struct rule *rule_at(struct sampo_unwinder *u, struct proc *p, Dwarf_Addr pc)
{
	struct rule *r;
	Dwfl_Module *mod;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias = 0;

	if (!p->rules) {
		p->rules = calloc(RULE_SLOTS, sizeof(*p->rules));
		if (!p->rules)
			return NULL;
	}
	r = &p->rules[(pc * 0x9e3779b97f4a7c15ULL) >> 51 & (RULE_SLOTS - 1)];
	if (r->kind != RULE_EMPTY && r->pc == pc && r->gen == u->gen)
		return r;
	memset(r, 0, sizeof(*r));
	r->pc = pc;
	r->gen = u->gen;
	r->kind = RULE_SLOW;
	mod = dwfl_addrmodule(p->dwfl, pc);
	if (!mod)
		return r;
	/* libdw's order: .eh_frame, then .debug_frame */
	cfi = dwfl_module_eh_cfi(mod, &bias);
	if (rule_from_cfi(cfi, pc - bias, r))
		return r;
	cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (!rule_from_cfi(cfi, pc - bias, r))
		r->kind = RULE_SLOW;
	return r;
}

/* a word of the stack copy; false outside it (perf's bound) */
static bool stack_word(const struct sampo_unwinder *u, uint64_t addr, uint64_t *ret)
{
	uint64_t size = u->sample->user_stack_dyn_size;

	if (addr < u->sp || addr + 8 < addr || addr + 8 >= u->sp + size)
		return false;
	memcpy(ret, u->sample->user_stack + (addr - u->sp), 8);
	return true;
}

/*
 * Unwind x86_64 frames with cached rules, as libdw would: the frames go
 * into the chain as frame_cb() puts them. Return: true when done (the
 * chain is final), false when libdw must do the whole sample (a rule the
 * fast path does not apply, a word outside the stack copy, a module clash).
 */
static bool fast_unwind(struct sampo_unwinder *u, struct proc *p, uint64_t ip, uint64_t rsp,
			uint64_t rbp, bool rbp_known)
{
	uint64_t pc = ip, cfa = 0, ra = 0;

	for (unsigned int n = 0;; n++) {
		const struct rule *r;

		report_module(u, pc);
		if (u->restart)
			return false;
		r = rule_at(u, p, n ? pc - 1 : pc);
		if (!r || r->kind == RULE_SLOW)
			return false;
		if (r->kind == RULE_FAST) {
			if (r->cfa_reg == 6 && !rbp_known)
				return false;
			cfa = (r->cfa_reg == 7 ? rsp : rbp) + (uint64_t)r->cfa_off;
			if (!stack_word(u, cfa + (uint64_t)r->ra_off, &ra))
				return false;
			if (r->rbp == RBP_SAVED) {
				if (!stack_word(u, cfa + (uint64_t)r->rbp_off, &rbp))
					return false;
			} else if (r->rbp == RBP_LOST) {
				rbp_known = false;
			}
		}
		/* this frame is in, whatever comes of its caller */
		if (push(u, n ? pc - 1 : pc))
			return false;
		u->nr_user++;
		if (u->nr_user >= u->max_stack || r->kind == RULE_OUTERMOST || !ra)
			return true;
		pc = ra;
		rsp = cfa;
	}
}

/* a sample that stayed at its IP because that IP's DSO has no file here */
static void count_no_file(struct sampo_unwinder *u, struct sampo_machine *machine,
			  struct sampo_thread *thread, uint64_t ip)
{
	struct sampo_map *map;
	struct dso_file *f;

	shared_lock(u);
	map = sampo_machine__find_map(machine, thread, SAMPO_CPUMODE_USER, ip, &u->al);
	f = map ? dso_file(u, map, ip) : NULL;
	shared_unlock(u);
	if (!f || !f->path)
		u->stats.nr_no_file++;
}

/* ---- the API ------------------------------------------------------------ */

static enum unwind_arch arch_of(const char *arch)
{
	if (!arch) {
#if defined(__x86_64__)
		return ARCH_X86_64;
#elif defined(__aarch64__)
		return ARCH_ARM64;
#else
		return ARCH_NONE;
#endif
	}
	if (!strcmp(arch, "x86"))
		return ARCH_X86_64; /* 32-bit samples are told apart by their ABI */
	if (!strcmp(arch, "arm64"))
		return ARCH_ARM64;
	return ARCH_NONE;
}

int sampo_unwinder__new(struct sampo_symbolizer *symbolizer,
			const struct sampo_unwinder_opts *opts, struct sampo_unwinder **ret)
{
	struct sampo_unwinder *u;
	Elf64_Ehdr *eh;

	if (!symbolizer || !ret || !OPTS_VALID(opts, sampo_unwinder_opts))
		return -EINVAL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return -ENOMEM;
	u->symbolizer = symbolizer;
	u->arch = arch_of(OPTS_GET(opts, arch, NULL));
	u->slow_only = getenv("SAMPO_UNWIND_SLOW") != NULL;
	if (u->arch != ARCH_NONE) {
		/* libdw picks its backend (register set, CFI rules) by e_machine */
		elf_version(EV_CURRENT);
		eh = (Elf64_Ehdr *)u->ehdr;
		memcpy(eh->e_ident, ELFMAG, SELFMAG);
		eh->e_ident[EI_CLASS] = ELFCLASS64;
		eh->e_ident[EI_DATA] = ELFDATA2LSB;
		eh->e_ident[EI_VERSION] = EV_CURRENT;
		eh->e_type = ET_CORE;
		eh->e_machine = u->arch == ARCH_X86_64 ? EM_X86_64 : EM_AARCH64;
		eh->e_version = EV_CURRENT;
		eh->e_ehsize = sizeof(*eh);
		u->arch_elf = elf_memory((char *)u->ehdr, sizeof(u->ehdr));
		if (!u->arch_elf)
			u->arch = ARCH_NONE;
	}
	*ret = u;
	return 0;
}

void sampo_unwinder__delete(struct sampo_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < PROC_BUCKETS; i++) {
		while (u->procs[i]) {
			struct proc *p = u->procs[i];

			u->procs[i] = p->next;
			proc_reset(p);
			free(p->mods);
			free(p->rules);
			free(p);
		}
	}
	for (size_t i = 0; i < DSO_BUCKETS; i++) {
		while (u->files[i]) {
			struct dso_file *f = u->files[i];

			u->files[i] = f->next;
			if (f->fd >= 0)
				close(f->fd);
			free(f->path);
			sampo_dso__put(f->dso);
			free(f);
		}
	}
	if (getenv("SAMPO_UNWIND_DEBUG"))
		pr_warn("unwind: fast %llu slow %llu\n", (unsigned long long)u->nr_fast,
			(unsigned long long)u->nr_slow);
	sampo_addr_location__exit(&u->al);
	if (u->arch_elf)
		elf_end(u->arch_elf);
	free(u->chain);
	free(u);
}

bool sampo_unwinder__wants(const struct sampo_sample *s)
{
	return (s->sample_type & SAMPO_SAMPLE_REGS_USER) &&
	       (s->sample_type & SAMPO_SAMPLE_STACK_USER) && s->user_regs.abi &&
	       s->user_regs.regs && s->user_stack && s->user_stack_dyn_size;
}

void sampo_unwinder__stats(const struct sampo_unwinder *u, struct sampo_unwind_stats *ret)
{
	*ret = u->stats;
}

static int unwind_one(struct sampo_unwinder *u, struct sampo_machine *machine,
		      struct sampo_thread *thread, int32_t pid, uint32_t gen,
		      const struct sampo_sample *s, unsigned int max_stack,
		      const uint64_t **ret_chain, size_t *ret_nr, size_t *ret_nr_user)
{
	size_t nr_rec = (s->sample_type & SAMPO_SAMPLE_CALLCHAIN) && s->callchain ?
				(size_t)s->callchain_nr :
				0;
	uint64_t sp, ip;
	struct proc *p;
	bool readable;

	*ret_chain = nr_rec ? s->callchain : NULL;
	*ret_nr = nr_rec;
	if (ret_nr_user)
		*ret_nr_user = 0;
	if (!sampo_unwinder__wants(s))
		return 0;
	u->stats.nr_samples++;
	/* 32-bit tasks need the i386 register set: not done */
	if (u->arch == ARCH_NONE || s->user_regs.abi != 2 || !sample_sp_ip(u, s, &sp, &ip)) {
		u->stats.nr_unsupported++;
		return 0;
	}
	if (!max_stack)
		max_stack = 127;
	/* a 64 KiB stack copy holds no more frames than this (8 bytes each at least) */
	max_stack = MIN(max_stack, 8192u);
	u->nr_chain = 0;
	if (sampo_array_grow((void **)&u->chain, &u->cap_chain, nr_rec + 2 + max_stack,
			     sizeof(*u->chain)))
		return -ENOMEM;
	if (nr_rec)
		memcpy(u->chain, s->callchain, nr_rec * sizeof(*u->chain));
	u->nr_chain = nr_rec;
	u->chain[u->nr_chain++] = SAMPO_CONTEXT_USER;

	p = proc_get(u, pid);
	if (!p)
		return -ENOMEM;
	shared_lock(u);
	readable = proc_readable(p, thread);
	shared_unlock(u);
	if (!readable) {
		u->stats.nr_no_file++;
		u->nr_chain = 0;
		*ret_chain = nr_rec ? s->callchain : NULL;
		*ret_nr = nr_rec;
		return 0;
	}
	u->machine = machine;
	u->thread = thread;
	u->sample = s;
	u->proc = p;
	u->sp = sp;
	u->gen = gen;
	u->max_stack = max_stack;
	for (int attempt = 0; attempt < 2; attempt++) {
		uint64_t rbp = 0;
		bool rbp_known;

		u->restart = false;
		u->nr_user = 0;
		u->nr_chain = nr_rec + 1;
		if (!p->dwfl && proc_attach(u, p)) {
			u->stats.nr_unsupported++;
			break;
		}
		/* cached CFI rules first; libdw itself for what they do not cover */
		rbp_known = sample_reg(&s->user_regs, 6, &rbp);
		if (u->arch == ARCH_X86_64 && !u->slow_only &&
		    fast_unwind(u, p, ip, sp, rbp, rbp_known)) {
			u->nr_fast++;
			break;
		}
		u->nr_slow++;
		if (u->restart) {
			proc_reset(p);
			continue;
		}
		u->nr_user = 0;
		u->nr_chain = nr_rec + 1;
		(void)dwfl_getthread_frames(p->dwfl, (pid_t)s->tid, frame_cb, u);
		if (!u->restart)
			break;
		proc_reset(p);
	}
	/* perf's first entry is the sampled IP even when nothing unwinds */
	if (!u->nr_user) {
		u->chain[u->nr_chain++] = ip;
		u->nr_user = 1;
	}
	if (u->nr_user > 1)
		u->stats.nr_unwound++;
	else
		count_no_file(u, machine, thread, ip);
	u->sample = NULL;
	*ret_chain = u->chain;
	*ret_nr = u->nr_chain;
	if (ret_nr_user)
		*ret_nr_user = u->nr_user;
	return 0;
}

int sampo_unwinder__chain(struct sampo_unwinder *u, struct sampo_machine *machine,
			  struct sampo_thread *thread, const struct sampo_sample *s,
			  unsigned int max_stack, const uint64_t **ret_chain, size_t *ret_nr,
			  size_t *ret_nr_user)
{
	int32_t pid = sampo_thread__pid(thread);

	if (pid < 0)
		pid = (int32_t)s->pid;
	return unwind_one(u, machine, thread, pid, sampo_machine__process_generation(machine, pid),
			  s, max_stack, ret_chain, ret_nr, ret_nr_user);
}

/* ---- the pool ----------------------------------------------------------- */

#define POOL_BATCH   256u /* samples unwound between two hand-overs */
#define POOL_THREADS 8u

/* a queued sample: the record's parts the unwinder and the consumer read, copied or in place */
struct pool_job {
	struct sampo_sample s;
	struct sampo_machine *machine;
	struct sampo_thread *thread; /* reference */
	int32_t pid;
	uint32_t gen;
	unsigned int max_stack;
	int cookie;
	uint64_t *regs;	  /* copy of the user registers */
	uint8_t *stack;	  /* copy of the stack's dyn_size bytes */
	size_t stack_cap, regs_cap;
	uint64_t *chain; /* the callchain: the recorded one, then the unwound one */
	size_t chain_cap;
	uint8_t *raw; /* copy of the raw data (a tracepoint's fields: report's trace key) */
	size_t raw_cap;
	size_t nr_user;
	int err;
};

struct sampo_unwind_pool {
	struct sampo_unwinder **u; /* one per thread; u[0] is the caller's */
	unsigned int nr_u;	   /* made */
	unsigned int nr_threads;   /* running, the caller's included */
	pthread_t *tids;
	pthread_mutex_t lock;	   /* the shared machine and symbolizer */
	pthread_mutex_t run_lock;  /* the batch hand-over */
	pthread_cond_t run_cond, done_cond;
	uint64_t batch_seq;	   /* bumped for each batch the helpers should work on */
	unsigned int nr_busy;	   /* helpers still on the current batch */
	bool stop;
	atomic_uint next;	   /* next job of the batch to take */
	struct pool_job jobs[POOL_BATCH];
	unsigned int nr_jobs;
	sampo_unwind_deliver_fn deliver;
	void *ctx;
};

static int copy_into(void **buf, size_t *cap, const void *src, size_t len)
{
	if (sampo_array_grow(buf, cap, len ? len : 1, 1))
		return -ENOMEM;
	if (len)
		memcpy(*buf, src, len);
	return 0;
}

/* unwind the batch's jobs, taken one at a time, with unwinder @u */
static void pool_work(struct sampo_unwind_pool *pool, struct sampo_unwinder *u)
{
	unsigned int i;

	while ((i = atomic_fetch_add(&pool->next, 1)) < pool->nr_jobs) {
		struct pool_job *j = &pool->jobs[i];
		const uint64_t *chain;
		size_t nr;

		j->err = unwind_one(u, j->machine, j->thread, j->pid, j->gen, &j->s, j->max_stack,
				    &chain, &nr, &j->nr_user);
		if (j->err)
			continue;
		/* the unwinder's buffer is its own: the chain moves into the job */
		if (chain != j->s.callchain) {
			j->err = copy_into((void **)&j->chain, &j->chain_cap, chain,
					   nr * sizeof(*chain));
			j->s.callchain = j->chain;
		}
		j->s.callchain_nr = nr;
		if (j->nr_user)
			j->s.sample_type |= SAMPO_SAMPLE_CALLCHAIN;
	}
}

struct helper_arg {
	struct sampo_unwind_pool *pool;
	unsigned int idx;
};

static void *pool_helper(void *arg)
{
	struct helper_arg *ha = arg;
	struct sampo_unwind_pool *pool = ha->pool;
	struct sampo_unwinder *u = pool->u[ha->idx];
	uint64_t seen = 0;

	free(ha);
	pthread_mutex_lock(&pool->run_lock);
	for (;;) {
		while (!pool->stop && pool->batch_seq == seen)
			pthread_cond_wait(&pool->run_cond, &pool->run_lock);
		if (pool->stop)
			break;
		seen = pool->batch_seq;
		pthread_mutex_unlock(&pool->run_lock);
		pool_work(pool, u);
		pthread_mutex_lock(&pool->run_lock);
		if (--pool->nr_busy == 0)
			pthread_cond_signal(&pool->done_cond);
	}
	pthread_mutex_unlock(&pool->run_lock);
	return NULL;
}

int sampo_unwind_pool__new(struct sampo_symbolizer *symbolizer,
			   const struct sampo_unwinder_opts *opts, unsigned int nr_threads,
			   sampo_unwind_deliver_fn deliver, void *ctx, struct sampo_unwind_pool **ret)
{
	struct sampo_unwind_pool *pool;
	int err;

	if (!deliver || !ret)
		return -EINVAL;
	if (!nr_threads) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		nr_threads = n > 0 ? (unsigned int)n : 1;
	}
	nr_threads = MIN(nr_threads, POOL_THREADS);
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return -ENOMEM;
	pool->deliver = deliver;
	pool->ctx = ctx;
	pthread_mutex_init(&pool->lock, NULL);
	pthread_mutex_init(&pool->run_lock, NULL);
	pthread_cond_init(&pool->run_cond, NULL);
	pthread_cond_init(&pool->done_cond, NULL);
	pool->u = calloc(nr_threads, sizeof(*pool->u));
	pool->tids = calloc(nr_threads, sizeof(*pool->tids));
	if (!pool->u || !pool->tids) {
		sampo_unwind_pool__delete(pool);
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < nr_threads; i++) {
		err = sampo_unwinder__new(symbolizer, opts, &pool->u[i]);
		if (err) {
			sampo_unwind_pool__delete(pool);
			return err;
		}
		pool->nr_u++;
		pool->u[i]->lock = nr_threads > 1 ? &pool->lock : NULL;
	}
	/* helpers that cannot start leave the work to the others */
	for (unsigned int i = 1; i < nr_threads; i++) {
		struct helper_arg *ha = malloc(sizeof(*ha));

		if (!ha)
			break;
		ha->pool = pool;
		ha->idx = i;
		if (pthread_create(&pool->tids[i], NULL, pool_helper, ha)) {
			free(ha);
			break;
		}
		pool->nr_threads = i;
	}
	pool->nr_threads++; /* the caller's */
	*ret = pool;
	return 0;
}

int sampo_unwind_pool__flush(struct sampo_unwind_pool *pool)
{
	int err = 0;

	if (!pool->nr_jobs)
		return 0;
	atomic_store(&pool->next, 0);
	if (pool->nr_threads > 1) {
		pthread_mutex_lock(&pool->run_lock);
		pool->nr_busy = pool->nr_threads - 1;
		pool->batch_seq++;
		pthread_cond_broadcast(&pool->run_cond);
		pthread_mutex_unlock(&pool->run_lock);
	}
	pool_work(pool, pool->u[0]);
	if (pool->nr_threads > 1) {
		pthread_mutex_lock(&pool->run_lock);
		while (pool->nr_busy)
			pthread_cond_wait(&pool->done_cond, &pool->run_lock);
		pthread_mutex_unlock(&pool->run_lock);
	}
	for (unsigned int i = 0; i < pool->nr_jobs; i++) {
		struct pool_job *j = &pool->jobs[i];

		if (!err)
			err = j->err;
		if (!err)
			err = pool->deliver(pool->ctx, j->machine, j->thread, &j->s, j->nr_user,
					    j->cookie);
		sampo_thread__put(j->thread);
		j->thread = NULL;
	}
	pool->nr_jobs = 0;
	return err;
}

/*
 * Queue @s; @copy: keep a copy of what the unwinder and the consumer read
 * (the record goes away once this returns: a pipe's, a decompressed one),
 * else point at it where it is (the caller keeps it until delivered: a file
 * mapped whole, where copying 8 KiB of stack a sample was a tenth of a
 * report's time).
 */
static int pool_add(struct sampo_unwind_pool *pool, struct sampo_machine *machine,
		    struct sampo_thread *thread, const struct sampo_sample *s,
		    unsigned int max_stack, int cookie, bool copy)
{
	struct pool_job *j = &pool->jobs[pool->nr_jobs];
	size_t nr_regs = s->user_regs.regs ? (size_t)__builtin_popcountll(s->user_regs.mask) : 0;
	size_t stack_len = s->user_stack ? (size_t)s->user_stack_dyn_size : 0;
	size_t nr_chain = s->callchain ? (size_t)s->callchain_nr : 0;
	int err = 0;

	j->s = *s;
	j->machine = machine;
	j->thread = sampo_thread__get(thread);
	j->pid = sampo_thread__pid(thread) >= 0 ? sampo_thread__pid(thread) : (int32_t)s->pid;
	j->gen = sampo_machine__process_generation(machine, j->pid);
	j->max_stack = max_stack;
	j->cookie = cookie;
	j->nr_user = 0;
	j->err = 0;
	if (copy) {
		err = copy_into((void **)&j->regs, &j->regs_cap, s->user_regs.regs,
				nr_regs * sizeof(uint64_t));
		if (!err)
			err = copy_into((void **)&j->stack, &j->stack_cap, s->user_stack,
					stack_len);
		if (!err)
			err = copy_into((void **)&j->chain, &j->chain_cap, s->callchain,
					nr_chain * sizeof(uint64_t));
		if (!err && s->raw_data && s->raw_size)
			err = copy_into((void **)&j->raw, &j->raw_cap, s->raw_data, s->raw_size);
	}
	if (err) {
		sampo_thread__put(j->thread);
		j->thread = NULL;
		return err;
	}
	if (copy) {
		j->s.user_regs.regs = s->user_regs.regs ? j->regs : NULL;
		j->s.user_stack = s->user_stack ? j->stack : NULL;
		j->s.callchain = s->callchain ? j->chain : NULL;
		j->s.raw_data = s->raw_data && s->raw_size ? j->raw : NULL;
	}
	j->s.raw_size = j->s.raw_data ? s->raw_size : 0;
	/* pointers into the record that the consumers do not need after */
	j->s.branch = NULL;
	j->s.branch_nr = 0;
	j->s.read_values = NULL;
	j->s.read_nr_words = 0;
	j->s.aux_data = NULL;
	j->s.aux_size = 0;
	j->s.intr_regs.regs = NULL;
	j->s.intr_regs.abi = 0;
	if (++pool->nr_jobs == POOL_BATCH)
		return sampo_unwind_pool__flush(pool);
	return 0;
}

int sampo_unwind_pool__add(struct sampo_unwind_pool *pool, struct sampo_machine *machine,
			   struct sampo_thread *thread, const struct sampo_sample *s,
			   unsigned int max_stack, int cookie)
{
	return pool_add(pool, machine, thread, s, max_stack, cookie, true);
}

int sampo_unwind_pool__add_ref(struct sampo_unwind_pool *pool, struct sampo_machine *machine,
			       struct sampo_thread *thread, const struct sampo_sample *s,
			       unsigned int max_stack, int cookie)
{
	return pool_add(pool, machine, thread, s, max_stack, cookie, false);
}

void sampo_unwind_pool__stats(const struct sampo_unwind_pool *pool, struct sampo_unwind_stats *ret)
{
	memset(ret, 0, sizeof(*ret));
	for (unsigned int i = 0; i < pool->nr_u; i++) {
		const struct sampo_unwind_stats *st = &pool->u[i]->stats;

		ret->nr_samples += st->nr_samples;
		ret->nr_unwound += st->nr_unwound;
		ret->nr_unsupported += st->nr_unsupported;
		ret->nr_no_file += st->nr_no_file;
	}
}

void sampo_unwind_pool__delete(struct sampo_unwind_pool *pool)
{
	if (!pool)
		return;
	if (pool->tids) {
		pthread_mutex_lock(&pool->run_lock);
		pool->stop = true;
		pthread_cond_broadcast(&pool->run_cond);
		pthread_mutex_unlock(&pool->run_lock);
		for (unsigned int i = 1; i < pool->nr_threads; i++)
			pthread_join(pool->tids[i], NULL);
	}
	for (unsigned int i = 0; i < pool->nr_jobs; i++)
		sampo_thread__put(pool->jobs[i].thread);
	for (unsigned int i = 0; i < POOL_BATCH; i++) {
		free(pool->jobs[i].regs);
		free(pool->jobs[i].stack);
		free(pool->jobs[i].chain);
		free(pool->jobs[i].raw);
	}
	for (unsigned int i = 0; i < pool->nr_u; i++)
		sampo_unwinder__delete(pool->u[i]);
	free(pool->u);
	free(pool->tids);
	pthread_mutex_destroy(&pool->lock);
	pthread_mutex_destroy(&pool->run_lock);
	pthread_cond_destroy(&pool->run_cond);
	pthread_cond_destroy(&pool->done_cond);
	free(pool);
}
