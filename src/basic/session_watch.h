/* basic/session_watch.h: a run started from another machine (iotriage
 * fleet, over ssh) stops when that machine asks it to, or goes away.
 *
 * Without a terminal, closing an ssh session does not signal the remote
 * process: it only closes the process's stdin, stdout and stderr. So the
 * fleet starts each remote run as `iotriage --fleet-session ...`, and
 * session_watch_start() has the kernel signal stdin's input (O_ASYNC:
 * SIGIO, whose handler reads it; no thread, see session_watch.c):
 *
 *   - a line "interrupt" (the fleet's Ctrl-C or time limit) sends SIGINT
 *     to this process;
 *   - end of file (the fleet or its ssh client died, the connection
 *     dropped) points stdout and stderr at /dev/null, so that the cleanup's
 *     log lines cannot fail, and sends SIGHUP.
 *
 * Either signal reaches basic/interrupt.h's handler, so the run unwinds and
 * cleans up exactly as it does on a local Ctrl-C. SIGPIPE gets a handler
 * that does nothing (a write to the dropped session fails with EPIPE instead
 * of killing the run before it cleans up); a handler, unlike SIG_IGN, is
 * not inherited by the programs the run starts.
 */
#ifndef IOTRIAGE_BASIC_SESSION_WATCH_H
#define IOTRIAGE_BASIC_SESSION_WATCH_H

/* The line that asks a remote run to stop. */
#define SESSION_INTERRUPT_LINE "interrupt\n"

/* Returns 0 or -errno (stdin cannot signal its input). */
int session_watch_start(void);

#endif
