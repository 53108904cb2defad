/* bench/job_spec.h: what a job is asked to do (struct job_spec, the
 * options of fio's job in iotriage's terms) and the rules of it: where each
 * worker's area lies, the steps its offsets take (the grain, the smallest
 * block size, or blockalign per direction, as fio places them), and the
 * checks of a spec against a target, so a command can refuse a spec before
 * anything runs. bench/job.h runs a spec. */
#ifndef IOTRIAGE_BENCH_JOB_SPEC_H
#define IOTRIAGE_BENCH_JOB_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/progress.h"
#include "bench/distribution.h"
#include "bench/joblog.h"
#include "bench/pattern.h"
#include "bench/target.h"
#include "bench/verify.h"
#include "engine/engine.h"

#define JOB_MAX_THREADS 256
#define JOB_MAX_IODEPTH 4096
#define JOB_MAX_SPLIT 64        /* bssplit entries */

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

/* The grain of offsets: the smallest block size. */
uint32_t job_grain(const struct job_spec *spec);
/* The step of random offsets in direction DIR: its ba, or the grain. */
uint64_t job_offset_step(const struct job_spec *spec, enum io_dir dir);
/* How many steps of DIR an area of SPAN holds with a block of the grain at
 * the last one (fio's last_block). */
uint64_t job_last_block(const struct job_spec *spec, uint64_t span, enum io_dir dir);
/* The direction a job's random offsets are placed for: its first. */
enum io_dir job_first_dir(const struct job_spec *spec);
/* Whether a ba other than the grain places random offsets. */
bool job_ba_used(const struct job_spec *spec);

#endif
