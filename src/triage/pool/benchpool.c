/* triage/pool/benchpool.c: benchpool's procedure: the target, the temporary
 * areas, the selected engines in order, the honesty notes (cache size,
 * perf, zeros against random), the pool's status, the areas removed. */
#include "triage/pool/benchpool.h"
#include "triage/pool/benchpool_zvol.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/statfs.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/meminfo.h"
#include "basic/spawn.h"
#include "output/latency.h"
#include "pool/arc.h"
#include "pool/areas.h"
#include "pool/pool_findings.h"

static void (*const runners[PB_NTESTS])(const struct pb_context *, struct pb_outcome *) = {
	[PB_FIO] = pb_run_fio, [PB_ELBENCHO] = pb_run_elbencho, [PB_DD] = pb_run_dd,
	[PB_IOZONE] = pb_run_iozone, [PB_BUILTIN] = pb_run_builtin,
};

/* ---- honesty notes ---- */

/* The machine's RAM (basic/meminfo), 0 when /proc/meminfo cannot be read. */
static uint64_t ram_bytes(void)
{
	struct meminfo m = { 0 };
	(void)meminfo_read(&m); /* MemTotal is read first: kept even without MemAvailable */
	return m.total_bytes;
}

/* A note when SIZE is under twice the cache that can hold it; the cache
 * size (ARC maximum, else RAM) in *RET_CACHE. */
static void cache_note(const struct pool_target *t, uint64_t size, struct strbuf *note, uint64_t *ret_cache)
{
	struct arc_size arc = { 0 };
	if (t->kind->arc)
		arc_read(&arc);
	uint64_t cache = arc.max_bytes ? arc.max_bytes : ram_bytes();
	char what[64];
	if (arc.max_bytes)
		snprintf(what, sizeof(what), "the %s ARC's maximum", arc.source);
	else
		snprintf(what, sizeof(what), "the RAM the page cache can use");
	*ret_cache = cache;
	if (size >= 2 * cache)
		return;
	char s[32], c[32];
	human_iec((double)size, s, sizeof(s));
	human_iec((double)cache, c, sizeof(c));
	strbuf_addf(note, "the test size (%s) is less than twice the cache (%s, %s): write figures mostly "
			  "measure the write cache, not the pool; use a size of %s or more for a figure that "
			  "means anything", s, c, what, c);
}

/* Whether `perf stat` works here, in a sentence. */
static void perf_note(struct strbuf *note, bool *usable)
{
	const char *argv[] = { "perf", "stat", "-e", "task-clock", "true", NULL };
	struct spawn_result res;
	int r = spawn_run(argv, 20000, &res);
	*usable = r == 0 && res.status == 0;
	if (r == -ENOENT)
		strbuf_adds(note, "perf is not installed (Debian: linux-perf) for follow-on CPU profiling");
	else if (!*usable)
		strbuf_addf(note, "perf is present but not usable: %.*s", (int)strcspn(res.err.buf, "\n"), res.err.buf);
	else
		strbuf_adds(note, "perf is usable for follow-on CPU profiling");
	spawn_result_release(&res);
}

/* dd on a compressing area also wrote zeros: say what that did to the figure. */
static void zeros_versus_random(struct benchpool_result *b)
{
	const struct pb_figure *random = NULL, *zeros = NULL;
	for (size_t i = 0; i < b->noutcomes; i++)
		for (size_t k = 0; b->outcomes[i].test == PB_DD && k < b->outcomes[i].nfigures; k++) {
			const struct pb_figure *f = &b->outcomes[i].figures[k];
			if (!f->is_read && f->pattern && strcmp(f->pattern, "zeros") == 0)
				zeros = f;
			else if (!f->is_read && f->pattern && strcmp(f->pattern, "random") == 0)
				random = f;
		}
	if (!random || !zeros || random->bw_bytes_per_s <= 0)
		return;
	strbuf_addf(&b->zeros_note, "with compression %s, dd wrote zeros at %.1fx the rate of incompressible data "
				    "(%.0f against %.0f MB/s): zeros compress to almost nothing, so a zeros figure "
				    "measures the compressor, not the pool; the incompressible figure is the one to use",
		    b->compression, zeros->bw_bytes_per_s / random->bw_bytes_per_s, zeros->bw_bytes_per_s / 1e6,
		    random->bw_bytes_per_s / 1e6);
	log_msg(LOG_INFO, "BENCHPOOL (%s): %s", b->target.pool, b->zeros_note.buf);
}

/* ---- the run ---- */

