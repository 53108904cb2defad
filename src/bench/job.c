#include "bench/job.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/timeutil.h"

/* Holds the workers until all of them exist, so they start together (and
 * none starts when a thread could not be created). */
struct start_gate {
	pthread_mutex_t lock;
	pthread_cond_t opened;
	int state; /* 0 closed, 1 go, -1 abort */
};

static int gate_wait(struct start_gate *g)
{
	pthread_mutex_lock(&g->lock);
	while (g->state == 0)
		pthread_cond_wait(&g->opened, &g->lock);
	int state = g->state;
	pthread_mutex_unlock(&g->lock);
	return state;
}

static void gate_open(struct start_gate *g, int state)
{
	pthread_mutex_lock(&g->lock);
	g->state = state;
	pthread_cond_broadcast(&g->opened);
	pthread_mutex_unlock(&g->lock);
}

/* A random permutation of the block numbers [0, n): a 4-round Feistel
 * network over the next even power of two, walking the cycle until the value
 * falls below n (fewer than 4 steps on average). Every block once per pass,
 * in an order no stride reveals. */
struct block_perm {
	uint64_t n, mask;
	unsigned half_bits;
	uint64_t keys[4];
};

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void perm_init(struct block_perm *p, uint64_t n, struct prng *r)
{
	unsigned bits = 2;
	while (bits < 64 && (1ULL << bits) < n)
		bits++;
	bits += bits & 1;
	p->n = n;
	p->half_bits = bits / 2;
	p->mask = (1ULL << p->half_bits) - 1;
	for (int i = 0; i < 4; i++)
		p->keys[i] = prng_next(r);
}

static uint64_t perm_at(const struct block_perm *p, uint64_t i)
{
	uint64_t x = i;
	do {
		uint64_t left = x >> p->half_bits, right = x & p->mask;
		for (int k = 0; k < 4; k++) {
			uint64_t next = left ^ (mix64(right ^ p->keys[k]) & p->mask);
			left = right;
			right = next;
		}
		x = (left << p->half_bits) | right;
	} while (x >= p->n);
	return x;
}

/* One worker thread. Each has its own engine context, units, buffers,
 * random state and histograms: nothing is shared on the I/O path except the
 * target's file descriptor. */
struct worker {
	const struct job_spec *spec;
	const struct engine_ops *ops;
	struct engine_ctx ctx;
	struct start_gate *gate;
	atomic_uint *workers_finished;

	uint64_t base;           /* where the worker's area starts (offset, offset_increment) */
	uint64_t span;
	uint64_t limit;          /* bytes this worker moves at most */
	unsigned iodepth;
	struct prng rng;
	struct prng scramble_rng;  /* seeded per run: data differs between runs */
	uint64_t scramble_serial;  /* worker index in the top byte, then a sector count */
	struct block_perm perm;
	uint64_t perm_next;
	struct dist_state dist;  /* random_distribution other than random */
	uint64_t unique_seed;    /* the last unique block's data (dedupe_percentage) */
	struct prng dedupe_rng;
	void *buffers;
	size_t buffers_len;
	struct io_unit *units;
	struct io_unit **free_units;
	unsigned nr_free;
	struct io_unit **batch;  /* queued since the last commit (iodepth slots) */
	bool record_slat;        /* the engine separates submission: record slat */

	bool pin;                /* run on one CPU */
	bool submit_each;        /* submit each I/O as soon as it is prepared (see job_run) */
	unsigned index;          /* its place in the job */
	int cpu;                 /* pinned CPU, -1 for none */
	uint64_t start_ns, done_ns;
	uint64_t ramp_end_ns;    /* completions before it are not counted */
	bool ramping;
	uint64_t rate_next_ns;   /* the next I/O may start then (rate caps) */
	uint64_t issued, seq_offset;
	uint64_t ios_issued;     /* this pass (number_ios) */
	unsigned loop;           /* passes done (loops) */
	unsigned think_count;    /* I/Os since the last think time */
	bool think_due;
	uint64_t writes_issued, synced_at, sync_ios;
	struct histogram lat_sync;
	bool verifying;          /* the read-back pass after the writes */
	struct verify_map vmap;  /* blocks written (verify) and not yet read back */
	struct verify_backlog backlog; /* verify_backlog: blocks written, oldest first */
	bool backlog_unit;       /* the unit just prepared reads a block back during the writes */
	enum io_dir last_dir;    /* of the last I/O done (fio's last_ddir; reads at first, as fio's) */
	uint64_t verify_backlog_blocks;
	struct verify_map used;  /* sizes that vary, random map on: blocks done this pass */
	uint64_t verify_next, verify_issued;
	uint64_t verify_blocks, verify_errors, verify_offset;
	char verify_why[160];
	struct rusage usage_start, usage_end;
	uint64_t usage_start_ns, usage_end_ns;
	bool write_after_trim;   /* trimwrite: the block just trimmed is written next */
	uint64_t trim_offset;
	uint32_t trim_len;
	uint64_t bytes[IO_DIRS], ios[IO_DIRS];
	struct histogram lat[IO_DIRS];
	struct histogram slat[2];
	enum job_stop stop;
	int error;
	uint64_t error_offset;
	/* Read by the progress line and the sampler while the worker runs; one
	 * writer. Per direction, so samples can be told apart as fio's are. */
	_Atomic uint64_t progress_bytes[IO_DIRS], progress_ios[IO_DIRS];
};

const char *job_stop_name(enum job_stop stop)
{
	switch (stop) {
	case JOB_STOP_SIZE:
		return "size";
	case JOB_STOP_TIME:
		return "time";
	case JOB_STOP_ERROR:
		return "error";
	case JOB_STOP_INTERRUPTED:
		return "interrupted";
	}
	return "?";
}

const char *job_random_map_name(enum job_random_map map)
{
	return map == JOB_MAP_ONCE ? "once" : "uniform";
}

