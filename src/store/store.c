/* store/store.c: the embedded SQLite results database (see store.h).
 *
 * One connection per struct store, opened without the SQLite mutex
 * (SQLITE_OPEN_NOMUTEX): a store must not be used from two threads at once.
 * The database keeps the default rollback journal (no WAL), so a copy of the
 * closed file is the whole database.
 *
 * The statements used per run (add run, upsert device, add result) are
 * prepared once and cached in the struct; every use resets them and clears
 * their bindings on the way out, so caller strings bound with SQLITE_STATIC
 * are never referenced after the call returns.
 */
#include "store/store.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "basic/cleanup.h"
#include "basic/fsutil.h"

#define STORE_BUSY_TIMEOUT_MS 5000   /* reads, and opening */
#define STORE_WRITE_WAIT_MS 60000    /* a run's write transaction, from BEGIN to COMMIT */

/* migrations[i] migrates schema version i to i + 1. Each runs in its own
 * transaction together with the user_version update. Never edit an entry
 * that has shipped; append a new one instead. */
static const char *const migrations[] = {
	/* 0 -> 1: initial schema. */
	"CREATE TABLE runs ("
	"  id TEXT PRIMARY KEY NOT NULL,"
	"  command TEXT,"
	"  argv TEXT,"
	"  started_at INTEGER,"
	"  finished_at INTEGER,"
	"  exit_status INTEGER,"
	"  results_file TEXT,"
	"  document TEXT"
	");"
	"CREATE TABLE devices ("
	"  id INTEGER PRIMARY KEY,"
	"  identity_key TEXT NOT NULL UNIQUE,"
	"  kname TEXT,"
	"  vendor TEXT,"
	"  model TEXT,"
	"  serial TEXT,"
	"  wwn TEXT,"
	"  size_bytes INTEGER,"
	"  first_seen INTEGER,"
	"  last_seen INTEGER"
	");"
	"CREATE TABLE results ("
	"  id INTEGER PRIMARY KEY,"
	"  run_id TEXT NOT NULL REFERENCES runs(id),"
	"  device_id INTEGER NULL REFERENCES devices(id),"
	"  test TEXT,"
	"  path TEXT,"
	"  status TEXT,"
	"  reason TEXT,"
	"  bytes INTEGER,"
	"  seconds REAL,"
	"  bw_bytes_per_s REAL,"
	"  iops REAL,"
	"  params TEXT"
	");"
	"CREATE INDEX results_run_id ON results(run_id);"
	"CREATE INDEX results_device_id ON results(device_id);"
	"CREATE INDEX runs_started_at ON runs(started_at);",
	/* 1 -> 2: per-disk baselines (readdisks --save-baseline). */
	"CREATE TABLE baselines ("
	"  device_id INTEGER PRIMARY KEY NOT NULL REFERENCES devices(id),"
	"  run_id TEXT NOT NULL REFERENCES runs(id),"
	"  bw_bytes_per_s REAL NOT NULL,"
	"  bs_bytes INTEGER,"
	"  saved_at INTEGER NOT NULL"
	");",
	/* 2 -> 3: runs made on another host by iotriage fleet: the host as the
	 * fleet named it, its identity, and the fleet run that collected it. */
	"ALTER TABLE runs ADD COLUMN host TEXT;"
	"ALTER TABLE runs ADD COLUMN host_hostname TEXT;"
	"ALTER TABLE runs ADD COLUMN host_machine_id TEXT;"
	"ALTER TABLE runs ADD COLUMN fleet_run_id TEXT;"
	"CREATE INDEX runs_fleet_run_id ON runs(fleet_run_id);",
	/* 3 -> 4: per-disk IOPS baselines (readdisks --rw randread
	 * --save-baseline), apart from the bandwidth ones: a disk may have both.
	 * The block size and queue depth are kept because IOPS mean nothing
	 * without them. */
	"CREATE TABLE iops_baselines ("
	"  device_id INTEGER PRIMARY KEY NOT NULL REFERENCES devices(id),"
	"  run_id TEXT NOT NULL REFERENCES runs(id),"
	"  iops REAL NOT NULL,"
	"  bs_bytes INTEGER NOT NULL,"
	"  iodepth INTEGER NOT NULL,"
	"  saved_at INTEGER NOT NULL"
	");",
};

