/* demo: the read test on throwaway loop devices, one slowed
 * (triage/demo.h), for a machine that has no disk it may read raw. */
#include <stdio.h>
#include <unistd.h>

#include "basic/parse.h"
#include "cmd/commands.h"
#include "cmd/read_render.h"
#include "triage/demo.h"

enum { OPT_COUNT = OPT_COMMAND_BASE, OPT_DEVICE_SIZE, OPT_SLOW_RATE };

static const struct opt_def demo_opts[] = {
	{ "count", 'n', "N", "loop devices to create, 2 to 8 (default 4)", OPT_COUNT, { 0 } },
	{ "device-size", 's', "SIZE", "size of each device, read whole (default 256M)", OPT_DEVICE_SIZE, { 0 } },
	{ "slow-rate", 'r', "RATE", "read limit of the slow device in bytes/s (default 40M)", OPT_SLOW_RATE, { 0 } },
	OPT_END,
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

int cmd_demo(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"demo", "demo [options]",
		"Creates throwaway loop devices (one slowed with a cgroup blkio rule), read-tests\n"
		"them exactly as readdisks does, and removes everything. Needs root.",
		demo_opts,
	};
	struct demo d;
	demo_init(&d);
	int first = opts_parse_command(&doc, argc, argv, g, parse_demo_option, &d);
	if (first < 0)
		return opts_command_status(first);
	if (first < argc)
		return opts_usage_error("demo", "unexpected operand '%s'", argv[first]);
	if (geteuid() != 0) {
		fprintf(stderr, "iotriage demo: needs root, to create loop devices and a blkio cgroup\n");
		return 1;
	}

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "demo", argc, argv, g))
		return 1;
	demo_remove_stale();

	struct read_batch b = { .count = 0 };
	readtest_opts_default(&b.opts);
	b.opts.size = d.device_size;
	int status = 1;
	if (demo_setup(&d, rc.id) == 0)
		status = demo_read(&d, &b) ? 1 : 0;
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
	demo_json(&d, &j);
	read_batch_json(&b, &j);
	status = run_ctx_finish(&rc, &j, status, read_batch_store_run, &b);
	json_release(&j);
	read_batch_release(&b);
	return status;
}
