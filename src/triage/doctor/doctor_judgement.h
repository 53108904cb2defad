/* triage/doctor/doctor_judgement.h: the doctor's judgements that are pure
 * functions of measured figures, unit-tested on figures measured on real
 * pools (tests/unit/test_doctor_judgement.c). */
#ifndef IOTRIAGE_TRIAGE_DOCTOR_JUDGEMENT_H
#define IOTRIAGE_TRIAGE_DOCTOR_JUDGEMENT_H

#include <stdbool.h>

#include "pool/layout_model.h"

/* The pool step's judgement: the pool layer stands out only when the pool
 * on its disks reads under DOCTOR_POOL_TO_TWIN of the same pool on RAM AND
 * under DOCTOR_POOL_TO_MEMBER of what one of its members reads raw. Slower
 * than RAM alone is what every real disk is, and the disks themselves were
 * judged in step 1. MEMBER_READ <= 0 (not measured) never names the pool.
 * The twin margin is wide because the twin's path differs from the pool's
 * (buffered loop devices on shmem against the real members): a healthy
 * btrfs raid1 on this project's CI machine read at 37-55% of its twin. */
#define DOCTOR_POOL_TO_TWIN 0.2
#define DOCTOR_POOL_TO_MEMBER 0.1
bool doctor_pool_layer_stands_out(double pool_read, double twin_read, double member_read);

/* The pool step against its layout (pool/layout_model.h): the expectation
 * is computed from the members' raw read rates of step 1 (they stand in
 * for the write rates too: doctor never writes to a member). A healthy pool
 * does not reach its model; the fraction it reaches, per kind, measured
 * with bench/pool_layout.sh (members capped at 8 MiB/s by one blkio group,
 * 128 MiB dd write and read back; docs/results.md has the runs):
 *   ZFS (zfs-fuse), every kind  0.75 both ways: mirror read 93-111% of the
 *                           model's one-stream figure (0.49-0.55 of the sum
 *                           before the model knew one stream keeps 1.25 sides
 *                           busy), raidz read 88-99% of n x the member,
 *                           writes 70-109%
 *   btrfs (every profile)   1.0 both ways (~100% measured)
 * doctor's own workload (bench/doctor_layout.sh: the same raidz, doctor
 * POOL --quick) wrote at 92-102% of its expectation healthy (60% once,
 * with another test running), and at 31-39% with every member's writes
 * capped at a third of their rate; it read at 93-99% of the raidz's
 * n x member expectation in the same runs (named: healthy 0 of 2, forced 2
 * of 2, `bash bench/doctor_layout.sh 2`).
 * The pool layer stands out against its layout when a figure is under
 * DOCTOR_LAYOUT_MARGIN of the healthy fraction (raidz: 45%; a pool held to
 * a third of what its members give is named, a dip to 60% is not), and
 * only where the members, not the software path, set the ceiling: the
 * expectation under DOCTOR_LAYOUT_TO_TWIN of the same pool on RAM. Members
 * that read fast raw, each alone, set an expectation that a file system on
 * two CPUs, or a pool over one shared backing store, cannot reach:
 * doctor --lab --fault none --quick (a healthy zfs-fuse raidz of 5 loop
 * devices on one virtual disk) wrote at 26% and read at 14% of its layout
 * (expectation 228 MB/s, twin 194 and 123 MB/s); a healthy btrfs raid1 on
 * loop devices under a load average of 10 read at 25% of its layout
 * (expectation 1453 MB/s, twin 2037 MB/s). There the twin rule above
 * judges. A figure, expectation or twin figure not measured (<= 0) never
 * names the pool. */
#define DOCTOR_LAYOUT_ZFS 0.75
#define DOCTOR_LAYOUT_BTRFS 1.0
#define DOCTOR_LAYOUT_MARGIN 0.6
#define DOCTOR_LAYOUT_TO_TWIN 0.5

/* The fraction of its expectation a healthy pool of KIND reaches (BTRFS:
 * a btrfs profile, else a ZFS vdev kind). */
double doctor_layout_healthy(enum layout_kind kind, bool btrfs, bool is_read);
bool doctor_pool_below_layout(enum layout_kind kind, bool btrfs, bool is_read, double figure, double expected,
			      double twin);

#endif
