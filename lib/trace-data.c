// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-data.c - the tracing data of a recording (include/sampo/trace-data.h),
 * read into a libtraceevent handle in perf's order (trace-event-read.c:
 * header page, header event, ftrace formats, event formats, kallsyms, printk
 * formats, saved cmdlines), every length checked against the bytes left.
 *
 * libtraceevent trusts the formats it parsed when it prints a record: a
 * field's offset, a dynamic array's 16-bit offset and length, a string read
 * up to its NUL. So an event whose fields reach past FIELD_LIMIT is not
 * used, and a sample's raw data is printed from a copy followed by zeros as
 * far as any field or dynamic array can reach: hostile raw data then reads
 * zeros, never past the buffer. (libtraceevent cannot forget an event: the
 * fields of one that reach too far are emptied, and the reading stops.)
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include <sampo/trace-data.h>

#include "internal/trace-data.h"

/* no field of a kept event ends past this offset in the raw data */
#define FIELD_LIMIT 0x10000
/* the zeros after a copy of raw data: a field, then a dynamic array (offset, length: 16 bits each) */
#define RAW_PAD (FIELD_LIMIT + 0x20000)

struct name_slot {
	int id;
	char *name;
};

struct sampo_trace_data {
	struct tep_handle *tep;
	size_t nr_events;
	struct name_slot *names; /* "system:name", made when asked */
	size_t nr_names;
	sampo_trace_func_fn resolve;
	void *resolve_priv;
	uint8_t *raw; /* a copy of the raw data, with RAW_PAD zeros after it */
	size_t raw_cap;
};

struct cursor {
	const uint8_t *p;
	size_t len, pos;
	bool big_endian;
	char *errbuf;
	size_t errbuf_sz;
	size_t err_pos;
};

static int fail(struct cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct cursor *c, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->errbuf && c->errbuf_sz)
		snprintf(c->errbuf, c->errbuf_sz, "%s", msg);
	c->err_pos = c->pos;
	return -SAMPO_ERR_MALFORMED;
}

static int take(struct cursor *c, size_t n, const uint8_t **ret, const char *what)
{
	if (n > c->len - c->pos)
		return fail(c, "%s of %zu bytes, %zu left", what, n, c->len - c->pos);
	*ret = c->p + c->pos;
	c->pos += n;
	return 0;
}

static int take_num(struct cursor *c, size_t n, uint64_t *ret, const char *what)
{
	const uint8_t *b = NULL;
	uint64_t v = 0;
	int err = take(c, n, &b, what);

	if (err || !b)
		return err ? err : -SAMPO_ERR_MALFORMED;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)b[c->big_endian ? i : n - 1 - i] << (8 * (n - 1 - i));
	*ret = v;
	return 0;
}

/* a u64 (or u32) size then that many bytes */
static int take_sized(struct cursor *c, size_t size_len, const uint8_t **ret, size_t *ret_len,
		      const char *what)
{
	size_t at = c->pos;
	uint64_t n;
	int err = take_num(c, size_len, &n, what);

	if (err)
		return err;
	if (n > c->len - c->pos) {
		c->pos = at;
		return fail(c, "%s of %llu bytes, %zu left", what, (unsigned long long)n,
			    c->len - c->pos - size_len);
	}
	*ret_len = (size_t)n;
	return take(c, (size_t)n, ret, what);
}

static int take_string(struct cursor *c, const char **ret, const char *what)
{
	const void *nul = memchr(c->p + c->pos, 0, c->len - c->pos);

	if (!nul)
		return fail(c, "%s without its terminating NUL", what);
	*ret = (const char *)c->p + c->pos;
	c->pos = (size_t)((const uint8_t *)nul - c->p) + 1;
	return 0;
}

static int take_tag(struct cursor *c, const char *tag, size_t n)
{
	const uint8_t *b = NULL;

	if (take(c, n, &b, tag) || !b)
		return -SAMPO_ERR_MALFORMED;
	if (memcmp(b, tag, n)) {
		c->pos -= n;
		return fail(c, "no '%s' tag", tag);
	}
	return 0;
}

/* a NUL-terminated copy, for the parsers that read up to a NUL */
static char *dup_text(const uint8_t *b, size_t n)
{
	char *s = calloc(1, n + 1);

	if (s && b && n)
		memcpy(s, b, n);
	return s;
}

