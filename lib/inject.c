// SPDX-License-Identifier: LGPL-2.1
/*
 * inject.c - a perf.data file written again with one feature section more
 * (include/sampo/inject.h), and the walk that finds the symbols a
 * self-contained profile needs.
 *
 *	input:  header | attrs, ids | data | feature table | payloads
 *	output: header'| attrs, ids | data | feature table'| payloads'
 *
 * Everything before the feature table is copied as it is, except the
 * header's feature bitmap (one bit more, in the file's byte order). The
 * table sits at data.offset + data.size, with one entry per bit set, in bit
 * order (perf_header__process_sections()); the payloads follow it back to
 * back in the same order, so the new section, of a bit above every perf
 * feature, comes last: perf 6.1 counts the entries of every bit set but
 * reads only those of the bits it knows, which keep their places.
 *
 * The walk (sampo_inject__file() with .embed_symbols) reads the input in
 * perf's order with a symbolizer that notes its answers, and asks it about
 * every address report and script look up: each sample's ip, its callchain
 * entries (with their context markers) and its branch stack's from and to
 * (in the kernel's maps, then the thread's).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/embedded-symbols.h>
#include <sampo/event.h>
#include <sampo/inject.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/symbolizer.h>
#include <sampo/thread.h>
#include "internal/opts.h"
#include "internal/util.h"

#define INJECT_COPY_CHUNK (1u << 20)
#define FEAT_BITS 256
#define HEADER_SIZE 104
#define BITMAP_OFFSET 72

static void inject_err(char *errbuf, size_t sz, const char *fmt, ...) SAMPO_PRINTF(3, 4);
static void inject_err(char *errbuf, size_t sz, const char *fmt, ...)
{
	va_list ap;

	if (!errbuf || !sz)
		return;
	va_start(ap, fmt);
	vsnprintf(errbuf, sz, fmt, ap);
	va_end(ap);
}

/* ---- the file written again ------------------------------------------------------------------ */

static int write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -SAMPO_ERR_TRUNCATED;
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int copy_range(int in, int out, uint64_t off, uint64_t len, uint8_t *buf)
{
	while (len) {
		size_t n = len < INJECT_COPY_CHUNK ? (size_t)len : INJECT_COPY_CHUNK;
		int err = pread_all(in, buf, n, off);

		if (!err)
			err = write_all(out, buf, n);
		if (err)
			return err;
		off += n;
		len -= n;
	}
	return 0;
}

static uint64_t file_u64(const uint8_t *p, bool swap)
{
	return load_u64_sw(p, swap);
}

static void file_put_u64(uint8_t *p, uint64_t v, bool swap)
{
	v = swap ? bswap_64(v) : v;
	memcpy(p, &v, 8);
}

struct sect {
	uint64_t offset, size; /* in the input; size of @payload when it is set */
	const void *payload;   /* the new section's bytes */
};

