// SPDX-License-Identifier: GPL-2.0
/*
 * record-text.c - perf_event__fprintf()'s text of the side-band kernel
 * records, after "PERF_RECORD_<NAME>" (record-text.h). Formatted by hand into
 * the outbuf: dump prints one for every such record of a file.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <sampo/event.h>

#include "outbuf.h"
#include "record-text.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void record_text__str(struct outbuf *ob, const union sampo_record *rec, const char *s)
{
	const char *end = (const char *)rec + rec->header.size;

	if (s >= end)
		return;
	ob_write(ob, s, strnlen(s, (size_t)(end - s)));
}

static void put_pid_tid(struct outbuf *ob, uint32_t pid, uint32_t tid)
{
	ob_dec_s64(ob, (int32_t)pid);
	ob_putc(ob, '/');
	ob_dec_s64(ob, (int32_t)tid);
}

/* " %d/%d: [%#lx(%#lx) @ %#lx" */
static void put_map_range(struct outbuf *ob, uint32_t pid, uint32_t tid, uint64_t start,
			  uint64_t len, uint64_t pgoff)
{
	ob_putc(ob, ' ');
	put_pid_tid(ob, pid, tid);
	OB_LIT(ob, ": [");
	ob_hex_alt(ob, start);
	ob_putc(ob, '(');
	ob_hex_alt(ob, len);
	OB_LIT(ob, ") @ ");
	ob_hex_alt(ob, pgoff);
}

static void print_mmap(struct outbuf *ob, const union sampo_record *rec)
{
	const struct sampo_record_mmap *e = &rec->mmap;

	put_map_range(ob, e->pid, e->tid, e->start, e->len, e->pgoff);
	OB_LIT(ob, "]: ");
	ob_putc(ob, (e->header.misc & SAMPO_MISC_MMAP_DATA) ? 'r' : 'x');
	ob_putc(ob, ' ');
	record_text__str(ob, rec, e->filename);
	ob_putc(ob, '\n');
}

static void print_mmap2(struct outbuf *ob, const union sampo_record *rec)
{
	const struct sampo_record_mmap2 *e = &rec->mmap2;

	put_map_range(ob, e->pid, e->tid, e->start, e->len, e->pgoff);
	if (e->header.misc & SAMPO_MISC_MMAP_BUILD_ID) {
		size_t n = e->build_id_size < SAMPO_BUILD_ID_MAX ? e->build_id_size :
								   SAMPO_BUILD_ID_MAX;

		OB_LIT(ob, " <");
		for (size_t i = 0; i < n; i++)
			ob_hex(ob, e->build_id[i], 2, true);
		ob_putc(ob, '>');
	} else {
		ob_putc(ob, ' ');
		ob_hex(ob, e->maj, 2, true);
		ob_putc(ob, ':');
		ob_hex(ob, e->min, 2, true);
		ob_putc(ob, ' ');
		ob_dec_u64(ob, e->ino);
		ob_putc(ob, ' ');
		ob_dec_u64(ob, e->ino_generation);
	}
	OB_LIT(ob, "]: ");
	ob_putc(ob, (e->prot & PROT_READ) ? 'r' : '-');
	ob_putc(ob, (e->prot & PROT_WRITE) ? 'w' : '-');
	ob_putc(ob, (e->prot & PROT_EXEC) ? 'x' : '-');
	ob_putc(ob, (e->flags & MAP_SHARED) ? 's' : 'p');
	ob_putc(ob, ' ');
	record_text__str(ob, rec, e->filename);
	ob_putc(ob, '\n');
}

static void print_comm(struct outbuf *ob, const union sampo_record *rec)
{
	const struct sampo_record_comm *e = &rec->comm;

	if (e->header.misc & SAMPO_MISC_COMM_EXEC)
		OB_LIT(ob, " exec");
	OB_LIT(ob, ": ");
	record_text__str(ob, rec, e->comm);
	ob_putc(ob, ':');
	put_pid_tid(ob, e->pid, e->tid);
	ob_putc(ob, '\n');
}

static void print_task(struct outbuf *ob, const union sampo_record *rec)
{
	const struct sampo_record_fork *e = &rec->fork;

	ob_putc(ob, '(');
	ob_dec_s64(ob, (int32_t)e->pid);
	ob_putc(ob, ':');
	ob_dec_s64(ob, (int32_t)e->tid);
	OB_LIT(ob, "):(");
	ob_dec_s64(ob, (int32_t)e->ppid);
	ob_putc(ob, ':');
	ob_dec_s64(ob, (int32_t)e->ptid);
	OB_LIT(ob, ")\n");
}

