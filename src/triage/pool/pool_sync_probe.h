/* triage/pool/pool_sync_probe.h: doctor's sync-write probe of a ZFS pool with a
 * log vdev (step 4 of the method).
 *
 * A pool's log (SLOG) only ever serves sync writes, which doctor's main
 * workload does not make. So where the pool has one, a short probe makes
 * them: O_DSYNC writes of 16 KiB into a temporary area (pool/areas: a
 * tagged dataset, removed after) for POOL_SYNC_PROBE_SECONDS (a transaction
 * group's sync falls inside, so the data vdevs write too), while `zpool
 * iostat -v -l` watches (pool/zpool_watch); pool/slow_log judges the log
 * against the data vdevs.
 *
 * The same for a special vdev, which holds the pool's metadata: small files
 * created for POOL_SYNC_PROBE_SECONDS (each a dnode and a directory entry),
 * the file system synced inside the watch, the special vdev's writes judged
 * against the data vdevs' ("slow-special"). Logs its steps ("DOCTOR: ...");
 * never prints.
 */
#ifndef IOTRIAGE_TRIAGE_POOL_SYNC_PROBE_H
#define IOTRIAGE_TRIAGE_POOL_SYNC_PROBE_H

#include <stddef.h>

#include "pool/finding.h"
#include "pool/target.h"
#include "pool/zfs.h"

#define POOL_SYNC_PROBE_SECONDS 6
#define POOL_SYNC_PROBE_MAX_BYTES (64ULL << 20)
#define POOL_SYNC_PROBE_BLOCK 16384
#define POOL_META_PROBE_FILES 20000
#define POOL_META_PROBE_FILE_BYTES 2048

/* Whether L has a log vdev (the probe has something to judge). */
bool pool_has_log(const struct pool_layout *l);

/* Whether L has a special vdev. */
bool pool_has_special(const struct pool_layout *l);

/* Probes T (layout L) as above, adding a "slow-log" finding to FINDINGS
 * when the log is the slower; SUMMARY gets the probe's figures or why it
 * could not judge. Returns 1 (slow log), 0 (the log keeps up), or -errno
 * (not judged: no log, not ZFS, zpool iostat without -l (zfs-fuse), no
 * writes seen, interrupted). */
int pool_sync_probe(const struct pool_target *t, const struct pool_layout *l, const char *run_id,
		    struct pool_findings *findings, char *summary, size_t len);

/* The metadata probe: a "slow-special" finding to FINDINGS when the special
 * vdev is the slower; SUMMARY as above. Returns 1, 0 or -errno likewise. */
int pool_special_probe(const struct pool_target *t, const struct pool_layout *l, const char *run_id,
		       struct pool_findings *findings, char *summary, size_t len);

#endif
