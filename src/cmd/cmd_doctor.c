/* doctor [POOL]: the isolation method, bottom up, in one command
 * (triage/doctor.h): options, one doctor_run(), the report and the
 * document, the exit status. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "cmd/read_render.h"
#include "cmd/runctx.h"
#include "triage/doctor.h"

enum { OPT_QUICK = OPT_COMMAND_BASE, OPT_LAB, OPT_FAULT, OPT_NO_NETWORK };

static const struct opt_def doctor_opts[] = {
	{ "quick", 'q', NULL, "small reads and short caps: about two minutes on a small pool", OPT_QUICK, { 0 } },
	{ "lab", 0, NULL, "build a throwaway pool on loop devices with a known fault, diagnose it, remove it", OPT_LAB, { 0 } },
	{ "fault", 0, "KIND", "with --lab: slow-member (default: one member slowed by a cgroup blkio rule) or none",
	  OPT_FAULT, { 0 } },
	{ "no-network", 0, NULL, "skip the network step (a local pool, no clients)", OPT_NO_NETWORK, { 0 } },
	OPT_END,
};

static int handle_option(int id, const char *arg, void *state)
{
	struct doctor_settings *s = state;
	switch (id) {
	case OPT_QUICK:
		s->quick = true;
		return 0;
	case OPT_LAB:
		s->lab = true;
		return 0;
	case OPT_FAULT:
		if (strcmp(arg, "slow-member") && strcmp(arg, "none"))
			return opts_usage_error("doctor", "invalid --fault '%s': expected slow-member or none", arg);
		s->fault = strcmp(arg, "slow-member") == 0;
		return 0;
	case OPT_NO_NETWORK:
		s->skip_network = true;
		return 0;
	}
	return 1;
}

static void print_report(const struct doctor *dr)
{
	printf("\n");
	for (int i = 0; i < DOCTOR_STEPS; i++) {
		const struct doctor_step *s = &dr->steps[i];
		if (s->state == STEP_NOT_RUN)
			continue;
		printf("Step %d, %s: %s%s\n", i + 1, doctor_step_titles[i],
		       s->state == STEP_FAILED ? "could not be completed: " : "", s->summary);
	}
	const struct doctor_verdict *v = &dr->verdict;
	printf("\n");
	if (v->layer)
		printf("VERDICT: the %s layer: %s\n", v->layer, v->subject);
	else if (v->undetermined)
		printf("VERDICT: not determined: the media could not be measured\n");
	else
		printf("VERDICT: no layer stands out\n");
	printf("Evidence: %s\n", v->evidence);
	printf("How sure: %s\n", v->confidence);
	printf("Next: %s\n", v->next);
}

static const struct command_doc doctor_doc = {
	"doctor", "doctor [options] [POOL]",
	"Walks the isolation method bottom up and ends with a verdict: (1) media: every disk,\n"
	"or the pool's members, read and judged against its peers and baseline, with SMART;\n"
	"(2) network: routes, bonds, MTU, loss; (3) the media factored out: a twin of the pool\n"
	"on RAM-backed devices under the same workload; (4) the pool itself, compared with its\n"
	"twin. It stops at the first step that explains the complaint, and says which layer,\n"
	"the evidence, how sure, and what to do next. --lab builds a throwaway pool with a\n"
	"known fault and diagnoses that instead.",
	doctor_opts,
};

/* 1 when nothing ran or no verdict could be reached; 128+N when interrupted. */
static int exit_status(const struct doctor *dr, int r)
{
	int status = r < 0 || dr->verdict.undetermined ? 1 : 0;
	return run_ctx_interrupted_status() ? run_ctx_interrupted_status() : status;
}

int cmd_doctor(int argc, char **argv, struct global_opts *g)
{
	struct doctor_settings set = { .fault = true };
	int first = opts_parse_command(&doctor_doc, argc, argv, g, handle_option, &set);
	if (first < 0)
		return opts_command_status(first);
	if (argc - first > 1 || (set.lab && argc - first == 1))
		return opts_usage_error("doctor", set.lab ? "--lab builds its own pool: no POOL with it"
						       : "expected at most one pool");
	set.pool_id = argc - first == 1 ? argv[first] : NULL;
	struct run_ctx rc;
	if (run_ctx_begin(&rc, "doctor", argc, argv, g))
		return 1;
	struct doctor *dr = xcalloc(1, sizeof(*dr));
	int status = exit_status(dr, doctor_run(dr, &set, rc.id, rc.db_path));
	if (!rc.json && (status == 0 || dr->verdict.undetermined) && !run_ctx_interrupted_status())
		print_report(dr);
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	doctor_json(dr, &j);
	status = run_ctx_finish(&rc, &j, status, dr->batch.count ? read_batch_store_run : NULL, &dr->batch);
	json_release(&j);
	doctor_release(dr);
	free(dr);
	return status;
}
