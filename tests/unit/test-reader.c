// SPDX-License-Identifier: GPL-2.0
/*
 * test-reader.c - the perf.data reader on images built in memory (both byte
 * orders, pipe mode, compressed records, time ordering, damaged input) and on
 * the real perf 6.1 fixtures, whose record counts are checked against the
 * "Aggregated stats" that perf itself printed for them.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zstd.h>

#include <sampo/reader.h>
#include <sampo/writer.h>
#include "fixture.h"

#define ST_FILE                                                                                    \
	(SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME | SAMPO_SAMPLE_ID |                \
	 SAMPO_SAMPLE_CPU | SAMPO_SAMPLE_PERIOD | SAMPO_SAMPLE_CALLCHAIN)
#define FLAGS_FILE (SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_MMAP | SAMPO_ATTR_COMM | SAMPO_ATTR_FREQ)

static char errbuf[512];

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* The sample_id trailer for sample_type ST_FILE: TID, TIME, ID, CPU. */
static void trailer(struct img *im, uint32_t pid, uint32_t tid, uint64_t time, uint64_t id,
		    uint32_t cpu)
{
	img_u32(im, pid);
	img_u32(im, tid);
	img_u64(im, time);
	img_u64(im, id);
	img_u32(im, cpu);
	img_u32(im, 0);
}

static void sample(struct img *im, uint64_t ip, uint32_t pid, uint64_t time, uint64_t id)
{
	size_t r = img_begin_record(im, SAMPO_RECORD_SAMPLE, SAMPO_CPUMODE_USER);

	img_u64(im, ip);
	img_u32(im, pid);
	img_u32(im, pid + 1);
	img_u64(im, time);
	img_u64(im, id);
	img_u32(im, 1); /* cpu */
	img_u32(im, 0);
	img_u64(im, 250000); /* period */
	img_u64(im, 3);
	img_u64(im, SAMPO_CONTEXT_USER);
	img_u64(im, ip);
	img_u64(im, 0x401000);
	img_end_record(im, r);
}

/* The records of the data section used by most tests. */
static void data_records(struct img *im)
{
	size_t r;

	r = img_begin_record(im, SAMPO_RECORD_MMAP, SAMPO_CPUMODE_KERNEL);
	img_u32(im, (uint32_t)-1);
	img_u32(im, 0);
	img_u64(im, 0xffffffff81000000ULL);
	img_u64(im, 0x1000000);
	img_u64(im, 0xffffffff81000000ULL);
	img_str(im, "[kernel.kallsyms]_text", 8);
	trailer(im, 0, 0, 0, 0, 0);
	img_end_record(im, r);

	r = img_begin_record(im, SAMPO_RECORD_COMM, SAMPO_MISC_COMM_EXEC);
	img_u32(im, 42);
	img_u32(im, 43);
	img_str(im, "burn", 8);
	trailer(im, 42, 43, 100, 12, 1);
	img_end_record(im, r);

	sample(im, 0x401234, 42, 200, 12);

	r = img_begin_record(im, SAMPO_RECORD_FINISHED_ROUND, 0);
	img_end_record(im, r);

	r = img_begin_record(im, 50, 0); /* a type this version does not know */
	img_u64(im, 0x1122334455667788ULL);
	img_end_record(im, r);
}

/* A whole file-mode image: header, ids, one attr, data, HOSTNAME feature. */
static void build_file(struct img *im, bool big_endian)
{
	size_t data_off, data_end, attrs_off;

	img_init(im, big_endian);
	img_bytes(im, "PERFILE2", 8); /* the magic is bytes, not a number */
	if (big_endian) /* "PERFILE2" as a big-endian u64 reads reversed */
		memcpy(im->buf, "2ELIFREP", 8);
	img_u64(im, 104);
	img_u64(im, 128 + 16);
	img_zeros(im, 104 - 24);
	/* ids of attr 0 */
	img_u64(im, 11);
	img_u64(im, 12);
	attrs_off = im->len;
	img_attr(im, SAMPO_TYPE_SOFTWARE, 0, ST_FILE, FLAGS_FILE);
	img_u64(im, 104);
	img_u64(im, 16);
	data_off = im->len;
	data_records(im);
	data_end = im->len;
	/* feature table: HOSTNAME only */
	img_u64(im, data_end + 16);
	img_u64(im, 4 + 64);
	img_u32(im, 64);
	img_str(im, "testhost", 64);

	img_set_u64(im, 24, attrs_off);
	img_set_u64(im, 32, 128 + 16);
	img_set_u64(im, 40, data_off);
	img_set_u64(im, 48, data_end - data_off);
	/* adds_features: bit 3 in word 0 */
	img_set_u64(im, 72, 1ULL << SAMPO_FEAT_HOSTNAME);
}