static bool field_bounded(const struct tep_format_field *f)
{
	return f->offset >= 0 && f->size >= 0 && f->offset <= FIELD_LIMIT &&
	       f->size <= FIELD_LIMIT - f->offset;
}

/*
 * Whether a field of @ev ends past FIELD_LIMIT. libtraceevent keeps every
 * event it has parsed (it has no call to forget one), and reads a record
 * through the fields of the event the record's common_type names, whichever
 * event was asked for: so such fields are made empty (offset 0, size 0),
 * and a record of @ev, or one that claims to be, reads nothing through them
 */
static bool empty_unbounded_fields(struct tep_event *ev)
{
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };
	bool emptied = false;

	for (int l = 0; l < 2; l++) {
		for (struct tep_format_field *f = lists[l]; f; f = f->next) {
			if (!field_bounded(f)) {
				f->offset = 0;
				f->size = 0;
				emptied = true;
			}
		}
	}
	return emptied;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* @text has a "field:TYPE NAME[...];" line for the @len bytes at @name */
static bool has_field(const char *text, const char *name, size_t len)
{
	for (const char *p = strstr(text, "field:"); p; p = strstr(p + 1, "field:")) {
		const char *end = strchr(p, ';'), *b;

		if (!end)
			return false;
		/* "char comm[16]": the name before the brackets */
		if (end > p && end[-1] == ']') {
			while (end > p && *end != '[')
				end--;
		}
		b = end;
		while (b > p && ident_char(b[-1]))
			b--;
		if ((size_t)(end - b) == len && !memcmp(b, name, len))
			return true;
	}
	return false;
}

/*
 * every REC->name of the print format names a field: libtraceevent 1.7
 * dereferences the field it did not find in some helpers (__print_symbolic)
 */
static bool fields_known(const char *text)
{
	const char *fmt = strstr(text, "print fmt:");

	for (const char *p = fmt ? strstr(fmt, "REC->") : NULL; p; p = strstr(p + 1, "REC->")) {
		const char *name = p + 5;
		size_t len = 0;

		while (ident_char(name[len]))
			len++;
		if (!has_field(text, name, len))
			return false;
	}
	return true;
}

/* @p starts with @word then a decimal number then ';': past it, or NULL */
static const char *skip_num(const char *p, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(p, word, n))
		return NULL;
	p += n;
	if (*p == '-')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == ';' ? p + 1 : NULL;
}

/* "\tfield:TYPE NAME;\toffset:N;\tsize:N;[\tsigned:N;]" with TYPE NAME of balanced brackets */
static bool field_line(const char *p, const char *end)
{
	const char *semi;
	int depth = 0;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (strncmp(p, "field:", 6))
		return false;
	p += 6;
	semi = memchr(p, ';', (size_t)(end - p));
	if (!semi || semi == p)
		return false;
	for (const char *q = p; q < semi; q++) {
		if (*q == '[') {
			depth++;
		} else if (*q == ']') {
			if (--depth < 0)
				return false;
		} else if (!ident_char(*q) && *q != ' ' && *q != '*' && *q != '(' && *q != ')' &&
			 *q != ',')
			return false;
	}
	if (depth || !ident_char(semi[-1] == ']' ? 'a' : semi[-1]))
		return false;
	p = semi + 1;
	while (p < end && *p == '\t')
		p++;
	p = skip_num(p, "offset:");
	while (p && p < end && *p == '\t')
		p++;
	p = p ? skip_num(p, "size:") : NULL;
	while (p && p < end && *p == '\t')
		p++;
	if (p && p < end)
		p = skip_num(p, "signed:");
	return p && p <= end;
}

/*
 * the print format's quotes and parentheses close, so its parser never meets
 * the end inside them, and nothing follows it
 */
static bool print_fmt_closed(const char *p)
{
	int depth = 0;
	bool quoted = false;

	for (; *p; p++) {
		if (quoted) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				quoted = false;
		} else if (*p == '"') {
			quoted = true;
		} else if (*p == '\n') {
			/* one line but in its strings, as the kernel writes it */
			return !p[strspn(p, " \t\n")] && !depth;
		} else if (*p == '(' || *p == '{' || *p == '[') {
			depth++;
		} else if ((*p == ')' || *p == '}' || *p == ']') && --depth < 0) {
			return false;
		}
	}
	return !quoted && !depth;
}

