/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * machine.h - the state of the recorded machine, rebuilt from the records:
 * threads (pid, tid, comm), the memory maps of each process, the kernel maps,
 * and the DSOs the maps point to.
 *
 * Feed every record to sampo_machine__process_event() in the order perf
 * delivers them (a reader opened with .ordered = true), then ask what a
 * sample hit with sampo_machine__resolve(). The rules follow perf 6.1's
 * machine.c, thread.c and maps.c, so that a sample resolves to the same
 * thread and DSO as in `perf report`:
 *
 * - a thread is keyed by tid; a thread first seen in a sample gets the comm
 *   ":<tid>"; pid 0 / tid 0 is the idle task "swapper";
 * - the threads of one process share one set of maps (the group leader's);
 * - FORK copies the parent's comm (once the parent has one) and, for a new
 *   process, its maps; EXIT only marks the thread;
 * - a new MMAP/MMAP2 replaces the part of older maps it overlaps, as the
 *   kernel does; anonymous executable maps become "/tmp/perf-<pid>.map";
 * - a kernel MMAP named "[kernel.kallsyms]..." is the kernel map; other
 *   kernel MMAPs are modules ("/lib/modules/.../x.ko" or "[x]");
 * - KSYMBOL adds (or removes) kernel maps for BPF programs and trampolines;
 * - DSO identity: an MMAP2 carrying a build-id keys its DSO by (path,
 *   build-id), so two versions of one path are two DSOs; otherwise by path
 *   and dev/inode/generation (unknown matches any).
 *
 * Objects are opaque and reference counted: a function that returns a
 * "new reference" must be paired with the matching __put(). Borrowed
 * pointers (documented as such) stay valid while their owner holds them:
 * a map while a thread's maps or the kernel maps hold it, a DSO while any
 * map does, everything until sampo_machine__delete().
 *
 * Guests (perf's --guest): once sampo_machine__enable_guests() is called,
 * MMAPs and samples in the guest cpumodes go to a guest machine of their
 * own, keyed by pid (perf's machines__find_guest(): that pid's machine,
 * else the default guest, pid 0), with its own threads, kernel map
 * ("[guest.kernel.kallsyms]_text") and modules; their samples resolve at
 * level 'g' (guest kernel) or 'u' (guest user). Without it, guest kernel
 * MMAPs land in the host's kernel maps and guest samples resolve to
 * nothing, as in perf without --guest.
 *
 * The objects have headers of their own: thread.h, map.h and dso.h (this
 * header includes them). Symbols are the symbolizer's (symbolizer.h).
 */
#ifndef SAMPO_MACHINE_H
#define SAMPO_MACHINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>
#include <sampo/dso.h>
#include <sampo/map.h>
#include <sampo/thread.h>

struct sampo_event;
struct sampo_sample;
struct sampo_machine;
struct sampo_thread;
struct sampo_map;
struct sampo_dso;

/*
 * What an address resolved to (perf's struct addr_location). Holds its own
 * references; release them with sampo_addr_location__exit().
 */
struct sampo_addr_location {
	struct sampo_thread *thread; /* new reference, or NULL */
	struct sampo_map *map;	     /* new reference, or NULL when no map covers the address */
	uint64_t addr;		     /* the address, made map-relative when map is set */
	uint8_t cpumode;	     /* SAMPO_CPUMODE_* used for the lookup */
	/*
	 * Where the lookup went, as perf's al->level: 'k' kernel maps, '.' the
	 * thread's maps, 'H' nowhere (hypervisor, guest or unknown cpumode).
	 * perf prints "[hypervisor]" for 'H' and "<not found>" otherwise when
	 * map is NULL.
	 */
	char level;
};

/**
 * sampo_machine__new() - an empty host machine
 *
 * It already holds the idle thread (pid 0, tid 0, comm "swapper").
 * Return: the machine (free with sampo_machine__delete()), or NULL when out
 * of memory.
 */
SAMPO_API struct sampo_machine *sampo_machine__new(void);

/** sampo_machine__delete() - drop the machine's references and free it; NULL is allowed */
SAMPO_API void sampo_machine__delete(struct sampo_machine *machine);

/**
 * sampo_machine__process_event() - update the machine with one record
 * @machine: the machine
 * @ev: a record from sampo_reader__next() (borrowed). COMM, FORK, EXIT, MMAP,
 *	MMAP2 and KSYMBOL change the state; every other type is ignored.
 *	MMAP and MMAP2 use ev->sample.cpumode to tell kernel maps from user maps.
 *
 * Records whose fields make no sense (an MMAP with a wrapping range, say)
 * are skipped, as perf skips them.
 *
 * Return: 0, or -ENOMEM (the machine stays usable, the record is lost).
 */
SAMPO_API int sampo_machine__process_event(struct sampo_machine *machine,
					   const struct sampo_event *ev);

/**
 * sampo_machine__kernel_generation() - how many times the kernel's maps changed
 * @machine: the machine records are fed to (the host: its guests count here)
 *
 * Moves on every record that changes what a kernel or guest address
 * resolves to: a kernel MMAP/MMAP2 (pid -1), any MMAP/MMAP2 in a cpumode
 * other than user (a guest's user maps included), and KSYMBOL. A cache of
 * kernel lookups stays valid while this value does not change.
 *
 * Return: the generation; it starts at 1.
 */
SAMPO_API uint32_t sampo_machine__kernel_generation(const struct sampo_machine *machine);

/**
 * sampo_machine__process_generation() - how many times process @pid changed
 * @machine: the machine records are fed to
 * @pid: the process
 *
 * Moves on every record that can change what an address or a thread of
 * @pid resolves to: its user MMAP and MMAP2, its COMM, a FORK or EXIT whose
 * pid or ppid is @pid. A cache of lookups made for @pid (its maps, its
 * threads' comms) stays valid while this value and
 * sampo_machine__kernel_generation() do not change.
 *
 * Return: the generation, 0 for a process no record has changed yet.
 */
SAMPO_API uint32_t sampo_machine__process_generation(const struct sampo_machine *machine,
						     int32_t pid);

/**
 * sampo_machine__findnew_thread() - the thread @tid, created if missing
 * @pid: its process id, or -1 when unknown; a thread created with pid -1
 *	 learns its pid from the first later lookup that gives one
 * @tid: its thread id
 *
 * Return: a new reference (sampo_thread__put() it), or NULL when out of memory.
 */
SAMPO_API struct sampo_thread *sampo_machine__findnew_thread(struct sampo_machine *machine,
							     int32_t pid, int32_t tid);

/**
 * sampo_machine__find_thread() - the thread @tid, if the machine knows it
 *
 * Like sampo_machine__findnew_thread() but never creates one.
 * Return: a new reference, or NULL.
 */
SAMPO_API struct sampo_thread *sampo_machine__find_thread(struct sampo_machine *machine,
							  int32_t pid, int32_t tid);

/**
 * sampo_machine__find_map() - the map that covers @addr, seen from @thread
 * @thread: the thread (its process's maps are searched for user addresses)
 * @cpumode: SAMPO_CPUMODE_KERNEL searches the kernel maps, SAMPO_CPUMODE_USER
 *	     the thread's maps; in a guest machine GUEST_KERNEL and GUEST_USER
 *	     do the same (levels 'g' and 'u'); any other mode finds nothing
 *	     (level 'H'), as in perf without --guest
 * @al: filled in; holds references, release with sampo_addr_location__exit().
 *	Any references it held before are dropped first, so a zeroed or
 *	already used struct can be passed.
 *
 * Return: @al->map (borrowed from @al), or NULL.
 */
SAMPO_API struct sampo_map *sampo_machine__find_map(struct sampo_machine *machine,
						    struct sampo_thread *thread, uint8_t cpumode,
						    uint64_t addr, struct sampo_addr_location *al);

/**
 * sampo_machine__resolve() - the thread and map of a sample (perf's machine__resolve)
 * @sample: a decoded SAMPLE: pid, tid, ip and cpumode are used; a guest
 *	    sample (guests enabled) resolves in its guest machine
 * @al: filled in as by sampo_machine__find_map() for sample->ip
 *
 * Return: 0, or -ENOMEM when the thread cannot be created.
 */
SAMPO_API int sampo_machine__resolve(struct sampo_machine *machine,
				     const struct sampo_sample *sample,
				     struct sampo_addr_location *al);

/** sampo_addr_location__exit() - drop the references @al holds and clear it */
SAMPO_API void sampo_addr_location__exit(struct sampo_addr_location *al);

/* ---- guests ------------------------------------------------------------- */

/** sampo_machine__enable_guests() - keep guest machines (perf's --guest); host only */
SAMPO_API void sampo_machine__enable_guests(struct sampo_machine *machine);
SAMPO_API bool sampo_machine__guests_enabled(const struct sampo_machine *machine);

/** sampo_machine__pid() - -1 for the host, the guest's pid otherwise (0: the default guest) */
SAMPO_API int32_t sampo_machine__pid(const struct sampo_machine *machine);
SAMPO_API bool sampo_machine__is_guest(const struct sampo_machine *machine);
/** sampo_machine__mmap_name() - "[kernel.kallsyms]", "[guest.kernel.kallsyms]" or "...PID]" */
SAMPO_API const char *sampo_machine__mmap_name(const struct sampo_machine *machine);

/** sampo_machine__find_guest() - the guest machine of exactly @pid, or NULL (borrowed) */
SAMPO_API struct sampo_machine *sampo_machine__find_guest(const struct sampo_machine *host,
							  int32_t pid);

/**
 * sampo_machine__findnew_guest() - perf's machines__find_guest(): the guest
 * machine of @pid, else the default guest (pid 0), created when missing
 *
 * Return: the guest (borrowed; the host owns it), or NULL when out of memory
 * or @host is a guest.
 */
SAMPO_API struct sampo_machine *sampo_machine__findnew_guest(struct sampo_machine *host,
							     int32_t pid);

/** sampo_machine__next_guest() - iterate over the guests by pid: NULL to start (borrowed) */
SAMPO_API struct sampo_machine *sampo_machine__next_guest(const struct sampo_machine *host,
							  const struct sampo_machine *prev);

/**
 * sampo_machine__for_cpumode() - the machine a sample of @cpumode and @pid
 * belongs to: the guest's for the guest cpumodes when guests are enabled
 * (created when missing), else @machine itself
 *
 * Return: borrowed, or NULL when out of memory.
 */
SAMPO_API struct sampo_machine *sampo_machine__for_cpumode(struct sampo_machine *machine,
							   uint8_t cpumode, int32_t pid);

/** sampo_machine__kernel_map() - the kernel map, or NULL before its MMAP (borrowed) */
SAMPO_API struct sampo_map *sampo_machine__kernel_map(const struct sampo_machine *machine);

/**
 * sampo_machine__kernel_ref_reloc() - the reference symbol of the kernel map
 * @name: set to the symbol named after "[kernel.kallsyms]" ("_text"), borrowed
 * @addr: set to its run-time address as recorded (the MMAP's pgoff)
 *
 * Return: true when known (false before the kernel MMAP, or when the address
 * was hidden at record time: pgoff 0).
 */
SAMPO_API bool sampo_machine__kernel_ref_reloc(const struct sampo_machine *machine,
					       const char **name, uint64_t *addr);

/** sampo_machine__nr_threads() - threads currently in the machine (dead ones excluded) */
SAMPO_API size_t sampo_machine__nr_threads(const struct sampo_machine *machine);

/**
 * sampo_machine__next_thread() - iterate over the threads, in no particular order
 * @prev: NULL to start, then the previous result
 *
 * Do not change the machine while iterating. Return: the next thread
 * (borrowed), or NULL at the end.
 */
SAMPO_API struct sampo_thread *sampo_machine__next_thread(const struct sampo_machine *machine,
							  const struct sampo_thread *prev);

#define sampo_machine__for_each_thread(machine, thread)                        \
	for ((thread) = sampo_machine__next_thread((machine), NULL); (thread); \
	     (thread) = sampo_machine__next_thread((machine), (thread)))

#endif /* SAMPO_MACHINE_H */
