/* netcheck --peer: TCP throughput to a peer with iperf3, per local port
 * that routes to it, single and parallel streams, against the link speed. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/spawn.h"
#include "remote/server.h"
#include "triage/network/netcheck.h"

#define SERVER_READY_MS 10000

static void peer_fail(struct netcheck *nc, struct nc_peer *p, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void peer_fail(struct netcheck *nc, struct nc_peer *p, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
	p->failed = true;
	nc->errors++;
	log_msg(LOG_ERR, "NETCHECK-PEER (%s): %s", p->name, p->why);
}

/* iperf3 here. Returns 0, or -errno with WHY. */
static int local_iperf3(char *why, size_t len)
{
	const char *argv[] = { "iperf3", "--version", NULL };
	struct strbuf err = STRBUF_INIT;
	int r = spawn_check(argv, 10000, NULL, &err);
	if (r == -ENOENT)
		snprintf(why, len, "iperf3 is not installed here (install iperf3; Debian: apt-get install iperf3)");
	else if (r < 0)
		snprintf(why, len, "%s", err.buf);
	strbuf_release(&err);
	return r;
}

/* iperf3 on the peer, over ssh: the first reason it cannot be used. */
static bool remote_iperf3(struct netcheck *nc, struct nc_peer *p)
{
	static const char *const words[] = { "iperf3", "--version", NULL };
	char **argv = ssh_argv(&nc->ssh, p->name, words);
	struct spawn_result res;
	char why[400];
	int r = spawn_run((const char *const *)argv, (int)(30000 + 1000 * nc->ssh.connect_timeout_s), &res);
	ssh_argv_free(argv);
	if (r < 0) {
		peer_fail(nc, p, "cannot run ssh: %s", r == -ENOENT ? "not installed (install openssh-client)"
			  : strerror(-r));
		return false;
	}
	enum ssh_failure f = ssh_classify(res.status, res.err.buf, why, sizeof(why));
	if (f == SSH_FAIL_NOT_FOUND)
		peer_fail(nc, p, "iperf3 is not installed on '%s' or cannot run there (%s): install iperf3 there "
			  "(Debian: apt-get install iperf3; no daemon is needed)", p->name, why);
	else if (f != SSH_FAIL_NONE)
		peer_fail(nc, p, "cannot reach '%s' over ssh: %s: %s", p->name, ssh_failure_name(f), why);
	else if (res.status != 0)
		peer_fail(nc, p, "'iperf3 --version' failed on '%s' with exit status %d", p->name, res.status);
	spawn_result_release(&res);
	return !p->failed;
}

/* The speed the path's port can carry: its own, or a bond's members' sum. */
static void link_speed(const struct netcheck *nc, struct nc_peer_path *path)
{
	const struct net_link *l = links_find(&nc->links, path->ifindex);
	path->link_mbps = l ? l->speed_mbps : -1;
	if (!l || strcmp(l->kind, "bond") != 0)
		return;
	int64_t sum = 0;
	for (size_t i = 0; i < nc->links.n; i++) {
		const struct net_link *m = &nc->links.v[i];
		if (m->master != path->ifindex || m->speed_mbps <= 0)
			continue;
		sum += m->speed_mbps;
		path->members++;
		if (m->speed_mbps > path->member_max_mbps)
			path->member_max_mbps = m->speed_mbps;
	}
	if (path->members)
		path->link_mbps = sum;
	for (size_t i = 0; i < nc->nbonds; i++)
		if (strcmp(nc->bonds[i].name, l->name) == 0)
			path->bond = &nc->bonds[i];
}

