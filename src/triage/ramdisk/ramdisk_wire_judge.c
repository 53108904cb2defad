/* What the wire costs, judged (triage/ramdisk/ramdisk_export.h): pure. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "output/json.h"
#include "triage/ramdisk/ramdisk_export.h"

static double fraction(double remote, double local)
{
	return local > 0 ? remote / local : 0;
}

/* The network when its round trip is most of the QD1 latency added, or,
 * for a throughput loss alone, when QD32 reached a good share of what 32
 * I/Os in flight allow over that round trip (each waits one round trip
 * plus the disk's own latency). */
static bool network_explains(const struct wire_judgement *j, const struct wire_side *local,
			     const struct wire_side *remote)
{
	double rtt = (double)remote->rtt_ns;
	if (rtt <= 0)
		return false;
	if (j->added_mean_ns >= (double)WIRE_ADDED_LARGE_NS)
		return rtt >= WIRE_RTT_SHARE * j->added_mean_ns;
	double bound = 32.0 / ((rtt + local->w[WIRE_QD1].mean_ns) / 1e9);
	return remote->w[WIRE_QD32].iops >= WIRE_RTT_SHARE * bound;
}

/* One candidate for the ceiling: kept when known and slower than *BEST. */
static void consider(double mbps, const char *what, double *best, char *from, size_t len)
{
	if (mbps > 0 && (*best == 0 || mbps < *best)) {
		*best = mbps;
		snprintf(from, len, "%s", what);
	}
}

double ramdisk_wire_ceiling(const struct wire_side *local, const struct wire_side *remote, char *from, size_t len)
{
	const struct link_rate *c = &remote->link, *t = &local->link;
	double best = 0;
	char what[160];
	snprintf(what, sizeof(what), "the speed of %s, the client's port", c->interface);
	consider(c->found ? (double)c->speed_mbps : 0, what, &best, from, len);
	snprintf(what, sizeof(what), "the speed of %s, the target's port", t->interface);
	consider(t->found ? (double)t->speed_mbps : 0, what, &best, from, len);
	snprintf(what, sizeof(what), "the %s rate on %s, the target's port", t->qdisc, t->interface);
	consider(t->found ? (double)t->shaped_bps / 1e6 : 0, what, &best, from, len);
	if (best > 0)
		return best;
	char cs[80] = "was not found", ts[80] = "was not found";
	if (c->found)
		snprintf(cs, sizeof(cs), "%s%s%s%s reports no speed", c->interface, *c->kind ? " (" : "", c->kind,
			 *c->kind ? ")" : "");
	if (t->found)
		snprintf(ts, sizeof(ts), "%s%s%s%s reports no speed and shapes nothing", t->interface,
			 *t->kind ? " (" : "", t->kind, *t->kind ? ")" : "");
	snprintf(from, len, "not known: the client's port %s; the target's port %s", cs, ts);
	return 0;
}

/* The 1 MiB reads ran at the path's ceiling, well under local. */
static bool matches_link(const struct wire_judgement *j, const struct wire_side *remote)
{
	double mbps = remote->w[WIRE_SEQ].bw_bytes_per_s * 8 / 1e6;
	return j->ceiling_mbps > 0 && mbps >= (1 - WIRE_LINK_MATCH) * j->ceiling_mbps &&
	       mbps <= (1 + WIRE_LINK_MATCH) * j->ceiling_mbps && j->bw_fraction < 1 - WIRE_LINK_MATCH;
}

/* "the network: ...": the round trip when it explains the QD1 latency
 * added (or the throughput lost, with no ceiling), and the ceiling. */
static void network_sentence(struct wire_judgement *j, const struct wire_side *remote, bool rtt_explains,
			     const char *rtt, const char *figures)
{
	char by_rtt[200] = "", by_link[300] = "";
	if (rtt_explains)
		snprintf(by_rtt, sizeof(by_rtt), "every I/O waits for the round trip to the target (%s, %.0f%% of "
			 "the latency added at QD1)", rtt,
			 j->added_mean_ns > 0 ? 100.0 * (double)remote->rtt_ns / j->added_mean_ns : 0.0);
	if (j->link_bound) {
		double mbps = remote->w[WIRE_SEQ].bw_bytes_per_s * 8 / 1e6;
		snprintf(by_link, sizeof(by_link), "a bandwidth ceiling that matches the link (%.0f Mb/s, %s): "
			 "1 MiB reads carried %.0f Mb/s, %.0f%% of it", j->ceiling_mbps, j->ceiling_from, mbps,
			 100 * mbps / j->ceiling_mbps);
	}
	snprintf(j->sentence, sizeof(j->sentence), "the network: %s%s%s: %s", by_rtt, *by_rtt && *by_link ? "; and " : "",
		 by_link, figures);
}

