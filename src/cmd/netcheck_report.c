/* netcheck: the findings (one sentence and one fix each), the tables and
 * the JSON document. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "basic/humanize.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "cmd/netcheck.h"
#include "output/table.h"

static struct nc_finding *add_finding(struct netcheck *nc, const char *kind, const char *severity,
				      const char *subject)
{
	struct nc_finding *grown = realloc(nc->findings, (nc->nfindings + 1) * sizeof(*grown));
	if (!grown)
		abort();
	nc->findings = grown;
	struct nc_finding *f = &nc->findings[nc->nfindings++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->severity = severity;
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	return f;
}

static const char *port_name(const struct netcheck *nc, int ifindex)
{
	const struct net_link *l = links_find(&nc->links, ifindex);
	return l ? l->name : "?";
}

static void judge_routes(struct netcheck *nc)
{
	size_t groups[8][ROUTES_GROUP_MAX_MEMBERS], counts[8];
	size_t n = routes_competing_defaults(&nc->routes, groups, counts, 8);
	for (size_t g = 0; g < n; g++) {
		const struct net_route *first = &nc->routes.v[groups[g][0]];
		struct strbuf list = STRBUF_INIT;
		for (size_t k = 0; k < counts[g]; k++) {
			const struct net_route *r = &nc->routes.v[groups[g][k]];
			char gw[46] = "";
			if (r->has_gateway)
				routes_format_addr(r->family, r->gateway, gw, sizeof(gw));
			strbuf_addf(&list, "%s%s%s on %s", k ? ", " : "", gw[0] ? "via " : "", gw[0] ? gw : "direct",
				    port_name(nc, r->oif));
		}
		struct nc_finding *f = add_finding(nc, "competing_default_routes", "problem", "default route");
		snprintf(f->sentence, sizeof(f->sentence),
			 "%zu %s default routes of equal metric %u on different ports: %s; traffic is spread "
			 "over both gateways and return traffic can leave by the wrong port",
			 counts[g], first->family == AF_INET ? "IPv4" : "IPv6", first->metric, list.buf);
		snprintf(f->fix, sizeof(f->fix),
			 "configure a gateway on one port only (remove the other default routes, or give them a "
			 "higher metric)");
		strbuf_release(&list);
	}
}

static void port_list(const struct bond_info *b, const size_t *idx, size_t n, struct strbuf *out)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, "%s%s", i ? ", " : "", b->slaves[idx[i]].name);
}

static void judge_bonds(struct netcheck *nc)
{
	for (size_t i = 0; i < nc->nbonds; i++) {
		const struct bond_info *b = &nc->bonds[i];
		struct bond_check c;
		bonding_check(b, &c);
		struct strbuf list = STRBUF_INIT;
		if (c.lacp_partner_missing || c.n_lacp_bad) {
			size_t all[BOND_MAX_SLAVES], n = 0;
			for (size_t k = 0; k < b->nslaves; k++)
				if (b->slaves[k].mii_up)
					all[n++] = k;
			port_list(b, c.lacp_partner_missing ? all : c.lacp_bad_slaves,
				  c.lacp_partner_missing ? n : c.n_lacp_bad, &list);
			struct nc_finding *f = add_finding(nc, "lacp_not_negotiated", "problem", b->name);
			snprintf(f->sentence, sizeof(f->sentence),
				 "%s (802.3ad): the switch is not running LACP on these ports: %s (%s)", b->name, list.buf,
				 c.lacp_partner_missing ? "partner MAC 00:00:00:00:00:00"
							: "not in the active aggregator, or no LACP partner");
			snprintf(f->fix, sizeof(f->fix),
				 "configure an LACP (802.3ad) port channel on the switch ports of %s, or change the bond "
				 "to active-backup", b->name);
			strbuf_reset(&list);
		}
		if (c.needs_static_lag) {
			for (size_t k = 0; k < b->nslaves; k++)
				strbuf_addf(&list, "%s%s", k ? ", " : "", b->slaves[k].name);
			struct nc_finding *f = add_finding(nc, "static_lag_needed", "note", b->name);
			snprintf(f->sentence, sizeof(f->sentence),
				 "%s (%s) needs an Etherchannel-capable switch with a static LAG on the ports of %s; "
				 "without one the switch sees the bond's MAC move between ports",
				 b->name, bonding_mode_name(b->mode), list.buf);
			snprintf(f->fix, sizeof(f->fix),
				 "configure a static (non-LACP) port channel on the switch, or use 802.3ad with LACP "
				 "on the switch, or active-backup");
			strbuf_reset(&list);
		}
		if (c.n_down) {
			port_list(b, c.down_slaves, c.n_down, &list);
			struct nc_finding *f = add_finding(nc, "bond_slave_down", "problem", b->name);
			snprintf(f->sentence, sizeof(f->sentence), "%s: %zu of %zu ports have no link: %s", b->name,
				 c.n_down, b->nslaves, list.buf);
			snprintf(f->fix, sizeof(f->fix), "check the cable, the switch port and the NIC of %s", list.buf);
			strbuf_reset(&list);
		}
		/* Traffic collapsed onto one port of several. */
		double bps[BOND_MAX_SLAVES];
		size_t up = 0;
		for (size_t k = 0; k < b->nslaves; k++) {
			const struct net_link *l = links_find_name(&nc->links, b->slaves[k].name);
			bps[k] = 0;
			if (l && b->slaves[k].mii_up && nc->window_seconds > 0) {
				bps[k] = (double)(l->c1.rx_bytes - l->c0.rx_bytes + l->c1.tx_bytes - l->c0.tx_bytes) /
					 nc->window_seconds;
				up++;
			}
		}
		int top = up >= 2 && b->mode != BOND_MODE_ACTIVE_BACKUP ? bonding_collapsed(bps, b->nslaves, 0.9, 1e6)
									 : -1;
		if (top >= 0) {
			char rate[32];
			human_rate(bps[top], rate, sizeof(rate));
			struct nc_finding *f = add_finding(nc, "traffic_collapsed", "problem", b->name);
			snprintf(f->sentence, sizeof(f->sentence),
				 "%s (%s): %s carries over 90%% of the bond's traffic (%s) while %zu ports are up", b->name,
				 bonding_mode_name(b->mode), b->slaves[top].name, rate, up);
			snprintf(f->fix, sizeof(f->fix),
				 "check the transmit hash policy (layer3+4 spreads flows) and the switch's LAG hashing");
		}
		strbuf_release(&list);
	}
}

