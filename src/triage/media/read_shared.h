/* triage/media/read_shared.h: the shared-path check (readdisks --mode both).
 * Every ok disk of a batch is read again, all at once; each one's parallel
 * rate is recorded as a percentage of its serial rate, and the disks are
 * grouped by the path they share (disk_info.path_group). Disks that are
 * fast alone but slow together share something that cannot carry them
 * all: a cable, an expander, a controller, or on a VM one backing disk.
 * Before that pass, each group (the batch's --group-by, else each
 * controller) with two or more ok disks is read on its own, its disks all
 * at once: a path a group has to itself shows there, and a group that keeps
 * its rate alone but not beside the others shares a path with them. */
#ifndef IOTRIAGE_TRIAGE_READ_SHARED_H
#define IOTRIAGE_TRIAGE_READ_SHARED_H

#include <stdbool.h>
#include <stddef.h>

#include "output/json.h"
#include "triage/media/read_batch.h"
#include "triage/media/read_group.h"

/* Below this share of its solo rate, a disk read with its group is held back
 * by the path they share. Independent paths stay near 100%. */
#define SHARED_PATH_LIMIT_PCT 70.0

enum shared_judgement {
	SHARED_FINE,      /* the group keeps its solo rates (or has one disk) */
	SHARED_PATH,      /* the group's median is below the limit: the whole path */
	SHARED_SUBSET,    /* the median holds, but 2 or more disks are below the limit */
};

/* The judgement of one path group from its N disks' parallel rates as
 * percentages of their solo rates (PCTS, not modified). *MEDIAN is their
 * median; HELD_BACK[i] (N entries) is set for the disks below the limit
 * when the judgement is SHARED_SUBSET, cleared otherwise. A subset of 2 or
 * more disks slow together while the others hold shares something of its
 * own below the group's path (a backing disk, a throttle group, an expander
 * port); one disk alone below the limit is not a shared path. Pure. */
enum shared_judgement shared_path_judge(const double *pcts, size_t n, double *median, bool *held_back);

struct shared_path {
	char group[200];
	size_t disks;
	double median_pct_of_serial;
	bool bottleneck;          /* fast alone, slow together: the whole group */
	size_t held_back;         /* SHARED_SUBSET: how many of its disks are */
	char held_back_names[256]; /* their kernel names, space-separated */
	double held_back_median_pct;
	/* A group pass only: its disks' median share in the pass of all disks,
	 * and whether the group held alone but was held back beside the others. */
	double all_median_pct;
	bool held_by_others;
};
struct shared_paths {
	struct shared_path *groups;      /* the pass of all disks, by path group */
	size_t count;
	enum read_group_by by;           /* the groups read one at a time */
	struct shared_path *group_passes; /* one per group read on its own */
	size_t group_pass_count;
};

/* A group that keeps its solo rate when read on its own (ALONE_PCT, its
 * median share) but falls below the limit among all the disks (ALL_PCT)
 * shares a path with the other groups. Pure. */
bool shared_held_by_others(double alone_pct, double all_pct);

/* Reads each group's ok disks together, one group at a time (group_bw,
 * group_pct_of_serial; RET's group_passes), then all of B's ok disks
 * together (logged as a parallel pass), sets each one's parallel_bw and
 * parallel_pct_of_serial, and fills RET with one entry per path group,
 * logging each group's finding. */
void read_batch_parallel_pass(struct read_batch *b, struct shared_paths *ret);
/* The document's "shared_paths" array, and "group_passes" (each group read
 * on its own, with "by", its median share of its solo rate alone and among
 * all, and whether it was held back by the others) when there were any. */
void shared_paths_json(const struct shared_paths *p, struct json *j);
void shared_paths_release(struct shared_paths *p);

#endif
