// SPDX-License-Identifier: LGPL-2.1
/*
 * symbolizer-guest.c - the guests' symbolizers: the host's symbolizer makes
 * one child per guest machine (perf's --guestvmlinux, --guestkallsyms and
 * --guestmount), at the first lookup in one of its DSOs, and finds the
 * symbolizer of a machine by its pid. A child knows only its guest's
 * build-ids and files (see struct sampo_symbolizer).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <sampo/machine.h>
#include <sampo/symbolizer.h>
#include "internal/symbolizer.h"

/*
 * The child for guest machine @gm: the guest kernel from --guestvmlinux or
 * --guestkallsyms, or from DIR/PID under --guestmount (its proc/kallsyms
 * when its sys/kernel/notes has the recorded build-id, its vmlinux and
 * modules as under a --symfs); the build-id cache by the guest's build-ids.
 */
static struct sampo_symbolizer *guest_new(struct sampo_symbolizer *host, struct sampo_machine *gm)
{
	struct sampo_symbolizer *g = sampo_symbolizer__alloc(gm);
	int err = 0;

	if (!g)
		return NULL;
	g->guest = true;
	/* messages name the guest: "guest kernel" (the default), "guest 4242 kernel" */
	if (sampo_machine__pid(gm) == 0)
		g->kname = "guest kernel";
	else if (asprintf(&g->kname_buf, "guest %" PRId32 " kernel", sampo_machine__pid(gm)) >= 0)
		g->kname = g->kname_buf;
	else
		g->kname = "guest kernel";
	g->parent = host;
	g->force = host->force;
	g->no_demangle = host->no_demangle;
	g->e_machine = host->e_machine;
	g->dbgd = host->dbgd; /* borrowed: one set of servers, one failure memory */
	/* as in perf, the guest files named are the default guest's (pid 0) */
	if (sampo_machine__pid(gm) == 0) {
		err = sampo_symbolizer__dup_opt(&g->vmlinux, host->guest_vmlinux);
		if (!err)
			err = sampo_symbolizer__dup_opt(&g->kallsyms, host->guest_kallsyms);
	}
	if (!err)
		err = sampo_symbolizer__dup_opt(&g->buildid_dir, host->buildid_dir);
	if (!err && host->guestmount) {
		if (asprintf(&g->symfs, "%s/%" PRId32, host->guestmount, sampo_machine__pid(gm)) <
		    0) {
			g->symfs = NULL;
			err = -ENOMEM;
		}
		if (!err)
			err = sampo_symbolizer__dup_opt(&g->live_root, g->symfs);
		if (!err)
			g->osrelease = sampo_symbolizer__live_osrelease(g);
	}
	if (!err)
		err = sampo_symbolizer__copy_build_ids(g, host->features);
	if (err) {
		sampo_symbolizer__delete(g);
		return NULL;
	}
	g->gnext = host->guests;
	host->guests = g;
	return g;
}

/* The symbolizer of the machine whose pid is @pid: @s itself, or its guest's child. */
struct sampo_symbolizer *sampo_symbolizer__findnew_machine(struct sampo_symbolizer *s, int32_t pid)
{
	struct sampo_machine *gm;

	if (pid == sampo_machine__pid(s->machine))
		return s;
	if (s->guest)
		return NULL;
	for (struct sampo_symbolizer *g = s->guests; g; g = g->gnext) {
		if (sampo_machine__pid(g->machine) == pid)
			return g;
	}
	gm = sampo_machine__find_guest(s->machine, pid);
	return gm ? guest_new(s, gm) : NULL;
}

struct sampo_symbolizer *sampo_symbolizer__for_machine(struct sampo_symbolizer *s,
						       const struct sampo_machine *machine)
{
	struct sampo_symbolizer *r;

	if (!s || !machine)
		return NULL;
	r = sampo_symbolizer__findnew_machine(s, sampo_machine__pid(machine));
	return r && r->machine == machine ? r : NULL;
}