static struct sampo_reader *open_img(const struct img *im, size_t len, bool ordered)
{
	struct sampo_reader *r = NULL;
	SAMPO_OPTS(sampo_reader_opts, opts, .ordered = ordered, .errbuf = errbuf,
		   .errbuf_sz = sizeof(errbuf));

	errbuf[0] = '\0';
	if (sampo_reader__open_mem(im->buf, len, "test.data", &opts, &r))
		return NULL;
	return r;
}

static void check_file(bool big_endian)
{
	struct img im;
	struct sampo_reader *r;
	struct sampo_event ev;
	const void *feat;
	size_t feat_size, nr_ids;
	const uint64_t *ids;

	build_file(&im, big_endian);
	r = open_img(&im, im.len, false);
	assert_non_null(r);
	assert_int_equal(sampo_reader__needs_swap(r), big_endian);
	assert_false(sampo_reader__is_pipe(r));
	assert_int_equal(sampo_reader__nr_attrs(r), 1);
	assert_int_equal(sampo_reader__attr(r, 0)->sample_type, ST_FILE);
	assert_int_equal(sampo_reader__attr(r, 0)->flags, FLAGS_FILE);
	assert_int_equal(sampo_reader__attr(r, 0)->sample_period, 4000);
	ids = sampo_reader__attr_ids(r, 0, &nr_ids);
	assert_int_equal(nr_ids, 2);
	assert_int_equal(ids[1], 12);

	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.record->header.type, SAMPO_RECORD_MMAP);
	assert_int_equal(ev.record->mmap.pid, (uint32_t)-1);
	assert_int_equal(ev.record->mmap.pgoff, 0xffffffff81000000ULL);
	assert_string_equal(ev.record->mmap.filename, "[kernel.kallsyms]_text");
	assert_true(ev.has_sample_id);
	assert_int_equal(ev.sample.time, 0);

	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.record->header.type, SAMPO_RECORD_COMM);
	assert_int_equal(ev.record->header.misc, SAMPO_MISC_COMM_EXEC);
	assert_int_equal(ev.record->comm.tid, 43);
	assert_string_equal(ev.record->comm.comm, "burn");
	assert_int_equal(ev.sample.pid, 42);
	assert_int_equal(ev.sample.tid, 43);
	assert_int_equal(ev.sample.time, 100);
	assert_int_equal(ev.sample.id, 12);
	assert_int_equal(ev.sample.cpu, 1);

	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.record->header.type, SAMPO_RECORD_SAMPLE);
	assert_int_equal(ev.attr_idx, 0);
	assert_int_equal(ev.sample.ip, 0x401234);
	assert_int_equal(ev.sample.pid, 42);
	assert_int_equal(ev.sample.tid, 43);
	assert_int_equal(ev.sample.time, 200);
	assert_int_equal(ev.sample.cpu, 1);
	assert_int_equal(ev.sample.period, 250000);
	assert_int_equal(ev.sample.callchain_nr, 3);
	assert_int_equal(ev.sample.callchain[0], SAMPO_CONTEXT_USER);
	assert_int_equal(ev.sample.callchain[2], 0x401000);
	assert_int_equal(ev.sample.cpumode, SAMPO_CPUMODE_USER);

	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.record->header.type, SAMPO_RECORD_FINISHED_ROUND);
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.record->header.type, 50);
	assert_int_equal(sampo_reader__next(r, &ev), 0);
	assert_int_equal(sampo_reader__stats(r)->nr_unknown_type, 1);
	assert_int_equal(sampo_reader__stats(r)->nr_records[SAMPO_RECORD_SAMPLE], 1);

	assert_true(sampo_reader__has_feature(r, SAMPO_FEAT_HOSTNAME));
	assert_int_equal(sampo_reader__feature(r, SAMPO_FEAT_HOSTNAME, &feat, &feat_size), 0);
	assert_int_equal(feat_size, 68);
	assert_string_equal((const char *)feat + 4, "testhost");
	assert_int_equal(sampo_reader__feature(r, SAMPO_FEAT_ARCH, &feat, &feat_size), -ENOENT);
	sampo_reader__close(r);
	img_free(&im);
}

static void test_reader__reads_little_endian_file(void **state)
{
	(void)state;
	check_file(false);
}

static void test_reader__reads_big_endian_file_like_little_endian(void **state)
{
	(void)state;
	check_file(true);
}