/*
 * the format has the kernel's shape: "name: N", "ID: N", "format:", field
 * lines, "print fmt: ..." on one line, closed. libtraceevent 1.7 reads a format cut short
 * inside a field's type past a NULL, so nothing else is given to it.
 */
static bool format_shaped(const char *text)
{
	const char *p = text, *fmt;

	if (strncmp(p, "name: ", 6) || !ident_char(p[6]))
		return false;
	p = strchr(p, '\n');
	if (!p || strncmp(p + 1, "ID: ", 4) || p[5] < '0' || p[5] > '9')
		return false;
	p = strchr(p + 1, '\n');
	if (!p || strncmp(p + 1, "format:\n", 8))
		return false;
	p += 9;
	fmt = strstr(p, "\nprint fmt: ");
	if (!fmt)
		return false;
	while (p < fmt) {
		const char *nl = memchr(p, '\n', (size_t)(fmt - p));
		const char *end = nl ? nl : fmt;

		if (end > p && !field_line(p, end))
			return false;
		p = end + 1;
	}
	return print_fmt_closed(fmt + 12);
}

/*
 * one event format: parsed, kept when its fields are bounded (an event
 * libtraceevent parses in part is kept as it is, as perf keeps it)
 */
static int parse_event(struct sampo_trace_data *td, struct cursor *c, const uint8_t *b, size_t n,
		       const char *sys)
{
	struct tep_event *ev = NULL;
	char *text = dup_text(b, n);
	enum tep_errno err;

	if (!text)
		return -ENOMEM;
	if (!format_shaped(text) || !fields_known(text)) {
		free(text);
		return 0; /* not given to libtraceevent: its samples print no trace */
	}
	err = tep_parse_format(td->tep, &ev, text, n, sys);
	free(text);
	if (err == TEP_ERRNO__MEM_ALLOC_FAILED)
		return -ENOMEM;
	if (!ev)
		return 0; /* not parsed: its samples print no trace */
	if (empty_unbounded_fields(ev)) {
		c->pos -= n;
		return fail(c, "event format '%s:%s' has a field past %#x bytes", sys,
			    ev->name ? ev->name : "?", FIELD_LIMIT);
	}
	td->nr_events++;
	return 0;
}

/*
 * the printk formats, "ADDR : \"fmt\"" a line (perf's parse_ftrace_printk(),
 * without reading past a line that ends at its colon)
 */
static void parse_printk(struct sampo_trace_data *td, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':'), *fmt;
		unsigned long long addr;

		if (!colon)
			continue;
		*colon = 0;
		addr = strtoull(line, NULL, 16);
		fmt = colon + 1;
		if (*fmt == ' ')
			fmt++;
		/*
		 * libtraceevent 1.7 looks 3 bytes back from the end of the format
		 * (past its opening quote) for a closing quote and a "\\n":
		 * shorter ones are left out
		 */
		if (strlen(fmt) - (*fmt == '"') >= 3)
			(void)tep_register_print_string(td->tep, fmt, addr);
	}
}

/* the saved cmdlines, "PID COMM" a line (perf's parse_saved_cmdline()) */
static void parse_cmdlines(struct sampo_trace_data *td, char *text)
{
	char *save = NULL;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char comm[64];
		int pid;

		if (sscanf(line, "%d %63s", &pid, comm) == 2)
			(void)tep_register_comm(td->tep, comm, pid);
	}
}

