// SPDX-License-Identifier: GPL-2.0
/*
 * count-records.c - a program outside sampo that uses libsampo: counts the
 * records of a perf.data file by type, as the "Aggregated stats" of
 * `perf report -D` do, through the reader's record loop and its statistics.
 *
 *	cc count-records.c $(pkg-config --cflags --libs sampo) -o count-records
 *	./count-records perf.data
 *
 * tests/cli/t0006-libsampo-consumer.sh builds it against an installed
 * libsampo and compares its counts with perf's.
 */
#include <inttypes.h>
#include <stdio.h>

#include <sampo/sampo.h>

#define NR_TYPES 128

int main(int argc, char **argv)
{
	char errbuf[512] = "";
	SAMPO_OPTS(sampo_reader_opts, opts, .errbuf = errbuf, .errbuf_sz = sizeof(errbuf));
	uint64_t counts[NR_TYPES] = { 0 }, total = 0;
	struct sampo_reader *reader;
	struct sampo_event ev;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: count-records FILE\n");
		return 2;
	}
	err = sampo_reader__open(argv[1], &opts, &reader);
	if (err) {
		fprintf(stderr, "count-records: %s\n",
			errbuf[0] ? errbuf : sampo_strerror(err, errbuf, sizeof(errbuf)));
		return 1;
	}
	while ((err = sampo_reader__next(reader, &ev)) > 0) {
		uint32_t type = ev.record->header.type;

		counts[type < NR_TYPES ? type : 0]++;
		total++;
	}
	if (err < 0) {
		fprintf(stderr, "count-records: %s\n", sampo_reader__error(reader));
		sampo_reader__close(reader);
		return 1;
	}
	/* COMPRESSED records are not handed out: the reader inflates them */
	counts[SAMPO_RECORD_COMPRESSED] =
		sampo_reader__stats(reader)->nr_records[SAMPO_RECORD_COMPRESSED];
	total += counts[SAMPO_RECORD_COMPRESSED];
	printf("TOTAL %" PRIu64 "\n", total);
	for (uint32_t type = 1; type < NR_TYPES; type++)
		if (counts[type])
			printf("%s %" PRIu64 "\n",
			       sampo_record__name(type) ? sampo_record__name(type) : "?",
			       counts[type]);
	sampo_reader__close(reader);
	return 0;
}
