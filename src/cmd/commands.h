/* cmd/commands.h: the command table and the frame every command runs in.
 *
 * A framed command declares, in its table row, its doc and options (the
 * option rows store values into its settings struct), how many operands it
 * takes, whether it needs root and whether it records a run. main() then
 * does the same for each: parse -> check operands -> (begin the run: id,
 * log, document head) -> the command's main -> (finish the run: results
 * file, database, --json output) -> exit status. The command's main only
 * does its one call below cmd/ and renders the result.
 *
 * A command with sub-commands (ramdisk) keeps a plain run function that
 * dispatches to framed sub-commands with command_execute().
 *
 * Exit status:
 *   0  done, every figure measured
 *   1  a measurement failed or nothing could be measured
 *   2  bad usage or input
 *   128+N  interrupted by signal N (after cleaning up)
 */
#ifndef IOTRIAGE_CMD_COMMANDS_H
#define IOTRIAGE_CMD_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/options.h"
#include "cmd/runctx.h"
#include "output/json.h"

enum command_flag {
	CMD_RECORDS_RUN = 1 << 0, /* a run: id, log, results file, database row, --json document */
	CMD_NEEDS_ROOT = 1 << 1,  /* refused before anything starts when not root */
};

/* What a framed command's main gets. */
struct command_call {
	const char *name;          /* the command's name */
	const struct command_frame *frame;
	struct global_opts *g;
	void *settings;            /* the command's settings, options applied */
	char **operands;
	int noperands;
	char **argv;               /* the whole command line from the command's name on */
	int argc;
	struct run_ctx *rc;        /* CMD_RECORDS_RUN: the run; else NULL */
	struct json *doc;          /* CMD_RECORDS_RUN: the document, its head written; else NULL */
	run_ctx_store_fn store_fn; /* set by main: the command's database rows, if any */
	void *store_arg;
	/* Set by main: frees what store_fn needs, once the run is finished. */
	void (*release_fn)(void *arg);
	void *release_arg;
	/* Set by main when the run ends before anything was measured (its
	 * targets could not be set up): the log is closed, and no results
	 * file, database row or document is written. */
	bool discard_run;
	/* Set by check when it answered the command itself (run --fio-job
	 * --parse-only): its status is the exit status, no run begins and main
	 * does not run; release still does. */
	bool answered;
};

/* A framed command's definition, next to its main in its own file. */
struct command_frame {
	const struct command_doc *doc;
	size_t settings_size;
	opts_handler handle;          /* OPT_TYPE_HANDLER rows, with the settings as state */
	unsigned flags;
	const char *run_name;         /* the run's command in its document and database, when not the
				       * name ("ramdisk-create" for "ramdisk create"); NULL: the name */
	int min_operands, max_operands; /* max -1: any number */
	const char *operands_expected;  /* "expected one DEVICE" */
	/* Checks the operands before a run begins; 0, or an exit status after a message. */
	int (*check)(struct command_call *call);
	int (*main)(struct command_call *call);
	/* After main and the run's finish (its rows are stored): frees what
	 * main left in the settings for them. NULL: nothing to free. */
	void (*release)(struct command_call *call);
};

/* A row of the command table: a framed command, or one that parses its own
 * arguments (sub-command dispatch). */
struct command {
	const char *group;   /* --help's heading for it (the method's step); same text, same group */
	const char *name;
	const char *summary;
	const struct command_frame *frame;
	int (*run)(int argc, char **argv, struct global_opts *g);
	/* For a command that parses its own arguments, for the manual and the
	 * completion: its sub-commands' frames, or its docs, NULL-terminated. */
	const struct command_frame *const *subframes;
	const struct command_doc *const *docs;
};

extern const struct command commands[];
const struct command *command_find(const char *name);

/* Runs CMD with ARGV (argv[0] is its name): its run function, or its main in
 * the frame. Returns the exit status. */
int command_execute(const struct command *cmd, int argc, char **argv, struct global_opts *g);
/* The frame alone, for a sub-command NAME ("ramdisk create"). */
int command_frame_execute(const char *name, const struct command_frame *f, int argc, char **argv,
			  struct global_opts *g);

/* An error that ends a command: "iotriage COMMAND: MESSAGE" on stderr. Returns 1. */
int cmd_error(const char *command, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Commands that parse their own arguments, with what the manual needs. */
int cmd_ramdisk(int argc, char **argv, struct global_opts *g);
extern const struct command_frame *const ramdisk_subframes[];
int cmd_netcheck(int argc, char **argv, struct global_opts *g);
extern const struct command_doc *const netcheck_docs[];
int cmd_fleet(int argc, char **argv, struct global_opts *g);
extern const struct command_doc *const fleet_docs[];

/* Framed commands: each command's frame, from its own file. */
extern const struct command_frame readdisks_frame;
extern const struct command_frame readdisk_frame;
extern const struct command_frame readpooldisks_frame;
extern const struct command_frame run_frame;
extern const struct command_frame presets_frame;
extern const struct command_frame benchpool_frame;
extern const struct command_frame rwpool_frame;
extern const struct command_frame rwpools_frame;
extern const struct command_frame runall_frame;
extern const struct command_frame disks_frame;
extern const struct command_frame volumes_frame;
extern const struct command_frame doctor_frame;
extern const struct command_frame interactive_frame;
extern const struct command_frame matrix_frame;
extern const struct command_frame bundle_frame;
extern const struct command_frame history_frame;
extern const struct command_frame show_frame;
extern const struct command_frame compare_frame;
extern const struct command_frame report_frame;
extern const struct command_frame demo_frame;

#endif
