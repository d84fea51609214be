/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/writer.h - the writer's state, shared by its three files:
 * lib/writer.c (open/close, the output buffer, header, attrs and ids, the
 * file layout), lib/writer-record.c (the records and their conversion to the
 * file's byte order) and lib/writer-feature.c (feature sections and the
 * build-id table). Nothing outside lib/writer*.c includes it.
 */
#ifndef SAMPO_INTERNAL_WRITER_H
#define SAMPO_INTERNAL_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/event.h>

#define WRITER_RECORD_MAX 65535u /* header.size is a u16 */
#define WRITER_DEFAULT_ATTR_SIZE SAMPO_ATTR_SIZE_VER7

struct sampo_writer_attr {
	struct sampo_event_attr attr; /* host order; bytes past attr.size are zero */
	uint64_t *ids;
	size_t nr_ids;
	uint64_t ids_offset; /* file mode, once written */
};

struct sampo_writer_feature {
	uint8_t *data; /* file byte order */
	size_t size, cap;
	bool set;
};

struct sampo_writer {
	int fd;
	bool own_fd;
	bool pipe;
	bool big;	     /* the file is big-endian */
	bool swap;	     /* ... and the host is not, or the other way round */
	bool guard_sigpipe;  /* fd is a pipe or socket */
	bool data_started;   /* ids and attrs are out (file mode); always in pipe mode */
	int err;	     /* first I/O error, sticky */
	uint64_t pos;	     /* bytes produced so far, from the start of the perf.data */
	uint64_t attrs_offset;
	uint64_t data_offset;
	uint32_t attr_size; /* file mode: the size every attr is written with */

	/* file mode, keep_readable: what the header on disk says (see writer_checkpoint()) */
	bool keep_readable;
	bool closing;	      /* the final features are being written: no checkpoints */
	bool hdr_has_feats;   /* the header on disk points at a feature table */
	uint64_t hdr_data_size; /* the data size the header on disk says */
	uint64_t base;	      /* where the perf.data starts in the descriptor */

	struct sampo_writer_attr *attrs;
	size_t nr_attrs;

	struct sampo_writer_feature feats[SAMPO_FEAT_MAX_BITS];

	uint8_t *scratch; /* WRITER_RECORD_MAX bytes, 8-aligned: records built in host order */
	uint8_t *buf;	  /* WRITER_BUF_SIZE bytes of output not yet written */
	size_t buf_len;
};

/* Common prologue of the public writer functions. */
#define WRITER_CHECK(w)                                                                            \
	do {                                                                                       \
		if (!(w))                                                                          \
			return -EINVAL;                                                            \
		if ((w)->err)                                                                      \
			return (w)->err;                                                           \
	} while (0)

/*
 * Stores in the FILE's byte order, whatever the host's; loads are
 * util.h's load_u16() ... in the host's. Inline: a swapped record goes
 * through them field by field.
 */
static inline void sampo_writer__store_u16(const struct sampo_writer *w, void *p, uint16_t v)
{
	uint8_t *b = p;

	if (w->big) {
		b[0] = (uint8_t)(v >> 8);
		b[1] = (uint8_t)v;
	} else {
		b[0] = (uint8_t)v;
		b[1] = (uint8_t)(v >> 8);
	}
}

static inline void sampo_writer__store_u32(const struct sampo_writer *w, void *p, uint32_t v)
{
	uint8_t *b = p;

	for (int i = 0; i < 4; i++)
		b[w->big ? 3 - i : i] = (uint8_t)(v >> (8 * i));
}

static inline void sampo_writer__store_u64(const struct sampo_writer *w, void *p, uint64_t v)
{
	uint8_t *b = p;

	for (int i = 0; i < 8; i++)
		b[w->big ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

/*
 * Room for @size bytes (at most the buffer's size) at the end of the output
 * buffer, flushing it first if needed; NULL after an I/O error (in w->err).
 * Fill it, then sampo_writer__commit(); not committing drops it.
 */
uint8_t *sampo_writer__reserve(struct sampo_writer *w, size_t size);

static inline void sampo_writer__commit(struct sampo_writer *w, size_t size)
{
	w->buf_len += size;
	w->pos += size;
}

/* Append bytes that are already in file order, of any length. Return w->err. */
int sampo_writer__append(struct sampo_writer *w, const void *data, size_t size);

/*
 * File mode: write the ids arrays and the attrs section once, before the
 * first record; the data starts after. Return w->err.
 */
int sampo_writer__start_data(struct sampo_writer *w);

/* Write @a (host order) as @size bytes of perf_event_attr in file order. */
void sampo_writer__encode_attr(const struct sampo_writer *w, uint8_t *out,
			       const struct sampo_event_attr *a, size_t size);

/*
 * Keep a copy of @attr and its @ids as the next attr (no output).
 * Return its index, or -ENOMEM.
 */
int sampo_writer__register_attr(struct sampo_writer *w, const struct sampo_event_attr *attr,
				const uint64_t *ids, size_t nr_ids);

#endif /* SAMPO_INTERNAL_WRITER_H */
