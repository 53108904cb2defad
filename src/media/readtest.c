#include "media/readtest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/target.h"

const char *readtest_status_name(enum readtest_status s)
{
	switch (s) {
	case READTEST_OK:
		return "ok";
	case READTEST_ERROR:
		return "error";
	case READTEST_SKIPPED:
		return "skipped";
	}
	return "?";
}

static void set_error(struct disk_read *d, const char *fmt, const char *detail)
{
	d->status = READTEST_ERROR;
	snprintf(d->reason, sizeof(d->reason), fmt, d->info.dev_path, detail);
}

/* Explains a failure to open, in words that say what to do about it. */
static int explain_open_error(struct disk_read *d, int err)
{
	switch (err) {
	case -ENOENT:
		set_error(d, "'%s': no such path%s", "");
		break;
	case -EISDIR:
		set_error(d, "'%s' is a directory, not a block device%s", "");
		break;
	case -ENOTBLK:
		set_error(d, "'%s' is not a block device%s", "");
		break;
	case -EACCES:
	case -EPERM:
		set_error(d, "cannot open '%s': permission refused (%s); raw reads need root, and some "
			     "hypervisors refuse them even to root",
			  strerror(-err));
		break;
	case -ENOMEDIUM:
		set_error(d, "'%s': no medium in the drive%s", "");
		break;
	default:
		set_error(d, "cannot open '%s': %s", strerror(-err));
	}
	return err;
}

/* The status and reason of a read that ran: ok (maybe of a short device),
 * a read error with its offset, or interrupted. */
static void record_outcome(struct disk_read *d, uint64_t device_size, uint64_t asked)
{
	if (d->res->stop == JOB_STOP_ERROR) {
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason), "read error on '%s' at byte %llu: %s",
			 d->info.dev_path, (unsigned long long)d->res->error_offset,
			 strerror(-d->res->error));
	} else if (d->res->stop == JOB_STOP_INTERRUPTED) {
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason), "interrupted after %llu bytes",
			 (unsigned long long)d->res->bytes);
	} else {
		d->status = READTEST_OK;
		if (d->truncated)
			snprintf(d->reason, sizeof(d->reason),
				 "device holds %llu bytes, less than the %llu asked for; read all of it",
				 (unsigned long long)device_size, (unsigned long long)asked);
	}
}

int readtest_run(struct disk_read *d, const struct readtest_opts *opts)
{
	d->requested = opts->size;
	enum target_kind kind;
	int r = target_classify(d->info.dev_path, &kind);
	if (r == 0 && kind != TARGET_BLOCK_DEVICE)
		r = -ENOTBLK;
	if (r < 0)
		return explain_open_error(d, r);

	struct target t = TARGET_INIT;
	r = target_open(d->info.dev_path, false, true, false, &t);
	if (r < 0)
		return explain_open_error(d, r);

	uint64_t size = opts->size;
	if (t.size < size) {
		/* Read what exists, rounded down to whole sectors, and say so. */
		size = t.size - t.size % t.offset_align;
		d->truncated = true;
	}
	if (size == 0) {
		target_close(&t);
		d->status = READTEST_SKIPPED;
		snprintf(d->reason, sizeof(d->reason), "'%s' has size 0", d->info.dev_path);
		return 0;
	}

	struct job_spec spec = {
		.random = false,
		.read_pct = 100,
		.bs = opts->bs,
		.iodepth = opts->iodepth,
		.numjobs = 1,
		.size = size,
		.runtime_ns = opts->runtime_ns,
		.pattern = PATTERN_RANDOM,
		.seed = 1,
		.progress = opts->progress,
		.progress_label = d->info.dev_path,
	};
	if (spec.bs > size)
		spec.bs = (uint32_t)size;
	char msg[256];
	r = job_validate(&spec, &t, msg, sizeof(msg));
	if (r < 0) {
		target_close(&t);
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason), "%s", msg);
		return r;
	}
	struct engine_target_traits traits = { .synchronous_device = t.bio_based };
	const struct engine_ops *engine = engine_select(opts->engine, spec.iodepth, &traits, d->engine_reason,
							sizeof(d->engine_reason));
	if (!engine) {
		target_close(&t);
		d->status = READTEST_ERROR;
		snprintf(d->reason, sizeof(d->reason), "%s", d->engine_reason);
		return -EINVAL;
	}
	r = job_run(&spec, &t, engine, &d->res);
	target_close(&t);
	if (r < 0) {
		set_error(d, "cannot read '%s': %s", strerror(-r));
		return 0;
	}
	record_outcome(d, t.size, opts->size);
	return 0;
}

static const struct disk_read *sort_base;

static int rank_class(const struct disk_read *d)
{
	return d->status == READTEST_OK ? 0 : d->status == READTEST_ERROR ? 1 : 2;
}

static int compare_reads(const void *a, const void *b)
{
	const struct disk_read *x = &sort_base[*(const size_t *)a];
	const struct disk_read *y = &sort_base[*(const size_t *)b];
	int cx = rank_class(x), cy = rank_class(y);
	if (cx != cy)
		return cx - cy;
	if (cx == 0) {
		double bx = job_bw_bytes_per_s(x->res), by = job_bw_bytes_per_s(y->res);
		if (bx != by)
			return bx > by ? -1 : 1;
	}
	return strcmp(x->info.kname, y->info.kname);
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double readtest_rank(struct disk_read *reads, size_t n, size_t *order)
{
	double *bw = calloc(n ? n : 1, sizeof(*bw));
	size_t ok = 0;
	for (size_t i = 0; i < n; i++) {
		order[i] = i;
		if (reads[i].status == READTEST_OK && bw)
			bw[ok++] = job_bw_bytes_per_s(reads[i].res);
	}
	double median = 0;
	if (ok && bw) {
		qsort(bw, ok, sizeof(*bw), compare_doubles);
		median = ok % 2 ? bw[ok / 2] : (bw[ok / 2 - 1] + bw[ok / 2]) / 2;
	}
	free(bw);
	for (size_t i = 0; i < n; i++)
		if (reads[i].status == READTEST_OK && median > 0)
			reads[i].pct_of_median = 100.0 * job_bw_bytes_per_s(reads[i].res) / median;
	/* qsort has no context argument; this runs on the main thread only. */
	sort_base = reads;
	qsort(order, n, sizeof(*order), compare_reads);
	sort_base = NULL;
	return median;
}

void disk_read_release(struct disk_read *d)
{
	free(d->res);
	d->res = NULL;
}
