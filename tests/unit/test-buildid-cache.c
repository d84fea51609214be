// SPDX-License-Identifier: GPL-2.0
/*
 * test-buildid-cache.c - the build-id cache (lib/buildid-cache.c): perf's
 * layout on add and lookup, the directory choice, and the refusals that keep
 * an add inside the cache (".." names, symlinks planted in the cache) and
 * keep a source swapped by the profiled program out of it (a symlink to a
 * private file, a FIFO, another file; the race of checking then copying).
 */
#pragma GCC diagnostic ignored "-Wformat-truncation"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/buildid.h>
#include <sampo/buildid-cache.h>
#include <sampo/common.h>

#include "fixture.h"

#define BID "4a5a9b0affb66c437abcd455d2738af879985fa9"

static char root[256];

static void write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *fp = fopen(path, "r");
	size_t n;

	if (!fp)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/sampo-test-bidcache-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return fixture_remove_tree(root);
}

static void test_buildid_cache__dir_choice(void **state)
{
	char *d;

	(void)state;
	d = sampo_buildid_cache__dir("/x/y");
	assert_string_equal(d, "/x/y");
	free(d);
	setenv("PERF_BUILDID_DIR", "/from/env", 1);
	d = sampo_buildid_cache__dir(NULL);
	assert_string_equal(d, "/from/env");
	free(d);
	unsetenv("PERF_BUILDID_DIR");
	setenv("HOME", "/home/u", 1);
	d = sampo_buildid_cache__dir(NULL);
	assert_string_equal(d, "/home/u/.debug");
	free(d);
}

/* add writes perf's layout, lookup finds it; the link is relative, as perf makes it */
static void test_buildid_cache__add_then_lookup(void **state)
{
	struct sampo_build_id bid;
	char cache[300], src[300], p[600], link[600];
	char *found = NULL;
	ssize_t n;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache", root);
	snprintf(src, sizeof(src), "%s/kallsyms.src", root);
	write_file(src, "ffffffff81000000 T _text\n");
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);

	assert_int_equal(sampo_buildid_cache__lookup(cache, &bid, "kallsyms", &found), -ENOENT);
	assert_int_equal(sampo_buildid_cache__add(cache, "[kernel.kallsyms]", &bid, "kallsyms", src),
			 0);
	snprintf(p, sizeof(p), "%s/[kernel.kallsyms]/" BID "/kallsyms", cache);
	assert_string_equal(slurp(p), "ffffffff81000000 T _text\n");
	snprintf(p, sizeof(p), "%s/.build-id/4a/5a9b0affb66c437abcd455d2738af879985fa9", cache);
	n = readlink(p, link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	assert_string_equal(link, "../../[kernel.kallsyms]/" BID);

	assert_int_equal(sampo_buildid_cache__lookup(cache, &bid, "kallsyms", &found), 0);
	assert_string_equal(slurp(found), "ffffffff81000000 T _text\n");
	free(found);
	assert_int_equal(sampo_buildid_cache__lookup(cache, &bid, "elf", &found), -ENOENT);

	/* a path name: components become directories; adding again replaces the file */
	assert_int_equal(sampo_buildid_cache__add(cache, "/usr/lib/libfoo.so", &bid, "elf", src), 0);
	write_file(src, "v2\n");
	assert_int_equal(sampo_buildid_cache__add(cache, "/usr/lib/libfoo.so", &bid, "elf", src), 0);
	snprintf(p, sizeof(p), "%s/usr/lib/libfoo.so/" BID "/elf", cache);
	assert_string_equal(slurp(p), "v2\n");
	assert_int_equal(sampo_buildid_cache__lookup(cache, &bid, "elf", &found), 0);
	assert_string_equal(slurp(found), "v2\n");
	free(found);

	/* a /proc file reads as size 0 but has content */
	if (!access("/proc/self/status", R_OK)) {
		assert_int_equal(sampo_buildid_cache__add(cache, "[x]", &bid, "status",
							  "/proc/self/status"),
				 0);
		snprintf(p, sizeof(p), "%s/[x]/" BID "/status", cache);
		assert_non_null(strstr(slurp(p), "Pid:"));
	}
}

