// SPDX-License-Identifier: LGPL-2.1
/*
 * evlist.c - perf_event_open(2) descriptors, their mmap rings, and draining.
 *
 * Descriptors live in one array indexed [event][cpu][thread]. Ring r is the
 * mmap of the first descriptor of its CPU (or of its thread, per-thread
 * mode); every other descriptor of that CPU is redirected into it with
 * PERF_EVENT_IOC_SET_OUTPUT, so one poll entry and one ring per CPU cover all
 * events and threads.
 *
 * Ring protocol (perf_event.h, "struct perf_event_mmap_page"): the kernel
 * writes records at data_head; we read data_head with acquire ordering, read
 * the records in [data_tail, data_head), then store data_tail with release
 * ordering to give the space back. Positions grow forever; the offset in
 * the data area is position & (size - 1).
 *
 * States: NEW (events added) -> OPEN (descriptors) -> MAPPED (rings).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sampo/evlist.h>

#include "internal/log.h"
#include "internal/util.h"

_Static_assert(sizeof(struct perf_event_attr) >= SAMPO_ATTR_SIZE_VER7, "uapi attr too small");

#define RING_SCRATCH_SIZE 65536 /* largest record: header.size is a u16 */

struct evlist_event {
	struct sampo_event_attr attr;
	char *name;
	uint64_t *ids; /* one per descriptor: nr_cpus x nr_threads */
	size_t nr_ids;
};

struct evlist_ring {
	void *base; /* the control page, then the data area */
	size_t data_size;
	int fd; /* the descriptor the ring belongs to (borrowed from fds[]) */
	int cpu;
};

struct sampo_evlist {
	struct evlist_event *events;
	size_t nr_events;

	int *cpus; /* {-1} in per-thread mode */
	size_t nr_cpus;
	int *threads; /* {-1} in system-wide mode */
	size_t nr_threads;
	int *fds; /* [event][cpu][thread], -1 when not open */
	bool open;
	int failed_event;

	struct evlist_ring *rings;
	size_t nr_rings;
	/*
	 * Every descriptor: the rings' first (POLLIN), then the others, whose
	 * POLLHUP tells when their thread is gone.
	 */
	struct pollfd *pollfds;
	size_t nr_pollfds;

	uint8_t *scratch; /* a wrapped record, made whole */
	size_t page_size;
};