static void log_outcome(const struct benchpool_result *b, const struct pb_outcome *o)
{
	const char *pool = b->target.pool;
	if (o->state == PB_SKIPPED) {
		log_msg(LOG_WARN, "BENCHPOOL (%s): %s skipped: %s", pool, pb_test_name(o->test), o->reason);
		return;
	}
	if (o->state != PB_RAN) {
		log_msg(LOG_ERR, "BENCHPOOL (%s): %s %s: %s", pool, pb_test_name(o->test),
			o->state == PB_INTERRUPTED ? "interrupted" : "failed", o->reason);
		return;
	}
	for (size_t i = 0; i < o->nfigures; i++) {
		const struct pb_figure *f = &o->figures[i];
		char summary[160];
		human_dd_summary(f->bytes, f->seconds, summary, sizeof(summary));
		if (f->is_read)
			log_msg(LOG_INFO, "BENCHPOOL (%s): %s %s: %s (served by: %s)", pool, pb_test_name(o->test),
				f->label, summary, f->cache ? f->cache : "?");
		else
			log_msg(LOG_INFO, "BENCHPOOL (%s): %s %s: %s (%s data, compression %s)", pool,
				pb_test_name(o->test), f->label, summary, f->pattern ? f->pattern : "?", b->compression);
	}
}

/* A block area (an RBD image): one tagged image of SIZE, fio through librbd. */
static int prepare_image(struct benchpool_result *b, const char *run_id)
{
	if (pool_area_create_image(&b->target, run_id, "rbd", b->size, &b->areas[0], "BENCHPOOL") < 0)
		return -EIO;
	b->nareas = 1;
	snprintf(b->compression, sizeof(b->compression), "off");
	const char *image = strchr(b->areas[0].name, '/');
	b->ctx = (struct pb_context){
		.size = b->size,
		.runtime_s = b->set.runtime_s,
		.pattern = b->set.pattern,
		.direct_ok = true, /* librbd: no page cache */
		.rbd_pool = b->target.parent,
		.rbd_image = image ? image + 1 : b->areas[0].name,
	};
	return 0;
}

/* A zvol (triage/pool/benchpool_zvol.h): its area, compression, context and block size. */
static int prepare_zvol(struct benchpool_result *b, const char *run_id)
{
	struct benchpool_zvol z;
	int r = benchpool_zvol_prepare(&b->target, b->size, b->set.runtime_s, b->set.pattern, b->set.volblocksize,
				       run_id, &z);
	if (z.area.name[0]) {
		b->areas[0] = z.area;
		b->nareas = 1;
	}
	if (r < 0)
		return r;
	memcpy(b->compression, z.compression, sizeof(b->compression));
	b->ctx = z.ctx;
	b->ctx.block_device = b->areas[0].path; /* in B, which outlives Z */
	if (z.volblocksize)
		b->reading.record = z.volblocksize;
	b->zvol_volblocksize = z.volblocksize;
	b->zvol_filled_bytes = z.filled_bytes;
	/* Its volblocksize against the random pass's I/O, as recordsize is judged for a dataset. */
	struct pool_findings *f = &b->evidence.settings;
	if (pool_findings_volblocksize(b->areas[0].name, z.volblocksize, BENCHPOOL_RANDOM_IO, f) > 0)
		log_msg(LOG_WARN, "BENCHPOOL (%s): finding volblocksize '%s': %s; fix: %s (%s)", b->target.pool,
			f->items[f->count - 1].subject, f->items[f->count - 1].text, f->items[f->count - 1].fix,
			f->items[f->count - 1].evidence);
	return 0;
}

/* Free space for the tests, then the areas and the engines' context. */
static int prepare(struct benchpool_result *b, const char *run_id)
{
	struct pool_target *t = &b->target;
	b->stale_removed = (size_t)pool_areas_remove_stale(t, "BENCHPOOL");
	if (b->set.zvol)
		return prepare_zvol(b, run_id);
	if (pool_area_kind(t->kind->area)->block)
		return interrupt_requested() ? -EINTR : prepare_image(b, run_id);
	bool random_pass = b->set.tests & ((1u << PB_FIO) | (1u << PB_BUILTIN));
	struct statfs sf;
	uint64_t need = b->size * (random_pass ? 2 : 1) + (64U << 20);
	if (statfs(t->mountpoint, &sf) == 0 && (uint64_t)sf.f_bavail * sf.f_bsize < need) {
		char have[32], want[32];
		human_iec((double)sf.f_bavail * sf.f_bsize, have, sizeof(have));
		human_iec((double)need, want, sizeof(want));
		log_msg(LOG_ERR, "BENCHPOOL (%s): not enough free space: %s free, the tests need %s; pass a smaller SIZE",
			t->pool, have, want);
		return -ENOSPC;
	}
	if (pool_area_create(t, run_id, "1m", "1M", &b->areas[b->nareas], "BENCHPOOL") < 0)
		return -EIO;
	b->nareas++;
	/* The small-record area only for the tests with a random pass. */
	if (random_pass && !interrupt_requested()) {
		if (pool_area_create(t, run_id, "4k", "4K", &b->areas[b->nareas], "BENCHPOOL") < 0)
			return -EIO;
		b->nareas++;
	}
	pool_area_compression(t, &b->areas[0], b->compression, sizeof(b->compression));
	b->ctx = (struct pb_context){
		.throughput_dir = b->areas[0].path,
		.random_dir = b->nareas > 1 ? b->areas[1].path : NULL,
		.size = b->size,
		.runtime_s = b->set.runtime_s,
		.pattern = b->set.pattern,
		.direct_ok = pb_direct_supported(b->areas[0].path),
		/* The areas are made with primarycache=metadata: the ARC keeps no file data. */
		.arc_data_cached = false,
		.compression_on = pool_compression_is_on(b->compression),
	};
	return 0;
}

