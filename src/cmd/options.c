#include "cmd/options.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "basic/parse.h"
#include "basic/strbuf.h"

const struct opt_def global_opts_table[] = {
	{ "json", 0, NULL, "print one JSON document on stdout; log lines below WARN stay off stderr", OPT_JSON, { 0 } },
	{ "log-file", 0, "PATH", "append log lines here (default /var/log/iotriage/iotriage.log as root)", OPT_LOG_FILE, { 0 } },
	{ "results-dir", 0, "DIR", "write each run's results file here (default /var/log/iotriage/results)", OPT_RESULTS_DIR, { 0 } },
	{ "db", 0, "PATH", "results database (default /var/lib/iotriage/iotriage.db as root)", OPT_DB, { 0 } },
	{ "help", 'h', NULL, "show this help", OPT_HELP, { 0 } },
	OPT_END,
};

struct getopt_tables {
	struct option longopts[64];
	char shortopts[128];
};

static size_t add_defs(struct getopt_tables *g, size_t n, const struct opt_def *defs)
{
	for (const struct opt_def *d = defs; d && d->long_name; d++) {
		if (n + 1 >= sizeof(g->longopts) / sizeof(g->longopts[0]))
			break;
		g->longopts[n++] = (struct option){ d->long_name, d->arg ? required_argument : no_argument,
						    NULL, d->id };
		if (d->short_name) {
			size_t len = strlen(g->shortopts);
			g->shortopts[len++] = d->short_name;
			if (d->arg)
				g->shortopts[len++] = ':';
			g->shortopts[len] = '\0';
		}
	}
	return n;
}

static int short_to_id(const struct opt_def *defs, int c)
{
	for (const struct opt_def *d = defs; d && d->long_name; d++)
		if (d->short_name == c)
			return d->id;
	return 0;
}

int opts_begin(struct opts_parser *p, const char *command, int argc, char **argv,
	       const struct opt_def *defs, struct global_opts *globals)
{
	struct getopt_tables *g = calloc(1, sizeof(*g));
	if (!g)
		return -1;
	/* Before the command name (COMMAND is NULL) stop at the first operand,
	 * which is the command; after it, options may follow operands as users
	 * type them ("readdisk /dev/sdb --size 100M"). ':' reports missing
	 * arguments to us instead of printing. */
	strcpy(g->shortopts, command ? ":" : "+:");
	size_t n = add_defs(g, 0, defs);
	add_defs(g, n, global_opts_table);
	*p = (struct opts_parser){ argc, argv, defs, globals, g, command };
	optind = 0; /* 0, not 1: glibc then resets its permutation state too */
	opterr = 0;
	return 0;
}

int opts_next(struct opts_parser *p, const char **ret_arg)
{
	struct getopt_tables *g = p->state;
	for (;;) {
		int c = getopt_long(p->argc, p->argv, g->shortopts, g->longopts, NULL);
		if (c == -1)
			return 0;
		if (c == '?' || c == ':') {
			const char *what = p->argv[optind - 1];
			if (c == ':')
				opts_usage_error(p->command, "option '%s' needs a value", what);
			else
				opts_usage_error(p->command, "unknown option '%s'", what);
			return -1;
		}
		if (c < 256) {
			int id = short_to_id(p->defs, c);
			c = id ? id : short_to_id(global_opts_table, c);
		}
		switch (c) {
		case OPT_HELP:
			p->globals->help = true;
			continue;
		case OPT_JSON:
			p->globals->json = true;
			continue;
		case OPT_LOG_FILE:
			p->globals->log_file = optarg;
			continue;
		case OPT_RESULTS_DIR:
			p->globals->results_dir = optarg;
			continue;
		case OPT_DB:
			p->globals->db_path = optarg;
			continue;
		default:
			*ret_arg = optarg;
			return c;
		}
	}
}

int opts_end(struct opts_parser *p)
{
	free(p->state);
	p->state = NULL;
	return optind;
}

static void print_defs(FILE *out, const struct opt_def *defs)
{
	for (const struct opt_def *d = defs; d->long_name; d++) {
		struct strbuf left = STRBUF_INIT;
		if (d->short_name)
			strbuf_addf(&left, "-%c, ", d->short_name);
		else
			strbuf_adds(&left, "    ");
		strbuf_addf(&left, "--%s", d->long_name);
		if (d->arg)
			strbuf_addf(&left, " %s", d->arg);
		if (d->v.def && d->v.type != OPT_TYPE_FLAG)
			fprintf(out, "  %-26s %s (default %s)\n", left.buf, d->help, d->v.def);
		else
			fprintf(out, "  %-26s %s\n", left.buf, d->help);
		strbuf_release(&left);
	}
}

