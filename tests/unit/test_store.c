/* test_store.c: unit tests for store/store.c.
 *
 * Writes through the store API, reads back through the plain SQLite API.
 * The busy check waits out the store's 5 s busy timeout on purpose.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "store/params.h"
#include "store/store.h"
#include "tap.h"

static char tmp_dir[PATH_MAX];

static const char *tmp_path(char *buf, size_t size, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", tmp_dir, name);

	if (n < 0 || (size_t)n >= size) {
		fprintf(stderr, "path too long\n");
		exit(2);
	}
	return buf;
}

static int read_whole(const char *path, char **ret, size_t *ret_len)
{
	_cleanup_fclose_ FILE *f = fopen(path, "rbe");
	_cleanup_free_ char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return -errno;
	for (;;) {
		size_t n;

		if (len == cap) {
			char *nb = realloc(buf, cap ? cap * 2 : 4096);

			if (!nb)
				return -ENOMEM;
			buf = nb;
			cap = cap ? cap * 2 : 4096;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0) {
			if (ferror(f))
				return -EIO;
			break;
		}
	}
	*ret = TAKE_PTR(buf);
	*ret_len = len;
	return 0;
}

static int write_whole(const char *path, const char *data, size_t len)
{
	_cleanup_fclose_ FILE *f = fopen(path, "wbe");

	if (!f)
		return -errno;
	if (fwrite(data, 1, len, f) != len)
		return -EIO;
	if (fflush(f) != 0)
		return -errno;
	return 0;
}

static bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

static int rm_rf(const char *path)
{
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* First column of the first row of sql (with optional text arg ?1) as int64;
 * -1 on error or no row. */
