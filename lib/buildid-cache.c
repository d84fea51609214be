// SPDX-License-Identifier: LGPL-2.1
/*
 * buildid-cache.c - perf's build-id cache: look files up by build-id, add
 * copies safely.
 *
 * Lookups trust the cache (they follow its .build-id links: that is what
 * the links are for). Adding does not: the cache may be shared, or hold
 * links planted by someone else, so every directory below the cache root is
 * opened relative to its parent with O_NOFOLLOW, files are created with
 * O_EXCL under a temporary name in their final directory and renamed into
 * place, and a name with "." or ".." components is refused before anything
 * is created. The cache root itself may be a symlink (~/.debug often is).
 *
 * The source is not trusted either: it is a path the profiled program chose
 * and may swap at any time. It is opened once, without following a symlink
 * and without blocking (a FIFO swapped in would hang the recorder), must be
 * a regular file by fstat(), has its build-id read from that descriptor
 * (sampo_buildid_cache__add_elf()) and is copied from it. The copy is never
 * more readable than the source (mode & 0644): a 0600 file stays 0600.
 *
 * On top of that, perf record's policy (sampo_buildid_cache__add_dso(),
 * __add_kallsyms()): which DSOs with samples are cached and as what kind,
 * nothing copied twice, the kernel as a kallsyms snapshot.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/common.h>
#include "internal/log.h"
#include "internal/util.h"
#include "internal/opts.h"

/* a /proc file (size 0) is read to its end, but not forever */
#define SRC_MAX_BYTES (1ull << 30)

char *sampo_buildid_cache__dir(const char *dir)
{
	const char *env, *home;
	char *out;

	if (dir && *dir)
		return strdup(dir);
	env = getenv("PERF_BUILDID_DIR");
	if (env && *env)
		return strdup(env);
	home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	if (asprintf(&out, "%s/.debug", home) < 0)
		return NULL;
	return out;
}

static bool kind_valid(const char *kind)
{
	return kind && *kind && !strchr(kind, '/') && strcmp(kind, ".") && strcmp(kind, "..");
}

static int bid_hex(const struct sampo_build_id *bid, char *hex)
{
	if (!bid || !bid->size || bid->size > SAMPO_BUILD_ID_SIZE)
		return -EINVAL;
	return sampo_build_id__to_hex(bid, hex, SAMPO_BUILD_ID_HEX_SIZE) < 0 ? -EINVAL : 0;
}

int sampo_buildid_cache__lookup(const char *dir, const struct sampo_build_id *bid,
				const char *kind, char **ret_path)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	char *root, *link = NULL, *path = NULL;
	struct stat st;
	int err;

	if (!kind_valid(kind) || bid_hex(bid, hex))
		return -EINVAL;
	root = sampo_buildid_cache__dir(dir);
	if (!root)
		return dir ? -ENOMEM : -ENOENT;
	err = -ENOMEM;
	if (asprintf(&link, "%s/.build-id/%.2s/%s", root, hex, hex + 2) < 0) {
		link = NULL;
		goto out;
	}
	err = -ENOENT;
	if (stat(link, &st))
		goto out;
	if (S_ISREG(st.st_mode)) {
		/* perf before 4.x: the link points at the file itself */
		if (strcmp(kind, "elf"))
			goto out;
		*ret_path = link;
		link = NULL;
		err = 0;
		goto out;
	}
	if (asprintf(&path, "%s/%s", link, kind) < 0) {
		path = NULL;
		err = -ENOMEM;
		goto out;
	}
	if (stat(path, &st) || !S_ISREG(st.st_mode))
		goto out;
	*ret_path = path;
	path = NULL;
	err = 0;
out:
	free(path);
	free(link);
	free(root);
	return err;
}

/* Open (creating if needed) directory @name below @parent, never through a symlink. */
static int open_subdir(int parent, const char *name)
{
	int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT) {
		if (mkdirat(parent, name, 0755) && errno != EEXIST)
			return -errno;
		fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0) {
		/* a symlink in place of a directory: ELOOP, or ENOTDIR with O_DIRECTORY */
		if (errno == ENOTDIR) {
			struct stat st;

			if (!fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
				return -ELOOP;
		}
		return -errno;
	}
	return fd;
}

