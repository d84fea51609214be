// SPDX-License-Identifier: GPL-2.0
/*
 * test-buildid.c - build-ids from ELF files (the perf 6.1 fixture, and files
 * linked here with --build-id=sha1 and =md5, checked against readelf -n),
 * from raw note blobs (the fixture's /sys/kernel/notes, and blobs built
 * here: other notes first, sizes past the end, empty or oversized ids), hex
 * conversion and comparison, and garbage or truncated ELF input.
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

#include <sampo/buildid.h>

static char tmpdir[] = "/tmp/sampo-buildid-XXXXXX";
static bool have_tmpdir;

static const char *fixture(const char *name, char *buf, size_t len)
{
	const char *shared = getenv("SAMPO_SHARED");

	if (!shared || !*shared)
		return NULL;
	snprintf(buf, len, "%s/fixtures/perf-6.1/%s", shared, name);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

static void *read_file(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc(n ? (size_t)n : 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*ret_len = (size_t)n;
	return buf;
}

static void expect_hex(const struct sampo_build_id *bid, const char *hex)
{
	char buf[SAMPO_BUILD_ID_HEX_SIZE];

	assert_int_equal(sampo_build_id__to_hex(bid, buf, sizeof(buf)), (int)strlen(hex));
	assert_string_equal(buf, hex);
}

static void test_build_id__reads_kernel_notes_fixture(void **state)
{
	struct sampo_build_id bid;
	char path[4096];

	(void)state;
	if (!fixture("kernel-notes.bin", path, sizeof(path)))
		skip();
	assert_int_equal(sampo_build_id__from_notes_file(path, &bid), 0);
	assert_int_equal(bid.size, 20);
	expect_hex(&bid, "4a5a9b0affb66c437abcd455d2738af879985fa9");
}

static void test_build_id__reads_elf_fixture(void **state)
{
	struct sampo_build_id bid;
	char path[4096];
	size_t len;
	void *img;

	(void)state;
	if (!fixture("burn", path, sizeof(path)))
		skip();
	assert_int_equal(sampo_build_id__from_elf(path, &bid), 0);
	expect_hex(&bid, "690cfd666a0fa1f2e4b67ddad86ea1a75405b61c");

	img = read_file(path, &len);
	memset(&bid, 0, sizeof(bid));
	assert_int_equal(sampo_build_id__from_elf_mem(img, len, &bid), 0);
	expect_hex(&bid, "690cfd666a0fa1f2e4b67ddad86ea1a75405b61c");
	free(img);
}

/* Links a tiny program with --build-id=@style; false when there is no compiler. */
static bool compile(const char *style, char *out, size_t len)
{
	char cmd[8192], src[4200];
	FILE *f;

	if (!have_tmpdir)
		return false;
	snprintf(src, sizeof(src), "%s/p.c", tmpdir);
	f = fopen(src, "w");
	assert_non_null(f);
	fputs("int main(void) { return 0; }\n", f);
	fclose(f);
	snprintf(out, len, "%s/p-%s", tmpdir, style);
	snprintf(cmd, sizeof(cmd), "cc -o '%s' '%s' -Wl,--build-id=%s 2>/dev/null", out, src,
		 style);
	return system(cmd) == 0;
}

/* The build-id as readelf -n prints it: "Build ID: <hex>" */
static bool readelf_build_id(const char *path, char *hex, size_t len)
{
	char cmd[8192], line[512];
	bool found = false;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	if (!p)
		return false;
	while (fgets(line, sizeof(line), p)) {
		char *s = strstr(line, "Build ID: ");

		if (s && !found) {
			snprintf(hex, len, "%s", s + 10);
			hex[strcspn(hex, "\n ")] = '\0';
			found = true;
		}
	}
	pclose(p);
	return found;
}

static void check_compiled(const char *style, size_t size)
{
	struct sampo_build_id bid;
	char path[4400], hex[128];

	if (!compile(style, path, sizeof(path)) || !readelf_build_id(path, hex, sizeof(hex)))
		skip();
	assert_int_equal(sampo_build_id__from_elf(path, &bid), 0);
	assert_int_equal(bid.size, size);
	expect_hex(&bid, hex);
}

