/* pool/zpool_iostat.h: `zpool iostat -v POOL [INTERVAL [COUNT]]` as data.
 *
 * The output is one block per report: two header lines ("capacity
 * operations bandwidth", "pool alloc free read write read write"), a line
 * of dashes, a row per pool, vdev and device, and a closing line of dashes.
 * Indentation gives the tree: the pool (or a "logs", "cache", "spares",
 * "special", "dedup" section) at column 0, its vdevs at 2, their devices at
 * 4. Operations are per second, bandwidth bytes per second, with binary
 * suffixes (K M G T P: "40.9K", "1.01K"); "-" is no figure. The FIRST block
 * is the average since the pool was imported, each later one covers one
 * INTERVAL. zfs-fuse names vdevs "mirror", "raidz1"; OpenZFS "mirror-0".
 *
 * Pure, tested on output captured from zfs-fuse (tests/data). Anything not
 * understood (a row with other than seven columns, a figure that is not a
 * number, a row outside a block, a block without its closing line, no block
 * for POOL) is -EINVAL, never a partial answer; only a stream cut while the
 * NEXT report was being written (allow_cut_tail) drops that unfinished
 * block, and only when a complete one came before it.
 */
#ifndef IOTRIAGE_POOL_ZPOOL_IOSTAT_H
#define IOTRIAGE_POOL_ZPOOL_IOSTAT_H

#include <stdbool.h>
#include <stddef.h>

struct zpool_iostat_dev {
	char name[256];      /* as the pool names it ("loop3") */
	char vdev[64];       /* "raidz1", "mirror-0", the pool (a striped device), "logs"... */
	double read_ops, write_ops;   /* per second */
	double read_bps, write_bps;   /* bytes per second */
};

struct zpool_iostat {
	char pool[256];
	size_t blocks;                /* complete reports parsed */
	double pool_read_bps, pool_write_bps;  /* the pool's row, mean over the blocks used */
	struct zpool_iostat_dev *devs; /* the devices, mean over the blocks used */
	size_t count;
};

/* Parses TEXT for POOL. With two or more blocks, the first (since import)
 * is skipped and the devices' figures are the mean of the others; with one,
 * that block. Every block must list the same devices. Returns 0 or -EINVAL
 * (RET released), -ENOMEM. */
int zpool_iostat_parse(const char *text, const char *pool, bool allow_cut_tail, struct zpool_iostat *ret);
/* The device named NAME, or NULL. */
const struct zpool_iostat_dev *zpool_iostat_dev(const struct zpool_iostat *s, const char *name);
void zpool_iostat_release(struct zpool_iostat *s);

#endif