static void print_switch(struct outbuf *ob, const union sampo_record *rec)
{
	uint16_t misc = rec->header.misc;
	bool out = misc & SAMPO_MISC_SWITCH_OUT;
	const char *in_out = !out				     ? "IN         " :
			     !(misc & SAMPO_MISC_SWITCH_OUT_PREEMPT) ? "OUT        " :
								       "OUT preempt";

	ob_putc(ob, ' ');
	ob_puts(ob, in_out);
	if (rec->header.type == SAMPO_RECORD_SWITCH) {
		ob_putc(ob, '\n');
		return;
	}
	OB_LIT(ob, "  ");
	ob_puts(ob, out ? "next" : "prev");
	OB_LIT(ob, " pid/tid: ");
	ob_dec_s64_width(ob, (int32_t)rec->context_switch.next_prev_pid, 5, false);
	ob_putc(ob, '/');
	ob_dec_s64_left(ob, (int32_t)rec->context_switch.next_prev_tid, 5);
	ob_putc(ob, '\n');
}

static void print_namespaces(struct outbuf *ob, const union sampo_record *rec)
{
	static const char *const ns_names[] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"
	};
	const struct sampo_record_namespaces *e = &rec->namespaces;
	uint32_t nr = (uint32_t)e->nr_namespaces;
	size_t room = rec->header.size > sizeof(*e) ? (rec->header.size - sizeof(*e)) / 16 : 0;

	ob_putc(ob, ' ');
	put_pid_tid(ob, e->pid, e->tid);
	OB_LIT(ob, " - nr_namespaces: ");
	ob_dec_u64(ob, nr);
	OB_LIT(ob, "\n\t\t[");
	for (uint32_t i = 0; i < nr; i++) {
		uint64_t dev = 0, ino = 0;

		if (i < room) {
			dev = e->link_info[i].dev;
			ino = e->link_info[i].ino;
		}
		if (i && i % 4 == 0)
			OB_LIT(ob, "\n\t\t ");
		ob_dec_u64(ob, i);
		ob_putc(ob, '/');
		ob_puts(ob, i < ARRAY_SIZE(ns_names) ? ns_names[i] : "UNKNOWN");
		OB_LIT(ob, ": ");
		ob_dec_u64(ob, dev);
		ob_putc(ob, '/');
		ob_hex_alt(ob, ino);
		if (i + 1 != nr)
			OB_LIT(ob, ", ");
		else
			OB_LIT(ob, "]\n");
	}
}

bool record_text__body(struct outbuf *ob, const union sampo_record *rec)
{
	switch (rec->header.type) {
	case SAMPO_RECORD_MMAP:
		print_mmap(ob, rec);
		return true;
	case SAMPO_RECORD_MMAP2:
		print_mmap2(ob, rec);
		return true;
	case SAMPO_RECORD_COMM:
		print_comm(ob, rec);
		return true;
	case SAMPO_RECORD_FORK:
	case SAMPO_RECORD_EXIT:
		print_task(ob, rec);
		return true;
	case SAMPO_RECORD_NAMESPACES:
		print_namespaces(ob, rec);
		return true;
	case SAMPO_RECORD_SWITCH:
	case SAMPO_RECORD_SWITCH_CPU_WIDE:
		print_switch(ob, rec);
		return true;
	case SAMPO_RECORD_CGROUP:
		OB_LIT(ob, " cgroup: ");
		ob_dec_u64(ob, rec->cgroup.id);
		ob_putc(ob, ' ');
		record_text__str(ob, rec, rec->cgroup.path);
		ob_putc(ob, '\n');
		return true;
	case SAMPO_RECORD_KSYMBOL:
		OB_LIT(ob, " addr ");
		ob_hex(ob, rec->ksymbol.addr, 0, false);
		OB_LIT(ob, " len ");
		ob_dec_u64(ob, rec->ksymbol.len);
		OB_LIT(ob, " type ");
		ob_dec_u64(ob, rec->ksymbol.ksym_type);
		OB_LIT(ob, " flags 0x");
		ob_hex(ob, rec->ksymbol.flags, 0, false);
		OB_LIT(ob, " name ");
		record_text__str(ob, rec, rec->ksymbol.name);
		ob_putc(ob, '\n');
		return true;
	case SAMPO_RECORD_BPF_EVENT:
		OB_LIT(ob, " type ");
		ob_dec_u64(ob, rec->bpf.type);
		OB_LIT(ob, ", flags ");
		ob_dec_u64(ob, rec->bpf.flags);
		OB_LIT(ob, ", id ");
		ob_dec_u64(ob, rec->bpf.id);
		ob_putc(ob, '\n');
		return true;
	default:
		return false;
	}
}

/* perf 6.1's branch type names (x86 build: the arch-specific ones are ARCH_n) */
static const char *const branch_type_names[16] = {
	"N/A",	  "COND",      "UNCOND",   "IND",  "CALL", "IND_CALL", "RET",	"SYSCALL",
	"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",  "SERROR",   "NO_TX", "",
};

static const char *const branch_new_type_names[8] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5",
};

const char *record_text__branch_type(uint64_t flags)
{
	unsigned int type = (flags >> 20) & 15, new_type = (flags >> 26) & 15;

	if (type == 0)
		return "";
	if (type == 15)
		return new_type < 8 ? branch_new_type_names[new_type] : "(null)";
	return branch_type_names[type];
}