void ramdisk_wire_judge(const struct wire_side *local, const struct wire_side *remote, struct wire_judgement *j)
{
	memset(j, 0, sizeof(*j));
	const struct wire_lat *l1 = &local->w[WIRE_QD1], *r1 = &remote->w[WIRE_QD1];
	j->added_mean_ns = r1->mean_ns - l1->mean_ns;
	j->added_p50_ns = (double)r1->p50_ns - (double)l1->p50_ns;
	j->added_p99_ns = (double)r1->p99_ns - (double)l1->p99_ns;
	j->iops_fraction = fraction(remote->w[WIRE_QD32].iops, local->w[WIRE_QD32].iops);
	j->bw_fraction = fraction(remote->w[WIRE_SEQ].bw_bytes_per_s, local->w[WIRE_SEQ].bw_bytes_per_s);
	j->ceiling_mbps = ramdisk_wire_ceiling(local, remote, j->ceiling_from, sizeof(j->ceiling_from));
	j->link_bound = matches_link(j, remote);
	j->large = j->added_mean_ns >= (double)WIRE_ADDED_LARGE_NS || j->iops_fraction < WIRE_FRACTION_LOW ||
		   j->bw_fraction < WIRE_FRACTION_LOW || j->link_bound;
	char rtt[64] = "not measured";
	if (remote->rtt_ns)
		snprintf(rtt, sizeof(rtt), "%.1f us", (double)remote->rtt_ns / 1e3);
	char figures[400];
	snprintf(figures, sizeof(figures), "%.1f us added per 4 KiB read at QD1 (%.1f us p50, %.1f us p99; the round "
		 "trip to the target: %s), %.0f%% of local IOPS at QD32 (%.0f against %.0f), %.0f%% of local "
		 "bandwidth at 1 MiB (%.1f against %.1f MB/s)", j->added_mean_ns / 1e3, j->added_p50_ns / 1e3,
		 j->added_p99_ns / 1e3, rtt, 100 * j->iops_fraction, remote->w[WIRE_QD32].iops,
		 local->w[WIRE_QD32].iops, 100 * j->bw_fraction, remote->w[WIRE_SEQ].bw_bytes_per_s / 1e6,
		 local->w[WIRE_SEQ].bw_bytes_per_s / 1e6);
	/* with a ceiling the throughput loss is the link's: the round trip is
	 * named only for the QD1 latency it explains */
	bool rtt_explains = network_explains(j, local, remote) &&
			    (!j->link_bound || j->added_mean_ns >= (double)WIRE_ADDED_LARGE_NS);
	if (!j->large) {
		snprintf(j->sentence, sizeof(j->sentence), "the network and target stack cost little: %s", figures);
	} else if (rtt_explains || j->link_bound) {
		j->layer = "network";
		network_sentence(j, remote, rtt_explains, rtt, figures);
	} else {
		j->layer = "target stack";
		snprintf(j->sentence, sizeof(j->sentence), "the target stack (nvmet and the client's initiator): the "
			 "loss is more than the network's round trip explains: %s", figures);
	}
}

void ramdisk_wire_ceiling_json(struct json *j, const struct wire_judgement *jd)
{
	if (jd->ceiling_mbps > 0)
		json_double(j, "ceiling_mbps", jd->ceiling_mbps);
	else
		json_null(j, "ceiling_mbps");
	json_string(j, "ceiling_from", jd->ceiling_from);
	json_bool(j, "link_bound", jd->link_bound);
}

/* --ndelay: the delay's effect locally against its effect from the client.
 * REL_*: the effect relative to the figure at the disk's own delay. */
static const char *delay_word(double local, double remote, double rel_local, double rel_remote)
{
	if (fabs(rel_local) < WIRE_DELAY_NO_EFFECT && fabs(rel_remote) < WIRE_DELAY_NO_EFFECT)
		return "no effect";
	double ratio = local != 0 ? remote / local : INFINITY;
	if (ratio < 1 - WIRE_DELAY_PASS)
		return "hidden";
	return ratio > 1 + WIRE_DELAY_PASS ? "amplified" : "passed through";
}