enum store_stmt_id {
	STMT_ADD_RUN,
	STMT_ADD_HOST_RUN,
	STMT_UPSERT_DEVICE,
	STMT_DEVICE_ID,
	STMT_ADD_RESULT,
	STMT_SET_BASELINE,
	STMT_GET_BASELINE,
	STMT_SET_IOPS_BASELINE,
	STMT_GET_IOPS_BASELINE,
	STMT_LIST_DISKS,
	STMT_LIST_RUNS,
	STMT_GET_RUN,
	STMT_COUNT,
};

static const char *const stmt_sql[STMT_COUNT] = {
	[STMT_ADD_RUN] =
		"INSERT INTO runs(id, command, argv, started_at, finished_at,"
		"                 exit_status, results_file, document,"
		"                 host, host_hostname, host_machine_id, fleet_run_id)"
		" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
	/* A host's run that the host may have stored here itself (it shares
	 * this database): the same run (same command, no host yet) gets the
	 * host's identity and the fleet run; its own rows are kept. Any other
	 * row under that id is left alone (no change: the caller refuses). */
	[STMT_ADD_HOST_RUN] =
		"INSERT INTO runs(id, command, argv, started_at, finished_at,"
		"                 exit_status, results_file, document,"
		"                 host, host_hostname, host_machine_id, fleet_run_id)"
		" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
		" ON CONFLICT(id) DO UPDATE SET"
		"  host = excluded.host,"
		"  host_hostname = excluded.host_hostname,"
		"  host_machine_id = excluded.host_machine_id,"
		"  fleet_run_id = excluded.fleet_run_id"
		" WHERE runs.host IS NULL AND runs.fleet_run_id IS NULL AND runs.command IS excluded.command",
	/* Empty strings are bound as NULL, so coalesce() keeps the stored
	 * vendor/model/serial/wwn when the new value is empty. */
	[STMT_UPSERT_DEVICE] =
		"INSERT INTO devices(identity_key, kname, vendor, model, serial, wwn,"
		"                    size_bytes, first_seen, last_seen)"
		" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)"
		" ON CONFLICT(identity_key) DO UPDATE SET"
		"  last_seen = excluded.last_seen,"
		"  kname = excluded.kname,"
		"  size_bytes = excluded.size_bytes,"
		"  vendor = coalesce(excluded.vendor, vendor),"
		"  model = coalesce(excluded.model, model),"
		"  serial = coalesce(excluded.serial, serial),"
		"  wwn = coalesce(excluded.wwn, wwn)",
	[STMT_DEVICE_ID] = "SELECT id FROM devices WHERE identity_key = ?1",
	[STMT_SET_BASELINE] =
		"INSERT INTO baselines (device_id, run_id, bw_bytes_per_s, bs_bytes, saved_at) "
		"VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(device_id) DO UPDATE SET "
		"run_id = excluded.run_id, bw_bytes_per_s = excluded.bw_bytes_per_s, "
		"bs_bytes = excluded.bs_bytes, saved_at = excluded.saved_at",
	[STMT_GET_BASELINE] =
		"SELECT b.bw_bytes_per_s, b.saved_at, b.bs_bytes FROM baselines b "
		"JOIN devices d ON d.id = b.device_id WHERE d.identity_key = ?1",
	[STMT_SET_IOPS_BASELINE] =
		"INSERT INTO iops_baselines (device_id, run_id, iops, bs_bytes, iodepth, saved_at) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(device_id) DO UPDATE SET "
		"run_id = excluded.run_id, iops = excluded.iops, bs_bytes = excluded.bs_bytes, "
		"iodepth = excluded.iodepth, saved_at = excluded.saved_at",
	[STMT_GET_IOPS_BASELINE] =
		"SELECT b.iops, b.saved_at, b.bs_bytes, b.iodepth FROM iops_baselines b "
		"JOIN devices d ON d.id = b.device_id WHERE d.identity_key = ?1",
	[STMT_LIST_DISKS] =
		"SELECT d.identity_key, d.kname, d.model, d.serial, d.size_bytes, "
		"  (SELECT r.bw_bytes_per_s FROM results r WHERE r.device_id = d.id AND r.status = 'ok' "
		"   AND r.test = 'readdisk' ORDER BY r.id DESC LIMIT 1), "
		"  (SELECT ru.started_at FROM results r JOIN runs ru ON ru.id = r.run_id WHERE r.device_id = d.id "
		"   AND r.status = 'ok' AND r.test = 'readdisk' ORDER BY r.id DESC LIMIT 1), "
		"  b.bw_bytes_per_s, b.saved_at, ib.iops, ib.saved_at, ib.bs_bytes, ib.iodepth "
		"FROM devices d LEFT JOIN baselines b ON b.device_id = d.id "
		"LEFT JOIN iops_baselines ib ON ib.device_id = d.id ORDER BY d.kname",
	/* NULL parameters switch their filter off. json_tree is SQLite's JSON1
	 * (built in since 3.38); a document that is not JSON matches no pool. */
	[STMT_LIST_RUNS] =
		"SELECT ru.id, ru.command, ru.argv, ru.started_at, ru.finished_at, ru.exit_status, "
		"  (SELECT count(*) FROM results r WHERE r.run_id = ru.id), ru.host, ru.fleet_run_id "
		"FROM runs ru WHERE (?1 IS NULL OR ru.command = ?1) "
		" AND (?2 IS NULL OR EXISTS (SELECT 1 FROM results r LEFT JOIN devices d ON d.id = r.device_id "
		"      WHERE r.run_id = ru.id AND (d.identity_key = ?2 OR d.kname = ?2 OR r.path = ?2))) "
		" AND (?3 IS NULL OR (json_valid(ru.document) AND EXISTS (SELECT 1 FROM json_tree(ru.document) t "
		"      WHERE t.type = 'text' AND t.atom = ?3 AND (t.key = 'pool' OR "
		"      (t.key = 'name' AND t.path LIKE '%.pool'))))) "
		" AND (?4 IS NULL OR ru.started_at >= ?4) AND (?5 IS NULL OR ru.started_at <= ?5) "
		" AND (?6 IS NULL OR ru.host = ?6 OR ru.host_hostname = ?6) "
		"ORDER BY ru.started_at DESC, ru.rowid DESC",
	[STMT_GET_RUN] =
		"SELECT id, document FROM runs WHERE id = ?1 OR (length(?1) >= 4 AND substr(id, 1, length(?1)) = ?1) "
		"ORDER BY id = ?1 DESC LIMIT 2",
	[STMT_ADD_RESULT] =
		"INSERT INTO results(run_id, device_id, test, path, status, reason,"
		"                    bytes, seconds, bw_bytes_per_s, iops, params)"
		" VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
};

