/* A read batch's entries on other hosts, read there through the fleet
 * (triage/media/read_remote.h). */
#include "triage/media/read_remote.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "engine/engine.h"
#include "remote/remote_read.h"
#include "triage/fleet/fleet.h"

/* Beyond the read itself: the handshake, ssh's connection and the run's start. */
#define REMOTE_MARGIN_MS 120000ULL

/* What one session needs: the plan (its connections' directory) and the
 * argv's words. */
struct remote_session {
	struct fleet_plan plan;
	char size[32], bs[32], depth[16];
};

/* A latency histogram whose percentiles are the document's: each
 * percentile's share of the reads at its value, the mean kept. */
static void rebuild_histogram(const struct hist_summary *s, struct histogram *h)
{
	hist_init(h);
	if (!s->count)
		return;
	const double at[] = { 0.5, 0.9, 0.99, 0.999, 0.9999, 1.0 };
	const uint64_t value[] = { s->p50, s->p90, s->p99, s->p999, s->p9999, s->max };
	uint64_t before = 0;
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		uint64_t upto = i + 1 == sizeof(at) / sizeof(at[0]) ? s->count : (uint64_t)(at[i] * (double)s->count + 0.5);
		if (upto <= before)
			continue;
		h->buckets[hist_bucket_of(value[i])] += upto - before;
		before = upto;
	}
	h->count = s->count;
	h->sum = (uint64_t)(s->mean * (double)s->count);
	h->min = s->min;
	h->max = s->max;
}

/* The job result a remote read's figures make (its failure kept). */
static struct job_result *result_of(const struct remote_read *rr)
{
	struct job_result *r = xcalloc(1, sizeof(*r));
	const struct engine_ops *e = engine_find(rr->engine);
	r->engine = e ? e : engine_find("psync");
	r->iodepth = rr->iodepth ? rr->iodepth : 1;
	r->bytes = r->read_bytes = rr->bytes;
	r->ios = r->read_ios = rr->lat.count;
	r->seconds = r->first_done_seconds = r->last_done_seconds = rr->seconds;
	r->nr_workers = 1;
	rebuild_histogram(&rr->lat, &r->lat_read);
	hist_init(&r->lat_write);
	hist_init(&r->slat_read);
	hist_init(&r->slat_write);
	hist_init(&r->lat_sync);
	r->stop = rr->failure[0] ? JOB_STOP_ERROR : JOB_STOP_SIZE;
	r->error = !strcmp(rr->failure, "io_error") ? -EIO : rr->failure[0] ? -ETIMEDOUT : 0;
	r->error_offset = rr->error_offset;
	return r;
}

static void fill_identity(struct disk_read *d, const struct remote_read *rr)
{
	struct disk_info *i = &d->info;
	snprintf(i->vendor, sizeof(i->vendor), "%s", rr->vendor);
	snprintf(i->model, sizeof(i->model), "%s", rr->model);
	snprintf(i->serial, sizeof(i->serial), "%s", rr->serial);
	snprintf(i->transport, sizeof(i->transport), "%s", rr->transport);
	i->size_bytes = rr->size_bytes;
	i->rotational = rr->rotational;
	i->logical_block_size = rr->logical_block_size;
	i->physical_block_size = rr->physical_block_size;
	i->skip_reason = NULL;
}

void read_remote_fill(struct disk_read *d, const struct remote_read *rr)
{
	disk_read_release(d);
	fill_identity(d, rr);
	d->requested = rr->requested;
	d->status = !strcmp(rr->status, "ok") ? READTEST_OK : !strcmp(rr->status, "skipped") ? READTEST_SKIPPED
												: READTEST_ERROR;
	d->reason[0] = '\0';
	if (rr->reason[0])
		snprintf(d->reason, sizeof(d->reason), "on host %s: %s", d->host, rr->reason);
	d->io_error = !strcmp(rr->failure, "io_error");
	d->no_response = !strcmp(rr->failure, "no_response") || !strcmp(rr->failure, "reader_never_ran");
	d->reader_never_ran = !strcmp(rr->failure, "reader_never_ran");
	d->timeout_s = rr->timeout_s;
	if (d->status == READTEST_OK || rr->failure[0] || rr->bytes)
		d->res = result_of(rr);
}