static void test_buildid_cache__rejects_escaping_names(void **state)
{
	static const char *const bad[] = {
		"../evil", "/a/../../evil", "..", "/./x", "", "/", ".build-id/4a",
	};
	struct sampo_build_id bid, empty = { 0 };
	char cache[300], src[300], p[600];
	struct stat st;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache2", root);
	snprintf(src, sizeof(src), "%s/src", root);
	write_file(src, "x\n");
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(sampo_buildid_cache__add(cache, bad[i], &bid, "elf", src), -EINVAL);
	assert_int_equal(sampo_buildid_cache__add(cache, "/ok", &bid, "../elf", src), -EINVAL);
	assert_int_equal(sampo_buildid_cache__add(cache, "/ok", &bid, "a/b", src), -EINVAL);
	assert_int_equal(sampo_buildid_cache__add(cache, "/ok", &empty, "elf", src), -EINVAL);
	snprintf(p, sizeof(p), "%s/evil", root);
	assert_int_not_equal(stat(p, &st), 0);
}

/* a symlink planted in the cache is not followed, whether a directory or the file itself */
static void test_buildid_cache__does_not_follow_planted_symlinks(void **state)
{
	struct sampo_build_id bid;
	char cache[300], src[300], outside[300], p[700], q[700];
	struct stat st;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache3", root);
	snprintf(src, sizeof(src), "%s/src3", root);
	snprintf(outside, sizeof(outside), "%s/outside", root);
	write_file(src, "payload\n");
	assert_int_equal(mkdir(cache, 0755), 0);
	assert_int_equal(mkdir(outside, 0755), 0);
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);

	/* cache/usr -> outside: the add must fail and write nothing outside */
	snprintf(p, sizeof(p), "%s/usr", cache);
	assert_int_equal(symlink(outside, p), 0);
	assert_int_equal(sampo_buildid_cache__add(cache, "/usr/lib/x.so", &bid, "elf", src), -ELOOP);
	snprintf(q, sizeof(q), "%s/lib", outside);
	assert_int_not_equal(lstat(q, &st), 0);

	/* the final file a symlink to a victim: replaced by the copy, the victim untouched */
	snprintf(p, sizeof(p), "%s/opt/" BID, cache);
	snprintf(q, sizeof(q), "mkdir -p '%s'", p);
	assert_int_equal(system(q), 0);
	snprintf(q, sizeof(q), "%s/victim", outside);
	write_file(q, "victim\n");
	snprintf(p, sizeof(p), "%s/opt/" BID "/elf", cache);
	assert_int_equal(symlink(q, p), 0);
	assert_int_equal(sampo_buildid_cache__add(cache, "/opt", &bid, "elf", src), 0);
	assert_string_equal(slurp(q), "victim\n");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_string_equal(slurp(p), "payload\n");

	/* .build-id itself a symlink: refused */
	snprintf(p, sizeof(p), "%s/cache4", root);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(q, sizeof(q), "%s/.build-id", p);
	assert_int_equal(symlink(outside, q), 0);
	assert_int_equal(sampo_buildid_cache__add(p, "/opt", &bid, "elf", src), -ELOOP);
	snprintf(q, sizeof(q), "%s/4a", outside);
	assert_int_not_equal(lstat(q, &st), 0);
}

/*
 * A minimal ELF64 with one PT_NOTE holding the GNU build-id BID, followed by
 * @tail (so that two files with the same build-id can differ), written to
 * @path with @mode.
 */
static void write_elf(const char *path, const char *tail, mode_t mode)
{
	unsigned char img[256] = { 0 };
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(img + sizeof(*eh));
	Elf64_Nhdr *nh = (Elf64_Nhdr *)(img + sizeof(*eh) + sizeof(*ph));
	unsigned char *name = (unsigned char *)(nh + 1), *desc = name + 4;
	struct sampo_build_id bid;
	size_t len;
	int fd;

	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? ELFDATA2MSB : ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	ph->p_type = PT_NOTE;
	ph->p_offset = sizeof(*eh) + sizeof(*ph);
	ph->p_filesz = ph->p_memsz = sizeof(*nh) + 4 + bid.size;
	ph->p_align = 4;
	nh->n_namesz = 4;
	nh->n_descsz = (Elf64_Word)bid.size;
	nh->n_type = NT_GNU_BUILD_ID;
	memcpy(name, "GNU", 4);
	memcpy(desc, bid.data, bid.size);
	len = ph->p_offset + ph->p_filesz;
	assert_true(len + strlen(tail) <= sizeof(img));
	memcpy(img + len, tail, strlen(tail));
	len += strlen(tail);

	(void)unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, img, len), (ssize_t)len);
	assert_int_equal(fchmod(fd, mode), 0);
	close(fd);
}

static bool file_has(const char *path, const char *needle)
{
	char buf[512];
	size_t n;
	FILE *fp = fopen(path, "r");

	if (!fp)
		return false;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	return memmem(buf, n, needle, strlen(needle)) != NULL;
}

