/* triage/workload/presets.h: named sets of run workloads, as one data table.
 *
 * "nas-iops" is the NAS vendor's IOPS test (4K random read and write, 1M
 * sequential read and write; 8 jobs at queue depth 64, 30 s ramp, 60 s
 * time-based); "cdm" is CrystalDiskMark's default set (SEQ1M Q8T1, SEQ1M
 * Q1T1, RND4K Q32T1, RND4K Q1T1, each read then write, 5 s each) and
 * "cdm-nvme" its NVMe set. Each test runs LOOPS times through run_workload()
 * (so writes to a block device pass the raw-device write guard); a test
 * reports every loop's IOPS and bandwidth, their mean, best and spread, and
 * the latency of all its loops together. Logs; prints nothing.
 */
#ifndef IOTRIAGE_TRIAGE_PRESETS_H
#define IOTRIAGE_TRIAGE_PRESETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/histogram.h"
#include "output/json.h"
#include "triage/workload/run.h"

#define PRESET_MAX_TESTS 8
#define PRESET_MAX_LOOPS 100

struct preset_test {
	const char *name;        /* "RND4K Q32T1 read" */
	const char *rw;          /* a run --rw mode */
	uint32_t bs;
	unsigned iodepth, numjobs;
};

struct preset {
	const char *name;
	const char *summary;
	unsigned ramp_s, runtime_s; /* per test; time-based */
	unsigned loops;             /* default --loops */
	size_t ntests;
	struct preset_test tests[PRESET_MAX_TESTS];
};

extern const struct preset preset_table[];
extern const size_t preset_count;

/* NULL when no preset has that name. */
const struct preset *preset_find(const char *name);
/* The fio command line that runs test T of P on TARGET with ENGINE (the
 * engine iotriage ran: psync, libaio, io_uring or null; NULL for
 * io_uring, the listing's), for cross-checking: fio's own report then gives
 * the same figures. Batched submission and completion where the engine
 * queues, fixed buffers and registered files on io_uring, as an expert
 * runs fio. */
void preset_fio_command(const struct preset *p, const struct preset_test *t, const char *target, const char *engine,
			char *buf, size_t len);

struct preset_figures {
	unsigned loops_done;
	double iops[PRESET_MAX_LOOPS], bw[PRESET_MAX_LOOPS];
	double iops_mean, iops_best, iops_stdev, bw_mean, bw_best, bw_stdev;
	struct histogram lat;    /* every loop's completion latency */
	bool has_slat;           /* the engine separates submission (io_uring, libaio) */
	struct histogram slat;   /* every loop's submission latency, when HAS_SLAT */
	double cpu_ns_per_io;    /* user + system over the loops' I/Os */
	char engine[16];
};

struct preset_outcome {
	const struct preset *preset;
	unsigned loops;
	uint64_t ramp_ns, runtime_ns; /* as run (the preset's, or the overrides) */
	size_t ntests_done;
	struct preset_figures figures[PRESET_MAX_TESTS];
};

/* Runs every test of P on PATH LOOPS times with BASE's other settings (size,
 * engine, direct, force). RAMP_NS and RUNTIME_NS override the preset's when
 * not 0. Returns 0, or -errno with ERR (the outcome then holds the tests
 * done before). */
int preset_run(const struct preset *p, const char *path, const struct run_settings *base, unsigned loops,
	       uint64_t ramp_ns, uint64_t runtime_ns, struct preset_outcome *out, char *err, size_t errlen);

/* Every preset as the document's "presets" array, with the fio lines. */
void preset_list_json(struct json *j);

struct store;
/* One results row per test done, like a run's ("preset NAME: TEST"). */
int preset_store(struct store *s, const char *run_id, const struct preset_outcome *o, const char *path);

/* The outcome as the document's "preset" object. */
void preset_json(struct json *j, const struct preset_outcome *o, const char *path);

#endif
