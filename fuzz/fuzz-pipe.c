// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-pipe.c - libFuzzer entry point for the reader on a pipe: the STREAM
 * source (lib/reader-source.c: a buffer that grows to the largest record
 * and never goes back), which fuzz-reader's memory images and fuzz-report's
 * memfd do not take.
 *
 * The input is written into a pipe made as large as the kernel allows
 * (F_SETPIPE_SZ, 1 MiB by default; a longer input is cut there, which is
 * one more truncated stream), the write end is closed, and the read end is
 * read as `sampo report -i -` reads standard input: file order when the
 * input's last byte is even, time order when it is odd, every sample field
 * and every pipe-mode feature (HEADER_FEATURE records) touched.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <sampo/feature.h>
#include <sampo/reader.h>

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void walk(int fd, bool ordered)
{
	char err[256];
	SAMPO_OPTS(sampo_reader_opts, opts, .ordered = ordered, .errbuf = err,
		   .errbuf_sz = sizeof(err));
	struct sampo_reader *r;
	struct sampo_event ev;
	uint64_t sum = 0;

	if (sampo_reader__open_fd(fd, "pipe", &opts, &r))
		return;
	while (sampo_reader__next(r, &ev) > 0) {
		sum += ev.record->header.size;
		for (uint64_t i = 0; i < ev.sample.callchain_nr; i++)
			sum += ev.sample.callchain[i];
		if (ev.sample.raw_size)
			sum += ev.sample.raw_data[ev.sample.raw_size - 1];
		if (ev.payload && ev.payload_size) /* NULL when too large to map */
			sum += ((const uint8_t *)ev.payload)[ev.payload_size - 1];
	}
	for (int feat = 0; feat < SAMPO_FEAT_MAX_BITS; feat++) {
		const void *p;
		size_t n;

		if (sampo_reader__feature(r, feat, &p, &n) == 0 && n)
			sum += ((const uint8_t *)p)[n - 1];
	}
	(void)sum;
	sampo_reader__close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	static size_t capacity;
	size_t done = 0;
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		abort();
	if (!init) {
		int c;

		sampo_set_print(quiet);
		c = fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
		capacity = c > 0 ? (size_t)c : 65536;
		init = true;
	} else {
		(void)fcntl(fds[1], F_SETPIPE_SZ, (int)capacity);
	}
	if (size > capacity)
		size = capacity;
	while (done < size) {
		ssize_t n = write(fds[1], data + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	close(fds[1]);
	walk(fds[0], size && (data[size - 1] & 1));
	close(fds[0]);
	return 0;
}
