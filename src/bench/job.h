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

#include "basic/progress.h"
#include "bench/distribution.h"
#include "bench/histogram.h"
#include "bench/joblog.h"
#include "bench/pattern.h"
#include "bench/target.h"
#include "bench/verify.h"
#include "engine/engine.h"

#define JOB_MAX_THREADS 256
#define JOB_MAX_IODEPTH 4096
#define JOB_MAX_SPLIT 64        /* bssplit entries */
#define JOB_MAX_SAMPLES 1024     /* bandwidth samples kept; later intervals are not sampled */

/* How random offsets are drawn: uniform with replacement (blocks may repeat
 * and some are never touched, fio's norandommap), or every block once per
 * pass over the area in a random order (fio's default random map). */
enum job_random_map { JOB_MAP_UNIFORM, JOB_MAP_ONCE };

/* A job's progress, about once a second while it runs and once more with
 * FINISHED when it ends, for a line the caller draws: bench/ prints nothing. */
struct job_progress {
	const char *label;       /* spec.progress_label, or "io" */
	uint64_t done_bytes;
	uint64_t total_bytes;
	uint64_t elapsed_ns;
	uint64_t runtime_ns;     /* the time cap (after the ramp), 0 for none */
	bool finished;
};
typedef void (*job_progress_fn)(const struct job_progress *p);

struct job_spec {
	bool random;
	unsigned read_pct;       /* 100 = reads only, 0 = writes only */
	uint32_t bs;
	unsigned iodepth;
	unsigned numjobs;
	uint64_t size;           /* the span addressed; 0 = the whole target */
	uint64_t io_limit;       /* bytes each worker moves at most; 0 = size (fio's io_size) */
	uint64_t runtime_ns;     /* cap; 0 = none */
	enum data_pattern pattern;
	uint64_t seed;           /* random offsets and data; fixed seeds make runs repeatable */
	job_progress_fn progress; /* told the progress about once a second; NULL: none */
	bool no_pin;             /* leave workers unpinned (by default each runs on one CPU) */
	const char *progress_label;
	uint64_t sample_ns;      /* bandwidth sample interval (compare's noise); 0 = none */
	uint64_t ramp_ns;        /* I/O runs, uncounted, this long before statistics start */
	bool time_based;         /* repeat over the area until runtime_ns (which must be set) */
	uint64_t rate_bps;       /* per worker bytes per second at most; 0 = no cap */
	uint64_t rate_iops;      /* per worker I/Os per second at most; 0 = no cap */
	enum job_random_map random_map;
	/* When set, the bytes done so far are stored here about every 50 ms
	 * (atomically): a watcher in another process can see whether the job
	 * still makes progress (media/readtest.c's deadline). */
	uint64_t *progress_out;
	/* When set, stored 1 (atomically) once the workers run: a watcher can
	 * tell a job that never began from a device that does not answer. */
	int *running_out;
	/* When set, told the bytes done as the running part (progress_part)
	 * from the thread that called job_run, a few times a second. */
	struct progress *live;
	/* When set, workers take CPU slots from CPU_SLOT on instead of the
	 * process's counter (a forked job cannot share the counter). */
	bool fixed_cpu_slot;
	unsigned cpu_slot;
	/* fio's options of the same names (bench/fiojob.h reads them):
	 * worker I's area starts at OFFSET + I * OFFSET_INCREMENT (and runs to
	 * the target's end when SIZE is 0); each worker stops after NUMBER_IOS
	 * I/Os a pass when set; the pass runs LOOPS times (0 or 1: once). */
	uint64_t offset, offset_increment;
	uint64_t number_ios;
	unsigned loops;
	uint64_t startdelay_ns;  /* the workers start this long after job_run (not counted) */
	/* After every THINKTIME_BLOCKS I/Os (0: 1) a worker waits for those in
	 * flight, then sleeps THINKTIME_NS (fio's thinktime). */
	uint64_t thinktime_ns;
	unsigned thinktime_blocks;
	/* An fsync (fdatasync with DATASYNC) before the next write after every
	 * SYNC_EVERY writes, once those in flight are done; END_FSYNC: one
	 * fsync when the worker ends (not counted, as in fio). */
	unsigned sync_every;
	bool datasync, end_fsync;
	uint64_t seq_hole;       /* rw=write:N: N bytes skipped after each sequential I/O */
	/* verify=: writes carry a checked header (bench/verify.h); VERIFY_READ
	 * (fio's do_verify) reads every written block back after the writes;
	 * a job of reads checks each block it reads. VERIFY_FATAL stops at the
	 * first mismatch; otherwise every block is checked and the run fails. */
	enum checksum_kind verify;
	bool verify_read, verify_fatal;
	/* fio's verify_backlog and verify_backlog_batch: with VERIFY_READ, a
	 * write job also reads back the blocks it wrote during the writes, by
	 * fio's rule (struct verify_backlog in bench/verify.h): after every
	 * VERIFY_BACKLOG writes, VERIFY_BATCH blocks (0: VERIFY_BACKLOG), oldest
	 * first; these reads do not count against the size, and the read-back
	 * after the writes checks only the blocks left. 0: none. */
	uint64_t verify_backlog;
	uint64_t verify_batch;
	/* Block sizes that vary (fio's bsrange and bssplit): BS is then the
	 * largest, BS_MIN the smallest and the grain of offsets (fio's
	 * blockalign default). With NR_SPLIT entries each I/O's size is drawn
	 * by their percentages; without, uniformly from BS_MIN to BS in steps
	 * of BS_MIN. BS_MIN 0: every I/O is BS. */
	uint32_t bs_min;
	unsigned nr_split;
	struct job_bs_share {
		uint32_t bs;
		unsigned pct;
	} split[JOB_MAX_SPLIT];
	/* fio's random_distribution: random offsets drawn from DIST's shape
	 * over the area's ranges of the smallest block size (bench/distribution.h);
	 * DIST_RANDOM (zeroed): uniform, with the random map. */
	struct dist_spec dist;
	/* fio's blockalign (ba), per direction: uniform random offsets
	 * (JOB_MAP_UNIFORM, DIST_RANDOM, one file) in steps of BA[dir] bytes
	 * from the area's start instead of the grain, at most grain - BA short
	 * of its end when smaller than the grain (fio's last_block); 0: the
	 * grain. Sequential I/O does not use it, as in fio. */
	uint64_t ba[IO_DIRS];
	/* fio's buffer_compress_percentage, buffer_compress_chunk and
	 * dedupe_percentage: when either percentage is set, every write's
	 * buffer is filled afresh (no scramble): DEDUPE_PCT% of the writes
	 * repeat the last unique block, the others are new, each chunk of
	 * COMPRESS_CHUNK bytes (0: 512) COMPRESS_PCT% zeros
	 * (pattern_fill_compressible). */
	unsigned compress_pct, dedupe_pct;
	uint32_t compress_chunk;
	/* fio's refill_buffers: every write's buffer filled afresh with new
	 * random data (as with the percentages at 0), not scrambled. */
	bool refill;
	/* fio's logs (write_bw_log, ...; bench/joblog.h): when set, begun by
	 * job_run and filled by the workers with every counted completion;
	 * the caller writes and releases it. */
	struct joblog *log;
	/* fio's trim modes: every I/O a trim (discard) of its block (rw=trim,
	 * randtrim), or a trim and then a write of the same block
	 * (trimwrite, randtrimwrite: the writes count against the size, the
	 * trims do not). READ_PCT is 0 with either. */
	enum job_trim { JOB_TRIM_NONE, JOB_TRIM_ONLY, JOB_TRIM_WRITE } trim;
	/* fio's nrfiles (file_service_type=roundrobin): NR_FILES files of
	 * SIZE / NR_FILES bytes each, FILE_FDS their descriptors (the first the
	 * target's). The area is SIZE as one: its block B (of BS) is block
	 * B / NR_FILES of file B % NR_FILES (job_file_block), so a sequential
	 * pass goes to the files in turn, each from its start, as fio's. Fixed
	 * block sizes only, no verify, trim, sync_every or offsets. */
	unsigned nr_files;
	const int *file_fds;
};

