// SPDX-License-Identifier: LGPL-2.1
/*
 * archive.c - tar archives of the build-id cache (perf archive's layout),
 * written and read with libarchive; the unpacker trusts nothing.
 *
 * An archive comes from another machine and may have been made to attack
 * the one unpacking it. libarchive reads the members; every decision about
 * what lands where is made here, before anything is written:
 *
 *  - a name must be relative, without ".." components (perf's never have
 *    one), and is walked one directory at a time below the target with
 *    O_NOFOLLOW, so that no member can be written through a symbolic link
 *    an earlier member planted;
 *  - a symbolic link may only point inside the target: its target must be
 *    relative, may start with ".." components (perf's "../../NAME/BID") as
 *    long as they do not climb above the target from the link's own
 *    directory, and has no ".." after its first other component (a ".."
 *    after a component that is itself a link would resolve from wherever
 *    that link points);
 *  - hard links, devices, FIFOs and sockets are refused;
 *  - sizes are bounded per member, in total and in number of members, by
 *    what the header says and by the bytes actually read.
 *
 * Files are created under a temporary name with O_EXCL in their final
 * directory and renamed into place, so a planted symlink at the final name
 * is replaced, never followed.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sampo/archive.h>
#include <sampo/common.h>
#include <sampo/output-file.h>
#include "internal/opts.h"
#include "internal/path.h"
#include "internal/util.h"

#define DEF_MAX_MEMBER_BYTES (4ull << 30)
#define DEF_MAX_TOTAL_BYTES (16ull << 30)
#define DEF_MAX_MEMBERS 1000000ull
#define MAX_NAME 4096

/* ---- writing ----------------------------------------------------------- */

struct sampo_archive_writer {
	struct archive *a;
	int fd;	 /* the output's, ours: libarchive does not close it */
	int err; /* the first error */
};

static const char *compression_of(const char *path)
{
	static const struct {
		const char *suffix, *name;
	} by_suffix[] = {
		{ ".tar.gz", "gzip" }, { ".tgz", "gzip" },  { ".tar.xz", "xz" },
		{ ".txz", "xz" },      { ".tar.zst", "zstd" }, { ".tzst", "zstd" },
		{ ".tar", "none" },
	};
	size_t len = strlen(path);

	for (size_t i = 0; i < ARRAY_SIZE(by_suffix); i++) {
		size_t sl = strlen(by_suffix[i].suffix);

		if (len > sl && !strcmp(path + len - sl, by_suffix[i].suffix))
			return by_suffix[i].name;
	}
	return "bzip2";
}

int sampo_archive_writer__new(const char *path, const char *compression,
			      struct sampo_archive_writer **ret)
{
	struct sampo_archive_writer *w;
	int r;

	if (!path || !ret)
		return -EINVAL;
	if (!compression)
		compression = compression_of(path);
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->a = archive_write_new();
	if (!w->a) {
		free(w);
		return -ENOMEM;
	}
	if (!strcmp(compression, "bzip2"))
		r = archive_write_add_filter_bzip2(w->a);
	else if (!strcmp(compression, "gzip"))
		r = archive_write_add_filter_gzip(w->a);
	else if (!strcmp(compression, "xz"))
		r = archive_write_add_filter_xz(w->a);
	else if (!strcmp(compression, "zstd"))
		r = archive_write_add_filter_zstd(w->a);
	else if (!strcmp(compression, "none"))
		r = ARCHIVE_OK;
	else
		r = ARCHIVE_FATAL - 1;
	if (r != ARCHIVE_OK) {
		archive_write_free(w->a);
		free(w);
		return r == ARCHIVE_FATAL - 1 ? -EINVAL : -EOPNOTSUPP;
	}
	/* ustar where it fits, pax headers for long names: GNU tar and perf's users read both */
	archive_write_set_format_pax_restricted(w->a);
	/* not archive_write_open_filename(): it follows a link planted in /tmp */
	w->fd = sampo_output_file__create(path, 0666);
	if (w->fd < 0) {
		int err = w->fd;

		archive_write_free(w->a);
		free(w);
		return err;
	}
	if (archive_write_open_fd(w->a, w->fd) != ARCHIVE_OK) {
		int err = archive_errno(w->a) > 0 ? -archive_errno(w->a) : -EIO;

		archive_write_free(w->a);
		close(w->fd);
		free(w);
		return err;
	}
	*ret = w;
	return 0;
}

static struct archive_entry *new_entry(const char *member, mode_t type, mode_t perm,
				       int64_t size)
{
	struct archive_entry *e = archive_entry_new();

	if (!e)
		return NULL;
	archive_entry_set_pathname(e, member);
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, perm);
	archive_entry_set_size(e, size);
	archive_entry_set_mtime(e, time(NULL), 0);
	return e;
}

