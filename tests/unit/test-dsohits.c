// SPDX-License-Identifier: GPL-2.0
/*
 * test-dsohits.c - the DSO hit tracker of `sampo record`, fed with records
 * built here: user and kernel samples find their maps, module samples their
 * module, FORK copies the parent's maps, an exec COMM drops them, a later
 * MMAP cuts an older one, records queued out of time order are applied in
 * order, build-ids of MMAP2 records are kept, and malformed input is refused;
 * where the build-id of each DSO with samples comes from (a fake /sys).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/dsohits.h>

/* sample_type IP|TID|TIME, sample_id_all: trailer = tid pair + time */
static const struct sampo_event_attr attr = {
	.type = SAMPO_TYPE_SOFTWARE,
	.size = SAMPO_ATTR_SIZE_VER7,
	.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME,
	.flags = SAMPO_ATTR_SAMPLE_ID_ALL,
};

static uint64_t buf[1024];

static void add_sample(struct sampo_dsohits *h, uint8_t cpumode, uint32_t pid, uint64_t ip,
		       uint64_t time)
{
	union sampo_record *r = (union sampo_record *)buf;
	uint64_t *p = buf + 1;

	memset(buf, 0, 64);
	r->header.type = SAMPO_RECORD_SAMPLE;
	r->header.misc = cpumode;
	r->header.size = 32;
	p[0] = ip;
	p[1] = (uint64_t)pid | ((uint64_t)pid << 32);
	p[2] = time;
	assert_int_equal(sampo_dsohits__add(h, &attr, r), 0);
}

/* trailer: pid/tid, time */
static void put_trailer(uint8_t *end, uint32_t pid, uint64_t time)
{
	memcpy(end, &pid, 4);
	memcpy(end + 4, &pid, 4);
	memcpy(end + 8, &time, 8);
}

static void add_mmap2(struct sampo_dsohits *h, uint8_t cpumode, uint32_t pid, uint64_t start,
		      uint64_t len, const char *name, const uint8_t *bid, uint64_t time)
{
	union sampo_record *r = (union sampo_record *)buf;
	size_t n = strlen(name) + 1, name_len = (n + 7) & ~(size_t)7;

	memset(buf, 0, sizeof(buf));
	r->header.type = SAMPO_RECORD_MMAP2;
	r->header.misc = cpumode;
	r->mmap2.pid = pid;
	r->mmap2.tid = pid;
	r->mmap2.start = start;
	r->mmap2.len = len;
	if (bid) {
		r->header.misc |= SAMPO_MISC_MMAP_BUILD_ID;
		r->mmap2.build_id_size = 20;
		memcpy(r->mmap2.build_id, bid, 20);
	}
	memcpy(r->mmap2.filename, name, n);
	put_trailer((uint8_t *)r + sizeof(r->mmap2) + name_len, pid, time);
	r->header.size = (uint16_t)(sizeof(r->mmap2) + name_len + 16);
	assert_int_equal(sampo_dsohits__add(h, &attr, r), 0);
}

static void add_task(struct sampo_dsohits *h, uint32_t type, uint32_t pid, uint32_t ppid,
		     uint32_t tid, uint64_t time)
{
	union sampo_record *r = (union sampo_record *)buf;

	memset(buf, 0, 128);
	r->header.type = type;
	r->fork.pid = pid;
	r->fork.ppid = ppid;
	r->fork.tid = tid;
	r->fork.ptid = ppid;
	r->fork.time = time;
	put_trailer((uint8_t *)r + sizeof(r->fork), pid, time);
	r->header.size = sizeof(r->fork) + 16;
	assert_int_equal(sampo_dsohits__add(h, &attr, r), 0);
}

static void add_exec(struct sampo_dsohits *h, uint32_t pid, uint64_t time)
{
	union sampo_record *r = (union sampo_record *)buf;

	memset(buf, 0, 128);
	r->header.type = SAMPO_RECORD_COMM;
	r->header.misc = SAMPO_MISC_COMM_EXEC;
	r->comm.pid = pid;
	r->comm.tid = pid;
	memcpy(r->comm.comm, "prog\0\0\0", 8);
	put_trailer((uint8_t *)r + 16, pid, time);
	r->header.size = 32;
	assert_int_equal(sampo_dsohits__add(h, &attr, r), 0);
}