/* The target resolved and said, the perf note, the areas. */
static int set_up(struct benchpool_result *b, const char *id, const char *run_id)
{
	int r = pool_target_resolve(id, b->set.fstype, &b->target);
	if (r < 0)
		return r;
	log_msg(LOG_INFO, "BENCHPOOL (%s): %s file system type '%s' (%s %s %s)", b->target.pool,
		b->set.fstype ? "using" : "detected", b->target.kind->fstype, b->target.fs_name[0] ? b->target.fs_name : "?",
		b->target.mountpoint[0] ? "at" : "images in pool",
		b->target.mountpoint[0] ? b->target.mountpoint : b->target.parent);
	/* Before any area is made: a full pool is judged even when the tests cannot run. */
	pool_evidence_settings(&b->evidence, &b->target, NULL, 1U << 20);
	perf_note(&b->perf_note, &b->perf_usable);
	log_msg(b->perf_usable ? LOG_INFO : LOG_WARN, "BENCHPOOL (%s): %s", b->target.pool, b->perf_note.buf);
	return prepare(b, run_id);
}

/* A test's plan in milliseconds: fio's and the built-in engine's passes
 * are each capped by the runtime; the other engines have no cap and are
 * planned at a runtime per pass (a write and a read) for want of better. */
static uint64_t test_plan_ms(const struct benchpool_result *b, int t, bool *capped)
{
	unsigned passes = 2;
	*capped = t == PB_FIO || t == PB_BUILTIN;
	if (t == PB_FIO)
		passes = b->ctx.random_dir || b->ctx.rbd_image ? 2 : 1;
	else if (t == PB_BUILTIN)
		passes = b->ctx.random_dir ? 3 : 2;
	return (uint64_t)passes * (b->set.runtime_s ? b->set.runtime_s : 1) * 1000;
}

static uint64_t plan_ms(const struct benchpool_result *b)
{
	uint64_t total = 0;
	bool capped;
	for (int t = 0; t < PB_NTESTS; t++)
		if (b->set.tests & (1u << t))
			total += test_plan_ms(b, t, &capped);
	return total;
}

/* Runs test T as part N of NTESTS of the progress: a capped test moves
 * with time (fio, by the parent's ticks while it waits), the built-in
 * engine by its own bytes and time through a nested progress. */
static void run_test(struct benchpool_result *b, int t, unsigned n, unsigned ntests, struct pb_outcome *o)
{
	struct progress *p = b->set.progress;
	bool capped;
	uint64_t ms = test_plan_ms(b, t, &capped);
	progress_part_begin(p, ms, 0, capped ? ms * 1000000ULL : 0);
	progress_what(p, "%s on %s (test %u of %u)", pb_test_name(t), b->target.pool, n, ntests);
	struct pb_context c = b->ctx;
	struct progress_nest nest;
	c.progress = p;
	if (t == PB_BUILTIN && (c.progress = progress_nest(&nest, p, ms, p ? p->what : "")))
		progress_start_timed(c.progress, ms); /* each pass at its cap, as planned here */
	runners[t](&c, o);
	progress_part_end(p, ms);
}

