/* What the wire costs, judged (triage/ramdisk_export.h): pure. */
#include <stdio.h>
#include <string.h>

#include "triage/ramdisk_export.h"

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

void ramdisk_wire_judge(const struct wire_side *local, const struct wire_side *remote, struct wire_judgement *j)
{
	memset(j, 0, sizeof(*j));
	const struct wire_lat *l1 = &local->w[WIRE_QD1], *r1 = &remote->w[WIRE_QD1];
	j->added_mean_ns = r1->mean_ns - l1->mean_ns;
	j->added_p50_ns = (double)r1->p50_ns - (double)l1->p50_ns;
	j->added_p99_ns = (double)r1->p99_ns - (double)l1->p99_ns;
	j->iops_fraction = fraction(remote->w[WIRE_QD32].iops, local->w[WIRE_QD32].iops);
	j->bw_fraction = fraction(remote->w[WIRE_SEQ].bw_bytes_per_s, local->w[WIRE_SEQ].bw_bytes_per_s);
	j->large = j->added_mean_ns >= (double)WIRE_ADDED_LARGE_NS || j->iops_fraction < WIRE_FRACTION_LOW ||
		   j->bw_fraction < WIRE_FRACTION_LOW;
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
	if (!j->large) {
		snprintf(j->sentence, sizeof(j->sentence), "the network and target stack cost little: %s", figures);
	} else if (network_explains(j, local, remote)) {
		j->layer = "network";
		snprintf(j->sentence, sizeof(j->sentence), "the network: every I/O waits for the round trip to the "
			 "target (%s, %.0f%% of the latency added at QD1): %s", rtt,
			 j->added_mean_ns > 0 ? 100.0 * (double)remote->rtt_ns / j->added_mean_ns : 0.0, figures);
	} else {
		j->layer = "target stack";
		snprintf(j->sentence, sizeof(j->sentence), "the target stack (nvmet and the client's initiator): the "
			 "loss is more than the network's round trip explains: %s", figures);
	}
}