static int64_t query_int(sqlite3 *db, const char *sql, const char *arg)
{
	sqlite3_stmt *st = NULL;
	int64_t v = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (arg)
		sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static const char *col_text(sqlite3_stmt *st, int col)
{
	return (const char *)sqlite3_column_text(st, col);
}

/* Whether table has an index whose first column is column. */
static bool has_index_on(sqlite3 *db, const char *table, const char *column)
{
	sqlite3_stmt *st = NULL;
	bool found = false;

	if (sqlite3_prepare_v2(db,
			       "SELECT count(*) FROM pragma_index_list(?1) AS l"
			       " JOIN pragma_index_info(l.name) AS i"
			       " WHERE i.seqno = 0 AND i.name = ?2",
			       -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 2, column, -1, SQLITE_TRANSIENT);
	if (sqlite3_step(st) == SQLITE_ROW)
		found = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return found;
}

static const struct store_run run1 = {
	.id = "0123456789abcdef",
	.command = "readdisks",
	.argv = "iotriage readdisks --all",
	.started_at = 1700000000,
	.finished_at = 1700000042,
	.exit_status = 3,
	.results_file = "/var/lib/iotriage/runs/0123456789abcdef.json",
	.document = "{\"run\":1}",
};

static void test_basic(const char *db_path)
{
	struct store *s = NULL;
	sqlite3 *db = NULL;
	sqlite3_stmt *st = NULL;
	int64_t id1 = 0, id1b = 0, id2 = 0;
	char parent[PATH_MAX];
	struct stat sb;
	mode_t mask;
	int r;

	r = store_open(db_path, &s);
	is_int(r, 0, "store_open creates the database and its missing parents");
	if (r < 0) {
		printf("#   %s\n", store_errmsg(s));
		return;
	}
	tmp_path(parent, sizeof(parent), "sub/deeper");
	mask = umask(0);
	umask(mask);
	ok(stat(parent, &sb) == 0 && S_ISDIR(sb.st_mode) &&
		   (sb.st_mode & 07777) == (0755 & ~mask),
	   "parent directory created with mode 0755 (less umask)");

	is_int(store_begin(s), 0, "store_begin");
	is_int(store_add_run(s, &run1), 0, "store_add_run");

	struct store_device d1 = {
		.identity_key = "wwn:0x5000c500a1b2c3d4",
		.kname = "sda",
		.vendor = "ATA",
		.model = "Model One",
		.serial = "SER1",
		.wwn = "",
		.size_bytes = 1000204886016ULL,
	};
	is_int(store_upsert_device(s, &d1, 100, &id1), 0, "upsert new device");
	ok(id1 > 0, "new device gets a positive id");

	struct store_device d1b = {
		.identity_key = "wwn:0x5000c500a1b2c3d4",
		.kname = "sdb",
		.vendor = "",
		.model = "Model Two",
		.serial = NULL,
		.wwn = "0x5000c500a1b2c3d4",
		.size_bytes = 2000398934016ULL,
	};
	is_int(store_upsert_device(s, &d1b, 200, &id1b), 0, "upsert same device again");
	is_int(id1b, id1, "same identity key keeps the same id");

	struct store_device d2 = {
		.identity_key = "serial:OTHER",
		.kname = "nvme0n1",
		.size_bytes = 512110190592ULL,
	};
	is_int(store_upsert_device(s, &d2, 150, &id2), 0, "upsert a second device");
	ok(id2 > 0 && id2 != id1, "second device gets a different id");

	struct store_result res1 = {
		.run_id = run1.id,
		.device_id = id1,
		.test = "readdisk",
		.path = "/dev/sdb",
		.status = "ok",
		.reason = NULL,
		.bytes = 1073741824ULL,
		.seconds = 4.25,
		.bw_bytes_per_s = 252645135.0588,
		.iops = 1927.5,
		.params = "{\"bs\":131072}",
	};
	struct store_result res2 = {
		.run_id = run1.id,
		.device_id = 0,
		.test = "run",
		.path = NULL,
		.status = "error",
		.reason = "no devices",
		.bytes = 0,
		.seconds = 0.5,
		.bw_bytes_per_s = 0,
		.iops = 0,
		.params = NULL,
	};
	is_int(store_add_result(s, &res1), 0, "add result with a device");
	is_int(store_add_result(s, &res2), 0, "add result without a device");
	/* IOPS baselines: apart from the bandwidth one, replaced when saved again. */
	is_int(store_set_baseline(s, id1, run1.id, 2.5e8, 1048576, 100), 0, "a bandwidth baseline");
	struct store_iops_baseline ib = { .iops = 15000.5, .saved_at = 110, .bs_bytes = 4096, .iodepth = 4 };
	is_int(store_set_iops_baseline(s, id1, run1.id, &ib), 0, "an IOPS baseline for the same device");
	struct store_iops_baseline got = { 0 };
	is_int(store_get_iops_baseline(s, "wwn:0x5000c500a1b2c3d4", &got), 0, "read back by identity key");
	ok(got.iops == 15000.5 && got.saved_at == 110 && got.bs_bytes == 4096 && got.iodepth == 4,
	   "its IOPS, time, block size and queue depth");
	struct store_baseline bw = { 0 };
	ok(store_get_baseline(s, "wwn:0x5000c500a1b2c3d4", &bw) == 0 && bw.bw_bytes_per_s == 2.5e8,
	   "the bandwidth baseline is untouched by it");
	is_int(store_get_iops_baseline(s, "serial:OTHER", &got), -ENOENT, "a device without one: -ENOENT");
	ib = (struct store_iops_baseline){ .iops = 9000, .saved_at = 120, .bs_bytes = 8192, .iodepth = 1 };
	is_int(store_set_iops_baseline(s, id1, run1.id, &ib), 0, "saved again");
	ok(store_get_iops_baseline(s, "wwn:0x5000c500a1b2c3d4", &got) == 0 && got.iops == 9000 && got.iodepth == 1 &&
	   got.bs_bytes == 8192, "replaced, not added");

	is_int(store_commit(s), 0, "store_commit");

	/* Foreign keys are enforced: a result for an unknown run is refused. */
	struct store_result orphan = res2;
	orphan.run_id = "ffffffffffffffff";
	is_int(store_add_result(s, &orphan), -EIO, "result for an unknown run is refused");
	ok(strstr(store_errmsg(s), "FOREIGN KEY") != NULL, "store_errmsg explains the refusal");

	/* Read back with a separate plain connection while the store is open. */
	r = sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL);
	is_int(r, SQLITE_OK, "open the database read-only with sqlite3");

	is_int(query_int(db, "PRAGMA user_version", NULL), store_schema_version(),
	       "user_version == store_schema_version()");
	ok(store_schema_version() >= 1, "schema version is at least 1");

	if (sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		is_str(col_text(st, 0), "delete", "rollback journal, not WAL");
	else
		ok(0, "rollback journal, not WAL");
	sqlite3_finalize(st);
	st = NULL;

	ok(has_index_on(db, "results", "run_id"), "index on results(run_id)");
	ok(has_index_on(db, "results", "device_id"), "index on results(device_id)");
	ok(has_index_on(db, "runs", "started_at"), "index on runs(started_at)");

	/* runs */
	r = sqlite3_prepare_v2(db,
			       "SELECT id, command, argv, started_at, finished_at, exit_status,"
			       " results_file, document FROM runs",
			       -1, &st, NULL);
	if (r == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		is_str(col_text(st, 0), run1.id, "runs.id");
		is_str(col_text(st, 1), run1.command, "runs.command");
		is_str(col_text(st, 2), run1.argv, "runs.argv");
		is_int(sqlite3_column_int64(st, 3), run1.started_at, "runs.started_at");
		is_int(sqlite3_column_int64(st, 4), run1.finished_at, "runs.finished_at");
		is_int(sqlite3_column_int(st, 5), run1.exit_status, "runs.exit_status");
		is_str(col_text(st, 6), run1.results_file, "runs.results_file");
		is_str(col_text(st, 7), run1.document, "runs.document");
		is_int(sqlite3_step(st), SQLITE_DONE, "exactly one run");
	} else {
		ok(0, "read runs row");
	}
	sqlite3_finalize(st);
	st = NULL;

	/* devices */
	is_int(query_int(db, "SELECT count(*) FROM devices", NULL), 2, "two device rows");
	r = sqlite3_prepare_v2(db,
			       "SELECT id, kname, vendor, model, serial, wwn, size_bytes,"
			       " first_seen, last_seen FROM devices WHERE identity_key = ?1",
			       -1, &st, NULL);
	if (r == SQLITE_OK)
		sqlite3_bind_text(st, 1, d1.identity_key, -1, SQLITE_STATIC);
	if (r == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		is_int(sqlite3_column_int64(st, 0), id1, "devices.id matches returned id");
		is_str(col_text(st, 1), "sdb", "kname updated by second upsert");
		is_str(col_text(st, 2), "ATA", "empty vendor keeps the stored vendor");
		is_str(col_text(st, 3), "Model Two", "non-empty model is updated");
		is_str(col_text(st, 4), "SER1", "NULL serial keeps the stored serial");
		is_str(col_text(st, 5), "0x5000c500a1b2c3d4", "wwn set once known");
		is_int(sqlite3_column_int64(st, 6), (int64_t)d1b.size_bytes, "size_bytes updated");
		is_int(sqlite3_column_int64(st, 7), 100, "first_seen kept");
		is_int(sqlite3_column_int64(st, 8), 200, "last_seen updated");
	} else {
		ok(0, "read device row");
	}
	sqlite3_finalize(st);
	st = NULL;
	is_int(query_int(db, "SELECT count(*) FROM devices WHERE identity_key = ?1"
			 " AND vendor IS NULL AND model IS NULL AND serial IS NULL"
			 " AND wwn IS NULL AND kname = 'nvme0n1'",
			 d2.identity_key),
	       1, "unset device strings stored as NULL");

	/* results */
	r = sqlite3_prepare_v2(db,
			       "SELECT run_id, device_id, test, path, status, reason, bytes,"
			       " seconds, bw_bytes_per_s, iops, params FROM results ORDER BY id",
			       -1, &st, NULL);
	if (r == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		is_str(col_text(st, 0), run1.id, "results[0].run_id");
		is_int(sqlite3_column_int64(st, 1), id1, "results[0].device_id");
		is_str(col_text(st, 2), "readdisk", "results[0].test");
		is_str(col_text(st, 3), "/dev/sdb", "results[0].path");
		is_str(col_text(st, 4), "ok", "results[0].status");
		is_int(sqlite3_column_type(st, 5), SQLITE_NULL, "results[0].reason is NULL");
		is_int(sqlite3_column_int64(st, 6), 1073741824, "results[0].bytes");
		ok(sqlite3_column_double(st, 7) == 4.25, "results[0].seconds");
		ok(sqlite3_column_double(st, 8) == 252645135.0588, "results[0].bw_bytes_per_s");
		ok(sqlite3_column_double(st, 9) == 1927.5, "results[0].iops");
		is_str(col_text(st, 10), "{\"bs\":131072}", "results[0].params");
	} else {
		ok(0, "read first result row");
	}
	if (r == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
		is_str(col_text(st, 0), run1.id, "results[1].run_id");
		is_int(sqlite3_column_type(st, 1), SQLITE_NULL,
		       "results[1].device_id is NULL for device_id 0");
		is_str(col_text(st, 2), "run", "results[1].test");
		is_int(sqlite3_column_type(st, 3), SQLITE_NULL, "results[1].path is NULL");
		is_str(col_text(st, 4), "error", "results[1].status");
		is_str(col_text(st, 5), "no devices", "results[1].reason");
		ok(sqlite3_column_double(st, 7) == 0.5, "results[1].seconds");
		is_int(sqlite3_column_type(st, 10), SQLITE_NULL, "results[1].params is NULL");
		is_int(sqlite3_step(st), SQLITE_DONE, "exactly two results");
	} else {
		ok(0, "read second result row");
	}
	sqlite3_finalize(st);
	st = NULL;
	sqlite3_close(db);
	db = NULL;

	store_close(s);
	s = NULL;

	/* Reopening an up-to-date database must not re-run migrations. */
	r = store_open(db_path, &s);
	is_int(r, 0, "reopen an existing database");
	store_close(s);
}

static void test_rollback(const char *db_path)
{
	struct store *s = NULL;
	sqlite3 *db = NULL;
	int64_t id = 0;
	int r;

	r = store_open(db_path, &s);
	is_int(r, 0, "open for rollback test");
	if (r < 0)
		return;

	struct store_run run2 = run1;
	run2.id = "fedcba9876543210";
	struct store_device d3 = { .identity_key = "serial:ROLLEDBACK", .kname = "sdz" };
	struct store_result res = { .run_id = run2.id, .test = "run", .status = "ok" };

	is_int(store_begin(s), 0, "begin for rollback");
	is_int(store_add_run(s, &run2), 0, "add run in rolled-back transaction");
	is_int(store_upsert_device(s, &d3, 300, &id), 0, "add device in rolled-back transaction");
	res.device_id = id;
	is_int(store_add_result(s, &res), 0, "add result in rolled-back transaction");
	is_int(store_rollback(s), 0, "store_rollback");

	if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK) {
		is_int(query_int(db, "SELECT count(*) FROM runs WHERE id = ?1", run2.id), 0,
		       "rollback leaves no run row");
		is_int(query_int(db, "SELECT count(*) FROM results WHERE run_id = ?1", run2.id), 0,
		       "rollback leaves no result rows");
		is_int(query_int(db, "SELECT count(*) FROM devices WHERE identity_key = ?1",
				 d3.identity_key),
		       0, "rollback leaves no device row");
		is_int(query_int(db, "SELECT count(*) FROM runs", NULL), 1,
		       "committed run is still there");
	} else {
		ok(0, "open database to check rollback");
	}
	sqlite3_close(db);
	store_close(s);
}

/* Another process holds the write lock for SECONDS, then lets go. */
static pid_t hold_lock(const char *db_path, double seconds)
{
	int fds[2];
	if (pipe(fds) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		sqlite3 *db = NULL;
		close(fds[0]);
		if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
		    sqlite3_exec(db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) != SQLITE_OK)
			_exit(1);
		if (write(fds[1], "x", 1) != 1)
			_exit(1);
		usleep((useconds_t)(seconds * 1e6));
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(db);
		_exit(0);
	}
	close(fds[1]);
	char c;
	ssize_t n = read(fds[0], &c, 1);
	close(fds[0]);
	return n == 1 ? pid : -1;
}

