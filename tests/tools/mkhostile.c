// SPDX-License-Identifier: GPL-2.0
/*
 * mkhostile - write the hostile perf.data files of docs/hardening.md: small
 * inputs that ask for much work or memory, one class each, for the tests that
 * check that sampo's work and memory stay bounded by the input.
 *
 *	mkhostile compressed FILE [-n RECORDS] [-b BYTES] [-m MMAP_LEN] [--pipe]
 *		RECORDS COMPRESSED records (one zstd stream, as perf writes),
 *		each inflating to BYTES bytes of 24-byte SAMPLEs that all carry
 *		the same time (so they compress to almost nothing), with no
 *		FINISHED_ROUND; the COMPRESSED feature says MMAP_LEN
 *	mkhostile ids FILE [-n ATTRS] [-i IDS] [--shift]
 *		ATTRS attrs whose ids sections are all the same IDS ids; with
 *		--shift each starts one id after the one before (all distinct,
 *		overlapping)
 *	mkhostile dsos FILE [-n DSOS] [--build-ids] [--samples]
 *		DSOS MMAP2s of distinct files of one process, descending
 *		addresses, one sample in each with --samples; with --build-ids a
 *		build-id table entry for each (distinct build-ids)
 *	mkhostile maps FILE [-n MAPS] [--versions] [--samples]
 *		MAPS MMAP2s of one file in one process, descending addresses,
 *		and a sample in every 1000th (--samples: in each); with
 *		--versions each has another inode (a file replaced MAPS times)
 *	mkhostile spellings FILE -p PATH [-n SPELLINGS]
 *		a build-id table naming the ELF file PATH (with its build-id)
 *		SPELLINGS ways ("/" doubled), and one sample outside them all
 *
 * Everything is deterministic. The samples use pid 100, attr sample_type
 * IP|TID|TIME|PERIOD with sample_id_all.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include <sampo/buildid.h>
#include <sampo/writer.h>

#define PID 100
#define T0 1000000000ULL

static void die(int err, const char *what)
{
	fprintf(stderr, "mkhostile: %s: %s\n", what, strerror(err < 0 ? -err : err));
	exit(1);
}

static void check(int err, const char *what)
{
	if (err < 0)
		die(err, what);
}

static struct sampo_writer *open_out(const char *path, bool pipe)
{
	SAMPO_OPTS(sampo_writer_opts, opts, .pipe = pipe);
	static const struct sampo_event_attr base = {
		.type = SAMPO_TYPE_SOFTWARE,
		.size = SAMPO_ATTR_SIZE_VER7,
		.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |
			       SAMPO_SAMPLE_PERIOD,
		.sample_period = 4000,
		.flags = SAMPO_ATTR_SAMPLE_ID_ALL | SAMPO_ATTR_MMAP | SAMPO_ATTR_COMM |
			 SAMPO_ATTR_MMAP2,
	};
	struct sampo_writer *w;
	const uint64_t id = 1;

	check(sampo_writer__open(path, &opts, &w), path);
	check(sampo_writer__add_attr(w, &base, &id, 1), "add attr");
	return w;
}

static struct sampo_sample sample_at(uint64_t ip, uint64_t time)
{
	struct sampo_sample s = { .ip = ip, .pid = PID, .tid = PID, .time = time, .period = 1 };

	return s;
}

/* ---- compressed ------------------------------------------------------------------------------ */

static int mk_compressed(const char *path, unsigned long nr, unsigned long bytes,
			 uint32_t mmap_len, bool pipe)
{
	struct sampo_writer *w = open_out(path, pipe);
	const uint32_t feat[5] = { 0, 1, 1, 0, mmap_len }; /* version, zstd, level, ratio, len */
	/* one 24-byte SAMPLE with IP|TID|TIME|PERIOD is 8 + 32 = 40 bytes: use those */
	uint8_t rec[40] = { 0 };
	uint64_t v;
	uint8_t *plain, *out;
	size_t out_cap = 65000;
	ZSTD_CCtx *z = ZSTD_createCCtx();
	union sampo_record *c = malloc(65536);

	if (!z || !c)
		die(-ENOMEM, "zstd");
	check(sampo_writer__set_feature(w, SAMPO_FEAT_COMPRESSED, feat, sizeof(feat)),
	      "COMPRESSED feature");
	check(sampo_writer__write_comm(w, PID, PID, "hostile", false, NULL), "comm");
	/* a SAMPLE in the file's (host) byte order */
	rec[0] = SAMPO_RECORD_SAMPLE;
	rec[4] = SAMPO_CPUMODE_USER;
	rec[6] = sizeof(rec);
	v = 0x400000;
	memcpy(rec + 8, &v, 8);
	v = (uint64_t)PID << 32 | PID;
	memcpy(rec + 16, &v, 8);
	v = T0;
	memcpy(rec + 24, &v, 8);
	v = 1;
	memcpy(rec + 32, &v, 8);
	bytes -= bytes % sizeof(rec);
	plain = malloc(bytes);
	out = c->compressed.data;
	if (!plain)
		die(-ENOMEM, "buffer");
	for (size_t i = 0; i < bytes; i += sizeof(rec))
		memcpy(plain + i, rec, sizeof(rec));
	ZSTD_CCtx_setParameter(z, ZSTD_c_compressionLevel, 3);
	for (unsigned long i = 0; i < nr; i++) {
		ZSTD_inBuffer in = { plain, bytes, 0 };
		size_t left;

		/* one flushed chunk per record, as perf does; a chunk too big splits */
		do {
			ZSTD_outBuffer ob = { out, out_cap, 0 };

			left = ZSTD_compressStream2(z, &ob, &in, ZSTD_e_flush);
			if (ZSTD_isError(left))
				die(-EINVAL, ZSTD_getErrorName(left));
			c->header.type = SAMPO_RECORD_COMPRESSED;
			c->header.misc = 0;
			c->header.size = (uint16_t)(8 + ob.pos);
			check(sampo_writer__write_record(w, c), "COMPRESSED");
		} while (left || in.pos < in.size);
	}
	ZSTD_freeCCtx(z);
	free(plain);
	free(c);
	check(sampo_writer__close(w), "close");
	return 0;
}

