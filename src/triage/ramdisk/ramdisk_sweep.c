/* The ramdisk sweep's measurement (see triage/ramdisk/ramdisk_sweep.h). */
#include "triage/ramdisk/ramdisk_sweep.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "bench/job.h"
#include "bench/layout.h"
#include "triage/ramdisk/ramdisk_batch.h"

/* Fills the disk, then reads it: 4 KiB random, QD1, psync, O_DIRECT. */
/* A value's plan in the progress: its runtime in milliseconds. */
static uint64_t value_ms(const struct sweep *s)
{
	uint64_t ms = s->runtime_ns / 1000000;
	return ms ? ms : 1;
}

static int measure(const struct ramdisk_dev *d, const struct sweep *s, struct sweep_point *pt)
{
	{
		_cleanup_close_ int fd = open(d->path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || pattern_write_file(fd, 0, d->size, PATTERN_RANDOM, 42) < 0) {
			snprintf(pt->why, sizeof(pt->why), "cannot fill %s: %s", d->path, strerror(errno));
			return -EIO;
		}
	}
	struct target t = TARGET_INIT;
	int r = target_open(d->path, false, true, false, &t);
	if (r < 0) {
		snprintf(pt->why, sizeof(pt->why), "cannot open %s: %s", d->path, strerror(-r));
		return r;
	}
	struct job_spec spec = {
		.random = true, .read_pct = 100, .bs = 4096, .iodepth = 1, .numjobs = 1, .size = t.size,
		.io_limit = 1ULL << 50, /* a time cap, not a size cap */ .runtime_ns = s->runtime_ns, .pattern = PATTERN_RANDOM, .seed = 1,
		.progress = NULL, .live = s->progress,
	};
	char reason[160];
	struct engine_target_traits traits = { .synchronous_device = t.bio_based };
	const struct engine_ops *engine = engine_select("psync", 1, &traits, reason, sizeof(reason));
	struct job_result *res = NULL;
	if (!engine) {
		snprintf(pt->why, sizeof(pt->why), "%s", reason);
		r = -EINVAL;
	} else if (job_validate(&spec, &t, pt->why, sizeof(pt->why)) < 0) {
		r = -EINVAL;
	} else {
		progress_part_begin(s->progress, value_ms(s), 0, s->runtime_ns); /* the device made and filled */
		r = job_run(&spec, &t, engine, &res);
		if (r < 0)
			snprintf(pt->why, sizeof(pt->why), "cannot run the reads: %s", strerror(-r));
	}
	target_close(&t);
	if (r == 0 && res->stop == JOB_STOP_ERROR) {
		snprintf(pt->why, sizeof(pt->why), "I/O error at byte %" PRIu64 ": %s", res->error_offset,
			 strerror(-res->error));
		r = -EIO;
	} else if (r == 0 && res->stop == JOB_STOP_INTERRUPTED) {
		r = -EINTR;
	} else if (r == 0) {
		pt->measured = true;
		pt->mean_ns = hist_mean(&res->lat_read);
		pt->p50_ns = hist_percentile(&res->lat_read, 50);
		pt->p99_ns = hist_percentile(&res->lat_read, 99);
		hist_summarize(&res->lat_read, &pt->lat);
		pt->iops = job_iops(res);
		pt->ios = res->read_ios;
		pt->seconds = res->seconds;
	}
	free(res);
	return r;
}

/* Refuses while RAM disks exist, then picks the backend into s->b and SPEC
 * (the largest ndelay asked for; when nothing here injects latency, one for
 * the 0 values alone, and says why not the rest). Returns 0 or -errno with
 * s->reason. */