static void test_reader__rejects_bad_magic(void **state)
{
	struct sampo_reader *r;
	struct img im;

	(void)state;
	build_file(&im, false);
	memcpy(im.buf, "NOTPERF!", 8);
	assert_null(open_img(&im, im.len, false));
	assert_non_null(strstr(errbuf, "bad magic"));
	assert_non_null(strstr(errbuf, "test.data"));
	/* perf's first format: the second's layout, read as such */
	memcpy(im.buf, "PERFFILE", 8);
	r = open_img(&im, im.len, false);
	assert_non_null(r);
	assert_int_equal(sampo_reader__version(r), 1);
	sampo_reader__close(r);
	/* its byte order comes from the attr size: one that fits no ABI is an error */
	memset(im.buf + 16, 0x5a, 8);
	assert_null(open_img(&im, im.len, false));
	assert_non_null(strstr(errbuf, "version 1"));
	assert_null(open_img(&im, 0, false));
	assert_non_null(strstr(errbuf, "empty file"));
	img_free(&im);
}

/* Every proper prefix of a valid file fails with a message, never a crash. */
static void test_reader__truncated_anywhere_fails_cleanly(void **state)
{
	struct img im;

	(void)state;
	build_file(&im, false);
	for (size_t n = 0; n < im.len; n++) {
		/* a copy of exactly n bytes so that ASan catches any read past it */
		uint8_t *copy = malloc(n ? n : 1);
		struct img cut = im;
		struct sampo_reader *r;
		struct sampo_event ev;
		int ret = 0;

		memcpy(copy, im.buf, n);
		cut.buf = copy;
		r = open_img(&cut, n, true);
		if (r) {
			while ((ret = sampo_reader__next(r, &ev)) > 0)
				;
			if (ret < 0)
				snprintf(errbuf, sizeof(errbuf), "%s", sampo_reader__error(r));
			sampo_reader__close(r);
		}
		assert_true(!r || ret < 0);
		assert_true(strlen(errbuf) > 0);
		free(copy);
	}
	img_free(&im);
}

static size_t second_record_offset(const struct img *im)
{
	uint64_t data_off;
	uint16_t size;

	memcpy(&data_off, im->buf + 40, 8);
	memcpy(&size, im->buf + data_off + 6, 2);
	return (size_t)data_off + size;
}

static void test_reader__rejects_zero_and_oversized_record_sizes(void **state)
{
	struct img im;
	struct sampo_reader *r;
	struct sampo_event ev;
	size_t off;

	(void)state;
	build_file(&im, false);
	off = second_record_offset(&im);

	img_set_u16(&im, off + 6, 0);
	r = open_img(&im, im.len, false);
	assert_non_null(r);
	assert_int_equal(sampo_reader__next(r, &ev), 1); /* the record before it */
	assert_true(sampo_reader__next(r, &ev) < 0);
	assert_non_null(strstr(sampo_reader__error(r), "smaller than the 8-byte header"));
	assert_true(sampo_reader__next(r, &ev) < 0); /* stays failed */
	sampo_reader__close(r);

	img_set_u16(&im, off + 6, 0xfff8);
	r = open_img(&im, im.len, false);
	assert_non_null(r);
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_true(sampo_reader__next(r, &ev) < 0);
	assert_non_null(strstr(sampo_reader__error(r), "runs past the end of the data section"));
	sampo_reader__close(r);
	img_free(&im);
}

static void test_reader__rejects_unterminated_string(void **state)
{
	struct img im;
	struct sampo_reader *r;
	struct sampo_event ev;
	size_t off;

	(void)state;
	build_file(&im, false);
	off = second_record_offset(&im); /* the COMM: pid, tid, "burn\0..." then trailer */
	memset(im.buf + off + 16, 'x', 8 + 32);
	r = open_img(&im, im.len, false);
	assert_non_null(r);
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_true(sampo_reader__next(r, &ev) < 0);
	assert_non_null(strstr(sampo_reader__error(r), "COMM name is not NUL-terminated"));
	sampo_reader__close(r);
	img_free(&im);
}

/*
 * An MMAP2 with the build-id flag but a build-id size no build-id has: some
 * kernels set the flag on every recorder's MMAP2 while one asks for
 * build-ids. The record is read as the device/inode form, not refused.
 */
