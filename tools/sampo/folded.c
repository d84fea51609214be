// SPDX-License-Identifier: GPL-2.0
/*
 * folded.c - folded stacks, counted by distinct stack (see folded.h)
 *
 * Each sample's stack is built as one string, the way perf 6.1's
 * stackcollapse.py builds it: the comm (spaces made '_', with "-pid" and
 * "/tid" as asked), then the frames root first, each symbol name with ';'
 * made ':' ("[unknown]" when unresolved, "_[k]" after the kernel's with
 * --kernel), joined with ';'. Strings are kept in an open-addressing hash
 * table with their counts; the output is sorted by the bytes of the stack,
 * which is the code point order Python's sorted() gives for UTF-8 text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "folded.h"
#include "stack-table.h"

struct stack {
	struct stack_key k; /* first: a slot of the stack table */
	uint64_t count;
};

struct folded {
	struct folded_opts opts;

	/* the sample being built: its comm part and its frames, leaf first */
	char *cur;
	size_t cur_len, cur_cap;
	size_t comm_len;
	size_t *frame_off; /* start of each frame in cur, after the comm part */
	size_t nr_frames, cap_frames;
	char *key;
	size_t key_cap;
	bool oom;

	struct stack_table stacks; /* of struct stack */
};

int folded_new(const struct folded_opts *opts, struct folded **ret)
{
	struct folded *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	if (opts)
		f->opts = *opts;
	stack_table__init(&f->stacks, sizeof(struct stack));
	*ret = f;
	return 0;
}

void folded_delete(struct folded *f)
{
	if (!f)
		return;
	stack_table__release(&f->stacks);
	free(f->cur);
	free(f->frame_off);
	free(f->key);
	free(f);
}

static bool reserve(char **buf, size_t *cap, size_t need)
{
	char *p;
	size_t n;

	if (need <= *cap)
		return true;
	n = *cap ? *cap : 256;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n);
	if (!p)
		return false;
	*buf = p;
	*cap = n;
	return true;
}

static void put(struct folded *f, const char *s, size_t len)
{
	if (f->oom || !reserve(&f->cur, &f->cur_cap, f->cur_len + len + 1)) {
		f->oom = true;
		return;
	}
	memcpy(f->cur + f->cur_len, s, len);
	f->cur_len += len;
	f->cur[f->cur_len] = '\0';
}

static void put_int(struct folded *f, int32_t v)
{
	char buf[16];
	int n = snprintf(buf, sizeof(buf), "%" PRId32, v);

	put(f, buf, (size_t)n);
}

void folded_begin(struct folded *f, const char *comm, int32_t pid, int32_t tid)
{
	const char *sep = "-";

	f->cur_len = 0;
	f->nr_frames = 0;
	put(f, "", 0);
	if (!f->opts.no_comm) {
		size_t start = f->cur_len;

		put(f, comm, strlen(comm));
		if (!f->oom)
			for (size_t i = start; i < f->cur_len; i++)
				if (f->cur[i] == ' ')
					f->cur[i] = '_';
		if (f->opts.include_pid) {
			put(f, sep, 1);
			put_int(f, pid);
			sep = "/";
		}
		if (f->opts.include_tid) {
			put(f, sep, 1);
			put_int(f, tid);
		}
	}
	f->comm_len = f->cur_len;
}

void folded_frame(struct folded *f, const char *sym, bool kernel)
{
	size_t start, end;

	if (f->nr_frames == f->cap_frames) {
		size_t n = f->cap_frames ? 2 * f->cap_frames : 128;
		size_t *p = realloc(f->frame_off, n * sizeof(*p));

		if (!p) {
			f->oom = true;
			return;
		}
		f->frame_off = p;
		f->cap_frames = n;
	}
	/* each frame is stored NUL-terminated after the previous one */
	put(f, "", 1);
	start = f->cur_len;
	if (!sym)
		sym = "[unknown]";
	put(f, sym, strlen(sym));
	if (f->oom)
		return;
	end = f->cur_len;
	for (size_t i = start; i < end; i++)
		if (f->cur[i] == ';')
			f->cur[i] = ':';
	if (f->opts.tidy_java) {
		/* stackcollapse.py: drop '<' and '>', a leading 'L', the signature */
		size_t o = start;

		for (size_t i = start; i < end; i++)
			if (f->cur[i] != '<' && f->cur[i] != '>')
				f->cur[o++] = f->cur[i];
		end = o;
		if (end > start && f->cur[start] == 'L') {
			memmove(f->cur + start, f->cur + start + 1, end - start - 1);
			end--;
		}
		for (size_t i = start; i < end; i++)
			if (f->cur[i] == '(') {
				end = i;
				break;
			}
		f->cur_len = end;
		f->cur[end] = '\0';
	}
	if (kernel && f->opts.kernel)
		put(f, "_[k]", 4);
	if (!f->oom)
		f->frame_off[f->nr_frames++] = start;
}

int folded_end(struct folded *f, uint64_t count)
{
	size_t len = f->comm_len, o = 0;
	struct stack *st;
	bool added;

	if (f->oom)
		return -ENOMEM;
	/* the comm part, then the frames root first */
	for (size_t i = 0; i < f->nr_frames; i++)
		len += 1 + strlen(f->cur + f->frame_off[i]);
	if (!reserve(&f->key, &f->key_cap, len + 1))
		return -ENOMEM;
	memcpy(f->key, f->cur, f->comm_len);
	o = f->comm_len;
	for (size_t i = f->nr_frames; i-- > 0;) {
		const char *name = f->cur + f->frame_off[i];
		size_t n = strlen(name);

		/* ';'.join(): no separator before the first part, even an empty comm */
		if (i + 1 < f->nr_frames || !f->opts.no_comm)
			f->key[o++] = ';';
		memcpy(f->key + o, name, n);
		o += n;
	}
	f->key[o] = '\0';

	st = stack_table__add(&f->stacks, f->key, o, &added);
	if (!st)
		return -ENOMEM;
	st->count += count; /* a new slot's count is 0 */
	return 0;
}

int folded_write(struct folded *f, struct outbuf *ob)
{
	const void **v = stack_table__sorted(&f->stacks);

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < f->stacks.nr && !ob_error(ob); i++) {
		const struct stack *st = v[i];

		ob_puts(ob, st->k.key);
		ob_putc(ob, ' ');
		ob_dec_u64(ob, st->count);
		ob_putc(ob, '\n');
	}
	free(v);
	return 0;
}
