// SPDX-License-Identifier: GPL-2.0
/*
 * test-synthesize.c - the records and features `sampo record` synthesizes,
 * from a fake /proc, /sys and /lib/modules tree made in a temporary
 * directory: kernel map from kallsyms (visible and hidden by kptr_restrict),
 * modules resolved through modules.dep or named [name], module build-ids
 * from notes, the running kernel's maps with their build-ids (buildid-list
 * -m), FORK/COMM/MMAP2 of a process and its threads in perf's order
 * with the sample_id trailer, and the host features read back by the reader.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <sampo/dso.h>
#include <sampo/feature.h>
#include <sampo/machine.h>
#include <sampo/map.h>
#include <sampo/reader.h>
#include <sampo/synthesize.h>
#include <sampo/thread.h>
#include <sampo/writer.h>

#include "fixture-machine.h"

static char tmpdir[] = "/tmp/sampo-synth-XXXXXX";

#define MAX_RECS 64

/* Copies of the records a synthesis produced. */
struct collected {
	size_t nr;
	union sampo_record *recs[MAX_RECS];
};

static int collect(void *ctx, const union sampo_record *rec)
{
	struct collected *c = ctx;

	assert_true(c->nr < MAX_RECS);
	assert_int_equal(rec->header.size % 8, 0);
	c->recs[c->nr] = malloc(rec->header.size);
	assert_non_null(c->recs[c->nr]);
	memcpy(c->recs[c->nr], rec, rec->header.size);
	c->nr++;
	return 0;
}

static void collected_free(struct collected *c)
{
	for (size_t i = 0; i < c->nr; i++)
		free(c->recs[i]);
	c->nr = 0;
}

