/* ramdisk sweep: the method's worked example as a curve: a RAM disk at each
 * --ndelay value, read with 4 KiB random reads at queue depth 1
 * (triage/ramdisk/ramdisk_sweep.h measures); here the options, the table of mean
 * latency, percentiles and IOPS per value with the latency each value added
 * over the first, the JSON and the exit status. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/parse.h"
#include "cmd/commands.h"
#include "cmd/progress.h"
#include "cmd/ramdisk_cmd.h"
#include "cmd/runctx.h"
#include "triage/ramdisk/ramdisk_batch.h"
#include "triage/ramdisk/ramdisk_sweep.h"

enum { OPT_NDELAY = OPT_COMMAND_BASE, OPT_SIZE, OPT_RUNTIME, OPT_BACKEND, OPT_SECTOR_SIZE };

/* The defaults of the two rows parsed by the handler: shown by --help from
 * the rows, applied by sweep_check() when the option was not given. */
#define SWEEP_DEFAULT_NDELAY "0,50000,250000"
#define SWEEP_DEFAULT_SIZE "64M"

static const struct opt_def sweep_opts[] = {
	{ "ndelay", 0, "LIST", "comma-separated latencies in ns", OPT_NDELAY, { .def = SWEEP_DEFAULT_NDELAY } },
	{ "size", 's', "SIZE", "RAM disk size, M or G", OPT_SIZE, { .def = SWEEP_DEFAULT_SIZE } },
	{ "runtime", 't', "TIME", "reading time per value", OPT_RUNTIME,
	  { .type = OPT_TYPE_DURATION, .offset = offsetof(struct sweep, runtime_ns), .min = 100000000ULL,
	    .def = "5s", .expect = "at least 100ms" } },
	{ "backend", 'b', "NAME", "scsi_debug, null_blk, brd or zram (default: the first that can)", OPT_BACKEND,
	  OPT_V_CHOICE(struct sweep, backend, ramdisk_backend_names, NULL) },
	{ "sector-size", 0, "BYTES", "512 or 4096 (default: the backend's)", OPT_SECTOR_SIZE, { 0 } },
	OPT_END,
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
		s->points[s->n++] = (struct sweep_point){ .ndelay_ns = v };
		p += len;
		if (*p == ',')
			p++;
	}
	return s->n ? 0 : -EINVAL;
}

/* The rows with more than one rule: the --ndelay list, the --size
 * argument, --sector-size. */
static int parse_sweep_option(int id, const char *arg, void *state)
{
	struct sweep *s = state;
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
	case OPT_SECTOR_SIZE:
		return ramdisk_parse_sector_size("ramdisk sweep", arg, &s->sector_size);
	}
	return 2;
}

/* The handler rows' defaults where not given (neither parses to empty or
 * zero), then root, before a run is recorded. */
static int sweep_check(struct command_call *call)
{
	struct sweep *s = call->settings;
	if (s->n == 0 && parse_sweep_option(OPT_NDELAY, SWEEP_DEFAULT_NDELAY, s) != 0)
		return 2;
	if (s->size == 0 && parse_sweep_option(OPT_SIZE, SWEEP_DEFAULT_SIZE, s) != 0)
		return 2;
	if (geteuid() != 0)
		return cmd_error(call->name, "needs root (to make RAM disks)");
	return 0;
}

static int sweep_main(struct command_call *call)
{
	struct sweep *s = call->settings;
	struct progress live;
	s->progress = cmd_progress_attach(&live, call->rc->json, "ramdisk sweep");
	int measured = ramdisk_sweep_run(s, call->rc->id);
	int status = measured >= 0 && (size_t)measured == s->n ? 0 : 1;
	if (measured >= 0 && !call->rc->json)
		ramdisk_sweep_print(s);
	if (run_ctx_interrupted_status())
		status = run_ctx_interrupted_status();
	ramdisk_sweep_json(call->doc, s);
	return status;
}

static const struct command_doc sweep_doc = {
	"ramdisk sweep", "ramdisk sweep [options]",
	"Creates a RAM disk at each --ndelay value in turn and reads it with 4 KiB random\n"
	"reads at queue depth 1 (O_DIRECT, psync); prints mean latency and IOPS per value and\n"
	"the latency each added. Needs root; refuses while RAM disks exist.",
	sweep_opts,
};

const struct command_frame ramdisk_sweep_frame = {
	.doc = &sweep_doc,
	.settings_size = sizeof(struct sweep),
	.handle = parse_sweep_option,
	.flags = CMD_RECORDS_RUN,
	.run_name = "ramdisk-sweep",
	.check = sweep_check,
	.main = sweep_main,
};
