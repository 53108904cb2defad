/* triage/fleet/fleet.h: one iotriage command run on many hosts over OpenSSH,
 * each figure kept with its host, and the host that stands out found the
 * way a slow disk is found.
 *
 *   struct fleet_plan plan = { .hosts = ..., .command = argv, .parallel = 4, ... };
 *   struct fleet_host *hosts = fleet_hosts_new(&plan);
 *   fleet_begin(&plan, why, sizeof(why));
 *   fleet_run(&plan, hosts, plan.n_hosts);     every host, PARALLEL at a time
 *   fleet_judge(&plan, hosts, n, 1, &judgement); outlier hosts, re-run to confirm
 *   fleet_end(&plan);                          master connections closed
 *   fleet_write_files(results_dir, hosts, n);  each host's document kept here
 *   fleet_record(store, run_id, hosts, n);     and in the database
 *
 * Per host, in order (each an ssh session over the host's one multiplexed
 * connection, remote/ssh.h):
 *   1. the handshake, `iotriage --json --version` (remote/handshake.h): the
 *      host's identity, and whether its iotriage writes the documents this
 *      one reads; where no iotriage answers, `uname -sm`, to say whether
 *      this machine's binary would run there;
 *   2. `iotriage --fleet-session --json COMMAND...`: its document comes
 *      back on stdout. The session is watched (basic/session_watch.h): at
 *      the time limit or on our SIGINT/SIGTERM/SIGHUP the host is sent
 *      "interrupt" and given GRACE_MS to clean up and answer, as a local
 *      Ctrl-C does, then ssh is killed, which the remote run notices as end
 *      of file on stdin and stops by itself just the same.
 * A host that fails gets its own status and reason; the others go on.
 *
 * Procedures: logs (main thread only), never prints to stdout, never exits.
 */
#ifndef IOTRIAGE_TRIAGE_FLEET_H
#define IOTRIAGE_TRIAGE_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "basic/progress.h"
#include "media/outlier.h"
#include "output/json.h"
#include "remote/handshake.h"
#include "remote/ssh.h"
#include "store/store.h"

enum fleet_status {
	FLEET_PENDING,
	FLEET_OK,
	FLEET_UNREACHABLE,
	FLEET_AUTH_REFUSED,
	FLEET_HOST_KEY,
	FLEET_MISSING,       /* no iotriage there */
	FLEET_INCOMPATIBLE,  /* an iotriage whose documents this one cannot read */
	FLEET_FAILED,        /* the command ran and failed */
	FLEET_TIME_LIMIT,
	FLEET_INTERRUPTED,
	FLEET_ERROR,         /* anything else (ssh refused its options, no document) */
	FLEET_FIO_MISSING,   /* fleet --fio: no fio there */
};

/* "ok", "unreachable", "auth-refused", "host-key", "iotriage-missing",
 * "incompatible", "failed", "time-limit", "interrupted", "error", "fio-missing" */
const char *fleet_status_name(enum fleet_status s);

struct fleet_plan {
	char **hosts;
	size_t n_hosts;
	char **command;              /* the iotriage command and its arguments, NULL-terminated */
	const char *remote_iotriage; /* the program on the hosts: "iotriage" (PATH) or a path */
	unsigned parallel;           /* hosts at once, >= 1 */
	uint64_t time_limit_ms;      /* per host, for the command; 0: none */
	uint64_t grace_ms;           /* after "interrupt", before ssh is killed */
	struct ssh_opts ssh;
	struct host_identity local;  /* this machine's handshake */
	char control_dir[64];        /* set by fleet_begin() */
	struct progress *progress;   /* told the hosts done of the total and which run; NULL: none */
};

struct fleet_host {
	const char *name;            /* as given */
	enum fleet_status status;
	char reason[640];
	bool identified;             /* the handshake answered */
	struct host_identity id;
	char *document;              /* the command's JSON document (malloc'd), or NULL */
	int exit_status;             /* the remote command's; -1 when it did not end by itself */
	int64_t started_at, finished_at; /* unix seconds, of the command */
	double seconds;
	double figure;               /* fleet_judge(): the host's read rate, 0 if none */
	char results_file[4096];     /* fleet_record(): where its document is kept here */
};

