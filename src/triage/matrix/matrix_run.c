/* matrix: one test on one target, with fio (JSON parsed, bandwidth samples
 * as the noise), the built-in engine (per-interval samples), dbench or
 * qemu-img bench. Every tool runs by argv, interruptible. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/timeutil.h"
#include "bench/job.h"
#include "bench/layout.h"
#include "bench/target.h"
#include "poolbench/parse.h"
#include "poolbench/poolbench.h"
#include "triage/pool/pool_evidence.h"
#include "triage/matrix/matrix.h"
#include "triage/matrix/matrix_image.h"

#define TOOL_TIMEOUT_MS (4 * 3600 * 1000)

void mx_result_fail(struct mx_result *r, const char *status, const char *fmt, const char *arg)
{
	snprintf(r->status, sizeof(r->status), "%s", status);
	snprintf(r->reason, sizeof(r->reason), fmt, arg);
}

/* A cell's plan in the progress: its runtime in milliseconds. */
static uint64_t cell_ms(const struct matrix *m)
{
	uint64_t ms = m->runtime_ns / 1000000;
	return ms ? ms : 1;
}

static void run_fio(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, struct mx_result *r)
{
	char name[64], file[PATH_MAX + 80], rw[32], bs[32], size[48], runtime[32], qd[32], direct[16], avg[48];
	snprintf(name, sizeof(name), "--name=%s", x->name);
	snprintf(file, sizeof(file), "--filename=%s", t->file);
	snprintf(rw, sizeof(rw), "--rw=%s", x->random ? (x->write ? "randwrite" : "randread") : (x->write ? "write" : "read"));
	snprintf(bs, sizeof(bs), "--bs=%" PRIu32, x->bs);
	snprintf(size, sizeof(size), "--size=%" PRIu64, m->size);
	snprintf(runtime, sizeof(runtime), "--runtime=%" PRIu64 "ms", m->runtime_ns / 1000000);
	snprintf(qd, sizeof(qd), "--iodepth=%u", m->iodepth);
	snprintf(direct, sizeof(direct), "--direct=%d", t->direct ? 1 : 0);
	/* Ten bandwidth samples per run at least: the noise compare judges changes by. */
	uint64_t avg_ms = m->runtime_ns / 1000000 / 10;
	snprintf(avg, sizeof(avg), "--bwavgtime=%" PRIu64, avg_ms < 100 ? 100 : avg_ms > 1000 ? 1000 : avg_ms);
	const char *argv[24];
	size_t n = 0;
	argv[n++] = "fio";
	argv[n++] = "--output-format=json";
	argv[n++] = name;
	argv[n++] = file;
	argv[n++] = rw;
	argv[n++] = bs;
	argv[n++] = size;
	argv[n++] = runtime;
	argv[n++] = "--ioengine=libaio";
	argv[n++] = qd;
	argv[n++] = direct;
	argv[n++] = avg;
	argv[n++] = "--numjobs=1";
	argv[n++] = "--refill_buffers=1";
	argv[n++] = "--randrepeat=1";
	argv[n++] = "--slat_percentiles=1"; /* so its submission latency has p50..p99.99 too */
	if (x->write)
		argv[n++] = "--end_fsync=1";
	if (t->kind == MX_DEVICE)
		argv[n++] = "--readonly";
	argv[n] = NULL;
	struct spawn_opts opts = { .timeout_ms = TOOL_TIMEOUT_MS, .stdin_fd = -1, .interruptible = true,
				   .tick = m->progress };
	struct spawn_result res;
	int rc = spawn_run_opts(argv, &opts, &res);
	r->tool = MX_FIO;
	if (rc == -EINTR) {
		mx_result_fail(r, "interrupted", "%s", "interrupted");
	} else if (rc < 0) {
		mx_result_fail(r, "failed", "cannot run fio: %s", strerror(-rc));
	} else if (res.status != 0) {
		const char *msg = res.err.len ? res.err.buf : res.out.buf;
		snprintf(r->status, sizeof(r->status), "failed");
		snprintf(r->reason, sizeof(r->reason), "fio exited with status %d: %.*s", res.status,
			 (int)strcspn(msg, "\n"), msg);
	} else {
		struct fio_summary sum;
		struct jv *doc = NULL;
		char err[160];
		if (fio_parse(res.out.buf, res.out.len, &sum, &doc, err, sizeof(err)) < 0) {
			mx_result_fail(r, "failed", "cannot read fio's output: %s", err);
		} else {
			const struct fio_direction *d = x->write ? &sum.write : &sum.read;
			const struct jv *job = jv_at(jv_get(doc, "jobs"), 0), *dir = jv_get(job, x->write ? "write" : "read");
			snprintf(r->status, sizeof(r->status), "ok");
			r->bytes = d->bytes;
			r->seconds = d->runtime_s;
			r->bw = d->bw_bytes_per_s;
			r->iops = d->iops;
			r->has_lat = fio_latency(dir, "clat_ns", &r->lat);
			r->lat_p99_ns = r->has_lat ? (double)r->lat.p99 : NAN;
			r->lat_max_ns = r->has_lat ? (double)r->lat.max : NAN;
			r->has_slat = fio_latency(dir, "slat_ns", &r->slat);
			/* fio's bandwidth samples: bw_dev is their standard deviation, in KiB/s. */
			r->noise_n = (unsigned)jv_u64(jv_get(dir, "bw_samples"), 0);
			r->noise_sd = jv_number(jv_get(dir, "bw_dev"), NAN) * 1024.0;
			r->noise_basis = "fio bandwidth samples";
			r->noise_min = jv_number(jv_get(dir, "bw_min"), NAN) * 1024.0;
			r->noise_max = jv_number(jv_get(dir, "bw_max"), NAN) * 1024.0;
			if (sum.error)
				mx_result_fail(r, "failed", "fio reported error %s", strerror(sum.error));
		}
		jv_free(doc);
	}
	spawn_result_release(&res);
}

