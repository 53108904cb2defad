/* netcheck's terminal tables: ports, routes, bonds, destinations, then one
 * line per finding. */
#include <stdio.h>
#include <string.h>

#include "basic/humanize.h"
#include "basic/strbuf.h"
#include "render/netcheck.h"
#include "output/table.h"

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
		format_bps(netcheck_rate(nc, l->c0.rx_bytes, l->c1.rx_bytes), rx, sizeof(rx));
		format_bps(netcheck_rate(nc, l->c0.tx_bytes, l->c1.tx_bytes), tx, sizeof(tx));
		for (size_t k = 0; k < l->naddrs; k++)
			strbuf_addf(&addrs, "%s%s/%u", k ? " " : "", l->addrs[k].text, l->addrs[k].prefixlen);
		const char *row[] = { l->name, l->kind[0] ? l->kind : "-", l->master ? netcheck_port_name(nc, l->master) : "-",
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
		const char *row[] = { dst, gw, netcheck_port_name(nc, r->oif), metric };
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

static void run_cell(const struct nc_peer_run *r, char *buf, size_t len)
{
	if (r->measured)
		snprintf(buf, len, "%.0f Mbit/s", r->r.received_bps / 1e6);
	else
		snprintf(buf, len, "-");
}

static void print_peers(const struct netcheck *nc)
{
	struct table t;
	table_init(&t, 7, (const char *[]){ "PEER", "ADDRESS", "PORT", "LINK", "1 STREAM", "4 STREAMS", "REASON" },
		   "lllrrrl");
	for (size_t i = 0; i < nc->npeers; i++) {
		const struct nc_peer *p = &nc->peers[i];
		if (p->failed || p->npaths == 0) {
			const char *cells[] = { p->name, p->addr, "", "", "", "", p->why };
			table_add_row(&t, cells);
			continue;
		}
		for (size_t k = 0; k < p->npaths; k++) {
			const struct nc_peer_path *path = &p->paths[k];
			char link[32] = "unknown", one[32], par[32];
			if (path->link_mbps > 0)
				snprintf(link, sizeof(link), "%lld Mbit/s", (long long)path->link_mbps);
			run_cell(&path->single, one, sizeof(one));
			run_cell(&path->parallel, par, sizeof(par));
			const char *why = !path->single.measured ? path->single.why
					  : !path->parallel.measured ? path->parallel.why : "";
			const char *cells[] = { p->name, p->addr, path->port, link, one, par, why };
			table_add_row(&t, cells);
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
	if (nc->npeers) {
		printf("\nThroughput to peers (iperf3, TCP, received):\n");
		print_peers(nc);
	}
	putchar('\n');
	for (size_t i = 0; i < nc->nfindings; i++)
		printf("%s: %s. Fix: %s.\n", strcmp(nc->findings[i].severity, "note") == 0 ? "NOTE" : "FINDING",
		       nc->findings[i].sentence, nc->findings[i].fix);
	if (!nc->nfindings)
		printf("No finding: routes, bonds, reachability and MTU look consistent.\n");
}
