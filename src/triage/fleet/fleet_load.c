/* fleet --fio: fio's client/server mode over the fleet's hosts. */
#include "triage/fleet/fleet_load.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/children.h"
#include "basic/jsonread.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/timeutil.h"
#include "remote/server.h"

#define CHECK_LIMIT_MS 30000ULL
#define SERVER_READY_MS 15000

static void host_fail(struct fleet_load_host *h, enum fleet_status st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void host_fail(struct fleet_load_host *h, enum fleet_status st, const char *fmt, ...)
{
	va_list ap;
	h->status = st;
	va_start(ap, fmt);
	vsnprintf(h->reason, sizeof(h->reason), fmt, ap);
	va_end(ap);
	log_msg(LOG_WARN, "FLEET-FIO (%s): %s: %s", h->name, fleet_status_name(st), h->reason);
}

static bool resolve_addresses(struct fleet_load *ld)
{
	bool all = true;
	for (size_t i = 0; i < ld->n; i++) {
		char why[512];
		if (remote_host_address(&ld->ssh, ld->h[i].name, ld->h[i].addr, sizeof(ld->h[i].addr), why,
					sizeof(why)) < 0) {
			host_fail(&ld->h[i], FLEET_UNREACHABLE, "%s", why);
			all = false;
		}
	}
	return all;
}

static int check_local_fio(struct fleet_load *ld)
{
	const char *argv[] = { "fio", "--version", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int r = spawn_check(argv, 10000, &out, &err);
	if (r == -ENOENT)
		snprintf(ld->error, sizeof(ld->error), "fio is not installed here: it drives the clients "
			 "(install fio; Debian: apt-get install fio)");
	else if (r < 0)
		snprintf(ld->error, sizeof(ld->error), "%s", err.buf);
	else
		snprintf(ld->fio_version, sizeof(ld->fio_version), "%.*s", (int)strcspn(out.buf, "\r\n"), out.buf);
	strbuf_release(&out);
	strbuf_release(&err);
	return r;
}

/* What `fio --version` over ssh said about one client. */
static void fio_check_done(struct fleet_load_host *h, struct child *c, bool timed_out)
{
	char why[512];
	if (timed_out) {
		host_fail(h, FLEET_UNREACHABLE, "no answer from 'fio --version' there in time");
		return;
	}
	switch (ssh_classify(c->status, c->err.buf, why, sizeof(why))) {
	case SSH_FAIL_UNREACHABLE:
		host_fail(h, FLEET_UNREACHABLE, "%s", why);
		return;
	case SSH_FAIL_AUTH:
		host_fail(h, FLEET_AUTH_REFUSED, "%s (BatchMode: no password is asked for)", why);
		return;
	case SSH_FAIL_HOST_KEY:
		host_fail(h, FLEET_HOST_KEY, "%s (add the host's key to known_hosts, or --accept-new-host-keys)", why);
		return;
	case SSH_FAIL_OTHER:
		host_fail(h, FLEET_ERROR, "%s", why);
		return;
	case SSH_FAIL_NOT_FOUND:
		host_fail(h, FLEET_FIO_MISSING, "fio is not installed on '%s' or cannot run there (%s): install fio there "
			  "(Debian: apt-get install fio)", h->name, why);
		return;
	case SSH_FAIL_NONE:
		break;
	}
	if (c->status != 0) {
		host_fail(h, FLEET_FAILED, "'fio --version' failed there with exit status %d", c->status);
		return;
	}
	snprintf(h->fio_version, sizeof(h->fio_version), "%.*s", (int)strcspn(c->out.buf, "\r\n"), c->out.buf);
	log_msg(LOG_INFO, "FLEET-FIO (%s): %s at %s", h->name, h->fio_version, h->addr);
}

/* `fio --version` on every client at once. Returns whether all have it. */
static bool check_remote_fio(struct fleet_load *ld)
{
	struct child *c = xcalloc(ld->n, sizeof(*c));
	struct child **w = xcalloc(ld->n, sizeof(*w));
	static const char *const words[] = { "fio", "--version", NULL };
	for (size_t i = 0; i < ld->n; i++) {
		char **argv = ssh_argv(&ld->ssh, ld->h[i].name, words);
		if (child_start(&c[i], (const char *const *)argv) == 0)
			w[i] = &c[i];
		else
			host_fail(&ld->h[i], FLEET_ERROR, "cannot run ssh");
		ssh_argv_free(argv);
	}
	uint64_t deadline = now_ns() + (CHECK_LIMIT_MS + 1000ULL * ld->ssh.connect_timeout_s) * 1000000ULL;
	while (children_poll(w, ld->n, 200) > 0 && now_ns() < deadline && !interrupt_requested())
		;
	bool all = true;
	for (size_t i = 0; i < ld->n; i++) {
		if (w[i])
			fio_check_done(&ld->h[i], &c[i], c[i].running);
		all = all && ld->h[i].status == FLEET_PENDING;
		if (w[i])
			child_release(&c[i]);
	}
	free(w);
	free(c);
	return all && !interrupt_requested();
}

/* The remote command line ssh hands to the client's shell there (each word
 * quoted by ssh_quote; this is not a shell of ours: nothing runs through a
 * shell here). fio --server forks a process for each job, and a hangup of
 * the session's terminal reaches only the foreground process group's
 * handlers: fio's server and job processes may outlive a dropped
 * connection. So "$@" (fio --server=...) runs under a sh whose trap, on
 * the terminal's hangup (HUP: connection dropped, ssh killed), ^C typed by
 * remote_server_stop (INT) or TERM, ignores further signals itself, sends
 * TERM to its whole process group (the server and every job it forked: a
 * non-interactive sh keeps background commands in its own group), and
 * KILL a second later to anything left, itself included. */
#define FIO_SERVER_GUARD                                                                                \
	"trap 'trap \"\" HUP INT TERM; kill -TERM 0; sleep 1; kill -KILL 0' HUP INT TERM; \"$@\" & wait $!"

static bool start_servers(struct fleet_load *ld, struct remote_server *srv)
{
	for (size_t i = 0; i < ld->n; i++) {
		struct strbuf opt = STRBUF_INIT;
		strbuf_addf(&opt, "--server=%s,%u", ld->h[i].addr, ld->port);
		const char *words[] = { "sh", "-c", FIO_SERVER_GUARD, "iotriage-fio-server", "fio", opt.buf, NULL };
		log_msg(LOG_INFO, "FLEET-FIO (%s): starting 'fio %s' there", ld->h[i].name, opt.buf);
		if (remote_server_start(&srv[i], &ld->ssh, ld->h[i].name, words) < 0)
			host_fail(&ld->h[i], FLEET_ERROR, "%s", srv[i].why);
		strbuf_release(&opt);
	}
	size_t ready = remote_servers_wait_ready(srv, ld->n, fio_server_ready, SERVER_READY_MS);
	for (size_t i = 0; i < ld->n; i++)
		if (!srv[i].ready && ld->h[i].status == FLEET_PENDING)
			host_fail(&ld->h[i], interrupt_requested() ? FLEET_INTERRUPTED : FLEET_ERROR,
				  "its fio server did not start: %s", srv[i].why);
	return ready == ld->n;
}

static void stop_servers(struct fleet_load *ld, struct remote_server *srv)
{
	for (size_t i = 0; i < ld->n; i++)
		if (srv[i].started) {
			remote_server_stop(&srv[i], 0);
			log_msg(LOG_INFO, "FLEET-FIO (%s): fio server stopped", ld->h[i].name);
		}
}

/* The job file, in a private temporary file. Returns 0 and its PATH. */
static int write_jobfile(struct fleet_load *ld, char *path, size_t len)
{
	snprintf(path, len, "/tmp/iotriage-fio-XXXXXX");
	int fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0) {
		int r = -errno;
		snprintf(ld->error, sizeof(ld->error), "cannot make the job file in '/tmp': %s", strerror(-r));
		return r;
	}
	ssize_t n = write(fd, ld->jobfile.buf, ld->jobfile.len);
	int r = n == (ssize_t)ld->jobfile.len ? 0 : -EIO;
	close(fd);
	if (r < 0) {
		unlink(path);
		snprintf(ld->error, sizeof(ld->error), "cannot write the job file '%s'", path);
	}
	return r;
}

/* fio's line about ADDR,PORT in TEXT (its stderr), into BUF. */
static bool fio_line_about(const char *text, const char *addr, unsigned port, char *buf, size_t len)
{
	char needle[80];
	snprintf(needle, sizeof(needle), "%s:%u", addr, port);
	const char *hit = strstr(text, needle);
	if (!hit) {
		snprintf(needle, sizeof(needle), "%s", addr);
		hit = strstr(text, needle);
	}
	if (!hit)
		return false;
	const char *start = hit;
	while (start > text && start[-1] != '\n')
		start--;
	snprintf(buf, len, "%.*s", (int)strcspn(start, "\r\n"), start);
	return true;
}

static void read_report(struct fleet_load *ld, struct spawn_result *res)
{
	struct fio_endpoint *ep = xcalloc(ld->n, sizeof(*ep));
	for (size_t i = 0; i < ld->n; i++)
		ep[i] = (struct fio_endpoint){ ld->h[i].name, ld->h[i].addr, ld->port };
	char why[512];
	if (fio_clients_parse(res->out.buf, ep, ld->n, &ld->figures, why, sizeof(why)) < 0) {
		char line[400];
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(res->err.buf, "\r\n"), res->err.buf);
		snprintf(ld->error, sizeof(ld->error), "%s (fio exit status %d%s%s)", why, res->status,
			 line[0] ? ": " : "", line);
		free(ep);
		return;
	}
	free(ep);
	ld->ran = true;
	ld->fio_report = strbuf_detach(&res->out);
	for (size_t i = 0; i < ld->n; i++) {
		const struct fio_client_figures *f = &ld->figures.clients[i];
		struct fleet_load_host *h = &ld->h[i];
		char line[400];
		if (!f->reported)
			host_fail(h, FLEET_FAILED, "fio reported nothing from this client: %s",
				  fio_line_about(res->err.buf, h->addr, ld->port, line, sizeof(line)) ? line
				  : "no line of fio's names it");
		else if (f->error)
			host_fail(h, FLEET_FAILED, "the job failed there: %s (error %d)", strerror(f->error), f->error);
		else {
			h->status = FLEET_OK;
			ld->ok++;
		}
	}
}