/* One result per host of PLAN, pending. Free with fleet_hosts_free(). */
struct fleet_host *fleet_hosts_new(const struct fleet_plan *plan);
void fleet_hosts_free(struct fleet_host *hosts, size_t n);

/* Makes the directory for the master connections' sockets. Returns 0 or
 * -errno with WHY. */
int fleet_begin(struct fleet_plan *plan, char *why, size_t len);
/* Stops every host's master connection and removes the directory. */
void fleet_end(struct fleet_plan *plan);

/* Runs the plan's command on HOSTS (N of them), PARALLEL at a time, and
 * fills each. Returns the number of hosts that ended ok. */
size_t fleet_run(const struct fleet_plan *plan, struct fleet_host *hosts, size_t n);

/* Outlier hosts. */
struct fleet_verdict {
	const char *host;
	enum outlier_flag flag;      /* OUTLIER_SLOW or OUTLIER_FAST */
	double ratio;                /* of the median, first run */
	unsigned runs, runs_out;     /* runs judged, and out of line (all must be to report) */
	bool confirmed;
	char sentence[256];          /* "host c reads at 41% of the median of 6 hosts (2 of 2 runs)" */
};
struct fleet_judgement {
	bool judged;                 /* false: too few comparable hosts, or no figures */
	char why_not[256];
	size_t set_size;
	double median_bw;
	double spread_bw;
	struct fleet_verdict *verdicts; /* every host flagged by its first run */
	size_t n_verdicts;
};

/* The figure a document gives for comparing hosts: the median read rate of
 * its devices (readdisk, readdisks, readpooldisks, demo), or its summary's
 * median. Returns 0, or -ENODATA when the document has none. The group key
 * (machine and disk model/size class) goes to GROUP. */
int fleet_document_figure(const char *document, double *ret_bw, char *group, size_t len);

/* Judges each ok host's figure against its peers (media/outlier.h: median
 * and MAD; hosts of one group when 3 or more, else all); each flagged host
 * is run CONFIRM_RUNS more times and reported only when every run agrees.
 * Fills RET (release with fleet_judgement_release()). */
void fleet_judge(const struct fleet_plan *plan, struct fleet_host *hosts, size_t n, unsigned confirm_runs,
		 struct fleet_judgement *ret);
void fleet_judgement_release(struct fleet_judgement *j);

/* Keeps each host's document locally, in a results file of its own under
 * RESULTS_DIR: iotriage_<command>_<its run id>_<host>.json (results_file
 * set). Returns 0 or the last -errno (logged). */
int fleet_write_files(const char *results_dir, struct fleet_host *hosts, size_t n);
/* A run row in S for each host's document (its own run id, command and
 * argv), with the host's name, host name and machine-id, attributed to
 * FLEET_RUN_ID. Returns 0 or -errno (logged). */
int fleet_record(struct store *s, const char *fleet_run_id, struct fleet_host *hosts, size_t n);

/* The whole fan-out above in order: begin, every host run (PROGRESS, a
 * renderer not yet started, copied for the run), outliers judged and
 * confirmed (CONFIRM_RUNS) unless interrupted, end, each host's document
 * kept under RESULTS_DIR. *RET_HOSTS (fleet_hosts_free) and JD (zeroed by
 * the caller) are filled. Returns the hosts ok, or -1 when the fleet could
 * not begin (logged). */
ssize_t fleet_execute(struct fleet_plan *plan, const struct progress *progress, unsigned confirm_runs,
		      const char *results_dir, struct fleet_host **ret_hosts, struct fleet_judgement *jd);

/* The combined document's members: "parameters", "hosts" (each with host,
 * identity, status, reason, exit_status, seconds, results_file, document)
 * and "outliers". */
void fleet_json(struct json *j, const struct fleet_plan *plan, const struct fleet_host *hosts, size_t n,
		const struct fleet_judgement *judgement);

#endif