/* The cache note, what the reads and writes are, then each selected engine in order. */
static void run_tests(struct benchpool_result *b)
{
	if (!b->ctx.rbd_image) /* librbd's cache is its own, small: no page cache holds the image */
		cache_note(&b->target, b->size, &b->cache_note, &b->cache_bytes);
	if (b->cache_note.len)
		log_msg(LOG_WARN, "BENCHPOOL (%s): %s", b->target.pool, b->cache_note.buf);
	log_msg(LOG_INFO, "BENCHPOOL (%s): compression %s; %s data; %s; reads %s", b->target.pool, b->compression,
		b->set.pattern == PATTERN_ZEROS ? "zero" : "incompressible",
		b->ctx.direct_ok ? "O_DIRECT" : "buffered (this file system refuses O_DIRECT)",
		pool_area_kind(b->target.kind->area)->reads);
	pool_evidence_start(&b->evidence, &b->target);
	b->ctx.random_mark = benchpool_reading_mark;
	b->ctx.random_mark_arg = &b->reading;
	unsigned ntests = (unsigned)__builtin_popcount(b->set.tests & ((1u << PB_NTESTS) - 1)), n = 0;
	progress_start_timed(b->set.progress, plan_ms(b));
	for (int t = 0; t < PB_NTESTS && !interrupt_requested(); t++) {
		if (!(b->set.tests & (1u << t)))
			continue;
		struct pb_outcome *o = &b->outcomes[b->noutcomes++];
		pb_outcome_init(o, (enum pb_test)t);
		log_msg(LOG_INFO, "BENCHPOOL (%s): %s on %s: starting", b->target.pool, pb_test_name(t),
			b->areas[0].path[0] ? b->areas[0].path : b->areas[0].name);
		run_test(b, t, ++n, ntests, o);
		log_outcome(b, o);
		benchpool_reading_judge(&b->reading, o);
	}
	progress_finish(b->set.progress);
	pool_evidence_stop(&b->evidence);
	benchpool_reading_gaps(&b->reading, b->outcomes, b->noutcomes);
}

int benchpool_run(const char *id, const struct benchpool_settings *set, uint64_t size, const char *run_id,
		  struct benchpool_result *b)
{
	*b = (struct benchpool_result){ .set = *set, .size = size, .cache_note = STRBUF_INIT, .perf_note = STRBUF_INIT,
					.status = STRBUF_INIT, .zeros_note = STRBUF_INIT };
	pool_evidence_init(&b->evidence, "BENCHPOOL");
	benchpool_reading_init(&b->reading, &b->evidence);
	int r = set_up(b, id, run_id);
	if (r == 0)
		run_tests(b);
	/* On Ceph, after the tests so its benches do not load the OSDs under them. */
	if (r == 0 && b->target.ceph_pool[0] && !set->skip_osds && !interrupt_requested())
		b->have_osds = ceph_step_run(b->target.ceph_pool, "BENCHPOOL", &b->osds) != -EINTR;
	zeros_versus_random(b);
	if (r == 0 || b->nareas) {
		pool_target_status_ceph(&b->target, &b->status, &b->ceph);
		pool_areas_destroy(b->areas, b->nareas, b->target.pool, "BENCHPOOL");
	}
	for (size_t i = 0; i < b->noutcomes; i++) {
		b->ran += b->outcomes[i].state == PB_RAN;
		b->failed += b->outcomes[i].state == PB_FAILED;
	}
	if (r == 0 && b->ran == 0 && !interrupt_requested()) {
		log_msg(LOG_ERR, "BENCHPOOL (%s): none of the requested tests could run", b->target.pool);
		b->none_ran = true;
	}
	return r;
}

void benchpool_result_release(struct benchpool_result *b)
{
	for (size_t i = 0; i < b->noutcomes; i++)
		pb_outcome_release(&b->outcomes[i]);
	b->noutcomes = 0;
	strbuf_release(&b->cache_note);
	strbuf_release(&b->perf_note);
	strbuf_release(&b->status);
	strbuf_release(&b->zeros_note);
	benchpool_reading_release(&b->reading);
	pool_evidence_release(&b->evidence);
	ceph_step_release(&b->osds);
}

/* ---- the stored result ---- */

static void int_or_null(struct json *j, const char *key, int v)
{
	if (v >= 0)
		json_uint(j, key, (uint64_t)v);
	else
		json_null(j, key);
}

/* The cluster as the ceph tools' JSON said it at the end of the run. */
static void ceph_state_json(struct json *j, const struct ceph_state *c)
{
	json_begin_object(j, "ceph");
	json_string(j, "health", c->health);
	int_or_null(j, "osds", c->osds);
	int_or_null(j, "osds_up", c->osds_up);
	int_or_null(j, "osds_in", c->osds_in);
	json_string(j, "pool", c->pool.pool[0] ? c->pool.pool : NULL);
	int_or_null(j, "size", c->pool.size);
	int_or_null(j, "min_size", c->pool.min_size);
	int_or_null(j, "pg_num", c->pool.pg_num);
	json_string(j, "crush_rule", c->pool.crush_rule[0] ? c->pool.crush_rule : NULL);
	json_end_object(j);
}

