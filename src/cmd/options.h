/* cmd/options.h: options are data. Each command declares a table of
 * struct opt_def; the same table drives getopt_long and the --help text,
 * so the two never disagree. Every command also accepts the global options
 * (--json, --log-file, --results-dir, --db, --help), before or after its
 * name.
 */
#ifndef IOTRIAGE_CMD_OPTIONS_H
#define IOTRIAGE_CMD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "basic/optvalue.h"

struct opt_def {
	const char *long_name;
	char short_name;       /* 0 for none */
	const char *arg;       /* "SIZE", or NULL for a flag */
	const char *help;
	int id;                /* what opts_next() returns for it; >= 256 */
	struct opt_value v;    /* how it is parsed; { 0 } for the command's handler */
};

#define OPT_END { .long_name = NULL }

/* Rows for typed options: STRUCT is the command's settings type. */
#define OPT_GIVEN(STRUCT, FIELD) (offsetof(STRUCT, FIELD) + 1)
#define OPT_V_FLAG(STRUCT, FIELD) { .type = OPT_TYPE_FLAG, .offset = offsetof(STRUCT, FIELD) }
#define OPT_V_STRING(STRUCT, FIELD) { .type = OPT_TYPE_STRING, .offset = offsetof(STRUCT, FIELD) }
#define OPT_V_BOOL01(STRUCT, FIELD, DEF) \
	{ .type = OPT_TYPE_BOOL01, .offset = offsetof(STRUCT, FIELD), .def = (DEF) }
#define OPT_V_CHOICE(STRUCT, FIELD, CHOICES, DEF) \
	{ .type = OPT_TYPE_CHOICE, .offset = offsetof(STRUCT, FIELD), .choices = (CHOICES), .def = (DEF) }
#define OPT_V_UINT(STRUCT, FIELD, MIN, MAX, DEF)                                            \
	{ .type = OPT_TYPE_UINT, .offset = offsetof(STRUCT, FIELD),                          \
	  .width = sizeof(((STRUCT *)0)->FIELD), .min = (MIN), .max = (MAX), .def = (DEF) }
#define OPT_V_SIZE(STRUCT, FIELD, MIN, MAX, DEF) \
	{ .type = OPT_TYPE_SIZE, .offset = offsetof(STRUCT, FIELD), .min = (MIN), .max = (MAX), .def = (DEF) }
#define OPT_V_DURATION(STRUCT, FIELD, MIN, MAX, DEF) \
	{ .type = OPT_TYPE_DURATION, .offset = offsetof(STRUCT, FIELD), .min = (MIN), .max = (MAX), .def = (DEF) }

/* Global option ids. Command ids start at OPT_COMMAND_BASE. */
enum {
	OPT_HELP = 256,
	OPT_JSON,
	OPT_LOG_FILE,
	OPT_RESULTS_DIR,
	OPT_DB,
	OPT_COMMAND_BASE = 300,
};

extern const struct opt_def global_opts_table[];

struct global_opts {
	bool json;
	const char *log_file;
	const char *results_dir;
	const char *db_path;
	bool help;
};

struct opts_parser {
	int argc;
	char **argv;
	const struct opt_def *defs;
	struct global_opts *globals;
	void *state; /* getopt tables, owned */
	const char *command;
};

/* Prepares to parse ARGV (argv[0] is the command name) against DEFS plus the
 * global options, which are stored into GLOBALS as they are met. */
int opts_begin(struct opts_parser *p, const char *command, int argc, char **argv,
	       const struct opt_def *defs, struct global_opts *globals);
/* Next command option: its id (optarg holds the argument), 0 at the end,
 * or -1 after printing an error about an unknown option or missing argument. */
int opts_next(struct opts_parser *p, const char **ret_arg);
/* Index of the first operand after parsing (as getopt's optind). */
int opts_end(struct opts_parser *p);

/* Prints "usage: iotriage USAGE", SUMMARY, and the options of DEFS and the
 * global ones. */
void opts_print_help(FILE *out, const char *usage, const char *summary, const char *details,
		     const struct opt_def *defs);

/* What a command says about itself; drives its parsing and its --help. */
struct command_doc {
	const char *name;      /* "readdisk" */
	const char *usage;     /* "readdisk [options] DEVICE" */
	const char *summary;
	const struct opt_def *opts;
};

enum { OPTS_USAGE_ERROR = -1, OPTS_HELP_SHOWN = -2 };

/* Called for each of a command's own OPT_TYPE_HANDLER options; returns 0,
 * or non-zero after printing a usage error. */
typedef int (*opts_handler)(int id, const char *arg, void *state);

/* Applies the defaults of DEFS' typed rows to SETTINGS (before parsing).
 * Returns 0, or -EINVAL when a row's default does not parse (a bug in the
 * table, said on stderr). */
int opts_apply_defaults(const char *command, const struct opt_def *defs, void *settings);

/* Parses ARG for the typed row D into SETTINGS. Returns 0, or 2 after
 * printing "invalid --NAME 'ARG': expected ..." (or "unknown --NAME" for a
 * choice). */
int opts_store_value(const char *command, const struct opt_def *d, const char *arg, void *settings);

/* "(default X)" text and expectations are made from the rows: for tests
 * and the generated documentation. */
void opts_describe_expected(const struct opt_def *d, char *buf, size_t len);

/* Parses ARGV (argv[0] is the command name) against DOC->opts and the
 * global options. Returns the index of the first operand, OPTS_USAGE_ERROR
 * after a message (exit 2), or OPTS_HELP_SHOWN after printing --help (exit 0).
 * opts_command_status() turns the two negatives into those exit codes. */
int opts_parse_command(const struct command_doc *doc, int argc, char **argv, struct global_opts *g,
		       opts_handler handle, void *state);
/* The same, for a command whose table has typed rows: their defaults are
 * applied to SETTINGS first, their values stored into it; the handler gets
 * the OPT_TYPE_HANDLER rows with SETTINGS as its state (and first the
 * default of each such row that has one). */
int opts_parse_settings(const struct command_doc *doc, int argc, char **argv, struct global_opts *g,
			opts_handler handle, void *settings);
static inline int opts_command_status(int first)
{
	return first == OPTS_HELP_SHOWN ? 0 : 2;
}

/* A usage error: prints "iotriage COMMAND: MESSAGE" and a hint. Returns 2. */
int opts_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
