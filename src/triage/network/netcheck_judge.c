/* netcheck's judgement: the findings, one sentence and one fix each, from
 * what netcheck_gather read and measured. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "basic/humanize.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "triage/network/netcheck.h"

static struct nc_finding *add_finding(struct netcheck *nc, const char *kind, const char *severity,
				      const char *subject)
{
	struct nc_finding *grown = xreallocarray(nc->findings, nc->nfindings + 1, sizeof(*grown));
	nc->findings = grown;
	struct nc_finding *f = &nc->findings[nc->nfindings++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->severity = severity;
	snprintf(f->subject, sizeof(f->subject), "%s", subject);
	return f;
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
				    netcheck_port_name(nc, r->oif));
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

/* Traffic collapsed onto one port of several. */
static void judge_collapse(struct netcheck *nc, const struct bond_info *b)
{
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
		judge_collapse(nc, b);
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

static void judge_peers(struct netcheck *nc)
{
	for (size_t i = 0; i < nc->npeers; i++)
		for (size_t k = 0; k < nc->peers[i].npaths; k++) {
			char sentence[640], fix[320], subject[64];
			const char *kind = netcheck_peer_verdict(&nc->peers[i], &nc->peers[i].paths[k], sentence,
								 sizeof(sentence), fix, sizeof(fix));
			if (!kind)
				continue;
			snprintf(subject, sizeof(subject), "%s -> %s", nc->peers[i].paths[k].port, nc->peers[i].name);
			struct nc_finding *f = add_finding(nc, kind, "problem", subject);
			snprintf(f->sentence, sizeof(f->sentence), "%s", sentence);
			snprintf(f->fix, sizeof(f->fix), "%s", fix);
		}
}

void netcheck_judge(struct netcheck *nc)
{
	judge_routes(nc);
	judge_bonds(nc);
	judge_dests(nc);
	judge_peers(nc);
	for (size_t i = 0; i < nc->nfindings; i++)
		log_msg(LOG_WARN, "NET-CHECK (%s): %s", nc->findings[i].subject, nc->findings[i].sentence);
	if (!nc->nfindings)
		log_msg(LOG_INFO, "NET-CHECK: no finding");
}