static void test_reader__mmap2_with_a_bogus_build_id_flag(void **state)
{
	struct img im;
	struct sampo_reader *r;
	struct sampo_event ev;
	size_t rec;

	(void)state;
	img_init(&im, false);
	img_bytes(&im, "PERFILE2", 8);
	img_u64(&im, 16);
	rec = img_begin_record(&im, SAMPO_RECORD_HEADER_ATTR, 0);
	img_attr(&im, SAMPO_TYPE_SOFTWARE, 0, ST_FILE, FLAGS_FILE);
	img_u64(&im, 12);
	img_end_record(&im, rec);
	rec = img_begin_record(&im, SAMPO_RECORD_MMAP2,
			       SAMPO_CPUMODE_USER | SAMPO_MISC_MMAP_BUILD_ID);
	img_u32(&im, 7);
	img_u32(&im, 7);
	img_u64(&im, 0x400000);
	img_u64(&im, 0x1000);
	img_u64(&im, 0);
	img_u32(&im, 0xfe);   /* maj: as a build-id size byte, 254 */
	img_u32(&im, 3);      /* min */
	img_u64(&im, 123456); /* ino */
	img_u64(&im, 9);      /* ino_generation */
	img_u32(&im, 5);      /* prot */
	img_u32(&im, 2);      /* flags */
	img_str(&im, "/bin/true", 8);
	trailer(&im, 7, 7, 5, 12, 1);
	img_end_record(&im, rec);

	r = open_img(&im, im.len, false);
	assert_non_null(r);
	assert_int_equal(sampo_reader__next(r, &ev), 1); /* HEADER_ATTR */
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.record->header.type, SAMPO_RECORD_MMAP2);
	assert_false(ev.record->header.misc & SAMPO_MISC_MMAP_BUILD_ID);
	assert_int_equal(ev.record->mmap2.maj, 0xfe);
	assert_int_equal(ev.record->mmap2.ino, 123456);
	assert_string_equal(ev.record->mmap2.filename, "/bin/true");
	assert_int_equal(sampo_reader__next(r, &ev), 0);
	sampo_reader__close(r);
	img_free(&im);
}

static void test_reader__rejects_sections_outside_the_file(void **state)
{
	struct img im;

	(void)state;
	build_file(&im, false);
	img_set_u64(&im, 24, 1ULL << 40); /* attrs offset */
	assert_null(open_img(&im, im.len, false));
	assert_non_null(strstr(errbuf, "attrs section"));
	img_free(&im);

	build_file(&im, false);
	img_set_u64(&im, 16, 7); /* attr_size */
	assert_null(open_img(&im, im.len, false));
	assert_non_null(strstr(errbuf, "attr_size"));
	img_free(&im);

	build_file(&im, false);
	/* the HOSTNAME entry of the feature table points far away */
	img_set_u64(&im, im.len - 68 - 16, 1ULL << 50);
	assert_null(open_img(&im, im.len, false));
	assert_non_null(strstr(errbuf, "feature HOSTNAME"));
	img_free(&im);
}

/* Pipe mode: attrs and features arrive as records and apply after delivery. */
static void test_reader__pipe_mode_attrs_and_features(void **state)
{
	struct img im;
	struct sampo_reader *r;
	struct sampo_event ev;
	const void *feat;
	size_t feat_size, rec;

	(void)state;
	img_init(&im, false);
	img_bytes(&im, "PERFILE2", 8);
	img_u64(&im, 16);
	rec = img_begin_record(&im, SAMPO_RECORD_HEADER_ATTR, 0);
	img_attr(&im, SAMPO_TYPE_SOFTWARE, 0, ST_FILE, FLAGS_FILE);
	img_u64(&im, 12);
	img_end_record(&im, rec);
	rec = img_begin_record(&im, SAMPO_RECORD_HEADER_FEATURE, 0);
	img_u64(&im, SAMPO_FEAT_ARCH);
	img_u32(&im, 64);
	img_str(&im, "x86_64", 64);
	img_u8(&im, 0); /* pipe features are not padded: leave the stream unaligned */
	img_end_record(&im, rec);
	sample(&im, 0x1000, 7, 10, 12);

	r = open_img(&im, im.len, true);
	assert_non_null(r);
	assert_true(sampo_reader__is_pipe(r));
	assert_int_equal(sampo_reader__nr_attrs(r), 0);
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.record->header.type, SAMPO_RECORD_HEADER_ATTR);
	assert_int_equal(ev.offset, 0); /* pipe offsets start after the 16-byte header */
	assert_int_equal(sampo_reader__nr_attrs(r), 0);
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.record->header.type, SAMPO_RECORD_HEADER_FEATURE);
	assert_int_equal(sampo_reader__nr_attrs(r), 1);
	assert_false(sampo_reader__has_feature(r, SAMPO_FEAT_ARCH));
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_true(sampo_reader__has_feature(r, SAMPO_FEAT_ARCH));
	assert_int_equal(sampo_reader__feature(r, SAMPO_FEAT_ARCH, &feat, &feat_size), 0);
	assert_string_equal((const char *)feat + 4, "x86_64");
	assert_int_equal(ev.record->header.type, SAMPO_RECORD_SAMPLE);
	assert_int_equal(ev.sample.ip, 0x1000);
	assert_int_not_equal(ev.offset % 8, 0); /* unaligned, and read anyway */
	assert_int_equal(sampo_reader__next(r, &ev), 0);
	sampo_reader__close(r);
	img_free(&im);
}

