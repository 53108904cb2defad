/* triage/pool/pool_evidence.h: what the pool itself says while it is tested.
 *
 * Two kinds of evidence, gathered around any pool workload (benchpool,
 * rwpool, doctor's pool step):
 *
 *  - settings and state, read BEFORE the workload: on ZFS `zpool get all
 *    POOL`, `zfs get -H -p all DATASET` (the dataset the user's data lives
 *    in: the pool's root dataset unless told otherwise) and `zpool status
 *    POOL`; on btrfs `btrfs filesystem usage -b MOUNT`. Judged by
 *    pool/pool_findings.h against the workload's I/O size; each finding
 *    carries its fix and evidence.
 *  - telemetry DURING the workload: the pool's members (pool/lookup.h)
 *    sampled from /proc/diskstats (disk/diskstats.h) every
 *    POOL_EVIDENCE_INTERVAL_MS, per-member totals (requests, bytes, busy
 *    fraction, its busiest interval, average wait) and the members that
 *    worked harder or slower than their vdev siblings (pool/member_load.h).
 *    On ZFS also `zpool iostat -v POOL 1` beside it (pool/zpool_watch.h):
 *    the pool's own per-device operations and bandwidth, kept in the
 *    document beside the kernel's figures; and on OpenZFS its latency
 *    histograms (`zpool iostat -w`, pool/zpool_hist.h) before and after,
 *    whose difference gives the workload's wait percentiles. When no member could be sampled
 *    from /proc/diskstats (a pool of files), the members are judged on it
 *    alone (member-share: the mirror side that serves fewer reads).
 *
 * A tool that is missing or output that cannot be parsed is said in the
 * part's error string (and logged under TAG), never turned into a finding.
 * A directory target has neither part. Never writes stdout.
 */
#ifndef IOTRIAGE_TRIAGE_POOL_EVIDENCE_H
#define IOTRIAGE_TRIAGE_POOL_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "disk/diskstats.h"
#include "output/json.h"
#include "pool/finding.h"
#include "pool/target.h"
#include "pool/zfs.h"
#include "pool/zpool_hist.h"
#include "pool/zpool_iostat.h"
#include "pool/zpool_watch.h"

#define POOL_EVIDENCE_INTERVAL_MS 500

struct pool_member_total {
	char name[256];      /* as the pool names it */
	char kname[32];      /* the kernel's name, as in /proc/diskstats */
	char vdev[64];
	bool rotating;       /* the device says it rotates (queue/rotational) */
	struct diskstat_delta total;
	double peak_busy;
};

struct pool_evidence {
	char tag[32];                   /* log prefix: "BENCHPOOL" */
	char pool[256];
	char dataset[512];              /* the dataset judged (ZFS) */
	uint64_t io_size;               /* the workload's I/O size it was judged against */
	bool settings_read;
	struct pool_findings settings;  /* settings and state */
	char settings_error[300];
	int ashift;                     /* the pool's ashift property (ZFS); -1 unknown, 0 zfs-fuse's auto */
	unsigned largest_sector;        /* the members' largest physical sector, bytes (ZFS) */
	char data_profile[16];          /* btrfs: the Data profile ("RAID1"), for the layout model */

	struct pool_layout layout;
	bool sampling, telemetry_read;
	struct diskstats_sampler sampler;
	struct pool_member_total *members;
	size_t nmembers;
	double seconds;
	struct pool_findings load;      /* member-busy, member-slow, member-share */
	char telemetry_error[300];

	bool hist_started, hist_read;   /* zpool iostat -w before and after (OpenZFS): the workload's latency */
	struct zpool_hist hist_before, hist;
	char hist_error[200];
	bool watching, iostat_read;     /* zpool iostat -v (ZFS) */
	struct zpool_watch watch;
	struct zpool_iostat iostat;     /* the devices' mean over the interval reports */
	char iostat_error[300];
};

/* Zeroes E. TAG is the log prefix. */
void pool_evidence_init(struct pool_evidence *e, const char *tag);

/* Reads and judges the settings and state of T (DATASET NULL: T's root
 * dataset) against IO_SIZE (0: recordsize not judged). Returns the number
 * of findings or -errno (the reason in E->settings_error, logged). */
int pool_evidence_settings(struct pool_evidence *e, const struct pool_target *t, const char *dataset,
			   uint64_t io_size);

/* Resolves T's members and starts sampling them (and zpool iostat on ZFS).
 * Returns 0 or -errno (the reason in E->telemetry_error, logged); the
 * workload runs either way. */
int pool_evidence_start(struct pool_evidence *e, const struct pool_target *t);
/* Stops sampling, fills the totals and judges them. Logs one line per
 * member and per finding. Returns the number of findings or -errno. */
int pool_evidence_stop(struct pool_evidence *e);

/* The member of E->members named NAME (or with that kernel name), or NULL. */
const struct pool_member_total *pool_evidence_member(const struct pool_evidence *e, const char *name);

/* Members "pool_settings" and "pool_telemetry" of the open object J. */
void pool_evidence_json(struct json *j, const struct pool_evidence *e);
/* One finding as an object of J (NULL key: an array element). */
void pool_finding_json(struct json *j, const char *key, const struct pool_finding *f);

void pool_evidence_release(struct pool_evidence *e);

#endif
