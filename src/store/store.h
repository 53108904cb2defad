/* store/store.h: the embedded SQLite results database.
 *
 * Schema (version in PRAGMA user_version, migrated forward in order by
 * store_open(); a file whose version is newer than this build knows is
 * refused with -EPROTO and left untouched):
 *
 *   runs(id TEXT PRIMARY KEY, command TEXT, argv TEXT, started_at INTEGER unix s,
 *        finished_at INTEGER, exit_status INTEGER, results_file TEXT, document TEXT JSON)
 *   devices(id INTEGER PRIMARY KEY, identity_key TEXT UNIQUE, kname TEXT, vendor TEXT,
 *           model TEXT, serial TEXT, wwn TEXT, size_bytes INTEGER,
 *           first_seen INTEGER, last_seen INTEGER)
 *   baselines(device_id PRIMARY KEY REFERENCES devices(id), run_id, bw_bytes_per_s,
 *             bs_bytes, saved_at)                                   (version 2)
 *   runs + (host TEXT, host_hostname TEXT, host_machine_id TEXT,
 *           fleet_run_id TEXT): runs collected from other hosts   (version 3)
 *   iops_baselines(device_id PRIMARY KEY REFERENCES devices(id), run_id, iops,
 *                  bs_bytes, iodepth, saved_at)                     (version 4)
 *   results(id INTEGER PRIMARY KEY, run_id TEXT REFERENCES runs(id),
 *           device_id INTEGER REFERENCES devices(id) NULL, test TEXT, path TEXT,
 *           status TEXT, reason TEXT, bytes INTEGER, seconds REAL,
 *           bw_bytes_per_s REAL, iops REAL, params TEXT JSON)
 *
 * All writes of one run happen in one transaction (store_begin/store_commit).
 * Opening and reading a busy/locked database wait up to 5 s; a write
 * transaction (store_begin to store_commit) waits up to 60 s for another
 * run's, so runs that end together are all recorded; then -EBUSY, and
 * store_errmsg() says the database is locked and how long it waited.
 * Library code: returns 0 or -errno, never prints; store_errmsg() gives the
 * last SQLite message for the caller to show.
 */
#ifndef IOTRIAGE_STORE_STORE_H
#define IOTRIAGE_STORE_STORE_H

#include <stdbool.h>
#include <stdint.h>

struct store;

struct store_run {
	const char *id;           /* run id, 16 hex chars */
	const char *command;      /* "readdisks" */
	const char *argv;         /* the command line, space-joined for display */
	int64_t started_at;       /* unix seconds */
	int64_t finished_at;
	int exit_status;
	const char *results_file; /* path of the per-run results file, or NULL */
	const char *document;     /* the run's JSON document */
	/* Runs made on another host and collected by iotriage fleet (NULL for
	 * local runs): the host as the fleet named it, its host name and
	 * machine-id, and the fleet run's id. */
	const char *host, *host_hostname, *host_machine_id, *fleet_run_id;
};

struct store_device {
	const char *identity_key; /* see disk_identity_key() */
	const char *kname, *vendor, *model, *serial, *wwn;
	uint64_t size_bytes;
};

struct store_result {
	const char *run_id;
	int64_t device_id;        /* 0 when the result is not about a device */
	const char *test;         /* "readdisk", "run" */
	const char *path;
	const char *status;       /* "ok", "error", "skipped" */
	const char *reason;       /* NULL or text */
	uint64_t bytes;
	double seconds;
	double bw_bytes_per_s;
	double iops;
	const char *params;       /* JSON object text, or NULL */
};

/* Open (creating parent directory and file if needed) and migrate. */
int store_open(const char *path, struct store **ret);
void store_close(struct store *s);
const char *store_errmsg(const struct store *s);
/* How long store_begin()/store_commit() wait for another writer (60 s by
 * default; tests shorten it). */
void store_set_write_wait(struct store *s, int ms);

int store_begin(struct store *s);
int store_commit(struct store *s);
int store_rollback(struct store *s);

