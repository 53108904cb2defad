/* remote/server.h: a program that serves on a host for the length of a run
 * (fio --server, iperf3 -s), started over ssh and never left behind.
 *
 *   struct remote_server s[2];
 *   remote_server_start(&s[0], &opts, "h1", words0);   ssh -tt h1 -- WORDS
 *   remote_servers_wait_ready(s, 2, fio_server_ready, 10000);
 *   ... the run, from here, against each server's address ...
 *   remote_server_stop(&s[0], 3000);                 and each other one
 *
 * Each server runs in an ssh session with a terminal there (-tt) and its
 * own connection (no multiplexing): when the session ends for any reason
 * (remote_server_stop(), this process killed, the connection dropped),
 * sshd hangs the terminal up and the server gets SIGHUP, which ends fio's
 * and iperf3's servers. remote_server_stop() first types ^C (SIGINT there),
 * waits for the session to end, and then ends the ssh client itself.
 *
 * remote_host_address() is what the run connects to: the HostName ssh's
 * configuration gives the host (ssh -G, aliases resolved as ssh would),
 * resolved here to an IPv4 address. No logging; -errno with WHY.
 */
#ifndef IOTRIAGE_REMOTE_SERVER_H
#define IOTRIAGE_REMOTE_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "basic/children.h"
#include "remote/ssh.h"

struct remote_server {
	const char *host;
	struct child child;
	bool started;                /* the ssh client was started */
	bool ready;                  /* the server said it listens */
	bool ended;                  /* the session has ended (child reaped) */
	char why[512];               /* why it is not ready: ssh's reason, or its last words */
};

/* The IPv4 address of HOST as ssh would reach it, into ADDR (16 bytes or
 * more). Returns 0, or -errno with WHY ("host 'h1': ssh -G failed: ...",
 * "host 'h1': 'node1' does not resolve to an IPv4 address"). */
int remote_host_address(const struct ssh_opts *o, const char *host, char *addr, size_t addr_len, char *why,
			size_t len);

/* Starts WORDS (NULL-terminated) on HOST in a session with a terminal.
 * Returns 0 or -errno (WHY set in S). */
int remote_server_start(struct remote_server *s, const struct ssh_opts *o, const char *host,
			const char *const *words);

/* Waits until every started server of S[0..N) is ready (READY on what it
 * printed) or has ended, or TIMEOUT_MS passes, or a signal
 * (basic/interrupt) arrives. Returns how many are ready; each one that is
 * not has its reason in why. */
size_t remote_servers_wait_ready(struct remote_server *s, size_t n, bool (*ready)(const char *text),
				 int timeout_ms);

/* Waits up to WAIT_MS for the session to end by itself (a one-shot server),
 * then types ^C there and waits 2 s more, then ends the ssh client (the
 * server gets SIGHUP). Idempotent. Returns true when it ended by itself. */
bool remote_server_stop(struct remote_server *s, int wait_ms);

/* The session's output so far (the terminal's, with \r\n line ends). */
const char *remote_server_output(const struct remote_server *s);

#endif
