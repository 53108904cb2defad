/* triage/fleet/fleet_load.h: synchronized load from many client hosts through
 * fio's client/server mode, each client's figures kept under the host the
 * user named, with their sum.
 *
 *   struct fleet_load ld = { .hosts = ..., .n = 4, .fio_args = ..., .port = 8765, ... };
 *   fleet_load_run(&ld);      check, start the servers, one run, stop them
 *   fleet_load_json(&ld, j);  "clients", "aggregate", the job and fio's report
 *   fleet_load_release(&ld);
 *
 * In order, and nothing is started until every step before it passed:
 *   1. each host's address as ssh reaches it (remote_host_address());
 *   2. fio here (`fio --version`), and on every client over ssh: a client
 *      without fio is named ("fio is not installed on 'h3'") before any
 *      server is started;
 *   3. `fio --server=ADDR,PORT` on every client (remote/server.h: a
 *      session with a terminal, so the server dies with the session),
 *      until each says it listens;
 *   4. one `fio --client=ADDR,PORT ... --output-format=json JOBFILE` from
 *      here, so every client starts the job at the same time; a client
 *      that fio could not reach is absent from its report and gets the
 *      reason from fio's own words;
 *   5. every server stopped: at the end, on failure, and on SIGINT/
 *      SIGTERM/SIGHUP (the fio client is stopped first; it tells the
 *      servers to end their jobs).
 * Procedures: logs, never prints to stdout, never exits.
 */
#ifndef IOTRIAGE_TRIAGE_FLEET_LOAD_H
#define IOTRIAGE_TRIAGE_FLEET_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/json.h"
#include "remote/fio_clients.h"
#include "remote/ssh.h"
#include "triage/fleet/fleet.h"

#define FLEET_LOAD_DEFAULT_PORT 8765

struct fleet_load_host {
	const char *name;            /* as given */
	char addr[46];               /* where its fio server listens */
	enum fleet_status status;
	char reason[640];
	char fio_version[32];        /* "fio-3.33" there */
};

struct fleet_load {
	/* input */
	char **hosts;
	size_t n;
	const char *const *fio_args; /* fio's job options, "--key=value" */
	size_t n_fio_args;
	unsigned port;               /* the fio servers' port */
	uint64_t time_limit_ms;      /* for the fio client run; 0: none */
	struct ssh_opts ssh;
	/* results */
	struct fleet_load_host *h;   /* one per host */
	struct strbuf jobfile;       /* the job the clients ran */
	bool ran;                    /* fio's client run happened and its report was read */
	struct fio_clients_result figures;
	char *fio_report;            /* fio's JSON report (malloc'd), or NULL */
	char fio_version[32];        /* here */
	char error[640];             /* why the load could not be run, "" */
	size_t ok;                   /* clients with figures and no error */
};

/* Runs the load. Returns the number of clients that reported figures
 * without error (ld->ok); ld->error says why none could be started. */
size_t fleet_load_run(struct fleet_load *ld);

/* "parameters", "clients" (host, address, port, status, reason, read and
 * write bytes, bw_bytes_per_s, iops, runtime_seconds), "aggregate" (their
 * sum, and fio's own "All clients" figures), "fio" (its report). */
void fleet_load_json(const struct fleet_load *ld, struct json *j);

void fleet_load_release(struct fleet_load *ld);

#endif
