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
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/common.h>
#include "internal/log.h"
#include "internal/path.h"
#include "internal/util.h"
#include "internal/opts.h"

/* a /proc file (size 0) is read to its end, but not forever */
#define SRC_MAX_BYTES (1ull << 30)

/*
 * perf's buildid.dir from ~/.perfconfig: "[buildid]" then "dir = PATH".
 * Only what perf's own config writer produces is understood (no includes,
 * no quoting beyond a pair of double quotes); anything else is ignored.
 */
static char *perfconfig_dir(const char *home)
{
	char *path = NULL, *line = NULL, *out = NULL;
	bool in_section = false;
	size_t cap = 0;
	FILE *fp;

	if (asprintf(&path, "%s/.perfconfig", home) < 0)
		return NULL;
	fp = fopen(path, "re");
	free(path);
	if (!fp)
		return NULL;
	while (!out && getline(&line, &cap, fp) > 0) {
		char *p = line, *end;

		while (*p == ' ' || *p == '\t')
			p++;
		end = p + strlen(p);
		while (end > p && strchr(" \t\r\n", end[-1]))
			*--end = '\0';
		if (*p == '[') {
			in_section = !strcasecmp(p, "[buildid]");
			continue;
		}
		if (!in_section || strncasecmp(p, "dir", 3))
			continue;
		p += 3;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p++ != '=')
			continue;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '"' && end > p + 1 && end[-1] == '"') {
			p++;
			*--end = '\0';
		}
		if (*p)
			out = strdup(p);
	}
	free(line);
	fclose(fp);
	return out;
}

char *sampo_buildid_cache__dir(const char *dir)
{
	static const char *const envs[] = { "SAMPO_BUILDID_DIR", "PERF_BUILDID_DIR" };
	const char *home;
	char *out;

	if (dir && *dir)
		return strdup(dir);
	for (size_t i = 0; i < ARRAY_SIZE(envs); i++) {
		const char *env = getenv(envs[i]);

		if (env && *env)
			return strdup(env);
	}
	home = getenv("HOME");
	if (!home || !*home)
		return NULL;
	out = perfconfig_dir(home);
	if (out)
		return out;
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
	rootfd = sampo_path__mkdir_open(root);
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

/* ---- paths, listing, removal ---------------------------------------------- */

int sampo_buildid_cache__entry_path(const char *dir, const char *name,
				    const struct sampo_build_id *bid, char **ret_path)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	char *root;
	int err = 0;

	if (!name || bid_hex(bid, hex))
		return -EINVAL;
	while (*name == '/')
		name++;
	if (!*name)
		return -EINVAL;
	root = sampo_buildid_cache__dir(dir);
	if (!root)
		return -ENOENT;
	if (asprintf(ret_path, "%s/%s/%s", root, name, hex) < 0)
		err = -ENOMEM;
	free(root);
	return err;
}

int sampo_buildid_cache__link_path(const char *dir, const struct sampo_build_id *bid,
				   char **ret_path, size_t *ret_rel)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE];
	char *root;
	int err = 0;

	if (bid_hex(bid, hex))
		return -EINVAL;
	root = sampo_buildid_cache__dir(dir);
	if (!root)
		return -ENOENT;
	if (asprintf(ret_path, "%s/.build-id/%.2s/%s", root, hex, hex + 2) < 0)
		err = -ENOMEM;
	else if (ret_rel)
		*ret_rel = strlen(root) + 1;
	free(root);
	return err;
}

static bool is_hex(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	}
	return true;
}

/*
 * "../../NAME/BID" -> "/NAME" ("[kernel.kallsyms]" and "[vdso]" keep no
 * slash, as perf prints them) and "NAME/BID". NULL for any other shape.
 */
