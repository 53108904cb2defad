/* ramdisk sweep: the spec's worked example as a curve. For each --ndelay
 * value: one RAM disk, filled with random data, then 4 KiB random reads at
 * queue depth 1 (O_DIRECT, psync, the project's job engine) for --runtime;
 * mean latency, percentiles and IOPS per value, and the latency each value
 * added over the first. The disk is destroyed before the next value. A
 * value the backend cannot inject is reported as not measured, with why. */
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
#include "basic/parse.h"
#include "bench/job.h"
#include "cmd/commands.h"
#include "cmd/ramdisk_cmd.h"
#include "cmd/runctx.h"
#include "output/table.h"

#define SWEEP_MAX_POINTS 16

enum { OPT_NDELAY = OPT_COMMAND_BASE, OPT_SIZE, OPT_RUNTIME, OPT_BACKEND, OPT_SECTOR_SIZE };

static const struct opt_def sweep_opts[] = {
	{ "ndelay", 0, "LIST", "comma-separated latencies in ns (default 0,50000,250000)", OPT_NDELAY, { 0 } },
	{ "size", 's', "SIZE", "RAM disk size, M or G (default 64M)", OPT_SIZE, { 0 } },
	{ "runtime", 't', "TIME", "reading time per value (default 5s)", OPT_RUNTIME, { 0 } },
	{ "backend", 'b', "NAME", "scsi_debug, null_blk, brd or zram (default: the first that can)", OPT_BACKEND, { 0 } },
	{ "sector-size", 0, "BYTES", "512 or 4096 (default: the backend's)", OPT_SECTOR_SIZE, { 0 } },
	OPT_END,
};

struct point {
	uint64_t ndelay_ns;
	bool measured;
	char why[300];
	double mean_ns, iops;
	uint64_t p50_ns, p99_ns, ios;
	double seconds;
};

struct sweep {
	struct point points[SWEEP_MAX_POINTS];
	size_t n;
	uint64_t size;
	uint64_t runtime_ns;
	unsigned sector_size;
	const char *backend;
};

static int parse_list(const char *arg, struct sweep *s)
{
	s->n = 0;
	const char *p = arg;
	while (*p) {
		char item[32];
		size_t len = strcspn(p, ",");
		if (len == 0 || len >= sizeof(item) || s->n == SWEEP_MAX_POINTS)
			return -EINVAL;
		memcpy(item, p, len);
		item[len] = '\0';
		uint64_t v;
		if (parse_uint(item, 0, RAMDISK_MAX_NDELAY_NS, &v) < 0)
			return -EINVAL;
		s->points[s->n++] = (struct point){ .ndelay_ns = v };
		p += len;
		if (*p == ',')
			p++;
	}
	return s->n ? 0 : -EINVAL;
}

static int parse_sweep_option(int id, const char *arg, void *state)
{
	struct sweep *s = state;
	uint64_t v;
	char why[256];
	switch (id) {
	case OPT_NDELAY:
		if (parse_list(arg, s) < 0)
			return opts_usage_error("ramdisk sweep",
						"invalid --ndelay '%s': expected up to %d comma-separated values, 0 to 999999999 ns",
						arg, SWEEP_MAX_POINTS);
		return 0;
	case OPT_SIZE:
		if (ramdisk_parse_size_arg(arg, &s->size, why, sizeof(why)) < 0)
			return opts_usage_error("ramdisk sweep", "--size: %s", why);
		return 0;
	case OPT_RUNTIME:
		if (parse_duration_ns(arg, &v) < 0 || v < 100000000ULL)
			return opts_usage_error("ramdisk sweep", "invalid --runtime '%s': expected at least 100ms", arg);
		s->runtime_ns = v;
		return 0;
	case OPT_BACKEND:
		if (!ramdisk_backend_find(arg))
			return opts_usage_error("ramdisk sweep",
						"unknown --backend '%s': expected scsi_debug, null_blk, brd or zram", arg);
		s->backend = arg;
		return 0;
	case OPT_SECTOR_SIZE:
		if (parse_uint(arg, 512, 4096, &v) < 0 || (v != 512 && v != 4096))
			return opts_usage_error("ramdisk sweep", "invalid --sector-size '%s': expected 512 or 4096", arg);
		s->sector_size = (unsigned)v;
		return 0;
	}
	return 2;
}