struct store {
	sqlite3 *db;
	sqlite3_stmt *stmts[STMT_COUNT];
	char why[160];  /* what store_errmsg() says instead of SQLite, when set */
	int write_wait_ms;
};

/* Cleanup for a cached statement: reset it and drop its bindings. */
static void stmt_resetp(sqlite3_stmt **st)
{
	if (*st) {
		sqlite3_reset(*st);
		sqlite3_clear_bindings(*st);
	}
}

/* Cleanup for a one-shot statement. sqlite3_finalize(NULL) is a no-op. */
static void stmt_finalizep(sqlite3_stmt **st)
{
	sqlite3_finalize(*st);
}

static void store_closep(struct store **s)
{
	store_close(*s);
}

#define _cleanup_stmt_reset_ __attribute__((cleanup(stmt_resetp)))
#define _cleanup_stmt_finalize_ __attribute__((cleanup(stmt_finalizep)))
#define _cleanup_store_close_ __attribute__((cleanup(store_closep)))

/* Map a failing SQLite result code to -errno. Never returns 0. */
static int store_errno(sqlite3 *db, int rc)
{
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return -EBADMSG;
	case SQLITE_CANTOPEN: {
		int e = db ? sqlite3_system_errno(db) : 0;

		if (e == ENOENT || e == ENOTDIR)
			return -ENOENT;
		return -EACCES;
	}
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_NOMEM:
		return -ENOMEM;
	default:
		return -EIO;
	}
}