/* the build-id read from a descriptor is the file's, whatever the descriptor's offset */
static void test_buildid_cache__build_id_from_fd(void **state)
{
	struct sampo_build_id bid, want;
	char src[300];
	int fd;

	(void)state;
	snprintf(src, sizeof(src), "%s/fd.elf", root);
	write_elf(src, "", 0644);
	fd = open(src, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(lseek(fd, 17, SEEK_SET), 17);
	assert_int_equal(sampo_build_id__from_elf_fd(fd, &bid), 0);
	assert_int_equal(sampo_build_id__from_hex(BID, &want), 0);
	assert_true(sampo_build_id__equal(&bid, &want));
	close(fd);
	assert_int_equal(sampo_build_id__from_elf_fd(-1, &bid), -EBADF);
}

/* a 0600 source is cached as 0600, a 0755 one as 0644; the vDSO from memory as 0644 */
static void test_buildid_cache__copy_keeps_restrictive_mode(void **state)
{
	struct sampo_build_id bid;
	char cache[300], src[300], p[700];
	struct stat st;
	mode_t old = umask(022);

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache-mode", root);
	snprintf(src, sizeof(src), "%s/private.elf", root);
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);

	write_elf(src, "SECRET", 0600);
	assert_int_equal(sampo_buildid_cache__add_elf(cache, "/opt/private", &bid, src), 0);
	snprintf(p, sizeof(p), "%s/opt/private/" BID "/elf", cache);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_true(file_has(p, "SECRET"));

	assert_int_equal(sampo_buildid_cache__add(cache, "/opt/private2", &bid, "elf", src), 0);
	snprintf(p, sizeof(p), "%s/opt/private2/" BID "/elf", cache);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);

	write_elf(src, "", 0755);
	assert_int_equal(sampo_buildid_cache__add_elf(cache, "/opt/public", &bid, src), 0);
	snprintf(p, sizeof(p), "%s/opt/public/" BID "/elf", cache);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);

	assert_int_equal(sampo_buildid_cache__add_mem(cache, "[vdso]", &bid, "vdso", "img", 3), 0);
	snprintf(p, sizeof(p), "%s/[vdso]/" BID "/vdso", cache);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_string_equal(slurp(p), "img");
	assert_int_equal(sampo_buildid_cache__add_mem(cache, "[vdso]", &bid, "vdso", "img", 0),
			 -EINVAL);
	umask(old);
}

/* the DSO path swapped for a symlink to a private file: nothing is cached */
static void test_buildid_cache__refuses_symlinked_source(void **state)
{
	struct sampo_build_id bid;
	char cache[300], priv[300], dso[300], p[700];
	struct stat st;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache-link", root);
	snprintf(priv, sizeof(priv), "%s/secret.elf", root);
	snprintf(dso, sizeof(dso), "%s/libswapped.so", root);
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);
	write_elf(priv, "SECRET", 0600);
	assert_int_equal(symlink(priv, dso), 0);

	assert_int_equal(sampo_buildid_cache__add_elf(cache, dso, &bid, dso), -ELOOP);
	assert_int_equal(sampo_buildid_cache__add(cache, dso, &bid, "elf", dso), -ELOOP);
	snprintf(p, sizeof(p), "%s%s", cache, dso);
	assert_int_not_equal(lstat(p, &st), 0);
}

static void on_alarm(int sig)
{
	(void)sig;
	fail_msg("the cache add blocked on a FIFO");
}

/* a FIFO swapped in: refused at once, never read (an open without O_NONBLOCK would hang) */
static void test_buildid_cache__refuses_fifo_without_hanging(void **state)
{
	struct sampo_build_id bid;
	char cache[300], fifo[300];

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache-fifo", root);
	snprintf(fifo, sizeof(fifo), "%s/libfifo.so", root);
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	signal(SIGALRM, on_alarm);
	alarm(10);
	assert_int_equal(sampo_buildid_cache__add_elf(cache, fifo, &bid, fifo), -EINVAL);
	assert_int_equal(sampo_buildid_cache__add(cache, fifo, &bid, "elf", fifo), -EINVAL);
	assert_int_equal(sampo_buildid_cache__add(cache, "/d", &bid, "elf", "/dev/null"), -EINVAL);
	/* the build-id table reads DSOs by path too */
	assert_int_equal(sampo_build_id__from_elf(fifo, &bid), -EINVAL);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
}

