/* triage/ramdisk/ramdisk_export.h: step 3 across the wire, written once over the
 * export-transport table (ramdisk/export.h: NVMe/TCP through nvmet, iSCSI
 * through LIO). The server side exports the RAM disks iotriage made and
 * removes the export (triage/ramdisk/ramdisk_export.c); the client side (run on
 * the client host: through `ssh HOST` in a deployment, `ip netns exec NS`
 * in the VM test) connects, finds the export's first unit by its name,
 * reads it and disconnects, also when interrupted
 * (triage/ramdisk/ramdisk_client.c). The comparison runs the same three workloads
 * (4 KiB random read at QD1 and QD32, 1 MiB sequential read) locally and
 * through the client, costs the difference and names the layer when the
 * loss is large (triage/ramdisk/ramdisk_wire.c, ramdisk_wire_judge.c). Every step
 * is logged; nothing is printed.
 *
 * Files call down this list only: ramdisk_wire_delay.c -> ramdisk_wire.c
 * -> ramdisk_export.c; ramdisk_client.c -> ramdisk_wire.c. */
#ifndef IOTRIAGE_TRIAGE_RAMDISK_EXPORT_H
#define IOTRIAGE_TRIAGE_RAMDISK_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "net/link_rate.h"
#include "ramdisk/export.h"
#include "ramdisk/ramdisk.h"

struct export_request {
	const struct export_transport *transport;
	const char *addr_arg;    /* "ADDR[:PORT]" */
	const char *client;      /* the one client allowed (host NQN, initiator IQN), or NULL */
	bool allow_any_host;     /* explicit: any host that reaches the port */
	const char *run_id;
};

/* Exports every live RAM disk (and nothing else) over REQ->transport.
 * Refuses (nothing made) without a client named or allowed, with a client
 * name the transport refuses, without RAM disks, with an address that is
 * not local (or a port taken, where the transport can tell), while an
 * export of any transport exists, and (-ENODEV) when the kernel's side is
 * missing. 0 with *RET, or -errno with REASON for the user. */
int ramdisk_export_start(const struct export_request *req, struct ramdisk_export *ret, char *reason, size_t len);

/* Refuses (-EEXIST with REASON naming it) while an export of any transport
 * exists; the RAM disks to export into DEVICES (-ENOENT when none). */
int ramdisk_export_refuse_second(char *reason, size_t len);
int ramdisk_export_devices(char devices[][64], size_t *n, char *reason, size_t len);

/* Removes the export (any transport), or what a killed run left of one.
 * 1 when there was one, 0 when none, -errno (REASON). */
int ramdisk_export_stop(char *reason, size_t len);

/* The complete export now, of any transport: 1 with *RET, 0 when none. */
int ramdisk_export_current(struct ramdisk_export *ret);

/* The three workloads of the comparison, on each side: 4 KiB random read
 * at QD1 (latency: psync), at QD32 (IOPS) and 1 MiB sequential read at QD8
 * (bandwidth, CrystalDiskMark's SEQ1M Q8T1), the deeper two on io_uring or
 * libaio (engine_select's "auto"). */
enum wire_workload { WIRE_QD1, WIRE_QD32, WIRE_SEQ, WIRE_WORKLOADS };
extern const char *const wire_workload_names[WIRE_WORKLOADS]; /* "qd1", "qd32", "seq1m" */
extern const char *const wire_workload_titles[WIRE_WORKLOADS];

/* One workload's figure. */
struct wire_lat {
	bool measured;
	double mean_ns, iops, bw_bytes_per_s;
	uint64_t p50_ns, p99_ns, ios;
	char device[64];
};

/* One side's three figures; on the client also the network's round trip
 * to the target's port (the fastest of a few TCP connects), 0 when not
 * measured. LINK: the port the path leaves by on that side (the client's
 * route to the target; the port holding the target's address), its speed
 * and its root qdisc's rate. */
struct wire_side {
	struct wire_lat w[WIRE_WORKLOADS];
	uint64_t rtt_ns;
	struct link_rate link;
};

/* Reads PATH with each workload for RUNTIME_NS (O_DIRECT). FILL writes
 * random data over it first. 0 or -errno with WHY. */
int ramdisk_wire_measure(const char *path, bool fill, uint64_t runtime_ns, struct wire_side *ret, char *why,
			 size_t len);

