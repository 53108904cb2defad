/* netcheck: step 2 of the method, rule out the network. Ports (state,
 * speed, MTU, addresses, traffic over a window), routes (rtnetlink), bonds
 * (/proc/net/bonding), reachability and RTT to each destination from each
 * port that routes to it, and jumbo frames end to end (don't-fragment
 * probes at the port's MTU, bisected to the largest size that passes).
 * The options and the exit status are here; gathering, judging and the
 * document are in triage/network/netcheck.h, the tables in render/netcheck.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/interrupt.h"
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "cmd/commands.h"
#include "render/netcheck.h"
#include "cmd/runctx.h"
#include "remote/hostlist.h"
#include "triage/network/netcheck.h"

#define DEFAULT_WINDOW_NS (2ULL * 1000000000ULL)
#define MIN_WINDOW_NS (100ULL * 1000000ULL)
#define MAX_WINDOW_NS (600ULL * 1000000000ULL)

enum { OPT_DEST = OPT_COMMAND_BASE, OPT_WINDOW, OPT_PEER, OPT_SSH_CONFIG, OPT_PEER_PORT, OPT_PEER_TIME };

static const struct opt_def netcheck_opts[] = {
	{ "dest", 'd', "HOST",
	  "a destination to probe (IPv4 address or host name; repeatable, up to 16; default: the gateways)",
	  OPT_DEST, { 0 } },
	{ "window", 'w', "SECONDS", "how long to count each port's traffic (default 2s; 0.1s to 10m)", OPT_WINDOW, { 0 } },
	{ "peer", 'p', "HOST", "TCP throughput to HOST with iperf3, its server started there over ssh "
	  "(repeatable, up to 8)", OPT_PEER, { 0 } },
	{ "ssh-config", 'F', "FILE", "ssh -F FILE for --peer instead of ~/.ssh/config", OPT_SSH_CONFIG, { 0 } },
	{ "peer-port", 0, "PORT", "the iperf3 server's port on the peer (default 5201)", OPT_PEER_PORT, { 0 } },
	{ "peer-time", 0, "SECONDS", "each iperf3 run's length (default 5, 1 to 60)", OPT_PEER_TIME, { 0 } },
	OPT_END,
};

struct netcheck_args {
	const char *dests[NC_MAX_DESTS];
	size_t ndests;
	uint64_t window_ns;
	const char *peers[NC_MAX_PEERS];
	size_t npeers;
	const char *ssh_config;
	uint64_t peer_port, peer_seconds;
};

/* A duration (2, 500ms, 1m) or decimal seconds (0.5, 1.5s). */
static int parse_window(const char *arg, uint64_t *ret)
{
	if (parse_duration_ns(arg, ret) == 0)
		return 0;
	char *end;
	errno = 0;
	double secs = strtod(arg, &end);
	if (end == arg || errno || !(secs >= 0 && secs < 1e6) || (*end && strcmp(end, "s") != 0) ||
	    strspn(arg, "0123456789.") == 0)
		return -EINVAL;
	*ret = (uint64_t)(secs * 1e9);
	return 0;
}

static int handle_option(int id, const char *arg, void *state)
{
	struct netcheck_args *a = state;
	if (id == OPT_DEST) {
		if (a->ndests >= NC_MAX_DESTS)
			return opts_usage_error("netcheck", "at most %d --dest options", NC_MAX_DESTS);
		a->dests[a->ndests++] = arg;
		return 0;
	}
	if (id == OPT_PEER) {
		if (a->npeers >= NC_MAX_PEERS)
			return opts_usage_error("netcheck", "at most %d --peer options", NC_MAX_PEERS);
		if (!hostlist_valid_name(arg))
			return opts_usage_error("netcheck", "--peer '%s' is not a host name", arg);
		for (size_t i = 0; i < a->npeers; i++)
			if (strcmp(a->peers[i], arg) == 0)
				return opts_usage_error("netcheck", "--peer '%s' is given twice", arg);
		a->peers[a->npeers++] = arg;
		return 0;
	}
	if (id == OPT_SSH_CONFIG) {
		a->ssh_config = arg;
		return 0;
	}
	if (id == OPT_PEER_PORT && parse_uint(arg, 1, 65535, &a->peer_port) < 0)
		return opts_usage_error("netcheck", "--peer-port '%s' must be a port from 1 to 65535", arg);
	if (id == OPT_PEER_TIME && parse_uint(arg, 1, 60, &a->peer_seconds) < 0)
		return opts_usage_error("netcheck", "--peer-time '%s' must be 1 to 60 seconds", arg);
	if (id == OPT_PEER_PORT || id == OPT_PEER_TIME)
		return 0;
	if (id == OPT_WINDOW) {
		uint64_t ns;
		if (parse_window(arg, &ns) < 0 || ns < MIN_WINDOW_NS || ns > MAX_WINDOW_NS)
			return opts_usage_error("netcheck", "--window '%s' is not a duration from 0.1s to 10m (e.g. 2, 0.5, 500ms, 1m)",
						arg);
		a->window_ns = ns;
		return 0;
	}
	return 1;
}