static int write_header(struct sampo_archive_writer *w, struct archive_entry *e)
{
	int r = archive_write_header(w->a, e);

	archive_entry_free(e);
	if (r < ARCHIVE_WARN) {
		w->err = w->err ? w->err : -EIO;
		return -EIO;
	}
	return 0;
}

int sampo_archive_writer__add_mem(struct sampo_archive_writer *w, const char *member,
				  const void *buf, size_t size)
{
	struct archive_entry *e;
	int err;

	if (!w || !member || (!buf && size))
		return -EINVAL;
	e = new_entry(member, AE_IFREG, 0644, (int64_t)size);
	if (!e)
		return -ENOMEM;
	err = write_header(w, e);
	if (!err && size && archive_write_data(w->a, buf, size) != (la_ssize_t)size) {
		w->err = w->err ? w->err : -EIO;
		err = -EIO;
	}
	return err;
}

int sampo_archive_writer__add_file(struct sampo_archive_writer *w, const char *member,
				   const char *src)
{
	struct archive_entry *e;
	char buf[65536];
	struct stat st;
	int fd, err;
	off_t left;

	if (!w || !member || !src)
		return -EINVAL;
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err = S_ISREG(st.st_mode) ? -errno : -EINVAL;
		close(fd);
		return err;
	}
	e = new_entry(member, AE_IFREG, st.st_mode & 0755, (int64_t)st.st_size);
	if (!e) {
		close(fd);
		return -ENOMEM;
	}
	archive_entry_set_mtime(e, st.st_mtime, 0);
	err = write_header(w, e);
	/* exactly the size the header announced, even if the file changes meanwhile */
	for (left = st.st_size; !err && left > 0;) {
		ssize_t n = read(fd, buf, (size_t)MIN((off_t)sizeof(buf), left));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* shrunk: pad with zeros so that the archive stays readable */
			memset(buf, 0, sizeof(buf));
			n = (ssize_t)MIN((off_t)sizeof(buf), left);
		}
		if (archive_write_data(w->a, buf, (size_t)n) != n) {
			w->err = w->err ? w->err : -EIO;
			err = -EIO;
		}
		left -= n;
	}
	close(fd);
	return err;
}

int sampo_archive_writer__add_symlink(struct sampo_archive_writer *w, const char *member,
				      const char *target)
{
	struct archive_entry *e;

	if (!w || !member || !target)
		return -EINVAL;
	e = new_entry(member, AE_IFLNK, 0777, 0);
	if (!e)
		return -ENOMEM;
	archive_entry_set_symlink(e, target);
	return write_header(w, e);
}

int sampo_archive_writer__add_dir(struct sampo_archive_writer *w, const char *member)
{
	struct archive_entry *e;

	if (!w || !member)
		return -EINVAL;
	e = new_entry(member, AE_IFDIR, 0755, 0);
	if (!e)
		return -ENOMEM;
	return write_header(w, e);
}

int sampo_archive_writer__close(struct sampo_archive_writer *w)
{
	int err;

	if (!w)
		return 0;
	err = w->err;
	if (archive_write_close(w->a) != ARCHIVE_OK && !err)
		err = -EIO;
	archive_write_free(w->a);
	if (close(w->fd) && !err)
		err = -errno;
	free(w);
	return err;
}

/* ---- reading ------------------------------------------------------------ */

struct unpack {
	struct archive *a;
	int rootfd;
	uint64_t max_member, max_total, max_members;
	uint64_t total, members;
	char *errbuf;
	size_t errbuf_sz;
};

static int refuse(struct unpack *u, int err, const char *member, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int refuse(struct unpack *u, int err, const char *member, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (u->errbuf && u->errbuf_sz) {
		/* a hostile name is shown with its control characters escaped */
		char shown[160];
		size_t o = 0;

		for (const char *p = member ? member : ""; *p && o + 5 < sizeof(shown); p++) {
			unsigned char c = (unsigned char)*p;

			if (c < 0x20 || c == 0x7f || c == '\'')
				o += (size_t)snprintf(shown + o, sizeof(shown) - o, "\\x%02x", c);
			else
				shown[o++] = (char)c;
		}
		shown[o] = '\0';
		if (member)
			snprintf(u->errbuf, u->errbuf_sz, "member '%s'%s: %s", shown,
				 member[o] && o + 5 >= sizeof(shown) ? "..." : "", why);
		else
			snprintf(u->errbuf, u->errbuf_sz, "%s", why);
	}
	return err;
}

/*
 * Split @name into its components in @out (at most @max), dropping "." and
 * empty ones. Return: the count, -1 for a ".." component, -2 for too many.
 */
static int split_name(char *name, char **out, int max)
{
	char *save = NULL;
	int n = 0;

	for (char *c = strtok_r(name, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, ".."))
			return -1;
		if (n == max)
			return -2;
		out[n++] = c;
	}
	return n;
}

