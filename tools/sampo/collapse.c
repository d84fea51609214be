// SPDX-License-Identifier: GPL-2.0
/*
 * collapse.c - stackcollapse-perf.pl's reading of `perf script` text (see
 * collapse.h)
 *
 * FlameGraph's stackcollapse-perf.pl (commit 41fee1f, 2024-10-21) reads the
 * text line by line with three Perl patterns. Each is matched here by hand,
 * with the outcome Perl's backtracking gives, so that odd text (a comm with
 * digits after a space, a DSO named "x (deleted)", a symbol with "->")
 * comes out as the script makes it:
 *
 * - a sample line, "^(\S.+?)\s+(\d+)[/]*(\d+)*\s+": the comm is the shortest
 *   start of at least two characters, the first not blank, that blanks,
 *   digits (the pid, or the tid when no '/' follows) and blanks follow,
 *   maybe with '/' and the tid after the digits. A tid missing or "0" makes
 *   the pid the tid and "?" the pid. The line's end, ":\s*(\d+)*\s+(\S+):\s*$",
 *   gives the period and the event when it ends with "PERIOD EVENT:"; the
 *   samples of other events than the chosen one (the first seen) are skipped.
 *   A period missing or "0" counts 1.
 * - a frame line, "^\s*(\w+)\s*(.+) \((.*)\)": the address, the function up
 *   to the last " (" that a ')' follows, the DSO up to the last ')'. Frames
 *   before the first sample line, or after a skipped one, are dropped.
 * - an empty line ends the stack: "comm;root;...;leaf" counted with the
 *   period. Lines starting with '#' are skipped; others are unrecognized.
 *
 * A frame's function loses a trailing "+0xHEX" (lowercase), is dropped if it
 * starts with '(', and is split at "->" (later parts marked "_[i]"). Then
 * "[unknown]" becomes "[DSO's base name]" ("[unknown]" when the DSO is
 * unknown too, with " <ADDRESS>" inside the brackets with --addrs); ';' is
 * made ':'; unless it looks like a Go method ("x.(*T).m"), everything from
 * the first '(' not opening "(anonymous namespace)" is cut; quotes are
 * dropped; in a comm starting with "java", a name with '/' loses a leading
 * 'L'. --kernel marks frames of a DSO named "[...]" or "...vmlinux" (not
 * "unknown") "_[k]"; --jit those of a "/tmp/perf-PID.map" "_[j]".
 *
 * Counts add up as Perl adds: unsigned 64-bit integers until a sum would
 * overflow, then doubles printed with 15 significant digits.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collapse.h"
#include "stack-table.h"

struct sbuf {
	char *p;
	size_t len, cap;
};

struct count {
	uint64_t uv;
	double nv;
	bool is_nv; /* past UINT64_MAX: Perl's NV */
};

struct stack {
	struct stack_key k; /* first: a slot of the stack table */
	struct count n;
};

struct collapse {
	struct collapse_opts opts;
	char *event;	      /* the event counted: the option's, or the first seen */
	bool event_defaulted; /* chosen as the first seen */
	char *skipped;	      /* the first other event seen, when defaulted */
	uint64_t unrecognized;
	bool oom;

	struct sbuf line; /* a line split between chunks */

	/* the sample being read */
	bool have_pname;
	struct sbuf pname;
	struct count period;
	struct sbuf frames;  /* its frames, each NUL-terminated, leaf group first */
	size_t *frame_off;   /* each frame's start in frames */
	size_t nr_frames, cap_frames;
	struct sbuf parts;   /* one line's frames, in order */
	size_t *part_off;
	size_t nr_parts, cap_parts;
	struct sbuf key;
	struct sbuf tmp;

	struct stack_table stacks; /* of struct stack */
};

/* ---- small helpers ------------------------------------------------------ */

static bool sb_reserve(struct collapse *c, struct sbuf *b, size_t add)
{
	size_t n;
	char *p;

	if (c->oom)
		return false;
	if (b->len + add + 1 <= b->cap)
		return true;
	n = b->cap ? b->cap : 128;
	while (n < b->len + add + 1)
		n *= 2;
	p = realloc(b->p, n);
	if (!p) {
		c->oom = true;
		return false;
	}
	b->p = p;
	b->cap = n;
	return true;
}