/* The file and the offset in it of byte OFF of an area spread over
 * NR_FILES files in blocks of BS (job_spec.nr_files). */
static inline unsigned job_file_block(uint64_t off, uint32_t bs, unsigned nr_files, uint64_t *file_off)
{
	uint64_t b = off / bs;
	*file_off = b / nr_files * bs + off % bs;
	return (unsigned)(b % nr_files);
}

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

/* The rules between the time options alone (time-based needs a runtime, a
 * ramp no longer than the runtime), so a command can refuse them before
 * anything starts. Returns 0, or -EINVAL with MSG. */
int job_validate_timing(const struct job_spec *spec, char *msg, size_t len);

/* Where worker INDEX's area starts, and its length on T (0 when the
 * offset is at or past the target's end): SIZE, or to the end without
 * one; on a block device never past its end. */
uint64_t job_worker_base(const struct job_spec *spec, unsigned index);
uint64_t job_worker_span(const struct job_spec *spec, const struct target *t, unsigned index);
/* The bytes a file must hold for SPEC (its last worker's area's end). */
uint64_t job_file_bytes(const struct job_spec *spec);

/* Checks a spec against a target (alignment, sizes); on failure writes a
 * message for the user to MSG and returns -EINVAL. */
int job_validate(const struct job_spec *spec, const struct target *t, char *msg, size_t len);

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
