/* triage/pool/ceph_step.h: the Ceph step of the method: which OSD of a pool is
 * slower than its peers, on which device and host, and which cluster state
 * explains low figures. Used by benchpool and doctor on a Ceph pool.
 *
 *   1. the cluster's state: ceph health detail, ceph status (PGs, OSDs in),
 *      the pool's settings; judged by pool/ceph_findings.h
 *   2. the pool's OSDs (pool/ceph_osd.h: pg ls-by-pool, osd tree, osd
 *      metadata): each one's device and host
 *   3. each OSD that is up written CEPH_STEP_ROUNDS times with `ceph tell
 *      osd.N bench` (CEPH_STEP_BENCH_BYTES in CEPH_STEP_BENCH_BLOCK writes),
 *      round by round so a passing load falls on all of them; its rate the
 *      best of its benches; judged against its peers with media/outlier.h
 *      (median and MAD, the peers its device class when there are three);
 *      an OSD out of line benched CEPH_STEP_CONFIRM times more and slow
 *      only when every bench was out of line (ceph_step_params: a bench runs
 *      through the OSD's software and its host's scheduler, and is noisier
 *      than a raw read: the bounds are wider than a disk's)
 *   4. `ceph osd perf` sampled after each round and, when an OSD was out of
 *      line, for CEPH_STEP_PERF_WAIT_S after the last bench (the mgr's view
 *      lags a stats period): each OSD's highest commit latency under its
 *      bench, the evidence beside the rate
 *
 * A slow OSD is the finding "osd-slow", one whose bench never finished is
 * "osd-no-answer", each with its device and host; they join the cluster's
 * findings. Logged under the caller's tag; nothing on stdout. */
#ifndef IOTRIAGE_TRIAGE_CEPH_STEP_H
#define IOTRIAGE_TRIAGE_CEPH_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"
#include "media/outlier.h"
#include "output/json.h"
#include "pool/ceph_findings.h"
#include "pool/ceph_osd.h"

#define CEPH_STEP_BENCH_BYTES (32ULL << 20)
#define CEPH_STEP_BENCH_BLOCK (4ULL << 20)
#define CEPH_STEP_BENCH_TIMEOUT_S 60
#define CEPH_STEP_ROUNDS 2
#define CEPH_STEP_CONFIRM 2
#define CEPH_STEP_PERF_WAIT_S 6

/* Below 60% of the peers' median and 3.5 robust deviations under it, or at
 * 40% whatever the spread. Measured on the test cluster (three OSDs on loop
 * devices over files): one OSD's 64 MiB benches ranged 0.79-1.07 GB/s, the
 * three OSDs' 0.79-1.7 GB/s; 32 MiB benches right after a fio run 0.29-0.77
 * GB/s (one OSD at 38% of another); an OSD held to 20 MiB/s by a blkio
 * cgroup benched at 20.7 MB/s, 2-3% of its peers' median. */
extern const struct outlier_params ceph_step_params;

enum ceph_osd_verdict {
	CEPH_OSD_OK,
	CEPH_OSD_SLOW,          /* out of line in every bench */
	CEPH_OSD_UNCONFIRMED,   /* out of line once, not when benched again */
	CEPH_OSD_NO_ANSWER,     /* no bench finished within the time limit */
	CEPH_OSD_FAILED,        /* the bench failed otherwise (error kept) */
	CEPH_OSD_DOWN,          /* down: not benched */
	CEPH_OSD_NOT_JUDGED,    /* too few peers measured, or interrupted */
};

struct ceph_osd_result {
	struct ceph_osd osd;
	double bench[CEPH_STEP_ROUNDS + CEPH_STEP_CONFIRM]; /* bytes per second of each bench, 0: failed */
	unsigned nbench, out_of_line;
	double rate;            /* its best bench of the first rounds, bytes per second */
	struct outlier_finding peers;
	double commit_ms, apply_ms; /* the highest ceph osd perf showed; -1: never listed */
	enum ceph_osd_verdict verdict;
	char error[200];
};

struct ceph_step {
	char pool[CEPH_NAME_MAX];
	char tag[16];
	bool ran;               /* the OSDs were listed and benched */
	char error[300];        /* why not */
	struct ceph_osd_result *osds;
	size_t nosds;
	int slow;               /* the first OSD judged slow or not answering, -1 */
	struct ceph_health health;
	bool health_read;
	struct ceph_pgmap pgmap;
	bool pgmap_read;
	struct ceph_pool_settings settings;
	bool settings_read;
	int osds_in;
	struct pool_findings findings; /* the cluster's state, the pool's settings, the slow OSDs */
	double seconds;
};

/* Runs the step on Ceph pool POOL, logging under TAG ("BENCHPOOL",
 * "DOCTOR"). *RET is initialized here. Returns 0 once the OSDs were
 * benched, or -errno with RET->error (the findings of the cluster's state
 * are kept either way). */
int ceph_step_run(const char *pool, const char *tag, struct ceph_step *ret);
void ceph_step_release(struct ceph_step *s);

/* "osd.N (DEVICE on host HOST)" for OSD I. */
void ceph_step_osd_label(const struct ceph_step *s, size_t i, char *buf, size_t len);
/* OSD I's bench judged, in a sentence with its evidence (rate, share of
 * the peers' median, benches out of line, ceph osd perf latency). */
void ceph_step_osd_sentence(const struct ceph_step *s, size_t i, char *buf, size_t len);
/* The cluster-state findings that explain low figures (not the OSDs'),
 * "; "-joined into EV with their fixes into FIX; returns how many. */
size_t ceph_step_state_slows(const struct ceph_step *s, struct strbuf *ev, struct strbuf *fix);
/* The word for V: "ok", "slow", "not confirmed", "no answer", "failed", "down", "not judged". */
const char *ceph_osd_verdict_word(enum ceph_osd_verdict v);

/* The document's "ceph_osds" object: the pool, the bench's size, each OSD
 * (device, host, class, up/in, benches, rate, share of the peers' median,
 * perf latency, verdict), the cluster's health checks and PG states, and
 * the findings. */
void ceph_step_json(struct json *j, const struct ceph_step *s);

#endif
