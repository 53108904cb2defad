/* pool/zpool.h: running zpool on a whole pool. Programs run by argv through
 * basic/spawn; -errno, never prints. */
#ifndef IOTRIAGE_POOL_ZPOOL_H
#define IOTRIAGE_POOL_ZPOOL_H

/* zpool destroy -f POOL, retried for up to about seven seconds while it
 * fails: zfs-fuse answers "pool is busy" for a moment after I/O. Returns 0,
 * or -EBUSY (or the spawn error) when it never succeeded. */
int zpool_destroy_retrying(const char *pool);

#endif