static int store_exec(sqlite3 *db, const char *sql)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return store_errno(db, rc);
	return 0;
}

static int store_stmt(struct store *s, enum store_stmt_id id, sqlite3_stmt **ret)
{
	if (!s->stmts[id]) {
		int rc = sqlite3_prepare_v3(s->db, stmt_sql[id], -1, SQLITE_PREPARE_PERSISTENT,
					    &s->stmts[id], NULL);
		if (rc != SQLITE_OK)
			return store_errno(s->db, rc);
	}
	*ret = s->stmts[id];
	return 0;
}

/* Bind text; NULL (and, with empty_is_null, "") is bound as SQL NULL. The
 * caller's string is not copied: the statement is reset and its bindings
 * cleared before the public function returns. */
static int bind_text(sqlite3_stmt *st, int idx, const char *v, bool empty_is_null)
{
	if (!v || (empty_is_null && v[0] == '\0'))
		return sqlite3_bind_null(st, idx);
	return sqlite3_bind_text(st, idx, v, -1, SQLITE_STATIC);
}

static int read_user_version(sqlite3 *db, int *ret)
{
	_cleanup_stmt_finalize_ sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return store_errno(db, rc);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW)
		return store_errno(db, rc);
	*ret = sqlite3_column_int(st, 0);
	return 0;
}

int store_schema_version(void)
{
	return (int)ARRAY_SIZE(migrations);
}

/* Bring the schema from its current version up to store_schema_version().
 * Only reads happen until a migration is known to be needed, so a file that
 * is not a database, or is newer than this build, is left untouched. */
static int store_migrate(struct store *s)
{
	int target = store_schema_version();
	int version, r;

	r = read_user_version(s->db, &version);
	if (r < 0)
		return r;
	if (version < 0 || version > target)
		return -EPROTO;

	while (version < target) {
		char sql[64];
		int n;

		r = store_begin(s);
		if (r < 0)
			return r;

		/* Re-read under the write lock: another process may have
		 * migrated in the meantime. */
		r = read_user_version(s->db, &version);
		if (r < 0)
			goto fail;
		if (version < 0 || version > target) {
			r = -EPROTO;
			goto fail;
		}
		if (version == target)
			return store_rollback(s);

		r = store_exec(s->db, migrations[version]);
		if (r < 0)
			goto fail;

		/* PRAGMA arguments cannot be bound; this is an integer we own. */
		n = snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version + 1);
		if (n < 0 || (size_t)n >= sizeof(sql)) {
			r = -EOVERFLOW;
			goto fail;
		}
		r = store_exec(s->db, sql);
		if (r < 0)
			goto fail;

		r = store_commit(s);
		if (r < 0)
			goto fail;
		version++;
	}
	return 0;

fail:
	(void)store_rollback(s);
	return r;
}