/*
 * A link in a directory @depth levels below the target may point at
 * "../"×k + "a/b" with k <= depth and no ".." after "a".
 */
static const char *link_target_problem(const char *target, int depth)
{
	int up = 0;
	bool down = false;
	const char *p = target;

	if (!*target)
		return "symbolic link with an empty target";
	if (target[0] == '/')
		return "symbolic link to an absolute path";
	while (*p) {
		const char *end = strchr(p, '/');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len == 2 && !strncmp(p, "..", 2)) {
			if (down)
				return "symbolic link with '..' after a directory name";
			if (++up > depth)
				return "symbolic link that points outside the target";
		} else if (len && !(len == 1 && *p == '.')) {
			down = true;
		}
		p += len;
		while (*p == '/')
			p++;
	}
	return NULL;
}

/* the directory @name below @parent, created if needed; never a symlink */
static int subdir(struct unpack *u, int parent, const char *name, const char *member)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT) {
		if (mkdirat(parent, name, 0755) && errno != EEXIST)
			return refuse(u, -errno, member, "cannot create directory '%s': %s", name,
				      strerror(errno));
		fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0) {
		struct stat st;

		if (!fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
			return refuse(u, -SAMPO_ERR_MALFORMED, member,
				      "path goes through the symbolic link '%s'", name);
		return refuse(u, errno == ENOTDIR ? -SAMPO_ERR_MALFORMED : -errno, member,
			      "'%s' is not a directory", name);
	}
	return fd;
}

static void tmp_name(char *buf, size_t len, unsigned int attempt)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(buf, len, ".sampo-unpack.%ld.%lx.%u", (long)getpid(),
		 (unsigned long)(ts.tv_nsec ^ ts.tv_sec), attempt);
}