/* One fio client run against every server. */
static void run_client(struct fleet_load *ld)
{
	char path[64];
	if (write_jobfile(ld, path, sizeof(path)) < 0)
		return;
	const char **argv = xcalloc(ld->n + 5, sizeof(*argv));
	struct strbuf *opts = xcalloc(ld->n, sizeof(*opts));
	size_t k = 0;
	argv[k++] = "fio";
	for (size_t i = 0; i < ld->n; i++) {
		opts[i] = (struct strbuf)STRBUF_INIT;
		strbuf_addf(&opts[i], "--client=%s,%u", ld->h[i].addr, ld->port);
		argv[k++] = opts[i].buf;
	}
	argv[k++] = "--output-format=json";
	argv[k++] = path;
	log_msg(LOG_INFO, "FLEET-FIO: one job on %zu clients at once", ld->n);
	struct spawn_opts so = { .timeout_ms = ld->time_limit_ms ? (int)ld->time_limit_ms : 0, .stdin_fd = -1,
				 .interruptible = true };
	struct spawn_result res;
	int r = spawn_run_opts(argv, &so, &res);
	unlink(path);
	if (r == -EINTR)
		snprintf(ld->error, sizeof(ld->error), "interrupted: the fio client was stopped");
	else if (r == -ETIMEDOUT)
		snprintf(ld->error, sizeof(ld->error), "time limit of %.0f s reached: the fio client was stopped",
			 (double)ld->time_limit_ms / 1000.0);
	else if (r < 0)
		snprintf(ld->error, sizeof(ld->error), "cannot run fio here: %s", strerror(-r));
	else
		read_report(ld, &res);
	if (r == 0 || r == -EINTR || r == -ETIMEDOUT)
		spawn_result_release(&res);
	for (size_t i = 0; i < ld->n; i++)
		strbuf_release(&opts[i]);
	free(opts);
	free(argv);
}