const char *job_random_map_text(enum job_random_map map)
{
	return map == JOB_MAP_ONCE ? "every block once per pass, in random order"
				   : "uniform with replacement (blocks may repeat or be missed)";
}

double job_max_worker_cpu(const struct job_result *r)
{
	double most = 0;
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct job_worker_result *w = &r->workers[i];
		double f = w->busy_seconds > 0 ? (w->user_seconds + w->system_seconds) / w->busy_seconds : 0;
		if (f > most)
			most = f;
	}
	return most;
}

double job_bw_bytes_per_s(const struct job_result *r)
{
	return r->seconds > 0 ? (double)r->bytes / r->seconds : 0.0;
}

double job_iops(const struct job_result *r)
{
	return r->seconds > 0 ? (double)r->ios / r->seconds : 0.0;
}

/* The read-back pass: the next written block, whole. */
static void prepare_verify_unit(struct worker *w, struct io_unit *u)
{
	uint64_t b = verify_map_next(&w->vmap, w->verify_next);
	w->verify_next = b + 1;
	w->verify_issued++;
	u->dir = IO_READ;
	u->len = w->spec->bs;
	u->offset = w->base + b * w->spec->bs;
}

/* verify_backlog: the oldest block written read back now, when fio's rule
 * says so; it leaves the written-block map, so the read-back after the
 * writes skips it. */
static bool prepare_backlog_unit(struct worker *w, struct io_unit *u)
{
	uint64_t b = 0;
	if (!verify_backlog_next(&w->backlog, w->last_dir == IO_READ, &w->vmap, &b))
		return false;
	verify_map_unmark(&w->vmap, b);
	w->backlog_unit = true;
	u->dir = IO_READ;
	u->len = w->spec->bs;
	u->offset = w->base + b * w->spec->bs;
	return true;
}

/* A uniform random offset in the area: a multiple of the direction's ba
 * (the grain without one) where a block of the grain still fits. */
static uint64_t uniform_offset(struct worker *w, enum io_dir dir)
{
	return prng_below(&w->rng, job_last_block(w->spec, w->span, dir)) * job_offset_step(w->spec, dir);
}

/* This I/O's size: BS, or drawn as bssplit or bsrange say. */
static uint32_t pick_len(struct worker *w)
{
	const struct job_spec *spec = w->spec;
	if (!spec->bs_min)
		return spec->bs;
	if (!spec->nr_split)
		return spec->bs_min * (uint32_t)(1 + prng_below(&w->rng, spec->bs / spec->bs_min));
	unsigned r = (unsigned)prng_below(&w->rng, 100), sum = 0;
	for (unsigned i = 0; i < spec->nr_split; i++) {
		sum += spec->split[i].pct;
		if (r < sum)
			return spec->split[i].bs;
	}
	return spec->split[spec->nr_split - 1].bs;
}

/* fio's random map with sizes that vary: a block drawn at random, or the
 * first not done this pass after it when it is done (fio's axmap_next_free;
 * a new pass when all are), the I/O cut where a done block begins, its
 * blocks marked. Returns the block; *LEN is cut. */
static uint64_t next_free_run(struct worker *w, uint32_t *len)
{
	uint32_t grain = job_grain(w->spec);
	uint64_t n = w->used.nblocks;
	if (w->used.set >= n)
		verify_map_clear(&w->used);
	uint64_t b = verify_map_next_free(&w->used, prng_below(&w->rng, n));
	if (b >= n)
		b = verify_map_next_free(&w->used, 0);
	uint64_t run = 0, want = (*len + grain - 1) / grain;
	while (run < want && b + run < n && !verify_map_has(&w->used, b + run))
		verify_map_mark(&w->used, b + run++);
	if (run * grain < *len)
		*len = (uint32_t)(run * grain);
	return b;
}

/* A write's data as fio makes it with buffer_compress_percentage and
 * dedupe_percentage: a repeat of the last unique block (same seed) or a new
 * one, compressible by the percentage. */
static void fill_shrinkable(struct worker *w, struct io_unit *u)
{
	const struct job_spec *spec = w->spec;
	bool repeat = w->unique_seed && prng_below(&w->dedupe_rng, 100) < spec->dedupe_pct;
	if (!repeat)
		w->unique_seed = prng_next(&w->scramble_rng) | 1;
	pattern_fill_compressible(u->buf, u->len, spec->compress_pct,
				  spec->compress_chunk ? spec->compress_chunk : PATTERN_SECTOR, w->unique_seed);
}

/* A write's data: scrambled, or as the job's buffer options say, and
 * stamped for verify. */
static void fill_write(struct worker *w, struct io_unit *u)
{
	const struct job_spec *spec = w->spec;
	/* Every written sector differs from every other, so neither compression
	 * nor deduplication can shrink what reaches the media, unless the job
	 * asks for data that does (fio's buffer_compress_percentage and
	 * dedupe_percentage). */
	if (spec->compress_pct || spec->dedupe_pct || spec->refill)
		fill_shrinkable(w, u);
	else if (spec->pattern == PATTERN_RANDOM)
		pattern_scramble(u->buf, u->len, &w->scramble_serial, &w->scramble_rng);
	if (spec->verify && u->len >= VERIFY_MIN_BLOCK)
		verify_stamp(u->buf, u->len, u->offset, spec->verify);
	w->writes_issued++;
}

/* trimwrite's second half: the block the last trim discarded, written. */
static void prepare_write_after_trim(struct worker *w, struct io_unit *u)
{
	w->write_after_trim = false;
	u->dir = IO_WRITE;
	u->offset = w->trim_offset;
	u->len = w->trim_len;
	fill_write(w, u);
}

