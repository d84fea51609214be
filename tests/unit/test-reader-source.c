// SPDX-License-Identifier: GPL-2.0
/*
 * test-reader-source.c - the reader's byte ranges (lib/reader-source.c) from
 * each kind of source, checked byte for byte against a pattern that names
 * its own offset: a file mapped whole (ranges stay valid after pages are
 * given back), a file read through moving windows (the path of 32-bit hosts
 * and of a refused whole mapping, which no CLI test reaches on a 64-bit
 * host), a pipe, and a memory image; ranges inside a window, across its end,
 * larger than it, backwards, and past the end of the input.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "internal/reader-source.h"

/* 10 MiB and a bit: two and a half windows, and an end that is no page boundary */
#define FILE_SIZE ((size_t)(10U << 20) + 123)

/* the byte at @off: differs between neighbouring bytes, pages and windows */
static uint8_t pattern(uint64_t off)
{
	return (uint8_t)(off ^ (off >> 8) ^ (off >> 16) ^ (off >> 24));
}

static uint8_t *pattern_buf(size_t len)
{
	uint8_t *buf = malloc(len);

	assert_non_null(buf);
	for (size_t i = 0; i < len; i++)
		buf[i] = pattern(i);
	return buf;
}

/* a temporary regular file of FILE_SIZE pattern bytes, opened for reading */
static int pattern_file(void)
{
	char path[] = "/tmp/sampo-test-source-XXXXXX";
	uint8_t *buf = pattern_buf(FILE_SIZE);
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(write(fd, buf, FILE_SIZE), (ssize_t)FILE_SIZE);
	free(buf);
	return fd;
}

static void source_init_file(struct sampo_source *src, int fd, bool windows)
{
	memset(src, 0, sizeof(*src));
	src->kind = SAMPO_SOURCE_MMAP;
	src->fd = fd;
	src->size = FILE_SIZE;
	src->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	/* what a refused whole mapping leaves behind: windows from then on */
	src->whole_failed = windows;
}

/* a range [@off, @off + @len) handed out, and right */
static const uint8_t *get_ok(struct sampo_source *src, uint64_t off, size_t len)
{
	const uint8_t *p = NULL;
	size_t avail = 0;

	assert_int_equal(sampo_source__get(src, off, len, &p, &avail), 0);
	assert_non_null(p);
	for (size_t i = 0; i < len; i++)
		if (p[i] != pattern(off + i))
			fail_msg("byte %zu of the range at %llu: %u, not %u", i,
				 (unsigned long long)off, p[i], pattern(off + i));
	return p;
}

/* a range past the end: 1, and how much of it is there */
static void get_short(struct sampo_source *src, uint64_t off, size_t len, size_t want_avail)
{
	const uint8_t *p = NULL;
	size_t avail = 12345;

	assert_int_equal(sampo_source__get(src, off, len, &p, &avail), 1);
	assert_int_equal(avail, want_avail);
}

/* the ranges every seekable source must hand out right */
static void check_ranges(struct sampo_source *src)
{
	const uint64_t win = SAMPO_SOURCE_WINDOW;

	get_ok(src, 0, 100);
	get_ok(src, 4096 - 8, 16);		     /* across a page */
	get_ok(src, win - 50, 100);		     /* across a window's end */
	get_ok(src, win + 1000, (size_t)win + 4096); /* larger than a window */
	get_ok(src, 100, 10);			     /* backwards */
	get_ok(src, FILE_SIZE - 10, 10);	     /* the last bytes */
	get_ok(src, 2 * win - 1, 2);		     /* forwards again, across the second window */
	get_short(src, FILE_SIZE - 10, 20, 10);
	get_short(src, FILE_SIZE, 1, 0);
	get_short(src, FILE_SIZE + 4096, 1, 0);
	get_short(src, 0, FILE_SIZE + 1, FILE_SIZE);
	get_ok(src, 0, FILE_SIZE); /* the whole input in one range */
}

static void test_source__windows_hand_out_every_range(void **state)
{
	struct sampo_source src;
	const uint8_t *lo, *hi;
	int fd = pattern_file();

	(void)state;
	source_init_file(&src, fd, true);
	check_ranges(&src);
	/* no range outlives the next call: the reader must copy what it keeps */
	assert_false(sampo_source__stable(&src, &lo, &hi));
	assert_false(src.whole);
	sampo_source__release(&src);
	close(fd);
}

static void test_source__whole_file_ranges_outlive_dropped_pages(void **state)
{
	struct sampo_source src;
	const uint8_t *lo = NULL, *hi = NULL, *first, *middle;
	int fd = pattern_file();

	(void)state;
	source_init_file(&src, fd, false);
	first = get_ok(&src, 0, 100);
	assert_true(src.whole);
	assert_true(sampo_source__stable(&src, &lo, &hi));
	assert_ptr_equal(lo, first);
	assert_int_equal(hi - lo, FILE_SIZE);
	middle = get_ok(&src, 5U << 20, 4096);
	check_ranges(&src);
	/* pages given back behind the reader are read again when touched */
	sampo_source__drop_before(&src, 8U << 20);
	sampo_source__drop_before(&src, FILE_SIZE + 4096); /* never past the mapping */
	for (size_t i = 0; i < 100; i++)
		assert_int_equal(first[i], pattern(i));
	for (size_t i = 0; i < 4096; i++)
		assert_int_equal(middle[i], pattern((5U << 20) + i));
	sampo_source__release(&src);
	close(fd);
}

