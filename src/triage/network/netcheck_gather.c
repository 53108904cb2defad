/* netcheck: step 2 of the method, rule out the network. Ports (state,
 * speed, MTU, addresses, traffic over a window), routes (rtnetlink), bonds
 * (/proc/net/bonding), reachability and RTT to each destination from each
 * port that routes to it, and jumbo frames end to end (don't-fragment
 * probes at the port's MTU, bisected to the largest size that passes).
 * Gathering is here; judging is in netcheck_judge.c, the document in
 * netcheck_json.c, the tables in render/netcheck.c. */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <sys/socket.h>
#include <time.h>

#include "basic/fsutil.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"
#include "triage/network/netcheck.h"

#define RTT_INTERVAL_MS 200
#define RTT_TIMEOUT_MS 1000
#define JUMBO_TRIES 3

static bool valid_host_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 253 || s[0] == '-' || s[0] == '.')
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.") == n;
}

int netcheck_resolve_dest(const char *s, struct nc_dest *d, char *why, size_t len)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", s);
	struct in6_addr v6;
	if (inet_pton(AF_INET, s, &d->in) == 1) {
		inet_ntop(AF_INET, &d->in, d->addr, sizeof(d->addr));
		return 0;
	}
	if (inet_pton(AF_INET6, s, &v6) == 1) {
		snprintf(why, len, "--dest '%s': IPv6 destinations are not supported yet (IPv4 only)", s);
		return -EINVAL;
	}
	if (!valid_host_name(s)) {
		snprintf(why, len, "--dest '%s' is not an IPv4 address or a host name", s);
		return -EINVAL;
	}
	struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_DGRAM }, *res = NULL;
	int r = getaddrinfo(s, NULL, &hints, &res);
	if (r != 0 || !res) {
		snprintf(why, len, "cannot resolve --dest '%s': %s", s,
			 r == EAI_SYSTEM ? strerror(errno) : gai_strerror(r));
		return -ENOENT;
	}
	d->in = ((const struct sockaddr_in *)res->ai_addr)->sin_addr;
	freeaddrinfo(res);
	inet_ntop(AF_INET, &d->in, d->addr, sizeof(d->addr));
	return 0;
}

/* Counts traffic over the window; the wait ends early on a signal. */
static int sample_counters(struct netcheck *nc)
{
	uint64_t start = now_ns();
	while (now_ns() - start < nc->window_ns && !interrupt_requested()) {
		uint64_t left = nc->window_ns - (now_ns() - start);
		uint64_t step = left < 100000000ULL ? left : 100000000ULL;
		struct timespec ts = { (time_t)(step / 1000000000ULL), (long)(step % 1000000000ULL) };
		nanosleep(&ts, NULL);
	}
	int r = links_read_counters(&nc->links);
	nc->window_seconds = (double)(now_ns() - start) / 1e9;
	return r;
}

/* IOTRIAGE_BONDING_DIR replaces /proc/net/bonding for the command test:
 * this kernel has no bonding driver, so captured reports stand in. */
static void read_bonds(struct netcheck *nc)
{
	const char *where = getenv("IOTRIAGE_BONDING_DIR");
	if (!where || !*where)
		where = "/proc/net/bonding";
	DIR *dir = opendir(where);
	if (!dir)
		return; /* no bonding driver, or no bond: nothing to check */
	struct dirent *de;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		char path[PATH_MAX];
		static char text[65536];
		snprintf(path, sizeof(path), "%s/%s", where, de->d_name);
		int n = read_small_file(path, text, sizeof(text));
		if (n < 0) {
			log_msg(LOG_ERR, "cannot read '%s': %s", path, strerror(-n));
			nc->errors++;
			continue;
		}
		struct bond_info b;
		if (bonding_parse(de->d_name, text, &b) < 0) {
			log_msg(LOG_ERR, "'%s' is not a bonding report", path);
			nc->errors++;
			continue;
		}
		struct bond_info *grown = xreallocarray(nc->bonds, nc->nbonds + 1, sizeof(*grown));
		nc->bonds = grown;
		nc->bonds[nc->nbonds++] = b;
	}
	closedir(dir);
}

