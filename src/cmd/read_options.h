/* cmd/read_options.h: the options the read commands share (readdisk,
 * readdisks, readpooldisks; demo and doctor take the defaults): rows for
 * their opt_def tables and the handlers that fill a read batch. */
#ifndef IOTRIAGE_CMD_READ_OPTIONS_H
#define IOTRIAGE_CMD_READ_OPTIONS_H

#include "cmd/options.h"
#include "triage/read_batch.h"

enum {
	OPT_RT_SIZE = OPT_COMMAND_BASE + 50,
	OPT_RT_BS,
	OPT_RT_IODEPTH,
	OPT_RT_ENGINE,
};

/* The read options common to readdisk, readdisks and readpooldisks, for
 * their tables. */
#define READTEST_OPT_DEFS                                                                          \
	{ "size", 's', "SIZE", "bytes to read from each disk (default 1000M; K, M, G, T are binary)",  \
	  OPT_RT_SIZE, { 0 } },                                                                           \
	{ "bs", 'b', "SIZE", "block size (default 1M; a multiple of the logical sector size)",        \
	  OPT_RT_BS, { 0 } },                                                                             \
	{ "iodepth", 'q', "N", "I/O in flight at once (default 1, as dd does)", OPT_RT_IODEPTH, { 0 } },     \
	{ "engine", 'e', "NAME", "auto, psync, libaio, io_uring or null (default auto)", OPT_RT_ENGINE, { 0 } }

enum { OPT_SAVE_BASELINE = OPT_COMMAND_BASE + 60, OPT_REGRESSION };

enum { OPT_GROUP_BY = OPT_COMMAND_BASE + 70 };

/* --group-by for readdisks and readpooldisks. */
#define GROUP_BY_OPT_DEF                                                                           \
	{ "group-by", 'g', "HOW", "vdev, controller, enclosure or none: show the disks by pool device " \
				   "group, by controller (or shared backing), or by SES enclosure",   \
	  OPT_GROUP_BY, { 0 } }

/* Baseline options for readdisk, readdisks and readpooldisks. */
#define BASELINE_OPT_DEFS                                                                          \
	{ "save-baseline", 0, NULL, "store each disk's rate as its baseline, keyed by WWN, serial or "   \
				    "by-id path (never the kernel name)", OPT_SAVE_BASELINE, { 0 } },        \
	{ "regression", 0, "PCT", "flag a disk this many percent below its baseline (default 20)",      \
	  OPT_REGRESSION, { 0 } }

/* Handles one of BASELINE_OPT_DEFS into B. Returns 0 when handled, 1 when
 * ID is not one of them, 2 after printing a usage error. */
int baseline_parse_option(const char *command, int id, const char *arg, struct read_batch *b);

/* Handles one of the READTEST_OPT_DEFS. Returns 0 when handled, 1 when ID is
 * not one of them, 2 after printing a usage error. */
int readtest_parse_option(const char *command, int id, const char *arg,
			  struct readtest_opts *opts);

/* Handles --group-by ARG into *RET. Returns 0, or 2 after printing a usage
 * error. */
int group_by_parse_option(const char *command, const char *arg, enum read_group_by *ret);

#endif