int store_open(const char *path, struct store **ret)
{
	static const char uri_prefix[] = "file:";
	_cleanup_store_close_ struct store *s = NULL;
	_cleanup_free_ char *dot_path = NULL;
	const char *open_path = path;
	int rc, r;

	if (!path || path[0] == '\0' || !ret)
		return -EINVAL;

	/* Should URI filenames be enabled in this libsqlite3, a relative path
	 * starting with "file:" would be parsed as a URI; "./" keeps it a path. */
	if (strncmp(path, uri_prefix, sizeof(uri_prefix) - 1) == 0) {
		size_t len = strlen(path);

		dot_path = malloc(len + 3);
		if (!dot_path)
			return -ENOMEM;
		memcpy(dot_path, "./", 2);
		memcpy(dot_path + 2, path, len + 1);
		open_path = dot_path;
	}

	r = mkdir_parents(path, 0755);
	if (r < 0)
		return r;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->write_wait_ms = STORE_WRITE_WAIT_MS;

	rc = sqlite3_open_v2(open_path, &s->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			     NULL);
	if (rc != SQLITE_OK)
		return s->db ? store_errno(s->db, rc) : -ENOMEM;

	sqlite3_extended_result_codes(s->db, 1);

	rc = sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	if (rc != SQLITE_OK)
		return store_errno(s->db, rc);

	r = store_exec(s->db, "PRAGMA foreign_keys = ON");
	if (r < 0)
		return r;

	r = store_migrate(s);
	if (r < 0)
		return r;

	*ret = TAKE_PTR(s);
	return 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(s->stmts); i++)
		sqlite3_finalize(s->stmts[i]);
	/* Rolls back an open transaction; sqlite3_close_v2(NULL) is a no-op. */
	sqlite3_close_v2(s->db);
	free(s);
}

const char *store_errmsg(const struct store *s)
{
	if (!s || !s->db)
		return "store is not open";
	return s->why[0] ? s->why : sqlite3_errmsg(s->db);
}

/* IMMEDIATE takes the write lock now, so a busy database is reported here
 * rather than in the middle of a run's writes. Another run's write
 * transaction holds the lock for as long as its commit's fsyncs take, which
 * on a loaded machine (several runs ending together) can exceed the read
 * timeout: a writer waits STORE_WRITE_WAIT_MS, so the run is recorded. */
int store_begin(struct store *s)
{
	if (!s)
		return -EINVAL;
	s->why[0] = '\0';
	sqlite3_busy_timeout(s->db, s->write_wait_ms);
	int r = store_exec(s->db, "BEGIN IMMEDIATE");
	if (r == -EBUSY)
		snprintf(s->why, sizeof(s->why), "the database is locked by another process (waited %.1f s)",
			 s->write_wait_ms / 1000.0);
	if (r < 0)
		sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	return r;
}

void store_set_write_wait(struct store *s, int ms)
{
	if (s && ms > 0)
		s->write_wait_ms = ms;
}

int store_commit(struct store *s)
{
	if (!s)
		return -EINVAL;
	int r = store_exec(s->db, "COMMIT");
	if (r == -EBUSY)
		snprintf(s->why, sizeof(s->why), "the database is locked by another process (waited %.1f s to commit)",
			 s->write_wait_ms / 1000.0);
	if (r == 0)
		sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	return r;
}

/* A no-op (0) when no transaction is active, e.g. after SQLite already rolled
 * back on an I/O error, so it is safe on every error path. */
int store_rollback(struct store *s)
{
	if (!s)
		return -EINVAL;
	sqlite3_busy_timeout(s->db, STORE_BUSY_TIMEOUT_MS);
	if (sqlite3_get_autocommit(s->db))
		return 0;
	return store_exec(s->db, "ROLLBACK");
}

static int add_run(struct store *s, enum store_stmt_id id, const struct store_run *run)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	int rc, r;

	if (!s || !run || !run->id || run->id[0] == '\0')
		return -EINVAL;

	r = store_stmt(s, id, &st);
	if (r < 0)
		return r;

	if ((rc = bind_text(st, 1, run->id, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 2, run->command, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 3, run->argv, false)) != SQLITE_OK ||
	    (rc = sqlite3_bind_int64(st, 4, run->started_at)) != SQLITE_OK ||
	    (rc = sqlite3_bind_int64(st, 5, run->finished_at)) != SQLITE_OK ||
	    (rc = sqlite3_bind_int(st, 6, run->exit_status)) != SQLITE_OK ||
	    (rc = bind_text(st, 7, run->results_file, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 8, run->document, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 9, run->host, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 10, run->host_hostname, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 11, run->host_machine_id, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 12, run->fleet_run_id, false)) != SQLITE_OK)
		return store_errno(s->db, rc);

	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		return store_errno(s->db, rc);
	return 0;
}