/* The client step over transport T, on this host: the initiator's side
 * ready, what a killed run left detached, the round trip to ADDR_ARG's
 * port and the port under the path, then attach to NAME there (as CLIENT,
 * NULL: the host's own identity), find the first unit's device, measure,
 * detach (also on a signal). 0 or -errno with WHY; nothing of NAME is left
 * attached either way. */
int ramdisk_client(const struct export_transport *t, const char *addr_arg, const char *name, const char *client,
		   uint64_t runtime_ns, struct wire_side *ret, char *why, size_t len);

/* Pure: the client's result lines (one "wire workload=NAME ..." line a
 * workload and "wire rtt_ns=N") and their parse. */
void ramdisk_wire_format(const struct wire_side *s, char *buf, size_t len);
int ramdisk_wire_parse(const char *text, struct wire_side *s);

/* The port under the path on this side: for the client (TO_PEER) the one
 * its route to ADDR leaves by, for the target the one holding ADDR. Logged;
 * RET->found false when it cannot be told. */
void ramdisk_wire_link(const char *addr, bool to_peer, struct link_rate *ret);

/* The round trip to ADDR:PORT, the fastest of 5 TCP connects to the
 * target's own port (the targets accept and drop them); 0, logged, when
 * it cannot be measured. */
uint64_t ramdisk_wire_rtt(const char *addr, unsigned port);

/* The comparison: local on the server's first RAM disk, then the client
 * step run through VIA (an argv prefix: {"ssh","HOST"} or
 * {"ip","netns","exec","NS"}) as SELF ramdisk client ... Requires a
 * complete export. 0 with LOCAL and REMOTE, or -errno with WHY. */
int ramdisk_wire_compare(const char *const *via, size_t via_n, const char *self, uint64_t runtime_ns,
			 struct wire_side *local, struct wire_side *remote, char *why, size_t len);

/* What the wire costs, judged (pure). The loss is large when the QD1 read
 * gains WIRE_ADDED_LARGE_NS or more per I/O, or the client reaches under
 * WIRE_FRACTION_LOW of local IOPS at QD32 or of local bandwidth at 1 MiB.
 * Then the layer is the network when its round trip is at least
 * WIRE_RTT_SHARE of the QD1 latency added (or, for a throughput loss
 * alone, when QD32 reached WIRE_RTT_SHARE of what 32 I/Os in flight allow
 * over that round trip), else the target stack. The 1 MiB bandwidth
 * matching the path's ceiling (WIRE_LINK_MATCH) is a large loss too, and
 * the network's: "a bandwidth ceiling that matches the link". */
#define WIRE_ADDED_LARGE_NS 200000ULL
/* A RAM disk read locally runs at memory speed (hundreds of thousands of
 * IOPS on one core at QD32); one NVMe/TCP queue reaches a fraction of that
 * on a sound path (17-37% in the test VM, where initiator and target share
 * one CPU), so only under a tenth is called large. */
#define WIRE_FRACTION_LOW 0.10
#define WIRE_RTT_SHARE 0.5
/* The loss at 1 MiB is the link's when the client's bandwidth is within
 * WIRE_LINK_MATCH of the path's ceiling (ramdisk_wire_ceiling) and under
 * 1 - WIRE_LINK_MATCH of local: TCP/IP and the transport's headers take
 * 3-6% of a link, so a path that carries reads as fast as it can lands
 * within a few percent under its rate. */
#define WIRE_LINK_MATCH 0.15
struct wire_judgement {
	double added_mean_ns, added_p50_ns, added_p99_ns, iops_fraction, bw_fraction;
	double ceiling_mbps;     /* the path's ceiling, 0 when unknown */
	char ceiling_from[200];  /* which port or qdisc sets it, or why it is unknown */
	bool link_bound;         /* the 1 MiB bandwidth matches the ceiling */
	bool large;
	const char *layer;       /* "network", "target stack", or NULL */
	char sentence[1000];     /* the layer and its figures, or "the network and target stack cost little: ..." */
};
void ramdisk_wire_judge(const struct wire_side *local, const struct wire_side *remote, struct wire_judgement *ret);

