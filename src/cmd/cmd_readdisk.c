/* readdisk DEV and readdisks: step 1 of the method, the media read test
 * (triage/read_batch.h), on one device or on every whole disk. */
#include <stdio.h>
#include <string.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/read_options.h"
#include "cmd/read_render.h"
#include "triage/read_batch.h"
#include "triage/read_group.h"
#include "triage/read_shared.h"

/* ---- readdisk DEV ---- */

static const struct opt_def readdisk_opts[] = {
	READTEST_OPT_DEFS,
	BASELINE_OPT_DEFS,
	OPT_END,
};

static int handle_readdisk_option(int id, const char *arg, void *state)
{
	struct read_batch *b = state;
	int r = baseline_parse_option("readdisk", id, arg, b);
	return r == 1 ? readtest_parse_option("readdisk", id, arg, &b->opts) : r;
}

int cmd_readdisk(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"readdisk", "readdisk [options] DEVICE",
		"Reads one block device with O_DIRECT, sequentially (by default 1000 MiB in 1 MiB\n"
		"blocks, as dd iflag=direct would), opened read-only. Use it to re-test a suspect disk.",
		readdisk_opts,
	};
	struct read_batch b = { .count = 1, .regression_pct = DEFAULT_REGRESSION_PCT };
	readtest_opts_default(&b.opts);
	int first = opts_parse_command(&doc, argc, argv, g, handle_readdisk_option, &b);
	if (first < 0)
		return opts_command_status(first);
	if (argc - first != 1)
		return opts_usage_error("readdisk", argc - first ? "expected one device, got %d operands"
								: "missing the device to read%.0d",
					argc - first);
	const char *path = argv[first];

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "readdisk", argc, argv, g))
		return 1;
	b.reads = xcalloc(1, sizeof(*b.reads));
	read_describe_path(path, &b.reads[0].info);
	size_t errors = read_batch_execute(&b);
	int status = read_batch_finish(&rc, &b, errors, read_batch_count(&b, READTEST_OK), NULL, NULL, NULL);
	read_batch_release(&b);
	return status;
}

/* ---- readdisks ---- */

enum { OPT_PARALLEL = OPT_COMMAND_BASE, OPT_MATCH, OPT_MODE };

static const struct opt_def readdisks_opts[] = {
	READTEST_OPT_DEFS,
	BASELINE_OPT_DEFS,
	{ "parallel", 'p', NULL, "read every disk at the same time instead of one after another", OPT_PARALLEL, { 0 } },
	{ "mode", 0, "MODE", "serial (default), parallel, or both: alone, then all at once, showing each disk's "
			       "rate together as a percentage of alone (finds a shared bottleneck)", OPT_MODE, { 0 } },
	{ "match", 'm', "GLOB", "only disks whose name or path matches (repeatable), e.g. 'sd*'", OPT_MATCH, { 0 } },
	GROUP_BY_OPT_DEF,
	OPT_END,
};

#define MAX_MATCH 32

struct readdisks_settings {
	struct read_batch batch;
	const char *globs[MAX_MATCH];
	size_t nglobs;
	bool parallel, both;
};

static int handle_readdisks_option(int id, const char *arg, void *state)
{
	struct readdisks_settings *s = state;
	switch (id) {
	case OPT_PARALLEL:
		s->parallel = true;
		return 0;
	case OPT_MODE:
		if (strcmp(arg, "serial") && strcmp(arg, "parallel") && strcmp(arg, "both"))
			return opts_usage_error("readdisks", "invalid --mode '%s': expected serial, parallel or both", arg);
		s->parallel = strcmp(arg, "parallel") == 0;
		s->both = strcmp(arg, "both") == 0;
		return 0;
	case OPT_GROUP_BY:
		return group_by_parse_option("readdisks", arg, &s->batch.group_by);
	case OPT_MATCH:
		if (s->nglobs == MAX_MATCH)
			return opts_usage_error("readdisks", "at most %d --match patterns", MAX_MATCH);
		s->globs[s->nglobs++] = arg;
		return 0;
	}
	int r = baseline_parse_option("readdisks", id, arg, &s->batch);
	return r == 1 ? readtest_parse_option("readdisks", id, arg, &s->batch.opts) : r;
}

int cmd_readdisks(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"readdisks", "readdisks [options]",
		"Reads every whole disk in the system with O_DIRECT (1000 MiB each by default) and\n"
		"shows each as a percentage of the median, with a verdict against its identical\n"
		"siblings. Partitions, detached loop devices, uninitialised zram and empty drives\n"
		"are skipped and listed with the reason.",
		readdisks_opts,
	};
	struct readdisks_settings set = { .batch = { .regression_pct = DEFAULT_REGRESSION_PCT } };
	readtest_opts_default(&set.batch.opts);
	int first = opts_parse_command(&doc, argc, argv, g, handle_readdisks_option, &set);
	if (first < 0)
		return opts_command_status(first);
	struct read_batch b = set.batch;
	const char *const *globs = set.globs;
	size_t nglobs = set.nglobs;
	bool parallel = set.parallel, both = set.both;
	if (first < argc)
		return opts_usage_error("readdisks", "unexpected operand '%s' (use readdisk DEVICE for one disk)",
					argv[first]);

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "readdisks", argc, argv, g))
		return 1;
	int r = read_batch_add_system_disks(&b, globs, nglobs);
	if (r < 0) {
		log_msg(LOG_ERR, "cannot list disks in /sys/block: %s", strerror(-r));
		return 1;
	}
	b.parallel = parallel;
	if (b.group_by == READ_GROUP_VDEV)
		read_batch_assign_pools(&b);

	size_t errors = read_batch_execute(&b);
	size_t ok = read_batch_count(&b, READTEST_OK);
	struct shared_paths shared = { 0 };
	if (both && ok > 1 && !run_ctx_interrupted_status())
		read_batch_parallel_pass(&b, &shared);
	if (ok == 0)
		log_msg(LOG_ERR, "no disk could be read%s", b.count ? "; see the reasons above"
			: nglobs ? ": no disk matches --match" : ": no disks found");
	int status = read_batch_finish(&rc, &b, errors, ok, both ? &shared : NULL, NULL, NULL);
	shared_paths_release(&shared);
	read_batch_release(&b);
	return status;
}