void opts_print_help(FILE *out, const char *usage, const char *summary, const char *details,
		     const struct opt_def *defs)
{
	fprintf(out, "usage: iotriage %s\n\n%s\n", usage, summary);
	if (details)
		fprintf(out, "\n%s\n", details);
	if (defs && defs->long_name) {
		fputs("\noptions:\n", out);
		print_defs(out, defs);
	}
	fputs("\nglobal options:\n", out);
	print_defs(out, global_opts_table);
}

int opts_usage_error(const char *command, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "iotriage%s%s: ", command ? " " : "", command ? command : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'iotriage %s%s--help'.\n", command ? command : "", command ? " " : "");
	return 2;
}

int opts_parse_command(const struct command_doc *doc, int argc, char **argv, struct global_opts *g,
		       opts_handler handle, void *state)
{
	struct opts_parser p;
	const char *arg = NULL;
	int c;
	if (opts_begin(&p, doc->name, argc, argv, doc->opts, g) < 0)
		return OPTS_USAGE_ERROR;
	while ((c = opts_next(&p, &arg)) > 0) {
		if (!handle || handle(c, arg, state) != 0) {
			opts_end(&p);
			return OPTS_USAGE_ERROR;
		}
	}
	int first = opts_end(&p);
	if (c < 0)
		return OPTS_USAGE_ERROR;
	if (g->help) {
		opts_print_help(stdout, doc->usage, doc->summary, NULL, doc->opts);
		return OPTS_HELP_SHOWN;
	}
	return first;
}

int opts_store_value(const char *command, const struct opt_def *d, const char *arg, void *settings)
{
	if (optvalue_parse(&d->v, arg, settings) == 0)
		return 0;
	char expected[256];
	optvalue_expected(&d->v, expected, sizeof(expected));
	return opts_usage_error(command, "%s --%s '%s': expected %s", d->v.type == OPT_TYPE_CHOICE ? "unknown" : "invalid",
				d->long_name, arg, expected);
}

void opts_describe_expected(const struct opt_def *d, char *buf, size_t len)
{
	optvalue_expected(&d->v, buf, len);
}

int opts_apply_defaults(const char *command, const struct opt_def *defs, void *settings)
{
	for (const struct opt_def *d = defs; d && d->long_name; d++) {
		if (optvalue_apply_default(&d->v, settings) < 0) {
			fprintf(stderr, "iotriage %s: the default of --%s ('%s') does not parse\n", command,
				d->long_name, d->v.def);
			return -EINVAL;
		}
	}
	return 0;
}

static const struct opt_def *find_def(const struct opt_def *defs, int id)
{
	for (const struct opt_def *d = defs; d && d->long_name; d++)
		if (d->id == id)
			return d;
	return NULL;
}

int opts_parse_settings(const struct command_doc *doc, int argc, char **argv, struct global_opts *g,
			opts_handler handle, void *settings)
{
	struct opts_parser p;
	const char *arg = NULL;
	int c;
	if (opts_apply_defaults(doc->name, doc->opts, settings) < 0)
		return OPTS_USAGE_ERROR;
	/* A handler row's default goes to its handler, as if given first. */
	for (const struct opt_def *d = doc->opts; handle && d && d->long_name; d++)
		if (d->v.type == OPT_TYPE_HANDLER && d->v.def && handle(d->id, d->v.def, settings) != 0)
			return OPTS_USAGE_ERROR;
	if (opts_begin(&p, doc->name, argc, argv, doc->opts, g) < 0)
		return OPTS_USAGE_ERROR;
	while ((c = opts_next(&p, &arg)) > 0) {
		const struct opt_def *d = find_def(doc->opts, c);
		int r = d && d->v.type != OPT_TYPE_HANDLER ? opts_store_value(doc->name, d, arg, settings)
			: handle				  ? handle(c, arg, settings)
								  : 2;
		if (r != 0) {
			opts_end(&p);
			return OPTS_USAGE_ERROR;
		}
	}
	int first = opts_end(&p);
	if (c < 0)
		return OPTS_USAGE_ERROR;
	if (g->help) {
		opts_print_help(stdout, doc->usage, doc->summary, NULL, doc->opts);
		return OPTS_HELP_SHOWN;
	}
	return first;
}