static long sys_perf_event_open(struct perf_event_attr *attr, int pid, int cpu, int group_fd,
				unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

struct sampo_evlist *sampo_evlist__new(void)
{
	struct sampo_evlist *evlist = calloc(1, sizeof(*evlist));

	if (!evlist)
		return NULL;
	evlist->failed_event = -1;
	evlist->page_size = (size_t)sysconf(_SC_PAGESIZE);
	return evlist;
}

static size_t evlist_nr_fds(const struct sampo_evlist *evlist)
{
	return evlist->nr_events * evlist->nr_cpus * evlist->nr_threads;
}

static int *evlist_fd(const struct sampo_evlist *evlist, size_t ev, size_t cpu, size_t thread)
{
	return &evlist->fds[(ev * evlist->nr_cpus + cpu) * evlist->nr_threads + thread];
}

static void evlist_unmap(struct sampo_evlist *evlist)
{
	/* also after a failed calloc of the rings: nr_rings is set, rings is NULL */
	for (size_t i = 0; evlist->rings && i < evlist->nr_rings; i++) {
		struct evlist_ring *r = &evlist->rings[i];

		if (r->base)
			(void)munmap(r->base, r->data_size + evlist->page_size);
	}
	free(evlist->rings);
	free(evlist->pollfds);
	evlist->rings = NULL;
	evlist->pollfds = NULL;
	evlist->nr_pollfds = 0;
	evlist->nr_rings = 0;
}

static void evlist_close(struct sampo_evlist *evlist)
{
	evlist_unmap(evlist);
	if (evlist->fds) {
		for (size_t i = 0; i < evlist_nr_fds(evlist); i++) {
			if (evlist->fds[i] >= 0)
				(void)close(evlist->fds[i]);
		}
	}
	free(evlist->fds);
	free(evlist->cpus);
	free(evlist->threads);
	evlist->fds = NULL;
	evlist->cpus = NULL;
	evlist->threads = NULL;
	for (size_t i = 0; i < evlist->nr_events; i++) {
		free(evlist->events[i].ids);
		evlist->events[i].ids = NULL;
		evlist->events[i].nr_ids = 0;
	}
	evlist->open = false;
}

void sampo_evlist__delete(struct sampo_evlist *evlist)
{
	if (!evlist)
		return;
	evlist_close(evlist);
	for (size_t i = 0; i < evlist->nr_events; i++)
		free(evlist->events[i].name);
	free(evlist->events);
	free(evlist->scratch);
	free(evlist);
}

int sampo_evlist__add(struct sampo_evlist *evlist, const struct sampo_event_attr *attr,
		      const char *name)
{
	struct evlist_event *events, *ev;

	if (!evlist || !attr || !name)
		return -EINVAL;
	if (evlist->open)
		return -EBUSY;
	events = realloc(evlist->events, (evlist->nr_events + 1) * sizeof(*events));
	if (!events)
		return -ENOMEM;
	evlist->events = events;
	ev = &events[evlist->nr_events];
	memset(ev, 0, sizeof(*ev));
	ev->attr = *attr;
	if (!ev->attr.size)
		ev->attr.size = SAMPO_ATTR_SIZE_VER7;
	ev->name = strdup(name);
	if (!ev->name)
		return -ENOMEM;
	return (int)evlist->nr_events++;
}

size_t sampo_evlist__nr_events(const struct sampo_evlist *evlist)
{
	return evlist ? evlist->nr_events : 0;
}

const struct sampo_event_attr *sampo_evlist__attr(const struct sampo_evlist *evlist, size_t idx)
{
	if (!evlist || idx >= evlist->nr_events)
		return NULL;
	return &evlist->events[idx].attr;
}

const char *sampo_evlist__name(const struct sampo_evlist *evlist, size_t idx)
{
	if (!evlist || idx >= evlist->nr_events)
		return NULL;
	return evlist->events[idx].name;
}

int sampo_evlist__failed_event(const struct sampo_evlist *evlist)
{
	return evlist ? evlist->failed_event : -1;
}

const uint64_t *sampo_evlist__ids(const struct sampo_evlist *evlist, size_t idx, size_t *nr)
{
	if (!evlist || idx >= evlist->nr_events) {
		if (nr)
			*nr = 0;
		return NULL;
	}
	if (nr)
		*nr = evlist->events[idx].nr_ids;
	return evlist->events[idx].ids;
}

/* The uapi struct from ours: the same layout up to VER7/VER8 (both follow the ABI). */
static void attr_to_uapi(const struct sampo_event_attr *in, struct perf_event_attr *out)
{
	size_t n = MIN(sizeof(*out), sizeof(*in));

	memset(out, 0, sizeof(*out));
	memcpy(out, in, n);
	out->size = SAMPO_ATTR_SIZE_VER7;
}

static int copy_ints(int **dst, size_t *nr, const int *src, size_t n)
{
	*dst = malloc((n ? n : 1) * sizeof(int));
	if (!*dst)
		return -ENOMEM;
	if (n)
		memcpy(*dst, src, n * sizeof(int));
	else
		(*dst)[0] = -1;
	*nr = n ? n : 1;
	return 0;
}

static int evlist_open_one(struct sampo_evlist *evlist, size_t ev, size_t c, size_t t)
{
	struct evlist_event *e = &evlist->events[ev];
	struct perf_event_attr uattr;
	long fd;

	attr_to_uapi(&e->attr, &uattr);
	fd = sys_perf_event_open(&uattr, evlist->threads[t], evlist->cpus[c], -1,
				 PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EINVAL && (e->attr.flags & SAMPO_ATTR_BUILD_ID)) {
		/* before 5.12: no build-ids in MMAP2; the caller reads them from the files */
		pr_debug("perf_event_open refused attr.build_id; MMAP2 without build-ids\n");
		e->attr.flags &= ~(uint64_t)SAMPO_ATTR_BUILD_ID;
		attr_to_uapi(&e->attr, &uattr);
		fd = sys_perf_event_open(&uattr, evlist->threads[t], evlist->cpus[c], -1,
					 PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	*evlist_fd(evlist, ev, c, t) = (int)fd;
	return 0;
}

int sampo_evlist__open(struct sampo_evlist *evlist, const int *cpus, size_t nr_cpus,
		       const int *pids, size_t nr_pids)
{
	int err;

	if (!evlist || !evlist->nr_events || (!nr_cpus && !nr_pids))
		return -EINVAL;
	if (evlist->open)
		return -EBUSY;
	evlist->failed_event = -1;
	err = copy_ints(&evlist->cpus, &evlist->nr_cpus, cpus, nr_cpus);
	if (!err)
		err = copy_ints(&evlist->threads, &evlist->nr_threads, pids, nr_pids);
	if (err)
		goto out_close;
	evlist->fds = malloc(evlist_nr_fds(evlist) * sizeof(int));
	if (!evlist->fds) {
		err = -ENOMEM;
		goto out_close;
	}
	for (size_t i = 0; i < evlist_nr_fds(evlist); i++)
		evlist->fds[i] = -1;

	for (size_t ev = 0; ev < evlist->nr_events; ev++) {
		struct evlist_event *e = &evlist->events[ev];
		size_t n = evlist->nr_cpus * evlist->nr_threads;

		e->ids = calloc(n, sizeof(uint64_t));
		if (!e->ids) {
			err = -ENOMEM;
			goto out_close;
		}
		e->nr_ids = n;
		for (size_t c = 0; c < evlist->nr_cpus; c++) {
			for (size_t t = 0; t < evlist->nr_threads; t++) {
				int fd;

				err = evlist_open_one(evlist, ev, c, t);
				if (err) {
					evlist->failed_event = (int)ev;
					goto out_close;
				}
				fd = *evlist_fd(evlist, ev, c, t);
				if (ioctl(fd, PERF_EVENT_IOC_ID,
					  &e->ids[c * evlist->nr_threads + t])) {
					err = -errno;
					goto out_close;
				}
			}
		}
	}
	evlist->open = true;
	return 0;

out_close:
	evlist_close(evlist);
	return err;
}

int sampo_evlist__mmap(struct sampo_evlist *evlist, size_t pages)
{
	bool per_thread;
	size_t len;
	int err = 0;

	if (!evlist || !evlist->open)
		return -EINVAL;
	if (!pages)
		pages = 128;
	if (pages & (pages - 1))
		return -EINVAL;
	if (evlist->nr_rings)
		return -EBUSY;
	if (!evlist->scratch) {
		evlist->scratch = malloc(RING_SCRATCH_SIZE);
		if (!evlist->scratch)
			return -ENOMEM;
	}

	per_thread = evlist->cpus[0] == -1;
	evlist->nr_rings = per_thread ? evlist->nr_threads : evlist->nr_cpus;
	evlist->rings = calloc(evlist->nr_rings, sizeof(*evlist->rings));
	evlist->pollfds = calloc(evlist_nr_fds(evlist), sizeof(*evlist->pollfds));
	if (!evlist->rings || !evlist->pollfds) {
		evlist_unmap(evlist);
		return -ENOMEM;
	}
	len = (pages + 1) * evlist->page_size;

	for (size_t r = 0; r < evlist->nr_rings; r++) {
		struct evlist_ring *ring = &evlist->rings[r];
		size_t c0 = per_thread ? 0 : r, t0 = per_thread ? r : 0;
		int fd = *evlist_fd(evlist, 0, c0, t0);
		void *base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

		if (base == MAP_FAILED) {
			err = -errno;
			goto out_unmap;
		}
		ring->base = base;
		ring->data_size = pages * evlist->page_size;
		ring->fd = fd;
		ring->cpu = evlist->cpus[c0];
		evlist->pollfds[r].fd = fd;
		evlist->pollfds[r].events = POLLIN;
		evlist->nr_pollfds = r + 1;

		/* every other descriptor of this CPU (or thread) writes into this ring */
		for (size_t ev = 0; ev < evlist->nr_events; ev++) {
			for (size_t c = 0; c < evlist->nr_cpus; c++) {
				for (size_t t = 0; t < evlist->nr_threads; t++) {
					int other = *evlist_fd(evlist, ev, c, t);

					if ((per_thread ? t != r : c != r) || other == fd)
						continue;
					if (ioctl(other, PERF_EVENT_IOC_SET_OUTPUT, fd)) {
						err = -errno;
						goto out_unmap;
					}
				}
			}
		}
	}
	for (size_t i = 0; i < evlist_nr_fds(evlist); i++) {
		bool is_ring = false;

		for (size_t r = 0; r < evlist->nr_rings && !is_ring; r++)
			is_ring = evlist->rings[r].fd == evlist->fds[i];
		if (!is_ring)
			evlist->pollfds[evlist->nr_pollfds++] =
				(struct pollfd){ .fd = evlist->fds[i] };
	}
	return 0;

out_unmap:
	evlist_unmap(evlist);
	return err;
}

size_t sampo_evlist__nr_rings(const struct sampo_evlist *evlist)
{
	return evlist ? evlist->nr_rings : 0;
}

int sampo_evlist__ring_cpu(const struct sampo_evlist *evlist, size_t ring)
{
	if (!evlist || ring >= evlist->nr_rings)
		return -1;
	return evlist->rings[ring].cpu;
}

static int evlist_ioctl_all(struct sampo_evlist *evlist, unsigned long req)
{
	int err = 0;

	if (!evlist || !evlist->open)
		return -EINVAL;
	for (size_t i = 0; i < evlist_nr_fds(evlist); i++) {
		if (evlist->fds[i] >= 0 && ioctl(evlist->fds[i], req, 0) && !err)
			err = -errno;
	}
	return err;
}

int sampo_evlist__enable(struct sampo_evlist *evlist)
{
	return evlist_ioctl_all(evlist, PERF_EVENT_IOC_ENABLE);
}

int sampo_evlist__disable(struct sampo_evlist *evlist)
{
	return evlist_ioctl_all(evlist, PERF_EVENT_IOC_DISABLE);
}

int sampo_evlist__poll(struct sampo_evlist *evlist, int timeout_ms, bool *ret_all_hup)
{
	size_t nr_hup = 0;
	int n;

	if (!evlist || !evlist->nr_rings)
		return -EINVAL;
	n = poll(evlist->pollfds, evlist->nr_pollfds, timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	n = 0;
	for (size_t i = 0; i < evlist->nr_pollfds; i++) {
		if (evlist->pollfds[i].revents & (POLLHUP | POLLERR))
			nr_hup++;
		if (i < evlist->nr_rings && (evlist->pollfds[i].revents & POLLIN))
			n++;
	}
	if (ret_all_hup)
		*ret_all_hup = nr_hup == evlist->nr_pollfds;
	return n;
}

/* Hand out the records of one ring up to the head seen on entry. */
static int64_t ring_drain(struct sampo_evlist *evlist, size_t idx, sampo_evlist_record_fn fn,
			  void *ctx)
{
	struct evlist_ring *ring = &evlist->rings[idx];
	struct perf_event_mmap_page *pc = ring->base;
	uint8_t *data = (uint8_t *)ring->base + evlist->page_size;
	uint64_t mask = ring->data_size - 1;
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pc->data_tail;
	int64_t nr = 0;
	int err = 0;

	while (tail < head) {
		uint64_t off = tail & mask;
		struct sampo_record_header hdr;
		const void *rec;

		if (off + sizeof(hdr) <= ring->data_size) {
			memcpy(&hdr, data + off, sizeof(hdr));
		} else {
			size_t first = ring->data_size - off;

			memcpy(&hdr, data + off, first);
			memcpy((uint8_t *)&hdr + first, data, sizeof(hdr) - first);
		}
		if (hdr.size < sizeof(hdr) || hdr.size > head - tail) {
			/* cannot happen with a sane kernel: give the ring back */
			tail = head;
			err = -SAMPO_ERR_MALFORMED;
			break;
		}
		if (off + hdr.size <= ring->data_size) {
			rec = data + off;
		} else {
			size_t first = ring->data_size - off;

			memcpy(evlist->scratch, data + off, first);
			memcpy(evlist->scratch + first, data, hdr.size - first);
			rec = evlist->scratch;
		}
		tail += hdr.size;
		nr++;
		if (fn) {
			err = fn(ctx, rec, idx);
			if (err)
				break;
		}
	}
	__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
	return err ? err : nr;
}

int64_t sampo_evlist__drain(struct sampo_evlist *evlist, sampo_evlist_record_fn fn, void *ctx)
{
	int64_t total = 0;

	if (!evlist || !evlist->nr_rings)
		return -EINVAL;
	for (size_t i = 0; i < evlist->nr_rings; i++) {
		int64_t n = ring_drain(evlist, i, fn, ctx);

		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

size_t sampo_evlist__sample_id_size(const struct sampo_event_attr *attr)
{
	static const uint64_t bits[] = {
		SAMPO_SAMPLE_TID,	SAMPO_SAMPLE_TIME, SAMPO_SAMPLE_ID,
		SAMPO_SAMPLE_STREAM_ID, SAMPO_SAMPLE_CPU,  SAMPO_SAMPLE_IDENTIFIER,
	};
	size_t n = 0;

	if (!attr || !(attr->flags & SAMPO_ATTR_SAMPLE_ID_ALL))
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(bits); i++) {
		if (attr->sample_type & bits[i])
			n += 8;
	}
	return n;
}