static void put_file(const char *rel, const void *data, size_t len)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	for (slash = strchr(path + strlen(tmpdir) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		(void)mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void put_text(const char *rel, const char *text)
{
	put_file(rel, text, strlen(text));
}

static void dir_path(char *buf, size_t len, const char *rel)
{
	snprintf(buf, len, "%s/%s", tmpdir, rel);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[600];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_synthesize__kernel_mmap_from_kallsyms(void **state)
{
	char proc[512];
	struct collected c = { 0 };
	struct sampo_synth_kernel k;
	SAMPO_OPTS(sampo_synth_opts, opts, .proc_dir = proc, .sample_id_size = 16);
	const union sampo_record *r;

	(void)state;
	dir_path(proc, sizeof(proc), "k1");
	put_text("k1/kallsyms", "0000000000000000 A fixed_percpu_data\n"
				"ffffffff81000000 T _text\n"
				"ffffffff81001000 T startup_64\n"
				"ffffffff82200000 T _etext\n");
	put_text("k1/sys/kernel/kptr_restrict", "0\n");
	assert_int_equal(sampo_synthesize__kernel_mmap(&opts, collect, &c, &k), 0);
	assert_int_equal(c.nr, 1);
	r = c.recs[0];
	assert_int_equal(r->header.type, SAMPO_RECORD_MMAP);
	assert_int_equal(r->header.misc, SAMPO_CPUMODE_KERNEL);
	assert_int_equal(r->mmap.pid, (uint32_t)-1);
	assert_int_equal(r->mmap.tid, 0);
	assert_int_equal(r->mmap.start, 0xffffffff81000000ULL);
	assert_int_equal(r->mmap.pgoff, 0xffffffff81000000ULL);
	assert_int_equal(r->mmap.len, 0x1200000);
	assert_string_equal(r->mmap.filename, "[kernel.kallsyms]_text");
	/* 40 bytes of fields, the name padded to 24, the 16-byte trailer, all zero */
	assert_int_equal(r->header.size, 40 + 24 + 16);
	for (size_t i = 64; i < 80; i++)
		assert_int_equal(((const uint8_t *)r)[i], 0);
	assert_false(k.hidden);
	assert_int_equal(k.kptr_restrict, 0);
	collected_free(&c);
}

static void test_synthesize__kernel_mmap_hidden_by_kptr_restrict(void **state)
{
	char proc[512];
	struct collected c = { 0 };
	struct sampo_synth_kernel k;
	SAMPO_OPTS(sampo_synth_opts, opts, .proc_dir = proc);

	(void)state;
	dir_path(proc, sizeof(proc), "k2");
	put_text("k2/kallsyms", "0000000000000000 T _text\n0000000000000000 T _etext\n");
	put_text("k2/sys/kernel/kptr_restrict", "2\n");
	assert_int_equal(sampo_synthesize__kernel_mmap(&opts, collect, &c, &k), 0);
	assert_true(k.hidden);
	assert_int_equal(k.kptr_restrict, 2);
	assert_int_equal(c.nr, 1);
	assert_int_equal(c.recs[0]->mmap.start, 0);
	assert_int_equal(c.recs[0]->mmap.pgoff, 0);
	assert_int_equal(c.recs[0]->mmap.len, UINT64_MAX);
	collected_free(&c);

	/* no kallsyms at all */
	dir_path(proc, sizeof(proc), "nothing-here");
	assert_int_equal(sampo_synthesize__kernel_mmap(&opts, collect, &c, NULL), -ENOENT);
	assert_int_equal(c.nr, 0);
}

static void test_synthesize__modules_named_by_modules_dep(void **state)
{
	char proc[512], mods[512], sys[512];
	struct collected c = { 0 };
	SAMPO_OPTS(sampo_synth_opts, opts, .proc_dir = proc, .modules_dir = mods, .sys_dir = sys,
		   .osrelease = "6.1.0-test");
	/* a GNU build-id note: namesz 4, descsz 20, type 3, "GNU\0", 20 bytes */
	uint8_t note[36] = { 4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0 };
	struct sampo_build_id bid;

	(void)state;
	dir_path(proc, sizeof(proc), "m/proc");
	dir_path(mods, sizeof(mods), "m/lib/modules");
	dir_path(sys, sizeof(sys), "m/sys");
	put_text("m/proc/modules",
		 "nf_tables 290816 3 nft_ct,nft_chain_nat, Live 0xffffffffc0a00000\n"
		 "my-mod 16384 0 - Live 0xffffffffc0200000 (OE)\n"
		 "hidden 4096 0 - Live 0x0000000000000000\n");
	put_text("m/lib/modules/6.1.0-test/modules.dep",
		 "kernel/net/netfilter/nf_tables.ko.xz: kernel/lib/libcrc32c.ko.xz\n"
		 "kernel/lib/libcrc32c.ko.xz:\n");
	for (int i = 0; i < 20; i++)
		note[16 + i] = (uint8_t)(0xa0 + i);
	put_file("m/sys/module/my_mod/notes/.note.gnu.build-id", note, sizeof(note));

	assert_int_equal(sampo_synthesize__modules(&opts, collect, &c), 2);
	assert_int_equal(c.nr, 2);
	assert_int_equal(c.recs[0]->header.type, SAMPO_RECORD_MMAP);
	assert_int_equal(c.recs[0]->header.misc, SAMPO_CPUMODE_KERNEL);
	assert_int_equal(c.recs[0]->mmap.pid, (uint32_t)-1);
	assert_int_equal(c.recs[0]->mmap.start, 0xffffffffc0a00000ULL);
	assert_int_equal(c.recs[0]->mmap.len, 290816);
	assert_int_equal(c.recs[0]->mmap.pgoff, 0);
	{
		char want[600];

		snprintf(want, sizeof(want), "%s/6.1.0-test/kernel/net/netfilter/nf_tables.ko.xz",
			 mods);
		assert_string_equal(c.recs[0]->mmap.filename, want);
	}
	assert_string_equal(c.recs[1]->mmap.filename, "[my_mod]");
	assert_int_equal(c.recs[1]->mmap.start, 0xffffffffc0200000ULL);
	collected_free(&c);

	/* build-id from /sys/module/NAME/notes, whatever form the name has */
	assert_int_equal(sampo_synthesize__module_build_id(&opts, "[my_mod]", &bid), 0);
	assert_int_equal(bid.size, 20);
	assert_int_equal(bid.data[0], 0xa0);
	assert_int_equal(sampo_synthesize__module_build_id(&opts, "/x/my-mod.ko", &bid), 0);
	assert_int_equal(sampo_synthesize__module_build_id(&opts, "nf_tables", &bid), -ENOENT);

	/*
	 * No modules.dep (an initramfs, a hand-made tree): the files are found
	 * by walking the tree, as perf does, without following the build link
	 */
	put_text("m2/proc/modules", "my-mod 16384 0 - Live 0xffffffffc0200000 (OE)\n"
				    "other 4096 0 - Live 0xffffffffc0300000\n");
	put_text("m2/lib/modules/6.1.0-test/kernel/drivers/misc/my_mod.ko.zst", "x");
	put_text("m2/lib/modules/6.1.0-test/kernel/drivers/misc/README", "x");
	put_text("m2/tree/other.ko", "x");
	{
		char link[600], target[600], want[600];

		dir_path(target, sizeof(target), "m2/tree");
		dir_path(link, sizeof(link), "m2/lib/modules/6.1.0-test/build");
		assert_int_equal(symlink(target, link), 0);
		dir_path(proc, sizeof(proc), "m2/proc");
		dir_path(mods, sizeof(mods), "m2/lib/modules");
		assert_int_equal(sampo_synthesize__modules(&opts, collect, &c), 2);
		snprintf(want, sizeof(want), "%s/6.1.0-test/kernel/drivers/misc/my_mod.ko.zst",
			 mods);
		assert_string_equal(c.recs[0]->mmap.filename, want);
		assert_string_equal(c.recs[1]->mmap.filename, "[other]");
		collected_free(&c);
	}

	/* no /proc/modules: a kernel without loadable modules, nothing to write */
	dir_path(proc, sizeof(proc), "m/none");
	assert_int_equal(sampo_synthesize__modules(&opts, collect, &c), 0);
	assert_int_equal(c.nr, 0);
}

static void test_synthesize__kernel_maps(void **state)
{
	char proc[512], mods[512], sys[512], want[600];
	SAMPO_OPTS(sampo_synth_opts, opts, .proc_dir = proc, .modules_dir = mods, .sys_dir = sys,
		   .osrelease = "6.1.0-km");
	uint8_t note[36] = { 4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0 };
	struct sampo_kernel_map *maps = NULL;
	size_t nr = 0;

	(void)state;
	dir_path(proc, sizeof(proc), "km/proc");
	dir_path(mods, sizeof(mods), "km/lib/modules");
	dir_path(sys, sizeof(sys), "km/sys");
	put_text("km/proc/kallsyms", "0000000000000000 A fixed_percpu_data\n"
				     "ffffffff81000000 T _stext\n"
				     "ffffffff81000000 T _text\n"
				     "ffffffff82200000 T _etext\n");
	/* listed out of address order: the maps come sorted */
	put_text("km/proc/modules", "zz-mod 8192 0 - Live 0xffffffffc0300000\n"
				    "aa_mod 4096 0 - Live 0xffffffffc0100000 (OE)\n");
	put_text("km/lib/modules/6.1.0-km/kernel/misc/aa_mod.ko.xz", "x");
	for (int i = 0; i < 20; i++)
		note[16 + i] = (uint8_t)(0x10 + i);
	put_file("km/sys/kernel/notes", note, sizeof(note));
	note[16] = 0xee;
	put_file("km/sys/module/aa_mod/notes/.note.gnu.build-id", note, sizeof(note));

	assert_int_equal(sampo_synthesize__kernel_maps(&opts, &maps, &nr), 0);
	assert_int_equal(nr, 3);
	assert_string_equal(maps[0].name, "[kernel.kallsyms]");
	assert_int_equal(maps[0].start, 0xffffffff81000000ULL);
	assert_int_equal(maps[0].end, 0xffffffff82200000ULL);
	assert_int_equal(maps[0].bid.size, 20);
	assert_int_equal(maps[0].bid.data[0], 0x10);
	snprintf(want, sizeof(want), "%s/6.1.0-km/kernel/misc/aa_mod.ko.xz", mods);
	assert_string_equal(maps[1].name, want);
	assert_int_equal(maps[1].start, 0xffffffffc0100000ULL);
	assert_int_equal(maps[1].end, 0xffffffffc0101000ULL);
	assert_int_equal(maps[1].bid.size, 20);
	assert_int_equal(maps[1].bid.data[0], 0xee);
	/* no file, no notes: "[name]" as /proc/modules spells it, no build-id */
	assert_string_equal(maps[2].name, "[zz-mod]");
	assert_int_equal(maps[2].start, 0xffffffffc0300000ULL);
	assert_int_equal(maps[2].end, 0xffffffffc0302000ULL);
	assert_int_equal(maps[2].bid.size, 0);
	sampo_kernel_maps__free(maps, nr);

	/* no _text: _stext; no _etext: to the top; no modules: the kernel alone */
	put_text("km2/proc/kallsyms", "ffffffff81000000 T _stext\n");
	dir_path(proc, sizeof(proc), "km2/proc");
	assert_int_equal(sampo_synthesize__kernel_maps(&opts, &maps, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(maps[0].start, 0xffffffff81000000ULL);
	assert_int_equal(maps[0].end, UINT64_MAX);
	sampo_kernel_maps__free(maps, nr);

	/* addresses hidden (kptr_restrict), or no kallsyms at all: no kernel text */
	put_text("km3/proc/kallsyms", "0000000000000000 T _text\n0000000000000000 T _etext\n");
	dir_path(proc, sizeof(proc), "km3/proc");
	assert_int_equal(sampo_synthesize__kernel_maps(&opts, &maps, &nr), -ENOENT);
	dir_path(proc, sizeof(proc), "km-nothing");
	assert_int_equal(sampo_synthesize__kernel_maps(&opts, &maps, &nr), -ENOENT);
	sampo_kernel_maps__free(NULL, 0);
}

static void test_synthesize__process_in_perf_order(void **state)
{
	char proc[512];
	struct collected c = { 0 };
	SAMPO_OPTS(sampo_synth_opts, opts, .proc_dir = proc, .sample_id_size = 8);
	const union sampo_record *r;

	(void)state;
	dir_path(proc, sizeof(proc), "p");
	put_text("p/100/status", "Name:\tworker\nUmask:\t0022\nState:\tS\nTgid:\t100\n"
				 "Ngid:\t0\nPid:\t100\nPPid:\t42\n");
	put_text("p/100/task/100/comm", "worker\n");
	put_text("p/100/task/101/comm", "worker-io\n");
	put_text("p/100/maps",
		 "55d0a0000000-55d0a0001000 r--p 00000000 fe:00 1234 /usr/bin/worker\n"
		 "55d0a0001000-55d0a0005000 r-xp 00001000 fe:00 1234 /usr/bin/worker\n"
		 "7f0000000000-7f0000010000 rw-p 00000000 00:00 0 \n"
		 "7f0000010000-7f0000020000 rwxp 00000000 00:00 0 \n"
		 "7f1000000000-7f1000002000 r-xp 00000000 00:00 0 [vdso]\n"
		 "7f2000000000-7f2000001000 r-xs 00002000 08:01 99 /lib/with space.so\n");
	/* asking for a thread describes its whole process */
	assert_int_equal(sampo_synthesize__process(&opts, 101, collect, &c), -ENOENT);
	put_text("p/101/status", "Name:\tworker-io\nTgid:\t100\nPPid:\t42\n");
	assert_int_equal(sampo_synthesize__process(&opts, 101, collect, &c), 0);

	assert_int_equal(c.nr, 8);
	r = c.recs[0];
	assert_int_equal(r->header.type, SAMPO_RECORD_FORK);
	assert_int_equal(r->fork.pid, 100);
	assert_int_equal(r->fork.ppid, 42);
	assert_int_equal(r->fork.tid, 100);
	assert_int_equal(r->fork.ptid, 42);
	assert_int_equal(r->header.size, sizeof(r->fork) + 8);
	r = c.recs[1];
	assert_int_equal(r->header.type, SAMPO_RECORD_COMM);
	assert_string_equal(r->comm.comm, "worker");
	assert_int_equal(r->comm.tid, 100);

	r = c.recs[2];
	assert_int_equal(r->header.type, SAMPO_RECORD_MMAP2);
	assert_int_equal(r->header.misc, SAMPO_CPUMODE_USER);
	assert_int_equal(r->mmap2.start, 0x55d0a0001000ULL);
	assert_int_equal(r->mmap2.len, 0x4000);
	assert_int_equal(r->mmap2.pgoff, 0x1000);
	assert_int_equal(r->mmap2.maj, 0xfe);
	assert_int_equal(r->mmap2.min, 0);
	assert_int_equal(r->mmap2.ino, 1234);
	assert_int_equal(r->mmap2.prot, PROT_READ | PROT_EXEC);
	assert_int_equal(r->mmap2.flags, MAP_PRIVATE);
	assert_string_equal(r->mmap2.filename, "/usr/bin/worker");
	assert_string_equal(c.recs[3]->mmap2.filename, "//anon");
	assert_string_equal(c.recs[4]->mmap2.filename, "[vdso]");
	assert_string_equal(c.recs[5]->mmap2.filename, "/lib/with space.so");
	assert_int_equal(c.recs[5]->mmap2.flags, MAP_SHARED);

	r = c.recs[6];
	assert_int_equal(r->header.type, SAMPO_RECORD_FORK);
	assert_int_equal(r->fork.pid, 100);
	assert_int_equal(r->fork.ppid, 100);
	assert_int_equal(r->fork.tid, 101);
	assert_int_equal(r->fork.ptid, 100);
	assert_string_equal(c.recs[7]->comm.comm, "worker-io");
	assert_int_equal(c.recs[7]->comm.tid, 101);
	collected_free(&c);

	/* gone: -ENOENT; all processes: this one, threads after their leader */
	assert_int_equal(sampo_synthesize__process(&opts, 7, collect, &c), -ENOENT);
	put_text("p/self", "not a pid\n");
	assert_int_equal(sampo_synthesize__all_processes(&opts, collect, &c), 0);
	assert_true(c.nr >= 7);
	collected_free(&c);
}

static void test_synthesize__data_maps_with_mmap_data(void **state)
{
	char proc[512];
	struct collected c = { 0 };
	SAMPO_OPTS(sampo_synth_opts, opts, .proc_dir = proc, .mmap_data = true);

	(void)state;
	dir_path(proc, sizeof(proc), "d");
	put_text("d/5/status", "Name:\tx\nTgid:\t5\nPPid:\t1\n");
	put_text("d/5/maps", "1000-2000 rw-p 00000000 00:00 0 [heap]\n"
			     "3000-4000 r-xp 00000000 00:00 0 [vdso]\n"
			     "garbage line\n");
	assert_int_equal(sampo_synthesize__process(&opts, 5, collect, &c), 0);
	assert_int_equal(c.nr, 4); /* FORK, COMM (from status), 2 maps */
	assert_string_equal(c.recs[1]->comm.comm, "x");
	assert_int_equal(c.recs[2]->header.misc, SAMPO_CPUMODE_USER | SAMPO_MISC_MMAP_DATA);
	assert_int_equal(c.recs[3]->header.misc, SAMPO_CPUMODE_USER);
	collected_free(&c);
}

/*
 * --namespaces: after each FORK, the thread's NAMESPACES: the device and inode
 * of each of its ns links, in the kernel's order; 0/0 for a missing one
 */
static void test_synthesize__namespaces_after_fork(void **state)
{
	static const char *const ns[] = { "net", "uts", "ipc", "pid", "user", "mnt" };
	char proc[512], path[600];
	struct collected c = { 0 };
	SAMPO_OPTS(sampo_synth_opts, opts, .proc_dir = proc, .sample_id_size = 8,
		   .namespaces = true);
	const union sampo_record *r;
	struct stat st;

	(void)state;
	dir_path(proc, sizeof(proc), "n");
	put_text("n/9/status", "Name:\tns\nTgid:\t9\nPPid:\t1\n");
	put_text("n/9/task/9/comm", "ns\n");
	put_text("n/9/task/10/comm", "ns-2\n");
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) { /* no cgroup link */
		snprintf(path, sizeof(path), "n/9/task/9/ns/%s", ns[i]);
		put_text(path, ns[i]);
	}
	assert_int_equal(sampo_synthesize__process(&opts, 9, collect, &c), 0);
	assert_int_equal(c.nr, 6); /* FORK, NAMESPACES, COMM, then the same for thread 10 */
	assert_int_equal(c.recs[0]->header.type, SAMPO_RECORD_FORK);
	r = c.recs[1];
	assert_int_equal(r->header.type, SAMPO_RECORD_NAMESPACES);
	assert_int_equal(r->header.size, sizeof(r->namespaces) + 7 * 16 + 8);
	assert_int_equal(r->namespaces.pid, 9);
	assert_int_equal(r->namespaces.tid, 9);
	assert_int_equal(r->namespaces.nr_namespaces, 7);
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		snprintf(path, sizeof(path), "%s/9/task/9/ns/%s", proc, ns[i]);
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(r->namespaces.link_info[i].dev, st.st_dev);
		assert_int_equal(r->namespaces.link_info[i].ino, st.st_ino);
	}
	assert_int_equal(r->namespaces.link_info[6].ino, 0);
	assert_int_equal(c.recs[2]->header.type, SAMPO_RECORD_COMM);
	assert_int_equal(c.recs[3]->header.type, SAMPO_RECORD_FORK);
	r = c.recs[4];
	assert_int_equal(r->header.type, SAMPO_RECORD_NAMESPACES);
	assert_int_equal(r->namespaces.tid, 10);
	assert_int_equal(r->namespaces.link_info[0].ino, 0); /* thread 10 has no links here */
	collected_free(&c);

	/* the command's record alone */
	assert_int_equal(sampo_synthesize__namespaces(NULL, 9, 9, collect, &c), 0);
	assert_int_equal(c.nr, 1);
	assert_int_equal(c.recs[0]->header.type, SAMPO_RECORD_NAMESPACES);
	collected_free(&c);
}

/* The host features, written to a file and parsed back. */
static void test_synthesize__features_read_back(void **state)
{
	char path[512];
	struct sampo_writer *w;
	struct sampo_reader *r;
	struct sampo_features *f;
	struct sampo_event_attr attr = { .type = 1, .sample_type = SAMPO_SAMPLE_IP };
	uint64_t id = 1;

	(void)state;
	dir_path(path, sizeof(path), "features.data");
	assert_int_equal(sampo_writer__open(path, NULL, &w), 0);
	assert_int_equal(sampo_writer__add_attr(w, &attr, &id, 1), 0);
	assert_int_equal(sampo_synthesize__features(NULL, w), 0);
	assert_int_equal(sampo_writer__close(w), 0);

	assert_int_equal(sampo_reader__open(path, NULL, &r), 0);
	assert_int_equal(sampo_features__parse(r, &f, NULL), 0);
	assert_true(sampo_features__has(f, SAMPO_FEAT_HOSTNAME));
	assert_true(sampo_features__has(f, SAMPO_FEAT_OSRELEASE));
	assert_true(sampo_features__has(f, SAMPO_FEAT_ARCH));
	assert_true(sampo_features__has(f, SAMPO_FEAT_NRCPUS));
	assert_true(f->nr_cpus_online >= 1);
	assert_true(f->nr_cpus_avail >= f->nr_cpus_online);
	assert_true(sampo_features__has(f, SAMPO_FEAT_TOTAL_MEM));
	assert_true(f->total_mem_kb > 0);
	if (sampo_features__has(f, SAMPO_FEAT_CPU_TOPOLOGY))
		assert_int_equal(f->cpu_topology.nr_cpus, f->nr_cpus_avail);
	assert_true(sampo_features__has(f, SAMPO_FEAT_PMU_MAPPINGS));
	assert_true(f->nr_pmu_mappings >= 1);
	assert_true(sampo_features__has(f, SAMPO_FEAT_BPF_PROG_INFO));
	assert_true(sampo_features__has(f, SAMPO_FEAT_PMU_CAPS));
	sampo_features__delete(f);
	sampo_reader__close(r);
}

/* The header's view of "this machine", from a fake /proc and /sys. */
static void test_synthesize__host_features_from_a_root(void **state)
{
	char proc[512], sys[512];
	struct sampo_features *f = NULL;
	SAMPO_OPTS(sampo_synth_opts, opts, .proc_dir = proc, .sys_dir = sys);
	bool cpu = false, sw = false;

	(void)state;
	put_text("hostproc/cpuinfo", "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
				     "cpu family\t: 25\nmodel\t\t: 33\n"
				     "model name\t: Fake EPYC 1234\nstepping\t: 2\n\n"
				     "processor\t: 1\nvendor_id\t: GenuineIntel\n");
	put_text("hostproc/meminfo", "MemTotal:       16384 kB\nMemFree:  1 kB\n");
	put_text("hostsys/bus/event_source/devices/cpu/type", "4\n");
	put_text("hostsys/bus/event_source/devices/software/type", "1\n");
	put_text("hostsys/bus/event_source/devices/broken/type", "x\n");
	dir_path(proc, sizeof(proc), "hostproc");
	dir_path(sys, sizeof(sys), "hostsys");

	assert_int_equal(sampo_synthesize__host_features(&opts, &f), 0);
	assert_true(sampo_features__has(f, SAMPO_FEAT_CPUID));
	assert_string_equal(f->cpuid, "AuthenticAMD,25,33,2");
	assert_string_equal(f->cpudesc, "Fake EPYC 1234");
	assert_int_equal(f->total_mem_kb, 16384);
	assert_true(sampo_features__has(f, SAMPO_FEAT_ARCH)); /* uname(2), not the root */
	assert_int_equal(f->nr_pmu_mappings, 2);
	for (uint32_t i = 0; i < f->nr_pmu_mappings; i++) {
		if (!strcmp(f->pmu_mappings[i].name, "cpu"))
			cpu = f->pmu_mappings[i].type == 4;
		if (!strcmp(f->pmu_mappings[i].name, "software"))
			sw = f->pmu_mappings[i].type == 1;
	}
	assert_true(cpu && sw);
	/* nothing under the fake /sys: no topology, caches or memory blocks */
	assert_false(sampo_features__has(f, SAMPO_FEAT_MEM_TOPOLOGY));
	sampo_features__delete(f);

	assert_int_equal(sampo_synthesize__host_features(&opts, NULL), -EINVAL);
}

static void test_synthesize__vdso_build_id(void **state)
{
	struct sampo_build_id bid;
	void *image = NULL;
	size_t size = 0;
	int err;

	(void)state;
	err = sampo_synthesize__vdso_build_id(&bid, &image, &size);
	if (err == -ENOENT)
		skip(); /* no vDSO (or one without a build-id) */
	assert_int_equal(err, 0);
	assert_true(bid.size > 0);
	assert_non_null(image);
	assert_true(size >= 4096);
	assert_memory_equal(image, "\177ELF", 4);
	free(image);
}

/* feed @c's records to @m, as a reader of the new file would */
static void feed_collected(struct sampo_machine *m, const struct collected *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		struct sampo_event ev = { .record = c->recs[i] };

		ev.sample.cpumode = SAMPO_CPUMODE_USER;
		ev.sample.time = (uint64_t)-1;
		assert_int_equal(sampo_machine__process_event(m, &ev), 0);
	}
}

/* the same pid, ppid, comm and maps (range, offset, file, build-id) in both */
static void assert_same_thread(struct sampo_machine *a, struct sampo_machine *b, int32_t tid)
{
	struct sampo_thread *x = sampo_machine__find_thread(a, -1, tid);
	struct sampo_thread *y = sampo_machine__find_thread(b, -1, tid);

	assert_non_null(x);
	assert_non_null(y);
	assert_int_equal(sampo_thread__pid(x), sampo_thread__pid(y));
	assert_int_equal(sampo_thread__ppid(x), sampo_thread__ppid(y));
	assert_string_equal(sampo_thread__comm(x), sampo_thread__comm(y));
	assert_int_equal(sampo_thread__nr_maps(x), sampo_thread__nr_maps(y));
	for (size_t i = 0; i < sampo_thread__nr_maps(x); i++) {
		const struct sampo_map *mx = sampo_thread__map(x, i), *my = sampo_thread__map(y, i);
		size_t nx, ny;
		const uint8_t *bx = sampo_dso__build_id(sampo_map__dso(mx), &nx);
		const uint8_t *by = sampo_dso__build_id(sampo_map__dso(my), &ny);

		assert_int_equal(sampo_map__start(mx), sampo_map__start(my));
		assert_int_equal(sampo_map__end(mx), sampo_map__end(my));
		assert_int_equal(sampo_map__pgoff(mx), sampo_map__pgoff(my));
		assert_int_equal(sampo_map__prot(mx), sampo_map__prot(my));
		assert_string_equal(sampo_dso__long_name(sampo_map__dso(mx)),
				    sampo_dso__long_name(sampo_map__dso(my)));
		assert_int_equal(nx, ny);
		if (nx)
			assert_memory_equal(bx, by, nx);
	}
	sampo_thread__put(x);
	sampo_thread__put(y);
}

/*
 * record --switch-output starts each new file with what its records so far
 * made: the threads that have not exited, each process's maps (a build-id
 * map keeps its build-id, anonymous memory is //anon again), in pid order,
 * and a reader of those records alone has the same threads and maps
 */
static void test_synthesize__machine_threads_read_back(void **state)
{
	struct sampo_machine *rec = sampo_machine__new(), *back = sampo_machine__new();
	static const uint8_t bid[20] = { 0xde, 0xad, 0xbe, 0xef, 1,  2,	 3,  4,	 5,  6,
					 7,    8,    9,	   10,	 11, 12, 13, 14, 15, 16 };
	SAMPO_OPTS(sampo_synth_opts, o, .sample_id_size = 0);
	struct collected c = { 0 };
	struct rec_buf b = { 0 };
	struct sampo_thread *gone;

	(void)state;
	assert_non_null(rec);
	assert_non_null(back);
	fixture_comm(rec, 100, "shell");
	fixture_mmap2(rec, 100, 0x400000, 0, 7, "/bin/shell");
	fixture_task(rec, SAMPO_RECORD_FORK, 200, 200, 100, 100); /* a copy of shell's maps */
	fixture_comm(rec, 200, "child");
	fixture_mmap2(rec, 200, 0x500000, 0x1000, 8, "/bin/child");
	fixture_mmap2(rec, 200, 0x7f0000000000, 0, 0, "//anon");
	b.u.rec.mmap2.pid = b.u.rec.mmap2.tid = 200;
	b.u.rec.mmap2.start = 0x7f1000000000;
	b.u.rec.mmap2.len = 0x2000;
	b.u.rec.mmap2.build_id_size = sizeof(bid);
	memcpy(b.u.rec.mmap2.build_id, bid, sizeof(bid));
	b.u.rec.mmap2.prot = 5;
	strcpy(b.u.rec.mmap2.filename, "/lib/libfoo.so");
	b.u.rec.header.type = SAMPO_RECORD_MMAP2;
	b.u.rec.header.misc = SAMPO_CPUMODE_USER | SAMPO_MISC_MMAP_BUILD_ID;
	b.u.rec.header.size = sizeof(b.u.rec.mmap2) + 16;
	b.ev.record = &b.u.rec;
	b.ev.sample.cpumode = SAMPO_CPUMODE_USER;
	b.ev.sample.time = (uint64_t)-1;
	assert_int_equal(sampo_machine__process_event(rec, &b.ev), 0);
	fixture_task(rec, SAMPO_RECORD_FORK, 200, 201, 200, 200); /* a thread */
	fixture_task(rec, SAMPO_RECORD_FORK, 300, 300, 100, 100);
	fixture_task(rec, SAMPO_RECORD_EXIT, 300, 300, 100, 100);

	assert_int_equal(sampo_synthesize__machine_threads(&o, rec, collect, &c), 0);
	/* shell: no FORK (its parent is unknown); child: FORK, COMM, 4 maps; 201 */
	assert_int_equal(c.nr, 2 + 6 + 2);
	assert_int_equal(c.recs[0]->header.type, SAMPO_RECORD_COMM);
	assert_string_equal(c.recs[0]->comm.comm, "shell");
	assert_int_equal(c.recs[1]->header.type, SAMPO_RECORD_MMAP2);
	assert_int_equal(c.recs[2]->header.type, SAMPO_RECORD_FORK);
	assert_int_equal(c.recs[2]->fork.pid, 200);
	assert_int_equal(c.recs[2]->fork.ppid, 100);
	assert_true(c.recs[2]->header.misc & SAMPO_MISC_FORK_EXEC);
	assert_string_equal(c.recs[3]->comm.comm, "child");
	for (size_t i = 4; i < 8; i++)
		assert_int_equal(c.recs[i]->header.type, SAMPO_RECORD_MMAP2);
	assert_string_equal(c.recs[4]->mmap2.filename, "/bin/shell"); /* the copy */
	assert_string_equal(c.recs[6]->mmap2.filename, "//anon");
	assert_true(c.recs[7]->header.misc & SAMPO_MISC_MMAP_BUILD_ID);
	assert_int_equal(c.recs[7]->mmap2.build_id_size, sizeof(bid));
	assert_int_equal(c.recs[8]->fork.tid, 201);
	assert_int_equal(c.recs[9]->comm.tid, 201);

	feed_collected(back, &c);
	assert_same_thread(rec, back, 100);
	assert_same_thread(rec, back, 200);
	assert_same_thread(rec, back, 201);
	gone = sampo_machine__find_thread(back, -1, 300);
	assert_null(gone);
	collected_free(&c);
	sampo_machine__delete(rec);
	sampo_machine__delete(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synthesize__kernel_mmap_from_kallsyms),
		cmocka_unit_test(test_synthesize__kernel_mmap_hidden_by_kptr_restrict),
		cmocka_unit_test(test_synthesize__modules_named_by_modules_dep),
		cmocka_unit_test(test_synthesize__kernel_maps),
		cmocka_unit_test(test_synthesize__process_in_perf_order),
		cmocka_unit_test(test_synthesize__data_maps_with_mmap_data),
		cmocka_unit_test(test_synthesize__namespaces_after_fork),
		cmocka_unit_test(test_synthesize__features_read_back),
		cmocka_unit_test(test_synthesize__host_features_from_a_root),
		cmocka_unit_test(test_synthesize__vdso_build_id),
		cmocka_unit_test(test_synthesize__machine_threads_read_back),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
