/* SPDX-License-Identifier: GPL-2.0 */
/*
 * options.c - table-driven option parsing (see options.h for the contract)
 *
 * parse_options() walks argv once, left to right. Non-option arguments are
 * compacted towards the front of argv as they are met; because argv[0] (the
 * command name) is always consumed, the write index stays strictly behind the
 * read index and the in-place rewrite is safe.
 *
 * Long options are matched exactly first ("--no-<name>" counts as exact for
 * negatable options), then by unique prefix, so "--inp" means "--input" as in
 * git and perf, and an ambiguous prefix is an error that names both choices.
 *
 * "--no-<x>" where the table has both "x" and "no-x" (report's --children
 * and --no-children) is one option, not an ambiguity: "--no-child" is
 * "--no-children", as perf's parse-options takes it.
 *
 * An option the table lacks but perf's same command has (perf-options.c,
 * from `perf CMD -h`) is "perf's --foo is not supported by sampo (yet)", not
 * "unknown option": a perf user learns it exists in perf, not that they
 * mistyped. Prefixes count as in perf.
 *
 * Every error goes through opt_error(): one "sampo <cmd>: ..." line and the
 * usage on stderr, return PARSE_OPT_USAGE. Nothing here exits.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "perf-options.h"

/* -h layout, as git: options start at column 4, help at column 26 */
#define USAGE_OPTS_WIDTH 24
#define USAGE_GAP	 2

/* what a callback said with parse_opt_fail(), reported instead of "invalid argument" */
static char cb_msg[512];

void parse_opt_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cb_msg, sizeof(cb_msg), fmt, ap);
	va_end(ap);
}

struct parse_ctx {
	const struct option *opts;
	const char *const *usage;
};

static void print_prefix(FILE *fp)
{
	const char *cmd = cli_cmd();

	if (cmd)
		fprintf(fp, "sampo %s: ", cmd);
	else
		fputs("sampo: ", fp);
}

__attribute__((format(printf, 2, 3))) static int opt_error(const struct parse_ctx *ctx,
							   const char *fmt, ...)
{
	va_list ap;

	print_prefix(stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_with_options(stderr, ctx->usage, ctx->opts);
	return PARSE_OPT_USAGE;
}

static bool opt_takes_arg(const struct option *opt)
{
	switch (opt->type) {
	case OPTION_STRING:
	case OPTION_INTEGER:
	case OPTION_U64:
		return true;
	case OPTION_CALLBACK:
		return !(opt->flags & OPT_F_NOARG);
	default:
		return false;
	}
}

static bool opt_negatable(const struct option *opt)
{
	if (opt->flags & OPT_F_NONEG)
		return false;
	switch (opt->type) {
	case OPTION_BOOLEAN:
	case OPTION_INCR:
	case OPTION_SET_INT:
	case OPTION_CALLBACK:
		return true;
	default:
		return false;
	}
}

/*
 * Parse an unsigned number: decimal, or hex with a 0x prefix (no octal: "010"
 * is ten). Unlike bare strtoull(), reject signs, spaces and trailing junk.
 * Return: 0, -EINVAL or -ERANGE
 */
static int parse_u64(const char *s, uint64_t *ret)
{
	const char *digits = s;
	int base = 10;
	char *end;
	uint64_t v;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		digits = s + 2;
		base = 16;
	}
	if (!((*digits >= '0' && *digits <= '9') ||
	      (base == 16 &&
	       ((*digits >= 'a' && *digits <= 'f') || (*digits >= 'A' && *digits <= 'F')))))
		return -EINVAL;
	errno = 0;
	v = strtoull(digits, &end, base);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	*ret = v;
	return 0;
}

/* Parse a signed number: an optional '-' and what parse_u64() takes */
static int parse_s64(const char *s, int64_t *ret)
{
	bool neg = *s == '-';
	uint64_t mag;
	int err;

	err = parse_u64(neg ? s + 1 : s, &mag);
	if (err)
		return err;
	if (mag > (uint64_t)INT64_MAX + neg)
		return -ERANGE;
	*ret = neg ? (int64_t)(0 - mag) : (int64_t)mag;
	return 0;
}

/*
 * Store the value of one option. @name is the option as the user spelled it
 * ("-F", "--freq"), for messages; @arg is its argument or NULL.
 */
