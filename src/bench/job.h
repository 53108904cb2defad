/* bench/job.h: one workload (fio's "job") run with the built-in engine.
 *
 * A job is NUMJOBS worker threads, each with its own engine context and
 * IODEPTH units, issuing BS-sized I/O, sequential or random, reads, writes or
 * a mix, until it has moved SIZE bytes or RUNTIME has passed, whichever is
 * first. Both are caps: the result holds the bytes and seconds actually done
 * and which cap ended the run. With TIME_BASED the workers go over the area
 * again and again until RUNTIME. During the first RAMP_NS the I/O runs but
 * is not counted: statistics (and the runtime) start after it. Every I/O's
 * latency goes into a histogram, and with an engine that separates
 * submission from completion its submission latency into another (one clock
 * read per submitted batch); every worker's CPU time is measured.
 *
 * Written data: with PATTERN_RANDOM every 512-byte sector of every write is
 * scrambled just before it is submitted (bench/pattern.h), so no two sectors
 * ever written repeat and deduplication cannot shrink them.
 */
#ifndef IOTRIAGE_BENCH_JOB_H
#define IOTRIAGE_BENCH_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/histogram.h"
#include "bench/job_spec.h"
#include "engine/engine.h"

#define JOB_MAX_SAMPLES 1024     /* bandwidth samples kept; later intervals are not sampled */

enum job_stop { JOB_STOP_SIZE, JOB_STOP_TIME, JOB_STOP_ERROR, JOB_STOP_INTERRUPTED };

struct job_worker_result {
	uint64_t bytes;
	uint64_t ios;
	double done_seconds;     /* from the common start to this worker's last completion */
	int cpu;                 /* the CPU the worker was pinned to, -1 when not pinned */
	double user_seconds, system_seconds; /* the worker thread's CPU time after the ramp */
	double busy_seconds;     /* wall time the worker ran after the ramp */
	uint64_t voluntary_switches, involuntary_switches;
};

/* A worker busier than this fraction of its wall time is the bottleneck:
 * the figure then measures iotriage, not the storage. */
#define JOB_CPU_BOUND_FRACTION 0.90

struct job_result {
	const struct engine_ops *engine;
	unsigned iodepth;        /* effective: 1 for synchronous engines */
	uint64_t span;           /* bytes of the target addressed */
	uint64_t bytes, read_bytes, write_bytes, trim_bytes;
	uint64_t ios, read_ios, write_ios, trim_ios;
	double seconds;          /* common start to last completion (= last_done_seconds) */
	double first_done_seconds, last_done_seconds;
	struct histogram lat_read, lat_write;   /* completion latency: queue() to reap */
	struct histogram lat_trim;              /* trims: done inside queue(), no slat */
	/* Submission latency (fio's slat): queue() until the commit() that sent
	 * the I/O returned, for the same I/Os as lat_*. Only when HAS_SLAT, the
	 * engine's separates_submission; empty otherwise. */
	bool has_slat;
	struct histogram slat_read, slat_write;
	uint64_t sync_ios;       /* fsync/fdatasync issued (sync_every) */
	struct histogram lat_sync;
	/* verify=: blocks checked, how many failed, the first failure's byte
	 * offset and what was wrong with it. */
	uint64_t verify_blocks, verify_errors, verify_offset;
	uint64_t verify_backlog_blocks;  /* of VERIFY_BLOCKS, those checked during the writes */
	char verify_why[160];
	enum job_stop stop;
	int error;               /* -errno when stop == JOB_STOP_ERROR */
	uint64_t error_offset;
	unsigned nr_workers;
	double ramp_seconds;     /* uncounted warm-up before the statistics */
	enum job_random_map random_map;
	struct job_worker_result workers[JOB_MAX_THREADS];
	/* Bytes per second over each whole SAMPLE_NS interval from the start
	 * (a last, partial interval is not kept): the run's own noise. */
	unsigned nr_samples;
	double sample_seconds;
	double samples_bw[JOB_MAX_SAMPLES];
	/* The same intervals per direction (IO_READ, IO_WRITE, IO_TRIM): bytes
	 * and I/Os per second (fio's per-direction bw_* and iops_* figures). */
	double samples_dir_bw[IO_DIRS][JOB_MAX_SAMPLES];
	double samples_dir_iops[IO_DIRS][JOB_MAX_SAMPLES];
};

/* Runs SPEC on T with ENGINE. The result is heap-allocated (it holds the
 * histograms); free it with free(). Returns 0 with *ret set even when the I/O
 * failed (see ret->stop and ret->error); -errno only when nothing could run. */
int job_run(const struct job_spec *spec, const struct target *t, const struct engine_ops *engine,
	    struct job_result **ret);

/* Reserves N successive CPU slots of the process's counter and returns the
 * first, for a job run in a forked child (job_spec.fixed_cpu_slot). */
unsigned job_reserve_cpu_slots(unsigned n);

const char *job_stop_name(enum job_stop stop);
/* "uniform" or "once", and the words saying what it means. */
const char *job_random_map_name(enum job_random_map map);
const char *job_random_map_text(enum job_random_map map);
/* The busiest worker's CPU time (user + system) over its wall time, 0 to ~1. */
double job_max_worker_cpu(const struct job_result *r);
double job_bw_bytes_per_s(const struct job_result *r);
double job_iops(const struct job_result *r);

#endif