static void build_rounds(struct img *im, const uint64_t *times, size_t n)
{
	uint8_t hdr[104];
	struct img tmp;

	/* reuse build_file's header, attr and feature, but with our own records */
	build_file(&tmp, false);
	memcpy(hdr, tmp.buf, sizeof(hdr));
	img_init(im, false);
	img_bytes(im, tmp.buf, 104 + 16 + 144);
	img_free(&tmp);
	for (size_t i = 0; i < n; i++) {
		if (times[i] == 0) {
			size_t rec = img_begin_record(im, SAMPO_RECORD_FINISHED_ROUND, 0);

			img_end_record(im, rec);
		} else {
			sample(im, 0x1000 + times[i], 7, times[i], 12);
		}
	}
	img_set_u64(im, 48, im->len - (104 + 16 + 144));
	img_set_u64(im, 72, 0);
}

/* perf's rounds: a FINISHED_ROUND releases what is older than the previous round's maximum. */
static void test_reader__ordered_mode_releases_by_rounds(void **state)
{
	static const uint64_t in[] = { 30, 10, 0, 20, 5, 0, 40 };
	/* 0 stands for FINISHED_ROUND */
	static const uint64_t want[] = { 0, 0, 5, 10, 20, 30, 40 };
	struct img im;
	struct sampo_reader *r;
	struct sampo_event ev;
	size_t i = 0;

	(void)state;
	build_rounds(&im, in, 7);
	r = open_img(&im, im.len, true);
	assert_non_null(r);
	while (sampo_reader__next(r, &ev) > 0) {
		uint64_t t = ev.record->header.type == SAMPO_RECORD_FINISHED_ROUND ? 0 : ev.sample.time;

		assert_true(i < 7);
		assert_int_equal(t, want[i]);
		i++;
	}
	assert_int_equal(i, 7);
	assert_int_equal(sampo_reader__stats(r)->nr_out_of_order, 0);
	sampo_reader__close(r);

	/* file order when not asked for time order */
	r = open_img(&im, im.len, false);
	i = 0;
	while (sampo_reader__next(r, &ev) > 0) {
		uint64_t t = ev.record->header.type == SAMPO_RECORD_FINISHED_ROUND ? 0 : ev.sample.time;

		assert_int_equal(t, in[i]);
		i++;
	}
	sampo_reader__close(r);
	img_free(&im);
}

/* Records split across two COMPRESSED records, inflated by one zstd stream. */
static void test_reader__inflates_compressed_records(void **state)
{
	struct img plain, im;
	ZSTD_CStream *z = ZSTD_createCStream();
	uint8_t out[8192];
	size_t half, rec, data_off, nplain;
	struct sampo_reader *r;
	struct sampo_event ev;
	int n = 0;

	(void)state;
	img_init(&plain, false);
	for (int i = 1; i <= 5; i++)
		sample(&plain, 0x2000 + (uint64_t)i, 9, (uint64_t)i * 10, 12);
	nplain = plain.len;
	half = nplain / 2 + 3; /* mid-record */

	build_file(&im, false);
	data_off = 104 + 16 + 144;
	im.len = data_off;
	ZSTD_initCStream(z, 1);
	for (int part = 0; part < 2; part++) {
		ZSTD_inBuffer in = { plain.buf + (part ? half : 0), part ? nplain - half : half, 0 };
		ZSTD_outBuffer o = { out, sizeof(out), 0 };

		while (in.pos < in.size)
			ZSTD_compressStream(z, &o, &in);
		ZSTD_flushStream(z, &o); /* perf flushes; it never ends the frame */
		rec = img_begin_record(&im, SAMPO_RECORD_COMPRESSED, 0);
		img_bytes(&im, out, o.pos);
		img_end_record(&im, rec);
	}
	ZSTD_freeCStream(z);
	img_set_u64(&im, 48, im.len - data_off);
	img_set_u64(&im, 72, 0);

	r = open_img(&im, im.len, false);
	assert_non_null(r);
	while (sampo_reader__next(r, &ev) > 0) {
		n++;
		assert_int_equal(ev.record->header.type, SAMPO_RECORD_SAMPLE);
		assert_true(ev.decompressed);
		assert_int_equal(ev.sample.time, (uint64_t)n * 10);
		assert_int_equal(ev.sample.ip, 0x2000 + (uint64_t)n);
	}
	assert_int_equal(n, 5);
	assert_int_equal(sampo_reader__stats(r)->nr_records[SAMPO_RECORD_COMPRESSED], 2);
	assert_string_equal(sampo_reader__error(r), "");
	sampo_reader__close(r);

	/* garbage instead of zstd data */
	memset(im.buf + data_off + 8, 0x5a, 16);
	r = open_img(&im, im.len, false);
	assert_non_null(r);
	assert_true(sampo_reader__next(r, &ev) < 0);
	assert_non_null(strstr(sampo_reader__error(r), "zstd"));
	sampo_reader__close(r);
	img_free(&im);
	img_free(&plain);
}