static int opt_apply(const struct parse_ctx *ctx, const struct option *opt, const char *name,
		     const char *arg, bool unset)
{
	int64_t s;
	uint64_t u;
	int err;

	switch (opt->type) {
	case OPTION_BOOLEAN:
		*(bool *)opt->value = !unset;
		return 0;
	case OPTION_INCR:
		*(int *)opt->value = unset ? 0 : *(int *)opt->value + 1;
		return 0;
	case OPTION_SET_INT:
		*(int *)opt->value = unset ? 0 : (int)opt->defval;
		return 0;
	case OPTION_STRING:
		*(const char **)opt->value = arg;
		return 0;
	case OPTION_INTEGER:
		err = parse_s64(arg, &s);
		if (err == -EINVAL)
			return opt_error(ctx, "option '%s' expects a number", name);
		if (opt->min || opt->max) {
			if (err || s < opt->min || s > opt->max)
				return opt_error(
					ctx, "option '%s' must be between %" PRId64 " and %" PRId64,
					name, opt->min, opt->max);
		} else if (err || s < INT_MIN || s > INT_MAX) {
			return opt_error(ctx, "option '%s': number '%s' is out of range", name,
					 arg);
		}
		*(int *)opt->value = (int)s;
		return 0;
	case OPTION_U64:
		err = parse_u64(arg, &u);
		if (err == -EINVAL)
			return opt_error(ctx, "option '%s' expects a non-negative number", name);
		if (opt->min || opt->max) {
			if (err || u < (uint64_t)opt->min || u > (uint64_t)opt->max)
				return opt_error(
					ctx, "option '%s' must be between %" PRId64 " and %" PRId64,
					name, opt->min, opt->max);
		} else if (err) {
			return opt_error(ctx, "option '%s': number '%s' is out of range", name,
					 arg);
		}
		*(uint64_t *)opt->value = u;
		return 0;
	case OPTION_CALLBACK:
		cb_msg[0] = '\0';
		if (opt->callback(opt, arg, unset) < 0) {
			if (cb_msg[0])
				return opt_error(ctx, "%s", cb_msg);
			if (arg)
				return opt_error(ctx, "invalid argument '%s' for option '%s'", arg,
						 name);
			return opt_error(ctx, "option '%s' cannot be used here", name);
		}
		return 0;
	default:
		return opt_error(ctx, "option '%s' has a bad table entry", name);
	}
}

/* Fetch the argument of @opt: the attached text, or the next argv entry */
static int opt_get_arg(const struct parse_ctx *ctx, const char *name, const char *attached,
		       int argc, const char **argv, int *i, const char **ret_arg)
{
	if (attached) {
		*ret_arg = attached;
		return 0;
	}
	if (*i + 1 >= argc)
		return opt_error(ctx, "option '%s' requires a value", name);
	*ret_arg = argv[++*i];
	return 0;
}

const char *perf_option_resolve(const char *cmd, const char *name, size_t len, bool *ret_no)
{
	const struct perf_option *po = perf_options_of(cmd);
	const char *found = NULL;
	int nr = 0;

	if (!po)
		return NULL;
	for (int neg = 0; neg < 2 && !nr; neg++) {
		const char *n = name + (neg ? 3 : 0);
		size_t nlen = len - (neg ? 3 : 0);

		if (neg && (len <= 3 || strncmp(name, "no-", 3)))
			break;
		for (const struct perf_option *o = po; o->short_name || o->long_name; o++) {
			if (!o->long_name || strncmp(o->long_name, n, nlen))
				continue;
			if (!o->long_name[nlen]) { /* exact */
				*ret_no = neg;
				return o->long_name;
			}
			if (!found || strcmp(found, o->long_name))
				nr++;
			found = o->long_name;
			*ret_no = neg;
		}
	}
	return nr == 1 ? found : NULL;
}

/* perf's option with this short name, or NULL */
static const struct perf_option *perf_short(int c)
{
	const struct perf_option *po = perf_options_of(cli_cmd());

	for (; po && (po->short_name || po->long_name); po++) {
		if (po->short_name == c)
			return po;
	}
	return NULL;
}

static int perf_unsupported(const struct parse_ctx *ctx, int short_name, const char *long_name,
			    bool no)
{
	char name[128];

	if (long_name && !strcmp(long_name, "verbose"))
		return opt_error(ctx, "-v/--verbose goes before the command in sampo: 'sampo -v %s ...'",
				 cli_cmd());
	if (short_name && long_name)
		snprintf(name, sizeof(name), "-%c (--%s)", short_name, long_name);
	else if (short_name)
		snprintf(name, sizeof(name), "-%c", short_name);
	else
		snprintf(name, sizeof(name), "--%s%s", no ? "no-" : "", long_name);
	return opt_error(ctx, "perf's %s is not supported by sampo (yet)", name);
}

static const struct option *find_short(const struct option *opts, int c)
{
	for (; opts->type != OPTION_END; opts++) {
		if (opts->type != OPTION_GROUP && opts->short_name == c)
			return opts;
	}
	return NULL;
}

/*
 * Resolve a long option name (without "--" and "=value"). Return: 0 and the
 * option in *ret_opt (*ret_unset for --no-<name>), or PARSE_OPT_USAGE.
 */
