/* benchpool POOL [SIZE]: step 4 of the method. The pool measured the way an
 * application sees it (file system, record size, compression, write path),
 * in temporary tagged areas that are removed on success, failure and
 * signals, with every read figure labelled by what could have served it. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "cmd/bench_target.h"
#include "cmd/commands.h"
#include "cmd/poolbench_cmd.h"
#include "cmd/runctx.h"

enum { OPT_TESTS = OPT_COMMAND_BASE, OPT_FSTYPE, OPT_RUNTIME, OPT_PATTERN };

static const struct opt_def benchpool_opts[] = {
	{ "tests", 't', "LIST", "comma-separated: fio, elbencho, dd, iozone, builtin, or all (default all)", OPT_TESTS, { 0 } },
	{ "fstype", 0, "TYPE", "zfs, btrfs or dir (detected when omitted)", OPT_FSTYPE, { 0 } },
	{ "runtime", 0, "SECS", "cap on each fio and built-in pass (default 60; a cap, not a duration)", OPT_RUNTIME, { 0 } },
	{ "pattern", 0, "PATTERN", "data written: random (incompressible, default) or zeros", OPT_PATTERN, { 0 } },
	OPT_END,
};

struct benchpool_settings {
	unsigned tests;
	const char *fstype;
	unsigned runtime_s;
	enum data_pattern pattern;
};

static int handle_option(int id, const char *arg, void *state)
{
	struct benchpool_settings *s = state;
	char err[160];
	uint64_t v;
	switch (id) {
	case OPT_TESTS:
		if (pb_tests_parse(arg, &s->tests, err, sizeof(err)) < 0)
			return opts_usage_error("benchpool", "invalid --tests '%s': %s", arg, err);
		return 0;
	case OPT_FSTYPE:
		if (strcmp(arg, "zfs") && strcmp(arg, "btrfs") && strcmp(arg, "dir"))
			return opts_usage_error("benchpool", "invalid --fstype '%s': expected zfs, btrfs or dir", arg);
		s->fstype = arg;
		return 0;
	case OPT_RUNTIME:
		if (parse_uint(arg, 1, 86400, &v) < 0)
			return opts_usage_error("benchpool", "invalid --runtime '%s': expected 1 to 86400 seconds", arg);
		s->runtime_s = (unsigned)v;
		return 0;
	case OPT_PATTERN:
		if (strcmp(arg, "random") && strcmp(arg, "zeros"))
			return opts_usage_error("benchpool", "invalid --pattern '%s': expected random or zeros", arg);
		s->pattern = strcmp(arg, "zeros") == 0 ? PATTERN_ZEROS : PATTERN_RANDOM;
		return 0;
	}
	return 1;
}

/* SIZE: whole GB as the spec has it ("1" is 1 GiB), or a size with a unit. */
static int parse_test_size(const char *arg, uint64_t *ret)
{
	uint64_t v;
	if (strspn(arg, "0123456789") == strlen(arg)) {
		if (parse_uint(arg, 1, 1 << 20, &v) < 0)
			return -EINVAL;
		*ret = v << 30;
		return 0;
	}
	if (parse_size(arg, &v) < 0 || v < (8U << 20) || v % (1U << 20))
		return -EINVAL;
	*ret = v;
	return 0;
}

/* ---- benchpool ---- */

struct benchpool_run {
	struct bench_target target;
	struct benchpool_settings set;
	uint64_t size;
	struct scratch areas[2];
	size_t nareas;
	struct pb_context ctx;
	char compression[32];
	struct pb_outcome outcomes[PB_NTESTS];
	size_t noutcomes;
	struct strbuf cache_note, perf_note, status, zeros_note;
	bool perf_usable;
	uint64_t cache_bytes;
	size_t stale_removed;
};

static void (*const runners[PB_NTESTS])(const struct pb_context *, struct pb_outcome *) = {
	[PB_FIO] = pb_run_fio, [PB_ELBENCHO] = pb_run_elbencho, [PB_DD] = pb_run_dd,
	[PB_IOZONE] = pb_run_iozone, [PB_BUILTIN] = pb_run_builtin,
};

static void log_outcome(const struct benchpool_run *b, const struct pb_outcome *o)
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

static int prepare(struct benchpool_run *b, const char *run_id)
{
	struct bench_target *t = &b->target;
	b->stale_removed = (size_t)pool_areas_remove_stale(t, "BENCHPOOL");
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
		.compression_on = compression_is_on(b->compression),
	};
	return 0;
}

/* dd on a compressing area also wrote zeros: say what that did to the figure. */
static void zeros_versus_random(struct benchpool_run *b)
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

static void benchpool_json(struct json *j, const struct benchpool_run *b)
{
	json_string(j, "operation", "benchpool");
	json_string(j, "pool", b->target.pool);
	json_string(j, "fstype", b->target.fstype);
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
	json_begin_array(j, "areas");
	for (size_t i = 0; i < b->nareas; i++)
		json_string(j, NULL, b->areas[i].name);
	json_end_array(j);
	json_begin_array(j, "results");
	for (size_t i = 0; i < b->noutcomes; i++)
		pb_outcome_json(j, &b->outcomes[i], b->compression);
	json_end_array(j);
	json_string(j, "pool_status", b->status.buf);
}