static void prepare_unit(struct worker *w, struct io_unit *u)
{
	const struct job_spec *spec = w->spec;
	w->backlog_unit = false;
	if (w->verifying) {
		prepare_verify_unit(w, u);
		return;
	}
	if (w->write_after_trim) {
		prepare_write_after_trim(w, u);
		return;
	}
	if (w->backlog.every && prepare_backlog_unit(w, u))
		return;
	uint64_t remaining = w->limit - w->issued;
	uint32_t len = pick_len(w), grain = job_grain(spec);
	u->len = remaining < len && !spec->time_based ? (uint32_t)remaining : len;

	if (spec->trim)
		u->dir = IO_TRIM;
	else if (spec->read_pct >= 100)
		u->dir = IO_READ;
	else if (spec->read_pct == 0)
		u->dir = IO_WRITE;
	else
		u->dir = prng_below(&w->rng, 100) < spec->read_pct ? IO_READ : IO_WRITE;

	if (spec->random && spec->dist.kind != DIST_RANDOM) {
		u->offset = dist_next(&w->dist, &w->rng) * (job_ba_used(spec) ? job_offset_step(spec, u->dir) : grain);
	} else if (spec->random && spec->random_map == JOB_MAP_ONCE && w->used.bits) {
		u->offset = next_free_run(w, &u->len) * grain;
	} else if (spec->random && spec->random_map == JOB_MAP_ONCE) {
		u->offset = perm_at(&w->perm, w->perm_next++ % w->perm.n) * grain;
	} else if (spec->random) {
		u->offset = uniform_offset(w, u->dir);
	} else {
		if (w->seq_offset + (u->len < grain ? u->len : grain) > w->span)
			w->seq_offset = 0;
		u->offset = w->seq_offset;
	}
	if (u->offset + u->len > w->span) /* a large block near the end is cut there, as fio's */
		u->len = (uint32_t)(w->span - u->offset);
	if (!spec->random)
		w->seq_offset += u->len + spec->seq_hole;
	u->offset += w->base;
	if (spec->nr_files > 1)
		u->file = job_file_block(u->offset, spec->bs, spec->nr_files, &u->offset);
	w->ios_issued++;
	if (u->dir == IO_WRITE)
		fill_write(w, u);
	/* fio logs a write for the backlog as it is issued; a cut block is not verified */
	if (u->dir == IO_WRITE && w->backlog.every && u->len == spec->bs &&
	    verify_backlog_push(&w->backlog, (u->offset - w->base) / spec->bs) < 0 && w->stop != JOB_STOP_ERROR) {
		w->stop = JOB_STOP_ERROR;
		w->error = -ENOMEM;
	}
	if (spec->trim == JOB_TRIM_WRITE) {
		w->write_after_trim = true;
		w->trim_offset = u->offset;
		w->trim_len = u->len;
	}
}

/* A block read by a verifying job checked; the first failure kept. */
static void check_unit(struct worker *w, struct io_unit *u)
{
	char why[sizeof(w->verify_why)];
	w->verify_blocks++;
	w->verify_backlog_blocks += w->backlog.every && !w->verifying;
	if (verify_check(u->buf, u->len, u->offset, w->spec->verify, why, sizeof(why)) == 0)
		return;
	if (w->verify_errors++ == 0) {
		w->verify_offset = u->offset;
		snprintf(w->verify_why, sizeof(w->verify_why), "%s", why);
	}
	if (w->spec->verify_fatal && w->stop != JOB_STOP_ERROR) {
		w->stop = JOB_STOP_ERROR;
		w->error = -EILSEQ;
		w->error_offset = u->offset;
	}
}

/* fio's logs: times from the end of the ramp (nothing before it is counted). */
static void log_unit(struct worker *w, const struct io_unit *u, uint64_t now)
{
	uint64_t from = w->ramp_end_ns, submit = w->record_slat ? u->submit_ns : u->start_ns;
	struct joblog_io io = {
		.done_ns = now > from ? now - from : 0, .submit_ns = submit > from ? submit - from : 0,
		.lat_ns = now - u->start_ns, .clat_ns = now - submit, .slat_ns = submit - u->start_ns,
		.offset = u->offset, .bytes = u->len, .ddir = u->dir == IO_WRITE, .has_slat = w->record_slat,
	};
	joblog_io(w->spec->log, w->index, &io);
}

static void complete_unit(struct worker *w, struct io_unit *u, uint64_t now)
{
	bool whole = u->result == (int64_t)u->len;
	w->last_dir = u->dir;
	if (w->spec->verify && whole && u->dir == IO_WRITE && u->len == w->spec->bs)
		verify_map_mark(&w->vmap, (u->offset - w->base) / w->spec->bs);
	if (w->spec->verify && whole && u->dir == IO_READ && u->len >= VERIFY_MIN_BLOCK)
		check_unit(w, u);
	if (w->ramping && now < w->ramp_end_ns && u->result == (int64_t)u->len) {
		w->free_units[w->nr_free++] = u; /* warm-up: done, not counted */
		return;
	}
	if (u->result < 0 || (uint64_t)u->result < u->len) {
		if (w->stop != JOB_STOP_ERROR) {
			w->stop = JOB_STOP_ERROR;
			/* A short read means the end of the target arrived early; a
			 * short write, that the file system ran out of space. */
			w->error = u->result < 0 ? (int)u->result : u->dir == IO_WRITE ? -ENOSPC : -ENODATA;
			w->error_offset = u->offset;
		}
		if (u->result > 0)
			w->bytes[u->dir] += (uint64_t)u->result;
	} else {
		w->bytes[u->dir] += u->len;
		w->ios[u->dir]++;
		hist_record(&w->lat[u->dir], now - u->start_ns);
		if (w->record_slat && u->dir != IO_TRIM) /* trims are done inside queue() */
			hist_record(&w->slat[u->dir], u->submit_ns - u->start_ns);
		if (w->spec->log && u->dir != IO_TRIM) /* the logs have no trims: fiojob refuses both */
			log_unit(w, u, now);
	}
	w->done_ns = now;
	atomic_store_explicit(&w->progress_bytes[u->dir], w->bytes[u->dir], memory_order_relaxed);
	atomic_store_explicit(&w->progress_ios[u->dir], w->ios[u->dir], memory_order_relaxed);
	w->free_units[w->nr_free++] = u;
}