static void test_build_id__reads_sha1_build_id_of_compiled_file(void **state)
{
	(void)state;
	check_compiled("sha1", 20);
}

static void test_build_id__reads_md5_build_id_of_compiled_file(void **state)
{
	(void)state;
	check_compiled("md5", 16);
}

static void test_build_id__elf_without_build_id_is_enoent(void **state)
{
	struct sampo_build_id bid;
	char path[4400];

	(void)state;
	if (!compile("none", path, sizeof(path)))
		skip();
	assert_int_equal(sampo_build_id__from_elf(path, &bid), -ENOENT);
}

static void test_build_id__garbage_and_truncated_elf_fail_cleanly(void **state)
{
	struct sampo_build_id bid;
	char path[4400];
	uint8_t junk[256];
	size_t len;
	uint8_t *img;

	(void)state;
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 37 + 11);
	assert_int_equal(sampo_build_id__from_elf_mem(junk, sizeof(junk), &bid),
			 -SAMPO_ERR_MALFORMED);
	assert_int_equal(sampo_build_id__from_elf("/nonexistent", &bid), -ENOENT);

	if (!compile("sha1", path, sizeof(path)))
		skip();
	img = read_file(path, &len);
	/* every prefix: found, not found or malformed, never a crash (ASan watches) */
	for (size_t n = 0; n < len; n += (n < 4096 ? 1 : 97)) {
		uint8_t *cut = malloc(n ? n : 1);
		int err;

		memcpy(cut, img, n);
		err = sampo_build_id__from_elf_mem(cut, n, &bid);
		assert_true(err == 0 || err == -ENOENT || err == -SAMPO_ERR_MALFORMED);
		free(cut);
	}
	free(img);
}

/* ---- raw notes --------------------------------------------------------------------------- */

static size_t put_note(uint8_t *p, uint32_t type, const char *name, const void *desc,
		       uint32_t descsz)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1;
	size_t off = 12;

	memcpy(p, &namesz, 4);
	memcpy(p + 4, &descsz, 4);
	memcpy(p + 8, &type, 4);
	memset(p + off, 0, (namesz + 3) & ~3u);
	memcpy(p + off, name, namesz);
	off += (namesz + 3) & ~3u;
	memset(p + off, 0, (descsz + 3) & ~3u);
	memcpy(p + off, desc, descsz);
	return off + ((descsz + 3) & ~3u);
}

static void test_build_id__skips_other_notes(void **state)
{
	uint8_t blob[256], id[20];
	struct sampo_build_id bid;
	size_t n = 0;
	uint8_t *exact;

	(void)state;
	for (int i = 0; i < 20; i++)
		id[i] = (uint8_t)(0xa0 + i);
	n += put_note(blob + n, 6, "Linux", "6.1.0", 6);
	n += put_note(blob + n, 3, "Xen", "abcd", 4);	  /* type 3 but not GNU */
	n += put_note(blob + n, 1, "GNU", "\0\0\0\0", 4); /* GNU but not type 3 */
	n += put_note(blob + n, 3, "GNU", id, 20);
	exact = malloc(n);
	memcpy(exact, blob, n);
	assert_int_equal(sampo_build_id__from_notes(exact, n, &bid), 0);
	assert_int_equal(bid.size, 20);
	assert_memory_equal(bid.data, id, 20);
	free(exact);

	/* odd sizes: 7-byte id, padded */
	n = put_note(blob, 3, "GNU", id, 7);
	assert_int_equal(sampo_build_id__from_notes(blob, n, &bid), 0);
	assert_int_equal(bid.size, 7);
	expect_hex(&bid, "a0a1a2a3a4a5a6");

	/* no build-id at all */
	n = put_note(blob, 6, "Linux", "6.1.0", 6);
	assert_int_equal(sampo_build_id__from_notes(blob, n, &bid), -ENOENT);
	assert_int_equal(sampo_build_id__from_notes(blob, 0, &bid), -ENOENT);
}

