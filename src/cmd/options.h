/* cmd/options.h: options are data. Each command declares a table of
 * struct opt_def; the same table drives getopt_long and the --help text,
 * so the two never disagree. Every command also accepts the global options
 * (--json, --log-file, --results-dir, --db, --help), before or after its
 * name.
 */
#ifndef IOTRIAGE_CMD_OPTIONS_H
#define IOTRIAGE_CMD_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

struct opt_def {
	const char *long_name;
	char short_name;       /* 0 for none */
	const char *arg;       /* "SIZE", or NULL for a flag */
	const char *help;
	int id;                /* what opts_next() returns for it; >= 256 */
};

#define OPT_END { NULL, 0, NULL, NULL, 0 }

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

/* Called for each of a command's own options; returns 0, or non-zero after
 * printing a usage error. */
typedef int (*opts_handler)(int id, const char *arg, void *state);

/* Parses ARGV (argv[0] is the command name) against DOC->opts and the
 * global options. Returns the index of the first operand, OPTS_USAGE_ERROR
 * after a message (exit 2), or OPTS_HELP_SHOWN after printing --help (exit 0).
 * opts_command_status() turns the two negatives into those exit codes. */
int opts_parse_command(const struct command_doc *doc, int argc, char **argv, struct global_opts *g,
		       opts_handler handle, void *state);
static inline int opts_command_status(int first)
{
	return first == OPTS_HELP_SHOWN ? 0 : 2;
}

/* A usage error: prints "iotriage COMMAND: MESSAGE" and a hint. Returns 2. */
int opts_usage_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