static int sweep_prepare(struct sweep *s, struct ramdisk_spec *spec)
{
	struct ramdisk_entry *live = NULL;
	size_t nlive = 0;
	ramdisk_scan_live(true, &live, &nlive);
	free(live);
	if (nlive) {
		log_msg(LOG_ERR, "RAMDISK: refusing: %zu RAM disk(s) already exist; run 'iotriage ramdisk destroy' first",
			nlive);
		s->reason = "RAM disks already exist";
		return -EEXIST;
	}
	for (size_t i = 0; i < s->n; i++)
		spec->ndelay_ns = s->points[i].ndelay_ns > spec->ndelay_ns ? s->points[i].ndelay_ns : spec->ndelay_ns;
	char why[1024], no_latency[1024] = "";
	s->b = ramdisk_choose_backend(s->backend, spec, why, sizeof(why));
	if (!s->b && spec->ndelay_ns) {
		/* Nothing here injects latency: measure the 0 points, say why not the rest. */
		snprintf(no_latency, sizeof(no_latency), "%s", why);
		spec->ndelay_ns = 0;
		s->b = ramdisk_choose_backend(s->backend, spec, why, sizeof(why));
	}
	if (!s->b) {
		log_msg(LOG_ERR, "RAMDISK: no backend here can do this: %s", why);
		s->reason = "no backend";
		return -ENODEV;
	}
	spec->sector_size = ramdisk_backend_sector_size(s->b, spec);
	log_msg(LOG_INFO, "RAMDISK: sweep on %s (%s): %zu value(s), %.0f MiB disk, %u-byte sectors, 4 KiB random "
		"reads at QD1 for %.1f s each", s->b->name, why, s->n, (double)s->size / 1048576.0, spec->sector_size,
		(double)s->runtime_ns / 1e9);
	if (no_latency[0])
		log_msg(LOG_WARN, "RAMDISK: %s cannot inject latency, so only --ndelay 0 is measured (%s)", s->b->name,
			no_latency);
	if (ramdisk_check_budget(s->size) < 0) {
		s->reason = "over the memory budget";
		return -ENOMEM;
	}
	return 0;
}

/* One point: its RAM disk made, filled, read and destroyed. Returns 1 when
 * measured, else 0. */
static int sweep_point(const struct sweep *s, struct ramdisk_spec *spec, struct sweep_point *pt)
{
	if (pt->ndelay_ns && !s->b->supports_ndelay) {
		snprintf(pt->why, sizeof(pt->why), "not measured: %s cannot inject latency", s->b->name);
		log_msg(LOG_WARN, "RAMDISK: --ndelay %" PRIu64 ": %s", pt->ndelay_ns, pt->why);
		return 0;
	}
	spec->ndelay_ns = pt->ndelay_ns;
	struct ramdisk_dev dev;
	if (ramdisk_batch_create(s->b, spec, &dev) < 0) {
		snprintf(pt->why, sizeof(pt->why), "could not create the RAM disk (see the log)");
		return 0;
	}
	log_msg(LOG_INFO, "RAMDISK: --ndelay %" PRIu64 ": filling %s, then reading", pt->ndelay_ns, dev.path);
	int r = measure(&dev, s, pt);
	if (pt->measured)
		log_msg(LOG_INFO, "RAMDISK: --ndelay %" PRIu64 ": mean %.1f us, p50 %.1f us, p99 %.1f us, %.0f IOPS "
			"(%" PRIu64 " reads in %.2f s)", pt->ndelay_ns, pt->mean_ns / 1e3, (double)pt->p50_ns / 1e3,
			(double)pt->p99_ns / 1e3, pt->iops, pt->ios, pt->seconds);
	else if (r != -EINTR)
		log_msg(LOG_ERR, "RAMDISK: --ndelay %" PRIu64 ": %s", pt->ndelay_ns, pt->why);
	ramdisk_batch_destroy(&dev, 1, true);
	return pt->measured;
}

int ramdisk_sweep_run(struct sweep *s, const char *run_id)
{
	struct ramdisk_spec spec = { .size = s->size, .count = 1, .sector_size = s->sector_size, .run_id = run_id };
	s->b = NULL;
	s->reason = NULL;
	int r = sweep_prepare(s, &spec);
	if (r < 0)
		return r;
	int measured = 0;
	/* Planned in time, each value at its runtime; the reads move it as they go. */
	uint64_t ms = value_ms(s);
	progress_start_timed(s->progress, s->n * ms);
	for (size_t i = 0; i < s->n && !interrupt_requested(); i++) {
		progress_part_begin(s->progress, ms, 0, s->runtime_ns);
		progress_what(s->progress, "--ndelay %" PRIu64 " (value %zu of %zu)", s->points[i].ndelay_ns, i + 1, s->n);
		measured += sweep_point(s, &spec, &s->points[i]);
		progress_part_end(s->progress, ms);
	}
	progress_finish(s->progress);
	return measured;
}
