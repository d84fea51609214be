/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * unwind.h - user call chains of `--call-graph dwarf` samples, unwound
 * afterwards from the sample's registers and stack copy with the binaries'
 * CFI (elfutils libdw), as perf report and perf script unwind them.
 *
 * A sample recorded with PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER
 * carries the kernel's part of its chain only (exclude_callchain_user); the
 * unwinder appends PERF_CONTEXT_USER and the user frames to it, so that the
 * result reads as a frame-pointer chain: the first user frame is the
 * sampled user IP, each caller's address is its return address less one
 * (perf's rule, so that it falls inside the call), at most max_stack user
 * frames. Where the CFI (or the stack copy) ends, the chain ends: no frame
 * is guessed.
 *
 * One libdw Dwfl per process, kept across its samples: the modules (and
 * their .eh_frame / .debug_frame) are read once per process, when a frame
 * first falls in them, from the file the symbolizer chose for the DSO
 * (build-id checked). A process whose maps changed under a module gets a
 * new Dwfl.
 *
 * Not thread-safe: one unwinder per thread, or one thread at a time.
 */
#ifndef SAMPO_UNWIND_H
#define SAMPO_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sampo/common.h>

struct sampo_machine;
struct sampo_thread;
struct sampo_sample;
struct sampo_symbolizer;
struct sampo_unwinder;

struct sampo_unwinder_opts {
	size_t sz;
	/*
	 * The recording machine's architecture as sampo_arch__normalize()
	 * returns it ("x86", "arm64"); NULL: this build's. Other
	 * architectures are not unwound (counted in nr_unsupported).
	 */
	const char *arch;
};
#define sampo_unwinder_opts__last_field arch

/* What the unwinder did, for a report's warning. */
struct sampo_unwind_stats {
	uint64_t nr_samples;	 /* samples with registers and a stack copy */
	uint64_t nr_unwound;	 /* of these, ones that got at least one caller */
	uint64_t nr_unsupported; /* not unwound: architecture or ABI sampo cannot unwind */
	uint64_t nr_no_file;	 /* the sampled IP's DSO had no usable file */
};

/**
 * sampo_unwinder__new() - an unwinder reading files through @symbolizer
 * @symbolizer: chooses the file of each DSO (borrowed; must outlive the
 *		unwinder)
 * @opts: may be NULL
 *
 * Return: 0 and *@ret, -ENOMEM, or -EINVAL (bad @opts).
 */
SAMPO_API int sampo_unwinder__new(struct sampo_symbolizer *symbolizer,
				  const struct sampo_unwinder_opts *opts,
				  struct sampo_unwinder **ret);

/** sampo_unwinder__delete() - free @u and every Dwfl it holds; NULL is fine */
SAMPO_API void sampo_unwinder__delete(struct sampo_unwinder *u);

/**
 * sampo_unwinder__wants() - whether @sample carries what unwinding needs:
 * user registers (a non-zero ABI) and a non-empty stack copy
 */
SAMPO_API bool sampo_unwinder__wants(const struct sampo_sample *sample);

/**
 * sampo_unwinder__chain() - @sample's chain with its user part unwound
 * @machine: the machine whose maps the sample is looked up in
 * @thread: the sample's thread in @machine
 * @max_stack: at most this many user frames (perf's default: 127)
 * @ret_chain: the recorded callchain (if any) + PERF_CONTEXT_USER + the user
 *	       frames; valid until the next call. When @sample is not to be
 *	       unwound (sampo_unwinder__wants() false), its own callchain.
 * @ret_nr: entries in *@ret_chain
 * @ret_nr_user: optional; how many of them are unwound user frames. perf
 *		 caps the recorded part and the unwound part at max_stack
 *		 each: a consumer that caps chains allows this many more.
 *
 * Return: 0 (also when nothing could be unwound: then the chain holds the
 * recorded part and the IP only), or -ENOMEM.
 */
SAMPO_API int sampo_unwinder__chain(struct sampo_unwinder *u, struct sampo_machine *machine,
				    struct sampo_thread *thread,
				    const struct sampo_sample *sample, unsigned int max_stack,
				    const uint64_t **ret_chain, size_t *ret_nr,
				    size_t *ret_nr_user);

/** sampo_unwinder__stats() - the counts so far */
SAMPO_API void sampo_unwinder__stats(const struct sampo_unwinder *u,
				     struct sampo_unwind_stats *ret);

/*
 * A pool unwinds on several threads: samples are queued (copied, or kept
 * in place by sampo_unwind_pool__add_ref()) in file order, unwound in
 * batches by every thread, each with its own unwinder, and handed back in
 * file order on the caller's thread. The machine must
 * not change while samples are queued: flush before a record that changes
 * it (read the session with .machine_after_tool and flush in the callbacks
 * of the other records), and at the end.
 */
struct sampo_unwind_pool;

/*
 * A queued sample, unwound: @sample is a copy whose callchain is the one
 * sampo_unwinder__chain() made (when the sample was to be unwound) and
 * @nr_user its user frames; @thread is the one given to
 * sampo_unwind_pool__add(). A negative return stops the pool's flush.
 */
typedef int (*sampo_unwind_deliver_fn)(void *ctx, struct sampo_machine *machine,
				       struct sampo_thread *thread,
				       const struct sampo_sample *sample, size_t nr_user,
				       int cookie);

/**
 * sampo_unwind_pool__new() - a pool of @nr_threads unwinders (the caller's
 * thread is one of them; 0 means the number of online CPUs, at most 8)
 * @deliver: called with @ctx for each queued sample, in order
 *
 * Return: 0 and *@ret, -ENOMEM, -EINVAL.
 */
SAMPO_API int sampo_unwind_pool__new(struct sampo_symbolizer *symbolizer,
				     const struct sampo_unwinder_opts *opts, unsigned int nr_threads,
				     sampo_unwind_deliver_fn deliver, void *ctx,
				     struct sampo_unwind_pool **ret);

/**
 * sampo_unwind_pool__add() - queue @sample (copied: its user registers,
 * stack, callchain and raw data; not its branch stack, read values, aux
 * data or interrupt registers) of @thread (referenced
 * until delivered), with at most @max_stack user frames; a full batch is
 * unwound and delivered at once
 *
 * Return: 0, -ENOMEM, or what the deliver function returned.
 */
SAMPO_API int sampo_unwind_pool__add(struct sampo_unwind_pool *pool, struct sampo_machine *machine,
				     struct sampo_thread *thread, const struct sampo_sample *sample,
				     unsigned int max_stack, int cookie);

/**
 * sampo_unwind_pool__add_ref() - queue @sample as sampo_unwind_pool__add()
 * does, but without copying its user registers, stack, callchain and raw
 * data: the caller keeps them valid and unchanged until the sample is
 * delivered (a record of a file the reader maps whole, see
 * sampo_reader__stable(); its 8 KiB stack copies are most of the bytes)
 *
 * Return: as sampo_unwind_pool__add().
 */
SAMPO_API int sampo_unwind_pool__add_ref(struct sampo_unwind_pool *pool,
					 struct sampo_machine *machine,
					 struct sampo_thread *thread,
					 const struct sampo_sample *sample, unsigned int max_stack,
					 int cookie);

/** sampo_unwind_pool__flush() - unwind and deliver what is queued; 0 or an error */
SAMPO_API int sampo_unwind_pool__flush(struct sampo_unwind_pool *pool);

/** sampo_unwind_pool__stats() - the counts of all its unwinders */
SAMPO_API void sampo_unwind_pool__stats(const struct sampo_unwind_pool *pool,
					struct sampo_unwind_stats *ret);

/** sampo_unwind_pool__delete() - stop the threads and free; NULL is fine */
SAMPO_API void sampo_unwind_pool__delete(struct sampo_unwind_pool *pool);

#endif /* SAMPO_UNWIND_H */
