/* remote/fio_clients.h: fio's client/server mode as a load from many
 * hosts at once: the job file the clients run, and what each client
 * measured, attributed to the host the user named.
 *
 * `fio --client=ADDR,PORT ... --output-format=json JOBFILE` (fio 3.x)
 * reports every job of every server in "client_stats", each with the
 * "hostname" and "port" it was given on --client (the address, not the
 * host's name), and adds an entry named "All clients" (fio's own sum).
 * fio_clients_parse() maps each entry back to its host through the
 * ADDR,PORT the caller used for it, sums each host's jobs, and sums the
 * hosts into the aggregate. A server that could not be reached is simply
 * absent from fio's report (fio still exits 0): its host is left
 * unreported. Pure functions, tested on captured output
 * (tests/data/fio333_client_server_*_captured.json).
 */
#ifndef IOTRIAGE_REMOTE_FIO_CLIENTS_H
#define IOTRIAGE_REMOTE_FIO_CLIENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"

/* fio's "All clients" entry. */
#define FIO_ALL_CLIENTS "All clients"

struct fio_client_figures {
	const char *host;            /* as the user gave it ("aggregate" for the sum) */
	char addr[64];               /* the fio server's address, as given to --client */
	unsigned port;
	bool reported;               /* fio's report holds this client's jobs */
	unsigned jobs;               /* client_stats entries summed */
	int error;                   /* the first non-zero job error (an errno), 0 */
	uint64_t read_bytes, write_bytes;
	double read_bw, write_bw;    /* bytes per second, summed over jobs */
	double read_iops, write_iops;
	double runtime_s;            /* the longest job's runtime */
};

struct fio_clients_result {
	struct fio_client_figures *clients; /* one per endpoint, in the caller's order */
	size_t n;
	struct fio_client_figures aggregate; /* the sum of the reported clients */
	bool has_fio_total;          /* fio printed its "All clients" entry */
	double fio_total_read_bw, fio_total_write_bw; /* and its figures */
	unsigned unmatched;          /* entries of no endpoint (should be 0) */
	char fio_version[32];
};

struct fio_endpoint {
	const char *host;            /* as the user gave it */
	const char *addr;            /* the address fio --client is given */
	unsigned port;
};

/* Parses fio's JSON TEXT for the N ENDPOINTS. Returns 0 (some clients may
 * be unreported), or -EINVAL when TEXT is not fio's client/server report
 * (WHY says why). Release RET with fio_clients_release(). */
int fio_clients_parse(const char *text, const struct fio_endpoint *endpoints, size_t n,
		      struct fio_clients_result *ret, char *why, size_t len);
void fio_clients_release(struct fio_clients_result *r);

/* The job file for fio's options ARGS (N of them, each "--key=value" or
 * "--key", as on fio's command line): one job section, named by --name or
 * "iotriage", with one "key=value" line per option. Refused with WHY: an
 * operand (a job file of the user's), an option that would change the
 * report or the mode (--output, --output-format, --client, --server,
 * --daemonize), a key that is not fio's form ([a-z0-9_-]) or a value with
 * a line break. Returns 0 or -EINVAL. */
int fio_jobfile(const char *const *args, size_t n, struct strbuf *out, char *why, size_t len);

/* "fio: server listening on ADDR,PORT" in the server's output TEXT. */
bool fio_server_ready(const char *text);

#endif