/* mkdir -p of the cache root itself (following symlinks: the user chose it) */
static int open_root(const char *root)
{
	char *copy = strdup(root);
	int fd;

	if (!copy)
		return -ENOMEM;
	for (char *p = copy + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		(void)mkdir(copy, 0755);
		*p = '/';
	}
	(void)mkdir(copy, 0755);
	free(copy);
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/*
 * Walk "a/b/c" below @dirfd, creating directories, and return the last one's
 * fd. @path is checked first: no "." or ".." component, not empty.
 */
static int open_path(int dirfd, const char *path)
{
	char *copy, *save = NULL, *comp;
	int fd = -1, cur = dirfd, err = 0;
	bool any = false;

	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	for (comp = strtok_r(copy, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			err = -EINVAL;
			goto out;
		}
	}
	free(copy);
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	save = NULL;
	for (comp = strtok_r(copy, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		fd = open_subdir(cur, comp);
		if (cur != dirfd)
			close(cur);
		if (fd < 0) {
			err = fd;
			goto out;
		}
		cur = fd;
		any = true;
	}
	if (!any)
		err = -EINVAL;
out:
	free(copy);
	if (err) {
		if (cur != dirfd)
			close(cur);
		return err;
	}
	return cur;
}

/* A fresh name for a temporary file in a directory we write to. */
static void tmp_name(char *buf, size_t len, const char *base, unsigned int attempt)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(buf, len, ".%s.tmp.%ld.%lx.%u", base, (long)getpid(),
		 (unsigned long)(ts.tv_nsec ^ ts.tv_sec), attempt);
}

static int write_all(int out, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(out, p, len);

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

/*
 * Copy @in from its start with pread(), so that whoever read it before
 * (libelf, for the build-id) does not matter. A file that reports a size
 * is copied up to that size (one growing while we copy cannot keep us
 * here); a /proc file reports 0 and is read to its end, up to
 * SRC_MAX_BYTES.
 */
static int copy_fd(int in, uint64_t size_bytes, int out)
{
	uint64_t limit = size_bytes ? size_bytes : SRC_MAX_BYTES, off = 0;
	char buf[65536];

	while (off < limit) {
		size_t want = (size_t)MIN((uint64_t)sizeof(buf), limit - off);
		ssize_t n = pread(in, buf, want, (off_t)off);
		int err;

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		err = write_all(out, buf, (size_t)n);
		if (err)
			return err;
		off += (uint64_t)n;
	}
	return size_bytes ? 0 : -EFBIG;
}

/* Where install_file() takes the bytes from: an open file or a buffer. */
struct cache_src {
	int fd;			/* -1: use @buf */
	uint64_t size_bytes;	/* the file's size, 0 when unknown (/proc) */
	const void *buf;
	mode_t mode;		/* permission bits of the copy */
};

/* Copy @src to @dirfd/@kind through a temporary file. */
static int install_file(int dirfd, const char *kind, const struct cache_src *src)
{
	char tmp[128];
	int out = -1, err;

	for (unsigned int i = 0; i < 100 && out < 0; i++) {
		tmp_name(tmp, sizeof(tmp), kind, i);
		out = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			     src->mode);
		if (out < 0 && errno != EEXIST)
			return -errno;
	}
	if (out < 0)
		return -EEXIST;
	if (src->fd >= 0)
		err = copy_fd(src->fd, src->size_bytes, out);
	else
		err = write_all(out, src->buf, (size_t)src->size_bytes);
	if (close(out) && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, kind))
		err = -errno;
	if (err)
		(void)unlinkat(dirfd, tmp, 0);
	return err;
}

/* .build-id/NN/REST -> ../../NAME/BID, replaced atomically */
static int install_link(int rootfd, const char *name, const char *hex)
{
	char nn[3] = { hex[0], hex[1], '\0' };
	char tmp[128], *target = NULL;
	int bfd, nfd, err = 0;

	bfd = open_subdir(rootfd, ".build-id");
	if (bfd < 0)
		return bfd;
	nfd = open_subdir(bfd, nn);
	close(bfd);
	if (nfd < 0)
		return nfd;
	while (*name == '/')
		name++;
	if (asprintf(&target, "../../%s/%s", name, hex) < 0) {
		close(nfd);
		return -ENOMEM;
	}
	for (unsigned int i = 0;; i++) {
		tmp_name(tmp, sizeof(tmp), "link", i);
		if (!symlinkat(target, nfd, tmp))
			break;
		if (errno != EEXIST || i == 100) {
			err = -errno;
			goto out;
		}
	}
	if (renameat(nfd, tmp, nfd, hex + 2)) {
		err = -errno;
		(void)unlinkat(nfd, tmp, 0);
	}
out:
	free(target);
	close(nfd);
	return err;
}

static int cache_add(const char *dir, const char *name, const struct sampo_build_id *bid,
		     const char *kind, const struct cache_src *src)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	char *root, *rel = NULL;
	int rootfd, entfd, err;

	if (!name || !*name || !kind_valid(kind) || bid_hex(bid, hex))
		return -EINVAL;
	while (*name == '/')
		name++;
	if (!*name)
		return -EINVAL;
	/* "NAME/BID": the hex component cannot escape, NAME is checked by open_path() */
	if (asprintf(&rel, "%s/%s", name, hex) < 0)
		return -ENOMEM;
	if (!strncmp(rel, ".build-id/", 10) || !strcmp(name, ".build-id")) {
		free(rel);
		return -EINVAL;
	}
	root = sampo_buildid_cache__dir(dir);
	if (!root) {
		free(rel);
		return -ENOENT;
	}
	rootfd = open_root(root);
	if (rootfd < 0) {
		err = rootfd;
		goto out;
	}
	entfd = open_path(rootfd, rel);
	if (entfd < 0) {
		err = entfd;
		goto out_close_root;
	}
	err = install_file(entfd, kind, src);
	close(entfd);
	if (!err)
		err = install_link(rootfd, name, hex);
