/* basic/procowner.h: is the process that left something behind still
 * running? The one owner test of every tagged leftover (pool/scratch's
 * datasets, subvolumes and directories, doctor's lab pools and mounts,
 * fs/volfile's test files, lab/throttle's cgroups).
 *
 * An owner is a boot, a pid and the process's start time (field 22 of
 * /proc/PID/stat, clock ticks after boot): together they name one process
 * for good. The owner is gone when
 *   - the boot is another one (the first group of
 *     /proc/sys/kernel/random/boot_id differs),
 *   - /proc/PID does not exist (the process ended and was reaped),
 *   - the process is a zombie or dead (state Z or X): it ended but nothing
 *     reaped it, as under a PID 1 that does not reap orphans. A thread-group
 *     leader that is Z while other threads of it still run is not gone,
 *   - the pid now names another process (its start time differs).
 * /proc/PID that cannot be read for another reason (EACCES) is not gone:
 * only a sure answer removes anything.
 *
 * No printing; -errno returns.
 */
#ifndef IOTRIAGE_BASIC_PROCOWNER_H
#define IOTRIAGE_BASIC_PROCOWNER_H

#include <stdbool.h>
#include <stddef.h>

#define PROC_BOOT_ID_MAX 40

struct proc_owner {
	char boot[PROC_BOOT_ID_MAX]; /* first group of the boot id; "" = not recorded */
	long pid;
	unsigned long long start;    /* field 22 of /proc/PID/stat */
};

/* Pure: the state letter (field 3) and start time (field 22) from the text
 * of /proc/PID/stat. The command name (field 2) may hold spaces and
 * parentheses. Returns 0 or -EINVAL. */
int proc_stat_parse(const char *text, char *ret_state, unsigned long long *ret_start);

/* Reads PROC_ROOT/PID/stat ("/proc" but for tests). Returns 0 or -errno
 * (-ENOENT when there is no such process). */
int proc_stat_read(const char *proc_root, long pid, char *ret_state, unsigned long long *ret_start);

/* This boot's id, its first group ("3f2a9c1e"), or "unknown". */
void proc_boot_id(char *buf, size_t len);

/* This process as an owner. Returns 0 or -errno. */
int proc_owner_self(struct proc_owner *ret);

/* Whether OWNER no longer runs (see above). An empty OWNER->boot is not
 * compared. PROC_ROOT is "/proc" but for tests. */
bool proc_owner_gone(const char *proc_root, const struct proc_owner *owner);

#endif