static void sb_add(struct collapse *c, struct sbuf *b, const char *s, size_t n)
{
	if (!sb_reserve(c, b, n))
		return;
	if (n)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_adds(struct collapse *c, struct sbuf *b, const char *s)
{
	sb_add(c, b, s, strlen(s));
}

static bool push_off(struct collapse *c, size_t **v, size_t *nr, size_t *cap, size_t off)
{
	if (c->oom)
		return false;
	if (*nr == *cap) {
		size_t n = *cap ? 2 * *cap : 64;
		size_t *p = realloc(*v, n * sizeof(*p));

		if (!p) {
			c->oom = true;
			return false;
		}
		*v = p;
		*cap = n;
	}
	(*v)[(*nr)++] = off;
	return true;
}

/* Perl's \s, \d and \w on bytes (no locale, no Unicode rules) */
static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool is_word(char ch)
{
	return is_digit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool contains(const char *s, size_t n, const char *what)
{
	size_t w = strlen(what);

	for (size_t i = 0; i + w <= n; i++)
		if (!memcmp(s + i, what, w))
			return true;
	return false;
}

/* a count as Perl's "$count" makes it from digits: "" or "0" is 1 (not $period) */
static struct count parse_count(const char *s, size_t n)
{
	struct count r = { .uv = 1 };
	char buf[512];

	if (n == 0 || (n == 1 && s[0] == '0'))
		return r;
	r.uv = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (r.uv > (UINT64_MAX - d) / 10) {
			/* past an unsigned 64-bit integer: Perl makes it a double */
			size_t k = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;

			memcpy(buf, s, k);
			buf[k] = '\0';
			r.is_nv = true;
			r.nv = strtod(buf, NULL);
			return r;
		}
		r.uv = r.uv * 10 + d;
	}
	return r;
}

static void count_add(struct count *to, const struct count *n)
{
	if (!to->is_nv && !n->is_nv) {
		if (to->uv <= UINT64_MAX - n->uv) {
			to->uv += n->uv;
			return;
		}
		to->nv = (double)to->uv;
		to->is_nv = true;
	} else if (!to->is_nv) {
		to->nv = (double)to->uv;
		to->is_nv = true;
	}
	to->nv += n->is_nv ? n->nv : (double)n->uv;
}

/* ---- the table of stacks ------------------------------------------------ */

static void remember(struct collapse *c, const char *key, size_t len, const struct count *n)
{
	struct stack *st;
	bool added;

	if (c->oom)
		return;
	st = stack_table__add(&c->stacks, key, len, &added);
	if (!st)
		c->oom = true;
	else if (added)
		st->n = *n;
	else
		count_add(&st->n, n);
}

/* ---- lines -------------------------------------------------------------- */

struct header {
	size_t comm_len;
	const char *pid, *tid; /* tid NULL: none */
	size_t pid_len, tid_len;
};

/* "^(\S.+?)\s+(\d+)[/]*(\d+)*\s+", the first (shortest) comm that works */
static bool match_header(const char *l, size_t n, struct header *h)
{
	if (n == 0 || is_space(l[0]))
		return false;
	for (size_t e = 2; e < n; e++) {
		size_t w = e, d, p, q;

		if (!is_space(l[e]))
			continue;
		while (w < n && is_space(l[w]))
			w++;
		if (w == n || !is_digit(l[w]))
			continue;
		for (d = w; d < n && is_digit(l[d]); d++)
			;
		*h = (struct header){ .comm_len = e, .pid = l + w, .pid_len = d - w };
		if (d < n && is_space(l[d]))
			return true;
		if (d == n || l[d] != '/')
			continue;
		for (p = d; p < n && l[p] == '/'; p++)
			;
		if (p < n && is_space(l[p]))
			return true;
		for (q = p; q < n && is_digit(l[q]); q++)
			;
		if (q > p && q < n && is_space(l[q])) {
			h->tid = l + p;
			h->tid_len = q - p;
			return true;
		}
	}
	return false;
}

/*
 * ":\s*(\d+)*\s+(\S+):\s*$": the event is the last word less its final ':',
 * after blanks, optional digits (the period) and blanks that follow a ':'
 */
static bool match_event(const char *l, size_t n, const char **ev, size_t *ev_len,
			const char **period, size_t *period_len)
{
	size_t end = n, s, k1, k2, k3;

	while (end > 0 && is_space(l[end - 1]))
		end--;
	if (end == 0 || l[end - 1] != ':')
		return false;
	for (s = end - 1; s > 0 && !is_space(l[s - 1]); s--)
		;
	if (s == 0 || s == end - 1)
		return false;
	for (k1 = s; k1 > 0 && is_space(l[k1 - 1]); k1--)
		;
	for (k2 = k1; k2 > 0 && is_digit(l[k2 - 1]); k2--)
		;
	for (k3 = k2; k3 > 0 && is_space(l[k3 - 1]); k3--)
		;
	if (k3 == 0 || l[k3 - 1] != ':')
		return false;
	*ev = l + s;
	*ev_len = end - 1 - s;
	*period = l + k2;
	*period_len = k1 - k2;
	return true;
}

struct frame_line {
	const char *pc, *func, *mod;
	size_t pc_len, func_len, mod_len;
};

/* "^\s*(\w+)\s*(.+) \((.*)\)" with Perl's greedy choices and backtracking */
static bool match_frame(const char *l, size_t n, struct frame_line *f)
{
	size_t p0 = 0, w1, s1, r, wlen, lastp, k;
	bool found = false;

	while (p0 < n && is_space(l[p0]))
		p0++;
	for (w1 = p0; w1 < n && is_word(l[w1]); w1++)
		;
	if (w1 == p0)
		return false;
	for (lastp = n; lastp > 0 && l[lastp - 1] != ')'; lastp--)
		;
	if (lastp == 0)
		return false;
	lastp--; /* the last ')' */
	/* the last " (" with a ')' after it */
	for (k = lastp >= 2 ? lastp - 2 + 1 : 0; k-- > 0;) {
		if (l[k] == ' ' && l[k + 1] == '(') {
			found = true;
			break;
		}
	}
	if (!found || k == 0)
		return false;
	/* (.+) starts at r and needs a character before " (" */
	for (s1 = w1; s1 < n && is_space(l[s1]); s1++)
		;
	wlen = w1 - p0;
	if (s1 <= k - 1) {
		r = s1;
	} else if (w1 <= k - 1) {
		r = k - 1;
	} else {
		/* a shorter address; no blanks can follow it */
		if (k - 1 < p0 + 1)
			return false;
		wlen = k - 1 - p0 < wlen - 1 ? k - 1 - p0 : wlen - 1;
		if (wlen == 0)
			return false;
		r = p0 + wlen;
	}
	*f = (struct frame_line){ .pc = l + p0, .pc_len = wlen, .func = l + r, .func_len = k - r,
				  .mod = l + k + 2, .mod_len = lastp - (k + 2) };
	return true;
}

/* one part of a frame's function, tidied and marked, into c->tmp */
static void frame_part(struct collapse *c, const struct frame_line *f, const char *s, size_t n,
		       bool first)
{
	struct sbuf *t = &c->tmp;
	size_t i, o;

	t->len = 0;
	sb_add(c, t, "", 0);
	if (n == 9 && !memcmp(s, "[unknown]", 9)) {
		const char *base = "unknown";
		size_t blen = 7;

		if (!(f->mod_len == 9 && !memcmp(f->mod, "[unknown]", 9))) {
			base = f->mod;
			blen = f->mod_len;
			for (i = f->mod_len; i > 0; i--) {
				if (f->mod[i - 1] == '/') {
					base = f->mod + i;
					blen = f->mod_len - i;
					break;
				}
			}
		}
		sb_add(c, t, "[", 1);
		sb_add(c, t, base, blen);
		if (c->opts.addrs) {
			sb_add(c, t, " <", 2);
			sb_add(c, t, f->pc, f->pc_len);
			sb_add(c, t, ">", 1);
		}
		sb_add(c, t, "]", 1);
	} else {
		sb_add(c, t, s, n);
	}
	if (c->oom)
		return;
	for (i = 0; i < t->len; i++)
		if (t->p[i] == ';')
			t->p[i] = ':';
	/* not a Go method ("net/http.(*Client).Do"): cut at the first '(' */
	{
		bool go = false;

		for (i = 0; i + 1 < t->len && !go; i++) {
			if (t->p[i] == '.' && t->p[i + 1] == '(') {
				for (size_t j = i + 2; j + 1 < t->len; j++) {
					if (t->p[j] == ')' && t->p[j + 1] == '.') {
						go = true;
						break;
					}
				}
				break;
			}
		}
		if (!go) {
			for (i = 0; i < t->len; i++) {
				if (t->p[i] == '(' &&
				    !(t->len - i - 1 >= 20 &&
				      !memcmp(t->p + i + 1, "anonymous namespace)", 20))) {
					t->len = i;
					break;
				}
			}
		}
	}
	for (i = 0, o = 0; i < t->len; i++)
		if (t->p[i] != '"' && t->p[i] != '\'')
			t->p[o++] = t->p[i];
	t->len = o;
	t->p[o] = '\0';
	if (c->pname.len >= 4 && !memcmp(c->pname.p, "java", 4) && t->len &&
	    memchr(t->p, '/', t->len) && t->p[0] == 'L') {
		memmove(t->p, t->p + 1, t->len);
		t->len--;
	}
	if (!first) {
		if (!contains(t->p, t->len, "_[i]"))
			sb_adds(c, t, "_[i]");
	} else if (c->opts.kernel &&
		   ((f->mod_len && f->mod[0] == '[') ||
		    (f->mod_len >= 7 && !memcmp(f->mod + f->mod_len - 7, "vmlinux", 7))) &&
		   !contains(f->mod, f->mod_len, "unknown")) {
		sb_adds(c, t, "_[k]");
	} else if (c->opts.jit && !contains(t->p, t->len, "_[j]")) {
		/* the DSO names /tmp/perf-DIGITS.map somewhere */
		for (i = 0; i + 10 <= f->mod_len; i++) {
			size_t j = i + 10;

			if (memcmp(f->mod + i, "/tmp/perf-", 10))
				continue;
			while (j < f->mod_len && is_digit(f->mod[j]))
				j++;
			if (j > i + 10 && j + 4 <= f->mod_len && !memcmp(f->mod + j, ".map", 4)) {
				sb_adds(c, t, "_[j]");
				break;
			}
		}
	}
}

static void frame(struct collapse *c, const struct frame_line *f)
{
	const char *s = f->func;
	size_t n = f->func_len, start, i;

	/* a trailing "+0xHEX" offset */
	for (i = n; i >= 3; i--) {
		if (!memcmp(s + i - 3, "+0x", 3)) {
			size_t j = i;

			while (j < n && (is_digit(s[j]) || (s[j] >= 'a' && s[j] <= 'f')))
				j++;
			if (j == n && j > i)
				n = i - 3;
			break;
		}
	}
	if (n && s[0] == '(')
		return;
	/* Perl's split /->/ drops trailing empty parts: a trailing "->" each */
	while (n >= 2 && s[n - 2] == '-' && s[n - 1] == '>')
		n -= 2;
	if (n == 0)
		return;
	c->parts.len = 0;
	c->nr_parts = 0;
	start = 0;
	for (i = 0; i <= n; i++) {
		if (i < n && !(s[i] == '-' && i + 1 < n && s[i + 1] == '>'))
			continue;
		if (!push_off(c, &c->part_off, &c->nr_parts, &c->cap_parts, c->parts.len))
			return;
		frame_part(c, f, s + start, i - start, c->nr_parts == 1);
		sb_add(c, &c->parts, c->tmp.p, c->tmp.len);
		sb_add(c, &c->parts, "", 1);
		i++; /* past the '>' */
		start = i + 1;
	}
	if (c->oom)
		return;
	/* stored leaf group first, each group backwards: read backwards, root first */
	for (i = c->nr_parts; i-- > 0;) {
		if (!push_off(c, &c->frame_off, &c->nr_frames, &c->cap_frames, c->frames.len))
			return;
		sb_adds(c, &c->frames, c->parts.p + c->part_off[i]);
		sb_add(c, &c->frames, "", 1);
	}
}

static void end_stack(struct collapse *c)
{
	struct sbuf *k = &c->key;

	k->len = 0;
	sb_add(c, k, c->pname.p, c->pname.len);
	for (size_t i = c->nr_frames; i-- > 0;) {
		sb_add(c, k, ";", 1);
		sb_adds(c, k, c->frames.p + c->frame_off[i]);
	}
	if (!c->oom)
		remember(c, k->p, k->len, &c->period);
	c->frames.len = 0;
	c->nr_frames = 0;
	c->have_pname = false;
}

static void sample_line(struct collapse *c, const char *l, size_t n, const struct header *h)
{
	const char *ev, *period = NULL, *pid = h->pid, *tid = h->tid;
	size_t ev_len, period_len = 0, pid_len = h->pid_len, tid_len = h->tid_len;

	if (!tid || (tid_len == 1 && tid[0] == '0')) {
		tid = pid;
		tid_len = pid_len;
		pid = "?";
		pid_len = 1;
	}
	if (match_event(l, n, &ev, &ev_len, &period, &period_len)) {
		if (!c->event) {
			c->event = strndup(ev, ev_len);
			if (!c->event) {
				c->oom = true;
				return;
			}
			c->event_defaulted = true;
		} else if (strlen(c->event) != ev_len || memcmp(c->event, ev, ev_len)) {
			if (c->event_defaulted && !c->skipped) {
				c->skipped = strndup(ev, ev_len);
				if (!c->skipped)
					c->oom = true;
			}
			return;
		}
	}
	c->period = parse_count(period, period_len);
	c->pname.len = 0;
	sb_add(c, &c->pname, l, h->comm_len);
	if (c->opts.tid || c->opts.pid) {
		sb_add(c, &c->pname, "-", 1);
		sb_add(c, &c->pname, pid, pid_len);
	}
	if (c->opts.tid) {
		sb_add(c, &c->pname, "/", 1);
		sb_add(c, &c->pname, tid, tid_len);
	}
	if (c->oom)
		return;
	for (size_t i = 0; i < c->pname.len; i++)
		if (c->pname.p[i] == ' ')
			c->pname.p[i] = '_';
	c->have_pname = true;
}

static void collapse_line(struct collapse *c, const char *l, size_t n)
{
	struct header h;
	struct frame_line f;

	if (n && l[0] == '#')
		return;
	if (n == 0) {
		if (c->have_pname)
			end_stack(c);
		return;
	}
	if (match_header(l, n, &h))
		sample_line(c, l, n, &h);
	else if (match_frame(l, n, &f)) {
		if (c->have_pname)
			frame(c, &f);
	} else {
		c->unrecognized++;
	}
}

/* ---- the interface ------------------------------------------------------ */

int collapse_new(const struct collapse_opts *opts, struct collapse **ret)
{
	struct collapse *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	if (opts)
		c->opts = *opts;
	stack_table__init(&c->stacks, sizeof(struct stack));
	if (c->opts.event_filter && *c->opts.event_filter) {
		c->event = strdup(c->opts.event_filter);
		if (!c->event) {
			free(c);
			return -ENOMEM;
		}
	}
	*ret = c;
	return 0;
}

void collapse_delete(struct collapse *c)
{
	if (!c)
		return;
	stack_table__release(&c->stacks);
	free(c->event);
	free(c->skipped);
	free(c->line.p);
	free(c->pname.p);
	free(c->frames.p);
	free(c->frame_off);
	free(c->parts.p);
	free(c->part_off);
	free(c->key.p);
	free(c->tmp.p);
	free(c);
}

int collapse_feed(struct collapse *c, const char *data, size_t len)
{
	while (len > 0 && !c->oom) {
		const char *nl = memchr(data, '\n', len);
		size_t n;

		if (!nl) {
			sb_add(c, &c->line, data, len);
			break;
		}
		n = (size_t)(nl - data);
		if (c->line.len) {
			sb_add(c, &c->line, data, n);
			if (!c->oom)
				collapse_line(c, c->line.p, c->line.len);
			c->line.len = 0;
		} else {
			collapse_line(c, data, n);
		}
		data += n + 1;
		len -= n + 1;
	}
	return c->oom ? -ENOMEM : 0;
}

int collapse_sink(void *c, const char *data, size_t len)
{
	return collapse_feed(c, data, len);
}

int collapse_finish(struct collapse *c)
{
	if (c->line.len && !c->oom) {
		collapse_line(c, c->line.p, c->line.len);
		c->line.len = 0;
	}
	return c->oom ? -ENOMEM : 0;
}

int collapse_write(struct collapse *c, struct outbuf *ob)
{
	const void **v;

	if (c->oom)
		return -ENOMEM;
	v = stack_table__sorted(&c->stacks);
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < c->stacks.nr && !ob_error(ob); i++) {
		const struct stack *st = v[i];

		ob_puts(ob, st->k.key);
		ob_putc(ob, ' ');
		if (st->n.is_nv)
			ob_printf(ob, "%.15g", st->n.nv);
		else
			ob_dec_u64(ob, st->n.uv);
		ob_putc(ob, '\n');
	}
	free(v);
	return 0;
}

const char *collapse_skipped_event(const struct collapse *c, const char **kept)
{
	*kept = c->event;
	return c->skipped;
}

uint64_t collapse_unrecognized(const struct collapse *c)
{
	return c->unrecognized;
}
