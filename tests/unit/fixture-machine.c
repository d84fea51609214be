// SPDX-License-Identifier: GPL-2.0
/* fixture-machine.c - see fixture-machine.h */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <sampo/hist.h>
#include <sampo/machine.h>
#include <sampo/sample.h>

#include "fixture-machine.h"

void fixture_process(struct sampo_machine *m, struct rec_buf *b, uint32_t type, size_t size)
{
	b->u.rec.header.type = type;
	b->u.rec.header.misc = SAMPO_CPUMODE_USER;
	b->u.rec.header.size = (uint16_t)((size + 7) & ~(size_t)7);
	memset(&b->ev, 0, sizeof(b->ev));
	b->ev.record = &b->u.rec;
	b->ev.sample.cpumode = SAMPO_CPUMODE_USER;
	b->ev.sample.time = (uint64_t)-1;
	assert_int_equal(sampo_machine__process_event(m, &b->ev), 0);
}

void fixture_task(struct sampo_machine *m, uint32_t type, uint32_t pid, uint32_t tid, uint32_t ppid,
		  uint32_t ptid)
{
	struct rec_buf b = { 0 };

	b.u.rec.fork.pid = pid;
	b.u.rec.fork.tid = tid;
	b.u.rec.fork.ppid = ppid;
	b.u.rec.fork.ptid = ptid;
	fixture_process(m, &b, type, sizeof(b.u.rec.fork));
}

void fixture_comm(struct sampo_machine *m, uint32_t pid, const char *name)
{
	struct rec_buf b = { 0 };

	b.u.rec.comm.pid = pid;
	b.u.rec.comm.tid = pid;
	strcpy(b.u.rec.comm.comm, name);
	fixture_process(m, &b, SAMPO_RECORD_COMM, sizeof(b.u.rec.comm) + strlen(name) + 1);
}

void fixture_mmap2(struct sampo_machine *m, uint32_t pid, uint64_t start, uint64_t pgoff,
		   uint64_t ino, const char *name)
{
	struct rec_buf b = { 0 };

	b.u.rec.mmap2.pid = pid;
	b.u.rec.mmap2.tid = pid;
	b.u.rec.mmap2.start = start;
	b.u.rec.mmap2.len = 0x10000;
	b.u.rec.mmap2.pgoff = pgoff;
	b.u.rec.mmap2.maj = 8;
	b.u.rec.mmap2.ino = ino;
	b.u.rec.mmap2.prot = 5; /* r-x */
	b.u.rec.mmap2.flags = 2;
	strcpy(b.u.rec.mmap2.filename, name);
	fixture_process(m, &b, SAMPO_RECORD_MMAP2, sizeof(b.u.rec.mmap2) + strlen(name) + 1);
}

void fixture_add(struct sampo_hists *h, uint32_t pid, uint64_t ip, const uint64_t *chain, size_t nr,
		 uint64_t period)
{
	uint64_t ips[16];
	struct sampo_sample s = { 0 };

	s.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_PERIOD;
	s.pid = s.tid = pid;
	s.ip = ip;
	s.period = period;
	s.cpu = 0;
	s.cpumode = SAMPO_CPUMODE_USER;
	if (chain) {
		assert_true(nr < sizeof(ips) / sizeof(ips[0]));
		ips[0] = SAMPO_CONTEXT_USER;
		memcpy(ips + 1, chain, nr * sizeof(*chain));
		s.sample_type |= SAMPO_SAMPLE_CALLCHAIN;
		s.callchain = ips;
		s.callchain_nr = nr + 1;
	}
	assert_int_equal(sampo_hists__add_sample(h, 0, &s), 0);
}