/* Two attrs: records find theirs by id; id 0 means the first; unknown ids are counted. */
static void test_reader__maps_ids_to_attrs(void **state)
{
	struct img im;
	struct sampo_reader *r;
	struct sampo_event ev;
	size_t attrs_off, data_off;

	(void)state;
	img_init(&im, false);
	img_bytes(&im, "PERFILE2", 8);
	img_u64(&im, 104);
	img_u64(&im, 144);
	img_zeros(&im, 104 - 24);
	img_u64(&im, 11);
	img_u64(&im, 21);
	attrs_off = im.len;
	img_attr(&im, SAMPO_TYPE_SOFTWARE, 0, ST_FILE, FLAGS_FILE);
	img_u64(&im, 104);
	img_u64(&im, 8);
	img_attr(&im, SAMPO_TYPE_SOFTWARE, 1, ST_FILE, SAMPO_ATTR_SAMPLE_ID_ALL);
	img_u64(&im, 112);
	img_u64(&im, 8);
	data_off = im.len;
	sample(&im, 1, 1, 1, 21);
	sample(&im, 2, 1, 2, 11);
	sample(&im, 3, 1, 3, 0);
	sample(&im, 4, 1, 4, 99);
	img_set_u64(&im, 24, attrs_off);
	img_set_u64(&im, 32, 288);
	img_set_u64(&im, 40, data_off);
	img_set_u64(&im, 48, im.len - data_off);

	r = open_img(&im, im.len, false);
	assert_non_null(r);
	assert_int_equal(sampo_reader__attr_by_id(r, 21), 1);
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.attr_idx, 1);
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.attr_idx, 0);
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.attr_idx, 0);
	assert_int_equal(sampo_reader__next(r, &ev), 1);
	assert_int_equal(ev.attr_idx, -1);
	assert_int_equal(sampo_reader__stats(r)->nr_unknown_id, 1);
	sampo_reader__close(r);
	img_free(&im);
}

/*
 * Attrs naming the same ids section share one copy of it, and an id claimed
 * by several attrs is the last one's, as in perf: attr 0 and attr 2 name
 * {11, 12}, attr 1 names {12, 13}.
 */
static void test_reader__shares_ids_sections(void **state)
{
	struct img im;
	struct sampo_reader *r;
	const uint64_t *ids0, *ids2;
	size_t attrs_off, nr0 = 0, nr1 = 0, nr2 = 0;

	(void)state;
	img_init(&im, false);
	img_bytes(&im, "PERFILE2", 8);
	img_u64(&im, 104);
	img_u64(&im, 144);
	img_zeros(&im, 104 - 24);
	img_u64(&im, 11); /* 104 */
	img_u64(&im, 12);
	img_u64(&im, 13);
	attrs_off = im.len;
	for (int i = 0; i < 3; i++) {
		img_attr(&im, SAMPO_TYPE_SOFTWARE, (uint64_t)i, ST_FILE, FLAGS_FILE);
		img_u64(&im, i == 1 ? 112 : 104);
		img_u64(&im, 16);
	}
	img_set_u64(&im, 24, attrs_off);
	img_set_u64(&im, 32, 3 * 144);
	img_set_u64(&im, 40, im.len);
	img_set_u64(&im, 48, 0);
	img_set_u64(&im, 72, 0);

	r = open_img(&im, im.len, false);
	assert_non_null(r);
	ids0 = sampo_reader__attr_ids(r, 0, &nr0);
	assert_non_null(sampo_reader__attr_ids(r, 1, &nr1));
	ids2 = sampo_reader__attr_ids(r, 2, &nr2);
	assert_int_equal(nr0, 2);
	assert_int_equal(nr1, 2);
	assert_int_equal(nr2, 2);
	assert_ptr_equal(ids0, ids2); /* one copy */
	assert_int_equal(ids0[0], 11);
	assert_int_equal(ids0[1], 12);
	assert_int_equal(sampo_reader__attr_ids(r, 1, &nr1)[0], 12);
	assert_int_equal(sampo_reader__attr_by_id(r, 11), 2);
	assert_int_equal(sampo_reader__attr_by_id(r, 12), 2);
	assert_int_equal(sampo_reader__attr_by_id(r, 13), 1);
	sampo_reader__close(r);

	/* sections that overlap without being the same add up to more than the file */
	for (int i = 0; i < 3; i++)
		img_set_u64(&im, attrs_off + (size_t)i * 144 + 136,
			    (uint64_t)im.len - 104 - 8 * (uint64_t)i);
	assert_null(open_img(&im, im.len, false));
	assert_non_null(strstr(errbuf, "ids sections add up to"));
	img_free(&im);
}