static void test_busy(const char *db_path)
{
	struct store *s = NULL;
	double t0, elapsed;
	int r;

	r = store_open(db_path, &s);
	is_int(r, 0, "open for busy test");
	if (r < 0)
		return;

	/* A writer that holds the lock longer than the 5 s read timeout. */
	pid_t holder = hold_lock(db_path, 6.5);
	ok(holder > 0, "another process holds the write lock for 6.5 s");
	struct store_run run3 = run1;
	run3.id = "00000000000000aa";
	t0 = now_s();
	r = store_begin(s);
	if (r == 0)
		r = store_add_run(s, &run3);
	if (r == 0)
		r = store_commit(s);
	elapsed = now_s() - t0;
	is_int(r, 0, "a run's write waits for it and is recorded");
	ok(elapsed >= 6.0 && elapsed < 30.0, "having waited longer than the 5 s read timeout");
	printf("#   waited %.2f s\n", elapsed);
	if (holder > 0)
		waitpid(holder, NULL, 0);
	store_rollback(s);

	/* A lock that outlasts the write wait: -EBUSY, and a message that says so. */
	store_set_write_wait(s, 1500);
	holder = hold_lock(db_path, 4);
	run3.id = "00000000000000ab";
	t0 = now_s();
	r = store_begin(s);
	if (r == 0) {
		r = store_add_run(s, &run3);
		(void)store_rollback(s);
	}
	elapsed = now_s() - t0;
	is_int(r, -EBUSY, "a lock held past the write wait gives -EBUSY");
	ok(elapsed >= 1.4 && elapsed < 3.9, "after the write wait");
	ok(strstr(store_errmsg(s), "locked by another process (waited 1.5 s)") != NULL,
	   "store_errmsg says the database is locked and how long it waited");
	if (holder > 0)
		waitpid(holder, NULL, 0);

	is_int(store_begin(s), 0, "begin works once the lock is released");
	is_int(store_rollback(s), 0, "and rolls back");
	store_close(s);
}

