/* presets [NAME TARGET]: the preset workload sets, listed, or one run. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "render/presets.h"
#include "cmd/progress.h"
#include "triage/workload/presets.h"

struct presets_settings {
	unsigned loops;
	bool loops_given;
	uint64_t ramp_ns, runtime_ns, size;
	bool size_given;
	const char *engine;
	bool direct;
	const char *force;
};

enum { OPT_LOOPS = OPT_COMMAND_BASE, OPT_RAMP, OPT_RUNTIME, OPT_SIZE, OPT_ENGINE, OPT_DIRECT, OPT_FORCE };

static const struct opt_def presets_opts[] = {
	{ "loops", 0, "N", "repeat each test N times; mean, best and spread per test (default: the preset's)", OPT_LOOPS,
	  { .type = OPT_TYPE_UINT, .offset = offsetof(struct presets_settings, loops), .width = sizeof(unsigned),
	    .min = 1, .max = PRESET_MAX_LOOPS, .given_offset = OPT_GIVEN(struct presets_settings, loops_given) } },
	{ "ramp-time", 0, "TIME", "override the preset's ramp time", OPT_RAMP,
	  OPT_V_DURATION(struct presets_settings, ramp_ns, 1, 0, NULL) },
	{ "runtime", 0, "TIME", "override the preset's runtime per test", OPT_RUNTIME,
	  OPT_V_DURATION(struct presets_settings, runtime_ns, 1, 0, NULL) },
	{ "size", 0, "SIZE", "the span addressed; creates a file of that size when TARGET does not exist", OPT_SIZE,
	  { .type = OPT_TYPE_SIZE, .offset = offsetof(struct presets_settings, size), .min = 1,
	    .given_offset = OPT_GIVEN(struct presets_settings, size_given) } },
	{ "engine", 0, "NAME", "auto, psync, libaio, io_uring or null", OPT_ENGINE,
	  OPT_V_CHOICE(struct presets_settings, engine, engine_choices, "auto") },
	{ "direct", 0, "0|1", "O_DIRECT, bypassing the page cache", OPT_DIRECT,
	  OPT_V_BOOL01(struct presets_settings, direct, "1") },
	{ "force", 0, "DEVICE", "write to a block device that carries a signature; DEVICE must name the target again",
	  OPT_FORCE, OPT_V_STRING(struct presets_settings, force) },
	OPT_END,
};

static void list_presets(struct command_call *call)
{
	preset_list_json(call->doc);
	for (size_t i = 0; i < preset_count && !call->rc->json; i++) {
		const struct preset *p = &preset_table[i];
		printf("%s: %s (%u loop(s) by default)\n", p->name, p->summary, p->loops);
		for (size_t k = 0; k < p->ntests; k++) {
			char fio[640];
			preset_fio_command(p, &p->tests[k], "TARGET", NULL, fio, sizeof(fio));
			printf("  %-20s %s\n", p->tests[k].name, fio);
		}
	}
}

struct presets_record {
	const struct preset_outcome *o;
	const char *path;
};

static int store_presets(struct store *s, const struct run_ctx *rc, void *arg)
{
	const struct presets_record *rec = arg;
	return preset_store(s, rc->id, rec->o, rec->path);
}

static int presets_main(struct command_call *call)
{
	const struct presets_settings *ps = call->settings;
	if (call->noperands == 0) {
		list_presets(call);
		return 0;
	}
	const struct preset *p = preset_find(call->operands[0]);
	const char *path = call->operands[1];
	struct run_settings base = {
		.spec = { .bs = 4096, .iodepth = 1, .numjobs = 1, .seed = 1, .pattern = PATTERN_RANDOM,
			  .progress = cmd_progress(call->rc->json), .progress_label = p->name,
			  .size = ps->size, .sample_ns = 1000000000ULL },
		.engine = ps->engine, .direct = ps->direct, .size_given = ps->size_given, .mix = 50,
		.force = ps->force, .guard = { .excl_fd = -1 },
	};
	static struct preset_outcome o; /* ~500 KiB of histograms: not on the stack */
	memset(&o, 0, sizeof(o));
	char err[512] = "";
	int r = preset_run(p, path, &base, ps->loops_given ? ps->loops : p->loops, ps->ramp_ns, ps->runtime_ns, &o, err,
			   sizeof(err));
	if (!call->rc->json && o.ntests_done)
		preset_outcome_print(&o);
	preset_json(call->doc, &o, path);
	json_string(call->doc, "status", r < 0 ? "error" : "ok");
	json_string(call->doc, "reason", r < 0 ? err : NULL);
	static struct presets_record rec;
	rec = (struct presets_record){ &o, path };
	call->store_fn = store_presets;
	call->store_arg = &rec;
	if (r < 0)
		return cmd_error("presets", "%s", err);
	return 0;
}

static int presets_check(struct command_call *call)
{
	if (call->noperands == 1)
		return opts_usage_error("presets", "expected a preset NAME and a TARGET, or nothing to list them");
	if (call->noperands == 2 && !preset_find(call->operands[0]))
		return opts_usage_error("presets", "unknown preset '%s': expected nas-iops, cdm or cdm-nvme",
					call->operands[0]);
	const struct presets_settings *ps = call->settings;
	if (ps->ramp_ns && ps->runtime_ns && ps->ramp_ns > ps->runtime_ns)
		return opts_usage_error("presets", "--ramp-time is longer than --runtime");
	return 0;
}

static const struct command_doc presets_doc = {
	"presets", "presets [options] [NAME TARGET]",
	"Without operands, lists the preset workload sets with each test's equivalent fio\n"
	"command line. With NAME and TARGET, runs every test of the set on TARGET (a file\n"
	"or block device), each time-based with its ramp, --loops times, and reports per\n"
	"test the mean, best and spread of IOPS and bandwidth and the latency percentiles.\n"
	"Writes to a block device pass the same guard as run (--force DEVICE).",
	presets_opts,
};

const struct command_frame presets_frame = {
	.doc = &presets_doc,
	.settings_size = sizeof(struct presets_settings),
	.flags = CMD_RECORDS_RUN,
	.min_operands = 0,
	.max_operands = 2,
	.operands_expected = "expected a preset NAME and a TARGET, or nothing",
	.check = presets_check,
	.main = presets_main,
};