/* ---- the perf 6.1 fixtures ---------------------------------------------- */

static const char *fixtures_dir(void)
{
	static char path[4096];
	const char *shared = getenv("SAMPO_SHARED");

	if (!shared || !*shared)
		return NULL;
	snprintf(path, sizeof(path), "%s/fixtures/perf-6.1", shared);
	return path;
}

static const char *const fixture_names[] = {
	"a-syswide-cpuclock",	 "b-callchain-fp",	    "c-multi-event",
	"d-pipe-mode",		 "e-compressed-zstd",	    "f-buildid-mmap",
	"g-switch-namespaces-task", "h-switch-ns-cgroup-syswide",
};

/* The record counts perf printed under "Aggregated stats:" in report-D.txt. */
static void check_fixture_counts(const char *dir, const char *name)
{
	char path[4600], line[512];
	uint64_t want[SAMPO_RECORD_MAX] = { 0 }, total = 0, got_total = 0;
	struct sampo_reader *r = NULL;
	struct sampo_event ev;
	FILE *f;
	bool in_stats = false;
	int ret;
	SAMPO_OPTS(sampo_reader_opts, opts, .ordered = true, .errbuf = errbuf,
		   .errbuf_sz = sizeof(errbuf));

	snprintf(path, sizeof(path), "%s/%s/report-D.txt", dir, name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char type[64];
		unsigned long long n;

		if (!strcmp(line, "Aggregated stats:\n")) {
			in_stats = true;
			continue;
		}
		if (!in_stats || sscanf(line, " %63s events: %llu", type, &n) != 2)
			continue;
		if (!strcmp(type, "TOTAL")) {
			total = n;
			continue;
		}
		for (uint32_t t = 0; t < SAMPO_RECORD_MAX; t++)
			if (sampo_record__name(t) && !strcmp(sampo_record__name(t), type) && !want[t])
				want[t] = n;
	}
	fclose(f);
	assert_true(total > 0);

	snprintf(path, sizeof(path), "%s/%s/perf.data", dir, name);
	assert_int_equal(sampo_reader__open(path, &opts, &r), 0);
	while ((ret = sampo_reader__next(r, &ev)) > 0)
		;
	assert_int_equal(ret, 0);
	for (uint32_t t = 0; t < SAMPO_RECORD_MAX; t++) {
		if (sampo_reader__stats(r)->nr_records[t] != want[t])
			fail_msg("%s: %s: sampo counted %llu, perf %llu", name,
				 sampo_record__name(t) ?: "?",
				 (unsigned long long)sampo_reader__stats(r)->nr_records[t],
				 (unsigned long long)want[t]);
		got_total += sampo_reader__stats(r)->nr_records[t];
	}
	assert_int_equal(got_total, total);
	sampo_reader__close(r);
}

static void test_reader__counts_fixture_records_as_perf_does(void **state)
{
	const char *dir = fixtures_dir();

	(void)state;
	if (!dir)
		skip();
	for (size_t i = 0; i < sizeof(fixture_names) / sizeof(fixture_names[0]); i++)
		check_fixture_counts(dir, fixture_names[i]);
}

/*
 * RAW data is opaque: in either byte order the reader hands back the bytes as
 * the writer was given them, in file order and in time order, where the
 * queue decodes each record a second time when it releases it (a big-endian
 * file's RAW came back swapped twice and the next fields misread).
 */
