#include "remote/fio_clients.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/jsonread.h"

/* The report's object: fio may print lines before it. */
static const char *report_start(const char *text)
{
	const char *p = text;
	while (*p && *p != '{') {
		const char *nl = strchr(p, '\n');
		p = nl ? nl + 1 : p + strlen(p);
	}
	return p;
}

static void add_job(struct fio_client_figures *f, const struct jv *job)
{
	const struct jv *rd = jv_get(job, "read"), *wr = jv_get(job, "write");
	f->jobs++;
	f->reported = true;
	f->read_bytes += jv_u64(jv_get(rd, "io_bytes"), 0);
	f->write_bytes += jv_u64(jv_get(wr, "io_bytes"), 0);
	f->read_bw += jv_number(jv_get(rd, "bw_bytes"), 0);
	f->write_bw += jv_number(jv_get(wr, "bw_bytes"), 0);
	f->read_iops += jv_number(jv_get(rd, "iops"), 0);
	f->write_iops += jv_number(jv_get(wr, "iops"), 0);
	double rt = jv_number(jv_get(job, "job_runtime"), 0) / 1000.0;
	if (rt > f->runtime_s)
		f->runtime_s = rt;
	int err = jv_int(jv_get(job, "error"), 0);
	if (err && !f->error)
		f->error = err;
}

static struct fio_client_figures *find_client(struct fio_clients_result *r, const char *addr, unsigned port)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->clients[i].addr, addr) == 0 && r->clients[i].port == port)
			return &r->clients[i];
	return NULL;
}

static void sum_clients(struct fio_clients_result *r)
{
	struct fio_client_figures *a = &r->aggregate;
	memset(a, 0, sizeof(*a));
	a->host = "aggregate";
	for (size_t i = 0; i < r->n; i++) {
		const struct fio_client_figures *c = &r->clients[i];
		if (!c->reported)
			continue;
		a->reported = true;
		a->jobs += c->jobs;
		a->read_bytes += c->read_bytes;
		a->write_bytes += c->write_bytes;
		a->read_bw += c->read_bw;
		a->write_bw += c->write_bw;
		a->read_iops += c->read_iops;
		a->write_iops += c->write_iops;
		if (c->runtime_s > a->runtime_s)
			a->runtime_s = c->runtime_s;
		if (c->error && !a->error)
			a->error = c->error;
	}
}

static void read_entries(struct fio_clients_result *r, const struct jv *stats)
{
	for (size_t i = 0; i < stats->count; i++) {
		const struct jv *job = &stats->items[i];
		const char *name = jv_string(jv_get(job, "jobname"), "");
		if (strcmp(name, FIO_ALL_CLIENTS) == 0) {
			r->has_fio_total = true;
			r->fio_total_read_bw = jv_number(jv_path(job, "read.bw_bytes"), 0);
			r->fio_total_write_bw = jv_number(jv_path(job, "write.bw_bytes"), 0);
			continue;
		}
		struct fio_client_figures *c = find_client(r, jv_string(jv_get(job, "hostname"), ""),
							   (unsigned)jv_int(jv_get(job, "port"), 0));
		if (c)
			add_job(c, job);
		else
			r->unmatched++;
	}
}

int fio_clients_parse(const char *text, const struct fio_endpoint *endpoints, size_t n,
		      struct fio_clients_result *ret, char *why, size_t len)
{
	memset(ret, 0, sizeof(*ret));
	ret->clients = calloc(n ? n : 1, sizeof(*ret->clients));
	if (!ret->clients)
		abort();
	ret->n = n;
	for (size_t i = 0; i < n; i++) {
		ret->clients[i].host = endpoints[i].host;
		snprintf(ret->clients[i].addr, sizeof(ret->clients[i].addr), "%s", endpoints[i].addr);
		ret->clients[i].port = endpoints[i].port;
	}
	const char *start = report_start(text);
	struct jv *doc;
	char err[128];
	if (!*start || jv_parse(start, strlen(start), &doc, err, sizeof(err)) < 0) {
		snprintf(why, len, "fio wrote no JSON report%s%s", *start ? ": " : "", *start ? err : "");
		return -EINVAL;
	}
	const struct jv *stats = jv_get(doc, "client_stats");
	if (!stats || stats->type != JV_ARRAY) {
		snprintf(why, len, "fio's report has no \"client_stats\" (not client/server mode)");
		jv_free(doc);
		return -EINVAL;
	}
	snprintf(ret->fio_version, sizeof(ret->fio_version), "%s", jv_string(jv_get(doc, "fio version"), ""));
	read_entries(ret, stats);
	sum_clients(ret);
	jv_free(doc);
	return 0;
}

void fio_clients_release(struct fio_clients_result *r)
{
	free(r->clients);
	r->clients = NULL;
	r->n = 0;
}

static const char *const refused_keys[] = {
	"output", "output-format", "client", "server", "daemonize", "remote-config", NULL,
};

static int jobfile_line(const char *arg, struct strbuf *out, char *why, size_t len)
{
	if (strncmp(arg, "--", 2) != 0 || !arg[2]) {
		snprintf(why, len, "'%s' is not a fio option: give fio's options as --key=value (a job file "
			 "cannot be sent)", arg);
		return -EINVAL;
	}
	const char *key = arg + 2;
	size_t klen = strcspn(key, "=");
	if (strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789_-") < klen) {
		snprintf(why, len, "'%s' is not a fio option name", arg);
		return -EINVAL;
	}
	for (size_t i = 0; refused_keys[i]; i++)
		if (strlen(refused_keys[i]) == klen && strncmp(key, refused_keys[i], klen) == 0) {
			snprintf(why, len, "'%s' cannot be used: iotriage drives fio's client/server mode and "
				 "reads its JSON report itself", arg);
			return -EINVAL;
		}
	if (strpbrk(key, "\r\n")) {
		snprintf(why, len, "fio option '%.*s' holds a line break", (int)klen, key);
		return -EINVAL;
	}
	if (klen == 4 && strncmp(key, "name", 4) == 0)
		return 0;
	strbuf_add(out, key, klen);
	if (key[klen] == '=') {
		strbuf_addch(out, '=');
		strbuf_adds(out, key + klen + 1);
	}
	strbuf_addch(out, '\n');
	return 0;
}

int fio_jobfile(const char *const *args, size_t n, struct strbuf *out, char *why, size_t len)
{
	const char *name = "iotriage";
	for (size_t i = 0; i < n; i++)
		if (strncmp(args[i], "--name=", 7) == 0 && args[i][7] && !strpbrk(args[i] + 7, "[]\r\n"))
			name = args[i] + 7;
	strbuf_addf(out, "[%s]\n", name);
	for (size_t i = 0; i < n; i++)
		if (jobfile_line(args[i], out, why, len) < 0)
			return -EINVAL;
	return 0;
}

bool fio_server_ready(const char *text)
{
	return strstr(text, "server listening on") != NULL;
}