/* Writes the output to @out_fd; @in_size bounds the input's sections. */
static int rewrite(int in, uint64_t in_size, const char *input, int out_fd, int feat,
		   const void *payload, size_t len, char *errbuf, size_t errbuf_sz)
{
	uint8_t hdr[HEADER_SIZE], *buf = NULL, *table = NULL;
	struct sect sects[FEAT_BITS];
	uint64_t bitmap[4], data_off, data_size, feat_off, next;
	size_t nr_in = 0, nr_out = 0, k = 0;
	bool swap;
	int err;

	err = pread_all(in, hdr, sizeof(hdr), 0);
	if (err) {
		inject_err(errbuf, errbuf_sz, "'%s': the file header is cut short", input);
		return -SAMPO_ERR_TRUNCATED;
	}
	if (load_u64(hdr) == SAMPO_MAGIC2) {
		swap = false;
	} else if (load_u64(hdr) == SAMPO_MAGIC2_SWAPPED) {
		swap = true;
	} else {
		inject_err(errbuf, errbuf_sz,
			   "'%s': not a perf.data file in file mode (a pipe-mode stream or an old "
			   "format: write it to a file with sampo record -o FILE first)",
			   input);
		return -SAMPO_ERR_UNSUPPORTED;
	}
	if (file_u64(hdr + 8, swap) != HEADER_SIZE) {
		inject_err(errbuf, errbuf_sz, "'%s': header size %" PRIu64 " (only %d is handled)",
			   input, file_u64(hdr + 8, swap), HEADER_SIZE);
		return -SAMPO_ERR_UNSUPPORTED;
	}
	data_off = file_u64(hdr + 40, swap);
	data_size = file_u64(hdr + 48, swap);
	feat_off = data_off + data_size;
	if (feat_off < data_off || feat_off > in_size || data_off < HEADER_SIZE) {
		inject_err(errbuf, errbuf_sz,
			   "'%s': data section %#" PRIx64 "+%#" PRIx64 " outside the file (size %#" PRIx64
			   ")",
			   input, data_off, data_size, in_size);
		return -SAMPO_ERR_MALFORMED;
	}
	for (int w = 0; w < 4; w++)
		bitmap[w] = file_u64(hdr + BITMAP_OFFSET + 8 * w, swap);
	for (int b = 0; b < FEAT_BITS; b++)
		nr_in += (bitmap[b / 64] >> (b % 64)) & 1;
	if (nr_in) {
		table = malloc(nr_in * 16);
		if (!table)
			return -ENOMEM;
		if (feat_off + nr_in * 16 > in_size || pread_all(in, table, nr_in * 16, feat_off)) {
			inject_err(errbuf, errbuf_sz,
				   "'%s': the feature table at %#" PRIx64 " (%zu entries) runs past the "
				   "end of the file",
				   input, feat_off, nr_in);
			err = -SAMPO_ERR_MALFORMED;
			goto out;
		}
	}
	for (int b = 0; b < FEAT_BITS; b++) {
		bool had = (bitmap[b / 64] >> (b % 64)) & 1;
		uint64_t off = 0, size = 0;

		if (had) {
			off = file_u64(table + k * 16, swap);
			size = file_u64(table + k * 16 + 8, swap);
			k++;
			if (off > in_size || size > in_size - off) {
				inject_err(errbuf, errbuf_sz,
					   "'%s': feature %d's section %#" PRIx64 "+%#" PRIx64
					   " lies outside the file (size %#" PRIx64 ")",
					   input, b, off, size, in_size);
				err = -SAMPO_ERR_MALFORMED;
				goto out;
			}
		}
		if (b == feat) {
			sects[nr_out++] = (struct sect){ .size = len, .payload = payload };
			bitmap[b / 64] |= 1ULL << (b % 64);
		} else if (had) {
			sects[nr_out++] = (struct sect){ .offset = off, .size = size };
		}
	}

	for (int w = 0; w < 4; w++)
		file_put_u64(hdr + BITMAP_OFFSET + 8 * w, bitmap[w], swap);
	buf = malloc(INJECT_COPY_CHUNK);
	free(table);
	table = malloc(nr_out * 16 + 1);
	if (!buf || !table) {
		err = -ENOMEM;
		goto out;
	}
	next = feat_off + nr_out * 16;
	for (size_t i = 0; i < nr_out; i++) {
		file_put_u64(table + i * 16, next, swap);
		file_put_u64(table + i * 16 + 8, sects[i].size, swap);
		next += sects[i].size;
	}
	err = write_all(out_fd, hdr, sizeof(hdr));
	if (!err)
		err = copy_range(in, out_fd, HEADER_SIZE, feat_off - HEADER_SIZE, buf);
	if (!err)
		err = write_all(out_fd, table, nr_out * 16);
	for (size_t i = 0; !err && i < nr_out; i++) {
		if (sects[i].payload)
			err = write_all(out_fd, sects[i].payload, sects[i].size);
		else
			err = copy_range(in, out_fd, sects[i].offset, sects[i].size, buf);
	}
	if (err) {
		char msg[128];

		inject_err(errbuf, errbuf_sz, "cannot copy '%s': %s", input,
			   sampo_strerror(err, msg, sizeof(msg)));
	}
out:
	free(buf);
	free(table);
	return err;
}