static void mark_pending(struct fleet_load *ld, enum fleet_status st, const char *why)
{
	for (size_t i = 0; i < ld->n; i++)
		if (ld->h[i].status == FLEET_PENDING)
			host_fail(&ld->h[i], st, "%s", why);
}

size_t fleet_load_run(struct fleet_load *ld)
{
	char why[512];
	ld->h = xcalloc(ld->n ? ld->n : 1, sizeof(*ld->h));
	for (size_t i = 0; i < ld->n; i++)
		ld->h[i].name = ld->hosts[i];
	ld->jobfile = (struct strbuf)STRBUF_INIT;
	if (fio_jobfile(ld->fio_args, ld->n_fio_args, &ld->jobfile, why, sizeof(why)) < 0) {
		snprintf(ld->error, sizeof(ld->error), "%s", why);
		return 0;
	}
	if (check_local_fio(ld) < 0 || !resolve_addresses(ld) || !check_remote_fio(ld)) {
		if (!ld->error[0])
			snprintf(ld->error, sizeof(ld->error), "%s", interrupt_requested() ? "interrupted"
				 : "not every client can take part: nothing was started");
		mark_pending(ld, interrupt_requested() ? FLEET_INTERRUPTED : FLEET_ERROR,
			     "not started: another client cannot take part");
		return 0;
	}
	struct remote_server *srv = xcalloc(ld->n, sizeof(*srv));
	if (start_servers(ld, srv))
		run_client(ld);
	else
		snprintf(ld->error, sizeof(ld->error), "%s", interrupt_requested() ? "interrupted"
			 : "not every fio server started: the job was not run");
	stop_servers(ld, srv);
	free(srv);
	mark_pending(ld, interrupt_requested() ? FLEET_INTERRUPTED : FLEET_ERROR,
		     ld->error[0] ? ld->error : "no figures");
	return ld->ok;
}