static void run_builtin(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, struct mx_result *r)
{
	r->tool = MX_BUILTIN;
	struct job_spec spec = {
		.random = x->random, .read_pct = x->write ? 0 : 100, .bs = x->bs, .iodepth = m->iodepth, .numjobs = 1,
		.size = m->size, .runtime_ns = m->runtime_ns, .pattern = PATTERN_RANDOM, .seed = 1,
		.live = m->progress,
	};
	spec.sample_ns = m->runtime_ns / 10 < 100000000ULL ? 100000000ULL : m->runtime_ns / 10;
	if (spec.sample_ns > 1000000000ULL)
		spec.sample_ns = 1000000000ULL;
	struct target tg = TARGET_INIT;
	/* The test file is ours: opened read-write so a read test can lay it out first.
	 * A device is only ever read. */
	bool ours = t->kind != MX_DEVICE;
	int rc = target_open(t->file, ours, t->direct, ours, &tg);
	if (rc == 0 && tg.kind == TARGET_REGULAR_FILE && tg.size < m->size)
		rc = layout_file(&tg, m->size, PATTERN_RANDOM, NULL, NULL, NULL);
	if (rc == 0 && tg.kind == TARGET_BLOCK_DEVICE && tg.size < spec.size)
		spec.size = tg.size;
	char err[256] = "", reason[160];
	if (rc < 0)
		snprintf(err, sizeof(err), "cannot open or lay out '%s': %s", t->file, strerror(-rc));
	if (rc == 0)
		rc = job_validate(&spec, &tg, err, sizeof(err));
	struct engine_target_traits traits = { .synchronous_device = tg.bio_based };
	const struct engine_ops *engine = rc == 0 ? engine_select("auto", spec.iodepth, &traits, reason, sizeof(reason)) : NULL;
	if (rc == 0 && !engine) {
		snprintf(err, sizeof(err), "%s", reason);
		rc = -EINVAL;
	}
	struct job_result *res = NULL;
	progress_part_begin(m->progress, cell_ms(m), spec.size, spec.runtime_ns); /* the layout done */
	if (rc == 0 && (rc = job_run(&spec, &tg, engine, &res)) < 0)
		snprintf(err, sizeof(err), "cannot run: %s", strerror(-rc));
	double sync_s = 0;
	if (rc == 0 && x->write && !t->direct) {
		/* Buffered writes count once they reach the pool. */
		uint64_t t0 = now_ns();
		fdatasync(tg.fd);
		sync_s = (double)(now_ns() - t0) / 1e9;
	}
	target_close(&tg);
	if (rc < 0) {
		mx_result_fail(r, "failed", "%s", err);
	} else if (res->stop == JOB_STOP_INTERRUPTED) {
		mx_result_fail(r, "interrupted", "%s", "interrupted");
	} else if (res->stop == JOB_STOP_ERROR) {
		mx_result_fail(r, "failed", "I/O error: %s", strerror(-res->error));
	} else {
		snprintf(r->status, sizeof(r->status), "ok");
		r->bytes = res->bytes;
		r->seconds = res->seconds + sync_s;
		r->bw = r->seconds > 0 ? (double)res->bytes / r->seconds : 0;
		r->iops = r->seconds > 0 ? (double)res->ios / r->seconds : 0;
		const struct histogram *h = x->write ? &res->lat_write : &res->lat_read;
		r->lat_p99_ns = hist_percentile(h, 99);
		r->lat_max_ns = (double)h->max;
		hist_summarize(h, &r->lat);
		r->has_lat = true;
		if (res->has_slat) {
			hist_summarize(x->write ? &res->slat_write : &res->slat_read, &r->slat);
			r->has_slat = true;
		}
		double mean = 0, var = 0;
		for (unsigned i = 0; i < res->nr_samples; i++)
			mean += res->samples_bw[i] / res->nr_samples;
		for (unsigned i = 0; i < res->nr_samples; i++)
			var += (res->samples_bw[i] - mean) * (res->samples_bw[i] - mean);
		r->noise_n = res->nr_samples;
		r->noise_sd = res->nr_samples > 1 ? sqrt(var / (res->nr_samples - 1)) : NAN;
		r->noise_basis = "per-interval samples";
		for (unsigned i = 0; i < res->nr_samples; i++) {
			if (i == 0 || res->samples_bw[i] < r->noise_min)
				r->noise_min = res->samples_bw[i];
			if (i == 0 || res->samples_bw[i] > r->noise_max)
				r->noise_max = res->samples_bw[i];
		}
	}
	free(res);
}

