/* triage/pool/benchpool.h: step 4 of the method, the pool measured the way an
 * application sees it (file system, record size, compression, write path).
 *
 * benchpool_run() resolves the pool (pool/target), removes areas a dead
 * run left, checks the free space, makes the temporary areas (pool/areas:
 * on ZFS a 1M-record dataset, and a 4K-record one for the tests with a
 * random pass, both with primarycache=metadata), runs the selected engines
 * (poolbench/) in order, captures the pool's status and removes the areas,
 * on success, failure and interrupt alike. Along the way it writes the
 * honesty notes: the cache note (a test size under twice the cache that can
 * hold it measures the cache), whether perf is usable, and what writing
 * zeros on a compressing area did to dd's figure. Before the tests it
 * reads the pool's settings and state, judged against the 1 MiB sequential
 * pass (triage/pool/pool_evidence.h: the root dataset's recordsize, dedup, sync,
 * capacity, scans, vdev states; btrfs device sizes), and samples the
 * members' /proc/diskstats while the tests run.
 *
 * Every step is logged ("BENCHPOOL (POOL): ..."); nothing is written to
 * stdout. The result is rendered by cmd/cmd_benchpool.c and stored as the
 * JSON members benchpool_result_json() writes. */
#ifndef IOTRIAGE_TRIAGE_BENCHPOOL_H
#define IOTRIAGE_TRIAGE_BENCHPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"
#include "bench/pattern.h"
#include "basic/progress.h"
#include "output/json.h"
#include "pool/scratch.h"
#include "pool/target.h"
#include "poolbench/poolbench.h"
#include "triage/pool/benchpool_reading.h"
#include "triage/pool/ceph_step.h"
#include "triage/pool/pool_evidence.h"

struct benchpool_settings {
	unsigned tests;            /* a mask of 1 << enum pb_test */
	const char *fstype;        /* "zfs", "btrfs", "ceph", "dir", or NULL to detect */
	unsigned runtime_s;        /* a cap on each fio and built-in pass */
	enum data_pattern pattern;
	struct progress *progress; /* told each test as it starts (test N of M); NULL for none */
	bool zvol;                 /* test a zvol of SIZE (triage/pool/benchpool_zvol.h), not datasets */
	const char *volblocksize;  /* its volblocksize ("16K"); NULL for the default */
	bool skip_osds;            /* on Ceph: no OSD step after the tests (doctor runs its own) */
};

struct benchpool_result {
	struct pool_target target;
	struct benchpool_settings set;
	uint64_t size;
	struct scratch areas[2];
	size_t nareas;
	struct pb_context ctx;
	char compression[32];
	struct pb_outcome outcomes[PB_NTESTS];
	size_t noutcomes;
	struct strbuf cache_note, perf_note, status, zeros_note;
	bool perf_usable;
	uint64_t cache_bytes;
	size_t stale_removed;
	size_t ran, failed;        /* outcomes that ran, and that failed */
	bool none_ran;             /* set up, not interrupted, yet no test could run (logged) */
	struct pool_evidence evidence; /* settings before the tests, member telemetry during them */
	struct benchpool_reading reading; /* each random pass against the layout */
	unsigned zvol_volblocksize;    /* --zvol: its volblocksize and the bytes written before the tests */
	uint64_t zvol_filled_bytes;
	struct ceph_state ceph;    /* on Ceph: the cluster's health and the pool's settings (ceph.read) */
	struct ceph_step osds;     /* on Ceph: the OSDs benched after the tests (triage/pool/ceph_step.h) */
	bool have_osds;
};

/* Runs benchpool on ID (a ZFS pool name or GUID, a btrfs label or UUID, a
 * Ceph pool (an RBD image of SIZE, fio's rbd engine), a CephFS mount or a
 * directory) with SIZE bytes per test, the areas named after RUN_ID.
 * *RET is initialized here; release it with benchpool_result_release().
 * Returns 0 once the tests were run (see RET's counts for how they went),
 * or -errno when the pool could not be resolved or prepared (logged). */
int benchpool_run(const char *id, const struct benchpool_settings *set, uint64_t size, const char *run_id,
		  struct benchpool_result *ret);
void benchpool_result_release(struct benchpool_result *b);

/* The result as members of the open JSON object J: operation, pool,
 * fstype, mountpoint, sizes, tests, compression, notes, areas, results
 * (one object per outcome, with its random pass's "random_reading"), pool_status, pool_settings, pool_telemetry;
 * on Ceph "ceph" (health, OSDs, the pool's size, min_size, pg_num, crush rule)
 * and "ceph_osds" (triage/pool/ceph_step.h: each OSD benched, the slow one, the
 * cluster's findings). */
void benchpool_result_json(struct json *j, const struct benchpool_result *b);

#endif
