// SPDX-License-Identifier: LGPL-2.1
/*
 * profile-write.c - a merged profile as a perf.data file that perf reads
 * (sampo_profile__write_perf_data(), include/sampo/profile.h)
 *
 * A perf.data describes one machine: one kernel, one build-id per path. A
 * profile of many machines fits only once it is resolved, so the file
 * carries the resolved frames instead of the hosts' addresses:
 *
 * - every distinct frame (shared object, build-id, symbol) becomes a
 *   KSYMBOL record of its own, 16 bytes at a made-up kernel address
 *   (from 0xffffffff90000000, between kernel text and modules), named
 *   "dso:symbol" ("libfoo.so:foo_one", "[kernel.kallsyms]:schedule", with
 *   the dso@build-id label of sampo_profile__dso_label() when one path has
 *   two versions); perf and sampo name a ksymbol's samples by it, with no
 *   file to look up;
 * - a one-page "[kernel.kallsyms]_text" map below them, so that neither
 *   tool lays the running machine's kernel over the made-up addresses;
 * - one thread per (host, command), named "host/command";
 * - one SAMPLE per distinct stack, its period the stack's summed period
 *   and its callchain the frames' addresses behind PERF_CONTEXT_KERNEL;
 * - one attr per event, named as in the inputs (EVENT_DESC); HOSTNAME
 *   lists the hosts.
 *
 * What perf shows: the periods, percentages and call graphs of the merge;
 * every row is "[k]" and its Shared Object is the frame's own name; the
 * sample counts (-n) are those of distinct stacks, not of the original
 * samples.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/event.h>
#include <sampo/profile.h>
#include <sampo/sample.h>
#include <sampo/writer.h>

#define KSYM_BASE 0xffffffff90000000ULL
#define KSYM_LEN 16
#define KSYM_MAX ((0xffffffffc0000000ULL - KSYM_BASE) / KSYM_LEN)
#define KERNEL_TEXT 0xffffffff81000000ULL
#define FIRST_PID 1000

struct thread_key {
	const char *host, *comm; /* interned */
};

static int wfail(char *errbuf, size_t sz, int err, const char *path, const char *what)
{
	if (errbuf && sz)
		snprintf(errbuf, sz, "%s: cannot write %s: %s", path, what, strerror(-err));
	return err;
}

/* "dso:symbol", the frame's ksymbol name */
static int frame_name(const struct sampo_profile *p, const struct sampo_profile_frame *f,
		      char **ret)
{
	char buf[512];
	const char *dso = sampo_profile__dso_label(p, f->dso, f->dso_id, buf, sizeof(buf));

	return asprintf(ret, "%s:%s", dso, f->symbol) < 0 ? -ENOMEM : 0;
}

static int write_ksymbol(struct sampo_writer *w, uint64_t addr, const char *name)
{
	size_t len = strlen(name) + 1, size = sizeof(struct sampo_record_ksymbol) + len;
	union sampo_record *rec;
	int err;

	size = (size + 7) & ~(size_t)7;
	/* the sample_id trailer: TID, TIME, ID (zeroed, as perf's synthesized records) */
	size += 3 * sizeof(uint64_t);
	if (size > 65535)
		return -EINVAL;
	rec = calloc(1, size);
	if (!rec)
		return -ENOMEM;
	rec->header.type = SAMPO_RECORD_KSYMBOL;
	rec->header.misc = SAMPO_CPUMODE_KERNEL;
	rec->header.size = (uint16_t)size;
	rec->ksymbol.addr = addr;
	rec->ksymbol.len = KSYM_LEN;
	rec->ksymbol.ksym_type = SAMPO_KSYMBOL_TYPE_UNKNOWN;
	memcpy(rec->ksymbol.name, name, len);
	err = sampo_writer__write_record(w, rec);
	free(rec);
	return err;
}

