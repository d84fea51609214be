// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-unwind.c - libFuzzer entry point for the DWARF unwinder
 * (lib/unwind.c): a sample's user registers and stack copy unwound with the
 * CFI of an ELF file (.eh_frame, .eh_frame_hdr, .debug_frame), both by the
 * fast path of cached CFA rules and by libdw (flag bit 0 sets
 * $SAMPO_UNWIND_SLOW), as an x86_64 sample or, flag bit 1, an arm64 one.
 *
 * The input is one little-endian header, then the ELF, then the stack:
 *
 *	u32 elf_size, u32 flags (bit 0 slow path, bit 1 arm64, bits 8-15 max_stack),
 *	u64 abi, u64 mask (perf's registers of the arch), u64 map_start, u64 map_pgoff,
 *	u64 regs[34] (the first popcount(mask) are the sample's, in mask order),
 *	elf_size bytes of ELF, the rest: the stack copy above SP
 *
 * The ELF goes into a memfd that an MMAP2 record of pid 1 maps at
 * map_start (its whole size, page-rounded, from map_pgoff), so the
 * symbolizer picks it by its /proc/self/fd path and the unwinder reads its
 * CFI and, past the stack copy, its bytes. The machine, symbolizer and
 * unwinder are new for each input (no build-id cache, no live kernel, no
 * preload). fuzz/mkseed-unwind.py makes seeds from a recorded sample.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sampo/event.h>
#include <sampo/machine.h>
#include <sampo/reader.h>
#include <sampo/sample.h>
#include <sampo/symbolizer.h>
#include <sampo/thread.h>
#include <sampo/unwind.h>

#include "memfd-input.h"

#define NR_REGS 34

struct input_hdr {
	uint32_t elf_size;
	uint32_t flags;
	uint64_t abi;
	uint64_t mask;
	uint64_t map_start;
	uint64_t map_pgoff;
	uint64_t regs[NR_REGS];
};

static struct memfd_input input;
static char empty_dir[] = "/tmp/sampo-fuzz-unwind.XXXXXX";

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* a record of @type handed to the machine as the reader would hand it */
static int feed(struct sampo_machine *m, union sampo_record *rec, uint32_t type, size_t size)
{
	struct sampo_event ev;

	rec->header.type = type;
	rec->header.misc = SAMPO_CPUMODE_USER;
	rec->header.size = (uint16_t)((size + 7) & ~(size_t)7);
	memset(&ev, 0, sizeof(ev));
	ev.record = rec;
	ev.sample.cpumode = SAMPO_CPUMODE_USER;
	ev.sample.misc = SAMPO_CPUMODE_USER;
	ev.sample.time = (uint64_t)-1;
	return sampo_machine__process_event(m, &ev);
}

static void run(const struct input_hdr *h, const uint8_t *stack, size_t stack_size)
{
	static union {
		union sampo_record rec;
		uint8_t bytes[512];
	} buf;
	SAMPO_OPTS(sampo_symbolizer_opts, so, .buildid_dir = empty_dir, .live_root = empty_dir,
		   .no_preload = true);
	SAMPO_OPTS(sampo_unwinder_opts, uo, .arch = (h->flags & 2) ? "arm64" : "x86");
	struct sampo_symbolizer *sym = NULL;
	struct sampo_unwinder *u = NULL;
	struct sampo_thread *thread = NULL;
	struct sampo_machine *m;
	struct sampo_sample s;
	const uint64_t *chain;
	size_t nr, nr_user;
	unsigned max_stack = (h->flags >> 8) & 0xff, ip_reg;
	uint64_t mask = h->mask & ((1ULL << NR_REGS) - 1);

	m = sampo_machine__new();
	if (!m)
		return;
	memset(&buf, 0, sizeof(buf));
	buf.rec.comm.pid = 1;
	buf.rec.comm.tid = 1;
	strcpy(buf.rec.comm.comm, "fuzz");
	if (feed(m, &buf.rec, SAMPO_RECORD_COMM, sizeof(buf.rec.comm) + 5))
		goto out;
	memset(&buf, 0, sizeof(buf));
	buf.rec.mmap2.pid = 1;
	buf.rec.mmap2.tid = 1;
	buf.rec.mmap2.start = h->map_start;
	buf.rec.mmap2.len = ((uint64_t)h->elf_size + 0xfff) & ~0xfffULL;
	buf.rec.mmap2.pgoff = h->map_pgoff;
	buf.rec.mmap2.prot = 5; /* PROT_READ | PROT_EXEC */
	buf.rec.mmap2.flags = 2; /* MAP_PRIVATE */
	strcpy(buf.rec.mmap2.filename, input.path);
	if (feed(m, &buf.rec, SAMPO_RECORD_MMAP2,
		 sizeof(buf.rec.mmap2) + strlen(input.path) + 1))
		goto out;
	thread = sampo_machine__find_thread(m, 1, 1);
	if (!thread)
		goto out;
	if (sampo_symbolizer__new(m, NULL, &so, &sym) || sampo_unwinder__new(sym, &uo, &u))
		goto out;

	memset(&s, 0, sizeof(s));
	s.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_REGS_USER |
			SAMPO_SAMPLE_STACK_USER;
	s.pid = 1;
	s.tid = 1;
	s.time = (uint64_t)-1;
	s.cpu = (uint32_t)-1;
	s.cpumode = SAMPO_CPUMODE_USER;
	s.misc = SAMPO_CPUMODE_USER;
	s.user_regs.abi = h->abi;
	s.user_regs.mask = mask;
	s.user_regs.regs = h->regs;
	/* the sampled IP: perf's x86 register 8 (IP), or arm64 register 32 (PC) */
	ip_reg = (h->flags & 2) ? 32 : 8;
	if (mask & (1ULL << ip_reg))
		s.ip = h->regs[__builtin_popcountll(mask & ((1ULL << ip_reg) - 1))];
	s.user_stack = stack;
	s.user_stack_size = stack_size;
	s.user_stack_dyn_size = stack_size;
	if (sampo_unwinder__wants(&s) &&
	    sampo_unwinder__chain(u, m, thread, &s, max_stack ? max_stack : 127, &chain, &nr,
				  &nr_user) == 0) {
		uint64_t sum = 0;

		if (nr_user > nr)
			__builtin_trap();
		for (size_t i = 0; i < nr; i++)
			sum += chain[i];
		(void)sum;
	}
out:
	sampo_thread__put(thread);
	sampo_unwinder__delete(u);
	sampo_symbolizer__delete(sym);
	sampo_machine__delete(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	struct input_hdr h;

	if (!init) {
		sampo_set_print(quiet);
		if (!mkdtemp(empty_dir))
			abort();
		memfd_input__create(&input, "fuzz-unwind.elf");
		/* no debug file from this machine's cache */
		setenv("HOME", empty_dir, 1);
		unsetenv("PERF_BUILDID_DIR");
		unsetenv("DEBUGINFOD_URLS");
		init = true;
	}
	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	data += sizeof(h);
	size -= sizeof(h);
	if (h.elf_size > size)
		return 0;
	memfd_input__fill(&input, data, h.elf_size);
	if (h.flags & 1)
		setenv("SAMPO_UNWIND_SLOW", "1", 1);
	else
		unsetenv("SAMPO_UNWIND_SLOW");
	run(&h, data + h.elf_size, size - h.elf_size);
	return 0;
}