/* A pass ends at its byte cap, at number_ios, or where a sequential pass
 * with holes (rw=write:N) reaches the end of the area: fio goes round again
 * only when io_size is larger than the area. */
static bool pass_over(const struct worker *w)
{
	const struct job_spec *spec = w->spec;
	if (w->issued >= w->limit || (spec->number_ios && w->ios_issued >= spec->number_ios))
		return true;
	return !spec->random && spec->seq_hole && w->limit <= w->span && w->seq_offset + job_grain(spec) > w->span;
}

static bool may_issue(struct worker *w, uint64_t now, uint64_t deadline)
{
	if (w->stop == JOB_STOP_ERROR)
		return false;
	if (interrupt_requested()) {
		w->stop = JOB_STOP_INTERRUPTED;
		return false;
	}
	if (now >= deadline) {
		w->stop = JOB_STOP_TIME;
		return false;
	}
	if (w->ramping && now >= w->ramp_end_ns) {
		w->ramping = false;
		w->issued = 0; /* the size cap counts from the end of the ramp */
		w->usage_start_ns = now;
		getrusage(RUSAGE_THREAD, &w->usage_start); /* so does the CPU time */
	}
	if (w->verifying)
		return w->verify_issued < w->vmap.set;
	if (w->spec->time_based || w->ramping)
		return true;
	if (!pass_over(w))
		return true;
	if (++w->loop >= (w->spec->loops ? w->spec->loops : 1))
		return false;
	w->issued = w->ios_issued = w->seq_offset = 0; /* the next pass, as fio's loops */
	w->perm_next = 0;
	if (w->used.bits)
		verify_map_clear(&w->used);
	return true;
}

#define RATE_CATCH_UP_NS (100 * 1000 * 1000ULL)

/* The rate caps: how long after this I/O's start the next may start. */
static uint64_t rate_gap_ns(const struct job_spec *spec, uint32_t len)
{
	uint64_t gap = 0;
	if (spec->rate_iops)
		gap = 1000000000ULL / spec->rate_iops;
	if (spec->rate_bps) {
		uint64_t g = (uint64_t)((double)len * 1e9 / (double)spec->rate_bps);
		gap = g > gap ? g : gap;
	}
	return gap;
}

/* Under a rate cap, waits (when nothing is in flight) until the next I/O is
 * due; returns false when it is not due yet and completions are pending. */
static bool rate_allows(struct worker *w, uint64_t *now, unsigned inflight)
{
	if (!w->spec->rate_bps && !w->spec->rate_iops)
		return true;
	if (*now >= w->rate_next_ns)
		return true;
	if (inflight)
		return false;
	uint64_t wait = w->rate_next_ns - *now;
	struct timespec ts = { (time_t)(wait / 1000000000ULL), (long)(wait % 1000000000ULL) };
	nanosleep(&ts, NULL);
	*now = now_ns();
	return true;
}

/* Submits the BATCH of QUEUED units. With an engine that separates
 * submission, one clock read after commit() returns stamps them all: their
 * submission latency (complete_unit records it with the completion, so the
 * ramp rule holds for both). */
static int commit_batch(struct worker *w, unsigned queued)
{
	int r = w->ops->commit(&w->ctx);
	if (r < 0 || !w->record_slat)
		return r;
	uint64_t now = now_ns();
	for (unsigned i = 0; i < queued; i++)
		w->batch[i]->submit_ns = now;
	return r;
}

/* fsync=N: a sync is due before the next write after every N writes. */
static bool sync_due(const struct worker *w)
{
	unsigned every = w->spec->sync_every;
	return every && !w->verifying && w->writes_issued && w->writes_issued % every == 0 &&
	       w->synced_at != w->writes_issued;
}

/* The sync itself, synchronous, with nothing in flight (fio's sync waits
 * for the writes before it too); timed, and counted after the ramp. */
static void do_sync(struct worker *w)
{
	uint64_t t0 = now_ns();
	int r = w->spec->datasync ? fdatasync(w->ctx.fd) : fsync(w->ctx.fd);
	if (r < 0 && w->stop != JOB_STOP_ERROR) {
		w->stop = JOB_STOP_ERROR;
		w->error = -errno;
		w->error_offset = 0;
	}
	w->synced_at = w->writes_issued;
	if (!w->ramping) {
		hist_record(&w->lat_sync, now_ns() - t0);
		w->sync_ios++;
	}
}

/* thinktime: after every THINKTIME_BLOCKS I/Os, once none is in flight. */
static void think(struct worker *w)
{
	uint64_t ns = w->spec->thinktime_ns;
	struct timespec ts = { (time_t)(ns / 1000000000ULL), (long)(ns % 1000000000ULL) };
	nanosleep(&ts, NULL);
	w->think_due = false;
}

static void count_think(struct worker *w)
{
	unsigned blocks = w->spec->thinktime_blocks ? w->spec->thinktime_blocks : 1;
	if (w->spec->thinktime_ns && !w->verifying && ++w->think_count >= blocks) {
		w->think_count = 0;
		w->think_due = true;
	}
}

/* Issues units while the job may: each synchronous one completed at once,
 * each asynchronous one submitted (w->submit_each) or left in w->batch for
 * one submission after the loop. Returns how many are left in the batch, or
 * -errno from a failed submission (the caller stops the worker). */