static int create_tmp(int dirfd, char *tmp, size_t len, mode_t mode)
{
	for (unsigned int i = 0; i < 100; i++) {
		int fd;

		tmp_name(tmp, len, i);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static int unpack_file(struct unpack *u, int dirfd, const char *leaf, const char *member,
		       mode_t perm)
{
	char tmp[96], buf[65536];
	uint64_t got = 0;
	int fd, err = 0;

	fd = create_tmp(dirfd, tmp, sizeof(tmp), (perm & 0755) | 0600);
	if (fd < 0)
		return refuse(u, fd, member, "cannot create: %s", strerror(-fd));
	for (;;) {
		la_ssize_t n = archive_read_data(u->a, buf, sizeof(buf));

		if (n == 0)
			break;
		if (n < 0) {
			err = refuse(u, -SAMPO_ERR_MALFORMED, member, "damaged data: %s",
				     archive_error_string(u->a) ? archive_error_string(u->a) :
								  "read error");
			break;
		}
		got += (uint64_t)n;
		u->total += (uint64_t)n;
		if (got > u->max_member) {
			err = refuse(u, -EFBIG, member, "larger than %llu bytes",
				     (unsigned long long)u->max_member);
			break;
		}
		if (u->total > u->max_total) {
			err = refuse(u, -EFBIG, member, "the archive unpacks to more than %llu bytes",
				     (unsigned long long)u->max_total);
			break;
		}
		err = write_all(fd, buf, (size_t)n);
		if (err) {
			refuse(u, err, member, "cannot write: %s", strerror(-err));
			break;
		}
	}
	if (close(fd) && !err)
		err = refuse(u, -errno, member, "cannot write: %s", strerror(errno));
	if (!err && renameat(dirfd, tmp, dirfd, leaf))
		err = refuse(u, -errno, member, "cannot create: %s", strerror(errno));
	if (err)
		(void)unlinkat(dirfd, tmp, 0);
	return err;
}

static int unpack_symlink(struct unpack *u, int dirfd, const char *leaf, const char *member,
			  const char *target)
{
	char tmp[96];

	for (unsigned int i = 0;; i++) {
		tmp_name(tmp, sizeof(tmp), i);
		if (!symlinkat(target, dirfd, tmp))
			break;
		if (errno != EEXIST || i == 100)
			return refuse(u, -errno, member, "cannot create: %s", strerror(errno));
	}
	if (renameat(dirfd, tmp, dirfd, leaf)) {
		int err = -errno;

		(void)unlinkat(dirfd, tmp, 0);
		return refuse(u, err, member, "cannot create: %s", strerror(-err));
	}
	return 0;
}

static int unpack_entry(struct unpack *u, struct archive_entry *e)
{
	const char *member = archive_entry_pathname(e);
	mode_t type = archive_entry_filetype(e);
	char *copy = NULL, *comp[256] = { 0 };
	const char *problem;
	int n, dirfd, err = 0;

	if (!member || !*member)
		return refuse(u, -SAMPO_ERR_MALFORMED, member, "member without a name");
	if (strlen(member) >= MAX_NAME)
		return refuse(u, -SAMPO_ERR_MALFORMED, member, "name longer than %d bytes",
			      MAX_NAME);
	if (member[0] == '/')
		return refuse(u, -SAMPO_ERR_MALFORMED, member, "absolute name");
	if (archive_entry_hardlink(e))
		return refuse(u, -SAMPO_ERR_MALFORMED, member, "hard link (to '%s')",
			      archive_entry_hardlink(e));
	if (type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK)
		return refuse(u, -SAMPO_ERR_MALFORMED, member, "%s",
			      type == AE_IFCHR || type == AE_IFBLK ? "device file" :
			      type == AE_IFIFO			     ? "FIFO" :
			      type == AE_IFSOCK			     ? "socket" :
								       "unknown file type");
	if (++u->members > u->max_members)
		return refuse(u, -EFBIG, member, "more than %llu members",
			      (unsigned long long)u->max_members);
	if (type == AE_IFREG && archive_entry_size_is_set(e)) {
		uint64_t size = (uint64_t)MAX(archive_entry_size(e), (la_int64_t)0);

		if (size > u->max_member)
			return refuse(u, -EFBIG, member, "%llu bytes, more than the %llu allowed",
				      (unsigned long long)size, (unsigned long long)u->max_member);
		if (u->total + size > u->max_total)
			return refuse(u, -EFBIG, member,
				      "the archive unpacks to more than %llu bytes",
				      (unsigned long long)u->max_total);
	}
	copy = strdup(member);
	if (!copy)
		return -ENOMEM;
	n = split_name(copy, comp, (int)ARRAY_SIZE(comp));
	if (n == -1)
		err = refuse(u, -SAMPO_ERR_MALFORMED, member, "name with a '..' component");
	else if (n == -2)
		err = refuse(u, -SAMPO_ERR_MALFORMED, member, "name nested too deep");
	else if (n == 0 && type != AE_IFDIR)
		err = refuse(u, -SAMPO_ERR_MALFORMED, member, "name of the target itself");
	if (err || n <= 0 || !comp[n - 1])
		goto out;
	if (type == AE_IFLNK) {
		const char *target = archive_entry_symlink(e);

		problem = target ? link_target_problem(target, n - 1) :
				   "symbolic link without a target";
		if (problem) {
			err = refuse(u, -SAMPO_ERR_MALFORMED, member, "%s ('%s')", problem,
				     target ? target : "");
			goto out;
		}
	}
	/* the parent directories, never through a symlink */
	dirfd = u->rootfd;
	for (int i = 0; i < n - 1; i++) {
		int fd = subdir(u, dirfd, comp[i], member);

		if (dirfd != u->rootfd)
			close(dirfd);
		if (fd < 0) {
			err = fd;
			goto out;
		}
		dirfd = fd;
	}
	if (type == AE_IFDIR) {
		int fd = subdir(u, dirfd, comp[n - 1], member);

		if (fd < 0)
			err = fd;
		else
			close(fd);
	} else if (type == AE_IFLNK) {
		err = unpack_symlink(u, dirfd, comp[n - 1], member, archive_entry_symlink(e));
	} else {
		err = unpack_file(u, dirfd, comp[n - 1], member, archive_entry_perm(e));
	}
	if (dirfd != u->rootfd)
		close(dirfd);
out:
	free(copy);
	return err;
}

/* why libarchive could not open a file: the file's own errno, else a bad archive */
static int open_errno(struct archive *a)
{
	int e = archive_errno(a);

	return e == ENOENT || e == EACCES || e == EISDIR || e == ENOTDIR || e == ENOMEM ?
		       -e :
		       -SAMPO_ERR_MALFORMED;
}

static struct archive *reader_new(void)
{
	struct archive *a = archive_read_new();

	if (!a)
		return NULL;
	/* tar in any compression libarchive links; never an external program */
	archive_read_support_filter_bzip2(a);
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_format_tar(a);
	archive_read_support_format_gnutar(a);
	return a;
}

static int unpack_run(struct unpack *u, const char *dest,
		      const struct sampo_archive_unpack_opts *opts)
{
	struct archive_entry *e;
	int err = 0, r;

	u->max_member = OPTS_GET(opts, max_member_bytes, (uint64_t)0);
	u->max_total = OPTS_GET(opts, max_total_bytes, (uint64_t)0);
	u->max_members = OPTS_GET(opts, max_members, (uint64_t)0);
	u->errbuf = OPTS_GET(opts, errbuf, (char *)NULL);
	u->errbuf_sz = OPTS_GET(opts, errbuf_sz, (size_t)0);
	if (!u->max_member)
		u->max_member = DEF_MAX_MEMBER_BYTES;
	if (!u->max_total)
		u->max_total = DEF_MAX_TOTAL_BYTES;
	if (!u->max_members)
		u->max_members = DEF_MAX_MEMBERS;
	if (u->errbuf && u->errbuf_sz)
		u->errbuf[0] = '\0';
	u->rootfd = sampo_path__mkdir_open(dest);
	if (u->rootfd < 0)
		return refuse(u, u->rootfd, NULL, "cannot open the target directory '%s': %s", dest,
			      strerror(-u->rootfd));
	while (!err) {
		r = archive_read_next_header(u->a, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r < ARCHIVE_WARN) {
			err = refuse(u, -SAMPO_ERR_MALFORMED, NULL,
				     "not a tar archive sampo reads, or damaged after %llu members: %s",
				     (unsigned long long)u->members,
				     archive_error_string(u->a) ? archive_error_string(u->a) :
								  "read error");
			break;
		}
		err = unpack_entry(u, e);
	}
	close(u->rootfd);
	return err;
}

int sampo_archive__unpack(const char *path, const char *dest,
			  const struct sampo_archive_unpack_opts *opts)
{
	struct unpack u = { 0 };
	int err;

	if (!path || !dest || !OPTS_VALID(opts, sampo_archive_unpack_opts))
		return -EINVAL;
	u.a = reader_new();
	if (!u.a)
		return -ENOMEM;
	if (archive_read_open_filename(u.a, path, 65536) != ARCHIVE_OK) {
		err = open_errno(u.a);
		u.errbuf = OPTS_GET(opts, errbuf, (char *)NULL);
		u.errbuf_sz = OPTS_GET(opts, errbuf_sz, (size_t)0);
		refuse(&u, err, NULL, "%s",
		       err == -SAMPO_ERR_MALFORMED ?
			       "not a tar archive sampo reads (tar, compressed with gzip, bzip2, xz "
			       "or zstd)" :
			       strerror(-err));
		archive_read_free(u.a);
		return err;
	}
	err = unpack_run(&u, dest, opts);
	archive_read_free(u.a);
	return err;
}

int sampo_archive__unpack_mem(const void *buf, size_t size, const char *dest,
			      const struct sampo_archive_unpack_opts *opts)
{
	struct unpack u = { 0 };
	int err;

	if (!buf || !dest || !OPTS_VALID(opts, sampo_archive_unpack_opts))
		return -EINVAL;
	u.a = reader_new();
	if (!u.a)
		return -ENOMEM;
	if (archive_read_open_memory(u.a, buf, size) != ARCHIVE_OK) {
		u.errbuf = OPTS_GET(opts, errbuf, (char *)NULL);
		u.errbuf_sz = OPTS_GET(opts, errbuf_sz, (size_t)0);
		refuse(&u, 0, NULL, "not a tar archive sampo reads (tar, compressed with gzip, "
				    "bzip2, xz or zstd)");
		archive_read_free(u.a);
		return -SAMPO_ERR_MALFORMED;
	}
	err = unpack_run(&u, dest, opts);
	archive_read_free(u.a);
	return err;
}

int sampo_archive__has_member(const char *path, const char *member)
{
	struct archive_entry *e;
	struct archive *a;
	int found = 0, r;

	if (!path || !member)
		return -EINVAL;
	a = reader_new();
	if (!a)
		return -ENOMEM;
	if (archive_read_open_filename(a, path, 65536) != ARCHIVE_OK) {
		int err = open_errno(a);

		archive_read_free(a);
		return err;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK || r == ARCHIVE_WARN) {
		const char *name = archive_entry_pathname(e);

		while (name && name[0] == '.' && name[1] == '/')
			name += 2;
		if (name && !strcmp(name, member)) {
			found = 1;
			break;
		}
	}
	if (!found && r != ARCHIVE_EOF && r != ARCHIVE_OK && r != ARCHIVE_WARN)
		found = -SAMPO_ERR_MALFORMED;
	archive_read_free(a);
	return found;
}
