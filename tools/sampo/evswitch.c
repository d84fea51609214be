// SPDX-License-Identifier: GPL-2.0
/*
 * evswitch.c - --switch-on, --switch-off (evswitch.h).
 */
#include <stdio.h>
#include <string.h>

#include <sampo/session.h>

#include "cli.h"
#include "evswitch.h"

/* the first event named @name (perf's evlist__find_evsel_by_str()), or -1 */
static int find_event(struct sampo_session *session, size_t nr_events, const char *name)
{
	for (size_t i = 0; i < nr_events; i++)
		if (!strcmp(sampo_session__evsel_name(session, (int)i), name))
			return (int)i;
	return -1;
}

int evswitch_setup(struct evswitch *sw, struct sampo_session *session, size_t nr_events,
		   const char *input)
{
	const char *names[] = { sw->on_name, sw->off_name };
	int *idx[] = { &sw->on, &sw->off };

	for (size_t i = 0; i < 2; i++) {
		char list[512] = "";
		size_t len = 0;

		*idx[i] = names[i] ? find_event(session, nr_events, names[i]) : -1;
		if (!names[i] || *idx[i] >= 0)
			continue;
		for (size_t e = 0; e < nr_events && len < sizeof(list); e++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						e ? ", " : "",
						sampo_session__evsel_name(session, (int)e));
		return cli_err(0, "--switch-%s: '%s' has no event '%s' (its events: %s)",
			       i ? "off" : "on", input, names[i], list);
	}
	/* before the switch-on event, nothing is kept */
	sw->discarding = sw->on >= 0;
	return 0;
}

bool evswitch_discard(struct evswitch *sw, int idx)
{
	if (sw->discarding) {
		if (idx != sw->on)
			return true;
		sw->discarding = false;
		return !sw->show_on_off;
	}
	if (sw->off < 0 || idx != sw->off)
		return false;
	sw->discarding = true;
	return !sw->show_on_off;
}