static const struct sampo_dsohit *find(struct sampo_dsohits *h, const char *name)
{
	for (size_t i = 0; i < sampo_dsohits__nr(h); i++) {
		const struct sampo_dsohit *d = sampo_dsohits__dso(h, i);

		if (!strcmp(d->name, name))
			return d;
	}
	return NULL;
}

static uint64_t hits(struct sampo_dsohits *h, const char *name)
{
	const struct sampo_dsohit *d = find(h, name);

	return d ? d->nr_samples : 0;
}

static void test_dsohits__user_kernel_and_module_samples(void **state)
{
	struct sampo_dsohits *h = sampo_dsohits__new();
	uint8_t bid[20];
	uint64_t first, last, unresolved;

	(void)state;
	assert_non_null(h);
	for (int i = 0; i < 20; i++)
		bid[i] = (uint8_t)i;
	add_mmap2(h, SAMPO_CPUMODE_KERNEL, (uint32_t)-1, 0xffffffff81000000ULL, 0x1000000,
		  "[kernel.kallsyms]_text", NULL, 0);
	add_mmap2(h, SAMPO_CPUMODE_KERNEL, (uint32_t)-1, 0xffffffffc0000000ULL, 0x4000,
		  "/lib/modules/x/foo.ko", NULL, 0);
	add_mmap2(h, SAMPO_CPUMODE_USER, 10, 0x400000, 0x1000, "/bin/prog", bid, 5);
	add_mmap2(h, SAMPO_CPUMODE_USER, 10, 0x7f0000000000ULL, 0x2000, "/lib/libc.so", NULL, 6);
	add_mmap2(h, SAMPO_CPUMODE_USER, 10, 0x7f1000000000ULL, 0x2000, "/lib/libbar.so", bid, 7);
	add_sample(h, SAMPO_CPUMODE_USER, 10, 0x400010, 10);
	add_sample(h, SAMPO_CPUMODE_USER, 10, 0x400ff0, 11);
	add_sample(h, SAMPO_CPUMODE_KERNEL, 10, 0xffffffff81000100ULL, 12);
	add_sample(h, SAMPO_CPUMODE_KERNEL, 10, 0xffffffffc0000010ULL, 13);
	add_sample(h, SAMPO_CPUMODE_KERNEL, 10, 0xffffffffa0000000ULL, 14); /* no map: kernel */
	add_sample(h, SAMPO_CPUMODE_USER, 10, 0x500000, 15);		    /* no map */
	add_sample(h, SAMPO_CPUMODE_USER, 99, 0x400010, 16);		    /* no process */
	assert_int_equal(sampo_dsohits__flush(h), 0);

	assert_int_equal(hits(h, "/bin/prog"), 2);
	assert_int_equal(hits(h, "[kernel.kallsyms]"), 2);
	assert_int_equal(hits(h, "/lib/modules/x/foo.ko"), 1);
	assert_int_equal(hits(h, "/lib/libc.so"), 0);
	assert_true(find(h, "[kernel.kallsyms]")->kernel);
	assert_int_equal(find(h, "/lib/modules/x/foo.ko")->cpumode, SAMPO_CPUMODE_KERNEL);
	assert_int_equal(find(h, "/bin/prog")->cpumode, SAMPO_CPUMODE_USER);
	assert_int_equal(find(h, "/bin/prog")->bid.size, 20);
	assert_memory_equal(find(h, "/bin/prog")->bid.data, bid, 20);
	assert_int_equal(find(h, "/lib/libc.so")->bid.size, 0);
	assert_int_equal(sampo_dsohits__nr_samples(h, &unresolved), 7);
	assert_int_equal(unresolved, 2);
	assert_true(sampo_dsohits__time_range(h, &first, &last));
	assert_int_equal(first, 10);
	assert_int_equal(last, 16);

	/* the build-id table: the kernel first (from SYS/kernel/notes: none here), then by map */
	{
		char sys[] = "/tmp/sampo-test-dsohits-table.XXXXXX", cmd[100];
		SAMPO_OPTS(sampo_dsohit_bid_opts, o, .sys_dir = sys);
		struct sampo_dsohit_build_id *rows;
		size_t nr;

		assert_non_null(mkdtemp(sys));
		assert_int_equal(sampo_dsohits__build_ids(h, &o, &rows, &nr), 0);
		assert_int_equal(
			nr, 1); /* no sample in libc, libbar; no build-id for the kernel, foo.ko */
		assert_string_equal(rows[0].hit->name, "/bin/prog");
		assert_memory_equal(rows[0].bid.data, bid, 20);
		free(rows);
		{
			static const uint32_t hdr[3] = { 4, 2, 3 }; /* host order, as /sys has it */
			uint8_t note[20] = { 0 };
			char path[100];
			FILE *f;

			memcpy(note, hdr, sizeof(hdr));
			memcpy(note + 12, "GNU", 4);
			note[16] = 0xaa;
			note[17] = 0xbb;

			snprintf(path, sizeof(path), "%s/kernel", sys);
			assert_int_equal(mkdir(path, 0755), 0);
			snprintf(path, sizeof(path), "%s/kernel/notes", sys);
			f = fopen(path, "w");
			assert_non_null(f);
			assert_int_equal(fwrite(note, sizeof(note), 1, f), 1);
			fclose(f);
		}
		assert_int_equal(sampo_dsohits__build_ids(h, &o, &rows, &nr), 0);
		assert_int_equal(nr, 2);
		assert_string_equal(rows[0].hit->name, "[kernel.kallsyms]");
		assert_int_equal(rows[0].bid.size, 2);
		assert_int_equal(rows[0].bid.data[0], 0xaa);
		assert_string_equal(rows[1].hit->name, "/bin/prog");
		free(rows);
		/* --buildid-all: libbar too, without a sample; libc still has no build-id */
		o.all = true;
		assert_int_equal(sampo_dsohits__build_ids(h, &o, &rows, &nr), 0);
		assert_int_equal(nr, 3);
		assert_string_equal(rows[0].hit->name, "[kernel.kallsyms]");
		assert_string_equal(rows[1].hit->name, "/bin/prog");
		assert_string_equal(rows[2].hit->name, "/lib/libbar.so");
		free(rows);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sys);
		assert_int_equal(system(cmd), 0);
	}
	sampo_dsohits__delete(h);
}

