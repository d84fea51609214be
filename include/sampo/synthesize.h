/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * synthesize.h - records and header features that describe the machine as
 * it was when recording started, read from /proc and /sys, as perf's
 * synthetic-events.c and header.c make them:
 *
 * - FORK, COMM and MMAP2 records for the threads that already exist
 *   (sampo_synthesize__process(), sampo_synthesize__all_processes());
 * - the kernel map "[kernel.kallsyms]_text" at the run-time address of _text
 *   (sampo_synthesize__kernel_mmap()), and one map per loaded module
 *   (sampo_synthesize__modules()); the same maps with their build-ids, as
 *   a list (sampo_synthesize__kernel_maps(), for `buildid-list -m`);
 * - the features perf 6.1 writes about the host (sampo_synthesize__features()).
 *
 * Records go to a callback, in host byte order, with a zeroed sample_id
 * trailer of the size the caller says (perf writes synthesized records with
 * time 0 and id 0). The directories are options so that tests can point
 * them at a fake tree.
 */
#ifndef SAMPO_SYNTHESIZE_H
#define SAMPO_SYNTHESIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/buildid.h>
#include <sampo/common.h>
#include <sampo/event.h>

struct sampo_features;
struct sampo_writer;

/**
 * sampo_synth_fn - receives each synthesized record
 * @rec: host order, header.size bytes (borrowed: valid during the call)
 * Return: 0, or a negative errno that stops the synthesis
 */
typedef int (*sampo_synth_fn)(void *ctx, const union sampo_record *rec);

struct sampo_synth_opts {
	size_t sz;
	const char *proc_dir;	 /* NULL: "/proc" */
	const char *sys_dir;	 /* NULL: "/sys" */
	const char *modules_dir; /* NULL: "/lib/modules"; release subdirectories */
	const char *osrelease;	 /* NULL: uname -r; picks modules_dir/<release> */
	size_t sample_id_size;	 /* bytes of zeroed sample_id trailer per record */
	bool mmap_data;		 /* also non-executable maps (MMAP_DATA) */
	bool namespaces;	 /* a NAMESPACES record per thread, after its FORK */
};
#define sampo_synth_opts__last_field namespaces

/**
 * sampo_synthesize__process() - FORK, COMM and MMAP2 of one process
 * @pid: a process id (thread group id)
 *
 * Leader first: FORK (pid:pid):(ppid:ppid), COMM, its executable maps from
 * /proc/PID/maps; then FORK (pid:tid):(pid:pid) and COMM of each other thread.
 * With .namespaces, each FORK is followed by the thread's NAMESPACES (the
 * device and inode of its /proc/PID/task/TID/ns links, in the kernel's
 * order: net, uts, ipc, pid, user, mnt, cgroup), as perf record
 * --namespaces synthesizes them.
 * Return: 0, -ENOENT (gone), -ENOMEM, or the callback's error.
 */
SAMPO_API int sampo_synthesize__process(const struct sampo_synth_opts *opts, int pid,
					sampo_synth_fn fn, void *ctx);

/**
 * sampo_synthesize__namespaces() - the NAMESPACES record of thread @tid of
 * process @pid, as sampo_synthesize__process() makes it with .namespaces
 * (whatever that option says)
 * Return: 0, -ENOMEM, or the callback's error.
 */
SAMPO_API int sampo_synthesize__namespaces(const struct sampo_synth_opts *opts, int pid, int tid,
					   sampo_synth_fn fn, void *ctx);

/**
 * sampo_synthesize__all_processes() - sampo_synthesize__process() for every
 * process in /proc, in increasing pid order; processes that vanish meanwhile
 * are skipped
 */
SAMPO_API int sampo_synthesize__all_processes(const struct sampo_synth_opts *opts,
					      sampo_synth_fn fn, void *ctx);

struct sampo_machine;

/**
 * sampo_synthesize__machine_threads() - what @machine knows of the threads
 * that have not exited, as sampo_synthesize__process() writes them: per
 * process by increasing pid, its first thread's FORK (when its parent is
 * known) and COMM, the process's user maps as MMAP2 records (with the
 * build-id the recorded MMAP2 carried, else its device and inode), then the
 * FORK and COMM of each other thread by increasing tid.
 *
 * For a recorder that starts a new file (record --switch-output): the state
 * its records so far made, where /proc would miss a process that has ended
 * since while its last samples are still to be read.
 * Return: 0, -ENOMEM, or the callback's error.
 */
SAMPO_API int sampo_synthesize__machine_threads(const struct sampo_synth_opts *opts,
						const struct sampo_machine *machine,
						sampo_synth_fn fn, void *ctx);

/** What sampo_synthesize__kernel_mmap() found. */
struct sampo_synth_kernel {
	uint64_t text;	   /* run-time address of _text (0 when hidden) */
	uint64_t etext;	   /* of _etext (0 when unknown) */
	bool hidden;	   /* kallsyms showed zero addresses (kptr_restrict) */
	int kptr_restrict; /* /proc/sys/kernel/kptr_restrict, -1 unknown */
};

/**
 * sampo_synthesize__kernel_mmap() - the MMAP "[kernel.kallsyms]_text"
 * @ret: optional; what was found
 *
 * start = pgoff = _text, len = _etext - _text (to the top of the address
 * space when _etext is missing), misc KERNEL, pid -1, as perf 6.1. When
 * kallsyms hides the addresses the map is still written, with start and pgoff
 * 0 and the whole address space as length ("pgoff 0 means hidden"), and
 * @ret->hidden says so: the caller should warn.
 * Return: 0, -errno (no kallsyms), or the callback's error.
 */