/* ---- ids ------------------------------------------------------------------------------------- */

/*
 * Written by hand: the writer gives each attr its own ids. Layout: header,
 * the ids, the attrs (each entry: attr + {offset, size} of the same ids),
 * an empty data section, no features.
 */
static int mk_ids(const char *path, unsigned long nr_attrs, unsigned long nr_ids, bool shift)
{
	const size_t attr_sz = SAMPO_ATTR_SIZE_VER7, entry = attr_sz + 16;
	struct sampo_file_header h = { 0 };
	struct sampo_event_attr a = { 0 };
	uint64_t ids_off = sizeof(h), attrs_off = ids_off + (nr_ids + (shift ? nr_attrs : 0)) * 8;
	FILE *f = fopen(path, "wb");

	if (!f)
		die(-errno, path);
	h.magic = SAMPO_MAGIC2;
	h.size = sizeof(h);
	h.attr_size = entry;
	h.attrs.offset = attrs_off;
	h.attrs.size = nr_attrs * entry;
	h.data.offset = attrs_off + nr_attrs * entry;
	h.data.size = 0;
	fwrite(&h, sizeof(h), 1, f);
	for (uint64_t i = 0; i < nr_ids + (shift ? nr_attrs : 0); i++) {
		uint64_t id = i + 1;

		fwrite(&id, 8, 1, f);
	}
	a.type = SAMPO_TYPE_SOFTWARE;
	a.size = (uint32_t)attr_sz;
	a.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_ID;
	a.flags = SAMPO_ATTR_SAMPLE_ID_ALL;
	for (unsigned long i = 0; i < nr_attrs; i++) {
		struct sampo_file_section s = { ids_off + (shift ? i * 8 : 0), nr_ids * 8 };

		a.config = i;
		fwrite(&a, attr_sz, 1, f);
		fwrite(&s, sizeof(s), 1, f);
	}
	if (fclose(f))
		die(-errno, path);
	return 0;
}

/* ---- dsos ------------------------------------------------------------------------------------ */

static int mk_dsos(const char *path, unsigned long nr, bool build_ids, bool samples)
{
	struct sampo_writer *w = open_out(path, false);
	const uint64_t top = 0x7f0000000000ULL, step = 0x10000;

	check(sampo_writer__write_comm(w, PID, PID, "hostile", false, NULL), "comm");
	for (unsigned long i = 0; i < nr; i++) {
		char name[64];
		struct sampo_writer_map m = {
			.misc = SAMPO_CPUMODE_USER, .pid = PID, .tid = PID,
			.start = top - (i + 1) * step, .len = step, .maj = 8, .ino = 1000 + i,
			.prot = 5, .flags = 2, .filename = name,
		};

		snprintf(name, sizeof(name), "/nonexistent/hostile/lib%lu.so", i);
		check(sampo_writer__write_mmap2(w, &m, NULL), "mmap2");
	}
	for (unsigned long i = 0; samples && i < nr; i++) {
		struct sampo_sample s = sample_at(top - (i + 1) * step + 0x100, T0 + i);

		check(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &s), "sample");
	}
	for (unsigned long i = 0; build_ids && i < nr; i++) {
		char name[64];
		uint8_t bid[20] = { 0xb1 };

		memcpy(bid + 4, &i, sizeof(i));
		snprintf(name, sizeof(name), "/nonexistent/hostile/lib%lu.so", i);
		check(sampo_writer__add_build_id(w, SAMPO_CPUMODE_USER, -1, bid, 20, name),
		      "build-id");
	}
	check(sampo_writer__close(w), "close");
	return 0;
}

