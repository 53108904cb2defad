/* lab/throttle.h: a calibrated slow device, made with a cgroup v1 blkio rule.
 *
 * throttle_create() makes /sys/fs/cgroup/blkio/iotriage-TAG, limits reads of
 * one device in it, and moves this process (every thread) into it. Reads of
 * that device by this process then run at the set rate; other devices are
 * untouched. throttle_destroy() moves the process back where it was and
 * removes the group. Groups left by a killed run are empty and carry the
 * "iotriage-" prefix: throttle_remove_stale() removes exactly those.
 */
#ifndef IOTRIAGE_LAB_THROTTLE_H
#define IOTRIAGE_LAB_THROTTLE_H

#include <stdbool.h>
#include <stdint.h>

#define THROTTLE_ROOT "/sys/fs/cgroup/blkio"

struct throttle {
	char dir[512];       /* the group's directory, "" when none */
	char previous[512];  /* the group this process was in */
};

/* 0 when cgroup v1 blkio throttling is usable, else -errno. */
int throttle_available(void);
int throttle_create(const char *tag, unsigned major, unsigned minor, uint64_t read_bps,
		    struct throttle *ret);
void throttle_destroy(struct throttle *t);
/* Removes empty groups named iotriage-* (left by a killed run). Returns how many. */
int throttle_remove_stale(void);

#endif
