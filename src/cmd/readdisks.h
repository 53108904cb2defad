/* cmd/readdisks.h: the read test's command-level pieces, shared by
 * readdisk, readdisks and demo: option parsing, the log lines, the summary
 * table, the JSON "devices" array and the database rows. */
#ifndef IOTRIAGE_CMD_READDISKS_H
#define IOTRIAGE_CMD_READDISKS_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/runctx.h"
#include "media/readtest.h"
#include "output/json.h"

enum read_group_by { READ_GROUP_NONE, READ_GROUP_VDEV, READ_GROUP_CONTROLLER, READ_GROUP_ENCLOSURE };

struct read_batch {
	struct disk_read *reads;
	size_t count;
	struct readtest_opts opts;
	bool parallel;
	double median_bw;
	size_t *order;   /* summary order, fastest first; set by read_batch_execute */
	bool save_baseline;      /* store each ok disk's rate as its baseline */
	double regression_pct;   /* flag a disk this many percent below its baseline */
	enum read_group_by group_by;
};

/* Grouping (cmd/read_group.c): by vdev, controller or enclosure. */
struct read_group {
	char name[200];
	size_t disks, ok, slow;
	double median_bw;
};
struct read_groups {
	enum read_group_by by;
	struct read_group *groups;
	size_t count;
	size_t *member_of;       /* per batch entry: its group's index */
};
/* "none", "vdev", "controller" or "enclosure". Returns 0 or -1. */
int read_group_parse(const char *arg, enum read_group_by *ret);
const char *read_group_by_name(enum read_group_by by);
/* The group a disk falls in: "tank/mirror-0", "pci 0000:00:1f.2 host0", ... */
void read_group_label(const struct disk_read *d, enum read_group_by by, char *buf, size_t len);
/* Fills each entry's pool and vdev from every pool on the system. */
void read_batch_assign_pools(struct read_batch *b);
void read_groups_build(const struct read_batch *b, struct read_groups *ret);
/* One line per group: its name, then each member with its rate (and its
 * verdict when not ok), in the batch's order. */
void read_groups_print(const struct read_batch *b, const struct read_groups *groups, FILE *out);
void read_groups_json(const struct read_batch *b, const struct read_groups *groups, struct json *j);
/* The "groups" object of one device: pool, vdev, controller, enclosure. */
void read_group_device_json(const struct disk_read *d, struct json *j);
void read_groups_release(struct read_groups *g);

/* Looks up each disk's baseline in the database at DB_PATH (a missing
 * database means no baselines). Returns 0 or -errno after logging. */
int read_batch_load_baselines(struct read_batch *b, const char *db_path);
/* Whether a disk's identity is stable enough to key a baseline (WWN,
 * serial, by-id path or loop backing file; never the kernel name). */
bool disk_has_stable_identity(const struct disk_info *info);

/* Reads every entry that is not already skipped (serially, or all at once
 * when PARALLEL), logging a starting and a completed/failed line for each,
 * then ranks them. Returns the number of entries that ended in error. */
size_t read_batch_execute(struct read_batch *b);
/* Compares each ok disk with its peers (media/outlier.h), re-reads a
 * flagged disk to confirm, and sets each entry's verdict and sentence.
 * Returns how many disks were confirmed slow or fast. */
size_t read_batch_judge(struct read_batch *b);
/* The closing log line: an outlier to replace, or "not a media anomaly". */
void read_batch_log_conclusion(const struct read_batch *b, size_t flagged);
/* The health cross-check (cmd/read_health.c): smartctl for each disk
 * flagged slow (against its peers or its baseline), or that failed part way through its read. Logs one
 * line per disk; returns how many were checked. */
size_t read_batch_check_health(struct read_batch *b);
void read_health_describe(const struct disk_read *d, char *buf, size_t len);
void read_health_json(struct json *j, const struct disk_read *d); /* nothing if unchecked */
void read_health_print(const struct read_batch *b, FILE *out);    /* nothing if none checked */
void read_batch_print_table(const struct read_batch *b, FILE *out);

/* The shared-path check (readdisks --mode both): reads every ok disk of B
 * again, all at once, records each one's parallel rate as a percentage of
 * its serial rate, and groups the disks by the path they share
 * (disk_info.path_group). */