static void judge_dests(struct netcheck *nc)
{
	for (size_t i = 0; i < nc->ndests; i++) {
		const struct nc_dest *d = &nc->dests[i];
		if (d->nprobes == 0) {
			struct nc_finding *f = add_finding(nc, "no_route", "problem", d->name);
			snprintf(f->sentence, sizeof(f->sentence), "%s%s%s%s is unreachable: no route to it from any port",
				 d->name, strcmp(d->name, d->addr) ? " (" : "", strcmp(d->name, d->addr) ? d->addr : "",
				 strcmp(d->name, d->addr) ? ")" : "");
			snprintf(f->fix, sizeof(f->fix), "add a route (or a default gateway) on the port that faces it");
			continue;
		}
		for (size_t k = 0; k < d->nprobes; k++) {
			const struct nc_probe *p = &d->probes[k];
			if (p->open_error)
				continue;
			const struct probe_stats *s = &p->rtt;
			char why[160] = "";
			if (s->last_error)
				snprintf(why, sizeof(why), "; %s%s%s", strerror(-s->last_error),
					 s->error_from[0] ? " from " : "", s->error_from);
			if (s->sent && s->received == 0) {
				struct nc_finding *f = add_finding(nc, "unreachable", "problem", d->name);
				snprintf(f->sentence, sizeof(f->sentence),
					 "%s is unreachable from %s%s%s: %u of %u probes lost (100%% loss)%s", d->name, p->port,
					 p->via[0] ? " via " : "", p->via, s->sent, s->sent, why);
				snprintf(f->fix, sizeof(f->fix),
					 "check that %s is up and answers ping, and the path from %s (cable, switch port, VLAN, "
					 "firewall)", d->name, p->port);
			} else if (s->received < s->sent) {
				struct nc_finding *f = add_finding(nc, "packet_loss", "problem", d->name);
				snprintf(f->sentence, sizeof(f->sentence), "%s from %s: %u of %u probes lost (%.0f%% loss)%s",
					 d->name, p->port, s->sent - s->received, s->sent, probe_loss_percent(s), why);
				snprintf(f->fix, sizeof(f->fix),
					 "look for errors and drops on %s and on the switch port (cable, duplex)", p->port);
			}
			if (p->jumbo == JUMBO_FAILS) {
				char router[120] = "";
				if (p->full.frag_needed_mtu)
					snprintf(router, sizeof(router), " (%s reports a next-hop MTU of %u)",
						 p->full.error_from[0] ? p->full.error_from : "a router", p->full.frag_needed_mtu);
				struct nc_finding *f = add_finding(nc, "mtu_mismatch", "problem", p->port);
				snprintf(f->sentence, sizeof(f->sentence),
					 "MTU mismatch between %s and %s: %s has MTU %u but %u-byte don't-fragment probes do "
					 "not get through; the largest that does is %ld bytes%s",
					 p->port, d->name, p->port, p->mtu, p->mtu, p->largest_passing, router);
				snprintf(f->fix, sizeof(f->fix),
					 "set MTU %u on every hop between %s and %s (switch ports, routers, the far end), or "
					 "lower %s's MTU to %ld", p->mtu, p->port, d->name, p->port, p->largest_passing);
			}
		}
	}
}