static int find_long(const struct parse_ctx *ctx, const char *name, size_t len,
		     const struct option **ret_opt, bool *ret_unset)
{
	const struct option *abbrev = NULL, *opt;
	bool abbrev_unset = false, ambiguous = false;
	const char *other = NULL;

	for (int pass = 0; pass < 2; pass++) {
		bool neg = pass == 1;
		const char *n = name;
		size_t nlen = len;

		if (neg) {
			if (len < 3 || strncmp(name, "no-", 3))
				break;
			n += 3;
			nlen -= 3;
		}
		for (opt = ctx->opts; opt->type != OPTION_END; opt++) {
			if (!opt->long_name || opt->type == OPTION_GROUP)
				continue;
			if (neg && !opt_negatable(opt))
				continue;
			if (strncmp(opt->long_name, n, nlen))
				continue;
			if (opt->long_name[nlen] == '\0') {
				*ret_opt = opt;
				*ret_unset = neg;
				return 0;
			}
			/* "--no-chil": the negation of "children" is the table's "no-children" */
			if (neg && abbrev && !abbrev_unset && !strncmp(abbrev->long_name, "no-", 3) &&
			    !strcmp(abbrev->long_name + 3, opt->long_name))
				continue;
			/* two names of one option ("dsos" and its hidden alias "dso") */
			if (abbrev && abbrev->value == opt->value && abbrev->type == opt->type &&
			    abbrev_unset == neg && ((abbrev->flags | opt->flags) & OPT_F_HIDDEN))
				continue;
			if (abbrev && abbrev != opt) {
				ambiguous = true;
				other = opt->long_name;
			} else {
				abbrev = opt;
				abbrev_unset = neg;
			}
		}
	}
	if (ambiguous)
		return opt_error(ctx, "ambiguous option '--%.*s' (could be --%s or --%s)", (int)len,
				 name, abbrev->long_name, other);
	if (!abbrev) {
		if (len == 4 && !strncmp(name, "help", 4)) {
			usage_with_options(stdout, ctx->usage, ctx->opts);
			return PARSE_OPT_HELP;
		}
		bool no = false;
		const char *perf = perf_option_resolve(cli_cmd(), name, len, &no);

		if (perf)
			return perf_unsupported(ctx, 0, perf, no);
		return opt_error(ctx, "unknown option '--%.*s'", (int)len, name);
	}
	*ret_opt = abbrev;
	*ret_unset = abbrev_unset;
	return 0;
}

static int parse_long(const struct parse_ctx *ctx, int argc, const char **argv, int *i)
{
	const char *arg = argv[*i], *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *opt = NULL;
	const char *value = NULL;
	bool unset = false;
	int err;

	if (len == 0)
		return opt_error(ctx, "unknown option '%s'", arg);
	err = find_long(ctx, name, len, &opt, &unset);
	if (err)
		return err;

	/* messages use the full name even when the user abbreviated it */
	char spelled[256];
	snprintf(spelled, sizeof(spelled), "--%s%s", unset ? "no-" : "", opt->long_name);

	/* an optional argument is only ever "--name=ARG": "--name ARG" keeps ARG apart */
	if (!unset && (opt->flags & OPT_F_OPTARG) && !eq)
		return opt_apply(ctx, opt, spelled, NULL, false);
	if (unset || !opt_takes_arg(opt)) {
		if (eq)
			return opt_error(ctx, "option '%s' takes no value", spelled);
		return opt_apply(ctx, opt, spelled, NULL, unset);
	}
	err = opt_get_arg(ctx, spelled, eq ? eq + 1 : NULL, argc, argv, i, &value);
	if (err)
		return err;
	return opt_apply(ctx, opt, spelled, value, false);
}

/* A cluster of short options: "-v", "-vq", "-ifile", "-i file", "-F1000" */
static int parse_short(const struct parse_ctx *ctx, int argc, const char **argv, int *i)
{
	const char *p = argv[*i] + 1;

	for (; *p; p++) {
		const struct option *opt = find_short(ctx->opts, (unsigned char)*p);
		char spelled[3] = { '-', *p, '\0' };
		const char *value = NULL;
		int err;

		if (!opt) {
			const struct perf_option *po;

			if (*p == 'h') {
				usage_with_options(stdout, ctx->usage, ctx->opts);
				return PARSE_OPT_HELP;
			}
			po = perf_short((unsigned char)*p);
			if (po)
				return perf_unsupported(ctx, po->short_name, po->long_name, false);
			return opt_error(ctx, "unknown option '%s'", spelled);
		}
		if (!opt_takes_arg(opt)) {
			err = opt_apply(ctx, opt, spelled, NULL, false);
			if (err)
				return err;
			continue;
		}
		/* an optional argument is only ever attached ("-z3"), as perf's: "-z 3" keeps 3 apart */
		if ((opt->flags & OPT_F_OPTARG) && !p[1])
			return opt_apply(ctx, opt, spelled, NULL, false);
		err = opt_get_arg(ctx, spelled, p[1] ? p + 1 : NULL, argc, argv, i, &value);
		if (err)
			return err;
		return opt_apply(ctx, opt, spelled, value, false);
	}
	return 0;
}