/* The word in the sentence: how much of it the path hides. */
static const char *delay_phrase(const struct wire_delay_effect *e, double rel_remote)
{
	if (strcmp(e->word, "hidden") == 0)
		return fabs(rel_remote) < WIRE_DELAY_NO_EFFECT ? "hidden by the path" : "hidden in part by the path";
	return strcmp(e->word, "amplified") == 0 ? "amplified by the path" : e->word;
}

/* NS as microseconds: whole ones from 10 us, else one decimal; SIGN: with + or -. */
static void fmt_us(char *buf, size_t len, double ns, bool sign)
{
	double us = fabs(ns) < 50 ? 0 : ns / 1e3;
	if (fabs(us) >= 10)
		snprintf(buf, len, sign ? "%+.0f us" : "%.0f us", us);
	else
		snprintf(buf, len, sign ? "%+.1f us" : "%.1f us", us);
}

static double lost(double now, double base)
{
	return base > 0 ? 1 - now / base : 0;
}

/* The change in whole percent, as printed: a loss of 0.84 is -84 (never "-0"). */
static double pct(double lost)
{
	double v = -100 * lost;
	return fabs(v) < 0.5 ? 0 : v;
}

void ramdisk_wire_delay_judge(const struct wire_side *base_local, const struct wire_side *base_remote,
			      uint64_t base_ns, struct wire_delay_point *pt)
{
	double rel_l[WIRE_WORKLOADS], rel_r[WIRE_WORKLOADS];
	struct wire_delay_effect *e = pt->effect;
	const struct wire_lat *bl = base_local->w, *br = base_remote->w, *l = pt->local.w, *r = pt->remote.w;
	e[WIRE_QD1].local = l[WIRE_QD1].mean_ns - bl[WIRE_QD1].mean_ns;
	e[WIRE_QD1].remote = r[WIRE_QD1].mean_ns - br[WIRE_QD1].mean_ns;
	rel_l[WIRE_QD1] = bl[WIRE_QD1].mean_ns > 0 ? e[WIRE_QD1].local / bl[WIRE_QD1].mean_ns : 0;
	rel_r[WIRE_QD1] = br[WIRE_QD1].mean_ns > 0 ? e[WIRE_QD1].remote / br[WIRE_QD1].mean_ns : 0;
	rel_l[WIRE_QD32] = e[WIRE_QD32].local = lost(l[WIRE_QD32].iops, bl[WIRE_QD32].iops);
	rel_r[WIRE_QD32] = e[WIRE_QD32].remote = lost(r[WIRE_QD32].iops, br[WIRE_QD32].iops);
	rel_l[WIRE_SEQ] = e[WIRE_SEQ].local = lost(l[WIRE_SEQ].bw_bytes_per_s, bl[WIRE_SEQ].bw_bytes_per_s);
	rel_r[WIRE_SEQ] = e[WIRE_SEQ].remote = lost(r[WIRE_SEQ].bw_bytes_per_s, br[WIRE_SEQ].bw_bytes_per_s);
	for (int w = 0; w < WIRE_WORKLOADS; w++)
		e[w].word = delay_word(e[w].local, e[w].remote, rel_l[w], rel_r[w]);
	double d = (double)pt->ndelay_ns - (double)base_ns;
	char by[32], ql[32], qr[32];
	fmt_us(by, sizeof(by), fabs(d), false);
	fmt_us(ql, sizeof(ql), e[WIRE_QD1].local, true);
	fmt_us(qr, sizeof(qr), e[WIRE_QD1].remote, true);
	snprintf(pt->sentence, sizeof(pt->sentence),
		 "a back end %s by %s per command: QD1 %s locally, %s from the client (%s); QD32 IOPS %+.0f%% locally, "
		 "%+.0f%% from the client (%s); 1 MiB bandwidth %+.0f%% locally, %+.0f%% from the client (%s)",
		 d >= 0 ? "slower" : "faster", by, ql, qr, delay_phrase(&e[WIRE_QD1], rel_r[WIRE_QD1]),
		 pct(e[WIRE_QD32].local), pct(e[WIRE_QD32].remote), delay_phrase(&e[WIRE_QD32], rel_r[WIRE_QD32]),
		 pct(e[WIRE_SEQ].local), pct(e[WIRE_SEQ].remote), delay_phrase(&e[WIRE_SEQ], rel_r[WIRE_SEQ]));
}