static void figure_json(struct json *j, const struct pb_figure *f, const char *compression)
{
	json_begin_object(j, NULL);
	json_string(j, "pass", f->label);
	json_string(j, "direction", f->is_read ? "read" : "write");
	json_uint(j, "bytes", f->bytes);
	json_double(j, "seconds", f->seconds);
	json_double(j, "bw_bytes_per_s", f->bw_bytes_per_s);
	if (f->iops > 0)
		json_double(j, "iops", f->iops);
	if (f->is_read)
		json_string(j, "cache", f->cache);
	else {
		json_string(j, "pattern", f->pattern);
		json_string(j, "compression", compression);
	}
	if (f->last_done_seconds > 0) {
		json_double(j, "first_done_seconds", f->first_done_seconds);
		json_double(j, "last_done_seconds", f->last_done_seconds);
	}
	if (f->lat.count)
		json_latency_summary(j, "lat_ns", &f->lat);
	if (f->slat.count)
		json_latency_summary(j, "slat_ns", &f->slat);
	json_end_object(j);
}

static void outcome_json(struct json *j, const struct pb_outcome *o, const char *compression,
			 const struct benchpool_reading *reading)
{
	static const char *const states[] = { "ok", "skipped", "failed", "interrupted" };
	json_begin_object(j, NULL);
	json_string(j, "test", pb_test_name(o->test));
	json_string(j, "status", states[o->state]);
	json_string(j, "reason", o->reason[0] ? o->reason : NULL);
	json_begin_array(j, "figures");
	for (size_t i = 0; i < o->nfigures; i++)
		figure_json(j, &o->figures[i], compression);
	json_end_array(j);
	if (o->fio_docs[0] || o->fio_docs[1]) {
		json_begin_object(j, "fio_json");
		if (o->fio_docs[0])
			json_value(j, "throughput", o->fio_docs[0]);
		if (o->fio_docs[1])
			json_value(j, "random", o->fio_docs[1]);
		json_end_object(j);
	}
	benchpool_reading_json(j, reading, o->test);
	json_string(j, "raw", o->raw.len ? o->raw.buf : NULL);
	json_end_object(j);
}

void benchpool_result_json(struct json *j, const struct benchpool_result *b)
{
	json_string(j, "operation", "benchpool");
	json_string(j, "pool", b->target.pool);
	json_string(j, "fstype", b->target.kind->fstype);
	json_string(j, "mountpoint", b->target.mountpoint);
	json_uint(j, "size_bytes", b->size);
	json_double(j, "size_gb", (double)b->size / (1 << 30));
	json_begin_array(j, "tests");
	for (int t = 0; t < PB_NTESTS; t++)
		if (b->set.tests & (1u << t))
			json_string(j, NULL, pb_test_name(t));
	json_end_array(j);
	json_string(j, "compression", b->compression[0] ? b->compression : NULL);
	json_bool(j, "direct_io", b->ctx.direct_ok);
	json_string(j, "pattern", pattern_name(b->set.pattern));
	json_uint(j, "cache_bytes", b->cache_bytes);
	json_string(j, "cache_note", b->cache_note.len ? b->cache_note.buf : NULL);
	json_string(j, "compression_note", b->zeros_note.len ? b->zeros_note.buf : NULL);
	json_bool(j, "perf_usable", b->perf_usable);
	json_string(j, "perf_note", b->perf_note.buf);
	json_uint(j, "stale_areas_removed", b->stale_removed);
	if (b->set.zvol) {
		json_begin_object(j, "zvol");
		json_string(j, "name", b->nareas ? b->areas[0].name : NULL);
		json_string(j, "device", b->nareas ? b->areas[0].path : NULL);
		json_uint(j, "volblocksize", b->zvol_volblocksize);
		json_uint(j, "filled_bytes", b->zvol_filled_bytes);
		json_end_object(j);
	}
	json_begin_array(j, "areas");
	for (size_t i = 0; i < b->nareas; i++)
		json_string(j, NULL, b->areas[i].name);
	json_end_array(j);
	json_begin_array(j, "results");
	for (size_t i = 0; i < b->noutcomes; i++)
		outcome_json(j, &b->outcomes[i], b->compression, &b->reading);
	json_end_array(j);
	json_string(j, "pool_status", b->status.buf);
	if (b->ceph.read)
		ceph_state_json(j, &b->ceph);
	if (b->have_osds)
		ceph_step_json(j, &b->osds);
	pool_evidence_json(j, &b->evidence);
}