static int parse_link(const char *target, const char *hex, char **ret_name, char **ret_rel)
{
	size_t len = strlen(target), hlen = strlen(hex);
	const char *name = target + 6;
	size_t nlen;

	if (strncmp(target, "../../", 6) || len < 6 + hlen + 2 || strcmp(target + len - hlen, hex) ||
	    target[len - hlen - 1] != '/')
		return -EINVAL;
	nlen = len - 6 - hlen - 1;
	if (!nlen)
		return -EINVAL;
	*ret_rel = strdup(name);
	if (name[0] == '[')
		*ret_name = strndup(name, nlen);
	else if (asprintf(ret_name, "/%.*s", (int)nlen, name) < 0)
		*ret_name = NULL;
	if (!*ret_rel || !*ret_name) {
		free(*ret_rel);
		free(*ret_name);
		*ret_rel = NULL;
		*ret_name = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct sampo_buildid_cache_entry *x = a, *y = b;

	return sampo_build_id__cmp(&x->bid, &y->bid);
}

void sampo_buildid_cache_entries__free(struct sampo_buildid_cache_entry *entries, size_t nr)
{
	for (size_t i = 0; entries && i < nr; i++) {
		free(entries[i].name);
		free(entries[i].rel);
	}
	free(entries);
}

/* the links of one DIR/.build-id/NN directory */
static int list_nn(int nnfd, const char *nn, struct sampo_buildid_cache_entry **arr, size_t *nr,
		   size_t *cap)
{
	DIR *d = fdopendir(nnfd);
	struct dirent *de;
	int err = 0;

	if (!d) {
		close(nnfd);
		return -errno;
	}
	while (!err && (de = readdir(d))) {
		struct sampo_buildid_cache_entry e = { 0 };
		char hex[SAMPO_BUILD_ID_HEX_SIZE], target[4096];
		size_t len = strlen(de->d_name);
		ssize_t n;
		struct stat st;
		int perr;

		if (len < 2 || len + 2 >= sizeof(hex) || !is_hex(de->d_name, len))
			continue;
		snprintf(hex, sizeof(hex), "%s%s", nn, de->d_name);
		if (sampo_build_id__from_hex(hex, &e.bid))
			continue;
		n = readlinkat(dirfd(d), de->d_name, target, sizeof(target) - 1);
		if (n < 0)
			continue;
		target[n] = '\0';
		perr = parse_link(target, hex, &e.name, &e.rel);
		if (perr) {
			if (perr == -ENOMEM)
				err = perr;
			continue;
		}
		/* the old style points at the file itself */
		e.old_style = !fstatat(dirfd(d), de->d_name, &st, 0) && S_ISREG(st.st_mode);
		if (*nr == *cap) {
			size_t ncap = *cap ? *cap * 2 : 16;
			void *p = realloc(*arr, ncap * sizeof(**arr));

			if (!p) {
				free(e.name);
				free(e.rel);
				err = -ENOMEM;
				break;
			}
			*arr = p;
			*cap = ncap;
		}
		(*arr)[(*nr)++] = e;
	}
	closedir(d);
	return err;
}

int sampo_buildid_cache__list(const char *dir, struct sampo_buildid_cache_entry **ret,
			      size_t *ret_nr)
{
	struct sampo_buildid_cache_entry *arr = NULL;
	size_t nr = 0, cap = 0;
	char *root, *bdir = NULL;
	struct dirent *de;
	DIR *d;
	int err = 0;

	*ret = NULL;
	*ret_nr = 0;
	root = sampo_buildid_cache__dir(dir);
	if (!root)
		return -ENOENT;
	if (asprintf(&bdir, "%s/.build-id", root) < 0) {
		free(root);
		return -ENOMEM;
	}
	free(root);
	d = opendir(bdir);
	free(bdir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while (!err && (de = readdir(d))) {
		int fd;

		if (strlen(de->d_name) != 2 || !is_hex(de->d_name, 2))
			continue;
		fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		err = list_nn(fd, de->d_name, &arr, &nr, &cap);
	}
	closedir(d);
	if (err) {
		sampo_buildid_cache_entries__free(arr, nr);
		return err;
	}
	if (nr)
		qsort(arr, nr, sizeof(*arr), entry_cmp);
	*ret = arr;
	*ret_nr = nr;
	return 0;
}

/* Open directory @path below @dirfd without creating or following anything. */
static int open_existing(int dirfd, const char *path)
{
	char *copy = strdup(path), *save = NULL, *comp;
	int cur = dirfd;

	if (!copy)
		return -ENOMEM;
	for (comp = strtok_r(copy, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		int fd;

		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			fd = -1;
			errno = EINVAL;
		} else {
			fd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (cur != dirfd)
			close(cur);
		if (fd < 0) {
			int err = -errno;

			free(copy);
			return err;
		}
		cur = fd;
	}
	free(copy);
	return cur == dirfd ? -EINVAL : cur;
}

/* unlink every non-directory in @fd (borrowed) */
static int empty_dir(int fd)
{
	int dup_fd = dup(fd);
	struct dirent *de;
	DIR *d;
	int err = 0;

	if (dup_fd < 0)
		return -errno;
	d = fdopendir(dup_fd);
	if (!d) {
		close(dup_fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) || S_ISDIR(st.st_mode))
			continue;
		if (unlinkat(fd, de->d_name, 0) && !err)
			err = -errno;
	}
	closedir(d);
	return err;
}

int sampo_buildid_cache__remove(const char *dir, const struct sampo_build_id *bid)
{
	char hex[SAMPO_BUILD_ID_HEX_SIZE], target[4096], linkrel[64];
	char *root, *name = NULL, *rel = NULL;
	int rootfd, err;
	ssize_t n;

	if (bid_hex(bid, hex))
		return -EINVAL;
	root = sampo_buildid_cache__dir(dir);
	if (!root)
		return -ENOENT;
	rootfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(root);
	if (rootfd < 0)
		return errno == ENOENT ? -ENOENT : -errno;
	snprintf(linkrel, sizeof(linkrel), ".build-id/%.2s/%s", hex, hex + 2);
	n = readlinkat(rootfd, linkrel, target, sizeof(target) - 1);
	if (n < 0) {
		err = errno == EINVAL ? -EINVAL : -ENOENT;
		goto out;
	}
	target[n] = '\0';
	err = parse_link(target, hex, &name, &rel);
	if (!err) {
		int efd = open_existing(rootfd, rel);

		/* no directory on the way is a symlink (open_existing()): rmdir them by name */
		if (efd >= 0) {
			err = empty_dir(efd);
			close(efd);
			for (char *slash = rel + strlen(rel); !err && slash;) {
				*slash = '\0';
				if (unlinkat(rootfd, rel, AT_REMOVEDIR))
					break;
				slash = strrchr(rel, '/');
			}
		}
	} else if (err == -EINVAL) {
		err = 0; /* an unknown shape: only the link goes */
	}
	if (!err && unlinkat(rootfd, linkrel, 0))
		err = -errno;
	if (!err) {
		linkrel[12] = '\0'; /* ".build-id/NN" */
		(void)unlinkat(rootfd, linkrel, AT_REMOVEDIR);
	}
out:
	free(name);
	free(rel);
	close(rootfd);
	return err;
}
