// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-modsections.c - libFuzzer entry point for the module section map
 * payload (lib/modsections.c) and the module layout (lib/kmodule.c).
 *
 * Each input is decoded as a section-map payload in both byte orders; a
 * decoded set is encoded again and must decode to the same number of
 * modules. The input is also handed to sampo_module__layout() as an ELF
 * image, whose sections must come out sorted by address from the base.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <sampo/modsections.h>
#include <sampo/symbol.h>

static int quiet(enum sampo_log_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sampo_section_addr *secs;
	size_t nr;

	sampo_set_print(quiet);
	for (int swap = 0; swap < 2; swap++) {
		struct sampo_module_sections *ms, *again;
		void *buf;
		size_t len;

		if (sampo_module_sections__parse(data, size, swap, &ms))
			continue;
		if (!sampo_module_sections__encode(ms, swap, &buf, &len)) {
			if (sampo_module_sections__parse(buf, len, swap, &again))
				abort();
			if (sampo_module_sections__nr(again) != sampo_module_sections__nr(ms))
				abort();
			sampo_module_sections__delete(again);
			free(buf);
		}
		sampo_module_sections__delete(ms);
	}
	if (!sampo_module__layout(data, size, 0x1000, &secs, &nr)) {
		for (size_t i = 1; i < nr; i++) {
			if (secs[i].addr < secs[i - 1].addr)
				abort();
		}
		sampo_section_addrs__free(secs, nr);
	}
	return 0;
}