/* Fills the disk, then reads it: 4 KiB random, QD1, psync, O_DIRECT. */
static int measure(const struct ramdisk_dev *d, const struct sweep *s, struct point *pt)
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
		.progress = false,
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
		pt->iops = job_iops(res);
		pt->ios = res->read_ios;
		pt->seconds = res->seconds;
	}
	free(res);
	return r;
}

int cmd_ramdisk_sweep(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"ramdisk sweep", "ramdisk sweep [options]",
		"Creates a RAM disk at each --ndelay value in turn and reads it with 4 KiB random\n"
		"reads at queue depth 1 (O_DIRECT, psync); prints mean latency and IOPS per value and\n"
		"the latency each added. Needs root; refuses while RAM disks exist.",
		sweep_opts,
	};
	struct sweep s = { .size = 64ULL << 20, .runtime_ns = 5000000000ULL };
	parse_list("0,50000,250000", &s);
	int first = opts_parse_command(&doc, argc, argv, g, parse_sweep_option, &s);
	if (first < 0)
		return opts_command_status(first);
	if (first < argc)
		return opts_usage_error("ramdisk sweep", "unexpected operand '%s'", argv[first]);
	if (geteuid() != 0) {
		fprintf(stderr, "iotriage ramdisk sweep: needs root (to make RAM disks)\n");
		return 1;
	}
	struct run_ctx rc;
	if (run_ctx_begin(&rc, "ramdisk-sweep", argc, argv, g))
		return 1;
	int status = 1;
	const struct ramdisk_backend *b = NULL;
	const char *reason = NULL;
	struct ramdisk_entry *live = NULL;
	size_t nlive = 0;
	ramdisk_scan_live(true, &live, &nlive);
	if (nlive) {
		log_msg(LOG_ERR, "RAMDISK: refusing: %zu RAM disk(s) already exist; run 'iotriage ramdisk destroy' first",
			nlive);
		reason = "RAM disks already exist";
		goto out;
	}
	uint64_t max_ndelay = 0;
	for (size_t i = 0; i < s.n; i++)
		max_ndelay = s.points[i].ndelay_ns > max_ndelay ? s.points[i].ndelay_ns : max_ndelay;
	struct ramdisk_spec spec = { .size = s.size, .count = 1, .sector_size = s.sector_size, .ndelay_ns = max_ndelay,
				     .run_id = rc.id };
	char why[1024], no_latency[1024] = "";
	b = ramdisk_choose_backend(s.backend, &spec, why, sizeof(why));
	if (!b && max_ndelay) {
		/* Nothing here injects latency: measure the 0 points, say why not the rest. */
		snprintf(no_latency, sizeof(no_latency), "%s", why);
		spec.ndelay_ns = 0;
		b = ramdisk_choose_backend(s.backend, &spec, why, sizeof(why));
	}
	if (!b) {
		log_msg(LOG_ERR, "RAMDISK: no backend here can do this: %s", why);
		reason = "no backend";
		goto out;
	}
	spec.sector_size = ramdisk_backend_sector_size(b, &spec);
	log_msg(LOG_INFO, "RAMDISK: sweep on %s (%s): %zu value(s), %.0f MiB disk, %u-byte sectors, 4 KiB random "
		"reads at QD1 for %.1f s each", b->name, why, s.n, (double)s.size / 1048576.0, spec.sector_size,
		(double)s.runtime_ns / 1e9);
	if (no_latency[0])
		log_msg(LOG_WARN, "RAMDISK: %s cannot inject latency, so only --ndelay 0 is measured (%s)", b->name,
			no_latency);
	if (ramdisk_check_budget(s.size) < 0) {
		reason = "over the memory budget";
		goto out;
	}
	size_t measured = 0;
	for (size_t i = 0; i < s.n && !interrupt_requested(); i++) {
		struct point *pt = &s.points[i];
		if (pt->ndelay_ns && !b->supports_ndelay) {
			snprintf(pt->why, sizeof(pt->why), "not measured: %s cannot inject latency", b->name);
			log_msg(LOG_WARN, "RAMDISK: --ndelay %" PRIu64 ": %s", pt->ndelay_ns, pt->why);
			continue;
		}
		spec.ndelay_ns = pt->ndelay_ns;
		struct ramdisk_dev dev;
		if (ramdisk_batch_create(b, &spec, &dev) < 0) {
			snprintf(pt->why, sizeof(pt->why), "could not create the RAM disk (see the log)");
			continue;
		}
		log_msg(LOG_INFO, "RAMDISK: --ndelay %" PRIu64 ": filling %s, then reading", pt->ndelay_ns, dev.path);
		int r = measure(&dev, &s, pt);
		if (pt->measured) {
			measured++;
			log_msg(LOG_INFO, "RAMDISK: --ndelay %" PRIu64 ": mean %.1f us, p50 %.1f us, p99 %.1f us, %.0f IOPS "
				"(%" PRIu64 " reads in %.2f s)", pt->ndelay_ns, pt->mean_ns / 1e3, (double)pt->p50_ns / 1e3,
				(double)pt->p99_ns / 1e3, pt->iops, pt->ios, pt->seconds);
		} else if (r != -EINTR) {
			log_msg(LOG_ERR, "RAMDISK: --ndelay %" PRIu64 ": %s", pt->ndelay_ns, pt->why);
		}
		ramdisk_batch_destroy(&dev, 1, true);
	}
	status = measured == s.n ? 0 : 1;
	const struct point *base = NULL;
	for (size_t i = 0; i < s.n && !base; i++)
		if (s.points[i].measured && s.points[i].ndelay_ns == 0)
			base = &s.points[i];
	if (!rc.json) {
		static const char *const headers[] = { "NDELAY(ns)", "MEAN(us)", "P50(us)", "P99(us)", "IOPS",
						       "ADDED(us)", "ADDED/NDELAY" };
		struct table t;
		table_init(&t, 7, headers, "rrrrrrr");
		for (size_t i = 0; i < s.n; i++) {
			const struct point *pt = &s.points[i];
			char c[7][48];
			snprintf(c[0], sizeof(c[0]), "%" PRIu64, pt->ndelay_ns);
			if (!pt->measured) {
				const char *cells[] = { c[0], "-", "-", "-", "-", "-", pt->why[0] ? pt->why : "not measured" };
				table_add_row(&t, cells);
				continue;
			}
			snprintf(c[1], sizeof(c[1]), "%.1f", pt->mean_ns / 1e3);
			snprintf(c[2], sizeof(c[2]), "%.1f", (double)pt->p50_ns / 1e3);
			snprintf(c[3], sizeof(c[3]), "%.1f", (double)pt->p99_ns / 1e3);
			snprintf(c[4], sizeof(c[4]), "%.0f", pt->iops);
			snprintf(c[5], sizeof(c[5]), "%s", "-");
			snprintf(c[6], sizeof(c[6]), "%s", "-");
			if (base && pt != base) {
				double added = pt->mean_ns - base->mean_ns;
				snprintf(c[5], sizeof(c[5]), "%.1f", added / 1e3);
				if (pt->ndelay_ns)
					snprintf(c[6], sizeof(c[6]), "%.0f%%", 100.0 * added / (double)pt->ndelay_ns);
			}
			const char *cells[] = { c[0], c[1], c[2], c[3], c[4], c[5], c[6] };
			table_add_row(&t, cells);
		}
		fputc('\n', stdout);
		table_print(&t, stdout);
		table_release(&t);
	}