/* @feat -1: a plain copy */
static int inject_copy(const char *input, const char *output, int feat, const void *payload,
		       size_t len, char *errbuf, size_t errbuf_sz)
{
	char *tmp = NULL, msg[128];
	struct stat st;
	int in, out, err;
	in = open(input, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		err = -errno;
		inject_err(errbuf, errbuf_sz, "cannot open '%s': %s", input, strerror(errno));
		return err;
	}
	if (fstat(in, &st) || !S_ISREG(st.st_mode)) {
		inject_err(errbuf, errbuf_sz, "'%s' is not a regular file (a pipe-mode stream?): "
			   "inject reads a perf.data file",
			   input);
		close(in);
		return -SAMPO_ERR_UNSUPPORTED;
	}
	if (!strcmp(output, "-")) {
		err = rewrite(in, (uint64_t)st.st_size, input, STDOUT_FILENO, feat, payload, len,
			      errbuf, errbuf_sz);
		close(in);
		return err;
	}
	/* beside the output, renamed at the end: the output may be the input */
	if (asprintf(&tmp, "%s.tmp.XXXXXX", output) < 0) {
		close(in);
		return -ENOMEM;
	}
	out = mkostemp(tmp, O_CLOEXEC);
	if (out < 0) {
		err = -errno;
		inject_err(errbuf, errbuf_sz, "cannot create '%s': %s", tmp, strerror(errno));
		goto out;
	}
	err = rewrite(in, (uint64_t)st.st_size, input, out, feat, payload, len, errbuf, errbuf_sz);
	if (!err && fsync(out)) {
		err = -errno;
		inject_err(errbuf, errbuf_sz, "cannot write '%s': %s", output, strerror(errno));
	}
	if (close(out) && !err) {
		err = -errno;
		inject_err(errbuf, errbuf_sz, "cannot write '%s': %s", output, strerror(errno));
	}
	if (!err && rename(tmp, output)) {
		err = -errno;
		inject_err(errbuf, errbuf_sz, "cannot rename '%s' to '%s': %s", tmp, output,
			   sampo_strerror(err, msg, sizeof(msg)));
	}
	if (err)
		(void)unlink(tmp);
out:
	free(tmp);
	close(in);
	return err;
}

int sampo_inject__add_feature(const char *input, const char *output, int feat, const void *payload,
			      size_t len, char *errbuf, size_t errbuf_sz)
{
	if (!input || !output || feat < 1 || feat >= FEAT_BITS || (!payload && len))
		return -EINVAL;
	return inject_copy(input, output, feat, payload, len, errbuf, errbuf_sz);
}

/* ---- the symbols a profile needs ----------------------------------------------------------- */

struct walk {
	struct sampo_symbolizer *symbolizer;
	struct sampo_machine *machine;
	struct sampo_addr_location al;
	uint64_t nr_samples;
};

static bool kernel_mode(uint8_t cpumode)
{
	return cpumode == SAMPO_CPUMODE_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_KERNEL;
}

/* one address, as report's and script's frames look it up */
static void walk_addr(struct walk *w, struct sampo_thread *thread, uint8_t cpumode, uint64_t addr)
{
	struct sampo_map *map = sampo_machine__find_map(w->machine, thread, cpumode, addr, &w->al);

	if (map)
		(void)sampo_symbolizer__find(w->symbolizer, map, addr);
	else if (kernel_mode(cpumode))
		(void)sampo_symbolizer__find_unmapped(w->symbolizer, addr, NULL);
}

static int walk_sample(void *ctx, struct sampo_session *session, const struct sampo_event *ev)
{
	struct walk *w = ctx;
	const struct sampo_sample *s = &ev->sample;
	struct sampo_thread *thread;
	uint8_t cpumode = s->cpumode;
	int err;

	(void)session;
	w->nr_samples++;
	/* the host's symbols only: a guest's are not embedded */
	if (cpumode == SAMPO_CPUMODE_GUEST_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_USER)
		return 0;
	err = sampo_machine__resolve(w->machine, s, &w->al);
	if (err)
		return err;
	thread = w->al.thread ? sampo_thread__get(w->al.thread) : NULL;
	if (!thread)
		return 0;
	walk_addr(w, thread, cpumode, s->ip);
	for (uint64_t i = 0; s->callchain && i < s->callchain_nr; i++) {
		uint64_t ip = s->callchain[i];

		if (ip >= SAMPO_CONTEXT_MAX) {
			if (ip == SAMPO_CONTEXT_KERNEL)
				cpumode = SAMPO_CPUMODE_KERNEL;
			else if (ip == SAMPO_CONTEXT_USER)
				cpumode = SAMPO_CPUMODE_USER;
			else
				cpumode = SAMPO_CPUMODE_HYPERVISOR;
			continue;
		}
		walk_addr(w, thread, cpumode, ip);
	}
	for (uint64_t i = 0; s->branch && i < s->branch_nr; i++) {
		/* perf tries the kernel's maps, then the thread's (thread__find_cpumode_addr_location) */
		walk_addr(w, thread, SAMPO_CPUMODE_KERNEL, s->branch[i].from);
		walk_addr(w, thread, SAMPO_CPUMODE_USER, s->branch[i].from);
		walk_addr(w, thread, SAMPO_CPUMODE_KERNEL, s->branch[i].to);
		walk_addr(w, thread, SAMPO_CPUMODE_USER, s->branch[i].to);
	}
	sampo_thread__put(thread);
	return 0;
}

