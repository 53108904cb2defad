/* demo: the read test on throwaway loop devices, one slowed
 * (triage/doctor/demo.h), for a machine that has no disk it may read raw. */
#include <stdio.h>
#include <unistd.h>

#include "basic/parse.h"
#include "cmd/commands.h"
#include "cmd/read_report.h"
#include "triage/doctor/demo.h"

enum { OPT_COUNT = OPT_COMMAND_BASE, OPT_DEVICE_SIZE, OPT_SLOW_RATE };

struct demo_settings {
	unsigned count;
	uint64_t device_size;
	uint64_t slow_rate;
	struct demo demo;
	struct read_batch batch;
};

static const struct opt_def demo_opts[] = {
	{ "count", 'n', "N", "loop devices to create, 2 to 8", OPT_COUNT,
	  OPT_V_UINT(struct demo_settings, count, 2, DEMO_MAX_DEVICES, "4") },
	/* A handler: a range and a multiple. */
	{ "device-size", 's', "SIZE", "size of each device, read whole", OPT_DEVICE_SIZE, { .def = "256M" } },
	{ "slow-rate", 'r', "RATE", "read limit of the slow device in bytes/s", OPT_SLOW_RATE,
	  { .type = OPT_TYPE_SIZE, .offset = offsetof(struct demo_settings, slow_rate), .min = 1U << 20,
	    .def = "40M", .expect = "at least 1M (bytes per second)" } },
	OPT_END,
};

static int parse_demo_option(int id, const char *arg, void *state)
{
	struct demo_settings *s = state;
	uint64_t v;
	if (id != OPT_DEVICE_SIZE)
		return 2;
	if (parse_size(arg, &v) < 0 || v < (1U << 20) || v > (8ULL << 30) || v % 4096)
		return opts_usage_error("demo", "invalid --device-size '%s': expected 1M to 8G, a multiple of 4K", arg);
	s->device_size = v;
	return 0;
}

static int check_root(struct command_call *call)
{
	(void)call;
	if (geteuid() != 0)
		return cmd_error("demo", "needs root, to create loop devices and a blkio cgroup");
	return 0;
}

static int demo_main(struct command_call *call)
{
	struct demo_settings *s = call->settings;
	struct demo *d = &s->demo;
	struct read_batch *b = &s->batch;
	demo_init(d);
	d->count = s->count;
	d->device_size = s->device_size;
	d->slow_rate = s->slow_rate;
	demo_remove_stale();

	readtest_opts_default(&b->opts);
	b->opts.size = d->device_size;
	int status = 1;
	if (demo_setup(d, call->rc->id) == 0)
		status = demo_read(d, b) ? 1 : 0;
	demo_teardown(d);

	if (!call->rc->json && b->count) {
		fputc('\n', stdout);
		read_batch_print_table(b, stdout);
		fputc('\n', stdout);
	}
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	demo_json(d, call->doc);
	read_batch_json(b, call->doc);
	call->store_fn = read_batch_store_run;
	call->store_arg = b;
	return status;
}

static void demo_release(struct command_call *call)
{
	struct demo_settings *s = call->settings;
	read_batch_release(&s->batch);
}

static const struct command_doc demo_doc = {
	"demo", "demo [options]",
	"Creates throwaway loop devices (one slowed with a cgroup blkio rule), read-tests\n"
	"them exactly as readdisks does, and removes everything. Needs root.",
	demo_opts,
};

const struct command_frame demo_frame = {
	.doc = &demo_doc,
	.settings_size = sizeof(struct demo_settings),
	.handle = parse_demo_option,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 0,
	.max_operands = 0,
	.check = check_root,
	.main = demo_main,
	.release = demo_release,
};
