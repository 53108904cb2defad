#include "cmd/runctx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "basic/sysinfo.h"
#include "basic/timeutil.h"
#include "basic/tools_started.h"
#include "output/tools.h"

#define SCHEMA_VERSION 1

static void make_run_id(char *buf, size_t len)
{
	unsigned char raw[8];
	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
		uint64_t fallback = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		memcpy(raw, &fallback, sizeof(raw));
	}
	for (size_t i = 0; i < sizeof(raw) && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", raw[i]);
}

static int set_path(char *dst, const char *explicit_path, const char *base, const char *leaf)
{
	int n = explicit_path ? snprintf(dst, PATH_MAX, "%s", explicit_path)
			      : snprintf(dst, PATH_MAX, "%s/%s", base, leaf);
	return n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

static int resolve_paths(struct run_ctx *rc, const struct global_opts *g)
{
	char state[PATH_MAX];
	const char *env = getenv("IOTRIAGE_STATE_DIR");
	const char *log_base, *lib_base;
	if (env && *env) {
		log_base = lib_base = env;
	} else if (geteuid() == 0) {
		log_base = "/var/log/iotriage";
		lib_base = "/var/lib/iotriage";
	} else {
		const char *xdg = getenv("XDG_STATE_HOME");
		const char *home = getenv("HOME");
		if (xdg && *xdg)
			snprintf(state, sizeof(state), "%s/iotriage", xdg);
		else
			snprintf(state, sizeof(state), "%s/.local/state/iotriage", home ? home : "/tmp");
		log_base = lib_base = state;
	}
	int r = set_path(rc->log_path, g->log_file, log_base, "iotriage.log");
	if (r == 0)
		r = set_path(rc->results_dir, g->results_dir, log_base, "results");
	if (r == 0)
		r = set_path(rc->db_path, g->db_path, lib_base, "iotriage.db");
	return r;
}

int run_ctx_begin(struct run_ctx *rc, const char *command, int argc, char **argv,
		  const struct global_opts *g)
{
	memset(rc, 0, sizeof(*rc));
	rc->command = command;
	rc->started = time(NULL);
	rc->json = g->json;
	tools_forget(); /* interactive runs several commands: each document lists its own tools */
	make_run_id(rc->id, sizeof(rc->id));

	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "iotriage");
	for (int i = 0; i < argc; i++)
		strbuf_addf(&sb, " %s", argv[i]);
	snprintf(rc->argv_text, sizeof(rc->argv_text), "%s", sb.buf);
	strbuf_release(&sb);

	if (resolve_paths(rc, g) < 0) {
		fprintf(stderr, "iotriage %s: a log, results or database path is too long\n", command);
		return 1;
	}
	log_set_stderr_threshold(g->json ? LOG_WARN : LOG_INFO);
	int r = log_open(rc->log_path);
	if (r < 0) {
		fprintf(stderr, "iotriage %s: cannot open log file '%s': %s\n", command, rc->log_path,
			strerror(-r));
		return 1;
	}
	char stamp[32];
	time_format_stamp(rc->started, stamp, sizeof(stamp));
	snprintf(rc->results_file, sizeof(rc->results_file), "%s/iotriage_%s_%s_%s.json",
		 rc->results_dir, command, rc->id, stamp);
	return 0;
}

int run_ctx_paths(struct run_ctx *rc, const struct global_opts *g)
{
	memset(rc, 0, sizeof(*rc));
	rc->json = g->json;
	return resolve_paths(rc, g);
}

const char *run_ctx_store_error(int r)
{
	return r == -EPROTO   ? "it was written by a newer iotriage (schema version too new); it is left as it is"
	       : r == -EBADMSG ? "the file is not an iotriage database or is corrupt; it is left as it is"
	       : r == -EBUSY   ? "the database stayed locked by another process past the wait"
				: strerror(-r);
}

/* The system the run measured on, next to every figure of it. */
static void json_system(struct json *j)
{
	struct sysinfo_inventory inv;
	sysinfo_read(&inv);
	json_begin_object(j, "system");
	json_string(j, "cpu_model", inv.cpu_model[0] ? inv.cpu_model : NULL);
	json_uint(j, "cpus", inv.cpus);
	json_uint(j, "memory_bytes", inv.memory_bytes);
	json_string(j, "kernel", inv.kernel);
	json_string(j, "machine", inv.machine);
	json_string(j, "distribution", inv.distribution[0] ? inv.distribution : NULL);
	json_end_object(j);
}

void run_ctx_json_head(struct run_ctx *rc, struct json *j)
{
	char when[32], host[256] = "";
	gethostname(host, sizeof(host) - 1);
	time_format_iso8601(rc->started, when, sizeof(when));
	json_begin_object(j, NULL);
	json_uint(j, "schema_version", SCHEMA_VERSION);
	json_string(j, "iotriage_version", IOTRIAGE_VERSION);
	json_string(j, "command", rc->command);
	json_string(j, "run_id", rc->id);
	json_string(j, "host", host);
	json_string(j, "started_at", when);
	json_string(j, "argv", rc->argv_text);
	json_string(j, "results_file", rc->results_file);
	json_system(j);
}

static int save_to_store(struct run_ctx *rc, const char *document, int exit_status,
			 run_ctx_store_fn store_fn, void *arg)
{
	struct store *s = NULL;
	int r = store_open(rc->db_path, &s);
	if (r < 0) {
		log_msg(LOG_ERR, "cannot open results database '%s': %s", rc->db_path, run_ctx_store_error(r));
		return r;
	}
	struct store_run run = {
		.id = rc->id,
		.command = rc->command,
		.argv = rc->argv_text,
		.started_at = rc->started,
		.finished_at = time(NULL),
		.exit_status = exit_status,
		.results_file = rc->results_file,
		.document = document,
	};
	r = store_begin(s);
	if (r == 0)
		r = store_add_run(s, &run);
	if (r == 0 && store_fn)
		r = store_fn(s, rc, arg);
	if (r == 0)
		r = store_commit(s);
	if (r < 0) {
		log_msg(LOG_ERR, "cannot record the run in '%s': %s", rc->db_path, store_errmsg(s));
		store_rollback(s);
	}
	store_close(s);
	return r;
}

int run_ctx_finish(struct run_ctx *rc, struct json *j, int exit_status, run_ctx_store_fn store_fn,
		   void *arg)
{
	char when[32];
	json_tools(j);
	time_format_iso8601(time(NULL), when, sizeof(when));
	json_string(j, "finished_at", when);
	json_int(j, "exit_status", exit_status);
	json_end_object(j);

	int status = exit_status;
	int r = write_file_atomic(rc->results_file, j->out.buf, j->out.len, 0644);
	if (r < 0) {
		log_msg(LOG_ERR, "cannot write results file '%s': %s", rc->results_file, strerror(-r));
		status = status ? status : 1;
	}
	if (save_to_store(rc, j->out.buf, exit_status, store_fn, arg) < 0)
		status = status ? status : 1;
	if (rc->json)
		fputs(j->out.buf, stdout);
	if (r == 0)
		log_msg(LOG_INFO, "Results saved in %s", rc->results_file);
	log_close();
	return status;
}

int run_ctx_schema_version(void)
{
	return SCHEMA_VERSION;
}

int run_ctx_interrupted_status(void)
{
	int sig = interrupt_signal();
	return sig ? 128 + sig : 0;
}