static int parse_all(struct sampo_trace_data *td, struct cursor *c)
{
	static const uint8_t magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint8_t *b = NULL;
	const char *version = "", *sys = "";
	uint64_t v, count;
	size_t n = 0;
	int err, long_size;
	char *text;

	if (take(c, sizeof(magic), &b, "magic") || !b)
		return -SAMPO_ERR_MALFORMED;
	if (memcmp(b, magic, sizeof(magic))) {
		c->pos = 0;
		return fail(c, "not tracing data (no \"\\027\\010\\104tracing\" magic)");
	}
	err = take_string(c, &version, "version");
	if (!err)
		err = take(c, 1, &b, "byte order");
	if (err || !b)
		return err ? err : -SAMPO_ERR_MALFORMED;
	c->big_endian = b[0] != 0;
	tep_set_file_bigendian(td->tep, c->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(td->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
						 TEP_BIG_ENDIAN :
						 TEP_LITTLE_ENDIAN);
	tep_set_flag(td->tep, TEP_NSEC_OUTPUT);
	err = take(c, 1, &b, "long size");
	if (err || !b)
		return err ? err : -SAMPO_ERR_MALFORMED;
	long_size = b[0];
	err = take_num(c, 4, &v, "page size");
	if (err)
		return err;
	if (!v || v > (1u << 30))
		return fail(c, "page size %llu", (unsigned long long)v);
	if (long_size != 4 && long_size != 8)
		return fail(c, "long size %d", long_size);
	tep_set_long_size(td->tep, long_size);
	tep_set_page_size(td->tep, (int)v);

	/* the header page: its commit field's size is the kernel's long */
	err = take_tag(c, "header_page", 12);
	if (!err)
		err = take_sized(c, 8, &b, &n, "header page");
	if (err)
		return err;
	text = dup_text(b, n);
	if (!text)
		return -ENOMEM;
	if (!tep_parse_header_page(td->tep, text, n, long_size)) {
		int hp = tep_get_header_page_size(td->tep);

		if (hp == 4 || hp == 8)
			tep_set_long_size(td->tep, hp);
	}
	free(text);
	err = take_tag(c, "header_event", 13);
	if (!err)
		err = take_sized(c, 8, &b, &n, "header event");
	if (err)
		return err;

	/* ftrace's own formats, then each system's */
	err = take_num(c, 4, &count, "number of ftrace formats");
	for (uint64_t i = 0; !err && i < count; i++) {
		err = take_sized(c, 8, &b, &n, "ftrace format");
		if (!err)
			err = parse_event(td, c, b, n, "ftrace");
	}
	if (err)
		return err;
	err = take_num(c, 4, &count, "number of systems");
	for (uint64_t i = 0; !err && i < count; i++) {
		uint64_t nr;

		err = take_string(c, &sys, "system name");
		if (!err)
			err = take_num(c, 4, &nr, "number of formats");
		for (uint64_t j = 0; !err && j < nr; j++) {
			err = take_sized(c, 8, &b, &n, "event format");
			if (!err)
				err = parse_event(td, c, b, n, sys);
		}
	}
	if (err)
		return err;

	/* kallsyms: skipped, as perf does now; then the printk formats */
	err = take_sized(c, 4, &b, &n, "kallsyms");
	if (!err)
		err = take_sized(c, 4, &b, &n, "printk formats");
	if (err)
		return err;
	if (n) {
		text = dup_text(b, n);
		if (!text)
			return -ENOMEM;
		parse_printk(td, text);
		free(text);
	}
	if (strtod(version, NULL) < 0.6)
		return 0;
	err = take_sized(c, 8, &b, &n, "saved cmdlines");
	if (err)
		return err;
	if (n) {
		text = dup_text(b, n);
		if (!text)
			return -ENOMEM;
		parse_cmdlines(td, text);
		free(text);
	}
	return 0;
}

/*
 * libtraceevent 1.7's format parser crashes on some hostile formats (a read
 * through NULL, a division by zero: fuzz-trace-data finds new ones within
 * seconds) that no check of their shape rules out one by one, and perf 6.1
 * crashes with it. So the tracing data is first parsed in a child process,
 * its output closed; only when the child lives are the formats parsed here.
 *
 * The child is a fork() when this process has one thread (the unit tests: a
 * millisecond). With more threads a fork's child may find a lock held for
 * good by a thread that is not there any more: the sanitizers' allocator
 * (GCC 12's ASan has no fork handler) deadlocked it in malloc() while
 * report's loader threads allocated. Then the child is this program started
 * again (/proc/self/exe, posix_spawn()): the constructor below sees
 * CHECK_ENV, parses the data from the descriptor it names and exits with
 * CHECK_LIVED before main() runs. Any other exit (a program that is not
 * linked with this file, as when libsampo.so was dlopen'ed) falls back to the
 * fork.
 */
#define CHECK_ENV    "SAMPO_TRACE_DATA_CHECK"
#define CHECK_FD     3	 /* the child's descriptor of the data */
#define CHECK_LIVED  117 /* the child's exit status when the parse returned */

static atomic_ulong nr_spawned; /* children started with posix_spawn(): the tests' view */

/* the child's work: parse, then exit with CHECK_LIVED (a crash kills it first) */
static void __attribute__((noreturn)) check_and_exit(const void *buf, size_t size, int lived)
{
	struct cursor c = { .p = buf, .len = size };
	struct sampo_trace_data td = { 0 };

	tep_set_loglevel(TEP_LOG_NONE);
	td.tep = tep_alloc();
	if (td.tep)
		parse_all(&td, &c);
	_exit(lived);
}

/* the spawned child, before main(): "CHECK_ENV=fd:size" */
static void __attribute__((constructor)) trace_data_check_entry(void)
{
	const char *v = getenv(CHECK_ENV);
	unsigned long long size;
	void *p;
	int fd;

	if (!v || sscanf(v, "%d:%llu", &fd, &size) != 2 || fd != CHECK_FD || size > SIZE_MAX)
		return;
	p = size ? mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
	if (p == MAP_FAILED)
		_exit(1);
	check_and_exit(p, (size_t)size, CHECK_LIVED);
}

/* whether this process runs more than one thread (/proc/self/stat's num_threads) */
static bool threaded(void)
{
	char buf[1024], *p;
	ssize_t n;
	long nr = 0;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return true; /* cannot tell: assume the worst */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = 0;
	/* after "pid (comm)": state is field 3, num_threads field 20 */
	p = strrchr(buf, ')');
	for (int field = 2; p && field < 20; field++)
		p = strchr(p + 1, ' ');
	if (p)
		nr = strtol(p + 1, NULL, 10);
	return nr != 1;
}

/*
 * Parse @buf in this program started again. Return: 1 the child lived, 0 it
 * died (a crash), -1 no answer (no /proc, no memfd, not our program): fork
 * instead.
 */
static int parses_in_new_process(const void *buf, size_t size)
{
	extern char **environ;
	posix_spawn_file_actions_t fa;
	char var[64], *argv[] = { "sampo-trace-data-check", NULL }, **envp;
	size_t nr_env = 0, done = 0;
	int fd, status = 0, ret = -1;
	pid_t pid;

	fd = memfd_create("sampo-trace-data", MFD_CLOEXEC);
	if (fd == CHECK_FD) { /* dup2() onto itself would keep FD_CLOEXEC */
		int moved = fcntl(fd, F_DUPFD_CLOEXEC, CHECK_FD + 1);

		close(fd);
		fd = moved;
	}
	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = write(fd, (const char *)buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	while (environ && environ[nr_env])
		nr_env++;
	envp = malloc((nr_env + 2) * sizeof(*envp));
	if (!envp) {
		close(fd);
		return -1;
	}
	for (size_t i = 0; i < nr_env; i++)
		envp[i] = environ[i];
	snprintf(var, sizeof(var), CHECK_ENV "=%d:%zu", CHECK_FD, size);
	envp[nr_env] = var;
	envp[nr_env + 1] = NULL;
	if (!posix_spawn_file_actions_init(&fa)) {
		if (!posix_spawn_file_actions_adddup2(&fa, fd, CHECK_FD) &&
		    !posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0) &&
		    !posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0) &&
		    !posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0) &&
		    !posix_spawn(&pid, "/proc/self/exe", &fa, NULL, argv, envp)) {
			atomic_fetch_add(&nr_spawned, 1);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			if (WIFSIGNALED(status))
				ret = 0;
			else if (WIFEXITED(status) && WEXITSTATUS(status) == CHECK_LIVED)
				ret = 1;
		}
		posix_spawn_file_actions_destroy(&fa);
	}
	free(envp);
	close(fd);
	return ret;
}

