/* cmd/netcheck.h: what netcheck gathers (cmd_netcheck.c) and how it is
 * judged and shown (netcheck_report.c). */
#ifndef IOTRIAGE_CMD_NETCHECK_H
#define IOTRIAGE_CMD_NETCHECK_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "net/bonding.h"
#include "net/links.h"
#include "net/probe.h"
#include "net/routes.h"
#include "output/json.h"

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
};

/* cmd_netcheck.c: reads the ports (counting traffic over window_ns), the
 * routes and the bonds, picks destinations (the gateways unless dests
 * were given) and probes them; a check that cannot be made counts in
 * errors. For doctor too. */
void netcheck_gather(struct netcheck *nc);

/* netcheck_report.c */
void netcheck_judge(struct netcheck *nc);
void netcheck_print(const struct netcheck *nc);
void netcheck_json(const struct netcheck *nc, struct json *j);
void netcheck_release(struct netcheck *nc);

#endif
