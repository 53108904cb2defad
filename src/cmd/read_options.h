/* cmd/read_options.h: the options the read commands share (readdisk,
 * readdisks, readpooldisks; demo and doctor take the defaults): rows for
 * their opt_def tables, storing into a struct read_settings, and the
 * handler for the rows that need more than one rule. */
#ifndef IOTRIAGE_CMD_READ_OPTIONS_H
#define IOTRIAGE_CMD_READ_OPTIONS_H

#include "bench/job.h"
#include "cmd/options.h"
#include "engine/engine.h"
#include "triage/media/read_batch.h"

/* What the read options fill. A command's settings struct has one as its
 * member `read`; read_settings_apply() completes the batch after parsing. */
struct read_settings {
	struct read_batch batch;
	unsigned regression_pct;  /* --regression, into batch.regression_pct */
	/* Times --bs was stored: its default counts once (a handler row's default
	 * goes through the handler first), so 2 or more means --bs was given;
	 * the IOPS pass defaults to 4K otherwise. */
	unsigned bs_stored;
	struct progress live;     /* the batch's progress line */
};

enum {
	OPT_RT_SIZE = OPT_COMMAND_BASE + 50,
	OPT_RT_BS,
	OPT_RT_IODEPTH,
	OPT_RT_ENGINE,
};

/* The read tests' block size: a multiple of the logical sector size (512)
 * up to 64M, 1M by default. One row for every command that reads disks. */
#define READTEST_BS_OPT_DEF                                                                        \
	{ "bs", 'b', "SIZE", "block size, a multiple of the logical sector size", OPT_RT_BS,            \
	  { .def = "1M" } }

/* The read options common to readdisk, readdisks and readpooldisks, for
 * the table of settings STRUCT (which has `struct read_settings read`).
 * --size, --bs and --engine keep their own messages: a handler (with the
 * row's default). */
#define READTEST_OPT_DEFS(STRUCT)                                                                  \
	{ "size", 's', "SIZE", "bytes to read from each disk; K, M, G, T are binary", OPT_RT_SIZE,      \
	  { .def = "1000M" } },                                                                      \
	READTEST_BS_OPT_DEF,                                                                       \
	{ "iodepth", 'q', "N", "I/O in flight at once, as dd does", OPT_RT_IODEPTH,                     \
	  OPT_V_UINT(STRUCT, read.batch.opts.iodepth, 1, JOB_MAX_IODEPTH, "1") },                       \
	{ "engine", 'e', "NAME", "auto, psync, libaio, io_uring or null", OPT_RT_ENGINE,                  \
	  ENGINE_OPT_V }

/* --engine: a handler row (its message, "unknown engine 'X'", names the
 * engine, not the option) that carries the engine table's names as its
 * choices, for the documentation; engine_option() checks against them. */
#define ENGINE_OPT_V { .choices = engine_choices, .def = "auto" }

enum { OPT_SAVE_BASELINE = OPT_COMMAND_BASE + 60, OPT_REGRESSION };

enum { OPT_GROUP_BY = OPT_COMMAND_BASE + 70 };

/* --group-by for readdisks and readpooldisks (DEF: "none" or "vdev"). */
#define GROUP_BY_OPT_DEF(DEF)                                                                      \
	{ "group-by", 'g', "HOW", "vdev, controller, enclosure or none: show the disks by pool device " \
				   "group, by controller (or shared backing), or by SES enclosure",   \
	  OPT_GROUP_BY, { .def = (DEF) } }

/* Baseline options for readdisk, readdisks and readpooldisks. */
#define BASELINE_OPT_DEFS(STRUCT)                                                                  \
	{ "save-baseline", 0, NULL, "store each disk's rate (IOPS in the IOPS pass) as its baseline, "   \
				    "keyed by WWN, serial or by-id path (never the kernel name)",       \
	  OPT_SAVE_BASELINE,                                                                           \
	  OPT_V_FLAG(STRUCT, read.batch.save_baseline) },                                             \
	{ "regression", 0, "PCT", "flag a disk this many percent below its baseline", OPT_REGRESSION,   \
	  { .type = OPT_TYPE_UINT, .offset = offsetof(STRUCT, read.regression_pct),                      \
	    .width = sizeof(unsigned), .min = 1, .max = 99, .def = "20",                                  \
	    .expect = "a percentage from 1 to 99" } }

enum { OPT_RT_SSH_CONFIG = OPT_COMMAND_BASE + 80, OPT_RT_REMOTE_IOTRIAGE };

/* How members on other hosts (a Ceph OSD's device elsewhere) are read there
 * over ssh (triage/media/read_remote.h), for the table of STRUCT at FIELD
 * (a struct read_remote): readpooldisks and doctor. */
#define REMOTE_READ_OPT_DEFS(STRUCT, FIELD)                                                        \
	{ "ssh-config", 'F', "FILE", "for members on other hosts: ssh -F FILE instead of ~/.ssh/config", \
	  OPT_RT_SSH_CONFIG, OPT_V_STRING(STRUCT, FIELD.ssh_config) },                                  \
	{ "remote-iotriage", 0, "PATH", "for members on other hosts: the iotriage program there (default: " \
	  "iotriage in their PATH)", OPT_RT_REMOTE_IOTRIAGE, OPT_V_STRING(STRUCT, FIELD.iotriage) }

/* Handles one of the handler rows above (--size, --bs, --engine,
 * --group-by) into R. Returns 0 when handled, 1 when ID is not one of
 * them, 2 after printing a usage error. */
int read_settings_option(const char *command, int id, const char *arg, struct read_settings *r);

/* After parsing: the regression threshold into the batch, COMMAND's
 * progress line when stderr is a terminal and the output not JSON. */
void read_settings_apply(struct read_settings *r, bool json, const char *command);

/* --engine ARG (auto or an engine of engine_choices) into *RET. Returns 0,
 * or 2 after "unknown engine 'ARG': expected auto, psync, ...". */
int engine_option(const char *command, const char *arg, const char **ret);

#endif
