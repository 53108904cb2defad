/* doctor's pool-step judgement: when does the pool layer stand out? Figures
 * in bytes per second; the healthy ones are what this machine measured. */
#include "triage/doctor_judgement.h"
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
	return tap_done();
}
