/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/machine.h - struct bodies of the machine, its threads, maps and
 * DSOs (see include/sampo/machine.h and lib/machine.c).
 */
#ifndef SAMPO_INTERNAL_MACHINE_H
#define SAMPO_INTERNAL_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/event.h>
#include <sampo/machine.h>

enum sampo_dso_space {
	SAMPO_DSO_SPACE_USER,
	SAMPO_DSO_SPACE_KERNEL,
};

/* Identity of a mapped file from MMAP2 (all zero: unknown, matches anything). */
struct sampo_dso_id {
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
	uint64_t ino_generation;
};

struct sampo_dso {
	int refcnt;
	char *long_name;  /* owned */
	char *short_name; /* owned; basename, or "[name]" for modules */
	struct sampo_dso_id id;
	enum sampo_dso_space space;
	bool is_kmod; /* a kernel module, by perf's kmod_path rules */
	bool is_ksymbol; /* from a KSYMBOL record: a BPF program, trampoline or dispatcher */
	int32_t machine_pid; /* the machine it belongs to: -1 the host, else a guest's pid */
	uint8_t build_id_size;
	uint8_t build_id[SAMPO_BUILD_ID_MAX];
	struct sampo_dso *hnext; /* chain of the machine's DSO table (by long name) */
	struct sampo_dso *lnext; /* machine's list, in creation order */
};

/* Immutable once inserted: containers share map objects (fork) by reference. */
struct sampo_map {
	int refcnt;
	uint64_t start;
	uint64_t end; /* exclusive */
	uint64_t pgoff;
	uint32_t prot;
	uint32_t flags;
	bool identity;	       /* map_ip is the identity (anonymous memory, the kernel map) */
	struct sampo_dso *dso; /* reference */
};

/*
 * The maps of one process (or the kernel), sorted by start. User maps never
 * overlap (an insert first cuts what it covers); kernel maps may.
 */
struct sampo_maps {
	int refcnt;
	size_t nr;
	size_t cap;
	struct sampo_map **entries; /* references */
	size_t last;		    /* index of the last hit: lookups come in runs */
	bool may_overlap; /* kernel maps; user maps after a fork into a non-empty process */
};

struct sampo_thread {
	int refcnt;
	int32_t pid; /* -1 until known */
	int32_t tid;
	int32_t ppid;
	/*
	 * perf names anonymous code maps after the pid its thread had when it
	 * was created (its nsinfo); 0 means none (the idle task).
	 */
	int32_t ns_pid;
	bool comm_set;
	bool comm_exec;
	bool exited;
	bool in_table;
	char *comm;		    /* owned */
	struct sampo_maps *maps;    /* reference; shared by the threads of a process */
	struct sampo_thread *hnext; /* chain of the machine's thread table */
};

struct sampo_machine {
	/* threads, hashed by tid */
	struct sampo_thread **threads;
	size_t threads_cap; /* power of two */
	size_t nr_threads;
	struct sampo_thread *last_thread; /* last lookup: samples come in runs */

	/* DSOs, hashed by long name, and in creation order */
	struct sampo_dso **dsos;
	size_t dsos_cap; /* power of two */
	size_t nr_dsos;
	struct sampo_dso *dso_list;
	struct sampo_dso **dso_tail;

	struct sampo_maps *kmaps;
	struct sampo_map *vmlinux_map; /* reference */
	char *ref_reloc_name;	       /* "_text", from "[kernel.kallsyms]_text" */
	uint64_t ref_reloc_addr;       /* its recorded address (MMAP pgoff); 0: unknown */
	bool comm_exec;		       /* some COMM had the exec flag */

	/*
	 * Generation counters (sampo_machine__kernel_generation()): kept by
	 * the machine records are fed to, which also counts its guests'
	 * records. The process generations are an open-addressing table by
	 * pid (cap a power of two, at most half full); a slot with pid 0 and
	 * generation 0 is empty, so a live generation is never 0.
	 */
	uint32_t kernel_gen;
	int32_t *gen_pids;
	uint32_t *gen_gens;
	size_t gen_cap, gen_nr;

	/*
	 * Guests (perf's struct machines). pid is -1 for the host; a guest's
	 * kernel map is named mmap_name ("[guest.kernel.kallsyms]" for the
	 * default guest, pid 0; "[guest.kernel.kallsyms.PID]" for the others).
	 * Only the host has guests, and only once they are enabled.
	 */
	int32_t pid;
	char *mmap_name;
	bool guests_enabled;
	bool guests_dropped; /* past MAX_GUESTS (lib/machine.c) */
	size_t nr_guests;
	struct sampo_machine *guests; /* list, by increasing pid */
	struct sampo_machine *gnext;
};

/* perf's kmod_path__parse rules: is @path ("[name]" or a .ko path) a kernel module? */
bool sampo_kmod__is_module(const char *path);
/* its DSO short name ("[name]", '-' made '_'); malloc'ed in *@ret_name. Return: 0 or -ENOMEM */
int sampo_kmod__name(const char *path, char **ret_name);

#endif /* SAMPO_INTERNAL_MACHINE_H */