static void test_refuse_newer(void)
{
	char path[PATH_MAX], journal[PATH_MAX];
	_cleanup_free_ char *before = NULL, *after = NULL;
	size_t before_len = 0, after_len = 0;
	struct store *s = NULL;
	sqlite3 *db = NULL;
	int r;

	tmp_path(path, sizeof(path), "newer.db");
	tmp_path(journal, sizeof(journal), "newer.db-journal");

	r = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (r == SQLITE_OK)
		r = sqlite3_exec(db,
				 "CREATE TABLE future(x INTEGER);"
				 "INSERT INTO future VALUES(42);"
				 "PRAGMA user_version = 999;",
				 NULL, NULL, NULL);
	sqlite3_close(db);
	is_int(r, SQLITE_OK, "create a database with user_version 999");

	is_int(read_whole(path, &before, &before_len), 0, "read newer database bytes");
	r = store_open(path, &s);
	is_int(r, -EPROTO, "newer schema version is refused with -EPROTO");
	ok(s == NULL, "no store returned for a newer schema");
	store_close(s);
	is_int(read_whole(path, &after, &after_len), 0, "reread newer database bytes");
	ok(before && after && before_len > 0 && before_len == after_len &&
		   memcmp(before, after, before_len) == 0,
	   "newer database file is byte-for-byte unchanged");
	ok(!path_exists(journal), "no journal left next to the newer database");
}