static void test_dsohits__fork_exec_and_overlap(void **state)
{
	struct sampo_dsohits *h = sampo_dsohits__new();

	(void)state;
	add_mmap2(h, SAMPO_CPUMODE_USER, 10, 0x400000, 0x3000, "/bin/parent", NULL, 1);
	add_task(h, SAMPO_RECORD_FORK, 11, 10, 11, 2); /* new process: copies */
	add_task(h, SAMPO_RECORD_FORK, 10, 10, 12, 3); /* new thread of 10 */
	add_sample(h, SAMPO_CPUMODE_USER, 11, 0x401000, 4);
	add_sample(h, SAMPO_CPUMODE_USER, 10, 0x401000, 4);
	add_exec(h, 11, 5);
	add_sample(h, SAMPO_CPUMODE_USER, 11, 0x401000, 6); /* after exec: no map */
	add_mmap2(h, SAMPO_CPUMODE_USER, 11, 0x400000, 0x1000, "/bin/child", NULL, 7);
	add_sample(h, SAMPO_CPUMODE_USER, 11, 0x400800, 8);
	/* a map in the middle of /bin/parent cuts it in three */
	add_mmap2(h, SAMPO_CPUMODE_USER, 10, 0x401000, 0x1000, "/lib/mid.so", NULL, 9);
	add_sample(h, SAMPO_CPUMODE_USER, 10, 0x400100, 10);
	add_sample(h, SAMPO_CPUMODE_USER, 10, 0x401100, 10);
	add_sample(h, SAMPO_CPUMODE_USER, 10, 0x402100, 10);
	add_task(h, SAMPO_RECORD_EXIT, 10, 1, 10, 11);
	add_sample(h, SAMPO_CPUMODE_USER, 10, 0x400100, 12); /* after exit */
	assert_int_equal(sampo_dsohits__flush(h), 0);

	assert_int_equal(hits(h, "/bin/parent"), 4);
	assert_int_equal(hits(h, "/bin/child"), 1);
	assert_int_equal(hits(h, "/lib/mid.so"), 1);
	sampo_dsohits__delete(h);
}