void netcheck_judge(struct netcheck *nc)
{
	judge_routes(nc);
	judge_bonds(nc);
	judge_dests(nc);
	for (size_t i = 0; i < nc->nfindings; i++)
		log_msg(LOG_WARN, "NET-CHECK (%s): %s", nc->findings[i].subject, nc->findings[i].sentence);
	if (!nc->nfindings)
		log_msg(LOG_INFO, "NET-CHECK: no finding");
}

/* ---- presentation ---- */

static double rate_of(const struct netcheck *nc, uint64_t a, uint64_t b)
{
	return nc->window_seconds > 0 && b >= a ? (double)(b - a) / nc->window_seconds : 0;
}

static void format_bps(double bps, char *buf, size_t len)
{
	if (bps < 1000)
		snprintf(buf, len, "%.0f B/s", bps);
	else
		human_rate(bps, buf, len);
}

static void format_ms(uint64_t ns, char *buf, size_t len)
{
	snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
}

static void print_ports(const struct netcheck *nc)
{
	static const char *const headers[] = { "PORT", "KIND", "MASTER", "STATE", "SPEED", "DUPLEX", "MTU",
					       "ADDRESSES", "RX", "TX" };
	struct table t;
	table_init(&t, 10, headers, "llllrlrlrr");
	for (size_t i = 0; i < nc->links.n; i++) {
		const struct net_link *l = &nc->links.v[i];
		char speed[32] = "unknown", mtu[16], rx[32], tx[32];
		struct strbuf addrs = STRBUF_INIT;
		if (l->speed_mbps >= 0)
			snprintf(speed, sizeof(speed), "%lld Mb/s", (long long)l->speed_mbps);
		snprintf(mtu, sizeof(mtu), "%u", l->mtu);
		format_bps(rate_of(nc, l->c0.rx_bytes, l->c1.rx_bytes), rx, sizeof(rx));
		format_bps(rate_of(nc, l->c0.tx_bytes, l->c1.tx_bytes), tx, sizeof(tx));
		for (size_t k = 0; k < l->naddrs; k++)
			strbuf_addf(&addrs, "%s%s/%u", k ? " " : "", l->addrs[k].text, l->addrs[k].prefixlen);
		const char *row[] = { l->name, l->kind[0] ? l->kind : "-", l->master ? port_name(nc, l->master) : "-",
				      l->operstate, speed, l->duplex, mtu, addrs.len ? addrs.buf : "-", rx, tx };
		table_add_row(&t, row);
		strbuf_release(&addrs);
	}
	table_print(&t, stdout);
	table_release(&t);
}

static void print_routes(const struct netcheck *nc)
{
	static const char *const headers[] = { "ROUTE", "VIA", "PORT", "METRIC" };
	struct table t;
	table_init(&t, 4, headers, "lllr");
	for (size_t i = 0; i < nc->routes.n; i++) {
		const struct net_route *r = &nc->routes.v[i];
		char dst[64], gw[46] = "-", metric[16];
		routes_format_dst(r, dst, sizeof(dst));
		if (r->has_gateway)
			routes_format_addr(r->family, r->gateway, gw, sizeof(gw));
		snprintf(metric, sizeof(metric), "%u", r->metric);
		const char *row[] = { dst, gw, port_name(nc, r->oif), metric };
		table_add_row(&t, row);
	}
	table_print(&t, stdout);
	table_release(&t);
}

static void jumbo_text(const struct nc_probe *p, char *buf, size_t len)
{
	switch (p->jumbo) {
	case JUMBO_NOT_APPLICABLE:
		snprintf(buf, len, "-");
		break;
	case JUMBO_NOT_TESTED:
		snprintf(buf, len, "not tested");
		break;
	case JUMBO_PASSES:
		snprintf(buf, len, "%u passes", p->mtu);
		break;
	case JUMBO_FAILS:
		snprintf(buf, len, "%u fails, %ld passes", p->mtu, p->largest_passing);
		break;
	}
}