static int issue_units(struct worker *w, uint64_t *now, uint64_t deadline, unsigned *inflight, bool *issuing)
{
	const struct engine_ops *ops = w->ops;
	unsigned queued = 0;
	while (*issuing && !w->think_due && w->nr_free && rate_allows(w, now, *inflight)) {
		if (sync_due(w)) {
			if (*inflight)
				break;
			do_sync(w);
			*now = now_ns();
			if (w->stop == JOB_STOP_ERROR)
				break;
		}
		struct io_unit *u = w->free_units[--w->nr_free];
		prepare_unit(w, u);
		u->start_ns = now_ns();
		uint64_t gap = rate_gap_ns(w->spec, u->len);
		/* On schedule: after a slow I/O, up to RATE_CATCH_UP_NS of
		 * missed I/O is issued without waiting (fio's rate is an average too). */
		uint64_t floor = u->start_ns > RATE_CATCH_UP_NS ? u->start_ns - RATE_CATCH_UP_NS : 0;
		w->rate_next_ns = (w->rate_next_ns > floor ? w->rate_next_ns : floor) + gap;
		enum engine_queue_status st = ops->queue(&w->ctx, u);
		if (st == ENGINE_BUSY) {
			w->free_units[w->nr_free++] = u;
			break;
		}
		/* trimwrite: its writes count, as fio's; the backlog's reads do not */
		if (!w->backlog_unit && (u->dir != IO_TRIM || w->spec->trim != JOB_TRIM_WRITE))
			w->issued += u->len;
		count_think(w);
		if (st == ENGINE_COMPLETED) {
			*now = now_ns();
			complete_unit(w, u, *now);
		} else {
			(*inflight)++;
			w->batch[queued++] = u;
			if (w->submit_each) {
				int r = commit_batch(w, queued);
				queued = 0;
				if (r < 0)
					return r;
			}
		}
		*issuing = may_issue(w, *now, deadline);
	}
	return (int)queued;
}

static void worker_loop(struct worker *w, uint64_t deadline)
{
	const struct engine_ops *ops = w->ops;
	uint64_t now = now_ns();
	unsigned inflight = 0;
	w->stop = JOB_STOP_SIZE;

	for (;;) {
		bool issuing = may_issue(w, now, deadline);
		if (issuing && w->think_due && !inflight) {
			think(w);
			now = now_ns();
			issuing = may_issue(w, now, deadline);
		}
		int r = issue_units(w, &now, deadline, &inflight, &issuing);
		if (r > 0)
			r = commit_batch(w, (unsigned)r);
		if (r < 0) {
			/* Nothing can be reaped reliably after a failed submit. */
			w->stop = JOB_STOP_ERROR;
			w->error = r;
			break;
		}
		if (!inflight) {
			if ((!issuing && w->nr_free) || w->stop == JOB_STOP_ERROR)
				break;
			now = now_ns();
			continue;
		}
		int n = ops->getevents(&w->ctx, 1, inflight);
		now = now_ns();
		if (n < 0) {
			w->stop = JOB_STOP_ERROR;
			w->error = n;
			break;
		}
		for (int i = 0; i < n; i++)
			complete_unit(w, ops->event(&w->ctx, (unsigned)i), now);
		inflight -= (unsigned)n;
	}
	if (!w->done_ns)
		w->done_ns = now;
}

#define HUGE_PAGE (2UL << 20)

/* I/O buffers from their own mapping, in 2 MiB huge pages where the kernel
 * gives them (MADV_HUGEPAGE): copying a large block into 4 KiB pages costs
 * a TLB miss per page. Aligned for O_DIRECT either way. */
static int buffers_alloc(size_t bytes, size_t align, void **ret, size_t *ret_len)
{
	size_t unit = bytes >= HUGE_PAGE / 2 ? HUGE_PAGE : (align > 4096 ? align : 4096);
	size_t len = (bytes + unit - 1) / unit * unit;
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	if (unit == HUGE_PAGE && ((uintptr_t)p % HUGE_PAGE) != 0) {
		/* Not 2 MiB aligned: map again with room to align. */
		munmap(p, len);
		void *raw = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (raw == MAP_FAILED)
			return -ENOMEM;
		uintptr_t start = ((uintptr_t)raw + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
		size_t head = start - (uintptr_t)raw;
		if (head)
			munmap(raw, head);
		munmap((char *)start + len, HUGE_PAGE - head);
		p = (void *)start;
	}
	if (unit == HUGE_PAGE)
		madvise(p, len, MADV_HUGEPAGE);
	*ret = p;
	*ret_len = len;
	return 0;
}

static int worker_setup(struct worker *w, const struct target *t, size_t index, const struct worker *prev)
{
	const struct job_spec *spec = w->spec;
	size_t bytes = (size_t)spec->bs * w->iodepth;
	int r = buffers_alloc(bytes, t->mem_align, &w->buffers, &w->buffers_len);
	if (r < 0)
		return r;
	w->units = calloc(w->iodepth, sizeof(*w->units));
	w->free_units = calloc(w->iodepth, sizeof(*w->free_units));
	w->batch = calloc(w->iodepth, sizeof(*w->batch));
	if (!w->units || !w->free_units || !w->batch)
		return -ENOMEM;
	w->record_slat = w->ops->separates_submission;
	prng_seed(&w->rng, spec->seed + index * 0x9e3779b97f4a7c15ULL);
	pattern_fill(w->buffers, bytes, spec->pattern, &w->rng);
	/* fio's ranges: the area over the smallest size, rounded up; zoned with ba: its last_block */
	uint64_t ranges = job_ba_used(spec) ? job_last_block(spec, w->span, job_first_dir(spec))
					: (w->span + job_grain(spec) - 1) / job_grain(spec);
	if (spec->random && spec->dist.kind != DIST_RANDOM)
		dist_init(&w->dist, &spec->dist, ranges, &w->rng, prev ? &prev->dist : NULL);
	else if (spec->random_map == JOB_MAP_ONCE)
		perm_init(&w->perm, w->span / job_grain(spec), &w->rng);
	if (spec->verify && verify_map_init(&w->vmap, w->span / spec->bs) < 0)
		return -ENOMEM;
	/* fio keeps a backlog of what a write job writes, with do_verify only */
	if (spec->verify && spec->verify_read && spec->verify_backlog && spec->read_pct == 0 && !spec->trim)
		verify_backlog_init(&w->backlog, spec->verify_backlog, spec->verify_batch);
	if (spec->bs_min && spec->random && spec->random_map == JOB_MAP_ONCE &&
	    verify_map_init(&w->used, w->span / job_grain(spec)) < 0)
		return -ENOMEM;
	/* Not from the seed: a second run must not write what the first wrote. */
	prng_seed(&w->scramble_rng, now_ns() ^ ((uint64_t)getpid() << 32) ^ mix64(index + 1));
	prng_seed(&w->dedupe_rng, spec->seed ^ mix64(index + 0x5eed));
	w->scramble_serial = (uint64_t)index << 56;
	for (unsigned i = 0; i < w->iodepth; i++) {
		w->units[i] = (struct io_unit){
			.buf = (char *)w->buffers + (size_t)i * spec->bs,
			.len = spec->bs,
			.index = i,
		};
		w->free_units[i] = &w->units[i];
	}
	w->nr_free = w->iodepth;
	w->ctx = (struct engine_ctx){
		.fd = t->fd, .block_device = t->kind == TARGET_BLOCK_DEVICE, .iodepth = w->iodepth, .units = w->units,
		.fds = spec->file_fds, .nr_files = spec->file_fds ? spec->nr_files : 0,
	};
	for (int d = 0; d < IO_DIRS; d++)
		hist_init(&w->lat[d]);
	hist_init(&w->slat[IO_READ]);
	hist_init(&w->slat[IO_WRITE]);
	hist_init(&w->lat_sync);
	return 0;
}

static void worker_teardown(struct worker *w)
{
	if (w->buffers)
		munmap(w->buffers, w->buffers_len);
	free(w->units);
	free(w->free_units);
	free(w->batch);
	verify_map_release(&w->vmap);
	verify_map_release(&w->used);
	verify_backlog_release(&w->backlog);
}

/* Successive workers, across every job in the process (readdisks
 * --parallel runs several jobs at once), take successive allowed CPUs. */
static atomic_uint next_cpu_slot;

/* Pins the calling thread to one CPU of the allowed set. A worker that
 * stays on one CPU does synchronous I/O up to 20% faster than one the
 * scheduler moves after every wake-up (measured on loop devices with
 * bench/engine_vs_fio.sh). Returns the CPU or -1. */
static int pin_to_cpu_slot(unsigned slot);

unsigned job_reserve_cpu_slots(unsigned n)
{
	return atomic_fetch_add(&next_cpu_slot, n);
}

static int pin_to_next_cpu(void)
{
	return pin_to_cpu_slot(atomic_fetch_add(&next_cpu_slot, 1));
}

static int pin_to_cpu_slot(unsigned slot)
{
	cpu_set_t allowed;
	if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0)
		return -1;
	int count = CPU_COUNT(&allowed);
	if (count <= 0)
		return -1;
	slot %= (unsigned)count;
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed) || slot-- > 0)
			continue;
		cpu_set_t one;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		return pthread_setaffinity_np(pthread_self(), sizeof(one), &one) == 0 ? cpu : -1;
	}
	return -1;
}

