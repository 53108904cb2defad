/* triage/doctor/demo.h: the demo's fixture and reading. A few throwaway loop
 * devices on unnamed files (lab/loopdev.h), the middle one slowed for this
 * process's reads with a cgroup v1 blkio rule (lab/throttle.h), read as
 * readdisks reads (triage/media/read_batch.h), with a check that the slowed one
 * stands out; everything is removed on success, failure or a signal. Every
 * step is logged (DEMO: lines); nothing is printed. */
#ifndef IOTRIAGE_TRIAGE_DEMO_H
#define IOTRIAGE_TRIAGE_DEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lab/loopdev.h"
#include "lab/throttle.h"
#include "output/json.h"
#include "triage/media/read_batch.h"

#define DEMO_MAX_DEVICES 8

struct demo {
	unsigned count;          /* 2 to DEMO_MAX_DEVICES */
	uint64_t device_size;
	uint64_t slow_rate;      /* bytes/s */
	unsigned slow_index;     /* set by demo_setup */
	struct loopdev loops[DEMO_MAX_DEVICES];
	struct throttle throttle;
	bool throttled;
	bool found;              /* the slowed device stood out (demo_read) */
};

/* The defaults: 4 devices of 256 MiB, the slow one limited to 40 MiB/s. */
void demo_init(struct demo *d);
/* Removes empty blkio cgroups left by a killed run (logged). */
void demo_remove_stale(void);
/* Creates the loop devices and throttles the middle one for run RUN_ID.
 * No blkio throttling on this system is a warning, not an error (nothing
 * is slowed). Returns 0 or -errno after logging; demo_teardown undoes a
 * partial setup. */
int demo_setup(struct demo *d, const char *run_id);
/* Reads the devices into B (whose opts the caller set), judges them and
 * logs whether the slowed device stood out (D->found). Returns how many
 * reads ended in error. */
size_t demo_read(struct demo *d, struct read_batch *b);
/* Removes the throttle and the loop devices (logged); idempotent. */
void demo_teardown(struct demo *d);
/* The document's "demo" object. */
void demo_json(const struct demo *d, struct json *j);

#endif
