/* SPDX-License-Identifier: GPL-2.0 */
/*
 * walk.c - how fast can a perf.data file be walked: the reader against the
 * floor, a plain mmap walk.
 *
 * Modes (-m, repeatable; default all but mmap-lazy and ordered-raw):
 *	mmap         map the whole file (MAP_POPULATE, as the reader maps its
 *	             windows), hop header.size from data.offset to
 *	             data.offset + data.size, sum the types: the floor for
 *	             anything that looks at every record
 *	mmap-prefetch  the same with a software prefetch 256 bytes ahead: the
 *	             bare hop is bound by memory latency when records are large
 *	             (each header load waits for the previous one and the
 *	             hardware prefetcher does not follow a sparse stride), so
 *	             this is the real floor for callchain files
 *	mmap-lazy    the plain walk without MAP_POPULATE
 *	raw          sampo_reader__open + __next to the end, opts.raw = true
 *	             (records checked and handed out, sample fields not decoded)
 *	full         the same with sample decoding (the default reader)
 *	ordered      full decoding, opts.ordered = true (perf's round ordering)
 *	ordered-raw  ordered, raw
 *
 * Each mode runs once unmeasured (page cache, lazy binding), then -r times;
 * it prints one line per mode with the median and the minimum wall time,
 * the number of records and a checksum (so that nothing is optimized away,
 * and so that modes can be compared: mmap and raw must agree on records and
 * the sum of types for an uncompressed file). With a single mode the peak
 * RSS of the process (getrusage) is that mode's.
 *
 * Output (one line per mode, for bench/run-walk.sh):
 *	walk mode=raw records=1001234 sum=... median_s=0.123456 min_s=0.120000 runs=5 maxrss_kb=...
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sampo/reader.h>

enum mode {
	MODE_MMAP,
	MODE_MMAP_PREFETCH,
	MODE_MMAP_LAZY,
	MODE_RAW,
	MODE_FULL,
	MODE_ORDERED,
	MODE_ORDERED_RAW,
	MODE_MAX
};

static const char *const mode_names[MODE_MAX] = {
	[MODE_MMAP] = "mmap",
	[MODE_MMAP_PREFETCH] = "mmap-prefetch",
	[MODE_MMAP_LAZY] = "mmap-lazy",
	[MODE_RAW] = "raw",
	[MODE_FULL] = "full",
	[MODE_ORDERED] = "ordered",
	[MODE_ORDERED_RAW] = "ordered-raw",
};

struct walk_result {
	uint64_t records;
	uint64_t sum; /* of the record types (+ decoded fields in full modes) */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t load_u64(const uint8_t *p, bool swap)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swap ? __builtin_bswap64(v) : v;
}

/* The floor: one pass over the record headers of the data section. */
static int walk_mmap(const char *path, bool populate, bool prefetch, struct walk_result *res)
{
	struct sampo_file_header h;
	struct stat st;
	const uint8_t *map;
	uint64_t off, end;
	bool swap;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "walk: cannot open '%s': %s\n", path, strerror(errno));
		return -1;
	}
	if ((size_t)st.st_size < sizeof(h)) {
		fprintf(stderr, "walk: '%s' is too short\n", path);
		close(fd);
		return -1;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0),
		   fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		fprintf(stderr, "walk: cannot map '%s': %s\n", path, strerror(errno));
		return -1;
	}
	swap = load_u64(map, false) == SAMPO_MAGIC2_SWAPPED;
	if (!swap && load_u64(map, false) != SAMPO_MAGIC2) {
		fprintf(stderr,
			"walk: '%s' is not a perf.data file (pipe files: use a reader mode)\n",
			path);
		munmap((void *)map, (size_t)st.st_size);
		return -1;
	}
	off = load_u64(map + offsetof(struct sampo_file_header, data.offset), swap);
	end = off + load_u64(map + offsetof(struct sampo_file_header, data.size), swap);
	if (end > (uint64_t)st.st_size || end < off)
		end = (uint64_t)st.st_size;

	while (off + sizeof(struct sampo_record_header) <= end) {
		struct sampo_record_header rh;

		if (prefetch)
			__builtin_prefetch(map + off + 256);
		memcpy(&rh, map + off, sizeof(rh));
		if (swap) {
			rh.type = __builtin_bswap32(rh.type);
			rh.size = __builtin_bswap16(rh.size);
		}
		if (rh.size < sizeof(rh))
			break;
		res->sum += rh.type;
		res->records++;
		off += rh.size;
	}
	munmap((void *)map, (size_t)st.st_size);
	return 0;
}