int store_add_run(struct store *s, const struct store_run *run)
{
	return add_run(s, STMT_ADD_RUN, run);
}

int store_add_host_run(struct store *s, const struct store_run *run)
{
	int r = add_run(s, STMT_ADD_HOST_RUN, run);
	if (r == 0 && sqlite3_changes(s->db) == 0)
		return -EEXIST;
	return r;
}

/* Runs statement ID with KEY as its one parameter up to its first row: 0
 * with *ST on the row, -ENOENT when there is none, or -errno. */
static int first_row_by_key(struct store *s, enum store_stmt_id id, const char *key, sqlite3_stmt **st)
{
	int r = store_stmt(s, id, st);
	if (r < 0)
		return r;
	int rc = bind_text(*st, 1, key, false);
	if (rc != SQLITE_OK)
		return store_errno(s->db, rc);
	rc = sqlite3_step(*st);
	if (rc == SQLITE_DONE)
		return -ENOENT;
	return rc == SQLITE_ROW ? 0 : store_errno(s->db, rc);
}

static int store_device_id(struct store *s, const char *identity_key, int64_t *ret_id)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	int r = first_row_by_key(s, STMT_DEVICE_ID, identity_key, &st);
	if (r < 0)
		return r; /* -ENOENT cannot happen right after the upsert */
	*ret_id = sqlite3_column_int64(st, 0);
	return 0;
}

int store_upsert_device(struct store *s, const struct store_device *dev, int64_t seen_at,
			int64_t *ret_id)
{
	int64_t id = 0;
	int rc, r;

	if (!s || !dev || !dev->identity_key || dev->identity_key[0] == '\0')
		return -EINVAL;
	if (dev->size_bytes > (uint64_t)INT64_MAX)
		return -ERANGE;

	{
		_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;

		r = store_stmt(s, STMT_UPSERT_DEVICE, &st);
		if (r < 0)
			return r;

		if ((rc = bind_text(st, 1, dev->identity_key, true)) != SQLITE_OK ||
		    (rc = bind_text(st, 2, dev->kname, true)) != SQLITE_OK ||
		    (rc = bind_text(st, 3, dev->vendor, true)) != SQLITE_OK ||
		    (rc = bind_text(st, 4, dev->model, true)) != SQLITE_OK ||
		    (rc = bind_text(st, 5, dev->serial, true)) != SQLITE_OK ||
		    (rc = bind_text(st, 6, dev->wwn, true)) != SQLITE_OK ||
		    (rc = sqlite3_bind_int64(st, 7, (sqlite3_int64)dev->size_bytes)) != SQLITE_OK ||
		    (rc = sqlite3_bind_int64(st, 8, seen_at)) != SQLITE_OK)
			return store_errno(s->db, rc);

		rc = sqlite3_step(st);
		if (rc != SQLITE_DONE)
			return store_errno(s->db, rc);
	}

	r = store_device_id(s, dev->identity_key, &id);
	if (r < 0)
		return r;
	if (ret_id)
		*ret_id = id;
	return 0;
}

int store_add_result(struct store *s, const struct store_result *res)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	int rc, r;

	if (!s || !res || !res->run_id || res->run_id[0] == '\0' || res->device_id < 0)
		return -EINVAL;
	if (res->bytes > (uint64_t)INT64_MAX)
		return -ERANGE;

	r = store_stmt(s, STMT_ADD_RESULT, &st);
	if (r < 0)
		return r;

	rc = res->device_id == 0 ? sqlite3_bind_null(st, 2)
				 : sqlite3_bind_int64(st, 2, res->device_id);
	if (rc != SQLITE_OK ||
	    (rc = bind_text(st, 1, res->run_id, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 3, res->test, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 4, res->path, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 5, res->status, false)) != SQLITE_OK ||
	    (rc = bind_text(st, 6, res->reason, false)) != SQLITE_OK ||
	    (rc = sqlite3_bind_int64(st, 7, (sqlite3_int64)res->bytes)) != SQLITE_OK ||
	    (rc = sqlite3_bind_double(st, 8, res->seconds)) != SQLITE_OK ||
	    (rc = sqlite3_bind_double(st, 9, res->bw_bytes_per_s)) != SQLITE_OK ||
	    (rc = sqlite3_bind_double(st, 10, res->iops)) != SQLITE_OK ||
	    (rc = bind_text(st, 11, res->params, false)) != SQLITE_OK)
		return store_errno(s->db, rc);

	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		return store_errno(s->db, rc);
	return 0;
}