/* No --dest: the IPv4 default routes' gateways, each from its own port. */
static void gateways_as_dests(struct netcheck *nc)
{
	for (size_t i = 0; i < nc->routes.n && nc->ndests < NC_MAX_DESTS; i++) {
		const struct net_route *r = &nc->routes.v[i];
		if (r->family != AF_INET || !routes_is_default(r) || !r->has_gateway)
			continue;
		struct in_addr gw;
		memcpy(&gw, r->gateway, 4);
		bool seen = false;
		for (size_t k = 0; k < nc->ndests; k++)
			seen |= nc->dests[k].in.s_addr == gw.s_addr && nc->dests[k].gateway_oif == r->oif;
		if (seen)
			continue;
		struct nc_dest *d = &nc->dests[nc->ndests++];
		memset(d, 0, sizeof(*d));
		d->in = gw;
		inet_ntop(AF_INET, &gw, d->addr, sizeof(d->addr));
		memcpy(d->name, d->addr, sizeof(d->addr));
		d->from_gateway = true;
		d->gateway_oif = r->oif;
	}
}

static void add_probe(struct netcheck *nc, struct nc_dest *d, const struct net_route *r)
{
	if (d->nprobes >= NC_MAX_PORTS_PER_DEST)
		return;
	const struct net_link *link = links_find(&nc->links, r->oif);
	struct nc_probe *p = &d->probes[d->nprobes++];
	memset(p, 0, sizeof(*p));
	p->ifindex = r->oif;
	snprintf(p->port, sizeof(p->port), "%s", link ? link->name : "?");
	p->mtu = link ? link->mtu : 0;
	p->metric = r->metric;
	/* A gateway is probed directly, not through itself. */
	if (r->has_gateway && !d->from_gateway)
		routes_format_addr(AF_INET, r->gateway, p->via, sizeof(p->via));
}

/* The port the kernel's local table delivers D through when it is this
 * host's own address: lo for 127.0.0.0/8, else the port holding it; NULL
 * otherwise. Whatever the main table's routes say (its default route would
 * send the probes out through the gateway and lose them all). */
static const struct net_link *own_address_port(const struct netcheck *nc, const struct nc_dest *d)
{
	bool loopback = (ntohl(d->in.s_addr) >> 24) == 127;
	for (size_t i = 0; i < nc->links.n; i++) {
		const struct net_link *l = &nc->links.v[i];
		if (loopback && (l->flags & IFF_LOOPBACK))
			return l;
		for (size_t k = 0; k < l->naddrs && !loopback; k++)
			if (l->addrs[k].family == AF_INET && !strcmp(l->addrs[k].text, d->addr))
				return l;
	}
	return NULL;
}

/* The ports each destination is probed from: a gateway from the port of its
 * route; this host's own address from its port (lo for loopback); any other destination from every
 * port with a most-specific route. */
static void plan_probes(struct netcheck *nc)
{
	for (size_t i = 0; i < nc->ndests; i++) {
		struct nc_dest *d = &nc->dests[i];
		const struct net_link *own = d->from_gateway ? NULL : own_address_port(nc, d);
		if (own) {
			struct net_route r = { .family = AF_INET, .oif = own->ifindex, .dst_len = 32 };
			add_probe(nc, d, &r);
			continue;
		}
		if (d->from_gateway) {
			for (size_t k = 0; k < nc->routes.n; k++) {
				const struct net_route *r = &nc->routes.v[k];
				if (r->oif == d->gateway_oif && r->family == AF_INET && routes_is_default(r) &&
				    r->has_gateway && memcmp(r->gateway, &d->in, 4) == 0) {
					add_probe(nc, d, r);
					break;
				}
			}
			continue;
		}
		size_t idx[NC_MAX_PORTS_PER_DEST];
		size_t n = routes_for_destination(&nc->routes, d->in, idx, NC_MAX_PORTS_PER_DEST);
		for (size_t k = 0; k < n; k++)
			add_probe(nc, d, &nc->routes.v[idx[k]]);
	}
}

struct pass_ctx {
	struct probe_sock *sock;
	unsigned timeout_ms;
	struct probe_stats *last_error; /* keeps a router's frag-needed report */
};

/* One size, don't-fragment: passes when any of two echo requests is answered. */
static int size_passes(size_t size, void *arg)
{
	struct pass_ctx *c = arg;
	struct probe_stats s;
	int r = probe_ping(c->sock, 2, c->timeout_ms / 2, c->timeout_ms, size, true, true, &s);
	if (r < 0)
		return r;
	if (s.frag_needed_mtu)
		*c->last_error = s;
	return s.received > 0;
}