static bool parses_in_child(const void *buf, size_t size)
{
	int status = 0;
	pid_t pid;

	if (threaded()) {
		int lived = parses_in_new_process(buf, size);

		if (lived >= 0)
			return lived;
	}
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP };
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);

		/* a sanitizer's report of the crash is not the user's business */
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		/*
		 * a crash ends the child: the program's own handlers (a test
		 * framework's jumps back into its tests) must not run the
		 * program on in it
		 */
		for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		check_and_exit(buf, size, 0);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return false;
	}
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

unsigned long sampo_trace_data__nr_spawned(void)
{
	return atomic_load(&nr_spawned);
}

int sampo_trace_data__parse(const void *buf, size_t size, struct sampo_trace_data **ret,
			    size_t *err_offset, char *errbuf, size_t errbuf_sz)
{
	struct cursor c = { .p = buf ? buf : (const void *)"", .len = buf ? size : 0, .errbuf = errbuf,
			    .errbuf_sz = errbuf_sz };
	struct sampo_trace_data *td;
	int err;

	*ret = NULL;
	if (errbuf && errbuf_sz)
		errbuf[0] = 0;
	td = calloc(1, sizeof(*td));
	if (!td)
		return -ENOMEM;
	/* libtraceevent says nothing on stderr: damage is ours to tell */
	tep_set_loglevel(TEP_LOG_NONE);
	td->tep = tep_alloc();
	if (!td->tep) {
		free(td);
		return -ENOMEM;
	}
	if (c.len && !parses_in_child(c.p, c.len))
		err = fail(&c, "libtraceevent cannot parse these event formats (it crashed on them); "
			       "tracepoint samples get no trace output");
	else
		err = parse_all(td, &c);
	if (err_offset)
		*err_offset = c.err_pos;
	if (err == -ENOMEM) {
		sampo_trace_data__delete(td);
		return err;
	}
	*ret = td;
	return err;
}