out:
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	json_begin_object(&j, "ramdisk");
	json_string(&j, "action", "sweep");
	json_string(&j, "backend", b ? b->name : NULL);
	json_string(&j, "reason", reason);
	json_uint(&j, "size_bytes", s.size);
	json_uint(&j, "bs_bytes", 4096);
	json_uint(&j, "iodepth", 1);
	json_string(&j, "engine", "psync");
	json_string(&j, "cache", "bypassed");
	json_double(&j, "runtime_cap_seconds", (double)s.runtime_ns / 1e9);
	json_begin_array(&j, "points");
	for (size_t i = 0; i < s.n; i++) {
		const struct point *pt = &s.points[i];
		json_begin_object(&j, NULL);
		json_uint(&j, "ndelay_ns", pt->ndelay_ns);
		json_bool(&j, "measured", pt->measured);
		if (pt->measured) {
			json_double(&j, "mean_lat_ns", pt->mean_ns);
			json_uint(&j, "p50_lat_ns", pt->p50_ns);
			json_uint(&j, "p99_lat_ns", pt->p99_ns);
			json_double(&j, "iops", pt->iops);
			json_uint(&j, "ios", pt->ios);
			json_double(&j, "seconds", pt->seconds);
		} else {
			json_string(&j, "reason", pt->why[0] ? pt->why : "interrupted");
		}
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	status = run_ctx_finish(&rc, &j, status, NULL, NULL);
	json_release(&j);
	free(live);
	return status;
}
