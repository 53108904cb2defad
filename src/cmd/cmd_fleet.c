/* fleet: one iotriage command on many hosts over ssh (triage/fleet/fleet.h):
 * options -> fleet_run/fleet_judge -> table and combined document -> exit
 * status (0 every host ok, 1 some failed, 3 none ok). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "basic/parse.h"
#include "cmd/commands.h"
#include "render/fleet.h"
#include "cmd/progress.h"
#include "cmd/runctx.h"
#include "remote/hostlist.h"
#include "triage/fleet/fleet.h"
#include "triage/fleet/fleet_load.h"

/* No host succeeded (1 is: some did, some did not). */
#define FLEET_EXIT_NONE 3

enum {
	OPT_HOSTS_FILE = OPT_COMMAND_BASE,
	OPT_PARALLEL,
	OPT_TIME_LIMIT,
	OPT_SSH_CONFIG,
	OPT_CONNECT_TIMEOUT,
	OPT_REMOTE_IOTRIAGE,
	OPT_ACCEPT_NEW,
	OPT_CONFIRM,
	OPT_GRACE,
	OPT_FIO,
	OPT_FIO_PORT,
};

static const struct opt_def fleet_opts[] = {
	{ "hosts-file", 'f', "FILE", "hosts, one per line ('#' comments), with or instead of HOSTS", OPT_HOSTS_FILE, { 0 } },
	{ "parallel", 'p', "N", "hosts at once (default 8)", OPT_PARALLEL, { 0 } },
	{ "time-limit", 't', "TIME", "per host, for the command (default 1h); then it is interrupted", OPT_TIME_LIMIT, { 0 } },
	{ "ssh-config", 'F', "FILE", "ssh -F FILE instead of ~/.ssh/config", OPT_SSH_CONFIG, { 0 } },
	{ "connect-timeout", 0, "SECONDS", "ssh ConnectTimeout (default 10)", OPT_CONNECT_TIMEOUT, { 0 } },
	{ "remote-iotriage", 0, "PATH", "the iotriage program on the hosts (default: iotriage in their PATH)",
	  OPT_REMOTE_IOTRIAGE, { 0 } },
	{ "accept-new-host-keys", 0, NULL, "StrictHostKeyChecking=accept-new (changed keys are still refused)",
	  OPT_ACCEPT_NEW, { 0 } },
	{ "confirm", 0, "N", "runs again on a host that stands out (default 1)", OPT_CONFIRM, { 0 } },
	{ "grace", 0, "TIME", "after an interrupt, how long a host may take to clean up (default 60s)", OPT_GRACE, { 0 } },
	{ "fio", 0, NULL, "synchronized load: fio --server on every host, one fio --client job from here "
	  "(fio's job options after '--')", OPT_FIO, { 0 } },
	{ "fio-port", 0, "PORT", "the fio servers' port (default 8765)", OPT_FIO_PORT, { 0 } },
	OPT_END,
};

struct fleet_args {
	struct fleet_plan plan;
	struct hostlist hosts;
	const char *hosts_file;
	uint64_t confirm;
	bool fio;
	unsigned fio_port;
};

static int parse_time_ms(const char *arg, const char *what, uint64_t *ret)
{
	uint64_t ns;
	if (parse_duration_ns(arg, &ns) < 0 || ns < 1000000ULL)
		return opts_usage_error("fleet", "%s '%s' is not a duration of at least 1ms", what, arg);
	*ret = ns / 1000000ULL;
	return 0;
}