static void test_dsohits__applies_records_in_time_order(void **state)
{
	struct sampo_dsohits *h = sampo_dsohits__new();

	(void)state;
	/* ring 0 drained first: its sample precedes (in the queue) ring 1's map */
	add_sample(h, SAMPO_CPUMODE_USER, 20, 0x400010, 50);
	add_mmap2(h, SAMPO_CPUMODE_USER, 20, 0x400000, 0x1000, "/bin/late", NULL, 40);
	assert_int_equal(sampo_dsohits__flush(h), 0);
	assert_int_equal(hits(h, "/bin/late"), 1);

	/* state carries over rounds */
	add_sample(h, SAMPO_CPUMODE_USER, 20, 0x400020, 60);
	assert_int_equal(sampo_dsohits__flush(h), 0);
	assert_int_equal(hits(h, "/bin/late"), 2);
	sampo_dsohits__delete(h);
}

static void test_dsohits__many_processes_and_dsos(void **state)
{
	struct sampo_dsohits *h = sampo_dsohits__new();
	char name[64];

	(void)state;
	for (uint32_t pid = 1; pid <= 2000; pid++) {
		snprintf(name, sizeof(name), "/bin/p%u", pid % 300);
		add_mmap2(h, SAMPO_CPUMODE_USER, pid, 0x400000, 0x1000, name, NULL, pid);
		add_sample(h, SAMPO_CPUMODE_USER, pid, 0x400000, 5000 + pid);
	}
	assert_int_equal(sampo_dsohits__flush(h), 0);
	assert_int_equal(sampo_dsohits__nr(h), 300);
	assert_int_equal(hits(h, "/bin/p0"), 6);
	assert_int_equal(hits(h, "/bin/p1"), 7);
	sampo_dsohits__delete(h);
}

static void test_dsohits__rejects_malformed_records(void **state)
{
	struct sampo_dsohits *h = sampo_dsohits__new();
	union sampo_record *r = (union sampo_record *)buf;

	(void)state;
	memset(buf, 0, 128);
	r->header.type = SAMPO_RECORD_SAMPLE;
	r->header.size = 16; /* IP but no TID/TIME */
	assert_int_equal(sampo_dsohits__add(h, &attr, r), -SAMPO_ERR_MALFORMED);
	r->header.type = SAMPO_RECORD_MMAP2;
	r->header.size = 72; /* no room for a name */
	assert_int_equal(sampo_dsohits__add(h, &attr, r), -SAMPO_ERR_MALFORMED);
	r->header.type = SAMPO_RECORD_LOST; /* ignored */
	r->header.size = 24;
	assert_int_equal(sampo_dsohits__add(h, &attr, r), 0);
	assert_int_equal(sampo_dsohits__flush(h), 0);
	assert_int_equal(sampo_dsohits__nr(h), 0);
	sampo_dsohits__delete(h);
	sampo_dsohits__delete(NULL);
}

/* a raw NT_GNU_BUILD_ID note as /sys exports it, with build-id bytes @first.. */
static void put_note(const char *path, uint8_t first)
{
	uint32_t hdr[3] = { 4, 20, 3 };
	uint8_t desc[20];
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (int i = 0; i < 20; i++)
		desc[i] = (uint8_t)(first + i);
	fwrite(hdr, sizeof(hdr), 1, f);
	fwrite("GNU", 4, 1, f);
	fwrite(desc, sizeof(desc), 1, f);
	fclose(f);
}