static void print_dests(const struct netcheck *nc)
{
	static const char *const headers[] = { "DESTINATION", "PORT", "VIA", "SENT", "RECEIVED", "LOSS",
					       "MIN RTT", "AVG RTT", "MAX RTT", "JUMBO (DF)" };
	struct table t;
	table_init(&t, 10, headers, "lllrrrrrrl");
	for (size_t i = 0; i < nc->ndests; i++) {
		const struct nc_dest *d = &nc->dests[i];
		if (!d->nprobes) {
			const char *row[] = { d->name, "-", "-", "0", "0", "-", "-", "-", "-", "no route" };
			table_add_row(&t, row);
		}
		for (size_t k = 0; k < d->nprobes; k++) {
			const struct nc_probe *p = &d->probes[k];
			const struct probe_stats *s = &p->rtt;
			char sent[16], recv[16], loss[16], mn[32] = "-", avg[32] = "-", mx[32] = "-", jumbo[64];
			snprintf(sent, sizeof(sent), "%u", s->sent);
			snprintf(recv, sizeof(recv), "%u", s->received);
			snprintf(loss, sizeof(loss), "%.0f%%", probe_loss_percent(s));
			if (s->received) {
				format_ms(s->rtt_min_ns, mn, sizeof(mn));
				format_ms(s->rtt_sum_ns / s->received, avg, sizeof(avg));
				format_ms(s->rtt_max_ns, mx, sizeof(mx));
			}
			if (p->open_error)
				snprintf(jumbo, sizeof(jumbo), "error: %s", strerror(-p->open_error));
			else
				jumbo_text(p, jumbo, sizeof(jumbo));
			const char *row[] = { d->name, p->port, p->via[0] ? p->via : "-", sent, recv, loss, mn, avg, mx,
					      jumbo };
			table_add_row(&t, row);
		}
	}
	table_print(&t, stdout);
	table_release(&t);
}

void netcheck_print(const struct netcheck *nc)
{
	printf("\nPorts (traffic over %.1f s):\n", nc->window_seconds);
	print_ports(nc);
	printf("\nRoutes (main table):\n");
	print_routes(nc);
	for (size_t i = 0; i < nc->nbonds; i++) {
		const struct bond_info *b = &nc->bonds[i];
		printf("\nBond %s: %s, link %s", b->name, bonding_mode_name(b->mode), b->mii_up ? "up" : "down");
		if (b->active_slave[0])
			printf(", active %s", b->active_slave);
		if (b->mode == BOND_MODE_8023AD)
			printf(", aggregator %d, partner %s", b->active_aggregator_id, b->partner_mac);
		putchar('\n');
		for (size_t k = 0; k < b->nslaves; k++)
			printf("  %s link %s, aggregator %d, partner %s\n", b->slaves[k].name,
			       b->slaves[k].mii_up ? "up" : "down", b->slaves[k].aggregator_id,
			       b->slaves[k].partner_mac[0] ? b->slaves[k].partner_mac : "-");
	}
	printf("\nDestinations (%s):\n", nc->dests_given ? "--dest" : "the gateways");
	if (nc->ndests)
		print_dests(nc);
	else
		printf("none: no default gateway and no --dest given\n");
	putchar('\n');
	for (size_t i = 0; i < nc->nfindings; i++)
		printf("%s: %s. Fix: %s.\n", strcmp(nc->findings[i].severity, "note") == 0 ? "NOTE" : "FINDING",
		       nc->findings[i].sentence, nc->findings[i].fix);
	if (!nc->nfindings)
		printf("No finding: routes, bonds, reachability and MTU look consistent.\n");
}

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
		json_string(j, "master", l->master ? port_name(nc, l->master) : NULL);
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
		json_double(j, "rx_bytes_per_s", rate_of(nc, l->c0.rx_bytes, l->c1.rx_bytes));
		json_double(j, "tx_bytes_per_s", rate_of(nc, l->c0.tx_bytes, l->c1.tx_bytes));
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
		json_string(j, "port", port_name(nc, r->oif));
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

void netcheck_json(const struct netcheck *nc, struct json *j)
{
	json_begin_object(j, "parameters");
	json_double(j, "window_seconds", nc->window_seconds);
	json_string(j, "destinations_from", nc->dests_given ? "dest" : "gateways");
	json_uint(j, "echo_count", 5);
	json_uint(j, "echo_size_bytes", PROBE_SMALL_SIZE);
	json_string(j, "icmp_socket", nc->probe_socket);
	json_end_object(j);
	json_ports(nc, j);
	json_routes(nc, j);
	json_bonds(nc, j);
	json_dests(nc, j);
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
