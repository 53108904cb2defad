/* basic/spawn.h: run another program, never through a shell.
 *
 * spawn_run() starts ARGV[0] (searched in PATH) with posix_spawn, stdin from
 * /dev/null, the environment reduced to PATH and LC_ALL=C (so that output
 * formats do not depend on the user's locale) and CEPH_CONF when set (the
 * Ceph cluster the ceph tools and librados talk to), drains stdout and stderr
 * while it runs, and kills its process group when TIMEOUT_MS passes.
 *
 * Returns 0 when the program ran (its exit status is in ret->status, or
 * ret->signal when it was killed), -ENOENT when the program is not
 * installed, -ETIMEDOUT after killing it, or another -errno.
 */
#ifndef IOTRIAGE_BASIC_SPAWN_H
#define IOTRIAGE_BASIC_SPAWN_H

#include <stdbool.h>
#include <sys/types.h>

#include "basic/progress.h"
#include "basic/strbuf.h"

struct spawn_result {
	int status;           /* exit status, -1 when killed by a signal */
	int signal;           /* the signal that ended it, 0 when it exited */
	struct strbuf out;    /* everything it wrote on stdout */
	struct strbuf err;    /* and on stderr */
};

int spawn_run(const char *const *argv, int timeout_ms, struct spawn_result *ret);

struct spawn_opts {
	int timeout_ms;
	int stdin_fd;       /* the child's stdin; -1 for /dev/null */
	bool interruptible; /* on SIGINT/SIGTERM/SIGHUP (basic/interrupt): stop the child's
			     * group (TERM, then KILL after 2 s) and return -EINTR */
	struct progress *tick; /* told progress_tick at least every 200 ms while the child runs; NULL: none */
};
int spawn_run_opts(const char *const *argv, const struct spawn_opts *opts, struct spawn_result *ret);

/* The common case: run ARGV and count only an exit status of 0 as success.
 * Returns 0 with its stdout appended to OUT (when not NULL); otherwise
 * -ENOENT (not installed), -EIO (it ran and failed) or another -errno, with
 * a one-line reason appended to ERR (when not NULL): "zfs destroy failed:
 * <its first line on stderr>" or "cannot run zfs: not installed". */
int spawn_check(const char *const *argv, int timeout_ms, struct strbuf *out, struct strbuf *err);
void spawn_result_release(struct spawn_result *r);

/* The start alone, for callers that watch the child themselves
 * (basic/children.h): ARGV with stdin from IN_FD (or /dev/null when -1),
 * stdout and stderr onto OUT_W and ERR_W, in its own process group, the
 * environment reduced as above. Returns 0 and *RET_PID, or -errno. */
int spawn_start(const char *const *argv, int in_fd, int out_w, int err_w, pid_t *ret_pid);

#endif