static void test_dsohits__build_id_sources(void **state)
{
	char sys[] = "/tmp/sampo-test-dsohits.XXXXXX", path[300], cmd[400];
	struct sampo_build_id vdso = { .size = 2, .data = { 0xab, 0xcd } }, bid;
	struct sampo_dsohit hit;
	SAMPO_OPTS(sampo_dsohit_bid_opts, o, .sys_dir = sys, .vdso_bid = &vdso);

	(void)state;
	assert_non_null(mkdtemp(sys));
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/kernel' '%s/module/my_mod/notes'", sys, sys);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/kernel/notes", sys);
	put_note(path, 0x10);
	snprintf(path, sizeof(path), "%s/module/my_mod/notes/.note.gnu.build-id", sys);
	put_note(path, 0x40);

	/* the MMAP2 record's build-id wins */
	memset(&hit, 0, sizeof(hit));
	hit.name = "/usr/lib/libnothere.so";
	hit.cpumode = SAMPO_CPUMODE_USER;
	hit.bid.size = 1;
	hit.bid.data[0] = 0x77;
	assert_int_equal(sampo_dsohit__build_id(&hit, &o, &bid), 0);
	assert_int_equal(bid.size, 1);
	assert_int_equal(bid.data[0], 0x77);

	/* the kernel: SYS/kernel/notes */
	memset(&hit, 0, sizeof(hit));
	hit.name = "[kernel.kallsyms]";
	hit.cpumode = SAMPO_CPUMODE_KERNEL;
	hit.kernel = true;
	assert_int_equal(sampo_dsohit__build_id(&hit, &o, &bid), 0);
	assert_int_equal(bid.size, 20);
	assert_int_equal(bid.data[0], 0x10);

	/* a module: SYS/module/NAME/notes, by its path or its [name] */
	hit.kernel = false;
	hit.name = "/lib/modules/6.1.0/kernel/my-mod.ko.xz";
	assert_int_equal(sampo_dsohit__build_id(&hit, &o, &bid), 0);
	assert_int_equal(bid.data[0], 0x40);
	hit.name = "[my_mod]";
	assert_int_equal(sampo_dsohit__build_id(&hit, &o, &bid), 0);
	hit.name = "[other_mod]";
	assert_int_equal(sampo_dsohit__build_id(&hit, &o, &bid), -ENOENT);

	/* the vDSO: the one given */
	hit.name = "[vdso]";
	hit.cpumode = SAMPO_CPUMODE_USER;
	assert_int_equal(sampo_dsohit__build_id(&hit, &o, &bid), 0);
	assert_int_equal(bid.data[1], 0xcd);
	assert_int_equal(sampo_dsohit__build_id(&hit, NULL, &bid), -ENOENT);

	/* not files: none; a FIFO at a DSO's path: refused at once */
	hit.name = "//anon";
	assert_int_equal(sampo_dsohit__build_id(&hit, &o, &bid), -ENOENT);
	hit.name = "/memfd:jit (deleted)";
	assert_int_equal(sampo_dsohit__build_id(&hit, &o, &bid), -ENOENT);
	snprintf(path, sizeof(path), "%s/libfifo.so", sys);
	assert_int_equal(mkfifo(path, 0600), 0);
	hit.name = path;
	assert_int_equal(sampo_dsohit__build_id(&hit, &o, &bid), -EINVAL);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sys);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dsohits__user_kernel_and_module_samples),
		cmocka_unit_test(test_dsohits__fork_exec_and_overlap),
		cmocka_unit_test(test_dsohits__applies_records_in_time_order),
		cmocka_unit_test(test_dsohits__many_processes_and_dsos),
		cmocka_unit_test(test_dsohits__rejects_malformed_records),
		cmocka_unit_test(test_dsohits__build_id_sources),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
