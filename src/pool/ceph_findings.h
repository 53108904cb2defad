/* pool/ceph_findings.h: a Ceph cluster's state and a pool's settings as
 * findings with their fix and evidence (pool/finding.h). Pure: judged on
 * parsed output (tests/data/ceph_health_detail_*, ceph_status_*, captured
 * from the test cluster healthy, with an OSD down, and recovering after an
 * OSD was marked out).
 *
 *   each health check  `ceph health detail`'s checks (HEALTH_WARN/ERR): its
 *                      code lowercased with '-' ("osd-down", "pg-degraded",
 *                      "slow-ops", "osd-nearfull"), its summary as the text,
 *                      its first detail lines as the evidence, a fix per
 *                      known check (ceph health detail otherwise)
 *   recovery           PGs recovering or backfilling (ceph status's pgmap):
 *                      recovery traffic competes with the clients'
 *   degraded,          objects degraded or misplaced when no health check
 *   misplaced          says so already
 *   size-1             the pool keeps one copy (data safety)
 *   min-size-1         it accepts writes with one copy left (data safety)
 *   too-few-pgs        fewer PGs than OSDs in: some OSDs never lead its I/O
 *
 * ceph_finding_slows() tells the findings that explain low figures (an OSD
 * down, full or near full, PGs degraded, inactive or recovering, slow ops,
 * too few PGs) from those that are about safety or are notes. */
#ifndef IOTRIAGE_POOL_CEPH_FINDINGS_H
#define IOTRIAGE_POOL_CEPH_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pool/ceph.h"
#include "pool/finding.h"

#define CEPH_CHECKS_MAX 32

struct ceph_health_check {
	char code[48];          /* "OSD_DOWN" */
	char severity[16];      /* "HEALTH_WARN", "HEALTH_ERR" */
	char summary[256];
	char detail[512];       /* the first detail messages, "; "-joined */
	bool muted;
};

struct ceph_health {
	char status[16];        /* HEALTH_OK, HEALTH_WARN, HEALTH_ERR */
	struct ceph_health_check checks[CEPH_CHECKS_MAX];
	size_t nchecks;
};

/* What `ceph status` says of the PGs. */
struct ceph_pgmap {
	unsigned pgs, pgs_recovering, pgs_backfilling, pgs_waiting, pgs_not_clean;
	char states[256];                   /* the states other than active+clean, with counts */
	uint64_t degraded, degraded_total, misplaced, misplaced_total;
	double recovering_bytes_per_s;
};

/* `ceph health detail`. Returns 0 or -EINVAL. */
int ceph_parse_health_detail(const char *json, struct ceph_health *ret);
/* `ceph status`'s pgmap. Returns 0 or -EINVAL. */
int ceph_parse_pgmap(const char *json, struct ceph_pgmap *ret);

struct ceph_findings_input {
	const char *pool;
	const struct ceph_health *health;          /* NULL: not read */
	const struct ceph_pgmap *pgmap;            /* NULL */
	const struct ceph_pool_settings *settings; /* NULL */
	int osds_in;                               /* -1: unknown */
};

/* Appends the findings to OUT. */
void ceph_findings_judge(const struct ceph_findings_input *in, struct pool_findings *out);
/* Whether F explains low figures. */
bool ceph_finding_slows(const struct pool_finding *f);

#endif