int parse_options(int argc, const char **argv, const struct option *opts, const char *const usage[],
		  int flags)
{
	const struct parse_ctx ctx = { .opts = opts, .usage = usage };
	int out = 0;
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		int err;

		if (arg[0] != '-' || arg[1] == '\0') {
			if (flags & PARSE_OPT_STOP_AT_NON_OPTION)
				break;
			argv[out++] = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (flags & PARSE_OPT_KEEP_DASHDASH)
				argv[out++] = arg;
			i++;
			break;
		}
		if (arg[1] == '-')
			err = parse_long(&ctx, argc, argv, &i);
		else
			err = parse_short(&ctx, argc, argv, &i);
		if (err)
			return err;
	}
	for (; i < argc; i++)
		argv[out++] = argv[i];
	if (out < argc)
		argv[out] = NULL;
	return out;
}

/* Print the "-i, --input <file>" part of one option; return its width */
static int print_opt_names(FILE *fp, const struct option *opt)
{
	const char *argh = opt->argh;
	int pos = fprintf(fp, "    ");

	if (opt->short_name)
		pos += fprintf(fp, "-%c", opt->short_name);
	if (opt->short_name && opt->long_name)
		pos += fprintf(fp, ", ");
	else if (opt->long_name)
		pos += fprintf(fp, "    "); /* align long names under "-x, --" */
	if (opt->long_name)
		pos += fprintf(fp, "--%s", opt->long_name);
	if (opt_takes_arg(opt)) {
		if (!argh)
			argh = opt->type == OPTION_STRING || opt->type == OPTION_CALLBACK ?
				       "value" :
				       "n";
		if (opt->flags & OPT_F_OPTARG)
			pos += fprintf(fp, "[=<%s>]", argh);
		else if (argh[0] == '<' || argh[0] == '[')
			pos += fprintf(fp, " %s", argh);
		else
			pos += fprintf(fp, " <%s>", argh);
	}
	return pos;
}

void usage_with_options(FILE *fp, const char *const usage[], const struct option *opts)
{
	bool text = false;

	for (size_t n = 0; usage && usage[n]; n++) {
		if (!usage[n][0]) {
			if (!text)
				fputc('\n', fp);
			text = true;
			continue;
		}
		if (text)
			fprintf(fp, "    %s\n", usage[n]);
		else
			fprintf(fp, "%s%s\n", n == 0 ? "usage: " : "   or: ", usage[n]);
	}

	bool first = true;

	for (; opts && opts->type != OPTION_END; opts++) {
		int pos;

		if (opts->type == OPTION_GROUP) {
			fputc('\n', fp);
			if (opts->help && *opts->help)
				fprintf(fp, "%s\n", opts->help);
			first = false;
			continue;
		}
		if (opts->flags & OPT_F_HIDDEN)
			continue;
		if (first) {
			fputc('\n', fp);
			first = false;
		}
		pos = print_opt_names(fp, opts);
		if (pos <= USAGE_OPTS_WIDTH) {
			fprintf(fp, "%*s%s\n", USAGE_OPTS_WIDTH + USAGE_GAP - pos, "",
				opts->help ? opts->help : "");
		} else {
			fprintf(fp, "\n%*s%s\n", USAGE_OPTS_WIDTH + USAGE_GAP, "",
				opts->help ? opts->help : "");
		}
	}
}

int usage_error(const char *const usage[], const struct option *opts, const char *fmt, ...)
{
	va_list ap;

	print_prefix(stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage_with_options(stderr, usage, opts);
	return PARSE_OPT_USAGE;
}

const struct perf_option *perf_options_of(const char *cmd)
{
	/* sampo commands that are options of a perf command */
	static const char *const alias[][2] = {
		{ "dump", "report" },
		{ "header", "report" },
		{ "data", "data convert" },
	};

	if (!cmd)
		return NULL;
	for (size_t i = 0; i < sizeof(alias) / sizeof(alias[0]); i++) {
		if (!strcmp(cmd, alias[i][0]))
			cmd = alias[i][1];
	}
	for (const struct perf_command *pc = perf_commands; pc->name; pc++) {
		if (!strcmp(pc->name, cmd))
			return pc->opts;
	}
	return NULL;
}

int perf_has_command(const char *name)
{
	for (const char *const *n = perf_command_names; *n; n++) {
		if (!strcmp(*n, name))
			return 1;
	}
	return 0;
}