/* Pinning helps every engine except on a disk whose completions come by an
 * interrupt only some CPUs take (bench/irq_path.h: -25% on virtio-blk), and
 * except one that hands deep queues to kernel workers: io_uring on a device
 * that cannot take non-blocking I/O (zram) punts each I/O to io-wq threads,
 * which then compete with the pinned submitter for its CPU (-40% at depth
 * 32; +200% at depth 1, where only one worker runs at a time).
 * bench/engine_vs_fio.sh shows both. */
static bool should_pin(const struct job_spec *spec, const struct target *t,
		       const struct engine_ops *engine, unsigned iodepth)
{
	if (spec->no_pin || t->shared_irq)
		return false;
	return !(engine->offloads_blocking && t->bio_based && iodepth > 1);
}

/* The workload, then its read-back (verify) and end_fsync. */
static void worker_run(struct worker *w)
{
	const struct job_spec *spec = w->spec;
	worker_loop(w, spec->runtime_ns ? w->ramp_end_ns + spec->runtime_ns : UINT64_MAX);
	enum job_stop stop = w->stop;
	if (spec->end_fsync && w->writes_issued && stop != JOB_STOP_ERROR && stop != JOB_STOP_INTERRUPTED) {
		for (unsigned f = 0; f < (w->ctx.nr_files > 1 ? w->ctx.nr_files : 1); f++) {
			if (fsync(w->ctx.nr_files > 1 ? w->ctx.fds[f] : w->ctx.fd) < 0) {
				w->stop = JOB_STOP_ERROR;
				w->error = -errno;
				return;
			}
		}
		w->done_ns = now_ns();
	}
	if (spec->verify && spec->verify_read && w->vmap.set && stop != JOB_STOP_ERROR &&
	    stop != JOB_STOP_INTERRUPTED) {
		w->verifying = true;
		worker_loop(w, UINT64_MAX);
		if (w->stop == JOB_STOP_SIZE)
			w->stop = stop;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	if (!w->pin)
		w->cpu = -1;
	else
		w->cpu = w->spec->fixed_cpu_slot ? pin_to_cpu_slot(w->spec->cpu_slot + w->index) : pin_to_next_cpu();
	int r = w->ops->init(&w->ctx);
	if (gate_wait(w->gate) < 0) {
		if (r == 0)
			w->ops->cleanup(&w->ctx);
		return NULL;
	}
	w->start_ns = now_ns();
	w->ramp_end_ns = w->start_ns + w->spec->ramp_ns;
	w->ramping = w->spec->ramp_ns > 0;
	w->rate_next_ns = w->start_ns;
	w->usage_start_ns = w->start_ns;
	getrusage(RUSAGE_THREAD, &w->usage_start);
	if (r < 0) {
		w->stop = JOB_STOP_ERROR;
		w->error = r;
		w->done_ns = w->start_ns;
	} else {
		worker_run(w);
		w->ops->cleanup(&w->ctx);
	}
	getrusage(RUSAGE_THREAD, &w->usage_end);
	w->usage_end_ns = now_ns();
	if (w->spec->log)
		joblog_finish(w->spec->log, w->index,
			      w->usage_end_ns > w->ramp_end_ns ? w->usage_end_ns - w->ramp_end_ns : 0);
	atomic_fetch_add(w->workers_finished, 1);
	return NULL;
}

/* What the workers have done so far, per direction and in all. */
struct progress_count {
	uint64_t bytes[IO_DIRS], ios[IO_DIRS];
	uint64_t all_bytes;
};

static struct progress_count progress_count(struct worker *workers, unsigned n)
{
	struct progress_count c = { 0 };
	for (unsigned i = 0; i < n; i++)
		for (unsigned d = 0; d < IO_DIRS; d++) {
			c.bytes[d] += atomic_load_explicit(&workers[i].progress_bytes[d], memory_order_relaxed);
			c.ios[d] += atomic_load_explicit(&workers[i].progress_ios[d], memory_order_relaxed);
		}
	for (unsigned d = 0; d < IO_DIRS; d++)
		c.all_bytes += c.bytes[d];
	return c;
}

/* One sample: each rate over the NS since the last one (FROM's counts). */
static void record_sample(struct job_result *res, const struct progress_count *from,
			  const struct progress_count *to, uint64_t ns)
{
	unsigned k = res->nr_samples++;
	res->samples_bw[k] = (double)(to->all_bytes - from->all_bytes) * 1e9 / (double)ns;
	for (unsigned d = 0; d < IO_DIRS; d++) {
		res->samples_dir_bw[d][k] = (double)(to->bytes[d] - from->bytes[d]) * 1e9 / (double)ns;
		res->samples_dir_iops[d][k] = (double)(to->ios[d] - from->ios[d]) * 1e9 / (double)ns;
	}
}

static void report_progress(const struct job_spec *spec, uint64_t done, uint64_t total, uint64_t elapsed_ns,
			    bool finished)
{
	struct job_progress p = {
		.label = spec->progress_label ? spec->progress_label : "io",
		.done_bytes = done, .total_bytes = total, .elapsed_ns = elapsed_ns, .finished = finished,
		.runtime_ns = spec->runtime_ns ? spec->runtime_ns + spec->ramp_ns : 0,
	};
	spec->progress(&p);
}

/* The main thread waits for the workers, telling the caller's progress
 * callback about once a second. */
static void wait_for_workers(const struct job_spec *spec, struct worker *workers, unsigned n,
			     atomic_uint *finished, uint64_t total, struct job_result *res)
{
	/* A shorter tick when sampling, so sample edges land within 2% of the interval. */
	long tick_ns = 50 * 1000 * 1000;
	if (spec->sample_ns && spec->sample_ns / 50 < (uint64_t)tick_ns)
		tick_ns = (long)(spec->sample_ns / 50 ? spec->sample_ns / 50 : 1000000);
	const struct timespec tick = { 0, tick_ns };
	uint64_t start = now_ns(), last_print = start, last_sample = start;
	struct progress_count sampled = { 0 };
	/* Samples, like every statistic, start when the ramp ends: a sample of
	 * the warm-up would be the run's noise. The interval the run ends in is
	 * not a whole one and is dropped. */
	uint64_t sample_from = start + spec->ramp_ns;
	bool sampling = spec->ramp_ns == 0;
	bool printed = false;
	while (atomic_load(finished) < n) {
		nanosleep(&tick, NULL);
		/* One snapshot a tick, its time read right after it, so a thread
		 * delayed between the two (a busy machine) puts no later bytes
		 * into a sample's interval. */
		struct progress_count done = progress_count(workers, n);
		uint64_t now = now_ns();
		if (spec->progress_out)
			__atomic_store_n(spec->progress_out, done.all_bytes, __ATOMIC_RELAXED);
		if (spec->live)
			progress_part(spec->live, done.all_bytes);
		if (spec->sample_ns && !sampling && now >= sample_from) {
			sampling = true;
			sampled = done;
			last_sample = now;
		} else if (sampling && spec->sample_ns && now - last_sample >= spec->sample_ns &&
			   res->nr_samples < JOB_MAX_SAMPLES) {
			record_sample(res, &sampled, &done, now - last_sample);
			sampled = done;
			last_sample = now;
		}
		if (spec->progress && now - last_print >= 1000000000ULL) {
			report_progress(spec, done.all_bytes, total, now - start, false);
			last_print = now;
			printed = true;
		}
	}
	if (printed)
		report_progress(spec, progress_count(workers, n).all_bytes, total, now_ns() - start, true);
}

static double timeval_seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void worker_usage(const struct worker *w, struct job_worker_result *out)
{
	const struct rusage *a = &w->usage_start, *b = &w->usage_end;
	out->user_seconds = timeval_seconds(b->ru_utime) - timeval_seconds(a->ru_utime);
	out->system_seconds = timeval_seconds(b->ru_stime) - timeval_seconds(a->ru_stime);
	out->busy_seconds = (double)(w->usage_end_ns - w->usage_start_ns) / 1e9;
	out->voluntary_switches = (uint64_t)(b->ru_nvcsw - a->ru_nvcsw);
	out->involuntary_switches = (uint64_t)(b->ru_nivcsw - a->ru_nivcsw);
}

/* A verify mismatch fails the job even when verify_fatal did not stop it. */
static void collect_verify(struct worker *w, struct job_result *res)
{
	res->verify_blocks += w->verify_blocks;
	res->verify_backlog_blocks += w->verify_backlog_blocks;
	if (!w->verify_errors)
		return;
	if (!res->verify_errors || w->verify_offset < res->verify_offset) {
		res->verify_offset = w->verify_offset;
		snprintf(res->verify_why, sizeof(res->verify_why), "%s", w->verify_why);
	}
	res->verify_errors += w->verify_errors;
	if (w->stop != JOB_STOP_ERROR) {
		w->stop = JOB_STOP_ERROR;
		w->error = -EILSEQ;
		w->error_offset = w->verify_offset;
	}
}

static void collect_results(struct worker *workers, unsigned n, struct job_result *res)
{
	/* Statistics start when the ramp ends. */
	uint64_t start = UINT64_MAX, first = UINT64_MAX, last = 0;
	for (unsigned i = 0; i < n; i++) {
		if (workers[i].ramp_end_ns < start)
			start = workers[i].ramp_end_ns;
	}
	hist_init(&res->lat_read);
	hist_init(&res->lat_write);
	hist_init(&res->lat_trim);
	hist_init(&res->slat_read);
	hist_init(&res->slat_write);
	hist_init(&res->lat_sync);
	res->stop = JOB_STOP_SIZE;
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &workers[i];
		res->read_bytes += w->bytes[IO_READ];
		res->write_bytes += w->bytes[IO_WRITE];
		res->read_ios += w->ios[IO_READ];
		res->write_ios += w->ios[IO_WRITE];
		res->trim_bytes += w->bytes[IO_TRIM];
		res->trim_ios += w->ios[IO_TRIM];
		hist_merge(&res->lat_read, &w->lat[IO_READ]);
		hist_merge(&res->lat_write, &w->lat[IO_WRITE]);
		hist_merge(&res->lat_trim, &w->lat[IO_TRIM]);
		hist_merge(&res->slat_read, &w->slat[IO_READ]);
		hist_merge(&res->slat_write, &w->slat[IO_WRITE]);
		hist_merge(&res->lat_sync, &w->lat_sync);
		res->sync_ios += w->sync_ios;
		collect_verify(w, res);
		if (w->done_ns < start)
			w->done_ns = start; /* stopped during the ramp */
		if (w->done_ns < first)
			first = w->done_ns;
		if (w->done_ns > last)
			last = w->done_ns;
		res->workers[i] = (struct job_worker_result){
			.bytes = w->bytes[IO_READ] + w->bytes[IO_WRITE] + w->bytes[IO_TRIM],
			.ios = w->ios[IO_READ] + w->ios[IO_WRITE] + w->ios[IO_TRIM],
			.done_seconds = (double)(w->done_ns - start) / 1e9,
			.cpu = w->cpu,
		};
		worker_usage(w, &res->workers[i]);
		/* The most serious reason any worker stopped is the job's. */
		if (w->stop > res->stop) {
			res->stop = w->stop;
			if (w->stop == JOB_STOP_ERROR) {
				res->error = w->error;
				res->error_offset = w->error_offset;
			}
		}
	}
	res->bytes = res->read_bytes + res->write_bytes + res->trim_bytes;
	res->ios = res->read_ios + res->write_ios + res->trim_ios;
	res->first_done_seconds = (double)(first - start) / 1e9;
	res->last_done_seconds = (double)(last - start) / 1e9;
	res->seconds = res->last_done_seconds;
}

