/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * internal/machine.h - the struct body of the machine (see
 * include/sampo/machine.h, lib/machine.c and lib/guest.c); it includes the
 * bodies of its threads, maps and DSOs.
 */
#ifndef SAMPO_INTERNAL_MACHINE_H
#define SAMPO_INTERNAL_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/event.h>
#include <sampo/machine.h>

#include "internal/dso.h"
#include "internal/hash.h"
#include "internal/map.h"
#include "internal/thread.h"

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
	/*
	 * The lookups by name (lib/machine.c): one index of keys (the newest
	 * DSO of a name, of a name and identity, of a name without identity,
	 * of a name and build-id; the oldest of a short name), so that no
	 * lookup walks the DSOs a file made of one name.
	 */
	struct sampo_dso_key {
		uint8_t kind;
		struct sampo_dso *dso;
	} * dso_keys;
	size_t nr_dso_keys, dso_keys_cap;
	struct sampo_hash_index dso_ix;
	struct sampo_dso *kdso_scanned; /* machine_findnew_kernel_dso(): list scanned up to it */
	struct sampo_dso *kdso;		/* and the DSO it found */

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
	/*
	 * the kernel's entry in the file's build-id table when it is not
	 * mmap_name (perf record found a vmlinux: "/lib/modules/R/build/vmlinux"):
	 * the kernel DSO's long name, as perf names it from that entry; NULL: none
	 */
	char *kernel_name;
	bool guests_enabled;
	bool guests_dropped; /* past MAX_GUESTS (lib/guest.c) */
	size_t nr_guests;
	struct sampo_machine *guests; /* list, by increasing pid */
	struct sampo_machine *gnext;
};

static inline bool sampo_cpumode__is_guest(uint8_t cpumode)
{
	return cpumode == SAMPO_CPUMODE_GUEST_KERNEL || cpumode == SAMPO_CPUMODE_GUEST_USER;
}

/* an empty guest machine (perf's machine__init()); NULL: no memory */
struct sampo_machine *sampo_machine__new_guest(int32_t pid);
/* the guest machine of exactly @pid (< 0: the default guest), created when missing; NULL: none */
struct sampo_machine *sampo_machine__findnew_guest_exact(struct sampo_machine *host, int32_t pid);

/*
 * sampo_machine__set_kernel_name() - name the kernel DSO after the
 * build-id table's kernel entry @path (perf's __event_process_build_id()
 * makes the DSO, the kernel MMAP then takes it): long name @path, short
 * name "[kernel.vmlinux]" for a file named vmlinux, else its base name.
 * Call before the kernel MMAP. Return: 0 or -ENOMEM.
 */
int sampo_machine__set_kernel_name(struct sampo_machine *m, const char *path);

#endif /* SAMPO_INTERNAL_MACHINE_H */
