/* lab/throttle.h: a calibrated slow device, made with a cgroup v1 blkio rule.
 *
 * throttle_create() makes /sys/fs/cgroup/blkio/iotriage-TAG, limits reads of
 * one device in it, and moves this process (every thread) into it. Reads of
 * that device by this process then run at the set rate; other devices are
 * untouched. throttle_destroy() moves the process back where it was and
 * removes the group. The group is named
 *     iotriage-<TAG>.owner-<boot>.<pid>.<start time>
 * (the owner of basic/procowner). Groups left by a killed run are empty and
 * their owner is gone (ended, a zombie, another boot, a reused pid):
 * throttle_remove_stale() removes exactly those, and empty groups of older
 * versions ("iotriage-" and a 16-hex-digit run id). Other iotriage-* groups
 * (a test's own, a live run's group not yet joined) are left alone.
 */
#ifndef IOTRIAGE_LAB_THROTTLE_H
#define IOTRIAGE_LAB_THROTTLE_H

#include <stdbool.h>
#include <stdint.h>

#define THROTTLE_ROOT "/sys/fs/cgroup/blkio"
#define THROTTLE_OWNER_MARK ".owner-"

struct throttle {
	char dir[512];       /* the group's directory, "" when none */
	char previous[512];  /* the group this process was in */
};

/* 0 when cgroup v1 blkio throttling is usable, else -errno. */
int throttle_available(void);
int throttle_create(const char *tag, unsigned major, unsigned minor, uint64_t read_bps,
		    struct throttle *ret);
/* One more device's read limit in T's group (made by throttle_create). */
int throttle_limit(struct throttle *t, unsigned major, unsigned minor, uint64_t read_bps);
void throttle_destroy(struct throttle *t);
/* Whether a group named NAME is a leftover whose owner is gone (PROC_ROOT
 * is "/proc" but for tests); emptiness is checked by the caller. */
bool throttle_group_stale(const char *name, const char *proc_root);
/* Removes empty groups whose owner is gone (left by a killed run). Returns how many. */
int throttle_remove_stale(void);

#endif
