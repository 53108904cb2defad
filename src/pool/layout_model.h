/* pool/layout_model.h: what a pool's layout can deliver from its members.
 *
 * From each member's measured raw sequential read and write rate (bytes per
 * second, e.g. readdisk's O_DIRECT read and a raw write of the same size) and
 * the pool's layout, the sequential throughput one streaming reader or
 * writer should reach. Every data vdev moves in lockstep with its slowest
 * member, so each rule uses the slowest member of the vdev:
 *
 *   ZFS (vdev names as zpool status writes them, pool/zfs.h)
 *     single disk     read r, write w
 *     mirror of n     write min(w): every side writes all the data; read
 *                     sum(r) is what several readers get (ZFS sends each read
 *                     to the less busy side), but ONE stream keeps only
 *                     LAYOUT_MIRROR_STREAM_SIDES sides' worth busy: read
 *                     min(sum(r), 1.25 x mean(r))
 *     raidzP of n     write (n - P) x min(w): full stripes, the parity
 *                     columns are written; read n x min(r): the parity column
 *                     rotates over the members, so every member holds 1/n of
 *                     the data and a read skips the parity (healthy pool).
 *                     On members whose rate is their bandwidth (SSDs, capped
 *                     loop devices) a read reaches n members' worth; a
 *                     rotating disk still turns under the skipped parity
 *                     sectors, so there expect nearer (n - P) x min(r)
 *     dRAID P:Dd:Cc:Ss  write (C - S) x D / (D + P) x min(w): every child but the
 *                     spare space holds data and parity in groups of D + P;
 *                     read (C - S) x min(r), as raidz's rotating parity
 *     stripe of vdevs the vdevs' figures added (ZFS spreads writes across
 *                     top-level vdevs and reads come from where data went)
 *     logs, cache, spares, special, dedup members are not data vdevs: left out,
 *                     and so are members that are not read (pool/zfs.h:
 *                     offline, faulted, distributed spares); of a replacing or
 *                     spare nesting, one member counts
 *   btrfs (the Data profile of `btrfs filesystem usage`)
 *     single          one member: a sequential file fills one chunk at a time
 *     dup             read r, write w / 2
 *     raid0 of n      n x min, read and write
 *     raid1/1c3/1c4   write min(w); read min(r): btrfs picks the copy by the
 *                     reader's pid (read_policy "pid"), so ONE reader reads
 *                     ONE member, unlike a ZFS mirror
 *     raid10 of n     (n / 2) x min, read and write (one copy per stripe read)
 *     raid5 / raid6   (n - 1) / (n - 2) x min
 *
 * These are ceilings for a single stream of large (>= 1 MiB) sequential
 * I/O; what a pool reaches is then shown as a percentage of them (see
 * bench/pool_layout.sh and docs/results.md for the ratios measured on this
 * machine: every read within 20% of its expectation, writes 70-101%). Pure.
 */
#ifndef IOTRIAGE_POOL_LAYOUT_MODEL_H
#define IOTRIAGE_POOL_LAYOUT_MODEL_H

#include <stddef.h>

#include "pool/zfs.h"

/* Sides of a ZFS mirror one sequential reader keeps busy. Measured on
 * zfs-fuse (bench/pool_layout.sh, a mirror of 2 loop devices each capped at
 * 8 MiB/s by blkio): one dd read 10.4-11.2 MB/s, 1.24-1.33 sides' worth, in
 * every run, while two readers of the same file's halves read 17.4 MB/s
 * (both sides, 104% of their sum) and each side served half the bytes: the
 * sides are balanced, one stream's prefetch keeps too few reads in flight.
 * OpenZFS (not on this machine) prefetches deeper and may read faster: the
 * model then undersells a mirror, which can only hide a slow pool, never
 * name a healthy one. */
#define LAYOUT_MIRROR_STREAM_SIDES 1.25

enum layout_kind {
	LAYOUT_SINGLE,
	LAYOUT_MIRROR,
	LAYOUT_RAIDZ,     /* parity 1..3 */
	LAYOUT_DUP,
	LAYOUT_RAID0,
	LAYOUT_RAID1,     /* btrfs raid1, raid1c3, raid1c4 */
	LAYOUT_RAID10,
	LAYOUT_RAID5,
	LAYOUT_RAID6,
	LAYOUT_SUPPORT,   /* ZFS logs/cache/spares/special/dedup: not data */
	LAYOUT_DRAID,     /* ZFS dRAID: parity, data disks per group, children, distributed spares */
};

struct layout_rates {
	double read_bps;
	double write_bps;
};

struct layout_expectation {
	double read_bps;
	double write_bps;
	size_t data_vdevs;
	char basis[256];  /* "raidz1 of 5 (4 data) x 100.0 MB/s", vdevs joined with " + " */
};

/* The kind of the vdev a ZFS member is in: "mirror-0" (zfs-fuse iostat's
 * "mirror" too), "raidz2-1" ("raidz" is raidz1), POOL itself (a plain
 * striped disk), or a support class. Sets *RET_PARITY for raidz. Returns 0
 * or -EINVAL for a name it does not know. */
int layout_zfs_vdev_kind(const char *vdev, const char *pool, enum layout_kind *ret,
			 unsigned *ret_parity);

/* A dRAID vdev (V's geometry) of N children with these rates. Returns 0 or
 * -EINVAL (no data, a rate not positive). */
int layout_draid_expect(const struct pool_vdev *v, const struct layout_rates *m, size_t n,
			struct layout_rates *ret);

/* One vdev of N members with these rates. Returns 0, or -EINVAL (no members,
 * a rate not positive, raidz with no data disks, an odd raid10). */
int layout_vdev_expect(enum layout_kind kind, unsigned parity, const struct layout_rates *m,
		       size_t n, struct layout_rates *ret);

/* A ZFS pool: RATES[i] belongs to L->members[i]. Data vdevs added up. */
int layout_expect_zfs(const struct pool_layout *l, const struct layout_rates *rates,
		      struct layout_expectation *ret);

/* A btrfs file system: PROFILE as `btrfs filesystem usage` names the data
 * profile ("RAID1", "raid10", "single", ...). Returns -EINVAL for an
 * unknown profile. */
int layout_btrfs_profile_kind(const char *profile, enum layout_kind *ret);
int layout_expect_btrfs(const char *profile, const struct layout_rates *rates, size_t n,
			struct layout_expectation *ret);

#endif