/* dbench's closing line: "Throughput 123.456 MB/sec  6 clients  6 procs  max_latency=12.345 ms". */
static int dbench_parse(const char *text, double *ret_bw, double *ret_max_lat_ns)
{
	const char *p = strstr(text, "Throughput ");
	double mb, lat;
	if (!p || sscanf(p, "Throughput %lf MB/sec", &mb) != 1)
		return -EINVAL;
	*ret_bw = mb * 1e6;
	const char *l = strstr(p, "max_latency=");
	*ret_max_lat_ns = l && sscanf(l, "max_latency=%lf ms", &lat) == 1 ? lat * 1e6 : NAN;
	return 0;
}

static void run_dbench(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, struct mx_result *r)
{
	char secs[32], clients[16];
	/* dbench measures nothing in a 1 s run (no warmup, "Throughput 0 MB/sec"). */
	uint64_t s = m->runtime_ns / 1000000000ULL;
	if (s < 3)
		s = 3;
	snprintf(secs, sizeof(secs), "%" PRIu64, s ? s : 1);
	snprintf(clients, sizeof(clients), "%u", x->clients);
	const char *argv[] = { "dbench", "-D", t->path, "-t", secs, clients, NULL };
	progress_part_begin(m->progress, cell_ms(m), 0, s * 1000000000ULL); /* its own minimum */
	struct spawn_opts opts = { .timeout_ms = TOOL_TIMEOUT_MS, .stdin_fd = -1, .interruptible = true,
				   .tick = m->progress };
	struct spawn_result res;
	r->tool = MX_DBENCH;
	int rc = spawn_run_opts(argv, &opts, &res);
	double bw, lat;
	if (rc == -ENOENT)
		mx_result_fail(r, "skipped", "%s", "dbench is not installed");
	else if (rc == -EINTR)
		mx_result_fail(r, "interrupted", "%s", "interrupted");
	else if (rc < 0)
		mx_result_fail(r, "failed", "cannot run dbench: %s", strerror(-rc));
	else if (res.status != 0 || dbench_parse(res.out.buf, &bw, &lat) < 0 || bw <= 0) {
		const char *msg = res.err.len ? res.err.buf : res.out.buf;
		snprintf(r->status, sizeof(r->status), "failed");
		if (res.status == 0)
			snprintf(r->reason, sizeof(r->reason), "dbench reported no throughput");
		else
			snprintf(r->reason, sizeof(r->reason), "dbench exited with status %d: %.*s", res.status,
				 (int)strcspn(msg, "\n"), msg);
	} else {
		snprintf(r->status, sizeof(r->status), "ok");
		r->bw = bw;
		r->lat_max_ns = lat;
		r->lat_p99_ns = NAN;
		r->seconds = (double)(s ? s : 1);
		r->bytes = (uint64_t)(bw * r->seconds);
		r->noise_sd = NAN;
	}
	spawn_result_release(&res);
}