static int handle_opt(int id, const char *arg, void *state)
{
	struct fleet_args *a = state;
	uint64_t v;
	switch (id) {
	case OPT_HOSTS_FILE:
		a->hosts_file = arg;
		return 0;
	case OPT_PARALLEL:
		if (parse_uint(arg, 1, 1024, &v) < 0)
			return opts_usage_error("fleet", "--parallel '%s' must be a number from 1 to 1024", arg);
		a->plan.parallel = (unsigned)v;
		return 0;
	case OPT_TIME_LIMIT:
		return parse_time_ms(arg, "--time-limit", &a->plan.time_limit_ms);
	case OPT_GRACE:
		return parse_time_ms(arg, "--grace", &a->plan.grace_ms);
	case OPT_SSH_CONFIG:
		a->plan.ssh.config_file = arg;
		return 0;
	case OPT_CONNECT_TIMEOUT:
		if (parse_uint(arg, 1, 3600, &v) < 0)
			return opts_usage_error("fleet", "--connect-timeout '%s' must be 1 to 3600 seconds", arg);
		a->plan.ssh.connect_timeout_s = (unsigned)v;
		return 0;
	case OPT_REMOTE_IOTRIAGE:
		a->plan.remote_iotriage = arg;
		return 0;
	case OPT_ACCEPT_NEW:
		a->plan.ssh.accept_new_host_keys = true;
		return 0;
	case OPT_FIO:
		a->fio = true;
		return 0;
	case OPT_FIO_PORT:
		if (parse_uint(arg, 1, 65535, &v) < 0)
			return opts_usage_error("fleet", "--fio-port '%s' must be a port from 1 to 65535", arg);
		a->fio_port = (unsigned)v;
		return 0;
	case OPT_CONFIRM:
		if (parse_uint(arg, 0, 10, &a->confirm) < 0)
			return opts_usage_error("fleet", "--confirm '%s' must be 0 to 10", arg);
		return 0;
	}
	return 1;
}

/* HOSTS operands, then --hosts-file, into one list; 2 after a message. */
static int gather_hosts(struct fleet_args *a, int argc, char **argv, int first)
{
	char why[4400];
	for (int i = first; i < argc; i++)
		if (hostlist_add_list(&a->hosts, argv[i], why, sizeof(why)) < 0)
			return opts_usage_error("fleet", "%s", why);
	if (a->hosts_file && hostlist_add_file(&a->hosts, a->hosts_file, why, sizeof(why)) < 0)
		return opts_usage_error("fleet", "%s", why);
	if (a->hosts.n == 0)
		return opts_usage_error("fleet", "no hosts given (HOSTS as a comma list, or --hosts-file FILE)");
	return 0;
}

static const struct command_doc fleet_doc = {
	"fleet", "fleet [options] HOSTS[,HOST...] [-f FILE] -- COMMAND [ARGS...]\n"
	"       fleet --fio [options] HOSTS[,HOST...] [-f FILE] -- FIO-OPTIONS...",
	"Runs one iotriage command on many hosts over ssh (BatchMode, one multiplexed\n"
	"connection per host, your ~/.ssh/config unless -F), after checking each host's\n"
	"iotriage version and document schema. Each host's document is kept here with\n"
	"its identity; hosts whose read rate stands out from their peers' are re-run and\n"
	"named. With --fio, the hosts are fio clients: a fio server on each, one job\n"
	"(--rw=randread --bs=4k ...) driven from here so all start together; each\n"
	"client's figures under its host name, and their sum.\n"
	"Exit status: 0 every host ok, 1 some failed, 3 none ok.",
	fleet_opts,
};

const struct command_doc *const fleet_docs[] = { &fleet_doc, NULL };

static int parse_args(struct fleet_args *a, int argc, char **argv, struct global_opts *g, int *ret_dd)
{
	int dd = 1;
	while (dd < argc && strcmp(argv[dd], "--") != 0)
		dd++;
	a->plan = (struct fleet_plan){ .remote_iotriage = "iotriage", .parallel = 8,
				       .time_limit_ms = 3600000ULL, .grace_ms = 60000ULL };
	a->confirm = 1;
	a->fio_port = FLEET_LOAD_DEFAULT_PORT;
	int first = opts_parse_command(&fleet_doc, dd, argv, g, handle_opt, a);
	if (first < 0)
		return opts_command_status(first);
	if (dd + 1 >= argc)
		return opts_usage_error("fleet", "%s", a->fio ? "no fio job options: give them after '--' "
					"(fleet --fio HOSTS -- --rw=randread --bs=4k --filename=...)"
					: "no command to run: give it after '--' (fleet HOSTS -- readdisk DEV)");
	if (!a->fio && (strcmp(argv[dd + 1], "fleet") == 0 || strcmp(argv[dd + 1], "interactive") == 0))
		return opts_usage_error("fleet", "'%s' cannot run on other hosts", argv[dd + 1]);
	int r = gather_hosts(a, dd, argv, first);
	if (r)
		return r;
	*ret_dd = dd;
	return 0;
}