int sampo_profile__write_perf_data(const struct sampo_profile *p, const char *path,
				   char *errbuf, size_t errbuf_sz)
{
	size_t nr_ev = sampo_profile__nr_events(p), nr_frames = sampo_profile__nr_frames(p);
	struct thread_key *threads = NULL;
	size_t nr_threads = 0, cap_chain = 0;
	const char **names = NULL;
	uint64_t *chain = NULL, t = 1;
	uint32_t *pid_of = NULL;
	struct sampo_writer *w = NULL;
	char *hosts = NULL;
	size_t hosts_len = 0;
	int err;

	if (nr_frames > KSYM_MAX)
		return wfail(errbuf, errbuf_sz, -E2BIG, path, "so many frames");
	names = calloc(nr_ev ? nr_ev : 1, sizeof(*names));
	pid_of = calloc(sampo_profile__nr_stacks(p) + 1, sizeof(*pid_of));
	if (!names || !pid_of) {
		err = -ENOMEM;
		goto fail;
	}
	err = sampo_writer__open(path, NULL, &w);
	if (err)
		goto fail;
	for (size_t e = 0; e < nr_ev; e++) {
		struct sampo_event_attr a = {
			.type = 1, /* software: the inputs' attrs are not kept, their names are */
			.sample_period = 1,
			.sample_type = SAMPO_SAMPLE_IP | SAMPO_SAMPLE_TID | SAMPO_SAMPLE_TIME |
				       SAMPO_SAMPLE_ID | SAMPO_SAMPLE_PERIOD | SAMPO_SAMPLE_CALLCHAIN,
			.flags = SAMPO_ATTR_DISABLED | SAMPO_ATTR_SAMPLE_ID_ALL,
		};
		uint64_t id = e + 1;

		names[e] = sampo_profile__event_name(p, e);
		err = sampo_writer__add_attr(w, &a, &id, 1);
		if (err < 0)
			goto fail;
	}
	{
		const struct sampo_writer_map km = {
			.misc = SAMPO_CPUMODE_KERNEL,
			.pid = (uint32_t)-1,
			.start = KERNEL_TEXT,
			.len = 0x1000,
			.pgoff = KERNEL_TEXT,
			.filename = "[kernel.kallsyms]_text",
		};

		err = sampo_writer__write_mmap(w, &km, NULL);
		if (err)
			goto fail;
	}
	for (size_t i = 0; i < nr_frames; i++) {
		char *name;

		err = frame_name(p, sampo_profile__frame(p, i), &name);
		if (err)
			goto fail;
		err = write_ksymbol(w, KSYM_BASE + i * KSYM_LEN, name);
		free(name);
		if (err)
			goto fail;
	}
	/* threads: one per (host, comm), in order of first sight */
	for (size_t i = 0; i < sampo_profile__nr_stacks(p); i++) {
		const struct sampo_profile_stack *s = sampo_profile__stack(p, i);
		size_t k;

		for (k = 0; k < nr_threads; k++)
			if (threads[k].host == s->host && threads[k].comm == s->comm)
				break;
		if (k == nr_threads) {
			struct thread_key *tk = realloc(threads, (nr_threads + 1) * sizeof(*tk));
			char *comm;

			if (!tk) {
				err = -ENOMEM;
				goto fail;
			}
			threads = tk;
			threads[nr_threads++] = (struct thread_key){ s->host, s->comm };
			if (asprintf(&comm, "%s/%s", s->host, s->comm ? s->comm : "") < 0) {
				err = -ENOMEM;
				goto fail;
			}
			err = sampo_writer__write_comm(w, FIRST_PID + (uint32_t)k,
						       FIRST_PID + (uint32_t)k, comm, false, NULL);
			free(comm);
			if (err)
				goto fail;
		}
		pid_of[i] = FIRST_PID + (uint32_t)k;
	}
	for (size_t i = 0; i < sampo_profile__nr_stacks(p); i++) {
		const struct sampo_profile_stack *s = sampo_profile__stack(p, i);
		struct sampo_sample smp = {
			.id = s->event + 1,
			.pid = pid_of[i],
			.tid = pid_of[i],
			.time = t++,
			.period = s->period,
		};

		if (!s->nr_frames)
			continue;
		if (s->nr_frames + 1 > cap_chain) { /* cap_chain starts at 0: allocated here first */
			uint64_t *c = realloc(chain, (s->nr_frames + 1) * sizeof(*c));

			if (!c) {
				err = -ENOMEM;
				goto fail;
			}
			chain = c;
			cap_chain = s->nr_frames + 1;
		}
		chain[0] = SAMPO_CONTEXT_KERNEL;
		for (size_t d = 0; d < s->nr_frames; d++)
			chain[d + 1] = KSYM_BASE + (uint64_t)s->frames[d] * KSYM_LEN;
		smp.ip = chain[1];
		smp.callchain = chain;
		smp.callchain_nr = s->nr_frames + 1;
		err = sampo_writer__write_sample(w, s->event, SAMPO_CPUMODE_KERNEL, &smp);
		if (err)
			goto fail;
	}
	for (size_t k = 0; k < nr_threads; k++) {
		bool seen = false;

		for (size_t j = 0; j < k && !seen; j++)
			seen = threads[j].host == threads[k].host;
		if (seen)
			continue;
		if (hosts_len + strlen(threads[k].host) + 2 > 4000)
			break; /* a long list is cut: HOSTNAME is a label */
		{
			char *h = realloc(hosts, hosts_len + strlen(threads[k].host) + 2);

			if (!h) {
				err = -ENOMEM;
				goto fail;
			}
			hosts = h;
			hosts_len += (size_t)sprintf(hosts + hosts_len, "%s%s", hosts_len ? "," : "",
						     threads[k].host);
		}
	}
	err = sampo_writer__set_feature_string(w, SAMPO_FEAT_HOSTNAME, hosts ? hosts : "");
	if (!err && nr_ev)
		err = sampo_writer__set_feature_event_desc(w, names, nr_ev);
	if (err)
		goto fail;
	err = sampo_writer__close(w);
	w = NULL;
	if (err)
		goto fail;
	goto out;
fail:
	if (w)
		sampo_writer__close(w);
	wfail(errbuf, errbuf_sz, err, path, "the merged perf.data");
out:
	free(threads);
	free(names);
	free(pid_of);
	free(chain);
	free(hosts);
	return err;
}
