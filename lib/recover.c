// SPDX-License-Identifier: LGPL-2.1
/*
 * recover.c - give a cut perf.data file (the writer failed before its close)
 * a header that covers its complete records.
 *
 * Layout the writer leaves behind (file mode, see docs/writer.md):
 *
 *	0            104 zero bytes (the header is written at close)
 *	104          ids of every attr
 *	A            attrs: nr_attrs x (attr 128 bytes + {ids offset, ids size})
 *	data_offset  records ... possibly cut in the middle of one
 *
 * The records are walked with their header.size (8 to 65535, so a walk never
 * loops); the first record that runs past the end of the file ends the data.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sampo/event.h>
#include <sampo/recover.h>

#include "internal/util.h"

#define WALK_BUF (1u << 20)

static int pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t r = pread(fd, p, len, (off_t)off);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -SAMPO_ERR_TRUNCATED;
		p += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

/* End of the last complete record at or after @start, below @end. */
static int walk_records(int fd, uint64_t start, uint64_t end, uint64_t *ret_end)
{
	uint64_t pos = start;

	while (end - pos >= sizeof(struct sampo_record_header)) {
		struct sampo_record_header h;
		int err = pread_all(fd, &h, sizeof(h), pos);

		if (err)
			return err;
		if (h.size < sizeof(h) || h.size > end - pos)
			break;
		pos += h.size;
	}
	*ret_end = pos;
	return 0;
}

int sampo_perfdata__recover(const char *path, uint64_t data_offset, size_t nr_attrs,
			    uint64_t *ret_data_size)
{
	return sampo_perfdata__recover_feature(path, data_offset, nr_attrs, 0, NULL, 0,
					       ret_data_size);
}

int sampo_perfdata__recover_feature(const char *path, uint64_t data_offset, size_t nr_attrs,
				    int feat, const void *payload, size_t size,
				    uint64_t *ret_data_size)
{
	const uint64_t entry = SAMPO_ATTR_SIZE_VER7 + 16;
	struct sampo_file_header fh;
	struct stat st;
	uint64_t attrs_offset, data_end, room = 0;
	int fd, err;

	if (!path || !nr_attrs || data_offset < sizeof(fh) + nr_attrs * entry ||
	    (payload && (feat <= SAMPO_FEAT_RESERVED || feat >= SAMPO_FEAT_MAX_BITS || !size ||
			 size > (1u << 20))))
		return -EINVAL;
	if (payload)
		room = 16 + size; /* the feature table's one entry, then the section */
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		err = -errno;
		goto out_close;
	}
	if ((uint64_t)st.st_size < data_offset) {
		err = -SAMPO_ERR_TRUNCATED;
		goto out_close;
	}
	if ((uint64_t)st.st_size - data_offset < room) {
		err = -SAMPO_ERR_TRUNCATED;
		goto out_close;
	}
	/* the records that leave room for the feature in the bytes the file has */
	err = walk_records(fd, data_offset, (uint64_t)st.st_size - room, &data_end);
	if (err)
		goto out_close;
	attrs_offset = data_offset - nr_attrs * entry;

	memset(&fh, 0, sizeof(fh));
	fh.magic = SAMPO_MAGIC2;
	fh.size = sizeof(fh);
	fh.attr_size = entry;
	fh.attrs.offset = attrs_offset;
	fh.attrs.size = nr_attrs * entry;
	fh.data.offset = data_offset;
	fh.data.size = data_end - data_offset;
	if (payload) {
		uint64_t section[2] = { data_end + 16, size };

		fh.adds_features[feat / 64] |= 1ULL << (feat % 64);
		if (pwrite(fd, section, sizeof(section), (off_t)data_end) !=
			    (ssize_t)sizeof(section) ||
		    pwrite(fd, payload, size, (off_t)(data_end + 16)) != (ssize_t)size) {
			err = errno ? -errno : -EIO;
			goto out_close;
		}
	}
	if (ftruncate(fd, (off_t)(data_end + room))) {
		err = -errno;
		goto out_close;
	}
	if (pwrite(fd, &fh, sizeof(fh), 0) != (ssize_t)sizeof(fh)) {
		err = errno ? -errno : -EIO;
		goto out_close;
	}
	if (fsync(fd) && errno != EINVAL) {
		err = -errno;
		goto out_close;
	}
	if (ret_data_size)
		*ret_data_size = fh.data.size;
	err = 0;
out_close:
	close(fd);
	return err;
}
