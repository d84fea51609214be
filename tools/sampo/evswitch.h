/* SPDX-License-Identifier: GPL-2.0 */
/*
 * evswitch.h - perf's --switch-on, --switch-off and --show-on-off-events of
 * report and script: only the samples between a sample of one event and the
 * next sample of another, as perf's evswitch counts them.
 *
 *	struct evswitch sw = { .on_name = "task-clock", .off_name = "cpu-clock" };
 *	if (evswitch_setup(&sw, session, nr_events, input))
 *		... reported: the file lacks an event ...
 *	for each sample, in order, after the filters perf applies first:
 *		if (evswitch_discard(&sw, sample's event index))
 *			... leave the sample out ...
 */
#ifndef SAMPO_EVSWITCH_H
#define SAMPO_EVSWITCH_H

#include <stdbool.h>
#include <stddef.h>

struct sampo_session;

struct evswitch {
	const char *on_name, *off_name; /* the options' events, or NULL */
	bool show_on_off;		/* the switching samples are kept too */
	int on, off;			/* their indexes, -1: none (evswitch_setup()) */
	bool discarding;		/* samples are left out now */
};

static inline bool evswitch_active(const struct evswitch *sw)
{
	return sw->on_name || sw->off_name;
}

/*
 * evswitch_setup() - find the events among the @nr_events of @session; an
 * event the file lacks is reported ("--switch-on: 'INPUT' has no event
 * 'NAME' (its events: ...)").
 * Return: 0, or CLI_EXIT_FAILURE
 */
int evswitch_setup(struct evswitch *sw, struct sampo_session *session, size_t nr_events,
		   const char *input);

/*
 * evswitch_discard() - whether to leave out the next sample, of event @idx.
 * As perf's evswitch__discard(), but --switch-off alone leaves out
 * everything after its event (perf's drops that one sample only).
 */
bool evswitch_discard(struct evswitch *sw, int idx);

#endif
