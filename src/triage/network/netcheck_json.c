/* netcheck's document: the JSON members that store what was gathered and
 * judged (docs/results.md). */
#include <string.h>
#include <sys/socket.h>

#include "triage/network/netcheck.h"

static void json_stats(struct json *j, const char *key, const struct probe_stats *s, size_t size)
{
	json_begin_object(j, key);
	json_uint(j, "size_bytes", size);
	json_uint(j, "sent", s->sent);
	json_uint(j, "received", s->received);
	json_uint(j, "errors", s->errors);
	json_double(j, "loss_percent", probe_loss_percent(s));
	if (s->received) {
		json_uint(j, "rtt_min_ns", s->rtt_min_ns);
		json_uint(j, "rtt_avg_ns", s->rtt_sum_ns / s->received);
		json_uint(j, "rtt_max_ns", s->rtt_max_ns);
	} else {
		json_null(j, "rtt_min_ns");
		json_null(j, "rtt_avg_ns");
		json_null(j, "rtt_max_ns");
	}
	json_string(j, "last_error", s->last_error ? strerror(-s->last_error) : NULL);
	json_string(j, "last_error_from", s->error_from[0] ? s->error_from : NULL);
	json_end_object(j);
}

static const char *jumbo_name(enum nc_jumbo v)
{
	static const char *const names[] = { "not_applicable", "not_tested", "passes", "fails" };
	return names[v];
}

