/* triage/network/netcheck.h: step 2 of the method, rule out the network. What
 * netcheck gathers (netcheck_gather.c: ports and their traffic over a
 * window, routes, bonds, destinations and the probes to them), how it is
 * judged (netcheck_judge.c: findings, one sentence and one fix each) and
 * its stored form (netcheck_json.c). Nothing here prints: the netcheck
 * command draws the tables (render/netcheck.c); doctor reads the
 * findings. */
#ifndef IOTRIAGE_TRIAGE_NETCHECK_H
#define IOTRIAGE_TRIAGE_NETCHECK_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/bonding.h"
#include "net/iperf3.h"
#include "net/links.h"
#include "net/probe.h"
#include "net/routes.h"
#include "output/json.h"
#include "remote/ssh.h"

#define NC_MAX_DESTS 16
#define NC_MAX_PORTS_PER_DEST 8
#define NC_JUMBO_MIN_MTU 1500 /* above this, a port carries jumbo frames */

enum nc_jumbo {
	JUMBO_NOT_APPLICABLE,   /* port MTU 1500 or less */
	JUMBO_NOT_TESTED,       /* destination not reachable with small probes */
	JUMBO_PASSES,
	JUMBO_FAILS,            /* full-size DF probe lost or refused; largest found */
};

/* One destination as probed from one port. */
struct nc_probe {
	int ifindex;
	char port[IF_NAMESIZE];
	char via[46];            /* the route's gateway, "" when on-link */
	uint32_t metric;
	unsigned mtu;
	int open_error;          /* -errno: no probe socket could be made, or probing failed */
	struct probe_stats rtt;  /* small echo requests: loss and round-trip time */
	enum nc_jumbo jumbo;
	struct probe_stats full; /* the full-MTU don't-fragment probe */
	long largest_passing;    /* bytes (IP packet), with JUMBO_FAILS */
	unsigned bisect_steps;
};

struct nc_dest {
	char name[256];          /* as given, or the gateway address */
	char addr[16];
	struct in_addr in;
	bool from_gateway;       /* a default route's gateway (no --dest given) */
	int gateway_oif;
	struct nc_probe probes[NC_MAX_PORTS_PER_DEST];
	size_t nprobes;
};

struct nc_finding {
	const char *kind;        /* "competing_default_routes", "mtu_mismatch", ... */
	const char *severity;    /* "problem" or "note" */
	char subject[64];        /* the port, destination or bond */
	char sentence[640];
	char fix[320];
};

#define NC_MAX_PEERS 8
#define NC_PEER_STREAMS 4          /* the parallel run's streams (iperf3 -P) */
#define NC_PEER_DEFAULT_PORT 5201
#define NC_PEER_FAR_BELOW 0.25     /* a path under this share of its link speed is a finding */
#define NC_BOND_FRACTION 0.6       /* a bond under this share of its members' sum ... */

/* One iperf3 run from one port: a single stream or NC_PEER_STREAMS. */
struct nc_peer_run {
	unsigned streams;
	bool measured;
	char why[400];             /* why not measured */
	struct iperf3_result r;
};

/* The path to a peer from one local port. */
struct nc_peer_path {
	int ifindex;
	char port[IF_NAMESIZE];
	char local_addr[46];       /* iperf3 -B: the port's first IPv4 address */
	int64_t link_mbps;         /* the port's speed (a bond: its members' sum); -1 unknown */
	unsigned members;          /* a bond's members with a known speed; 0 for other ports */
	int64_t member_max_mbps;
	const struct bond_info *bond; /* the port's bond report, or NULL */
	struct nc_peer_run single, parallel;
};

/* A peer measured with iperf3 (netcheck --peer HOST). */
struct nc_peer {
	char name[256];            /* as given: an ssh host */
	char addr[46];             /* as ssh reaches it */
	bool failed;               /* could not be measured at all */
	char why[640];
	struct nc_peer_path paths[NC_MAX_PORTS_PER_DEST];
	size_t npaths;
};