static void add_paths(struct netcheck *nc, struct nc_peer *p, struct in_addr in)
{
	size_t idx[NC_MAX_PORTS_PER_DEST];
	size_t n = routes_for_destination(&nc->routes, in, idx, NC_MAX_PORTS_PER_DEST);
	for (size_t k = 0; k < n; k++) {
		const struct net_link *l = links_find(&nc->links, nc->routes.v[idx[k]].oif);
		const struct net_addr *a = NULL;
		for (size_t i = 0; l && i < l->naddrs && !a; i++)
			if (l->addrs[i].family == AF_INET)
				a = &l->addrs[i];
		if (!a)
			continue;
		struct nc_peer_path *path = &p->paths[p->npaths++];
		memset(path, 0, sizeof(*path));
		path->ifindex = l->ifindex;
		snprintf(path->port, sizeof(path->port), "%s", l->name);
		snprintf(path->local_addr, sizeof(path->local_addr), "%s", a->text);
		path->single.streams = 1;
		path->parallel.streams = NC_PEER_STREAMS;
		link_speed(nc, path);
	}
}

/* The client side of one run, from PATH's address. */
static void run_client(const struct netcheck *nc, const struct nc_peer *p, const struct nc_peer_path *path,
		       struct nc_peer_run *run)
{
	char port[16], secs[16], streams[16];
	snprintf(port, sizeof(port), "%u", nc->peer_port);
	snprintf(secs, sizeof(secs), "%u", nc->peer_seconds);
	snprintf(streams, sizeof(streams), "%u", run->streams);
	const char *argv[] = { "iperf3", "-c", p->addr, "-p", port, "-B", path->local_addr, "-t", secs, "-P",
			       streams, "-J", NULL };
	struct spawn_opts so = { .timeout_ms = (int)(nc->peer_seconds + 30) * 1000, .stdin_fd = -1,
				 .interruptible = true };
	struct spawn_result res;
	int r = spawn_run_opts(argv, &so, &res);
	if (r < 0) {
		snprintf(run->why, sizeof(run->why), "%s", r == -EINTR ? "interrupted" : r == -ETIMEDOUT
			 ? "iperf3 did not finish in time" : strerror(-r));
		if (r == -EINTR || r == -ETIMEDOUT)
			spawn_result_release(&res);
		return;
	}
	char why[300];
	if (iperf3_parse(res.out.buf, &run->r, why, sizeof(why)) == 0)
		run->measured = true;
	else
		snprintf(run->why, sizeof(run->why), "iperf3: %s", why);
	spawn_result_release(&res);
}

/* One run: a one-shot server on the peer, the client here, the server gone. */
static void measure_run(struct netcheck *nc, struct nc_peer *p, struct nc_peer_path *path,
			struct nc_peer_run *run)
{
	char port[16];
	snprintf(port, sizeof(port), "%u", nc->peer_port);
	const char *words[] = { "iperf3", "-s", "-1", "-B", p->addr, "-p", port, NULL };
	struct remote_server srv;
	if (remote_server_start(&srv, &nc->ssh, p->name, words) < 0) {
		snprintf(run->why, sizeof(run->why), "%s", srv.why);
		return;
	}
	if (remote_servers_wait_ready(&srv, 1, iperf3_server_ready, SERVER_READY_MS) == 1)
		run_client(nc, p, path, run);
	else
		snprintf(run->why, sizeof(run->why), "the iperf3 server on '%s' did not start: %s", p->name, srv.why);
	remote_server_stop(&srv, run->measured ? 3000 : 0);
	if (run->measured)
		log_msg(LOG_INFO, "NETCHECK-PEER (%s): from %s (%s), %u stream%s: %.0f Mbit/s received", p->name,
			path->port, path->local_addr, run->streams, run->streams == 1 ? "" : "s",
			run->r.received_bps / 1e6);
	else
		log_msg(LOG_WARN, "NETCHECK-PEER (%s): from %s, %u stream%s: not measured: %s", p->name, path->port,
			run->streams, run->streams == 1 ? "" : "s", run->why);
}

