/* basic/children.h: several programs running at once, each watched without
 * blocking, with a control channel on its stdin.
 *
 * spawn.h runs one program to completion. This module is for a caller that
 * keeps several running (the fleet's ssh sessions) and decides, while they
 * run, what to tell each one:
 *
 *   struct child c[2];
 *   child_start(&c[0], argv0); child_start(&c[1], argv1);
 *   while (children_poll(list, 2, 200) > 0)
 *       if (deadline passed) child_send(&c[0], "interrupt\n");
 *   ... c[i].status, c[i].out.buf, c[i].err.buf ...
 *   child_release(&c[0]); child_release(&c[1]);
 *
 * Each child is started with spawn_start() (argv, no shell, PATH and
 * LC_ALL=C only, its own process group). Its stdin is one end of a socket
 * pair held by the caller: child_send() writes to it without SIGPIPE when
 * the child has gone, and the child sees end of file on stdin only when the
 * caller closes it (child_close_stdin(), child_release()) or exits. Its
 * stdout and stderr are drained into strbufs while it runs. Not for use
 * from several threads.
 */
#ifndef IOTRIAGE_BASIC_CHILDREN_H
#define IOTRIAGE_BASIC_CHILDREN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "basic/strbuf.h"

struct child {
	pid_t pid;
	int in_fd, out_fd, err_fd; /* our ends; -1 once closed */
	bool running;              /* started and not yet reaped */
	int status;                /* exit status; -1 when a signal ended it */
	int signal;                /* that signal, 0 when it exited */
	struct strbuf out, err;
};

/* Starts ARGV. Returns 0, or -errno (the child struct is then not running
 * and needs no release). A program that is not installed starts and exits
 * with status 127, as with posix_spawnp. */
int child_start(struct child *c, const char *const *argv);

/* Writes TEXT to the child's stdin. Returns 0, or -EPIPE when the child
 * (or its stdin) is gone, or another -errno. */
int child_send(struct child *c, const char *text);
void child_close_stdin(struct child *c);

/* Sends SIG to the child's process group (nothing once it is reaped). */
void child_signal(struct child *c, int sig);

/* Waits up to WAIT_MS for output from any of the N children (NULL entries
 * and reaped children are skipped), drains what arrived, and reaps each
 * child that has exited (status and signal set, running false). Returns
 * how many are still running. Returns early on a signal. */
size_t children_poll(struct child *const *c, size_t n, int wait_ms);

/* Closes our ends; kills and reaps a child still running; frees buffers. */
void child_release(struct child *c);

#endif