/* The path's ceiling for reads, which flow from the target (LOCAL) to the
 * client (REMOTE): the slowest known of the client's port speed, the
 * target's port speed and the rate the target's root qdisc shapes its
 * sending to (the client's qdisc shapes only its requests). Mb/s, or 0
 * when none is known; FROM says which, or why none is known (pure). */
double ramdisk_wire_ceiling(const struct wire_side *local, const struct wire_side *remote, char *from, size_t len);

/* ramdisk wire --ndelay (triage/ramdisk/ramdisk_wire_delay.c): after the
 * comparison at the RAM disk's own delay, the back end is set to each
 * per-command delay in turn (ramdisk_set_ndelay: scsi_debug alone) and the
 * comparison runs again; the recorded delay is restored at the end, also
 * on failure and Ctrl-C. Each delay is judged per workload: what the delay
 * costs locally against what it costs from the client (pure,
 * ramdisk_wire_delay_judge). QD1: the mean latency it adds (ns); QD32 IOPS
 * and 1 MiB bandwidth: the fraction it loses. The client's effect within
 * WIRE_DELAY_PASS of local's is "passed through"; under that "hidden" (the
 * path's own limit masks the slow back end: its queue depth over its round
 * trip, or its bandwidth, already binds), over it "amplified". A workload
 * the delay costs under WIRE_DELAY_NO_EFFECT on both sides (of the QD1
 * latency at the disk's own delay, or of IOPS or bandwidth) is "no effect":
 * run-to-run noise of a RAM disk is a few percent. */
#define WIRE_MAX_DELAYS 8
#define WIRE_DELAY_PASS 0.25
#define WIRE_DELAY_NO_EFFECT 0.05

struct wire_delay_effect {
	double local, remote; /* QD1: ns added; QD32 and 1 MiB: the fraction lost (0.84: -84%) */
	const char *word;     /* "passed through", "hidden", "amplified" or "no effect" */
};

struct wire_delay_point {
	uint64_t ndelay_ns;
	struct wire_side local, remote;
	struct wire_delay_effect effect[WIRE_WORKLOADS];
	char sentence[600]; /* "a back end slower by 2000 us per command: QD1 +2001 us locally, ..." */
};

/* Pure: POINT's effects and sentence against BASE_LOCAL and BASE_REMOTE,
 * measured at the disk's own delay BASE_NS. */
void ramdisk_wire_delay_judge(const struct wire_side *base_local, const struct wire_side *base_remote,
			      uint64_t base_ns, struct wire_delay_point *point);

struct wire_delay_run {
	char backend[16], device[64];
	uint64_t recorded_ns; /* the disk's own delay: the comparison's base, restored at the end */
	bool changed, restored;
	size_t n;             /* delays measured */
	struct wire_delay_point p[WIRE_MAX_DELAYS];
};

/* ramdisk_wire_compare at the exported disk's own delay (LOCAL, REMOTE),
 * then at each of NDELAYS (N up to WIRE_MAX_DELAYS) into RET, then the
 * recorded delay restored. Refused up front (nothing changed, nothing
 * measured: -EOPNOTSUPP or -EPERM with WHY naming the backend and the
 * way) when the backend cannot change its delay at runtime. 0, or -errno
 * with WHY (a failed restore too); the delays measured stay in RET. */
int ramdisk_wire_delays(const char *const *via, size_t via_n, const char *self, uint64_t runtime_ns,
			const uint64_t *ndelays, size_t n, struct wire_side *local, struct wire_side *remote,
			struct wire_delay_run *ret, char *why, size_t len);

/* ramdisk wire's whole procedure: ramdisk_wire_compare (or, with N delays,
 * ramdisk_wire_delays), and the pair judged when the client's 1 MiB read
 * was measured (JUDGED true). 0, or -errno with WHY; what was measured
 * stays in RET either way. */
struct wire_outcome {
	struct wire_side local, remote;
	bool judged;
	struct wire_judgement judgement;
	bool delays;
	struct wire_delay_run run;
};
int ramdisk_wire_pair(const char *const *via, size_t via_n, const char *self, uint64_t runtime_ns,
		      const uint64_t *ndelays, size_t n, struct wire_outcome *ret, char *why, size_t len);

/* The judgement's ceiling members: ceiling_mbps (null when unknown),
 * ceiling_from, link_bound. */
struct json;
void ramdisk_wire_ceiling_json(struct json *j, const struct wire_judgement *jd);

#endif