static void test_refuse_garbage(const char *name, size_t size)
{
	static const char line[] = "this is not an SQLite database, just some text\n";
	char path[PATH_MAX], msg[128];
	_cleanup_free_ char *data = malloc(size);
	_cleanup_free_ char *after = NULL;
	size_t after_len = 0;
	struct store *s = NULL;
	int r;

	if (!data) {
		ok(0, "allocate garbage");
		return;
	}
	for (size_t i = 0; i < size; i++)
		data[i] = line[i % (sizeof(line) - 1)];
	tmp_path(path, sizeof(path), name);
	is_int(write_whole(path, data, size), 0, "write garbage file");

	r = store_open(path, &s);
	snprintf(msg, sizeof(msg), "%zu bytes of text are refused with -EBADMSG", size);
	is_int(r, -EBADMSG, msg);
	ok(s == NULL, "no store returned for garbage");
	store_close(s);

	is_int(read_whole(path, &after, &after_len), 0, "reread garbage file");
	ok(after && after_len == size && memcmp(data, after, size) == 0,
	   "garbage file is byte-for-byte unchanged");
}

/* The params column's text is the same for every command: rw, bs_bytes,
 * iodepth, numjobs in that order, ", " between members, strings escaped. */
static void test_params(void)
{
	struct store_params p = STORE_PARAMS_INIT;
	is_str(store_params_text(&p), "{}", "params with no member is {}");
	store_params_workload(&p, "randread", 4096, 32, 1);
	is_str(store_params_text(&p), "{\"rw\": \"randread\", \"bs_bytes\": 4096, \"iodepth\": 32, \"numjobs\": 1}",
	       "a workload's params, as run, presets and fio-job rows store them");
	store_params_uint(&p, "loops", 3);
	is_str(store_params_text(&p),
	       "{\"rw\": \"randread\", \"bs_bytes\": 4096, \"iodepth\": 32, \"numjobs\": 1, \"loops\": 3}",
	       "a member added after the text was taken");
	store_params_release(&p);
	store_params_str(&p, "vol_id", "a\"b");
	store_params_str(&p, "read_from", NULL);
	is_str(store_params_text(&p), "{\"vol_id\": \"a\\\"b\", \"read_from\": \"\"}",
	       "strings escaped, NULL stored as empty");
	store_params_release(&p);
}

/* A host's run collected by fleet: new, or already stored here by the host
 * itself (a shared database): recorded once, with the host. */
