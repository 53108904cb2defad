/* readdisk DEV and readdisks: step 1 of the method, the media read test
 * (triage/media/read_batch.h), on one device or on every whole disk. */
#include <stdio.h>
#include <string.h>

#include "basic/log.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/read_options.h"
#include "cmd/read_report.h"
#include "triage/media/read_batch.h"
#include "triage/media/read_group.h"
#include "triage/media/read_shared.h"

/* ---- readdisk DEV ---- */

struct readdisk_settings {
	struct read_settings read;
};

static const struct opt_def readdisk_opts[] = {
	READTEST_OPT_DEFS(struct readdisk_settings),
	BASELINE_OPT_DEFS(struct readdisk_settings),
	OPT_END,
};

static int handle_readdisk_option(int id, const char *arg, void *state)
{
	struct readdisk_settings *s = state;
	int r = read_settings_option("readdisk", id, arg, &s->read);
	return r == 1 ? 2 : r;
}

/* One device: more than one is refused with their count. */
static int check_readdisk(struct command_call *call)
{
	if (call->noperands > 1)
		return opts_usage_error("readdisk", "expected one device, got %d operands", call->noperands);
	return 0;
}

static int readdisk_main(struct command_call *call)
{
	struct readdisk_settings *s = call->settings;
	struct read_batch *b = &s->read.batch;
	read_settings_apply(&s->read, call->rc->json, "readdisk");
	b->count = 1;
	b->reads = xcalloc(1, sizeof(*b->reads));
	read_describe_path(call->operands[0], &b->reads[0].info);
	size_t errors = read_batch_execute(b);
	int status = read_batch_report(call->rc, call->doc, b, errors, read_batch_count(b, READTEST_OK), NULL,
				       NULL, NULL);
	call->store_fn = read_batch_store_run;
	call->store_arg = b;
	return status;
}

/* Every read command's settings start with their struct read_settings. */
static void read_release(struct command_call *call)
{
	struct read_settings *r = call->settings;
	read_batch_release(&r->batch);
}

static const struct command_doc readdisk_doc = {
	"readdisk", "readdisk [options] DEVICE",
	"Reads one block device with O_DIRECT, sequentially (by default 1000 MiB in 1 MiB\n"
	"blocks, as dd iflag=direct would), opened read-only. Use it to re-test a suspect disk.",
	readdisk_opts,
};

const struct command_frame readdisk_frame = {
	.doc = &readdisk_doc,
	.settings_size = sizeof(struct readdisk_settings),
	.handle = handle_readdisk_option,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 1,
	.max_operands = -1,
	.operands_expected = "missing the device to read",
	.check = check_readdisk,
	.main = readdisk_main,
	.release = read_release,
};

/* ---- readdisks ---- */

enum { OPT_PARALLEL = OPT_COMMAND_BASE, OPT_MATCH, OPT_MODE, OPT_RW, OPT_RUNTIME };

static const char *const readdisks_rw_choices[] = { "read", "randread", NULL };

#define MAX_MATCH 32

struct readdisks_settings {
	struct read_settings read;
	const char *globs[MAX_MATCH];
	size_t nglobs;
	bool parallel, both;
	const char *rw;           /* --rw: "read" or "randread" (the IOPS pass) */
	struct shared_paths shared;
};

static const struct opt_def readdisks_opts[] = {
	READTEST_OPT_DEFS(struct readdisks_settings),
	BASELINE_OPT_DEFS(struct readdisks_settings),
	{ "parallel", 'p', NULL, "read every disk at the same time instead of one after another", OPT_PARALLEL,
	  OPT_V_FLAG(struct readdisks_settings, parallel) },
	/* A handler: --mode serial also undoes an earlier --parallel. */
	{ "mode", 0, "MODE", "serial, parallel, or both: alone, then all at once, showing each disk's "
			       "rate together as a percentage of alone (finds a shared bottleneck)", OPT_MODE,
	  { .def = "serial" } },
	{ "match", 'm', "GLOB", "only disks whose name or path matches (repeatable), e.g. 'sd*'", OPT_MATCH, { 0 } },
	GROUP_BY_OPT_DEF("none"),
	{ "rw", 0, "MODE", "read (bandwidth, sequential) or randread: the IOPS pass, random reads (4K unless "
			     "--bs) at --iodepth over each whole disk, judged on IOPS", OPT_RW,
	  OPT_V_CHOICE(struct readdisks_settings, rw, readdisks_rw_choices, "read") },
	{ "runtime", 0, "TIME", "time per disk: the IOPS pass's length (default 10s), a cap on a sequential read",
	  OPT_RUNTIME, OPT_V_DURATION(struct readdisks_settings, read.batch.opts.runtime_ns, 1, 0, NULL) },
	OPT_END,
};

