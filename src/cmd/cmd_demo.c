/* demo: shows readdisks working on something real on a machine that has no
 * disk it may read raw (a VM whose root disk refuses raw reads). It makes a
 * few throwaway loop devices, slows one with a cgroup blkio rule, reads them
 * all exactly as readdisks does, checks that the slow one stands out, and
 * removes everything, on success, failure or a signal. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/readdisks.h"
#include "lab/loopdev.h"
#include "lab/throttle.h"

#define DEMO_MAX_DEVICES 8
#define DEMO_BACKING_DIR "/var/tmp"

enum { OPT_COUNT = OPT_COMMAND_BASE, OPT_DEVICE_SIZE, OPT_SLOW_RATE };

static const struct opt_def demo_opts[] = {
	{ "count", 'n', "N", "loop devices to create, 2 to 8 (default 4)", OPT_COUNT, { 0 } },
	{ "device-size", 's', "SIZE", "size of each device, read whole (default 256M)", OPT_DEVICE_SIZE, { 0 } },
	{ "slow-rate", 'r', "RATE", "read limit of the slow device in bytes/s (default 40M)", OPT_SLOW_RATE, { 0 } },
	OPT_END,
};

struct demo {
	unsigned count;
	uint64_t device_size;
	uint64_t slow_rate;
	unsigned slow_index;
	struct loopdev loops[DEMO_MAX_DEVICES];
	struct throttle throttle;
	bool throttled;
};

static int parse_demo_option(int id, const char *arg, void *state)
{
	struct demo *d = state;
	uint64_t v;
	switch (id) {
	case OPT_COUNT:
		if (parse_uint(arg, 2, DEMO_MAX_DEVICES, &v) < 0)
			return opts_usage_error("demo", "invalid --count '%s': expected 2 to %d", arg, DEMO_MAX_DEVICES);
		d->count = (unsigned)v;
		return 0;
	case OPT_DEVICE_SIZE:
		if (parse_size(arg, &v) < 0 || v < (1U << 20) || v > (8ULL << 30) || v % 4096)
			return opts_usage_error("demo", "invalid --device-size '%s': expected 1M to 8G, a multiple of 4K", arg);
		d->device_size = v;
		return 0;
	case OPT_SLOW_RATE:
		if (parse_size(arg, &v) < 0 || v < (1U << 20))
			return opts_usage_error("demo", "invalid --slow-rate '%s': expected at least 1M (bytes per second)", arg);
		d->slow_rate = v;
		return 0;
	}
	return 2;
}

static void demo_teardown(struct demo *d)
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

static int demo_setup(struct demo *d, const char *run_id)
{
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
	return slow->verdict && strcmp(slow->verdict, "slow") == 0;
}

int cmd_demo(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"demo", "demo [options]",
		"Creates throwaway loop devices (one slowed with a cgroup blkio rule), read-tests\n"
		"them exactly as readdisks does, and removes everything. Needs root.",
		demo_opts,
	};
	struct demo d = { .count = 4, .device_size = 256ULL << 20, .slow_rate = 40ULL << 20 };
	for (unsigned i = 0; i < DEMO_MAX_DEVICES; i++)
		d.loops[i] = (struct loopdev)LOOPDEV_INIT;
	int first = opts_parse_command(&doc, argc, argv, g, parse_demo_option, &d);
	if (first < 0)
		return opts_command_status(first);
	if (first < argc)
		return opts_usage_error("demo", "unexpected operand '%s'", argv[first]);
	if (geteuid() != 0) {
		fprintf(stderr, "iotriage demo: needs root, to create loop devices and a blkio cgroup\n");
		return 1;
	}
	d.slow_index = d.count / 2;

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "demo", argc, argv, g))
		return 1;
	int stale = throttle_remove_stale();
	if (stale > 0)
		log_msg(LOG_INFO, "DEMO: removed %d empty blkio cgroup(s) left by a killed run", stale);

	struct read_batch b = { .count = 0 };
	readtest_opts_default(&b.opts);
	b.opts.size = d.device_size;
	int status = 1;
	bool found = false;
	if (demo_setup(&d, rc.id) == 0) {
		b.reads = xcalloc(d.count, sizeof(*b.reads));
		b.count = d.count;
		for (unsigned i = 0; i < d.count; i++) {
			struct disk_read *r = &b.reads[i];
			if (disk_describe("/sys", "/dev", d.loops[i].kname, &r->info) < 0)
				snprintf(r->info.dev_path, sizeof(r->info.dev_path), "%s", d.loops[i].path);
		}
		size_t errors = read_batch_execute(&b);
		read_batch_log_conclusion(&b, read_batch_judge(&b));
		found = d.throttled && demo_found_slow(&d, &b);
		if (d.throttled)
			log_msg(found ? LOG_INFO : LOG_WARN, "DEMO: %s, the slowed device, %s (%.0f%% of the median)",
				d.loops[d.slow_index].path,
				found ? "stands out as the slowest" : "did NOT stand out",
				b.reads[d.slow_index].pct_of_median);
		status = errors ? 1 : 0;
	}
	demo_teardown(&d);

	if (!rc.json && b.count) {
		fputc('\n', stdout);
		read_batch_print_table(&b, stdout);
		fputc('\n', stdout);
	}
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	json_begin_object(&j, "demo");
	json_uint(&j, "device_count", d.count);
	json_uint(&j, "device_size_bytes", d.device_size);
	json_string(&j, "slowed_device", d.throttled ? d.loops[d.slow_index].path : NULL);
	json_uint(&j, "slow_rate_bytes_per_s", d.throttled ? d.slow_rate : 0);
	json_bool(&j, "slowed_device_stands_out", found);
	json_end_object(&j);
	read_batch_json(&b, &j);
	status = run_ctx_finish(&rc, &j, status, read_batch_store, &b);
	json_release(&j);
	read_batch_release(&b);
	return status;
}