static void test_host_run(void)
{
	struct store *s = NULL;
	sqlite3 *db = NULL;
	char path[PATH_MAX];
	tmp_path(path, sizeof(path), "host-runs.db");
	if (store_open(path, &s) < 0) {
		ok(0, "store_open for host runs");
		return;
	}
	struct store_run local = { .id = "aaaaaaaaaaaaaaaa", .command = "readdisk", .argv = "iotriage readdisk x",
				   .started_at = 10, .finished_at = 11, .document = "{\"run\":2}" };
	struct store_run host = local;
	host.host = "s1";
	host.host_hostname = "fleet-s1";
	host.host_machine_id = "m1";
	host.fleet_run_id = "ffffffffffffffff";
	host.results_file = "/elsewhere/copy.json";
	is_int(store_add_run(s, &local), 0, "the host stores its run itself");
	ok(store_add_run(s, &host) < 0, "store_add_run refuses the same id again");
	is_int(store_add_host_run(s, &host), 0, "store_add_host_run records the host's run that is already here");
	is_int(store_add_host_run(s, &host), -EEXIST, "but not a second time (the row has its host now)");
	struct store_run other = host;
	other.id = "bbbbbbbbbbbbbbbb";
	is_int(store_add_host_run(s, &other), 0, "a host's run not yet here is added");
	struct store_run clash = local;
	clash.id = "cccccccccccccccc";
	is_int(store_add_run(s, &clash), 0, "a local run of another command...");
	clash.command = "benchpool";
	clash.host = "s2";
	is_int(store_add_host_run(s, &clash), -EEXIST, "...is never taken for a host's run under the same id");
	store_close(s);
	if (sqlite3_open(path, &db) != SQLITE_OK) {
		ok(0, "sqlite3_open");
		return;
	}
	sqlite3_stmt *st = NULL;
	sqlite3_prepare_v2(db,
			   "SELECT count(*), max(host), max(fleet_run_id), max(results_file), max(document) FROM runs "
			   "WHERE id = 'aaaaaaaaaaaaaaaa'",
			   -1, &st, NULL);
	if (st && sqlite3_step(st) == SQLITE_ROW) {
		is_int(sqlite3_column_int(st, 0), 1, "the run is stored once");
		is_str((const char *)sqlite3_column_text(st, 1), "s1", "under its host");
		is_str((const char *)sqlite3_column_text(st, 2), "ffffffffffffffff", "and the fleet run");
		ok(sqlite3_column_type(st, 3) == SQLITE_NULL, "its own results file (none) is kept");
		is_str((const char *)sqlite3_column_text(st, 4), "{\"run\":2}", "and its own document");
	} else {
		ok(0, "the run is stored");
	}
	sqlite3_finalize(st);
	st = NULL;
	sqlite3_prepare_v2(db, "SELECT command, host FROM runs WHERE id = 'cccccccccccccccc'", -1, &st, NULL);
	ok(st && sqlite3_step(st) == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(st, 0), "readdisk") == 0 &&
		   sqlite3_column_type(st, 1) == SQLITE_NULL,
	   "the other command's run is unchanged");
	sqlite3_finalize(st);
	sqlite3_close(db);
}

int main(void)
{
	const char *base = getenv("TMPDIR");
	char db_path[PATH_MAX];
	int n;

	store_close(NULL);
	ok(store_errmsg(NULL) != NULL && store_errmsg(NULL)[0] != '\0',
	   "store_errmsg(NULL) gives a message");
	is_int(store_open(NULL, NULL), -EINVAL, "store_open(NULL) is -EINVAL");

	if (!base || base[0] == '\0')
		base = "/tmp";
	n = snprintf(tmp_dir, sizeof(tmp_dir), "%s/test_store.XXXXXX", base);
	if (n < 0 || (size_t)n >= sizeof(tmp_dir) || !mkdtemp(tmp_dir)) {
		ok(0, "create temporary directory");
		return tap_done();
	}

	tmp_path(db_path, sizeof(db_path), "sub/deeper/triage.db");

	test_params();
	test_basic(db_path);
	test_rollback(db_path);
	test_busy(db_path);
	test_host_run();
	test_refuse_newer();
	test_refuse_garbage("garbage-short.db", 47);
	test_refuse_garbage("garbage-long.db", 8192);

	ok(rm_rf(tmp_dir) == 0 && !path_exists(tmp_dir), "temporary directory removed");
	return tap_done();
}
