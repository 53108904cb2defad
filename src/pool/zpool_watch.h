/* pool/zpool_watch.h: `zpool iostat -v POOL 1` running beside a workload.
 *
 * zpool_watch_start() starts it (basic/spawn: argv, its own process group)
 * with stdout into a pipe that a thread drains (about 0.7 KB a second for a
 * five-device pool; kept up to 16 MiB). If this process dies, the pipe's
 * reading end closes and the next report kills zpool iostat (SIGPIPE), so
 * a killed run leaves nothing running for more than a second.
 * zpool_watch_stop() ends it (SIGTERM to its group), reads what it wrote and
 * parses it (pool/zpool_iostat.h; the report being written when it was
 * stopped is dropped). The first report is the average since import, so
 * the figures need at least one interval report after it: a workload under
 * a second has none (-ENODATA). Errors come with a reason in WHY.
 */
#ifndef IOTRIAGE_POOL_ZPOOL_WATCH_H
#define IOTRIAGE_POOL_ZPOOL_WATCH_H

#include <stddef.h>
#include <pthread.h>
#include <sys/types.h>

#include "basic/strbuf.h"

#include "pool/zpool_iostat.h"
#include "pool/zpool_lat.h"

#define ZPOOL_WATCH_INTERVAL_S 1

struct zpool_watch {
	pid_t pid;        /* 0: not running */
	int fd;           /* the pipe's reading end; -1 */
	pthread_t reader;
	struct strbuf out;
	char pool[256];
};

int zpool_watch_start(struct zpool_watch *w, const char *pool, char *why, size_t len);
/* Stops W and parses its reports into RET (released by the caller on 0). */
int zpool_watch_stop(struct zpool_watch *w, struct zpool_iostat *ret, char *why, size_t len);

/* The same with latency (OpenZFS): `zpool iostat -v -l -H -p POOL 1`, parsed
 * by pool/zpool_lat.h. zfs-fuse has no -l: its zpool exits at once, and the
 * stop says so (-EIO). */
int zpool_watch_start_latency(struct zpool_watch *w, const char *pool, char *why, size_t len);
int zpool_watch_stop_latency(struct zpool_watch *w, struct zpool_lat *ret, char *why, size_t len);

#endif
