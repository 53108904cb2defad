/* basic/proc_args.h: the processes whose command line names a thing.
 *
 * A run killed with SIGKILL leaves the programs it started running (each
 * in its own process group, basic/spawn): fio on an RBD image goes on to
 * its runtime's end and holds the image's watch, so the image cannot be
 * removed. The next run finds them by an argument that names what the
 * dead run made (a tagged name no one else uses) and stops them.
 *
 * No printing; -errno returns.
 */
#ifndef IOTRIAGE_BASIC_PROC_ARGS_H
#define IOTRIAGE_BASIC_PROC_ARGS_H

#include <stddef.h>
#include <sys/types.h>

/* Pure: whether the NUL-separated command line CMDLINE (LEN bytes, as in
 * /proc/PID/cmdline) has an argument that contains NEEDLE. */
int proc_cmdline_has(const char *cmdline, size_t len, const char *needle);

/* Fills RET with up to MAX pids under PROC_ROOT ("/proc" but for tests)
 * whose command line has an argument containing NEEDLE, this process
 * excepted. Returns how many, or -errno when PROC_ROOT cannot be read. */
int proc_find_by_arg(const char *proc_root, const char *needle, pid_t *ret, size_t max);

/* Sends SIGTERM to each of the N pids, waits up to WAIT_MS for them to go,
 * then SIGKILLs those left. Returns how many were still there for the
 * SIGKILL. */
size_t proc_stop_all(const pid_t *pids, size_t n, int wait_ms);

/* What each thread of PID is doing, for a report of a process that stopped
 * making progress: "tid S wchan syscall-line" per thread, "; " between
 * them, into BUF (from /proc/PID/task/TID/{stat,wchan,syscall}). */
void proc_describe_tasks(pid_t pid, char *buf, size_t len);

#endif
