/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fixture-machine.h - a user process's records fed to a machine, and its
 * samples added to histograms, for the tests of the report histograms
 * (test-hist, test-hist-diff). Each record is processed at once; a failure
 * fails the calling test (cmocka).
 */
#ifndef SAMPO_TEST_FIXTURE_MACHINE_H
#define SAMPO_TEST_FIXTURE_MACHINE_H

#include <stddef.h>
#include <stdint.h>

#include <sampo/event.h>
#include <sampo/reader.h>

struct sampo_machine;
struct sampo_hists;

/* one record with room for its name, and the event that carries it */
struct rec_buf {
	union {
		union sampo_record rec;
		uint8_t bytes[512];
	} u;
	struct sampo_event ev;
};

/* process @b's record as a user-mode record of @type and @size (rounded up to 8) */
void fixture_process(struct sampo_machine *m, struct rec_buf *b, uint32_t type, size_t size);
/* a FORK or EXIT (@type) of (@pid, @tid) from (@ppid, @ptid) */
void fixture_task(struct sampo_machine *m, uint32_t type, uint32_t pid, uint32_t tid, uint32_t ppid,
		  uint32_t ptid);
/* COMM of process @pid (its main thread) */
void fixture_comm(struct sampo_machine *m, uint32_t pid, const char *name);
/* an r-x MMAP2 of 64 KiB of @name at @start */
void fixture_mmap2(struct sampo_machine *m, uint32_t pid, uint64_t start, uint64_t pgoff,
		   uint64_t ino, const char *name);
/* a user sample of @pid at @ip, event 0; @chain (leaf first, no markers, at most 15) may be NULL */
void fixture_add(struct sampo_hists *h, uint32_t pid, uint64_t ip, const uint64_t *chain, size_t nr,
		 uint64_t period);

#endif