static void run_image(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, struct mx_result *r)
{
	r->tool = MX_QEMU_IMG;
	if (x->dbench) {
		mx_result_fail(r, "skipped", "%s", "dbench needs a file system, not an image file");
		return;
	}
	if (x->random) {
		mx_result_fail(r, "skipped", "%s", "qemu-img bench issues sequential I/O only: no random test through an image");
		return;
	}
	char err[512] = "";
	uint64_t bytes = 0;
	double seconds = 0;
	bool direct = false;
	/* qemu-img bench has no time cap; the size bounds it, the timeout guards it. */
	int timeout_ms = (int)(m->runtime_ns / 1000000) * 10 + 60000;
	int ret = mx_image_bench(t->file, t->format, x->write, x->bs, m->iodepth, m->size, timeout_ms, &bytes, &seconds,
				 &direct, err, sizeof(err));
	if (ret < 0) {
		mx_result_fail(r, interrupt_requested() ? "interrupted" : "failed", "%s", interrupt_requested() ? "interrupted" : err);
		return;
	}
	snprintf(r->status, sizeof(r->status), "ok");
	r->bytes = bytes;
	r->seconds = seconds;
	r->bw = seconds > 0 ? (double)bytes / seconds : 0;
	r->iops = seconds > 0 ? (double)bytes / x->bs / seconds : 0;
	r->direct = direct;
	r->noise_basis = "none";
}

const char *mx_tool_name(enum mx_tool t)
{
	return t == MX_FIO ? "fio" : t == MX_BUILTIN ? "builtin" : t == MX_QEMU_IMG ? "qemu-img" : "dbench";
}

static void run_cell(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, bool use_fio,
		     struct mx_result *r)
{
	*r = (struct mx_result){ .lat_p99_ns = NAN, .lat_max_ns = NAN, .noise_sd = NAN, .noise_min = NAN, .noise_max = NAN, .direct = t->direct };
	if (t->failed) {
		mx_result_fail(r, "skipped", "the target could not be set up: %s", t->reason);
		return;
	}
	if (t->kind == MX_DEVICE && (x->write || x->dbench)) {
		mx_result_fail(r, "skipped", "%s", "matrix never writes to a block device");
		return;
	}
	if (t->kind == MX_ZVOL && x->dbench) {
		mx_result_fail(r, "skipped", "%s", "a zvol is a block device: dbench needs a file system on it");
		return;
	}
	if (t->kind == MX_IMAGE)
		run_image(m, t, x, r);
	else if (x->dbench)
		run_dbench(m, t, x, r);
	else if (use_fio)
		run_fio(m, t, x, r);
	else
		run_builtin(m, t, x, r);
	if (strcmp(r->status, "failed") == 0 && pb_pool_full(0, r->reason)) {
		char detail[sizeof(r->reason)];
		snprintf(detail, sizeof(detail), "%s", r->reason);
		pb_failure_reason(-ENOSPC, detail, r->reason, sizeof(r->reason));
	}
	char rate[32];
	human_rate(r->bw, rate, sizeof(rate));
	if (strcmp(r->status, "ok") == 0)
		log_msg(LOG_INFO, "MATRIX (%s): %s: %s (%s%s)", t->label, x->name, rate, mx_tool_name(r->tool),
			x->dbench ? "" : t->direct ? ", O_DIRECT" : ", buffered");
	else
		log_msg(LOG_WARN, "MATRIX (%s): %s %s: %s", t->label, x->name, r->status, r->reason);
}

void mx_check_direct(struct matrix *m)
{
	for (size_t i = 0; i < m->ntargets; i++) {
		struct mx_target *t = &m->targets[i];
		t->direct = t->kind == MX_DEVICE || t->kind == MX_ZVOL || (!t->failed && pb_direct_supported(t->path));
		if (t->kind == MX_IMAGE)
			continue; /* qemu-img says per test whether cache=none (O_DIRECT) was taken */
		if (!t->direct && !t->failed) {
			snprintf(t->note + strlen(t->note), sizeof(t->note) - strlen(t->note), "%sO_DIRECT is refused here: "
				 "buffered I/O, so reads may come from a cache", t->note[0] ? "; " : "");
			log_msg(LOG_WARN, "MATRIX (%s): O_DIRECT is refused; buffered I/O instead", t->label);
		}
	}
}