/* whether the page at @p is mapped in this process (bit 63 of /proc/self/pagemap) */
static bool page_mapped(const void *p)
{
	uint64_t entry = 0;
	long page = sysconf(_SC_PAGESIZE);
	FILE *f = fopen("/proc/self/pagemap", "rb");

	assert_non_null(f);
	assert_int_equal(fseeko(f, (off_t)((uintptr_t)p / (uintptr_t)page * 8), SEEK_SET), 0);
	assert_int_equal(fread(&entry, sizeof(entry), 1, f), 1);
	fclose(f);
	return entry >> 63;
}

/*
 * A page read again far behind the reader (a record the ordering queue held
 * long, or the unwind pool's in-place sample) is given back again later: a
 * 7.9 GB report kept 4.6 GB resident when only the last 16 MiB behind were.
 */
static void test_source__whole_file_far_behind_pages_given_back(void **state)
{
	const uint64_t size = 160U << 20, step = 2U << 20;
	char path[] = "/tmp/sampo-test-source-XXXXXX";
	struct sampo_source src;
	const uint8_t *first = NULL;
	size_t avail;
	uint64_t off;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0); /* sparse: no bytes written */
	source_init_file(&src, fd, false);
	src.size = size;
	assert_int_equal(sampo_source__get(&src, 0, 64, &first, &avail), 0);
	assert_true(src.whole);
	assert_int_equal(first[0], 0);
	assert_true(page_mapped(first));
	/* read forwards, giving back what is behind, as the reader does */
	for (off = step; off <= (32U << 20); off += step)
		sampo_source__drop_before(&src, off);
	assert_false(page_mapped(first));
	assert_int_equal(first[10], 0); /* read again, 32 MiB behind */
	assert_true(page_mapped(first));
	for (; off < size; off += step)
		sampo_source__drop_before(&src, off);
	assert_false(page_mapped(first));
	sampo_source__release(&src);
	close(fd);
}

static void test_source__memory_image_in_place(void **state)
{
	struct sampo_source src = { .kind = SAMPO_SOURCE_MEM, .fd = -1, .size = FILE_SIZE };
	uint8_t *buf = pattern_buf(FILE_SIZE);
	const uint8_t *lo, *hi;

	(void)state;
	src.mem = buf;
	check_ranges(&src);
	assert_true(sampo_source__stable(&src, &lo, &hi));
	assert_ptr_equal(lo, buf);
	assert_ptr_equal(hi, buf + FILE_SIZE);
	assert_ptr_equal(get_ok(&src, 77, 3), buf + 77);
	sampo_source__release(&src);
	free(buf);
}

/* a pipe whose writer (a child) sends FILE_SIZE pattern bytes in odd-sized writes */
static int pattern_pipe(pid_t *ret_pid)
{
	int p[2];
	pid_t pid;

	assert_int_equal(pipe(p), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint8_t *buf = pattern_buf(FILE_SIZE);
		size_t done = 0;

		close(p[0]);
		while (done < FILE_SIZE) {
			size_t n = FILE_SIZE - done < 7777 ? FILE_SIZE - done : 7777;
			ssize_t w = write(p[1], buf + done, n);

			if (w <= 0)
				_exit(1);
			done += (size_t)w;
		}
		_exit(0);
	}
	close(p[1]);
	*ret_pid = pid;
	return p[0];
}

static void test_source__pipe_only_forwards(void **state)
{
	struct sampo_source src = { .kind = SAMPO_SOURCE_STREAM };
	const uint8_t *p, *lo, *hi;
	size_t avail;
	pid_t pid;
	int status;

	(void)state;
	src.fd = pattern_pipe(&pid);
	get_ok(&src, 0, 100);
	get_ok(&src, 50, 100);		  /* inside what is buffered */
	get_ok(&src, 1U << 20, 3U << 20); /* a skip, then a range larger than a read */
	assert_int_equal(sampo_source__get(&src, 10, 1, &p, &avail), -EINVAL);
	get_ok(&src, (5U << 20) + 17, 1);
	assert_false(sampo_source__stable(&src, &lo, &hi));
	get_ok(&src, FILE_SIZE - 10, 10);
	get_short(&src, FILE_SIZE - 10, 20, 10);
	get_short(&src, FILE_SIZE + 100, 1, 0);
	sampo_source__release(&src);
	close(src.fd);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_source__windows_hand_out_every_range),
		cmocka_unit_test(test_source__whole_file_ranges_outlive_dropped_pages),
		cmocka_unit_test(test_source__whole_file_far_behind_pages_given_back),
		cmocka_unit_test(test_source__memory_image_in_place),
		cmocka_unit_test(test_source__pipe_only_forwards),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