static const struct command_doc netcheck_doc = {
	"netcheck", "netcheck [--dest HOST]... [--window SECONDS] [--peer HOST]... [-F SSH_CONFIG]",
	"Rules out the network (step 2): each port's state, speed, duplex, MTU, addresses and\n"
	"traffic over a window; default routes of equal metric on different ports; bond modes\n"
	"and LACP partners (/proc/net/bonding); loss and round-trip time to each destination\n"
	"(--dest, or the gateways) from each port that routes to it; and, on ports with an MTU\n"
	"above 1500, don't-fragment probes at the full MTU, with the largest size that passes\n"
	"when they do not. With --peer, TCP throughput to each peer with iperf3 (server started\n"
	"there over ssh, one-shot), from each local port that routes to it, one stream and four,\n"
	"against the port's link speed (a bond: its members' sum). One verdict line per finding. Needs root (raw ICMP sockets) unless\n"
	"ping sockets are allowed (net.ipv4.ping_group_range).\n"
	"Exit status: 0 checked (findings or not), 1 a check could not be made, 2 bad usage.",
	netcheck_opts,
};

const struct command_doc *const netcheck_docs[] = { &netcheck_doc, NULL };

int cmd_netcheck(int argc, char **argv, struct global_opts *g)
{
	struct netcheck_args args = { .window_ns = DEFAULT_WINDOW_NS, .peer_port = NC_PEER_DEFAULT_PORT,
				      .peer_seconds = 5 };
	int first = opts_parse_command(&netcheck_doc, argc, argv, g, handle_option, &args);
	if (first < 0)
		return opts_command_status(first);
	if (first < argc)
		return opts_usage_error("netcheck", "unexpected operand '%s'", argv[first]);
	struct netcheck *nc = xcalloc(1, sizeof(*nc));
	nc->window_ns = args.window_ns;
	nc->dests_given = args.ndests > 0;
	for (size_t i = 0; i < args.ndests; i++) {
		char why[512];
		if (netcheck_resolve_dest(args.dests[i], &nc->dests[i], why, sizeof(why)) < 0) {
			free(nc);
			return opts_usage_error("netcheck", "%s", why);
		}
		nc->ndests++;
	}

	for (size_t i = 0; i < args.npeers; i++)
		snprintf(nc->peers[i].name, sizeof(nc->peers[i].name), "%s", args.peers[i]);
	nc->npeers = args.npeers;
	nc->ssh.config_file = args.ssh_config;
	nc->peer_port = (unsigned)args.peer_port;
	nc->peer_seconds = (unsigned)args.peer_seconds;

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "netcheck", argc, argv, g)) {
		free(nc);
		return 1;
	}
	netcheck_gather(nc);
	if (!interrupt_requested())
		netcheck_peers_measure(nc);

	int status = run_ctx_interrupted_status();
	if (!status) {
		netcheck_judge(nc);
		status = nc->errors ? 1 : 0;
	}
	if (!rc.json)
		netcheck_print(nc);
	struct json j;
	json_init(&j);
	run_ctx_json_head(&rc, &j);
	netcheck_json(nc, &j);
	status = run_ctx_finish(&rc, &j, status, NULL, NULL);
	json_release(&j);
	netcheck_release(nc);
	free(nc);
	return status;
}
