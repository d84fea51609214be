// SPDX-License-Identifier: GPL-2.0
/*
 * data-src.c - a sample's PERF_SAMPLE_DATA_SRC word in words, as perf 6.1's
 * perf_script__meminfo_scnprintf() (util/mem-events.c) prints it in `perf
 * script`'s data_src field:
 *
 *	|OP LOAD|LVL L1 or L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A
 *
 * The word is union perf_mem_data_src (include/uapi/linux/perf_event.h):
 * op:5, lvl:14, snoop:5, lock:2, dtlb:7, lvl_num:4, remote:1, snoopx:2,
 * blk:3, hops:3, from bit 0 up. Each part lists the names of its set bits
 * joined by " or "; perf 6.1's LVL part names the lvl bits (or, with hops,
 * the distance instead) and then the lvl_num level, then "hit"/"miss".
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "data-src.h"

#define FIELD(v, shift, bits) (((v) >> (shift)) & ((1u << (bits)) - 1))

#define LVL_HIT	    0x02
#define LVL_MISS    0x04
#define TLB_HIT	    0x02
#define TLB_MISS    0x04
#define OP_NA	    0x01
#define OP_LOAD	    0x02
#define OP_STORE    0x04
#define OP_PFETCH   0x08
#define OP_EXEC	    0x10
#define LOCK_NA	    0x01
#define LOCK_LOCKED 0x02
#define BLK_NA	    0x01
#define BLK_DATA    0x02
#define BLK_ADDR    0x04

static const char *const tlb_access[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
static const char *const mem_lvl[] = {
	"N/A",
	"HIT",
	"MISS",
	"L1",
	"LFB/MAB",
	"L2",
	"L3",
	"Local RAM",
	"Remote RAM (1 hop)",
	"Remote RAM (2 hops)",
	"Remote Cache (1 hop)",
	"Remote Cache (2 hops)",
	"I/O",
	"Uncached",
};
static const char *const mem_lvlnum[16] = {
	[0x09] = "CXL", [0x0a] = "I/O",	 [0x0b] = "Any cache", [0x0c] = "LFB/MAB",
	[0x0d] = "RAM", [0x0e] = "PMEM", [0x0f] = "N/A",
};
static const char *const mem_hops[8] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};
static const char *const snoop_access[] = { "N/A", "None", "Hit", "Miss", "HitM" };
static const char *const snoopx_access[] = { "Fwd", "Peer" };

struct buf {
	char *p;
	size_t sz, len;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= b->sz)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->p + b->len, b->sz - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < b->sz - b->len ? (size_t)n : b->sz - b->len - 1;
}

/* the names of @m's set bits in @names, joined by " or "; how many */
static int put_bits(struct buf *b, uint64_t m, const char *const *names, size_t nr, int printed)
{
	for (size_t i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		put(b, "%s%s", printed++ ? " or " : "", names[i]);
	}
	return printed;
}

static void put_op(struct buf *b, unsigned op)
{
	if (op & OP_NA)
		put(b, "N/A");
	else if (op & OP_LOAD)
		put(b, "LOAD");
	else if (op & OP_STORE)
		put(b, "STORE");
	else if (op & OP_PFETCH)
		put(b, "PFETCH");
	else if (op & OP_EXEC)
		put(b, "EXEC");
	else
		put(b, "No");
}

static void put_lvl(struct buf *b, uint64_t v)
{
	unsigned lvl = FIELD(v, 5, 14), num = FIELD(v, 33, 4), hops = FIELD(v, 43, 3);
	size_t start = b->len;
	int printed = 0;

	if (FIELD(v, 37, 1))
		put(b, "Remote ");
	if (hops)
		put(b, "%s ", mem_hops[hops] ? mem_hops[hops] : "");
	else
		printed = put_bits(b, lvl & ~(unsigned)(LVL_HIT | LVL_MISS), mem_lvl,
				   sizeof(mem_lvl) / sizeof(mem_lvl[0]), 0);
	if (num) {
		put(b, "%s", printed++ ? " or " : "");
		if (mem_lvlnum[num])
			put(b, "%s", mem_lvlnum[num]);
		else
			put(b, "L%u", num);
	}
	if (b->len == start)
		put(b, "N/A");
	if (lvl & LVL_HIT)
		put(b, " hit");
	if (lvl & LVL_MISS)
		put(b, " miss");
}

static void put_snoop(struct buf *b, uint64_t v)
{
	size_t start = b->len;
	int printed = put_bits(b, FIELD(v, 19, 5), snoop_access,
			       sizeof(snoop_access) / sizeof(snoop_access[0]), 0);

	(void)put_bits(b, FIELD(v, 38, 2), snoopx_access, 2, printed);
	if (b->len == start)
		put(b, "N/A");
}

static void put_tlb(struct buf *b, uint64_t v)
{
	unsigned m = FIELD(v, 26, 7);
	size_t start = b->len;

	put_bits(b, m & ~(unsigned)(TLB_HIT | TLB_MISS), tlb_access,
		 sizeof(tlb_access) / sizeof(tlb_access[0]), 0);
	if (b->len == start)
		put(b, "N/A");
	if (m & TLB_HIT)
		put(b, " hit");
	if (m & TLB_MISS)
		put(b, " miss");
}

static void put_blk(struct buf *b, unsigned blk)
{
	if (!blk || (blk & BLK_NA)) {
		put(b, " N/A");
		return;
	}
	if (blk & BLK_DATA)
		put(b, " Data");
	if (blk & BLK_ADDR)
		put(b, " Addr");
}

size_t data_src__scnprintf(char *out, size_t sz, uint64_t v)
{
	struct buf b = { .p = out, .sz = sz };
	unsigned lock = FIELD(v, 24, 2);

	if (!sz)
		return 0;
	out[0] = '\0';
	put(&b, "|OP ");
	put_op(&b, FIELD(v, 0, 5));
	put(&b, "|LVL ");
	put_lvl(&b, v);
	put(&b, "|SNP ");
	put_snoop(&b, v);
	put(&b, "|TLB ");
	put_tlb(&b, v);
	put(&b, "|LCK %s", (lock & LOCK_NA) ? "N/A" : (lock & LOCK_LOCKED) ? "Yes" : "No");
	put(&b, "|BLK ");
	put_blk(&b, FIELD(v, 40, 3));
	return b.len;
}
