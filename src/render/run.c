#include "render/run.h"

#include <inttypes.h>
#include <stdio.h>

#include "basic/humanize.h"

/* SLAT: submission latency, NULL when the engine has none of its own. */
static void print_direction(const char *name, uint64_t bytes, uint64_t ios, const struct histogram *h,
			    const struct histogram *slat, double seconds)
{
	if (!ios)
		return;
	char bw[32], total[32];
	human_rate(seconds > 0 ? (double)bytes / seconds : 0, bw, sizeof(bw));
	human_iec((double)bytes, total, sizeof(total));
	printf("  %-5s IOPS=%.0f, BW=%s, %s in %" PRIu64 " I/Os\n", name,
	       seconds > 0 ? (double)ios / seconds : 0, bw, total, ios);
	printf("        lat (us): mean=%.1f stdev=%.1f p50=%.1f p90=%.1f p99=%.1f p99.9=%.1f p99.99=%.1f max=%.1f\n",
	       hist_mean(h) / 1e3, hist_stddev(h) / 1e3, hist_percentile(h, 50) / 1e3, hist_percentile(h, 90) / 1e3,
	       hist_percentile(h, 99) / 1e3, hist_percentile(h, 99.9) / 1e3, hist_percentile(h, 99.99) / 1e3,
	       h->max / 1e3);
	if (slat)
		printf("        slat (us): mean=%.1f p50=%.1f p99=%.1f max=%.1f\n", hist_mean(slat) / 1e3,
		       hist_percentile(slat, 50) / 1e3, hist_percentile(slat, 99) / 1e3, slat->max / 1e3);
}

void run_result_print(const struct job_result *res)
{
	print_direction("read:", res->read_bytes, res->read_ios, &res->lat_read,
			res->has_slat ? &res->slat_read : NULL, res->seconds);
	print_direction("write:", res->write_bytes, res->write_ios, &res->lat_write,
			res->has_slat ? &res->slat_write : NULL, res->seconds);
	print_direction("trim:", res->trim_bytes, res->trim_ios, &res->lat_trim, NULL, res->seconds);
	if (res->sync_ios)
		printf("  sync: %" PRIu64 " syncs, lat (us): mean=%.1f p50=%.1f p99=%.1f max=%.1f\n", res->sync_ios,
		       hist_mean(&res->lat_sync) / 1e3, hist_percentile(&res->lat_sync, 50) / 1e3,
		       hist_percentile(&res->lat_sync, 99) / 1e3, res->lat_sync.max / 1e3);
	if (res->verify_blocks)
		printf("  verify: %" PRIu64 " blocks checked, %" PRIu64 " wrong\n", res->verify_blocks, res->verify_errors);
	printf("  jobs: %u, first done %.3f s, last done %.3f s; engine %s at queue depth %u\n",
	       res->nr_workers, res->first_done_seconds, res->last_done_seconds, res->engine->name,
	       res->iodepth);
	double user = 0, sys = 0;
	for (unsigned i = 0; i < res->nr_workers; i++) {
		user += res->workers[i].user_seconds;
		sys += res->workers[i].system_seconds;
	}
	printf("  cpu: user %.2f s, system %.2f s, %.0f ns per I/O, busiest job %.0f%%; random map: %s\n", user, sys,
	       res->ios ? (user + sys) * 1e9 / (double)res->ios : 0, 100 * job_max_worker_cpu(res),
	       job_random_map_text(res->random_map));
}

void run_fio_job_plan_print(const struct fiojob_outcome *o)
{
	if (o->through_fio) {
		printf("%s: through %s: %s\n", o->file, o->fio_version, o->jobs.fio_reason);
		return;
	}
	for (size_t i = 0; i < o->jobs.njobs; i++) {
		const struct fiojob *j = &o->jobs.jobs[i];
		printf("%s: job [%s]: natively: %s, bs %u, iodepth %u, numjobs %u, %s on %s\n", o->file, j->name, j->rw,
		       j->bs, j->iodepth, j->numjobs, j->ioengine, o->target[i]);
	}
}