/* startdelay: the workers exist, then wait; an interrupt ends the wait. */
static void start_delay(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	while (ns && !interrupt_requested() && now_ns() < end) {
		uint64_t left = end - now_ns();
		struct timespec ts = { 0, (long)(left < 50000000ULL ? left : 50000000ULL) };
		nanosleep(&ts, NULL);
	}
}

int job_run(const struct job_spec *spec, const struct target *t, const struct engine_ops *engine,
	    struct job_result **ret)
{
	unsigned n = spec->numjobs;
	struct job_result *res = calloc(1, sizeof(*res));
	struct worker *workers = calloc(n, sizeof(*workers));
	if (!res || !workers) {
		free(res);
		free(workers);
		return -ENOMEM;
	}
	res->engine = engine;
	res->has_slat = engine->separates_submission;
	res->iodepth = engine->synchronous ? 1 : spec->iodepth;
	res->span = job_worker_span(spec, t, 0);
	res->nr_workers = n;
	res->ramp_seconds = (double)spec->ramp_ns / 1e9;
	res->random_map = spec->random_map;

	struct start_gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0 };
	atomic_uint finished = 0;
	int r = spec->log ? joblog_begin(spec->log, n) : 0;
	for (unsigned i = 0; i < n && r == 0; i++) {
		struct worker *w = &workers[i];
		w->spec = spec;
		w->ops = engine;
		w->gate = &gate;
		w->workers_finished = &finished;
		w->base = job_worker_base(spec, i);
		w->span = job_worker_span(spec, t, i);
		w->limit = spec->io_limit ? spec->io_limit : w->span;
		w->iodepth = res->iodepth;
		w->pin = should_pin(spec, t, engine, res->iodepth);
		/* fio's default (iodepth_batch_submit=1) where the device works while
		 * the next I/O is prepared: +10-70% on loop and virtio-blk at depth
		 * 8-32. A device that completes inside the submitting call (zram)
		 * gains nothing to overlap, and one submission per batch saves
		 * system calls there (+50-80% with libaio). bench/submit_batch.sh. */
		w->submit_each = !t->bio_based;
		w->index = i;
		r = worker_setup(w, t, i, i ? &workers[i - 1] : NULL);
	}

	unsigned started = 0;
	pthread_t threads[JOB_MAX_THREADS];
	for (; r == 0 && started < n; started++) {
		r = -pthread_create(&threads[started], NULL, worker_main, &workers[started]);
		if (r < 0)
			break;
	}
	if (started < n) {
		gate_open(&gate, -1);
		for (unsigned i = 0; i < started; i++)
			pthread_join(threads[i], NULL);
	} else {
		start_delay(spec->startdelay_ns);
		if (spec->running_out)
			__atomic_store_n(spec->running_out, 1, __ATOMIC_RELEASE);
		gate_open(&gate, 1);
		wait_for_workers(spec, workers, n, &finished, workers[0].limit * n, res);
		res->sample_seconds = (double)spec->sample_ns / 1e9;
		for (unsigned i = 0; i < n; i++)
			pthread_join(threads[i], NULL);
		collect_results(workers, n, res);
	}

	for (unsigned i = 0; i < n; i++)
		worker_teardown(&workers[i]);
	free(workers);
	if (r < 0) {
		free(res);
		return r;
	}
	*ret = res;
	return 0;
}