static void measure_peer(struct netcheck *nc, struct nc_peer *p)
{
	char why[512];
	if (remote_host_address(&nc->ssh, p->name, p->addr, sizeof(p->addr), why, sizeof(why)) < 0) {
		peer_fail(nc, p, "%s", why);
		return;
	}
	struct in_addr in;
	inet_pton(AF_INET, p->addr, &in);
	add_paths(nc, p, in);
	if (p->npaths == 0) {
		peer_fail(nc, p, "no port here routes to '%s' (%s) with an IPv4 address", p->name, p->addr);
		return;
	}
	if (!remote_iperf3(nc, p))
		return;
	for (size_t k = 0; k < p->npaths && !interrupt_requested(); k++) {
		measure_run(nc, p, &p->paths[k], &p->paths[k].single);
		if (!interrupt_requested())
			measure_run(nc, p, &p->paths[k], &p->paths[k].parallel);
		if (!p->paths[k].single.measured && !p->paths[k].parallel.measured)
			nc->errors++;
	}
}

void netcheck_peers_measure(struct netcheck *nc)
{
	char why[256];
	if (nc->npeers == 0)
		return;
	if (local_iperf3(why, sizeof(why)) < 0) {
		for (size_t i = 0; i < nc->npeers; i++)
			peer_fail(nc, &nc->peers[i], "%s", why);
		return;
	}
	for (size_t i = 0; i < nc->npeers && !interrupt_requested(); i++)
		measure_peer(nc, &nc->peers[i]);
}

static double best_bps(const struct nc_peer_path *p, unsigned *streams)
{
	double s = p->single.measured ? p->single.r.received_bps : 0;
	double m = p->parallel.measured ? p->parallel.r.received_bps : 0;
	*streams = m > s ? p->parallel.streams : 1;
	return m > s ? m : s;
}

static void bond_fix(const struct nc_peer_path *p, char *fix, size_t flen)
{
	const struct bond_info *b = p->bond;
	if (b && b->mode == BOND_MODE_ACTIVE_BACKUP)
		snprintf(fix, flen, "active-backup sends by one member at a time: for more than one member's "
			 "throughput make %s an 802.3ad (LACP) bond with xmit_hash_policy layer3+4, and a LACP "
			 "port channel on the switch", p->port);
	else if (b && (strcmp(b->hash_policy, "layer2") == 0 || strcmp(b->hash_policy, "layer2+3") == 0))
		snprintf(fix, flen, "%s hashes by %s, which puts every stream to one peer on one member: set "
			 "xmit_hash_policy layer3+4 (ip link set %s type bond xmit_hash_policy layer3+4, and in its "
			 "configuration) and the switch's port-channel load balancing to include L4 ports",
			 p->port, b->hash_policy, p->port);
	else
		snprintf(fix, flen, "check %s's xmit_hash_policy (layer3+4 spreads streams by port) and the switch's "
			 "port-channel load balancing; one TCP stream never exceeds one member", p->port);
}

const char *netcheck_peer_verdict(const struct nc_peer *peer, const struct nc_peer_path *p, char *sentence,
				  size_t slen, char *fix, size_t flen)
{
	unsigned streams;
	double best = best_bps(p, &streams);
	if (best <= 0 || p->link_mbps <= 0)
		return NULL;
	double link = (double)p->link_mbps * 1e6, share = best / link;
	if (p->members >= 2 && share < NC_BOND_FRACTION && best <= 1.15 * (double)p->member_max_mbps * 1e6) {
		snprintf(sentence, slen, "bond %s carries %.0f Mbit/s to %s with %u stream%s, %.0f%% of its %u "
			 "members' %lld Mbit/s: no more than one member's speed", p->port, best / 1e6, peer->name,
			 streams, streams == 1 ? "" : "s", 100.0 * share, p->members, (long long)p->link_mbps);
		bond_fix(p, fix, flen);
		return "bond_one_member";
	}
	if (share < NC_PEER_FAR_BELOW) {
		snprintf(sentence, slen, "the path to %s from %s carries %.0f Mbit/s at best (%u stream%s), %.0f%% of "
			 "the port's %lld Mbit/s", peer->name, p->port, best / 1e6, streams, streams == 1 ? "" : "s",
			 100.0 * share, (long long)p->link_mbps);
		snprintf(fix, flen, "look for what limits it: a shaper or rate limit (tc qdisc on either end, a "
			 "policer on the switch), errors or a duplex mismatch on a port, a slower link in between; "
			 "run netcheck on %s too", peer->name);
		return "path_below_link";
	}
	return NULL;
}