static int walk_reader(const char *path, enum mode mode, struct walk_result *res)
{
	char errbuf[256] = "";
	SAMPO_OPTS(sampo_reader_opts, opts, .raw = mode == MODE_RAW || mode == MODE_ORDERED_RAW,
		   .ordered = mode == MODE_ORDERED || mode == MODE_ORDERED_RAW, .errbuf = errbuf,
		   .errbuf_sz = sizeof(errbuf));
	bool decode = !opts.raw;
	struct sampo_reader *r;
	struct sampo_event ev;
	int err;

	err = sampo_reader__open(path, &opts, &r);
	if (err) {
		fprintf(stderr, "walk: cannot open '%s': %s\n", path, errbuf);
		return -1;
	}
	while ((err = sampo_reader__next(r, &ev)) > 0) {
		res->sum += ev.record->header.type;
		if (decode)
			res->sum += ev.sample.ip + ev.sample.time + ev.sample.callchain_nr;
		res->records++;
	}
	if (err < 0)
		fprintf(stderr, "walk: '%s': %s\n", path, sampo_reader__error(r));
	sampo_reader__close(r);
	return err < 0 ? -1 : 0;
}

static int walk_once(const char *path, enum mode mode, struct walk_result *res)
{
	memset(res, 0, sizeof(*res));
	if (mode == MODE_MMAP || mode == MODE_MMAP_PREFETCH || mode == MODE_MMAP_LAZY)
		return walk_mmap(path, mode != MODE_MMAP_LAZY, mode == MODE_MMAP_PREFETCH, res);
	return walk_reader(path, mode, res);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: walk [-r RUNS] [-m MODE]... FILE\n"
		   "  -m, --mode MODE   mmap, mmap-prefetch, mmap-lazy, raw, full, ordered,\n"
		   "                    ordered-raw (repeatable; default: mmap mmap-prefetch\n"
		   "                    raw full ordered)\n"
		   "  -r, --runs N      measured runs per mode after one warm-up (default 5)\n");
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "runs", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool modes[MODE_MAX] = { false };
	bool any = false;
	int runs = 5, c;
	double *times;
	const char *path;

	while ((c = getopt_long(argc, argv, "m:r:h", longopts, NULL)) != -1) {
		int m;

		switch (c) {
		case 'm':
			for (m = 0; m < MODE_MAX; m++)
				if (!strcmp(optarg, mode_names[m]))
					break;
			if (m == MODE_MAX) {
				fprintf(stderr, "walk: unknown mode '%s'\n", optarg);
				return 129;
			}
			modes[m] = any = true;
			break;
		case 'r':
			runs = atoi(optarg);
			if (runs < 1 || runs > 1000) {
				fprintf(stderr, "walk: bad run count '%s'\n", optarg);
				return 129;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 129;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 129;
	}
	path = argv[optind];
	if (!any)
		modes[MODE_MMAP] = modes[MODE_MMAP_PREFETCH] = modes[MODE_RAW] = modes[MODE_FULL] =
			modes[MODE_ORDERED] = true;

	times = calloc((size_t)runs, sizeof(*times));
	if (!times)
		return 1;
	for (int m = 0; m < MODE_MAX; m++) {
		struct walk_result res, first;
		struct rusage ru;

		if (!modes[m])
			continue;
		if (walk_once(path, (enum mode)m, &first))
			return 1;
		for (int i = 0; i < runs; i++) {
			double t0 = now();

			if (walk_once(path, (enum mode)m, &res))
				return 1;
			times[i] = now() - t0;
			if (res.records != first.records || res.sum != first.sum) {
				fprintf(stderr, "walk: %s: runs disagree\n", mode_names[m]);
				return 1;
			}
		}
		qsort(times, (size_t)runs, sizeof(*times), cmp_double);
		getrusage(RUSAGE_SELF, &ru);
		printf("walk mode=%s records=%" PRIu64 " sum=%" PRIu64
		       " median_s=%.6f min_s=%.6f runs=%d maxrss_kb=%ld\n",
		       mode_names[m], res.records, res.sum,
		       runs % 2 ? times[runs / 2] : (times[runs / 2 - 1] + times[runs / 2]) / 2,
		       times[0], runs, ru.ru_maxrss);
		fflush(stdout);
	}
	free(times);
	return 0;
}