void sampo_trace_data__delete(struct sampo_trace_data *td)
{
	if (!td)
		return;
	for (size_t i = 0; i < td->nr_names; i++)
		free(td->names[i].name);
	free(td->names);
	free(td->raw);
	tep_free(td->tep);
	free(td);
}

size_t sampo_trace_data__nr_events(const struct sampo_trace_data *td)
{
	return td ? td->nr_events : 0;
}

/* libtraceevent's function resolver over the caller's */
static char *resolve_func(void *priv, unsigned long long *addrp, char **modp)
{
	struct sampo_trace_data *td = priv;
	uint64_t start = *addrp;
	const char *name;

	*modp = NULL;
	if (!td->resolve)
		return NULL;
	name = td->resolve(td->resolve_priv, *addrp, &start);
	if (!name)
		return NULL;
	*addrp = start;
	return (char *)(uintptr_t)name; /* libtraceevent only reads it */
}

void sampo_trace_data__set_resolver(struct sampo_trace_data *td, sampo_trace_func_fn fn,
				    void *priv)
{
	if (!td)
		return;
	td->resolve = fn;
	td->resolve_priv = priv;
	if (fn)
		(void)tep_set_function_resolver(td->tep, resolve_func, td);
	else
		tep_reset_function_resolver(td->tep);
}

static struct tep_event *find_event(struct sampo_trace_data *td, uint64_t config)
{
	if (!td || config > (uint64_t)INT32_MAX)
		return NULL;
	return tep_find_event(td->tep, (int)config);
}

const char *sampo_trace_data__event_name(struct sampo_trace_data *td, uint64_t config)
{
	struct tep_event *ev = find_event(td, config);
	struct name_slot *slots;
	char *name;

	if (!ev || !ev->name || !ev->system)
		return NULL;
	for (size_t i = 0; i < td->nr_names; i++)
		if (td->names[i].id == ev->id)
			return td->names[i].name;
	slots = realloc(td->names, (td->nr_names + 1) * sizeof(*slots));
	if (!slots)
		return NULL;
	td->names = slots;
	if (asprintf(&name, "%s:%s", ev->system, ev->name) < 0)
		return NULL;
	slots[td->nr_names].id = ev->id;
	slots[td->nr_names++].name = name;
	return name;
}

/* libtraceevent 1.5's is_printable_array(): text up to the first zero */
static bool printable(const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return false;
	return true;
}

/*
 * One field of @data (a padded copy) as perf 6.1's libtraceevent prints it
 * alone (tep_print_field()): a string as text, another array as
 * "ARRAY[0a, 0b]", a pointer or an unsigned long in hex, other numbers in
 * decimal. The libtraceevent sampo links (1.7) prints a field through the
 * event's print format instead (%ps: a function's name), which is not
 * perf's raw value.
 */
