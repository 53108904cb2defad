/* pool/slow_log.h: is a pool's log (its SLOG) slower than the data vdevs it
 * is there to spare?
 *
 * Under sync writes every write waits for the log vdev (the ZIL); a
 * dedicated log is worth having only when it writes faster than the pool's
 * data vdevs, which would hold the ZIL without it. From `zpool iostat -l`
 * during sync writes (pool/zpool_lat.h): the log vdevs' mean write disk wait
 * against the median of the data vdevs' (their writes at each transaction
 * group's sync, in the same reports). A log whose writes wait more than
 * SLOW_LOG_FACTOR times as long, and over SLOW_LOG_MIN_NS, is the finding
 * "slow-log". Vdevs are told apart by the pool's layout (pool/zfs.h).
 *
 * The same for a special vdev: it holds the pool's metadata (and small
 * blocks where special_small_blocks says so), written at each transaction
 * group's sync beside the data vdevs' writes; one that writes more than
 * SLOW_LOG_FACTOR times slower than them is the finding "slow-special". Pure.
 */
#ifndef IOTRIAGE_POOL_SLOW_LOG_H
#define IOTRIAGE_POOL_SLOW_LOG_H

#include <stddef.h>

#include "pool/finding.h"
#include "pool/zfs.h"
#include "pool/zpool_lat.h"

#define SLOW_LOG_FACTOR 2.0
#define SLOW_LOG_MIN_NS 1000000.0 /* 1 ms: under it no admin needs a faster log */

/* Returns 1 with the finding added to OUT, 0 when the log keeps up, or
 * -ENODATA when the layout has no log vdev or the log or the data vdevs
 * wrote nothing in the reports (WHY says which: not judged). */
/* The same for class KLASS (POOL_CLASS_LOG or POOL_CLASS_SPECIAL). */
int pool_slow_class_judge(const struct pool_layout *l, const struct zpool_lat *lat, enum pool_class klass,
			  struct pool_findings *out, char *why, size_t len);

int pool_slow_log_judge(const struct pool_layout *l, const struct zpool_lat *lat, struct pool_findings *out,
			char *why, size_t len);

#endif