/* another file at the path now (rebuilt, replaced): not the one that ran, not cached */
static void test_buildid_cache__refuses_replaced_file(void **state)
{
	struct sampo_build_id bid, other;
	char cache[300], dso[300], p[700];
	struct stat st;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache-replaced", root);
	snprintf(dso, sizeof(dso), "%s/librebuilt.so", root);
	write_elf(dso, "", 0644);
	assert_int_equal(sampo_build_id__from_hex("0102030405060708090a0b0c0d0e0f1011121314",
						  &other),
			 0);
	assert_int_equal(sampo_buildid_cache__add_elf(cache, dso, &other, dso),
			 -SAMPO_ERR_BUILDID_MISMATCH);
	write_file(dso, "not an ELF file at all\n");
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);
	assert_int_not_equal(sampo_buildid_cache__add_elf(cache, dso, &bid, dso), 0);
	snprintf(p, sizeof(p), "%s%s", cache, dso);
	assert_int_not_equal(lstat(p, &st), 0);
}

/*
 * The race itself: a child swaps the DSO path between the real file and a
 * symlink to a private file with the same build-id, as fast as it can,
 * while the cache adds it again and again. The private bytes never land in
 * the cache (before the fix: 1 in 20 recordings leaked them as 0644).
 */
static void test_buildid_cache__swap_race_never_leaks(void **state)
{
	struct sampo_build_id bid;
	char cache[300], pub[300], priv[300], dso[300], tmp_reg[300], tmp_lnk[300], p[700];
	int ok = 0, status;
	pid_t child;

	(void)state;
	snprintf(cache, sizeof(cache), "%s/cache-race", root);
	snprintf(pub, sizeof(pub), "%s/race-public.elf", root);
	snprintf(priv, sizeof(priv), "%s/race-secret.elf", root);
	snprintf(dso, sizeof(dso), "%s/librace.so", root);
	snprintf(tmp_reg, sizeof(tmp_reg), "%s/librace.reg", root);
	snprintf(tmp_lnk, sizeof(tmp_lnk), "%s/librace.lnk", root);
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);
	write_elf(pub, "", 0644);
	write_elf(priv, "SECRET", 0600);
	assert_int_equal(link(pub, dso), 0);

	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		for (;;) {
			(void)unlink(tmp_reg);
			if (!link(pub, tmp_reg))
				(void)rename(tmp_reg, dso);
			(void)unlink(tmp_lnk);
			if (!symlink(priv, tmp_lnk))
				(void)rename(tmp_lnk, dso);
		}
	}
	snprintf(p, sizeof(p), "%s%s/" BID "/elf", cache, dso);
	for (int i = 0; i < 300; i++) {
		int err = sampo_buildid_cache__add_elf(cache, dso, &bid, dso);

		if (err) {
			assert_int_equal(err, -ELOOP);
			continue;
		}
		ok++;
		if (file_has(p, "SECRET"))
			break;
	}
	(void)kill(child, SIGKILL);
	(void)waitpid(child, &status, 0);
	assert_false(file_has(p, "SECRET"));
	print_message("race: %d of 300 adds copied the real file, the others refused the link\n",
		      ok);
}

