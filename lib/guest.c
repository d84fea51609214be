// SPDX-License-Identifier: LGPL-2.1
/*
 * guest.c - the guest machines of a host (perf's struct machines, for
 * `--guest`): include/sampo/machine.h describes them.
 *
 * The host keeps its guests in a list by increasing pid, each a machine of
 * its own (lib/machine.c) with its own threads, DSOs and kernel maps. A
 * guest is created by the first guest MMAP of its pid; the default guest
 * (pid 0) takes the maps of guests with no pid (negative ones) and the
 * samples of guests it does not know, as perf's machines__find_guest().
 * At most MAX_GUESTS are kept, so a hostile file naming a new guest in
 * every record costs a bounded number of machines.
 */
#include <stdbool.h>
#include <stdint.h>

#include <sampo/event.h>
#include <sampo/machine.h>
#include "internal/log.h"
#include "internal/machine.h"

void sampo_machine__enable_guests(struct sampo_machine *machine)
{
	if (machine->pid == -1)
		machine->guests_enabled = true;
}

bool sampo_machine__guests_enabled(const struct sampo_machine *machine)
{
	return machine->guests_enabled;
}

struct sampo_machine *sampo_machine__find_guest(const struct sampo_machine *host, int32_t pid)
{
	for (struct sampo_machine *g = host->guests; g; g = g->gnext) {
		if (g->pid == pid)
			return g;
	}
	return NULL;
}

/*
 * Guests kept at most: a host runs a handful of VMs, and a hostile file
 * naming a new guest in every record must not cost a machine each.
 */
#define MAX_GUESTS 1024

/* the guest machine of exactly @pid, created when missing (NULL: none, or too many) */
struct sampo_machine *sampo_machine__findnew_guest_exact(struct sampo_machine *host, int32_t pid)
{
	struct sampo_machine *g, **pos;

	/* no guest is -1 (the host's id) or below: such a guest's maps are the default guest's */
	if (pid < 0)
		pid = 0;
	g = sampo_machine__find_guest(host, pid);
	if (g || host->pid != -1)
		return g;
	if (host->nr_guests >= MAX_GUESTS && pid != 0) { /* the default guest is always there */
		if (!host->guests_dropped)
			pr_warn("more than %d guest machines: the maps of the others are ignored\n",
				MAX_GUESTS);
		host->guests_dropped = true;
		return NULL;
	}
	g = sampo_machine__new_guest(pid);
	if (!g)
		return NULL;
	for (pos = &host->guests; *pos && (*pos)->pid < g->pid; pos = &(*pos)->gnext)
		;
	g->gnext = *pos;
	*pos = g;
	host->nr_guests++;
	return g;
}

struct sampo_machine *sampo_machine__findnew_guest(struct sampo_machine *host, int32_t pid)
{
	struct sampo_machine *g;

	if (host->pid != -1)
		return NULL;
	/* perf's machines__find_guest(): that pid's machine, else the default guest (pid 0) */
	g = sampo_machine__find_guest(host, pid);
	return g ? g : sampo_machine__findnew_guest_exact(host, 0);
}

struct sampo_machine *sampo_machine__next_guest(const struct sampo_machine *host,
						const struct sampo_machine *prev)
{
	return prev ? prev->gnext : host->guests;
}

struct sampo_machine *sampo_machine__for_cpumode(struct sampo_machine *machine, uint8_t cpumode,
						 int32_t pid)
{
	if (!machine->guests_enabled || !sampo_cpumode__is_guest(cpumode))
		return machine;
	return sampo_machine__findnew_guest(machine, pid);
}
