/* pool/arc.h: the ZFS ARC's maximum size, wherever this machine's ZFS keeps
 * it: kernel OpenZFS's kstat (/proc/spl/kstat/zfs/arcstats, a table with a
 * "c_max 4 BYTES" row) or a zfs-fuse daemon's FUSE tree
 * (/zfs-kstat/zfs/arcstats/c_max, one number). Every figure that may come
 * from the ARC (benchpool's cache note, volumes' read label, the RAM disk
 * memory warning) reads it here.
 */
#ifndef IOTRIAGE_POOL_ARC_H
#define IOTRIAGE_POOL_ARC_H

#include <stdint.h>

struct arc_size {
	uint64_t max_bytes;      /* c_max; 0 when no ARC was found */
	const char *source;      /* "OpenZFS" or "zfs-fuse"; NULL when none */
};

/* Pure: c_max from OpenZFS arcstats text, 0 when absent. */
uint64_t arc_parse_kstat_c_max(const char *text);

/* Reads the ARC size under ROOT ("" for this machine; a built tree in
 * tests). Kernel OpenZFS first, then zfs-fuse. Never fails: no ARC is
 * max_bytes 0. */
void arc_read_at(const char *root, struct arc_size *ret);
void arc_read(struct arc_size *ret);

#endif