/* Keeps what the pool evidence of a dataset target said in T. */
static void keep_evidence(struct mx_target *t, const struct pool_evidence *e)
{
	struct strbuf f = STRBUF_INIT;
	const struct pool_findings *lists[] = { &e->settings, &e->load };
	for (size_t l = 0; l < 2; l++)
		for (size_t i = 0; i < lists[l]->count; i++)
			strbuf_addf(&f, "%s%s: %s (%s)", f.len ? "; " : "", lists[l]->items[i].code,
				    lists[l]->items[i].text, lists[l]->items[i].evidence);
	snprintf(t->pool_findings, sizeof(t->pool_findings), "%s", f.len ? f.buf : "");
	strbuf_release(&f);
	for (size_t i = 0; e->telemetry_read && i < e->nmembers && t->nmembers < 16; i++) {
		struct mx_member_load *m = &t->members[t->nmembers++];
		*m = (struct mx_member_load){ .busy = e->members[i].total.busy, .peak_busy = e->members[i].peak_busy,
					      .wait_ms = e->members[i].total.wait_ms,
					      .read_bytes = e->members[i].total.read_bytes,
					      .write_bytes = e->members[i].total.write_bytes };
		snprintf(m->name, sizeof(m->name), "%s", e->members[i].kname);
	}
}

/* A dataset target's tests with the pool's settings read before and its members sampled during them. */
static void run_dataset(struct matrix *m, struct mx_target *t, bool use_fio, struct mx_result *res)
{
	struct pool_target pt = { .kind = &pool_kind_zfs };
	snprintf(pt.pool, sizeof(pt.pool), "%.*s", (int)strcspn(m->pool_parent, "/"), m->pool_parent);
	snprintf(pt.parent, sizeof(pt.parent), "%s", m->pool_parent);
	struct pool_evidence e;
	pool_evidence_init(&e, "MATRIX");
	pool_evidence_settings(&e, &pt, t->area.name, 0);
	pool_evidence_start(&e, &pt);
	for (size_t k = 0; k < m->ntests; k++) {
		if (interrupt_requested())
			break;
		mx_run_one(m, t, &m->tests[k], use_fio, &res[k]);
	}
	pool_evidence_stop(&e);
	keep_evidence(t, &e);
	pool_evidence_release(&e);
}

void mx_run_one(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, bool use_fio,
		struct mx_result *r)
{
	/* The progress is planned in time, each cell at its runtime (a cap but
	 * for qemu-img's, which the size bounds); fio and dbench move it by the
	 * ticks while they are waited for, the built-in engine by its bytes. */
	struct progress *p = m->progress;
	uint64_t ms = cell_ms(m), cell = progress_counted(p) / ms + 1;
	progress_part_begin(p, ms, 0, t->kind == MX_IMAGE ? 0 : ms * 1000000ULL);
	progress_what(p, "%s on %s (%llu of %llu)", x->name, t->label, (unsigned long long)cell,
		      (unsigned long long)(p ? p->total / ms : 0));
	run_cell(m, t, x, use_fio, r);
	progress_part_end(p, ms);
}

void mx_run_all(struct matrix *m, bool use_fio, size_t *ret_ok, size_t *ret_ran)
{
	/* Target by target, test by test: the fixed order of the comparison. */
	size_t ok = 0, ran = 0;
	progress_start_timed(m->progress, m->ntargets * m->ntests * cell_ms(m));
	for (size_t i = 0; i < m->ntargets; i++) {
		if (m->targets[i].kind == MX_DATASET && !m->targets[i].failed && !interrupt_requested()) {
			for (size_t k = 0; k < m->ntests; k++)
				m->results[i][k] = (struct mx_result){ .status = "" };
			run_dataset(m, &m->targets[i], use_fio, m->results[i]);
		}
		for (size_t k = 0; k < m->ntests; k++) {
			struct mx_result *res = &m->results[i][k];
			bool done = m->targets[i].kind == MX_DATASET && res->status[0];
			if (interrupt_requested() && !done) {
				*res = (struct mx_result){ .lat_p99_ns = NAN, .lat_max_ns = NAN, .noise_sd = NAN, .noise_min = NAN, .noise_max = NAN };
				mx_result_fail(res, "interrupted", "%s", "not run: interrupted");
				continue;
			}
			if (!res->status[0] || m->targets[i].kind != MX_DATASET || m->targets[i].failed)
				mx_run_one(m, &m->targets[i], &m->tests[k], use_fio, res);
			ran += strcmp(res->status, "skipped") != 0;
			ok += strcmp(res->status, "ok") == 0;
		}
	}
	progress_finish(m->progress);
	*ret_ok = ok;
	*ret_ran = ran;
}
