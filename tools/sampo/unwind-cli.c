// SPDX-License-Identifier: GPL-2.0
/*
 * unwind-cli.c - report's and script's DWARF unwinder (unwind-cli.h).
 *
 * The recording architecture comes from the file's ARCH feature, so that
 * libdw unwinds with that architecture's register set whatever machine
 * reads the file. perf says nothing when a DWARF stack cannot be unwound
 * (its chain is then the sampled IP alone); sampo says how many, and why.
 */
#include <inttypes.h>
#include <stdio.h>

#include <sampo/event.h>
#include <sampo/feature.h>
#include <sampo/reader.h>
#include <sampo/session.h>
#include <sampo/unwind.h>

#include "cli.h"
#include "unwind-cli.h"

/* whether some event samples user registers and stacks (a pipe may, later) */
static bool has_dwarf(struct sampo_session *session)
{
	struct sampo_reader *reader = sampo_session__reader(session);
	const uint64_t need = SAMPO_SAMPLE_REGS_USER | SAMPO_SAMPLE_STACK_USER;

	if (sampo_session__is_pipe(session))
		return true;
	for (size_t i = 0; i < sampo_reader__nr_attrs(reader); i++)
		if ((sampo_reader__attr(reader, i)->sample_type & need) == need)
			return true;
	return false;
}

/* the recording machine's architecture family, for libdw's register set */
static const char *file_arch(struct sampo_session *session)
{
	const struct sampo_features *f = sampo_session__features(session);

	return f && f->arch ? sampo_arch__normalize(f->arch) : NULL;
}

int cli_unwinder_open(struct sampo_session *session, struct sampo_unwinder **ret)
{
	int err;

	*ret = NULL;
	if (!has_dwarf(session))
		return 0;
	SAMPO_OPTS(sampo_unwinder_opts, uo, .arch = file_arch(session));
	err = sampo_unwinder__new(sampo_session__symbolizer(session), &uo, ret);
	if (err)
		return cli_err(err, "cannot set up the DWARF unwinder");
	return 0;
}

int cli_unwind_pool_open(struct sampo_session *session, sampo_unwind_deliver_fn deliver, void *ctx,
			 struct sampo_unwind_pool **ret)
{
	int err;

	*ret = NULL;
	if (!has_dwarf(session))
		return 0;
	SAMPO_OPTS(sampo_unwinder_opts, uo, .arch = file_arch(session));
	err = sampo_unwind_pool__new(sampo_session__symbolizer(session), &uo, 0, deliver, ctx, ret);
	if (err)
		return cli_err(err, "cannot set up the DWARF unwinder");
	return 0;
}

static void warn_stats(const struct sampo_unwind_stats *s, const char *input)
{
	const struct sampo_unwind_stats st = *s;

	if (st.nr_unsupported)
		cli_warn("%s: %" PRIu64 " of %" PRIu64 " samples with DWARF stacks were not unwound: "
			 "sampo unwinds x86_64 and arm64 64-bit tasks only; their chains hold the "
			 "sampled address alone",
			 input, st.nr_unsupported, st.nr_samples);
	if (st.nr_no_file)
		cli_warn("%s: %" PRIu64 " of %" PRIu64 " samples with DWARF stacks were not unwound: "
			 "no file with the recorded build-id for the code they were in (see the "
			 "warnings above, or --symfs); their chains hold the sampled address alone",
			 input, st.nr_no_file, st.nr_samples);
}

void cli_unwinder_close(struct sampo_unwinder *u, const char *input)
{
	struct sampo_unwind_stats st;

	if (!u)
		return;
	sampo_unwinder__stats(u, &st);
	warn_stats(&st, input);
	sampo_unwinder__delete(u);
}

void cli_unwind_pool_close(struct sampo_unwind_pool *pool, const char *input)
{
	struct sampo_unwind_stats st;

	if (!pool)
		return;
	sampo_unwind_pool__stats(pool, &st);
	warn_stats(&st, input);
	sampo_unwind_pool__delete(pool);
}