int store_set_baseline(struct store *s, int64_t device_id, const char *run_id, double bw_bytes_per_s,
		       uint32_t bs_bytes, int64_t saved_at)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	int r = store_stmt(s, STMT_SET_BASELINE, &st);
	if (r < 0)
		return r;
	int rc;
	if ((rc = sqlite3_bind_int64(st, 1, device_id)) != SQLITE_OK ||
	    (rc = bind_text(st, 2, run_id, false)) != SQLITE_OK ||
	    (rc = sqlite3_bind_double(st, 3, bw_bytes_per_s)) != SQLITE_OK ||
	    (rc = sqlite3_bind_int64(st, 4, bs_bytes)) != SQLITE_OK ||
	    (rc = sqlite3_bind_int64(st, 5, saved_at)) != SQLITE_OK)
		return store_errno(s->db, rc);
	rc = sqlite3_step(st);
	return rc == SQLITE_DONE ? 0 : store_errno(s->db, rc);
}

int store_get_baseline(struct store *s, const char *identity_key, struct store_baseline *ret)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	int r = first_row_by_key(s, STMT_GET_BASELINE, identity_key, &st);
	if (r < 0)
		return r;
	ret->bw_bytes_per_s = sqlite3_column_double(st, 0);
	ret->saved_at = sqlite3_column_int64(st, 1);
	ret->bs_bytes = (uint32_t)sqlite3_column_int64(st, 2);
	return 0;
}

int store_set_iops_baseline(struct store *s, int64_t device_id, const char *run_id,
			    const struct store_iops_baseline *base)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	int r = store_stmt(s, STMT_SET_IOPS_BASELINE, &st);
	if (r < 0)
		return r;
	int rc;
	if ((rc = sqlite3_bind_int64(st, 1, device_id)) != SQLITE_OK ||
	    (rc = bind_text(st, 2, run_id, false)) != SQLITE_OK ||
	    (rc = sqlite3_bind_double(st, 3, base->iops)) != SQLITE_OK ||
	    (rc = sqlite3_bind_int64(st, 4, base->bs_bytes)) != SQLITE_OK ||
	    (rc = sqlite3_bind_int64(st, 5, base->iodepth)) != SQLITE_OK ||
	    (rc = sqlite3_bind_int64(st, 6, base->saved_at)) != SQLITE_OK)
		return store_errno(s->db, rc);
	rc = sqlite3_step(st);
	return rc == SQLITE_DONE ? 0 : store_errno(s->db, rc);
}

int store_get_iops_baseline(struct store *s, const char *identity_key, struct store_iops_baseline *ret)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	int r = first_row_by_key(s, STMT_GET_IOPS_BASELINE, identity_key, &st);
	if (r < 0)
		return r;
	ret->iops = sqlite3_column_double(st, 0);
	ret->saved_at = sqlite3_column_int64(st, 1);
	ret->bs_bytes = (uint32_t)sqlite3_column_int64(st, 2);
	ret->iodepth = (unsigned)sqlite3_column_int64(st, 3);
	return 0;
}

static const char *column_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return t ? (const char *)t : "";
}