static int collect(const char *input, const struct sampo_inject_opts *opts,
		   struct sampo_embedded_symbols **ret, uint64_t *nr_samples)
{
	char *errbuf = OPTS_GET(opts, errbuf, NULL);
	size_t errbuf_sz = errbuf ? OPTS_GET(opts, errbuf_sz, 0) : 0;
	const struct sampo_symbolizer_opts *given = OPTS_GET(opts, symbolizer, NULL);
	struct sampo_symbolizer_opts sym = { .sz = sizeof(sym) };
	struct sampo_tool tool = { .sample = walk_sample };
	struct walk w = { 0 };
	struct sampo_session *session = NULL;
	int err;

	if (given)
		memcpy(&sym, given, MIN(given->sz, sizeof(sym)));
	sym.sz = sizeof(sym);
	sym.track_hits = true;
	SAMPO_OPTS(sampo_session_opts, so, .ordered = true,
		   .features = SAMPO_SESSION_FEATURES_EACH, .symbolizer = &sym, .errbuf = errbuf,
		   .errbuf_sz = errbuf_sz);
	err = sampo_session__open(input, &so, &session);
	if (err)
		return err;
	if (sampo_reader__is_pipe(sampo_session__reader(session))) {
		inject_err(errbuf, errbuf_sz,
			   "'%s' is a pipe-mode stream: inject reads a perf.data file (write it to a "
			   "file first)",
			   input);
		err = -SAMPO_ERR_UNSUPPORTED;
		goto out;
	}
	w.machine = sampo_session__machine(session);
	w.symbolizer = sampo_session__symbolizer(session);
	if (!w.symbolizer) {
		inject_err(errbuf, errbuf_sz, "'%s': %s", input, sampo_session__error(session));
		err = -EINVAL;
		goto out;
	}
	err = sampo_session__process(session, &tool, &w);
	sampo_addr_location__exit(&w.al);
	if (err < 0) {
		inject_err(errbuf, errbuf_sz, "%s", sampo_session__error(session));
		goto out;
	}
	*nr_samples = w.nr_samples;
	err = sampo_symbolizer__embed(w.symbolizer, ret);
out:
	sampo_session__close(session);
	return err;
}

int sampo_inject__file(const char *input, const char *output, const struct sampo_inject_opts *opts)
{
	char *errbuf = OPTS_GET(opts, errbuf, NULL);
	size_t errbuf_sz = errbuf ? OPTS_GET(opts, errbuf_sz, 0) : 0;
	struct sampo_inject_stats *stats = OPTS_GET(opts, stats, NULL);
	struct sampo_embedded_symbols *es = NULL;
	uint64_t nr_samples = 0;
	void *payload = NULL;
	size_t len = 0;
	int err;

	if (!input || !output || !OPTS_VALID(opts, sampo_inject_opts))
		return -EINVAL;
	if (errbuf && errbuf_sz)
		errbuf[0] = '\0';
	if (!OPTS_GET(opts, embed_symbols, false))
		return inject_copy(input, output, -1, NULL, 0, errbuf, errbuf_sz);
	err = collect(input, opts, &es, &nr_samples);
	if (!err)
		err = sampo_embedded_symbols__encode(es, &payload, &len);
	if (!err)
		err = sampo_inject__add_feature(input, output, SAMPO_FEAT_EMBEDDED_SYMBOLS, payload,
						len, errbuf, errbuf_sz);
	else if (errbuf && errbuf_sz && !errbuf[0])
		inject_err(errbuf, errbuf_sz, "cannot embed the symbols of '%s': %s", input,
			   sampo_strerror(err, (char[128]){ 0 }, 128));
	if (!err && stats) {
		stats->nr_samples = nr_samples;
		stats->nr_tables = sampo_embedded_symbols__nr_tables(es);
		stats->nr_symbols = sampo_embedded_symbols__nr_symbols(es);
		stats->section_bytes = len;
	}
	free(payload);
	sampo_embedded_symbols__delete(es);
	return err;
}
