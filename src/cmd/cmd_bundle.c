/* bundle: the support bundle, one .tar.gz for the vendor (triage/bundle),
 * its manifest on stdout. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "basic/timeutil.h"
#include "cmd/commands.h"
#include "render/bundle.h"
#include "cmd/runctx.h"
#include "triage/results/bundle.h"

struct bundle_settings {
	unsigned runs;
	const char *output;
	uint64_t window_ns;
};

enum { OPT_RUNS = OPT_COMMAND_BASE, OPT_OUTPUT, OPT_WINDOW };

static const struct opt_def bundle_opts_table[] = {
	{ "runs", 'n', "N", "the documents of the newest N runs", OPT_RUNS,
	  OPT_V_UINT(struct bundle_settings, runs, 0, 10000, "10") },
	{ "output", 'o', "FILE", "the .tar.gz to write (default iotriage-bundle-HOST-STAMP.tar.gz here)",
	  OPT_OUTPUT, OPT_V_STRING(struct bundle_settings, output) },
	{ "window", 0, "DURATION", "netcheck's traffic window", OPT_WINDOW,
	  OPT_V_DURATION(struct bundle_settings, window_ns, 100000000ull, 60000000000ull, "1s") },
	OPT_END,
};

static int bundle_main(struct command_call *call)
{
	const struct bundle_settings *s = call->settings;
	struct run_ctx rc = { .command = "bundle" };
	if (run_ctx_paths(&rc, call->g) < 0)
		return cmd_error("bundle", "state paths too long");
	char output[4096], host[64] = "host", stamp[32];
	if (s->output) {
		snprintf(output, sizeof(output), "%s", s->output);
	} else {
		gethostname(host, sizeof(host) - 1);
		time_format_stamp(time(NULL), stamp, sizeof(stamp));
		snprintf(output, sizeof(output), "iotriage-bundle-%s-%s.tar.gz", host, stamp);
	}
	struct bundle_opts o = { .output = output, .log_path = rc.log_path, .db_path = rc.db_path,
				 .runs = s->runs, .window_ns = s->window_ns };
	struct bundle_result res;
	char why[1024];
	if (bundle_make(&o, &res, why, sizeof(why)) < 0)
		return cmd_error("bundle", "%s", why);
	bundle_manifest_print(&res, output, call->g->json);
	bundle_result_release(&res);
	return 0;
}

static const struct command_doc bundle_doc = {
	"bundle", "bundle [options]",
	"Writes a support bundle, one .tar.gz: the log, the newest runs' documents and\n"
	"the database's runs, every pool's status, smartctl -x of every disk, the disk\n"
	"inventory, netcheck's findings, the kernel log's tail and the system inventory.\n"
	"No environment variable, key or password goes in. Lists its manifest.",
	bundle_opts_table,
};

const struct command_frame bundle_frame = {
	.doc = &bundle_doc,
	.settings_size = sizeof(struct bundle_settings),
	.min_operands = 0,
	.max_operands = 0,
	.main = bundle_main,
};