static void print_field_plain(struct trace_seq *s, struct tep_handle *tep, const uint8_t *data,
			      const struct tep_format_field *f)
{
	unsigned long long val;

	if (f->flags & TEP_FIELD_IS_ARRAY) {
		unsigned int offset = (unsigned int)f->offset, len = (unsigned int)f->size;

		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			unsigned int loc =
				(unsigned int)tep_read_number(tep, data + offset, (int)len);

			offset = loc & 0xffff;
			len = loc >> 16;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				offset += (unsigned int)(f->offset + f->size);
		}
		/* (the padding's zeros end a string that has none) */
		if ((f->flags & TEP_FIELD_IS_STRING) && printable(data + offset, len)) {
			trace_seq_printf(s, "%s", (const char *)data + offset);
			return;
		}
		trace_seq_puts(s, "ARRAY[");
		for (unsigned int i = 0; i < len; i++)
			trace_seq_printf(s, "%s%02x", i ? ", " : "", data[offset + i]);
		trace_seq_putc(s, ']');
		return;
	}
	val = tep_read_number(tep, data + f->offset, f->size);
	if (f->flags & TEP_FIELD_IS_POINTER) {
		trace_seq_printf(s, "0x%llx", val);
	} else if (f->flags & TEP_FIELD_IS_SIGNED) {
		switch (f->size) {
		case 4: /* a long of 4 bytes, likely a pointer: hex */
			if (f->flags & TEP_FIELD_IS_LONG)
				trace_seq_printf(s, "0x%x", (unsigned int)val);
			else
				trace_seq_printf(s, "%d", (int)val);
			break;
		case 2:
			trace_seq_printf(s, "%2d", (short)val);
			break;
		case 1:
			trace_seq_printf(s, "%1d", (signed char)val);
			break;
		default:
			trace_seq_printf(s, "%lld", (long long)val);
		}
	} else if (f->flags & TEP_FIELD_IS_LONG) {
		trace_seq_printf(s, "0x%llx", val);
	} else {
		trace_seq_printf(s, "%llu", val);
	}
}

/* what print_raw() prints of a sample's raw data */
enum print_what {
	PRINT_INFO,   /* the print format's text (tep_print_event's INFO) */
	PRINT_FIELDS, /* every field, " name=value" (perf's --raw-trace, tep_print_fields()) */
	PRINT_FIELD,  /* one field's value (print_field_plain()) */
};

/*
 * @raw printed as @what says, into a malloc'ed *@ret. libtraceevent trusts
 * the offsets in the data, so it reads a copy with RAW_PAD zeros after it:
 * no field ends past FIELD_LIMIT (empty_unbounded_fields()), and a dynamic array
 * lies within 0x20000 of its field.
 */
static int print_raw(struct sampo_trace_data *td, uint64_t config, int cpu, const void *raw,
		     size_t raw_size, enum print_what what, const char *field_name, char **ret)
{
	struct tep_event *ev = find_event(td, config);
	struct tep_format_field *field = NULL;
	struct tep_record rec = { 0 };
	struct trace_seq s;
	size_t need;
	char *text;

	*ret = NULL;
	if (!ev)
		return -ENOENT;
	if (what == PRINT_FIELD) {
		field = tep_find_any_field(ev, field_name);
		if (!field)
			return -ENOENT;
	}
	if (raw_size > (size_t)INT32_MAX - RAW_PAD)
		raw_size = (size_t)INT32_MAX - RAW_PAD;
	need = raw_size + RAW_PAD;
	if (need > td->raw_cap) {
		uint8_t *b = calloc(1, need);

		if (!b)
			return -ENOMEM;
		free(td->raw);
		td->raw = b;
		td->raw_cap = need;
	}
	if (raw_size)
		memcpy(td->raw, raw, raw_size);
	rec.data = td->raw;
	rec.size = (int)raw_size;
	rec.cpu = cpu;
	trace_seq_init(&s);
	switch (what) {
	case PRINT_INFO:
		tep_print_event(td->tep, &s, &rec, "%s", TEP_PRINT_INFO);
		break;
	case PRINT_FIELDS:
		for (const struct tep_format_field *f = ev->format.fields; f; f = f->next) {
			trace_seq_printf(&s, " %s=", f->name);
			print_field_plain(&s, td->tep, td->raw, f);
		}
		break;
	case PRINT_FIELD:
		print_field_plain(&s, td->tep, td->raw, field);
		break;
	}
	trace_seq_terminate(&s);
	text = s.state == TRACE_SEQ__MEM_ALLOC_FAILED ? NULL : strdup(s.buffer ? s.buffer : "");
	trace_seq_destroy(&s);
	/* the zeros after the copy stay zeros for the next sample */
	memset(td->raw, 0, raw_size);
	if (!text)
		return -ENOMEM;
	*ret = text;
	return 0;
}