/* perf record's policy: what is cached as what, nothing twice, the kallsyms snapshot */
static void test_buildid_cache__record_policy(void **state)
{
	SAMPO_OPTS(sampo_buildid_cache_dso_opts, o, .vdso_image = "VDSO", .vdso_size = 4);
	struct sampo_build_id bid, other;
	char cache[300], dso[300], proc[300], p[700];
	struct stat st;

	(void)state;
	assert_string_equal(sampo_buildid_cache__dso_kind("[vdso]"), "vdso");
	assert_string_equal(sampo_buildid_cache__dso_kind("/usr/lib/libc.so.6"), "elf");
	assert_null(sampo_buildid_cache__dso_kind("/memfd:jit"));
	assert_null(sampo_buildid_cache__dso_kind("/tmp/x (deleted)"));
	assert_null(sampo_buildid_cache__dso_kind("[kernel.kallsyms]"));
	assert_null(sampo_buildid_cache__dso_kind("//anon"));
	assert_null(sampo_buildid_cache__dso_kind(NULL));

	snprintf(cache, sizeof(cache), "%s/cache-policy", root);
	snprintf(dso, sizeof(dso), "%s/libpolicy.so", root);
	assert_int_equal(sampo_build_id__from_hex(BID, &bid), 0);
	write_elf(dso, "v1", 0644);
	assert_int_equal(sampo_buildid_cache__add_dso(cache, dso, &bid, NULL), 0);
	snprintf(p, sizeof(p), "%s%s/" BID "/elf", cache, dso);
	assert_true(file_has(p, "v1"));
	/* already cached: not copied again (the file changed, the cache did not) */
	write_elf(dso, "v2", 0644);
	assert_int_equal(sampo_buildid_cache__add_dso(cache, dso, &bid, NULL), 0);
	assert_true(file_has(p, "v1"));
	/* another build-id now at the path: not cached */
	assert_int_equal(sampo_build_id__from_hex("0102030405060708090a0b0c0d0e0f1011121314",
						  &other),
			 0);
	assert_int_equal(sampo_buildid_cache__add_dso(cache, dso, &other, NULL),
			 -SAMPO_ERR_BUILDID_MISMATCH);

	assert_int_equal(sampo_buildid_cache__add_dso(cache, "[vdso]", &bid, NULL), -EOPNOTSUPP);
	assert_int_equal(sampo_buildid_cache__add_dso(cache, "[vdso]", &bid, &o), 0);
	snprintf(p, sizeof(p), "%s/[vdso]/" BID "/vdso", cache);
	assert_string_equal(slurp(p), "VDSO");
	assert_int_equal(sampo_buildid_cache__add_dso(cache, "//anon", &bid, &o), -EOPNOTSUPP);

	/* kallsyms from a fake /proc, once */
	snprintf(proc, sizeof(proc), "%s/proc", root);
	assert_int_equal(mkdir(proc, 0755), 0);
	snprintf(p, sizeof(p), "%s/kallsyms", proc);
	write_file(p, "ffffffff81000000 T _text\n");
	assert_int_equal(sampo_buildid_cache__add_kallsyms(cache, &bid, proc), 0);
	write_file(p, "changed\n");
	assert_int_equal(sampo_buildid_cache__add_kallsyms(cache, &bid, proc), 0);
	snprintf(p, sizeof(p), "%s/[kernel.kallsyms]/" BID "/kallsyms", cache);
	assert_string_equal(slurp(p), "ffffffff81000000 T _text\n");
	assert_int_equal(sampo_buildid_cache__add_kallsyms(cache, &other, root), -ENOENT);
	snprintf(p, sizeof(p), "%s/[kernel.kallsyms]/0102030405060708090a0b0c0d0e0f1011121314",
		 cache);
	assert_int_not_equal(lstat(p, &st), 0);
}

/* perf 6.1 finds what add() cached: burn's symbols in the fixture's report */
static void test_buildid_cache__perf_reads_it(void **state)
{
	const char *perf = getenv("PERF"), *shared = getenv("SAMPO_SHARED");
	struct sampo_build_id bid;
	char cache[300], burn[600], cmd[2000], out[300];

	(void)state;
	if (!perf || !*perf || !shared || !*shared)
		skip();
	snprintf(burn, sizeof(burn), "%s/fixtures/perf-6.1/burn", shared);
	if (access(burn, R_OK))
		skip();
	snprintf(cache, sizeof(cache), "%s/perf-cache", root);
	assert_int_equal(sampo_build_id__from_hex("690cfd666a0fa1f2e4b67ddad86ea1a75405b61c", &bid),
			 0);
	assert_int_equal(sampo_buildid_cache__add(cache, "/tmp/pfx/burn", &bid, "elf", burn), 0);
	snprintf(out, sizeof(out), "%s/perf-report.txt", root);
	snprintf(cmd, sizeof(cmd),
		 "HOME='%s' '%s' --buildid-dir '%s' report --stdio --no-children --sort dso,sym "
		 "-i '%s/fixtures/perf-6.1/b-callchain-fp/perf.data' >'%s' 2>/dev/null",
		 root, perf, cache, shared, out);
	assert_int_equal(system(cmd), 0);
	assert_non_null(strstr(slurp(out), "[.] burn_leaf_alpha"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buildid_cache__dir_choice),
		cmocka_unit_test(test_buildid_cache__add_then_lookup),
		cmocka_unit_test(test_buildid_cache__rejects_escaping_names),
		cmocka_unit_test(test_buildid_cache__does_not_follow_planted_symlinks),
		cmocka_unit_test(test_buildid_cache__build_id_from_fd),
		cmocka_unit_test(test_buildid_cache__copy_keeps_restrictive_mode),
		cmocka_unit_test(test_buildid_cache__refuses_symlinked_source),
		cmocka_unit_test(test_buildid_cache__refuses_fifo_without_hanging),
		cmocka_unit_test(test_buildid_cache__refuses_replaced_file),
		cmocka_unit_test(test_buildid_cache__swap_race_never_leaks),
		cmocka_unit_test(test_buildid_cache__record_policy),
		cmocka_unit_test(test_buildid_cache__perf_reads_it),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