static void probe_one(struct netcheck *nc, const struct nc_dest *d, struct nc_probe *p)
{
	struct probe_sock sock;
	int r = probe_open(&sock, p->port, d->in);
	if (r < 0) {
		p->open_error = r;
		nc->errors++;
		log_msg(LOG_ERR, "NET-CHECK (%s): cannot open an ICMP socket towards %s: %s", p->port, d->addr,
			strerror(-r));
		return;
	}
	nc->probe_socket = sock.raw ? "raw" : "ping";
	r = probe_ping(&sock, NC_ECHO_COUNT, RTT_INTERVAL_MS, RTT_TIMEOUT_MS, PROBE_SMALL_SIZE, false, false, &p->rtt);
	if (r == 0)
		log_msg(LOG_INFO, "NET-CHECK (%s): %s: %u sent, %u received, %.0f%% loss", p->port, d->addr,
			p->rtt.sent, p->rtt.received, probe_loss_percent(&p->rtt));
	else if (r != -EINTR) {
		p->open_error = r;
		nc->errors++;
		log_msg(LOG_ERR, "NET-CHECK (%s): cannot probe %s: %s", p->port, d->addr, strerror(-r));
	}
	p->jumbo = p->mtu > NC_JUMBO_MIN_MTU ? JUMBO_NOT_TESTED : JUMBO_NOT_APPLICABLE;
	if (r < 0 || p->jumbo == JUMBO_NOT_APPLICABLE || p->rtt.received == 0) {
		probe_close(&sock);
		return;
	}
	/* Wait for a lost probe a few round trips, at least 200 ms, at most 1 s. */
	uint64_t t = p->rtt.rtt_max_ns * 4 / 1000000 + 100;
	unsigned timeout_ms = t < 200 ? 200 : (t > 1000 ? 1000 : (unsigned)t);
	r = probe_ping(&sock, JUMBO_TRIES, timeout_ms, timeout_ms, p->mtu, true, true, &p->full);
	if (r == 0 && p->full.received > 0) {
		p->jumbo = JUMBO_PASSES;
		log_msg(LOG_INFO, "NET-CHECK (%s): %s: %u-byte don't-fragment probe passes", p->port, d->addr, p->mtu);
	} else if (r == 0) {
		struct pass_ctx c = { &sock, timeout_ms, &p->full };
		long largest = probe_bisect(PROBE_SMALL_SIZE, p->mtu, size_passes, &c, &p->bisect_steps);
		if (largest > 0) {
			p->jumbo = JUMBO_FAILS;
			p->largest_passing = largest;
			log_msg(LOG_WARN, "NET-CHECK (%s): %s: %u-byte don't-fragment probes do not pass; the largest that does is %ld bytes",
				p->port, d->addr, p->mtu, largest);
		}
	}
	probe_close(&sock);
}

void netcheck_gather(struct netcheck *nc)
{
	int r = links_read(&nc->links);
	if (r < 0) {
		log_msg(LOG_ERR, "NET-CHECK: cannot read the ports (rtnetlink): %s", strerror(-r));
		nc->errors++;
	} else {
		log_msg(LOG_INFO, "NET-CHECK: %zu port(s); counting traffic for %.1f s", nc->links.n,
			(double)nc->window_ns / 1e9);
		r = sample_counters(nc);
		if (r < 0) {
			log_msg(LOG_ERR, "NET-CHECK: cannot read the ports' counters again: %s", strerror(-r));
			nc->errors++;
		}
	}
	r = routes_read(&nc->routes);
	if (r < 0) {
		log_msg(LOG_ERR, "NET-CHECK: cannot read the routes (rtnetlink): %s", strerror(-r));
		nc->errors++;
	}
	read_bonds(nc);
	if (!nc->dests_given)
		gateways_as_dests(nc);
	plan_probes(nc);
	for (size_t i = 0; i < nc->ndests && !interrupt_requested(); i++)
		for (size_t k = 0; k < nc->dests[i].nprobes && !interrupt_requested(); k++)
			probe_one(nc, &nc->dests[i], &nc->dests[i].probes[k]);
}

void netcheck_release(struct netcheck *nc)
{
	links_release(&nc->links);
	routes_release(&nc->routes);
	free(nc->bonds);
	free(nc->findings);
	nc->bonds = NULL;
	nc->findings = NULL;
	nc->nbonds = nc->nfindings = 0;
}


const char *netcheck_port_name(const struct netcheck *nc, int ifindex)
{
	const struct net_link *l = links_find(&nc->links, ifindex);
	return l ? l->name : "?";
}

double netcheck_rate(const struct netcheck *nc, uint64_t a, uint64_t b)
{
	return nc->window_seconds > 0 && b >= a ? (double)(b - a) / nc->window_seconds : 0;
}