int store_list_disks(struct store *s, store_disk_fn fn, void *arg)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	int r = store_stmt(s, STMT_LIST_DISKS, &st);
	if (r < 0)
		return r;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_disk_row row = {
			.identity_key = column_text(st, 0),
			.kname = column_text(st, 1),
			.model = column_text(st, 2),
			.serial = column_text(st, 3),
			.size_bytes = (uint64_t)sqlite3_column_int64(st, 4),
			.last_bw_bytes_per_s = sqlite3_column_double(st, 5),
			.last_at = sqlite3_column_int64(st, 6),
			.has_baseline = sqlite3_column_type(st, 7) != SQLITE_NULL,
			.baseline_bw_bytes_per_s = sqlite3_column_double(st, 7),
			.baseline_at = sqlite3_column_int64(st, 8),
			.has_iops_baseline = sqlite3_column_type(st, 9) != SQLITE_NULL,
			.iops_baseline = {
				.iops = sqlite3_column_double(st, 9),
				.saved_at = sqlite3_column_int64(st, 10),
				.bs_bytes = (uint32_t)sqlite3_column_int64(st, 11),
				.iodepth = (unsigned)sqlite3_column_int64(st, 12),
			},
		};
		fn(&row, arg);
	}
	return rc == SQLITE_DONE ? 0 : store_errno(s->db, rc);
}

int store_list_runs(struct store *s, const struct store_run_filter *f, store_run_fn fn, void *arg)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	int r = store_stmt(s, STMT_LIST_RUNS, &st);
	if (r < 0)
		return r;
	int rc;
	if ((rc = bind_text(st, 1, f->command, true)) != SQLITE_OK ||
	    (rc = bind_text(st, 2, f->device, true)) != SQLITE_OK ||
	    (rc = bind_text(st, 3, f->pool, true)) != SQLITE_OK ||
	    (rc = f->since ? sqlite3_bind_int64(st, 4, f->since) : sqlite3_bind_null(st, 4)) != SQLITE_OK ||
	    (rc = f->until ? sqlite3_bind_int64(st, 5, f->until) : sqlite3_bind_null(st, 5)) != SQLITE_OK ||
	    (rc = bind_text(st, 6, f->host, true)) != SQLITE_OK)
		return store_errno(s->db, rc);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_run_row row = {
			.id = column_text(st, 0),
			.command = column_text(st, 1),
			.argv = column_text(st, 2),
			.started_at = sqlite3_column_int64(st, 3),
			.finished_at = sqlite3_column_int64(st, 4),
			.exit_status = sqlite3_column_int(st, 5),
			.results = sqlite3_column_int64(st, 6),
			.host = sqlite3_column_type(st, 7) == SQLITE_NULL ? NULL : column_text(st, 7),
			.fleet_run_id = sqlite3_column_type(st, 8) == SQLITE_NULL ? NULL : column_text(st, 8),
		};
		fn(&row, arg);
	}
	return rc == SQLITE_DONE ? 0 : store_errno(s->db, rc);
}

int store_get_run(struct store *s, const char *id_or_prefix, char **ret_id, char **ret_document)
{
	_cleanup_stmt_reset_ sqlite3_stmt *st = NULL;
	if (!s || !id_or_prefix || !id_or_prefix[0])
		return -EINVAL;
	int r = store_stmt(s, STMT_GET_RUN, &st);
	if (r < 0)
		return r;
	int rc = bind_text(st, 1, id_or_prefix, false);
	if (rc != SQLITE_OK)
		return store_errno(s->db, rc);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE)
		return -ENOENT;
	if (rc != SQLITE_ROW)
		return store_errno(s->db, rc);
	bool exact = strcmp(column_text(st, 0), id_or_prefix) == 0;
	_cleanup_free_ char *id = strdup(column_text(st, 0));
	_cleanup_free_ char *doc = strdup(column_text(st, 1));
	if (!id || !doc)
		return -ENOMEM;
	if (!exact) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			return -EEXIST;
		if (rc != SQLITE_DONE)
			return store_errno(s->db, rc);
	}
	*ret_id = TAKE_PTR(id);
	*ret_document = TAKE_PTR(doc);
	return 0;
}