SAMPO_API int sampo_synthesize__kernel_mmap(const struct sampo_synth_opts *opts, sampo_synth_fn fn,
					    void *ctx, struct sampo_synth_kernel *ret);

/**
 * sampo_synthesize__modules() - one MMAP per module of /proc/modules
 *
 * start = the module's base, len = its size, pgoff 0, misc KERNEL, pid -1;
 * the name is the module's file under modules_dir/<release> (from modules.dep)
 * or "[name]". Modules whose address reads as 0 (hidden) are skipped.
 * Return: the number of modules written, -errno, or the callback's error.
 * A missing /proc/modules (no loadable modules) writes nothing and returns 0.
 */
SAMPO_API int sampo_synthesize__modules(const struct sampo_synth_opts *opts, sampo_synth_fn fn,
					void *ctx);

/**
 * sampo_synthesize__module_build_id() - the build-id of a loaded module,
 * from sys_dir/module/NAME/notes/.note.gnu.build-id
 * @name: module name as in /proc/modules, or a map name ("[name]" or a .ko path)
 * Return: 0, -ENOENT, -SAMPO_ERR_MALFORMED, -errno
 */
SAMPO_API int sampo_synthesize__module_build_id(const struct sampo_synth_opts *opts,
						const char *name, struct sampo_build_id *ret);

/* One map of the running kernel (sampo_synthesize__kernel_maps()). */
struct sampo_kernel_map {
	uint64_t start, end;
	char *name;		   /* "[kernel.kallsyms]", a module's file, or "[name]" */
	struct sampo_build_id bid; /* size 0: unknown */
};

/**
 * sampo_synthesize__kernel_maps() - the running kernel's map and one map
 * per loaded module, with their build-ids (perf 6.1's
 * buildid__show_kernel_maps(), what `buildid-list -m` prints)
 * @opts: optional; proc_dir, sys_dir, modules_dir and osrelease name the
 *	  trees read (sample_id_size and mmap_data are ignored)
 * @ret_maps: on success, the maps by start address (free them with
 *	      sampo_kernel_maps__free())
 * @ret_nr: on success, their number (1 or more)
 *
 * The kernel: "[kernel.kallsyms]" from PROC/kallsyms' _text (else _stext)
 * to _etext (else the top of the address space), its build-id from
 * SYS/kernel/notes. Each module of PROC/modules: from its base, of its
 * size, named by its file under MODULES/RELEASE (the last found walking the
 * tree, as perf's maps__set_modules_path_dir()) or "[name]", its build-id
 * from SYS/module/NAME/notes/.note.gnu.build-id. A build-id that cannot be
 * read has size 0; a missing PROC/modules gives the kernel alone.
 *
 * Return: 0; -ENOENT when kallsyms names no kernel text or hides its
 * addresses; -errno when it cannot be read; -EINVAL, -ENOMEM
 */
SAMPO_API int sampo_synthesize__kernel_maps(const struct sampo_synth_opts *opts,
					    struct sampo_kernel_map **ret_maps, size_t *ret_nr);

/** sampo_kernel_maps__free() - free the maps of sampo_synthesize__kernel_maps(); NULL is fine */
SAMPO_API void sampo_kernel_maps__free(struct sampo_kernel_map *maps, size_t nr);

/**
 * sampo_synthesize__features() - set the host features perf 6.1 writes
 * @w: the writer (host byte order)
 *
 * HOSTNAME, OSRELEASE, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM,
 * CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE, MEM_TOPOLOGY,
 * BPF_PROG_INFO and BPF_BTF (empty), PMU_CAPS (empty). A feature whose
 * source cannot be read is left out, as perf does. VERSION, CMDLINE,
 * EVENT_DESC, SAMPLE_TIME and BUILD_ID are the caller's.
 * Return: 0, -ENOMEM, or the writer's error.
 */
SAMPO_API int sampo_synthesize__features(const struct sampo_synth_opts *opts,
					 struct sampo_writer *w);

/**
 * sampo_synthesize__host_features() - the host features perf 6.1 writes,
 * parsed as a reader of the file would see them
 * @opts: optional; proc_dir and sys_dir name the trees read (a fake tree in
 *        tests); NULL means this machine's /proc and /sys
 * @ret_features: on success, the features; free with sampo_features__delete()
 *
 * The same features as sampo_synthesize__features(), from the same sources
 * (HOSTNAME, OSRELEASE and ARCH come from uname(2) whatever the roots): what
 * perf reads of THIS machine where a file lacks something (perf 6.1's
 * header shows the local PMUs of an AMD machine for an empty PMU_MAPPINGS).
 *
 * Return: 0, -EINVAL, -ENOMEM.
 */
SAMPO_API int sampo_synthesize__host_features(const struct sampo_synth_opts *opts,
					      struct sampo_features **ret_features);

/**
 * sampo_synthesize__vdso_build_id() - the build-id of this process's vDSO
 * (the same image as every other process of this ABI)
 * @ret_image: optional; a malloc'ed copy of the vDSO image (free() it)
 * @ret_size: its size
 * Return: 0, -ENOENT (no vDSO), -SAMPO_ERR_MALFORMED, -ENOMEM
 */
SAMPO_API int sampo_synthesize__vdso_build_id(struct sampo_build_id *ret, void **ret_image,
					      size_t *ret_size);

#endif /* SAMPO_SYNTHESIZE_H */
