// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-trace-data.c - libFuzzer entry point for the tracing data reader
 * (lib/trace-data.c): the event formats of a recording with tracepoints,
 * and the trace output of a sample's raw data by them.
 *
 * Input: u16 n (little-endian), n bytes of a sample's raw data, then the
 * tracing data. The data are parsed (damaged or not, what was read is
 * kept), the raw data printed by the event its first u16 names (the
 * common_type field, as in a real record) and by each id up to 1024 whose
 * event the data name, and every event's name is made. For each such
 * event, its fields too: all of them raw (--raw-trace), and each alone,
 * found by name, its bytes located in the raw data (report's field keys).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sampo/common.h>
#include <sampo/trace-data.h>

/*
 * libtraceevent 1.7 leaks a few bytes on some malformed formats (its error
 * paths in tep_parse_format()): not ours to fix, so LeakSanitizer leaves
 * out what it allocated (anything else of ours still counts)
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libtraceevent.so\n";
}

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

/* every kernel address is "func" from its page's start: %ps and %pS go through the resolver */
static const char *resolve(void *priv, uint64_t addr, uint64_t *start)
{
	(void)priv;
	if (addr & 1)
		return NULL;
	*start = addr & ~(uint64_t)0xfff;
	return "func";
}

static void print(struct sampo_trace_data *td, uint64_t id, const uint8_t *raw, size_t n)
{
	char *text = NULL;

	if (sampo_trace_data__format(td, id, 1, raw, n, &text) == 0) {
		if (!text)
			__builtin_trap();
		free(text);
	}
}

static void print_fields(struct sampo_trace_data *td, uint64_t id, const uint8_t *raw, size_t n)
{
	struct sampo_trace_field f, g;
	char *text = NULL;

	if (sampo_trace_data__format_fields(td, id, 1, raw, n, &text) == 0) {
		if (!text)
			__builtin_trap();
		free(text);
	}
	for (size_t i = 0; !sampo_trace_data__field_at(td, id, i, &f); i++) {
		const uint8_t *bytes;
		size_t len;

		if (i >= sampo_trace_data__nr_fields(td, id))
			__builtin_trap();
		if (sampo_trace_data__find_field(td, id, f.name, &g) == 0 &&
		    sampo_trace_data__field_bytes(td, &g, raw, n, &bytes, &len) &&
		    (bytes < raw || len > n || (size_t)(bytes - raw) > n - len))
			__builtin_trap(); /* outside the raw data */
		if (sampo_trace_data__format_field(td, id, f.name, raw, n, &text) == 0) {
			if (!text)
				__builtin_trap();
			free(text);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	struct sampo_trace_data *td = NULL;
	size_t n, at = 0;
	char err[256];
	size_t sum = 0;

	if (!init) {
		sampo_set_print(quiet);
		init = true;
	}
	if (size < 2)
		return 0;
	n = (size_t)data[0] | (size_t)data[1] << 8;
	if (n > size - 2)
		n = size - 2;
	(void)sampo_trace_data__parse(data + 2 + n, size - 2 - n, &td, &at, err, sizeof(err));
	if (!td)
		return 0;
	if (at > size - 2 - n)
		__builtin_trap();
	sampo_trace_data__set_resolver(td, resolve, NULL);
	if (n >= 2)
		print(td, (uint64_t)data[2] | (uint64_t)data[3] << 8, data + 2, n);
	for (uint64_t id = 0; id < 1024; id++) {
		const char *name = sampo_trace_data__event_name(td, id);

		if (name) {
			sum += strlen(name);
			print(td, id, data + 2, n);
			print_fields(td, id, data + 2, n);
		}
	}
	(void)sum;
	sampo_trace_data__delete(td);
	return 0;
}
