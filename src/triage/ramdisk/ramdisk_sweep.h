/* triage/ramdisk/ramdisk_sweep.h: the ramdisk sweep's measurement. For each ndelay
 * value: one RAM disk, filled with random data, then 4 KiB random reads at
 * queue depth 1 (O_DIRECT, psync, the project's job engine) for the
 * runtime; mean latency, percentiles and IOPS per value. The disk is
 * destroyed before the next value. A value the backend cannot inject is
 * not measured, with why. Every step is logged; nothing is printed. */
#ifndef IOTRIAGE_TRIAGE_RAMDISK_SWEEP_H
#define IOTRIAGE_TRIAGE_RAMDISK_SWEEP_H

#include <stdbool.h>

#include "bench/histogram.h"
#include <stddef.h>
#include <stdint.h>

#include "basic/progress.h"
#include "ramdisk/ramdisk.h"

#define SWEEP_MAX_POINTS 16

struct sweep_point {
	uint64_t ndelay_ns;
	bool measured;
	char why[300];          /* why not measured ("" when interrupted) */
	double mean_ns, iops;
	uint64_t p50_ns, p99_ns, ios;
	double seconds;
	struct hist_summary lat; /* the whole completion latency: mean, stdev, p50 to p99.99, max */
};

struct sweep {
	/* what to measure */
	struct sweep_point points[SWEEP_MAX_POINTS];
	size_t n;
	uint64_t size;
	uint64_t runtime_ns;
	unsigned sector_size;   /* 0: the backend's */
	const char *backend;    /* NULL: the first that can */
	struct progress *progress; /* told each value as it is measured; NULL for none */
	/* what was used */
	const struct ramdisk_backend *b;
	const char *reason;     /* why nothing was measured, for the document */
};

/* Runs the sweep S under RUN_ID: refuses while RAM disks exist, picks the
 * backend (one that injects latency when a value asks for it, else one for
 * the 0 values alone), checks the memory budget, then measures each point.
 * Returns how many points were measured, or -errno with s->reason. */
int ramdisk_sweep_run(struct sweep *s, const char *run_id);

#endif
