/* demo: shows readdisks working on something real on a machine that has no
 * disk it may read raw (a VM whose root disk refuses raw reads). It makes a
 * few throwaway loop devices, slows one with a cgroup blkio rule, reads them
 * all exactly as readdisks does, checks that the slow one stands out, and
 * removes everything, on success, failure or a signal. */
#include "triage/doctor/demo.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "triage/media/read_verdict.h"

#define DEMO_BACKING_DIR "/var/tmp"

void demo_init(struct demo *d)
{
	*d = (struct demo){ .count = 4, .device_size = 256ULL << 20, .slow_rate = 40ULL << 20 };
	for (unsigned i = 0; i < DEMO_MAX_DEVICES; i++)
		d->loops[i] = (struct loopdev)LOOPDEV_INIT;
}

void demo_remove_stale(void)
{
	int stale = throttle_remove_stale();
	if (stale > 0)
		log_msg(LOG_INFO, "DEMO: removed %d empty blkio cgroup(s) left by a killed run", stale);
}

void demo_teardown(struct demo *d)
{
	if (d->throttled)
		throttle_destroy(&d->throttle); /* idempotent; d->throttled stays for the report */
	for (unsigned i = 0; i < d->count; i++) {
		if (d->loops[i].fd < 0)
			continue;
		log_msg(LOG_INFO, "DEMO: removing %s", d->loops[i].path);
		loopdev_destroy(&d->loops[i]);
	}
}

int demo_setup(struct demo *d, const char *run_id)
{
	d->slow_index = d->count / 2;
	char size[32];
	human_size_exact(d->device_size, size, sizeof(size));
	for (unsigned i = 0; i < d->count; i++) {
		if (interrupt_requested())
			return -EINTR;
		int r = loopdev_create(DEMO_BACKING_DIR, d->device_size, 512, &d->loops[i]);
		if (r < 0) {
			log_msg(LOG_ERR, "DEMO: cannot create a loop device on an unnamed file in %s: %s",
				DEMO_BACKING_DIR, strerror(-r));
			return r;
		}
		log_msg(LOG_INFO, "DEMO: created %s: %s of random data on an unnamed file in %s (direct I/O)",
			d->loops[i].path, size, DEMO_BACKING_DIR);
	}
	int r = throttle_available();
	if (r < 0) {
		log_msg(LOG_WARN, "DEMO: cgroup v1 blkio throttling is not available (%s): no device is slowed",
			strerror(-r));
		return 0;
	}
	const struct loopdev *slow = &d->loops[d->slow_index];
	r = throttle_create(run_id, slow->major, slow->minor, d->slow_rate, &d->throttle);
	if (r < 0) {
		log_msg(LOG_ERR, "DEMO: cannot throttle %s with a blkio cgroup: %s", slow->path, strerror(-r));
		return r;
	}
	d->throttled = true;
	char rate[32];
	human_rate((double)d->slow_rate, rate, sizeof(rate));
	log_msg(LOG_INFO, "DEMO: %s is slowed to %s for this process's reads (cgroup blkio rule %u:%u %" PRIu64 ")",
		slow->path, rate, slow->major, slow->minor, d->slow_rate);
	return 0;
}

/* Did the slowed device come out slowest and clearly below its peers? */
static bool demo_found_slow(const struct demo *d, const struct read_batch *b)
{
	const struct disk_read *slow = &b->reads[d->slow_index];
	if (slow->status != READTEST_OK)
		return false;
	for (size_t i = 0; i < b->count; i++)
		if (i != d->slow_index && b->reads[i].status == READTEST_OK &&
		    job_bw_bytes_per_s(b->reads[i].res) <= job_bw_bytes_per_s(slow->res))
			return false;
	return disk_verdict_is_slow(slow->verdict.kind);
}

size_t demo_read(struct demo *d, struct read_batch *b)
{
	b->reads = xcalloc(d->count, sizeof(*b->reads));
	b->count = d->count;
	for (unsigned i = 0; i < d->count; i++) {
		struct disk_read *r = &b->reads[i];
		if (disk_describe("/sys", "/dev", d->loops[i].kname, &r->info) < 0)
			snprintf(r->info.dev_path, sizeof(r->info.dev_path), "%s", d->loops[i].path);
	}
	size_t errors = read_batch_execute(b);
	read_batch_log_conclusion(b, read_batch_judge(b));
	d->found = d->throttled && demo_found_slow(d, b);
	if (d->throttled)
		log_msg(d->found ? LOG_INFO : LOG_WARN, "DEMO: %s, the slowed device, %s (%.0f%% of the median)",
			d->loops[d->slow_index].path,
			d->found ? "stands out as the slowest" : "did NOT stand out",
			b->reads[d->slow_index].pct_of_median);
	return errors;
}

void demo_json(const struct demo *d, struct json *j)
{
	json_begin_object(j, "demo");
	json_uint(j, "device_count", d->count);
	json_uint(j, "device_size_bytes", d->device_size);
	json_string(j, "slowed_device", d->throttled ? d->loops[d->slow_index].path : NULL);
	json_uint(j, "slow_rate_bytes_per_s", d->throttled ? d->slow_rate : 0);
	json_bool(j, "slowed_device_stands_out", d->found);
	json_end_object(j);
}
