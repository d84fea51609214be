// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-archive.c - libFuzzer entry point for the archive unpacker
 * (sampo_archive__unpack_mem(), what `sampo archive --unpack` and
 * `report --archive` run on archives from elsewhere).
 *
 * Each input is unpacked, with small bounds, into a private directory that
 * sits inside a parent directory of its own; afterwards nothing may exist
 * in the parent but the target (an escape would leave a file there), and
 * nothing in the target may be a hard link, device or FIFO. The target is
 * emptied between inputs.
 */
#include <dirent.h>
#include <ftw.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/archive.h>
#include <sampo/common.h>

static char parent[] = "/tmp/sampo-fuzz-archive.XXXXXX";
static char target[sizeof(parent) + 8];

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int check_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (flag == FTW_F && (!S_ISREG(st->st_mode) || st->st_nlink != 1))
		abort(); /* a device, FIFO or hard link got through */
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		(void)rmdir(path);
	else
		(void)unlink(path);
	return 0;
}

static void check_parent(void)
{
	DIR *d = opendir(parent);
	struct dirent *de;

	if (!d)
		abort();
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && strcmp(de->d_name, "t"))
			abort(); /* written outside the target */
	}
	closedir(d);
}

static void cleanup(void)
{
	(void)nftw(parent, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char errbuf[256];
	SAMPO_OPTS(sampo_archive_unpack_opts, opts, .max_member_bytes = 1 << 20,
		   .max_total_bytes = 4 << 20, .max_members = 256, .errbuf = errbuf,
		   .errbuf_sz = sizeof(errbuf));

	if (!target[0]) {
		sampo_set_print(quiet);
		if (!mkdtemp(parent))
			abort();
		snprintf(target, sizeof(target), "%s/t", parent);
		atexit(cleanup);
	}
	(void)sampo_archive__unpack_mem(data, size, target, &opts);
	check_parent();
	(void)nftw(target, check_one, 16, FTW_PHYS);
	(void)nftw(target, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
