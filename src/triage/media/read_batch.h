/* triage/media/read_batch.h: step 1 of the method, the read batch. A batch is a
 * set of disks read the same way (media/readtest.h), serially or all at
 * once, then ranked against their median and judged against their peers
 * and their baselines (triage/media/read_verdict.h), with the health of a flagged
 * disk cross-checked (triage/media/read_health.h), grouped (triage/media/read_group.h)
 * and, for readdisks --mode both, read again together
 * (triage/media/read_shared.h).
 *
 * Used by readdisk, readdisks, readpooldisks, demo, doctor and runall.
 * Everything here logs its steps (the READ-DISK lines) and never writes to
 * stdout; the terminal table is render/read.h's. The batch's stored
 * form is its JSON members (read_batch_json, read_batch_document) and its
 * database rows (read_batch_store). */
#ifndef IOTRIAGE_TRIAGE_READ_BATCH_H
#define IOTRIAGE_TRIAGE_READ_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "basic/progress.h"
#include "media/readtest.h"
#include "output/json.h"
#include "store/store.h"
#include "triage/media/read_remote.h"

/* A disk this many percent below its baseline is flagged (--regression). */
#define DEFAULT_REGRESSION_PCT 20.0

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
	bool health_swept;       /* the health sweep ran, or is not wanted (the parallel pass's copy) */
	struct progress *progress; /* told the disks and bytes read; NULL for none */
	char conclusion[512];    /* the batch's verdict in words, "" when too few disks to compare */
	struct read_remote remote; /* entries on other hosts */
};

/* The read defaults: 1000 MiB in 1 MiB blocks, queue depth 1, engine auto,
 * a progress line when stderr is a terminal. */
void readtest_opts_default(struct readtest_opts *opts);

/* Identity for a path given by the user: the sysfs description when the
 * path is a whole disk, else just its name; dev_path stays as given. */
void read_describe_path(const char *path, struct disk_info *info);

/* Fills B with every whole disk of the system whose kernel name or path
 * matches one of GLOBS (all when NGLOBS is 0), in kernel-name order; a
 * disk that disk_enumerate() gives a skip reason (detached loop device,
 * empty drive, ...) is entered as skipped with it. Returns 0, or
 * -errno when the disks cannot be listed (/sys/block). */
int read_batch_add_system_disks(struct read_batch *b, const char *const *globs, size_t nglobs);

/* Sweeps the disks' health first (triage/media/read_health.h, once per batch),
 * then reads every entry that is not already skipped (serially, or all at once
 * when PARALLEL), logging a starting and a completed/failed line for each,
 * then ranks them. Returns the number of entries that ended in error. */
size_t read_batch_execute(struct read_batch *b);
size_t read_batch_count(const struct read_batch *b, enum readtest_status s);
void read_batch_release(struct read_batch *b);

/* The batch's members of a document: "parameters", "devices" and
 * "summary". */
void read_batch_json(const struct read_batch *b, struct json *j);
/* read_batch_json plus the "grouping" object when the batch is grouped. */
void read_batch_document(const struct read_batch *b, struct json *j);
/* The database rows of run RUN_ID (started at STARTED): each disk, its
 * result, and with save_baseline its baseline (logged). Returns 0 or the
 * store's -errno. */
int read_batch_store(struct store *s, const char *run_id, time_t started, const struct read_batch *b);

#endif