static void test_build_id__rejects_notes_past_the_end(void **state)
{
	uint8_t blob[256], id[20] = { 1 };
	struct sampo_build_id bid;
	uint32_t huge = 0xfffffff0u;
	size_t n;

	(void)state;
	n = put_note(blob, 3, "GNU", id, 20);
	/* cut inside the descriptor: every shorter length must fail, not read past */
	for (size_t cut = 12; cut < n; cut++) {
		uint8_t *exact = malloc(cut);
		int err;

		memcpy(exact, blob, cut);
		err = sampo_build_id__from_notes(exact, cut, &bid);
		assert_int_equal(err, -SAMPO_ERR_MALFORMED);
		free(exact);
	}
	/* a descsz that wraps */
	n = put_note(blob, 6, "Linux", "x", 2);
	memcpy(blob + 4, &huge, 4);
	assert_int_equal(sampo_build_id__from_notes(blob, n, &bid), -SAMPO_ERR_MALFORMED);
	memcpy(blob, &huge, 4);
	assert_int_equal(sampo_build_id__from_notes(blob, n, &bid), -SAMPO_ERR_MALFORMED);

	/* empty and oversized build-ids */
	n = put_note(blob, 3, "GNU", id, 0);
	assert_int_equal(sampo_build_id__from_notes(blob, n, &bid), -SAMPO_ERR_MALFORMED);
	n = put_note(blob, 3, "GNU", blob + 100, 24);
	assert_int_equal(sampo_build_id__from_notes(blob, n, &bid), -SAMPO_ERR_MALFORMED);
}

/* ---- hex and comparison ------------------------------------------------------------------ */

static void test_build_id__hex_round_trip(void **state)
{
	struct sampo_build_id a, b;
	char buf[SAMPO_BUILD_ID_HEX_SIZE], small[8];

	(void)state;
	assert_int_equal(sampo_build_id__from_hex("4A5A9b0affb66c437abcd455d2738af879985fa9", &a),
			 0);
	assert_int_equal(a.size, 20);
	assert_int_equal(sampo_build_id__to_hex(&a, buf, sizeof(buf)), 40);
	assert_string_equal(buf, "4a5a9b0affb66c437abcd455d2738af879985fa9");
	assert_int_equal(sampo_build_id__to_hex(&a, small, sizeof(small)), -ENOSPC);

	assert_int_equal(sampo_build_id__from_hex("00ff", &b), 0);
	assert_int_equal(b.size, 2);
	assert_false(sampo_build_id__equal(&a, &b));
	assert_true(sampo_build_id__cmp(&a, &b) > 0);
	assert_true(sampo_build_id__cmp(&b, &a) < 0);
	b = a;
	assert_true(sampo_build_id__equal(&a, &b));
	assert_int_equal(sampo_build_id__cmp(&a, &b), 0);
	/* a prefix sorts first */
	b.size = 19;
	assert_true(sampo_build_id__cmp(&b, &a) < 0);
	assert_false(sampo_build_id__equal(&a, &b));

	assert_int_equal(sampo_build_id__from_hex("", &b), -EINVAL);
	assert_int_equal(sampo_build_id__from_hex("abc", &b), -EINVAL);
	assert_int_equal(sampo_build_id__from_hex("zz", &b), -EINVAL);
	assert_int_equal(sampo_build_id__from_hex("4a5a9b0affb66c437abcd455d2738af879985fa900", &b),
			 -EINVAL);
	assert_int_equal(sampo_build_id__from_hex("4a 5", &b), -EINVAL);
}

static int setup(void **state)
{
	(void)state;
	have_tmpdir = mkdtemp(tmpdir) != NULL;
	return 0;
}

static int teardown(void **state)
{
	char cmd[256];

	(void)state;
	if (have_tmpdir) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
		(void)!system(cmd);
	}
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_id__reads_kernel_notes_fixture),
		cmocka_unit_test(test_build_id__reads_elf_fixture),
		cmocka_unit_test(test_build_id__reads_sha1_build_id_of_compiled_file),
		cmocka_unit_test(test_build_id__reads_md5_build_id_of_compiled_file),
		cmocka_unit_test(test_build_id__elf_without_build_id_is_enoent),
		cmocka_unit_test(test_build_id__garbage_and_truncated_elf_fail_cleanly),
		cmocka_unit_test(test_build_id__skips_other_notes),
		cmocka_unit_test(test_build_id__rejects_notes_past_the_end),
		cmocka_unit_test(test_build_id__hex_round_trip),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