int store_add_run(struct store *s, const struct store_run *run);
/* A run another host made, collected by fleet (RUN's host fields set). A
 * host that shares this database (the local host, or a shared file system)
 * has stored the run itself already: that row (same id and command, no host
 * yet) is the run, recorded once: it gets the host and the fleet run, and
 * keeps its own results. Returns 0, -EEXIST when the id is another run's
 * (a different command, or a run already collected under a host), or
 * -errno. */
int store_add_host_run(struct store *s, const struct store_run *run);
/* Insert or update (last_seen, kname, size) a device; *ret_id gets its row id. */
int store_upsert_device(struct store *s, const struct store_device *dev, int64_t seen_at,
			int64_t *ret_id);
int store_add_result(struct store *s, const struct store_result *res);

/* Baselines: one per device (readdisks --save-baseline), replaced when saved again. */
struct store_baseline {
	double bw_bytes_per_s;
	int64_t saved_at;
	uint32_t bs_bytes;
};
int store_set_baseline(struct store *s, int64_t device_id, const char *run_id, double bw_bytes_per_s,
		       uint32_t bs_bytes, int64_t saved_at);
/* -ENOENT when the device has no baseline. */
int store_get_baseline(struct store *s, const char *identity_key, struct store_baseline *ret);

/* IOPS baselines (readdisks --rw randread --save-baseline): one per device,
 * kept apart from the bandwidth baseline, with the block size and queue
 * depth they were read at. */
struct store_iops_baseline {
	double iops;
	int64_t saved_at;
	uint32_t bs_bytes;
	unsigned iodepth;
};
int store_set_iops_baseline(struct store *s, int64_t device_id, const char *run_id,
			    const struct store_iops_baseline *base);
/* -ENOENT when the device has no IOPS baseline. */
int store_get_iops_baseline(struct store *s, const char *identity_key, struct store_iops_baseline *ret);

/* Every known device with its last ok read and its baseline (an appliance's
 * "Read Seq" and "Last Performance Test" columns). Strings live only for
 * the callback. */
struct store_disk_row {
	const char *identity_key, *kname, *model, *serial;
	uint64_t size_bytes;
	double last_bw_bytes_per_s; /* 0 when never read ok */
	int64_t last_at;
	bool has_baseline;
	double baseline_bw_bytes_per_s;
	int64_t baseline_at;
	bool has_iops_baseline;      /* readdisks --rw randread --save-baseline */
	struct store_iops_baseline iops_baseline;
};
typedef void (*store_disk_fn)(const struct store_disk_row *row, void *arg);
int store_list_disks(struct store *s, store_disk_fn fn, void *arg);

/* Stored runs, newest first, for history. Every filter is optional (NULL
 * or 0): COMMAND exact; HOST a host's run collected by fleet, by the
 * fleet's name for it or its host name; DEVICE a device's identity key, kernel name or a
 * result's path; POOL any member named "pool" (or a "pool" object's
 * "name") in the run's document; SINCE/UNTIL unix seconds, inclusive.
 * Strings live only for the callback. */
struct store_run_filter {
	const char *command, *device, *pool, *host;
	int64_t since, until;
};
struct store_run_row {
	const char *id, *command, *argv;
	int64_t started_at, finished_at;
	int exit_status;
	int64_t results;          /* rows in results for this run */
	const char *host;         /* the fleet's name for the host, NULL for a run made here */
	const char *fleet_run_id; /* the fleet run that collected it, or NULL */
};
typedef void (*store_run_fn)(const struct store_run_row *row, void *arg);
int store_list_runs(struct store *s, const struct store_run_filter *f, store_run_fn fn, void *arg);

/* One run's document by id or unique id prefix (at least 4 characters):
 * *RET_ID and *RET_DOCUMENT are malloc'd. -ENOENT when none matches,
 * -EEXIST when the prefix names more than one run. */
int store_get_run(struct store *s, const char *id_or_prefix, char **ret_id, char **ret_document);

/* The schema version this build writes. */
int store_schema_version(void);

#endif