static void figures_json(struct json *j, const struct fio_client_figures *f)
{
	json_uint(j, "jobs", f->jobs);
	json_double(j, "runtime_seconds", f->runtime_s);
	json_begin_object(j, "read");
	json_uint(j, "bytes", f->read_bytes);
	json_double(j, "bw_bytes_per_s", f->read_bw);
	json_double(j, "iops", f->read_iops);
	json_end_object(j);
	json_begin_object(j, "write");
	json_uint(j, "bytes", f->write_bytes);
	json_double(j, "bw_bytes_per_s", f->write_bw);
	json_double(j, "iops", f->write_iops);
	json_end_object(j);
}

static void params_json(const struct fleet_load *ld, struct json *j)
{
	json_begin_object(j, "parameters");
	json_string(j, "mode", "fio");
	json_uint(j, "port", ld->port);
	json_begin_array(j, "fio_args");
	for (size_t i = 0; i < ld->n_fio_args; i++)
		json_string(j, NULL, ld->fio_args[i]);
	json_end_array(j);
	json_string(j, "jobfile", ld->jobfile.buf);
	json_string(j, "fio_version", ld->fio_version);
	json_end_object(j);
}

void fleet_load_json(const struct fleet_load *ld, struct json *j)
{
	params_json(ld, j);
	json_begin_array(j, "clients");
	for (size_t i = 0; i < ld->n; i++) {
		const struct fleet_load_host *h = &ld->h[i];
		json_begin_object(j, NULL);
		json_string(j, "host", h->name);
		json_string(j, "address", h->addr);
		json_uint(j, "port", ld->port);
		json_string(j, "status", fleet_status_name(h->status));
		json_string(j, "reason", h->reason);
		json_string(j, "fio_version", h->fio_version);
		if (ld->ran && ld->figures.clients[i].reported)
			figures_json(j, &ld->figures.clients[i]);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_object(j, "aggregate");
	json_uint(j, "clients", ld->ok);
	json_bool(j, "complete", ld->ok == ld->n);
	if (ld->ran) {
		figures_json(j, &ld->figures.aggregate);
		if (ld->figures.has_fio_total) {
			json_begin_object(j, "fio_all_clients");
			json_double(j, "read_bw_bytes_per_s", ld->figures.fio_total_read_bw);
			json_double(j, "write_bw_bytes_per_s", ld->figures.fio_total_write_bw);
			json_end_object(j);
		}
	}
	json_end_object(j);
	json_string(j, "error", ld->error[0] ? ld->error : NULL);
	struct jv *doc = NULL;
	char err[64];
	const char *report = ld->fio_report ? strstr(ld->fio_report, "\n{") : NULL;
	report = ld->fio_report && ld->fio_report[0] == '{' ? ld->fio_report : report ? report + 1 : NULL;
	if (report && jv_parse(report, strlen(report), &doc, err, sizeof(err)) == 0) {
		json_value(j, "fio", doc);
		jv_free(doc);
	}
}

void fleet_load_release(struct fleet_load *ld)
{
	free(ld->h);
	ld->h = NULL;
	strbuf_release(&ld->jobfile);
	fio_clients_release(&ld->figures);
	free(ld->fio_report);
	ld->fio_report = NULL;
}