static void failed(struct disk_read *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failed(struct disk_read *d, const char *fmt, ...)
{
	va_list ap;
	disk_read_release(d);
	d->status = READTEST_ERROR;
	int n = snprintf(d->reason, sizeof(d->reason), "on host %s, read over ssh: ", d->host);
	va_start(ap, fmt);
	vsnprintf(d->reason + n, sizeof(d->reason) - (size_t)n, fmt, ap);
	va_end(ap);
}

/* Whether a host's failure holds for its every entry (not worth trying again). */
static bool host_is_out(enum fleet_status s)
{
	return s == FLEET_UNREACHABLE || s == FLEET_AUTH_REFUSED || s == FLEET_HOST_KEY || s == FLEET_MISSING ||
	       s == FLEET_INCOMPATIBLE || s == FLEET_ERROR;
}

static int session_begin(const struct readtest_opts *opts, const struct read_remote *remote, struct remote_session *s,
			 char *why, size_t len)
{
	*s = (struct remote_session){ 0 };
	struct fleet_plan *p = &s->plan;
	p->remote_iotriage = remote->iotriage ? remote->iotriage : "iotriage";
	p->parallel = 1;
	p->grace_ms = 30000;
	uint64_t read_ms = opts->runtime_ns ? opts->runtime_ns / 1000000ULL : 600000ULL;
	p->time_limit_ms = read_ms + REMOTE_MARGIN_MS;
	p->ssh.config_file = remote->ssh_config;
	handshake_local(&p->local, remote->schema_version);
	snprintf(s->size, sizeof(s->size), "%llu", (unsigned long long)opts->size);
	snprintf(s->bs, sizeof(s->bs), "%u", opts->bs);
	snprintf(s->depth, sizeof(s->depth), "%u", opts->iodepth ? opts->iodepth : 1);
	return fleet_begin(p, why, len);
}

/* Every host of the N READS' master connection stopped (fleet_end asks
 * its plan's hosts), the sockets' directory removed. */
static void session_end(struct remote_session *s, const struct disk_read *reads, size_t n)
{
	char **hosts = xcalloc(n ? n : 1, sizeof(*hosts));
	size_t nh = 0;
	for (size_t i = 0; i < n; i++) {
		bool seen = !reads[i].host[0];
		for (size_t k = 0; k < nh && !seen; k++)
			seen = !strcmp(hosts[k], reads[i].host);
		if (!seen)
			hosts[nh++] = (char *)reads[i].host;
	}
	s->plan.hosts = hosts;
	s->plan.n_hosts = nh;
	fleet_end(&s->plan);
	free(hosts);
}

/* One read of D's device on its host into OUT. Returns whether the host
 * itself failed (unreachable, refused, no iotriage...), with its reason in
 * HOST_WHY. */
static bool read_there(struct remote_session *s, const struct readtest_opts *opts, const struct disk_read *d,
		       struct disk_read *out, char *host_why, size_t len)
{
	const char *words[] = { "readdisk", d->info.dev_path, "-s", s->size, "-b", s->bs, "-q", s->depth, "-e",
				opts->engine ? opts->engine : "auto", NULL };
	char *host = (char *)d->host;
	struct fleet_plan one = s->plan;
	one.hosts = &host;
	one.n_hosts = 1;
	one.command = (char **)words;
	struct fleet_host *h = fleet_hosts_new(&one);
	log_msg(LOG_INFO, "READ-DISK (%s): starting on host %s, over ssh: iotriage readdisk %s -s %s -b %s", d->info.dev_path,
		d->host, d->info.dev_path, s->size, s->bs);
	fleet_run(&one, h, 1);
	struct remote_read rr;
	char why[400];
	if (h->document && remote_read_parse(h->document, d->info.dev_path, &rr, why, sizeof(why)) == 0)
		read_remote_fill(out, &rr);
	else if (h->document)
		failed(out, "%s", why);
	else
		failed(out, "%s: %s", fleet_status_name(h->status), h->reason);
	bool out_of_reach = !h->document && host_is_out(h->status);
	snprintf(host_why, len, "%s: %s", fleet_status_name(h->status), h->reason);
	fleet_hosts_free(h, 1);
	return out_of_reach;
}

static void log_remote_outcome(const struct disk_read *d)
{
	if (d->status != READTEST_OK) {
		log_msg(d->status == READTEST_ERROR ? LOG_ERR : LOG_INFO, "READ-DISK (%s): %s: %s", d->info.dev_path,
			d->status == READTEST_ERROR ? "failed" : "skipped", d->reason);
		return;
	}
	char summary[160];
	human_dd_summary(d->res->bytes, d->res->seconds, summary, sizeof(summary));
	log_msg(LOG_INFO, "READ-DISK (%s): completed on host %s: %s", d->info.dev_path, d->host, summary);
}

/* The hosts tried that are out, with their reason. */
struct host_out {
	const char *host;
	char reason[320];
};

static const struct host_out *out_host(const struct host_out *outs, size_t n, const char *host)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(outs[i].host, host))
			return &outs[i];
	return NULL;
}

size_t read_remote_execute(struct disk_read *reads, size_t count, const struct readtest_opts *opts,
			   const struct read_remote *remote)
{
	size_t todo = 0, done = 0, nout = 0;
	for (size_t i = 0; i < count; i++)
		todo += reads[i].host[0] && reads[i].status != READTEST_SKIPPED;
	if (!todo)
		return 0;
	struct remote_session s;
	char why[300];
	int r = session_begin(opts, remote, &s, why, sizeof(why));
	struct host_out *outs = xcalloc(todo, sizeof(*outs));
	for (size_t i = 0; i < count; i++) {
		struct disk_read *d = &reads[i];
		if (!d->host[0] || d->status == READTEST_SKIPPED)
			continue;
		const struct host_out *o = out_host(outs, nout, d->host);
		if (r < 0)
			failed(d, "%s", why);
		else if (interrupt_requested()) {
			d->status = READTEST_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "not read: interrupted");
		} else if (o)
			failed(d, "%s (not tried again)", o->reason);
		else if (read_there(&s, opts, d, d, outs[nout].reason, sizeof(outs[nout].reason)))
			outs[nout++].host = d->host;
		done += d->status == READTEST_OK;
		log_remote_outcome(d);
	}
	free(outs);
	if (r == 0)
		session_end(&s, reads, count);
	return done;
}

void read_remote_again(const struct disk_read *d, const struct readtest_opts *opts, const struct read_remote *remote,
		       struct disk_read *again)
{
	struct remote_session s;
	char why[300];
	snprintf(again->host, sizeof(again->host), "%s", d->host);
	if (session_begin(opts, remote, &s, why, sizeof(why)) < 0) {
		failed(again, "%s", why);
		return;
	}
	read_there(&s, opts, d, again, why, sizeof(why));
	session_end(&s, d, 1);
}
