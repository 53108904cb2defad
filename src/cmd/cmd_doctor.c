/* doctor [POOL]: the isolation method, bottom up, in one command
 * (triage/doctor/doctor.h): options, one doctor_run(), the report and the
 * document, the exit status. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "render/doctor.h"
#include "cmd/progress.h"
#include "cmd/read_options.h"
#include "cmd/read_report.h"
#include "cmd/runctx.h"
#include "triage/doctor/doctor.h"

enum { OPT_QUICK = OPT_COMMAND_BASE, OPT_LAB, OPT_FAULT, OPT_NO_NETWORK, OPT_CLIENT, OPT_CLIENT_VIA, OPT_NVME_TCP, OPT_HOST_NQN,
       OPT_CLIENT_IOTRIAGE };

/* The procedure's settings, and whether --fault was given. */
struct doctor_cmd {
	struct doctor_settings set;
	bool fault_given;
	const char *client;  /* --client HOST: through ssh HOST */
	char via[320];       /* "ssh HOST" */
};

/* --fault keeps a handler: its error says "invalid", and it sets a bool. */
static const struct opt_def doctor_opts[] = {
	{ "quick", 'q', NULL, "small reads and short caps: about two minutes on a small pool", OPT_QUICK,
	  OPT_V_FLAG(struct doctor_cmd, set.quick) },
	{ "lab", 0, NULL, "build a throwaway pool on loop devices with a known fault, diagnose it, remove it", OPT_LAB,
	  OPT_V_FLAG(struct doctor_cmd, set.lab) },
	{ "fault", 0, "KIND", "with --lab: slow-member (default: one member slowed by a cgroup blkio rule) or none",
	  OPT_FAULT, { 0 } },
	{ "no-network", 0, NULL, "skip the network step (a local pool, no clients)", OPT_NO_NETWORK,
	  OPT_V_FLAG(struct doctor_cmd, set.skip_network) },
	{ "client", 0, "HOST", "step 3 across the wire: a RAM disk exported over NVMe/TCP, read here and on HOST "
	  "(through ssh HOST)", OPT_CLIENT, OPT_V_STRING(struct doctor_cmd, client) },
	{ "client-via", 0, "PREFIX", "as --client, the client reached through PREFIX (as ramdisk wire --via: "
	  "'ssh -p 2222 HOST', 'ip netns exec NS')", OPT_CLIENT_VIA, OPT_V_STRING(struct doctor_cmd, set.client_via) },
	{ "nvme-tcp", 0, "ADDR[:PORT]", "with --client: this host's address the client reaches (port 4420 by default)",
	  OPT_NVME_TCP, OPT_V_STRING(struct doctor_cmd, set.export_addr) },
	{ "host-nqn", 0, "NQN", "with --client: the client's host NQN, the only one let in (default: any host, for "
	  "the step's few seconds)", OPT_HOST_NQN, OPT_V_STRING(struct doctor_cmd, set.host_nqn) },
	{ "client-iotriage", 0, "PATH", "with --client: the iotriage program on the client (default: this binary's "
	  "path)", OPT_CLIENT_IOTRIAGE, OPT_V_STRING(struct doctor_cmd, set.client_iotriage) },
	REMOTE_READ_OPT_DEFS(struct doctor_cmd, set.remote),
	OPT_END,
};

static int handle_option(int id, const char *arg, void *state)
{
	struct doctor_cmd *c = state;
	if (id != OPT_FAULT)
		return 1;
	if (strcmp(arg, "slow-member") && strcmp(arg, "none"))
		return opts_usage_error("doctor", "invalid --fault '%s': expected slow-member or none", arg);
	c->set.fault = strcmp(arg, "slow-member") == 0;
	c->fault_given = true;
	return 0;
}

static const struct command_doc doctor_doc = {
	"doctor", "doctor [options] [POOL]",
	"Walks the isolation method bottom up and ends with a verdict: (1) media: every disk,\n"
	"or the pool's members, read and judged against its peers and baseline, with SMART;\n"
	"(2) network: routes, bonds, MTU, loss; (3) the media factored out: a twin of the pool\n"
	"on RAM-backed devices under the same workload; (4) the pool itself, compared with its\n"
	"twin. It stops at the first step that explains the complaint, and says which layer,\n"
	"the evidence, how sure, and what to do next. --lab builds a throwaway pool with a\n"
	"known fault and diagnoses that instead. With --client HOST, step 3 also crosses the\n"
	"wire: a RAM disk exported over NVMe/TCP, read here and on HOST, and the network or the\n"
	"target stack named when the loss is large.",
	doctor_opts,
};

/* 1 when nothing ran or no verdict could be reached; 128+N when interrupted. */
static int exit_status(const struct doctor *dr, int r)
{
	int status = r < 0 || dr->verdict.undetermined ? 1 : 0;
	return run_ctx_interrupted_status() ? run_ctx_interrupted_status() : status;
}

/* At most one POOL, and none with --lab. */
static int doctor_check(struct command_call *call)
{
	struct doctor_cmd *c = call->settings;
	if (call->noperands > 1 || (c->set.lab && call->noperands == 1))
		return opts_usage_error("doctor", c->set.lab ? "--lab builds its own pool: no POOL with it"
							 : "expected at most one pool");
	c->set.pool_id = call->noperands == 1 ? call->operands[0] : NULL;
	if (c->client && c->set.client_via)
		return opts_usage_error("doctor", "--client and --client-via name the same client: give one");
	if (c->client) {
		snprintf(c->via, sizeof(c->via), "ssh %s", c->client);
		c->set.client_via = c->via;
	}
	c->set.client_label = c->client ? c->client : c->set.client_via;
	if (c->set.client_via && !c->set.export_addr)
		return opts_usage_error("doctor", "--client needs --nvme-tcp ADDR[:PORT]: this host's address the client reaches");
	if (!c->set.client_via && (c->set.export_addr || c->set.host_nqn || c->set.client_iotriage))
		return opts_usage_error("doctor", "--nvme-tcp, --host-nqn and --client-iotriage go with --client HOST");
	if (c->set.client_via && c->set.lab)
		return opts_usage_error("doctor", "--lab's pool is local: no --client with it");
	if (!c->fault_given)
		c->set.fault = true;
	return 0;
}

static void doctor_free(void *arg)
{
	doctor_release(arg);
	free(arg);
}

static int doctor_main(struct command_call *call)
{
	struct doctor_cmd *c = call->settings;
	struct run_ctx *rc = call->rc;
	struct doctor *dr = xcalloc(1, sizeof(*dr));
	struct progress live;
	c->set.progress = cmd_progress_attach(&live, rc->json, "doctor");
	c->set.remote.schema_version = run_ctx_schema_version();
	int status = exit_status(dr, doctor_run(dr, &c->set, rc->id, rc->db_path));
	if (!rc->json && (status == 0 || dr->verdict.undetermined) && !run_ctx_interrupted_status())
		doctor_print(dr);
	doctor_json(dr, call->doc);
	call->store_fn = dr->batch.count ? read_batch_store_run : NULL;
	call->store_arg = &dr->batch;
	call->release_fn = doctor_free;
	call->release_arg = dr;
	return status;
}

/* The operand counts are checked by doctor_check: its message depends on --lab. */
const struct command_frame doctor_frame = {
	.doc = &doctor_doc,
	.settings_size = sizeof(struct doctor_cmd),
	.handle = handle_option,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 0,
	.max_operands = -1,
	.check = doctor_check,
	.main = doctor_main,
};