/* ---- maps ---------------------------------------------------------------------------------- */

static int mk_maps(const char *path, unsigned long nr, bool versions, bool samples)
{
	struct sampo_writer *w = open_out(path, false);
	const uint64_t top = 0x7f0000000000ULL, step = 0x2000;

	check(sampo_writer__write_comm(w, PID, PID, "hostile", false, NULL), "comm");
	for (unsigned long i = 0; i < nr; i++) {
		struct sampo_writer_map m = {
			.misc = SAMPO_CPUMODE_USER, .pid = PID, .tid = PID,
			.start = top - (i + 1) * step, .len = step, .pgoff = 0x1000, .maj = 8,
			.ino = versions ? 1000 + i : 1000, .prot = 5, .flags = 2,
			.filename = "/nonexistent/hostile/libmaps.so",
		};

		check(sampo_writer__write_mmap2(w, &m, NULL), "mmap2");
	}
	for (unsigned long i = 0; i < nr; i += samples ? 1 : 1000) {
		struct sampo_sample s = sample_at(top - (i + 1) * step + 0x100, T0 + i);

		check(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &s), "sample");
	}
	check(sampo_writer__close(w), "close");
	return 0;
}

/* ---- spellings ------------------------------------------------------------------------------- */

static int mk_spellings(const char *path, const char *elf, unsigned long nr)
{
	struct sampo_writer *w = open_out(path, false);
	struct sampo_build_id bid;
	struct sampo_sample s = sample_at(0x400100, T0);
	struct sampo_writer_map m = {
		.misc = SAMPO_CPUMODE_USER, .pid = PID, .tid = PID, .start = 0x400000,
		.len = 0x1000, .maj = 8, .ino = 1, .prot = 5, .flags = 2,
		.filename = "/nonexistent/hostile/other.so",
	};
	size_t len = strlen(elf);
	char *name = malloc(len + 2 * nr + 2);

	if (!name)
		die(-ENOMEM, "name");
	check(sampo_build_id__from_elf(elf, &bid), elf);
	check(sampo_writer__write_comm(w, PID, PID, "hostile", false, NULL), "comm");
	check(sampo_writer__write_mmap2(w, &m, NULL), "mmap2");
	check(sampo_writer__write_sample(w, 0, SAMPO_CPUMODE_USER, &s), "sample");
	for (unsigned long i = 0; i < nr; i++) {
		/* i more '/' after the first: the same file, spelled i ways */
		size_t o = 0;

		name[o++] = '/';
		for (unsigned long k = 0; k < i; k++)
			name[o++] = '/';
		memcpy(name + o, elf + 1, len);
		if (strlen(name) >= 4000)
			break;
		check(sampo_writer__add_build_id(w, SAMPO_CPUMODE_USER, -1, bid.data, bid.size,
						 name),
		      "build-id");
	}
	free(name);
	check(sampo_writer__close(w), "close");
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: mkhostile compressed|ids|dsos|maps|spellings FILE [options]\n");
	exit(129);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pipe", no_argument, NULL, 'P' },
		{ "build-ids", no_argument, NULL, 'B' },
		{ "samples", no_argument, NULL, 'S' },
		{ "shift", no_argument, NULL, 'H' },
		{ "versions", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long n = 0, bytes = 512 * 1024, ids = 4096;
	uint32_t mmap_len = 528384;
	bool pipe = false, build_ids = false, samples = false, shift = false, versions = false;
	const char *elf = NULL, *mode, *out;
	int c;

	if (argc < 3)
		usage();
	mode = argv[1];
	out = argv[2];
	optind = 3;
	while ((c = getopt_long(argc, argv, "n:b:m:i:p:", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': n = strtoul(optarg, NULL, 0); break;
		case 'b': bytes = strtoul(optarg, NULL, 0); break;
		case 'm': mmap_len = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'i': ids = strtoul(optarg, NULL, 0); break;
		case 'p': elf = optarg; break;
		case 'P': pipe = true; break;
		case 'B': build_ids = true; break;
		case 'S': samples = true; break;
		case 'H': shift = true; break;
		case 'V': versions = true; break;
		default: usage();
		}
	}
	if (!strcmp(mode, "compressed"))
		return mk_compressed(out, n ? n : 1, bytes, mmap_len, pipe);
	if (!strcmp(mode, "ids"))
		return mk_ids(out, n ? n : 1024, ids, shift);
	if (!strcmp(mode, "dsos"))
		return mk_dsos(out, n ? n : 1000, build_ids, samples);
	if (!strcmp(mode, "maps"))
		return mk_maps(out, n ? n : 1000, versions, samples);
	if (!strcmp(mode, "spellings") && elf)
		return mk_spellings(out, elf, n ? n : 200);
	usage();
}
