/* pool/random_layout.h: what a pool's layout lets small random reads reach,
 * and whether a measured random pass was held back by it.
 *
 * A random read of one record costs each member it touches one I/O. How
 * many members a record touches depends on the vdev and on how many sectors
 * the record fills (ZFS never splits a sector; SECTOR is 1 << ashift):
 *
 *   single disk, mirror  1: any one side holds the whole record
 *   raidzP of n          min(ceil(record / sector), n - P): a record's data
 *                        sectors go to consecutive data columns, so a 4 KiB
 *                        record on 512-byte sectors is spread over up to 8
 *                        members, on 4 KiB sectors it sits on one (and costs
 *                        a parity sector per record, a mirror's space)
 *   dRAID P:Dd           min(ceil(record / sector), D), as raidz
 *
 * so a vdev of n members that each serve C reads per second gives about
 * n x C / touched random reads per second, and the pool the sum of its data
 * vdevs. That is why the rule of thumb says a raidz vdev delivers about one
 * member's random IOPS: with records wider than its data columns every read
 * keeps all of them busy.
 *
 * C is the reads each member completed during the pass divided by the time
 * it was busy (the kernel's io_ticks): the rate it sustains when loaded. The
 * pass is disk-bound when the data members were busy at least half of it
 * (the rest of their time the engine's threads and the CPU kept them
 * waiting); then the layout is the limit when its ceiling is well under what
 * the same members give when every read touches one of them (mirrors of the
 * same disks) and the members did the reads per pool read the layout says.
 * Members that did many more were busy with other work (a resilver, a
 * scrub): said as such, and the layout is not judged. Pure: no I/O.
 */
#ifndef IOTRIAGE_POOL_RANDOM_LAYOUT_H
#define IOTRIAGE_POOL_RANDOM_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pool/zfs.h"

/* The data members' median busy fraction from which a pass counts as disk-bound. */
#define RANDOM_DISK_BOUND_BUSY 0.50
/* A layout is the limit when it gives at most this share of one-member reads... */
#define RANDOM_LAYOUT_LIMIT_SHARE 0.60
/* ...and the members did within this factor of the reads per pool read the layout says. */
#define RANDOM_MODEL_TOLERANCE 1.35

/* What one member did during the pass. */
struct random_member_load {
	const char *vdev;      /* its top-level vdev, as in pool_member.vdev */
	double reads;          /* completed read requests during the window */
	double busy_seconds;   /* the kernel's io_ticks during the window */
	double window_seconds; /* the pass's own time: the window around it also holds the engine's
				* laying out of its file, whose busy time is counted up to this */
};

#define RANDOM_MAX_VDEVS 16

struct random_vdev_cost {
	char name[64];
	enum pool_vdev_type type;
	unsigned members;    /* members with a load */
	unsigned touched;    /* members one record's read touches */
	double capacity;     /* reads per second its members can serve together */
	double expected;     /* capacity / touched */
};

struct random_reading {
	unsigned record, sector;  /* bytes */
	double seconds;
	double measured_iops;     /* the pass's reads per second */
	double expected_iops;     /* what the layout gives: the data vdevs' expected, added */
	double one_member_iops;   /* the same members with each read touching one */
	double member_reads_per_read; /* observed: the members' reads per pool read */
	double median_busy;
	unsigned members;
	bool disk_bound;          /* the data members were busy at least half the pass */
	bool model_fits;          /* their reads per pool read are what the layout says, within the tolerance */
	bool layout_limited;      /* disk-bound, the model fits, and the layout gives at most the limit share */
	struct random_vdev_cost vdevs[RANDOM_MAX_VDEVS];
	size_t nvdevs;
	char sentence[640];       /* the reading, one or two sentences */
	char advice[320];         /* what to change; "" when nothing */
};

/* Members one read of RECORD bytes touches in vdev V on SECTOR-byte sectors. */
unsigned random_touched(const struct pool_vdev *v, unsigned record, unsigned sector);

/* Judges a random pass over the data vdevs of L: MEASURED_READS reads in
 * SECONDS (the engine's own), RECORD-byte records on SECTOR-byte sectors,
 * N member loads.
 * Members of vdevs that are not data vdevs (log, cache, special, ...) and
 * of vdevs L does not know are left out. Returns 0, or -EINVAL (no data
 * vdev with a load, SECONDS or a size not positive) with RET zeroed. */
int random_reading_judge(const struct pool_layout *l, unsigned record, unsigned sector,
			 const struct random_member_load *m, size_t n, double measured_reads, double seconds,
			 struct random_reading *ret);

#endif