static int handle_readdisks_option(int id, const char *arg, void *state)
{
	struct readdisks_settings *s = state;
	switch (id) {
	case OPT_MODE:
		if (strcmp(arg, "serial") && strcmp(arg, "parallel") && strcmp(arg, "both"))
			return opts_usage_error("readdisks", "invalid --mode '%s': expected serial, parallel or both", arg);
		s->parallel = strcmp(arg, "parallel") == 0;
		s->both = strcmp(arg, "both") == 0;
		return 0;
	case OPT_MATCH:
		if (s->nglobs == MAX_MATCH)
			return opts_usage_error("readdisks", "at most %d --match patterns", MAX_MATCH);
		s->globs[s->nglobs++] = arg;
		return 0;
	}
	int r = read_settings_option("readdisks", id, arg, &s->read);
	return r == 1 ? 2 : r;
}

static int check_readdisks(struct command_call *call)
{
	if (call->noperands)
		return opts_usage_error("readdisks", "unexpected operand '%s' (use readdisk DEVICE for one disk)",
					call->operands[0]);
	struct readdisks_settings *s = call->settings;
	if (strcmp(s->rw, "randread") == 0) {
		s->read.batch.opts.random = true;
		if (s->read.bs_stored < 2)
			s->read.batch.opts.bs = 4096;
	}
	return 0;
}

static int readdisks_main(struct command_call *call)
{
	struct readdisks_settings *s = call->settings;
	struct read_batch *b = &s->read.batch;
	read_settings_apply(&s->read, call->rc->json, "readdisks");
	int r = read_batch_add_system_disks(b, s->globs, s->nglobs);
	if (r < 0) {
		log_msg(LOG_ERR, "cannot list disks in /sys/block: %s", strerror(-r));
		return 1;
	}
	b->parallel = s->parallel;
	if (b->group_by == READ_GROUP_VDEV)
		read_batch_assign_pools(b);

	size_t errors = read_batch_execute(b);
	size_t ok = read_batch_count(b, READTEST_OK);
	if (s->both && ok > 1 && !run_ctx_interrupted_status())
		read_batch_parallel_pass(b, &s->shared);
	if (ok == 0)
		log_msg(LOG_ERR, "no disk could be read%s", b->count ? "; see the reasons above"
			: s->nglobs ? ": no disk matches --match" : ": no disks found");
	call->store_fn = read_batch_store_run;
	call->store_arg = b;
	return read_batch_report(call->rc, call->doc, b, errors, ok, s->both ? &s->shared : NULL, NULL, NULL);
}

static void readdisks_release(struct command_call *call)
{
	struct readdisks_settings *s = call->settings;
	shared_paths_release(&s->shared);
	read_batch_release(&s->read.batch);
}

static const struct command_doc readdisks_doc = {
	"readdisks", "readdisks [options]",
	"Reads every whole disk in the system with O_DIRECT (1000 MiB each by default) and\n"
	"shows each as a percentage of the median, with a verdict against its identical\n"
	"siblings. Partitions, detached loop devices, uninitialised zram and empty drives\n"
	"are skipped and listed with the reason.",
	readdisks_opts,
};

const struct command_frame readdisks_frame = {
	.doc = &readdisks_doc,
	.settings_size = sizeof(struct readdisks_settings),
	.handle = handle_readdisks_option,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 0,
	.max_operands = -1,
	.check = check_readdisks,
	.main = readdisks_main,
	.release = readdisks_release,
};