int sampo_trace_data__format(struct sampo_trace_data *td, uint64_t config, int cpu, const void *raw,
			     size_t raw_size, char **ret)
{
	return print_raw(td, config, cpu, raw, raw_size, PRINT_INFO, NULL, ret);
}

int sampo_trace_data__format_fields(struct sampo_trace_data *td, uint64_t config, int cpu,
				    const void *raw, size_t raw_size, char **ret)
{
	return print_raw(td, config, cpu, raw, raw_size, PRINT_FIELDS, NULL, ret);
}

int sampo_trace_data__format_field(struct sampo_trace_data *td, uint64_t config, const char *name,
				   const void *raw, size_t raw_size, char **ret)
{
	return print_raw(td, config, 0, raw, raw_size, PRINT_FIELD, name, ret);
}

static void field_info(const struct tep_format_field *f, bool common, struct sampo_trace_field *ret)
{
	*ret = (struct sampo_trace_field){
		.name = f->name,
		.offset = (uint32_t)f->offset,
		.size = (uint32_t)f->size,
		.is_string = f->flags & TEP_FIELD_IS_STRING,
		.is_dynamic = f->flags & TEP_FIELD_IS_DYNAMIC,
		.is_relative = f->flags & TEP_FIELD_IS_RELATIVE,
		.is_common = common,
	};
}

size_t sampo_trace_data__nr_fields(struct sampo_trace_data *td, uint64_t config)
{
	struct tep_event *ev = find_event(td, config);
	size_t n = 0;

	for (const struct tep_format_field *f = ev ? ev->format.fields : NULL; f; f = f->next)
		n++;
	return n;
}

int sampo_trace_data__field_at(struct sampo_trace_data *td, uint64_t config, size_t i,
			       struct sampo_trace_field *ret)
{
	struct tep_event *ev = find_event(td, config);

	for (const struct tep_format_field *f = ev ? ev->format.fields : NULL; f; f = f->next) {
		if (!i--) {
			field_info(f, false, ret);
			return 0;
		}
	}
	return -ENOENT;
}

int sampo_trace_data__find_field(struct sampo_trace_data *td, uint64_t config, const char *name,
				 struct sampo_trace_field *ret)
{
	struct tep_event *ev = find_event(td, config);
	struct tep_format_field *f;

	if (!ev)
		return -ENOENT;
	/* tep_find_any_field(): the common fields first */
	f = tep_find_common_field(ev, name);
	if (f) {
		field_info(f, true, ret);
		return 0;
	}
	f = tep_find_field(ev, name);
	if (!f)
		return -ENOENT;
	field_info(f, false, ret);
	return 0;
}

bool sampo_trace_data__field_bytes(struct sampo_trace_data *td,
				   const struct sampo_trace_field *field, const void *raw,
				   size_t raw_size, const uint8_t **ret, size_t *ret_len)
{
	uint64_t off = field->offset, len = field->size;

	if (field->is_dynamic) {
		uint64_t loc;

		/* u32: offset in the low 16 bits, length in the high ones */
		if (field->offset + 4ULL > raw_size)
			return false;
		loc = tep_read_number(td->tep, (const uint8_t *)raw + field->offset, 4);
		off = loc & 0xffff;
		len = (loc >> 16) & 0xffff;
		if (field->is_relative)
			off += field->offset + field->size;
	}
	if (off > raw_size || len > raw_size - off)
		return false;
	*ret = (const uint8_t *)raw + off;
	*ret_len = (size_t)len;
	return true;
}
