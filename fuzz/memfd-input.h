/* SPDX-License-Identifier: GPL-2.0 */
/*
 * memfd-input.h - the input of a fuzz target as a file: a memfd, refilled
 * for each input and opened by the library through its /proc/self/fd path,
 * as it opens a perf.data or an ELF it is given. Shared by the targets
 * whose code under test takes a path (fuzz-report, fuzz-srcline,
 * fuzz-unwind); a failure of the set-up itself aborts.
 */
#ifndef SAMPO_FUZZ_MEMFD_INPUT_H
#define SAMPO_FUZZ_MEMFD_INPUT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

struct memfd_input {
	int fd;
	char path[64]; /* "/proc/self/fd/N" */
};

static inline void memfd_input__create(struct memfd_input *in, const char *name)
{
	in->fd = memfd_create(name, MFD_CLOEXEC);
	if (in->fd < 0)
		abort();
	snprintf(in->path, sizeof(in->path), "/proc/self/fd/%d", in->fd);
}

/* the file's bytes become @data, @size of them */
static inline void memfd_input__fill(const struct memfd_input *in, const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (ftruncate(in->fd, 0))
		abort();
	while (done < size) {
		ssize_t n = pwrite(in->fd, data + done, size - done, (off_t)done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
}

#endif
