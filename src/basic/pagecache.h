/* basic/pagecache.h: the one way iotriage empties the page cache before a
 * read-back, so a read figure is not a cache figure. */
#ifndef IOTRIAGE_BASIC_PAGECACHE_H
#define IOTRIAGE_BASIC_PAGECACHE_H

#include <stdbool.h>

/* Writes FD's dirty pages and drops them (fdatasync, POSIX_FADV_DONTNEED;
 * FD < 0 skips this), then syncs and drops the whole page cache through
 * /proc/sys/vm/drop_caches ("1": the page cache only), which also reaches
 * FUSE file systems (zfs-fuse) that ignore fadvise. Returns whether the
 * whole cache was dropped (root only). */
bool pagecache_drop(int fd);

#endif
