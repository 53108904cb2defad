/* doctor's pool-step judgement: when does the pool layer stand out? Figures
 * in bytes per second; the healthy ones are what this machine measured. */
#include "triage/doctor/doctor_judgement.h"
#include "tap.h"

#define MB 1e6
#define GB 1e9

int main(void)
{
	/* A healthy btrfs raid1 on loop devices with direct I/O over a host-cached
	 * virtual disk (the CI flake this test pins): members read at 21.8 GB/s
	 * raw, the pool at 2.1 GB/s (the file system's own ceiling on 2 CPUs),
	 * its RAM twin at 4.6 GB/s. Under a tenth of the members, but close to
	 * half of the twin: the pool path, not a fault. */
	ok(!doctor_pool_layer_stands_out(2.12 * GB, 4.63 * GB, 21.8 * GB),
	   "a pool at 46% of its twin and 9.7% of a member is not named");
	ok(!doctor_pool_layer_stands_out(2.07 * GB, 5.58 * GB, 20.0 * GB),
	   "nor at 37% of its twin, the lowest seen healthy");

	/* Real spinning disks: the pool far below RAM, level with its members. */
	ok(!doctor_pool_layer_stands_out(180 * MB, 4 * GB, 200 * MB),
	   "a pool of hard disks at 4.5% of its twin but 90% of a member is the media's pace, not the pool");

	/* The pool layer: members fast raw, the same layout fast on RAM, the pool
	 * on these disks crawling. */
	ok(doctor_pool_layer_stands_out(15 * MB, 1 * GB, 200 * MB),
	   "a pool at 1.5% of its twin and 7.5% of a member is named");
	ok(doctor_pool_layer_stands_out(100 * MB, 4 * GB, 3 * GB), "an NVMe pool at 2.5% of its twin and 3% of a member is named");

	/* Both conditions are needed. */
	ok(!doctor_pool_layer_stands_out(15 * MB, 60 * MB, 200 * MB), "slow against members but level with the twin: not named");
	ok(!doctor_pool_layer_stands_out(150 * MB, 4 * GB, 200 * MB), "slow against the twin but level with members: not named");

	/* Thresholds are strict: at exactly the limits nothing is named. */
	ok(!doctor_pool_layer_stands_out(DOCTOR_POOL_TO_TWIN * 1000, 1000, 1e9), "at exactly the twin limit: not named");
	ok(!doctor_pool_layer_stands_out(DOCTOR_POOL_TO_MEMBER * 1000, 1e9, 1000), "at exactly the member limit: not named");

	/* Missing figures never name the pool. */
	ok(!doctor_pool_layer_stands_out(15 * MB, 1 * GB, 0), "no member figure: not named");
	ok(!doctor_pool_layer_stands_out(15 * MB, 0, 200 * MB), "no twin figure: not named");
	ok(!doctor_pool_layer_stands_out(0, 1 * GB, 200 * MB), "no pool figure: not named");

	/* Against the layout (figures from bench/pool_layout.sh and doctor --lab
	 * on this machine). The healthy fractions per kind. */
	ok(doctor_layout_healthy(LAYOUT_MIRROR, false, true) == DOCTOR_LAYOUT_ZFS &&
	   doctor_layout_healthy(LAYOUT_MIRROR, false, false) == DOCTOR_LAYOUT_ZFS &&
	   doctor_layout_healthy(LAYOUT_RAIDZ, false, true) == DOCTOR_LAYOUT_ZFS &&
	   doctor_layout_healthy(LAYOUT_RAID1, true, true) == DOCTOR_LAYOUT_BTRFS,
	   "the healthy fraction is the implementation's: zfs, btrfs");
	/* A healthy zfs-fuse mirror of two members capped at 8.4 MB/s: one
	 * stream reads 10.4-11.2 MB/s of 10.5 expected (1.25 sides' worth),
	 * writes 7.9 of 8.4 (95%); its RAM twin reads at 120 MB/s. The lowest
	 * healthy read seen, 8.2 MB/s (78%), is not named either. */
	ok(!doctor_pool_below_layout(LAYOUT_MIRROR, false, true, 10.4 * MB, 10.5 * MB, 120 * MB),
	   "a healthy zfs mirror reading at 99% of its layout is not named");
	ok(!doctor_pool_below_layout(LAYOUT_MIRROR, false, true, 8.2 * MB, 10.5 * MB, 120 * MB),
	   "nor at 78%, its lowest healthy read");
	ok(!doctor_pool_below_layout(LAYOUT_MIRROR, false, false, 7.9 * MB, 8.4 * MB, 190 * MB),
	   "nor writing at 95%");
	/* The same mirror held to a third of its healthy read: named. */
	ok(doctor_pool_below_layout(LAYOUT_MIRROR, false, true, 10.4 / 3 * MB, 10.5 * MB, 120 * MB),
	   "a zfs mirror reading at a third of its healthy figure (33%) is named");
	/* raidz1 of 5 capped at 8.4 MB/s reads 37.2 of 42.0 expected (89%):
	 * not named; at a third of that, named. */
	ok(!doctor_pool_below_layout(LAYOUT_RAIDZ, false, true, 37.2 * MB, 42.0 * MB, 194 * MB),
	   "a healthy raidz reading at 89% of its layout is not named");
	ok(doctor_pool_below_layout(LAYOUT_RAIDZ, false, true, 37.2 / 3 * MB, 42.0 * MB, 194 * MB),
	   "a raidz reading at a third of its healthy figure (30%) is named");
	/* raidz1 of 5 capped at 8.4 MB/s: writes 32.4 of 33.0 expected healthy. */
	ok(!doctor_pool_below_layout(LAYOUT_RAIDZ, false, false, 32.4 * MB, 33.0 * MB, 194 * MB),
	   "a healthy raidz writing at 98% of its layout is not named");
	ok(!doctor_pool_below_layout(LAYOUT_RAIDZ, false, false, 0.75 * 33.0 * MB, 33.0 * MB, 194 * MB),
	   "nor at the 75% the lowest healthy run reached");
	ok(doctor_pool_below_layout(LAYOUT_RAIDZ, false, false, 10.3 * MB, 33.0 * MB, 194 * MB),
	   "a raidz writing at 31% of its layout (a third of healthy) is named");
	/* bench/doctor_layout.sh: doctor's workload on the same raidz. */
	ok(!doctor_pool_below_layout(LAYOUT_RAIDZ, false, false, 18.6 * MB, 30.9 * MB, 120 * MB),
	   "doctor's healthy raidz write at 60% (its lowest, under interference) is not named");
	ok(doctor_pool_below_layout(LAYOUT_RAIDZ, false, false, 10.9 * MB, 27.6 * MB, 120 * MB),
	   "its write held to a third of the members' rate, 39% of the layout, is named");
	/* btrfs reaches its model: a pool at half of it is named. */
	ok(!doctor_pool_below_layout(LAYOUT_RAID1, true, true, 8.3 * MB, 8.4 * MB, 2 * GB),
	   "a healthy btrfs raid1 at 99% of its layout is not named");
	ok(doctor_pool_below_layout(LAYOUT_RAID1, true, true, 2.8 * MB, 8.4 * MB, 2 * GB),
	   "a btrfs raid1 at a third of its layout is named");
	/* The twin gate: fast members over one backing store (the healthy lab). */
	ok(!doctor_pool_below_layout(LAYOUT_RAIDZ, false, true, 32.7 * MB, 228.1 * MB, 123 * MB),
	   "a healthy lab raidz at 14% of its layout but 27% of its twin is not named");
	ok(!doctor_pool_below_layout(LAYOUT_RAID1, true, true, 2.12 * GB, 21.8 * GB, 4.63 * GB),
	   "a healthy btrfs raid1 at 10% of its members but 46% of its twin is not named");
	ok(!doctor_pool_below_layout(LAYOUT_RAID1, true, true, 362 * MB, 1453 * MB, 2037 * MB),
	   "a healthy btrfs raid1 at 25% of its layout, under load, with an expectation 71% of its twin's is not named");
	ok(!doctor_pool_below_layout(LAYOUT_RAIDZ, false, false, 1 * MB, DOCTOR_LAYOUT_TO_TWIN * 100 * MB, 100 * MB),
	   "an expectation at exactly the twin limit: not judged");
	/* Strict limits, missing figures. */
	ok(!doctor_pool_below_layout(LAYOUT_RAID0, true, false, DOCTOR_LAYOUT_MARGIN * 1000, 1000, 1e9),
	   "at exactly the layout limit: not named");
	ok(!doctor_pool_below_layout(LAYOUT_RAID0, true, false, 100, 1000, 0), "no twin figure: not named");
	ok(!doctor_pool_below_layout(LAYOUT_RAID0, true, false, 100, 0, 1e9), "no expectation: not named");
	ok(!doctor_pool_below_layout(LAYOUT_RAID0, true, false, 0, 1000, 1e9), "no pool figure: not named");
	return tap_done();
}