int cmd_benchpool(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"benchpool", "benchpool [options] POOL [SIZE]",
		"Measures a pool the way an application sees it: temporary datasets (ZFS, record\n"
		"sizes 1M and 4K), subvolumes (btrfs) or directories, then fio, elbencho, dd, iozone\n"
		"and the built-in engine, with incompressible data. POOL is a ZFS pool name or GUID,\n"
		"a btrfs label or UUID, or a directory. SIZE is in GB (default 1) or takes a unit\n"
		"(256M). Reads are made so no cache can serve them, and labelled 'cache' when one\n"
		"could. Everything temporary is removed at the end, on failure and on signals.",
		benchpool_opts,
	};
	struct benchpool_run b = { .set = { .tests = (1u << PB_NTESTS) - 1, .runtime_s = 60 },
				   .cache_note = STRBUF_INIT, .perf_note = STRBUF_INIT, .status = STRBUF_INIT,
				   .zeros_note = STRBUF_INIT };
	int first = opts_parse_command(&doc, argc, argv, g, handle_option, &b.set);
	if (first < 0)
		return opts_command_status(first);
	if (argc - first < 1 || argc - first > 2)
		return opts_usage_error("benchpool", "expected a pool and an optional size in GB");
	const char *id = argv[first];
	b.size = 1ULL << 30;
	if (argc - first == 2 && parse_test_size(argv[first + 1], &b.size) < 0)
		return opts_usage_error("benchpool", "invalid SIZE '%s': whole GB (1, 64) or a size of at least 8M "
						     "in whole MiB (256M)", argv[first + 1]);
	if (!*id || id[0] == '-' || strlen(id) > 255 || strpbrk(id, "\n\t"))
		return opts_usage_error("benchpool", "'%s' is not a valid pool name, GUID, label, UUID or directory", id);

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "benchpool", argc, argv, g))
		return 1;
	int status = 0;
	int r = bench_target_resolve(id, b.set.fstype, &b.target);
	if (r == 0) {
		log_msg(LOG_INFO, "BENCHPOOL (%s): %s file system type '%s' (%s at %s)", b.target.pool,
			b.set.fstype ? "using" : "detected", b.target.fstype, b.target.fs_name[0] ? b.target.fs_name : "?",
			b.target.mountpoint);
		perf_note(&b.perf_note, &b.perf_usable);
		log_msg(b.perf_usable ? LOG_INFO : LOG_WARN, "BENCHPOOL (%s): %s", b.target.pool, b.perf_note.buf);
		r = prepare(&b, rc.id);
	}
	if (r == 0) {
		cache_note(&b.target, b.size, &b.cache_note, &b.cache_bytes);
		if (b.cache_note.len)
			log_msg(LOG_WARN, "BENCHPOOL (%s): %s", b.target.pool, b.cache_note.buf);
		log_msg(LOG_INFO, "BENCHPOOL (%s): compression %s; %s data; %s; reads %s", b.target.pool, b.compression,
			b.set.pattern == PATTERN_ZEROS ? "zero" : "incompressible",
			b.ctx.direct_ok ? "O_DIRECT" : "buffered (this file system refuses O_DIRECT)",
			b.target.kind == SCRATCH_ZFS ? "with the ARC keeping no file data (primarycache=metadata)"
						     : "after dropping the page cache");
		for (int t = 0; t < PB_NTESTS && !interrupt_requested(); t++) {
			if (!(b.set.tests & (1u << t)))
				continue;
			struct pb_outcome *o = &b.outcomes[b.noutcomes++];
			pb_outcome_init(o, (enum pb_test)t);
			log_msg(LOG_INFO, "BENCHPOOL (%s): %s on %s: starting", b.target.pool, pb_test_name(t),
				b.areas[0].path);
			runners[t](&b.ctx, o);
			log_outcome(&b, o);
		}
	}
	zeros_versus_random(&b);
	if (r == 0 || b.nareas) {
		bench_target_status(&b.target, &b.status);
		pool_areas_destroy(b.areas, b.nareas, b.target.pool, "BENCHPOOL");
	}

	size_t ran = 0, failed = 0;
	for (size_t i = 0; i < b.noutcomes; i++) {
		ran += b.outcomes[i].state == PB_RAN;
		failed += b.outcomes[i].state == PB_FAILED;
	}
	if (r < 0)
		status = 1;
	else if (ran == 0 && !interrupt_requested()) {
		log_msg(LOG_ERR, "BENCHPOOL (%s): none of the requested tests could run", b.target.pool);
		status = 1;
	} else if (failed)
		status = 1;
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	if (!rc.json && b.noutcomes) {
		printf("\n");
		pb_outcomes_table(b.outcomes, b.noutcomes, b.compression, stdout);
		printf("\n");
		if (b.cache_note.len)
			printf("Note: %s.\n", b.cache_note.buf);
		if (b.ctx.compression_on)
			printf("Note: compression is %s here; every write figure above is for %s data.\n", b.compression,
			       b.set.pattern == PATTERN_ZEROS ? "zero (highly compressible, inflated)" : "incompressible");
		if (b.zeros_note.len)
			printf("Note: %s.\n", b.zeros_note.buf);
	}
	log_msg(LOG_INFO, "Benchmarking complete.");
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	benchpool_json(&j, &b);
	status = run_ctx_finish(&rc, &j, status, NULL, NULL);

	json_release(&j);
	for (size_t i = 0; i < b.noutcomes; i++)
		pb_outcome_release(&b.outcomes[i]);
	strbuf_release(&b.cache_note);
	strbuf_release(&b.perf_note);
	strbuf_release(&b.status);
	strbuf_release(&b.zeros_note);
	return status;
}