struct shared_path {
	char group[160];
	size_t disks;
	double median_pct_of_serial;
	bool bottleneck;          /* fast alone, slow together */
};
struct shared_paths {
	struct shared_path *groups;
	size_t count;
};
void read_batch_parallel_pass(struct read_batch *b, struct shared_paths *ret);
void shared_paths_json(const struct shared_paths *p, struct json *j);
void shared_paths_release(struct shared_paths *p);
void read_batch_json(const struct read_batch *b, struct json *j);
int read_batch_store(struct store *s, const struct run_ctx *rc, void *batch);
void read_batch_release(struct read_batch *b);
size_t read_batch_count(const struct read_batch *b, enum readtest_status s);

/* Identity for a path given by the user: the sysfs description when the
 * path is a whole disk, else just its name; dev_path stays as given. */
void read_describe_path(const char *path, struct disk_info *info);

/* The parts of read_batch_finish, for a command that reads several
 * batches into one document (runall): judge (baselines, peers, health),
 * print (table, groups, health), and write the batch's JSON members. */
void read_batch_conclude(struct read_batch *b, const char *db_path);
void read_batch_present(const struct read_batch *b, FILE *out);
void read_batch_document(const struct read_batch *b, struct json *j);

struct shared_paths;
typedef void (*read_batch_json_fn)(struct json *j, void *arg);
/* Judges the batch, prints the table (unless --json), writes the document
 * (plus SHARED and whatever EXTRA adds) and the database rows. Returns the
 * exit status. */
int read_batch_finish(struct run_ctx *rc, struct read_batch *b, size_t errors, size_t ok,
		      const struct shared_paths *shared, read_batch_json_fn extra, void *extra_arg);

/* readpooldisks' first half, for runall too: finds pool ID (logging an
 * error listing the pools that exist) and fills B with its members, named
 * and grouped as the pool has them. Returns 0 or -errno. */
struct pool_layout;
int pool_read_batch_prepare(const char *id, struct read_batch *b, struct pool_layout *layout);
/* The document's "pool" object (name, fstype, members); ARG is the layout. */
void pool_layout_json(struct json *j, void *arg);

enum {
	OPT_RT_SIZE = OPT_COMMAND_BASE + 50,
	OPT_RT_BS,
	OPT_RT_IODEPTH,
	OPT_RT_ENGINE,
};

/* The read options common to readdisk, readdisks and demo, for their tables. */
#define READTEST_OPT_DEFS                                                                          \
	{ "size", 's', "SIZE", "bytes to read from each disk (default 1000M; K, M, G, T are binary)",  \
	  OPT_RT_SIZE, { 0 } },                                                                           \
	{ "bs", 'b', "SIZE", "block size (default 1M; a multiple of the logical sector size)",        \
	  OPT_RT_BS, { 0 } },                                                                             \
	{ "iodepth", 'q', "N", "I/O in flight at once (default 1, as dd does)", OPT_RT_IODEPTH, { 0 } },     \
	{ "engine", 'e', "NAME", "auto, psync, libaio, io_uring or null (default auto)", OPT_RT_ENGINE, { 0 } }

enum { OPT_SAVE_BASELINE = OPT_COMMAND_BASE + 60, OPT_REGRESSION };

#define DEFAULT_REGRESSION_PCT 20.0

enum { OPT_GROUP_BY = OPT_COMMAND_BASE + 70 };

/* --group-by for readdisks and readpooldisks. */
#define GROUP_BY_OPT_DEF                                                                           \
	{ "group-by", 'g', "HOW", "vdev, controller, enclosure or none: show the disks by pool device " \
				   "group, by controller (or shared backing), or by SES enclosure",   \
	  OPT_GROUP_BY, { 0 } }

/* Baseline options for readdisk and readdisks. */
#define BASELINE_OPT_DEFS                                                                          \
	{ "save-baseline", 0, NULL, "store each disk's rate as its baseline, keyed by WWN, serial or "   \
				    "by-id path (never the kernel name)", OPT_SAVE_BASELINE, { 0 } },        \
	{ "regression", 0, "PCT", "flag a disk this many percent below its baseline (default 20)",      \
	  OPT_REGRESSION, { 0 } }

/* Handles one of BASELINE_OPT_DEFS into B. Returns 0 when handled, 1 when
 * ID is not one of them, 2 after printing a usage error. */
int baseline_parse_option(const char *command, int id, const char *arg, struct read_batch *b);

void readtest_opts_default(struct readtest_opts *opts);
/* Handles one of the READTEST_OPT_DEFS. Returns 0 when handled, 1 when ID is
 * not one of them, 2 after printing a usage error. */
int readtest_parse_option(const char *command, int id, const char *arg,
			  struct readtest_opts *opts);

#endif