static void check_raw_samples(enum sampo_byte_order order, bool ordered)
{
	char path[] = "/tmp/sampo-test-reader-raw.XXXXXX";
	struct sampo_event_attr attr = {
		.type = SAMPO_TYPE_SOFTWARE,
		.size = SAMPO_ATTR_SIZE_VER7,
		.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |
			       SAMPO_SAMPLE_RAW | SAMPO_SAMPLE_PERIOD,
		.sample_period = 4000,
		.flags = SAMPO_ATTR_SAMPLE_ID_ALL,
	};
	const uint64_t ids[1] = { 7 };
	SAMPO_OPTS(sampo_writer_opts, wopts, .byte_order = order);
	SAMPO_OPTS(sampo_reader_opts, ropts, .ordered = ordered);
	struct sampo_writer *w = NULL;
	struct sampo_reader *r = NULL;
	struct sampo_event ev;
	int fd = mkstemp(path), nr = 0, ret;

	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(sampo_writer__open(path, &wopts, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &attr, ids, 1), 0);
	for (int i = 0; i < 8; i++) {
		/* sizes whose u32 + data end on and off an 8-byte boundary */
		uint8_t raw[13] = { (uint8_t)i, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
		struct sampo_sample s = {
			.ip = 0x401000 + (uint64_t)i,
			.pid = 42,
			.tid = 42,
			.time = 1000 - (uint64_t)i * 10, /* out of order: queued, then sorted */
			.period = 4000,
			.raw_size = i % 2 ? 13 : 4,
			.raw_data = raw,
		};

		assert_int_equal(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &s), 0);
	}
	assert_int_equal(sampo_writer__close(w), 0);

	assert_int_equal(sampo_reader__open(path, &ropts, &r), 0);
	assert_int_equal(sampo_reader__needs_swap(r), order == SAMPO_BYTE_ORDER_BIG);
	while ((ret = sampo_reader__next(r, &ev)) == 1) {
		int i;

		if (ev.record->header.type != SAMPO_RECORD_SAMPLE)
			continue;
		i = (int)(ev.sample.ip - 0x401000);
		assert_int_equal(ev.sample.time, 1000 - (uint64_t)i * 10);
		assert_int_equal(ev.sample.period, 4000);
		/* the size counts the padding to 8 bytes, as the kernel's does */
		assert_int_equal(ev.sample.raw_size, i % 2 ? 20 : 4);
		assert_int_equal(ev.sample.raw_data[0], i);
		for (uint32_t b = 1; b < ev.sample.raw_size; b++)
			assert_int_equal(ev.sample.raw_data[b], b < 13 ? b : 0);
		if (ordered) /* time order: the last written first */
			assert_int_equal(i, 7 - nr);
		nr++;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(nr, 8);
	assert_string_equal(sampo_reader__error(r), "");
	sampo_reader__close(r);
	unlink(path);
}

static void test_reader__raw_data_in_either_byte_order(void **state)
{
	(void)state;
	check_raw_samples(SAMPO_BYTE_ORDER_LITTLE, false);
	check_raw_samples(SAMPO_BYTE_ORDER_LITTLE, true);
	check_raw_samples(SAMPO_BYTE_ORDER_BIG, false);
	check_raw_samples(SAMPO_BYTE_ORDER_BIG, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reader__reads_little_endian_file),
		cmocka_unit_test(test_reader__reads_big_endian_file_like_little_endian),
		cmocka_unit_test(test_reader__raw_data_in_either_byte_order),
		cmocka_unit_test(test_reader__rejects_bad_magic),
		cmocka_unit_test(test_reader__truncated_anywhere_fails_cleanly),
		cmocka_unit_test(test_reader__rejects_zero_and_oversized_record_sizes),
		cmocka_unit_test(test_reader__rejects_unterminated_string),
		cmocka_unit_test(test_reader__mmap2_with_a_bogus_build_id_flag),
		cmocka_unit_test(test_reader__rejects_sections_outside_the_file),
		cmocka_unit_test(test_reader__pipe_mode_attrs_and_features),
		cmocka_unit_test(test_reader__ordered_mode_releases_by_rounds),
		cmocka_unit_test(test_reader__inflates_compressed_records),
		cmocka_unit_test(test_reader__maps_ids_to_attrs),
		cmocka_unit_test(test_reader__shares_ids_sections),
		cmocka_unit_test(test_reader__counts_fixture_records_as_perf_does),
	};

	sampo_set_print(quiet);
	return cmocka_run_group_tests_name("reader", tests, NULL, NULL);
}