static void json_ports(const struct netcheck *nc, struct json *j)
{
	json_begin_array(j, "ports");
	for (size_t i = 0; i < nc->links.n; i++) {
		const struct net_link *l = &nc->links.v[i];
		json_begin_object(j, NULL);
		json_string(j, "name", l->name);
		json_int(j, "ifindex", l->ifindex);
		json_string(j, "kind", l->kind[0] ? l->kind : NULL);
		json_string(j, "master", l->master ? netcheck_port_name(nc, l->master) : NULL);
		json_string(j, "state", l->operstate);
		json_bool(j, "admin_up", l->flags & IFF_UP);
		json_bool(j, "carrier", l->flags & IFF_LOWER_UP);
		if (l->speed_mbps >= 0)
			json_int(j, "speed_mbps", l->speed_mbps);
		else
			json_null(j, "speed_mbps");
		json_string(j, "duplex", l->duplex);
		json_uint(j, "mtu", l->mtu);
		json_string(j, "mac", l->mac[0] ? l->mac : NULL);
		json_begin_array(j, "addresses");
		for (size_t k = 0; k < l->naddrs; k++) {
			json_begin_object(j, NULL);
			json_string(j, "family", l->addrs[k].family == AF_INET ? "ipv4" : "ipv6");
			json_string(j, "address", l->addrs[k].text);
			json_uint(j, "prefixlen", l->addrs[k].prefixlen);
			json_end_object(j);
		}
		json_end_array(j);
		json_begin_object(j, "window");
		json_uint(j, "rx_bytes", l->c1.rx_bytes - l->c0.rx_bytes);
		json_uint(j, "tx_bytes", l->c1.tx_bytes - l->c0.tx_bytes);
		json_uint(j, "rx_packets", l->c1.rx_packets - l->c0.rx_packets);
		json_uint(j, "tx_packets", l->c1.tx_packets - l->c0.tx_packets);
		json_uint(j, "rx_errors", l->c1.rx_errors - l->c0.rx_errors);
		json_uint(j, "tx_errors", l->c1.tx_errors - l->c0.tx_errors);
		json_uint(j, "rx_dropped", l->c1.rx_dropped - l->c0.rx_dropped);
		json_uint(j, "tx_dropped", l->c1.tx_dropped - l->c0.tx_dropped);
		json_double(j, "rx_bytes_per_s", netcheck_rate(nc, l->c0.rx_bytes, l->c1.rx_bytes));
		json_double(j, "tx_bytes_per_s", netcheck_rate(nc, l->c0.tx_bytes, l->c1.tx_bytes));
		json_end_object(j);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_routes(const struct netcheck *nc, struct json *j)
{
	json_begin_array(j, "routes");
	for (size_t i = 0; i < nc->routes.n; i++) {
		const struct net_route *r = &nc->routes.v[i];
		char dst[64], gw[46];
		json_begin_object(j, NULL);
		json_string(j, "family", r->family == AF_INET ? "ipv4" : "ipv6");
		routes_format_dst(r, dst, sizeof(dst));
		json_string(j, "destination", dst);
		json_bool(j, "default", routes_is_default(r));
		if (r->has_gateway) {
			routes_format_addr(r->family, r->gateway, gw, sizeof(gw));
			json_string(j, "gateway", gw);
		} else {
			json_null(j, "gateway");
		}
		json_string(j, "port", netcheck_port_name(nc, r->oif));
		json_uint(j, "metric", r->metric);
		json_bool(j, "multipath", r->multipath);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_bonds(const struct netcheck *nc, struct json *j)
{
	json_begin_array(j, "bonds");
	for (size_t i = 0; i < nc->nbonds; i++) {
		const struct bond_info *b = &nc->bonds[i];
		json_begin_object(j, NULL);
		json_string(j, "name", b->name);
		json_string(j, "mode", bonding_mode_name(b->mode));
		json_string(j, "mode_text", b->mode_text);
		json_bool(j, "link_up", b->mii_up);
		json_string(j, "active_slave", b->active_slave[0] ? b->active_slave : NULL);
		if (b->mode == BOND_MODE_8023AD) {
			json_int(j, "aggregator_id", b->active_aggregator_id);
			json_string(j, "partner_mac", b->partner_mac);
		}
		json_begin_array(j, "slaves");
		for (size_t k = 0; k < b->nslaves; k++) {
			const struct bond_slave *s = &b->slaves[k];
			json_begin_object(j, NULL);
			json_string(j, "name", s->name);
			json_bool(j, "link_up", s->mii_up);
			if (s->speed_mbps >= 0)
				json_int(j, "speed_mbps", s->speed_mbps);
			else
				json_null(j, "speed_mbps");
			json_string(j, "duplex", s->duplex);
			json_uint(j, "link_failures", s->link_failures);
			if (b->mode == BOND_MODE_8023AD) {
				json_int(j, "aggregator_id", s->aggregator_id);
				json_string(j, "partner_mac", s->partner_mac[0] ? s->partner_mac : NULL);
			}
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_dests(const struct netcheck *nc, struct json *j)
{
	json_begin_array(j, "destinations");
	for (size_t i = 0; i < nc->ndests; i++) {
		const struct nc_dest *d = &nc->dests[i];
		json_begin_object(j, NULL);
		json_string(j, "destination", d->name);
		json_string(j, "address", d->addr);
		json_string(j, "source", d->from_gateway ? "gateway" : "dest");
		bool reachable = false;
		for (size_t k = 0; k < d->nprobes; k++)
			reachable |= d->probes[k].rtt.received > 0;
		json_bool(j, "routed", d->nprobes > 0);
		json_bool(j, "reachable", reachable);
		json_begin_array(j, "probes");
		for (size_t k = 0; k < d->nprobes; k++) {
			const struct nc_probe *p = &d->probes[k];
			json_begin_object(j, NULL);
			json_string(j, "port", p->port);
			json_string(j, "via", p->via[0] ? p->via : NULL);
			json_uint(j, "route_metric", p->metric);
			json_uint(j, "port_mtu", p->mtu);
			json_string(j, "error", p->open_error ? strerror(-p->open_error) : NULL);
			json_bool(j, "reachable", p->rtt.received > 0);
			json_stats(j, "echo", &p->rtt, PROBE_SMALL_SIZE);
			json_begin_object(j, "jumbo");
			json_string(j, "result", jumbo_name(p->jumbo));
			if (p->jumbo == JUMBO_PASSES || p->jumbo == JUMBO_FAILS) {
				json_uint(j, "full_size_bytes", p->mtu);
				json_bool(j, "full_size_passes", p->jumbo == JUMBO_PASSES);
				json_stats(j, "full_size_probe", &p->full, p->mtu);
			}
			if (p->jumbo == JUMBO_FAILS) {
				json_int(j, "largest_passing_bytes", p->largest_passing);
				json_int(j, "largest_passing_payload_bytes", p->largest_passing - 28);
				json_uint(j, "bisection_steps", p->bisect_steps);
				if (p->full.frag_needed_mtu)
					json_uint(j, "router_reported_mtu", p->full.frag_needed_mtu);
				else
					json_null(j, "router_reported_mtu");
			}
			json_end_object(j);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_peer_run(struct json *j, const char *key, const struct nc_peer_run *r)
{
	json_begin_object(j, key);
	json_uint(j, "streams", r->streams);
	json_bool(j, "measured", r->measured);
	if (r->measured) {
		json_double(j, "seconds", r->r.seconds);
		json_uint(j, "received_bytes", r->r.received_bytes);
		json_double(j, "received_bits_per_s", r->r.received_bps);
		json_double(j, "bw_bytes_per_s", r->r.received_bps / 8.0);
		json_double(j, "sent_bits_per_s", r->r.sent_bps);
		json_int(j, "retransmits", r->r.retransmits);
	} else {
		json_string(j, "reason", r->why);
	}
	json_end_object(j);
}

static void json_peers(const struct netcheck *nc, struct json *j)
{
	json_begin_array(j, "peers");
	for (size_t i = 0; i < nc->npeers; i++) {
		const struct nc_peer *p = &nc->peers[i];
		json_begin_object(j, NULL);
		json_string(j, "peer", p->name);
		json_string(j, "address", p->addr);
		json_string(j, "status", p->failed ? "not measured" : "measured");
		json_string(j, "reason", p->failed ? p->why : NULL);
		json_begin_array(j, "paths");
		for (size_t k = 0; k < p->npaths; k++) {
			const struct nc_peer_path *path = &p->paths[k];
			json_begin_object(j, NULL);
			json_string(j, "port", path->port);
			json_string(j, "local_address", path->local_addr);
			json_int(j, "link_speed_mbps", path->link_mbps);
			json_uint(j, "bond_members", path->members);
			json_peer_run(j, "single", &path->single);
			json_peer_run(j, "parallel", &path->parallel);
			json_end_object(j);
		}
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
}

void netcheck_json(const struct netcheck *nc, struct json *j)
{
	json_begin_object(j, "parameters");
	json_double(j, "window_seconds", nc->window_seconds);
	json_string(j, "destinations_from", nc->dests_given ? "dest" : "gateways");
	json_uint(j, "echo_count", NC_ECHO_COUNT);
	json_uint(j, "echo_size_bytes", PROBE_SMALL_SIZE);
	json_string(j, "icmp_socket", nc->probe_socket);
	if (nc->npeers) {
		json_uint(j, "peer_port", nc->peer_port);
		json_uint(j, "peer_seconds", nc->peer_seconds);
		json_uint(j, "peer_parallel_streams", NC_PEER_STREAMS);
	}
	json_end_object(j);
	json_ports(nc, j);
	json_routes(nc, j);
	json_bonds(nc, j);
	json_dests(nc, j);
	if (nc->npeers)
		json_peers(nc, j);
	json_begin_array(j, "findings");
	size_t problems = 0;
	for (size_t i = 0; i < nc->nfindings; i++) {
		const struct nc_finding *f = &nc->findings[i];
		json_begin_object(j, NULL);
		json_string(j, "kind", f->kind);
		json_string(j, "severity", f->severity);
		json_string(j, "subject", f->subject);
		json_string(j, "sentence", f->sentence);
		json_string(j, "fix", f->fix);
		json_end_object(j);
		problems += strcmp(f->severity, "problem") == 0;
	}
	json_end_array(j);
	json_begin_object(j, "summary");
	json_uint(j, "findings", nc->nfindings);
	json_uint(j, "problems", problems);
	json_uint(j, "checks_failed", nc->errors);
	json_end_object(j);
}