out_close_root:
	close(rootfd);
out:
	if (err)
		pr_debug("cannot add '%s' (%s) to the build-id cache '%s': %s\n", name, kind,
			 root ? root : "?", strerror(-err));
	free(root);
	free(rel);
	return err;
}

/*
 * The source as it is now, once: a symlink is refused (O_NOFOLLOW) and a
 * FIFO or device swapped in neither blocks the open (O_NONBLOCK) nor gets
 * read (fstat). Reads are blocking again afterwards.
 */
static int open_source(const char *path, int *ret_fd)
{
	int fd, flags;
	struct stat st;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)) {
		int err = -errno;

		close(fd);
		return err;
	}
	*ret_fd = fd;
	return 0;
}

int sampo_buildid_cache__add_fd(const char *dir, const char *name,
				const struct sampo_build_id *bid, const char *kind, int fd)
{
	struct cache_src src = { .fd = fd };
	struct stat st;

	if (fd < 0)
		return -EBADF;
	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	src.size_bytes = (uint64_t)st.st_size;
	/* never more readable than the source: a 0600 file stays 0600 */
	src.mode = st.st_mode & 0644;
	return cache_add(dir, name, bid, kind, &src);
}

int sampo_buildid_cache__add(const char *dir, const char *name, const struct sampo_build_id *bid,
			     const char *kind, const char *src)
{
	int fd = -1, err;

	if (!src)
		return -EINVAL;
	err = open_source(src, &fd);
	if (err)
		return err;
	err = sampo_buildid_cache__add_fd(dir, name, bid, kind, fd);
	close(fd);
	return err;
}

int sampo_buildid_cache__add_elf(const char *dir, const char *name,
				 const struct sampo_build_id *bid, const char *path)
{
	struct sampo_build_id now;
	int fd = -1, err;

	if (!path || !bid)
		return -EINVAL;
	err = open_source(path, &fd);
	if (err)
		return err;
	err = sampo_build_id__from_elf_fd(fd, &now);
	if (!err && !sampo_build_id__equal(&now, bid))
		err = -SAMPO_ERR_BUILDID_MISMATCH;
	if (!err)
		err = sampo_buildid_cache__add_fd(dir, name, bid, "elf", fd);
	close(fd);
	return err;
}

int sampo_buildid_cache__add_mem(const char *dir, const char *name,
				 const struct sampo_build_id *bid, const char *kind,
				 const void *buf, size_t size)
{
	struct cache_src src = { .fd = -1, .buf = buf, .size_bytes = size, .mode = 0644 };

	if (!buf || !size)
		return -EINVAL;
	return cache_add(dir, name, bid, kind, &src);
}

/* ---- perf record's policy ------------------------------------------------ */

const char *sampo_buildid_cache__dso_kind(const char *name)
{
	if (!name)
		return NULL;
	if (!strcmp(name, "[vdso]"))
		return "vdso";
	/*
	 * A memfd or a deleted file cannot be reopened by its name; "//anon"
	 * and "/anon_hugepage" are perf's names of anonymous memory.
	 */
	if (name[0] == '/' && name[1] != '/' && strncmp(name, "/memfd:", 7) &&
	    strncmp(name, "/anon_hugepage", 14) && !strstr(name, " (deleted)"))
		return "elf";
	return NULL;
}

int sampo_buildid_cache__add_dso(const char *dir, const char *name,
				 const struct sampo_build_id *bid,
				 const struct sampo_buildid_cache_dso_opts *opts)
{
	const char *kind = sampo_buildid_cache__dso_kind(name);
	const void *image = OPTS_GET(opts, vdso_image, (const void *)NULL);
	size_t image_size = OPTS_GET(opts, vdso_size, (size_t)0);
	char *cached = NULL;

	if (!name || !bid || !OPTS_VALID(opts, sampo_buildid_cache_dso_opts))
		return -EINVAL;
	if (!kind)
		return -EOPNOTSUPP;
	if (!sampo_buildid_cache__lookup(dir, bid, kind, &cached)) {
		free(cached);
		return 0;
	}
	if (!strcmp(kind, "vdso")) {
		if (!image || !image_size)
			return -EOPNOTSUPP;
		return sampo_buildid_cache__add_mem(dir, name, bid, kind, image, image_size);
	}
	return sampo_buildid_cache__add_elf(dir, name, bid, name);
}

int sampo_buildid_cache__add_kallsyms(const char *dir, const struct sampo_build_id *kernel_bid,
				      const char *proc_dir)
{
	char path[4096], *cached = NULL;

	if (!sampo_buildid_cache__lookup(dir, kernel_bid, "kallsyms", &cached)) {
		free(cached);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/kallsyms", proc_dir ? proc_dir : "/proc");
	return sampo_buildid_cache__add(dir, "[kernel.kallsyms]", kernel_bid, "kallsyms", path);
}
