/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * branch-hists.h - perf report's branch view: the taken branches of the
 * samples' branch stacks (LBR), grouped by command, source object, source
 * symbol, target symbol and basic block cycles, as `perf report --stdio`
 * prints a file with branch stacks by default (its sort order
 * "comm,dso_from,symbol_from,symbol_to,cycles").
 *
 * Each branch of a stack counts one (perf's pseudo period of 1), so the
 * shares are of the branches captured, not of the samples. Feed every
 * SAMPLE in time order, right after the machine saw the records before it,
 * then print each event's table:
 *
 *	sampo_branch_hists__new(machine, symbolizer, &bh);
 *	... sampo_branch_hists__add_sample(bh, evsel, sample) ...
 *	if (sampo_branch_hists__nr_branches(bh, evsel))
 *		sampo_branch_hists__fprintf(bh, evsel, stdout);
 */
#ifndef SAMPO_BRANCH_HISTS_H
#define SAMPO_BRANCH_HISTS_H

#include <stdint.h>
#include <stdio.h>

#include <sampo/common.h>

struct sampo_machine;
struct sampo_symbolizer;
struct sampo_sample;
struct sampo_branch_hists;

/**
 * sampo_branch_hists__new() - an empty branch view
 * @machine: where the branch addresses are looked up (borrowed)
 * @symbolizer: names them; NULL leaves every address unresolved (borrowed)
 * @ret: the new view
 *
 * Return: 0 or -ENOMEM.
 */
SAMPO_API int sampo_branch_hists__new(struct sampo_machine *machine,
				      struct sampo_symbolizer *symbolizer,
				      struct sampo_branch_hists **ret);

/** sampo_branch_hists__delete() - free it; NULL is allowed */
SAMPO_API void sampo_branch_hists__delete(struct sampo_branch_hists *bh);

/**
 * sampo_branch_hists__add_sample() - count the branches of one sample of event @evsel
 *
 * A sample without a branch stack adds nothing. Return: 0 or -ENOMEM.
 */
SAMPO_API int sampo_branch_hists__add_sample(struct sampo_branch_hists *bh, int evsel,
					     const struct sampo_sample *sample);

/**
 * sampo_branch_hists__nr_branches() - the branches counted for @evsel: perf's
 * "Samples" and "Event count" of the branch view
 */
SAMPO_API uint64_t sampo_branch_hists__nr_branches(const struct sampo_branch_hists *bh,
						   int evsel);

/**
 * sampo_branch_hists__fprintf() - @evsel's table as perf report --stdio prints
 * it: the column header, then one row per entry, by share
 *
 * Return: 0, -ENOMEM or -EIO.
 */
SAMPO_API int sampo_branch_hists__fprintf(const struct sampo_branch_hists *bh, int evsel,
					  FILE *fp);

#endif /* SAMPO_BRANCH_HISTS_H */