struct netcheck {
	uint64_t window_ns;
	double window_seconds;
	bool dests_given;
	struct nc_dest dests[NC_MAX_DESTS];
	size_t ndests;
	struct net_links links;
	struct net_routes routes;
	struct bond_info *bonds;
	size_t nbonds;
	struct nc_finding *findings;
	size_t nfindings;
	const char *probe_socket; /* "raw" or "ping", or NULL when none was opened */
	unsigned errors;          /* checks that could not be made */
	struct nc_peer peers[NC_MAX_PEERS]; /* names set by the caller */
	size_t npeers;
	struct ssh_opts ssh;      /* how the peers are reached */
	unsigned peer_port;       /* the iperf3 servers' port */
	unsigned peer_seconds;    /* each iperf3 run's length */
};

/* Echo requests per probe (their count is in the document's parameters). */
#define NC_ECHO_COUNT 5

/* S (an IPv4 address, or a host name that resolves to one) as destination
 * D (zeroed first; name as given, addr the dotted quad). Returns 0, or
 * -EINVAL (IPv6, not an address or a name) or -ENOENT (does not resolve)
 * with the sentence in WHY, e.g. "--dest 'x' is not an IPv4 address or a
 * host name". */
int netcheck_resolve_dest(const char *s, struct nc_dest *d, char *why, size_t len);

/* Reads the ports (counting traffic over window_ns), the routes and the
 * bonds (/proc/net/bonding, or the directory IOTRIAGE_BONDING_DIR names),
 * picks destinations (the gateways unless dests_given: then dests[0..ndests)
 * as resolved above) and probes them from each port that routes to them.
 * Logs each step; a check that cannot be made counts in errors. The
 * wait and the probes end early on a signal (basic/interrupt). */
void netcheck_gather(struct netcheck *nc);

/* For each peer: its address as ssh reaches it, iperf3 here and there,
 * then from each local port that routes to it (after netcheck_gather) a
 * single-stream and a NC_PEER_STREAMS-stream TCP run (iperf3 -c -J -B
 * PORT'S ADDRESS) against `iperf3 -s -1 -B ADDR -p PORT` started on the
 * peer over ssh (remote/server.h: a one-shot server that dies with its
 * session, so none is left running after the run, a failure or a signal).
 * A peer that cannot be measured (unreachable, iperf3 missing there or
 * here, no route) gets its reason and counts in errors. */
void netcheck_peers_measure(struct netcheck *nc);

/* The finding for one path, when there is one (pure): a bond carrying
 * under NC_BOND_FRACTION of its members' sum, no more than one member's
 * speed ("bond_one_member", with the fix for its mode and hash policy), or
 * a path under NC_PEER_FAR_BELOW of its link speed ("path_below_link").
 * Returns the kind, or NULL (the speed unknown, or nothing wrong). */
const char *netcheck_peer_verdict(const struct nc_peer *peer, const struct nc_peer_path *p, char *sentence,
				  size_t slen, char *fix, size_t flen);

/* Adds the findings (competing default routes, LACP, static LAG, bond
 * ports down, traffic collapsed onto one port, no route, unreachable,
 * packet loss, MTU mismatch) and logs each one, or "no finding". */
void netcheck_judge(struct netcheck *nc);

/* The document's members: parameters, ports, routes, bonds, destinations,
 * findings, summary. */
void netcheck_json(const struct netcheck *nc, struct json *j);

/* Frees what gather and judge allocated; NC itself is the caller's. */
void netcheck_release(struct netcheck *nc);

/* The name of port IFINDEX, "?" when it is not among the ports read. */
const char *netcheck_port_name(const struct netcheck *nc, int ifindex);

/* Bytes per second between counters A and B over the window, 0 when the
 * window is empty or the counter went backwards. */
double netcheck_rate(const struct netcheck *nc, uint64_t a, uint64_t b);

#endif
