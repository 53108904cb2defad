/* triage/read_shared.h: the shared-path check (readdisks --mode both).
 * Every ok disk of a batch is read again, all at once; each one's parallel
 * rate is recorded as a percentage of its serial rate, and the disks are
 * grouped by the path they share (disk_info.path_group). Disks that are
 * fast alone but slow together share something that cannot carry them
 * all: a cable, an expander, a controller, or on a VM one backing disk. */
#ifndef IOTRIAGE_TRIAGE_READ_SHARED_H
#define IOTRIAGE_TRIAGE_READ_SHARED_H

#include <stdbool.h>
#include <stddef.h>

#include "output/json.h"
#include "triage/read_batch.h"

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

/* Reads B's ok disks together (logged as a parallel pass), sets each one's
 * parallel_bw and parallel_pct_of_serial, and fills RET with one entry per
 * path group, logging each group's finding. */
void read_batch_parallel_pass(struct read_batch *b, struct shared_paths *ret);
/* The document's "shared_paths" array. */
void shared_paths_json(const struct shared_paths *p, struct json *j);
void shared_paths_release(struct shared_paths *p);

#endif