struct fleet_store_arg {
	struct fleet_host *hosts;
	size_t n;
};

static int store_hosts(struct store *s, const struct run_ctx *rc, void *arg)
{
	struct fleet_store_arg *a = arg;
	return fleet_record(s, rc->id, a->hosts, a->n);
}

static int exit_status(const struct fleet_host *hosts, size_t n, size_t ok)
{
	int interrupted = run_ctx_interrupted_status();
	(void)hosts;
	if (interrupted)
		return interrupted;
	return ok == n ? 0 : ok > 0 ? 1 : FLEET_EXIT_NONE;
}

static int run_fleet(struct fleet_args *a, struct run_ctx *rc)
{
	struct fleet_plan *plan = &a->plan;
	handshake_local(&plan->local, run_ctx_schema_version());
	struct progress live;
	struct fleet_host *hosts = NULL;
	struct fleet_judgement jd = { 0 };
	cmd_progress_attach(&live, rc->json, "fleet");
	ssize_t got = fleet_execute(plan, &live, (unsigned)a->confirm, rc->results_dir, &hosts, &jd);
	if (got < 0)
		return 1;
	size_t ok = (size_t)got;
	struct json j;
	json_init(&j);
	run_ctx_json_head(rc, &j);
	fleet_json(&j, plan, hosts, plan->n_hosts, &jd);
	if (!rc->json)
		fleet_print(hosts, plan->n_hosts, &jd);
	int status = exit_status(hosts, plan->n_hosts, ok);
	struct fleet_store_arg sa = { hosts, plan->n_hosts };
	status = run_ctx_finish(rc, &j, status, store_hosts, &sa);
	json_release(&j);
	fleet_judgement_release(&jd);
	fleet_hosts_free(hosts, plan->n_hosts);
	return status;
}

/* fleet --fio: the hosts as fio clients (triage/fleet/fleet_load.h). */
static int run_fleet_load(struct fleet_args *a, struct run_ctx *rc)
{
	char why[256];
	struct fleet_plan *plan = &a->plan;
	struct fleet_load ld = { .hosts = plan->hosts, .n = plan->n_hosts,
				 .fio_args = (const char *const *)plan->command, .port = a->fio_port,
				 .time_limit_ms = plan->time_limit_ms };
	while (plan->command[ld.n_fio_args])
		ld.n_fio_args++;
	if (fleet_begin(plan, why, sizeof(why)) < 0) {
		log_msg(LOG_ERR, "%s", why);
		return 1;
	}
	ld.ssh = plan->ssh;
	log_msg(LOG_INFO, "FLEET-FIO: %zu clients, fio servers on port %u", ld.n, ld.port);
	size_t ok = fleet_load_run(&ld);
	fleet_end(plan);
	if (ld.error[0])
		log_msg(LOG_ERR, "FLEET-FIO: %s", ld.error);
	struct json j;
	json_init(&j);
	run_ctx_json_head(rc, &j);
	fleet_load_json(&ld, &j);
	if (!rc->json)
		fleet_load_print(&ld);
	int status = exit_status(NULL, plan->n_hosts, ok);
	status = run_ctx_finish(rc, &j, status, NULL, NULL);
	json_release(&j);
	fleet_load_release(&ld);
	return status;
}

int cmd_fleet(int argc, char **argv, struct global_opts *g)
{
	struct fleet_args a = { 0 };
	int dd = 0;
	int r = parse_args(&a, argc, argv, g, &dd);
	if (r || dd == 0) {
		hostlist_release(&a.hosts);
		return r;
	}
	a.plan.hosts = a.hosts.hosts;
	a.plan.n_hosts = a.hosts.n;
	a.plan.command = argv + dd + 1;
	struct run_ctx rc;
	int status = run_ctx_begin(&rc, "fleet", argc, argv, g);
	if (status == 0)
		status = a.fio ? run_fleet_load(&a, &rc) : run_fleet(&a, &rc);
	hostlist_release(&a.hosts);
	return status;
}
