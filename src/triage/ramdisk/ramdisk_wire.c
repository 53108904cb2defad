/* The measurement on each side of the wire and the comparison (see
 * triage/ramdisk/ramdisk_export.h). */
#include "triage/ramdisk/ramdisk_export.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "bench/job.h"
#include "bench/layout.h"
#include "net/tcp_rtt.h"


const char *const wire_workload_names[WIRE_WORKLOADS] = { "qd1", "qd32", "seq1m" };
const char *const wire_workload_titles[WIRE_WORKLOADS] = { "4 KiB random read, QD1", "4 KiB random read, QD32",
							   "1 MiB sequential read, QD8" };

static void workload_spec(enum wire_workload w, const struct target *t, uint64_t runtime_ns, struct job_spec *spec)
{
	static const struct { bool random; uint32_t bs; unsigned iodepth; } shape[WIRE_WORKLOADS] = {
		{ true, 4096, 1 }, { true, 4096, 32 }, { false, 1U << 20, 8 },
	};
	*spec = (struct job_spec){
		.random = shape[w].random, .read_pct = 100, .bs = shape[w].bs, .iodepth = shape[w].iodepth,
		.numjobs = 1, .size = t->size, .runtime_ns = runtime_ns, .time_based = true,
		.pattern = PATTERN_RANDOM, .seed = 1, .progress = NULL,
	};
}

static int run_reads(struct target *t, enum wire_workload w, uint64_t runtime_ns, struct wire_lat *ret, char *why,
		     size_t len)
{
	struct job_spec spec;
	workload_spec(w, t, runtime_ns, &spec);
	char reason[160];
	struct engine_target_traits traits = { .synchronous_device = t->bio_based };
	const struct engine_ops *engine = engine_select(w == WIRE_QD1 ? "psync" : "auto", spec.iodepth, &traits, reason,
							sizeof(reason));
	struct job_result *res = NULL;
	int r;
	if (!engine) {
		snprintf(why, len, "%s", reason);
		return -EINVAL;
	}
	if (job_validate(&spec, t, why, len) < 0)
		return -EINVAL;
	r = job_run(&spec, t, engine, &res);
	if (r < 0) {
		snprintf(why, len, "cannot run the reads: %s", strerror(-r));
	} else if (res->stop == JOB_STOP_ERROR) {
		snprintf(why, len, "I/O error at byte %" PRIu64 ": %s", res->error_offset, strerror(-res->error));
		r = -EIO;
	} else if (res->stop == JOB_STOP_INTERRUPTED) {
		snprintf(why, len, "interrupted");
		r = -EINTR;
	} else {
		ret->measured = true;
		ret->mean_ns = hist_mean(&res->lat_read);
		ret->p50_ns = hist_percentile(&res->lat_read, 50);
		ret->p99_ns = hist_percentile(&res->lat_read, 99);
		ret->iops = job_iops(res);
		ret->bw_bytes_per_s = job_bw_bytes_per_s(res);
		ret->ios = res->read_ios;
	}
	free(res);
	return r;
}

int ramdisk_wire_measure(const char *path, bool fill, uint64_t runtime_ns, struct wire_side *ret, char *why,
			 size_t len)
{
	memset(ret, 0, sizeof(*ret));
	struct target t = TARGET_INIT;
	int r = target_open(path, false, true, false, &t);
	if (r < 0) {
		snprintf(why, len, "cannot open '%s': %s", path, strerror(-r));
		return r;
	}
	if (fill) {
		_cleanup_close_ int fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || pattern_write_file(fd, 0, t.size, PATTERN_RANDOM, 42) < 0) {
			snprintf(why, len, "cannot fill '%s': %s", path, strerror(errno));
			target_close(&t);
			return -EIO;
		}
	}
	for (int w = 0; w < WIRE_WORKLOADS && r >= 0; w++) {
		snprintf(ret->w[w].device, sizeof(ret->w[w].device), "%s", path);
		r = run_reads(&t, (enum wire_workload)w, runtime_ns, &ret->w[w], why, len);
		if (r == 0)
			log_msg(LOG_INFO, "RAMDISK: %s on %s: mean %.1f us, p99 %.1f us, %.0f IOPS, %.1f MB/s",
				wire_workload_titles[w], path, ret->w[w].mean_ns / 1e3, (double)ret->w[w].p99_ns / 1e3,
				ret->w[w].iops, ret->w[w].bw_bytes_per_s / 1e6);
	}
	target_close(&t);
	return r;
}

void ramdisk_wire_format(const struct wire_side *s, char *buf, size_t len)
{
	struct strbuf sb = STRBUF_INIT;
	for (int w = 0; w < WIRE_WORKLOADS; w++) {
		const struct wire_lat *l = &s->w[w];
		strbuf_addf(&sb, "wire workload=%s device=%s mean_ns=%.0f p50_ns=%" PRIu64 " p99_ns=%" PRIu64
			    " iops=%.1f bw=%.0f ios=%" PRIu64 "\n", wire_workload_names[w], l->device, l->mean_ns,
			    l->p50_ns, l->p99_ns, l->iops, l->bw_bytes_per_s, l->ios);
	}
	strbuf_addf(&sb, "wire rtt_ns=%" PRIu64 "\n", s->rtt_ns);
	const struct link_rate *k = &s->link;
	if (k->found)
		strbuf_addf(&sb, "wire link interface=%s kind=%s speed_mbps=%" PRId64 " qdisc=%s shaped_bps=%" PRIu64 "\n",
			    k->interface, *k->kind ? k->kind : "-", k->speed_mbps, *k->qdisc ? k->qdisc : "-",
			    k->shaped_bps);
	snprintf(buf, len, "%s", sb.buf);
	strbuf_release(&sb);
}

/* The line starting with PREFIX at the start of a line of TEXT, or NULL. */
static const char *line_of(const char *text, const char *prefix)
{
	for (const char *p = strstr(text, prefix); p; p = strstr(p + 1, prefix))
		if (p == text || p[-1] == '\n')
			return p + strlen(prefix);
	return NULL;
}

/* The client's port (its line is absent when it was not found). */
static int parse_link(const char *line, struct link_rate *k)
{
	memset(k, 0, sizeof(*k));
	k->speed_mbps = -1;
	if (!line)
		return 0;
	if (sscanf(line, "interface=%15s kind=%15s speed_mbps=%" SCNd64 " qdisc=%15s shaped_bps=%" SCNu64, k->interface,
		   k->kind, &k->speed_mbps, k->qdisc, &k->shaped_bps) != 5)
		return -EINVAL;
	if (strcmp(k->kind, "-") == 0)
		k->kind[0] = '\0';
	if (strcmp(k->qdisc, "-") == 0)
		k->qdisc[0] = '\0';
	k->found = true;
	return 0;
}

int ramdisk_wire_parse(const char *text, struct wire_side *s)
{
	memset(s, 0, sizeof(*s));
	for (int w = 0; w < WIRE_WORKLOADS; w++) {
		char prefix[48];
		snprintf(prefix, sizeof(prefix), "wire workload=%s ", wire_workload_names[w]);
		const char *line = line_of(text, prefix);
		struct wire_lat *l = &s->w[w];
		if (!line || sscanf(line, "device=%63s mean_ns=%lf p50_ns=%" SCNu64 " p99_ns=%" SCNu64 " iops=%lf bw=%lf ios=%" SCNu64,
				    l->device, &l->mean_ns, &l->p50_ns, &l->p99_ns, &l->iops, &l->bw_bytes_per_s, &l->ios) != 7)
			return -EINVAL;
		l->measured = l->ios > 0;
		if (!l->measured)
			return -EINVAL;
	}
	const char *rtt = line_of(text, "wire rtt_ns=");
	if (!rtt || sscanf(rtt, "%" SCNu64, &s->rtt_ns) != 1)
		return -EINVAL;
	return parse_link(line_of(text, "wire link "), &s->link);
}

void ramdisk_wire_link(const char *addr, bool to_peer, struct link_rate *ret)
{
	char src[64], why[200];
	const char *local = addr;
	memset(ret, 0, sizeof(*ret));
	ret->speed_mbps = -1;
	if (to_peer) {
		if (link_rate_source_addr(addr, src, sizeof(src), why, sizeof(why)) < 0) {
			log_msg(LOG_WARN, "RAMDISK: the port to %s is not known: %s", addr, why);
			return;
		}
		local = src;
	}
	if (link_rate_of_addr(local, ret, why, sizeof(why)) < 0) {
		log_msg(LOG_WARN, "RAMDISK: the port of %s is not known: %s", local, why);
		return;
	}
	char speed[32] = "no speed", shaped[64] = "";
	if (ret->speed_mbps > 0)
		snprintf(speed, sizeof(speed), "%" PRId64 " Mb/s", ret->speed_mbps);
	if (ret->shaped_bps)
		snprintf(shaped, sizeof(shaped), ", %s shapes it to %.1f Mb/s", ret->qdisc, (double)ret->shaped_bps / 1e6);
	log_msg(LOG_INFO, "RAMDISK: %s %s is on %s%s%s%s: %s%s", to_peer ? "the route to" : "the address", addr,
		ret->interface, *ret->kind ? " (" : "", ret->kind, *ret->kind ? ")" : "", speed, shaped);
}

uint64_t ramdisk_wire_rtt(const char *addr, unsigned port)
{
	uint64_t rtt = 0;
	char why[200];
	if (tcp_connect_rtt(addr, port, 5, 2000, &rtt, why, sizeof(why)) < 0) {
		log_msg(LOG_WARN, "RAMDISK: the round trip to %s:%u is not measured: %s", addr, port, why);
		return 0;
	}
	log_msg(LOG_INFO, "RAMDISK: round trip to %s:%u: %.1f us (fastest of 5 TCP connects)", addr, port,
		(double)rtt / 1e3);
	return rtt;
}

/* The words of the client's command line that are made here. */
struct client_words {
	char opt[48], addr[96], target[48], client[48];
};

/* The client's command line after VIA: SELF ramdisk client, the transport
 * the export uses, its address and name (and the client it allows, when
 * the client connects as one). ARGV has room for 16 more. */
static size_t client_argv(const char **argv, size_t n, const char *self, const char *ms, struct client_words *cw,
			  const struct ramdisk_export *e)
{
	const struct export_transport *t = e->transport;
	const struct export_transport_words *w = t->words;
	const char *head[] = { self, "ramdisk", "client", "--runtime", ms };
	for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		argv[n++] = head[i];
	snprintf(cw->opt, sizeof(cw->opt), "--%s", t->name);
	snprintf(cw->addr, sizeof(cw->addr), "%s:%u", e->traddr, e->port);
	snprintf(cw->target, sizeof(cw->target), "--%s", w->target_option);
	snprintf(cw->client, sizeof(cw->client), "--%s", w->client_option);
	argv[n++] = cw->opt;
	argv[n++] = cw->addr;
	argv[n++] = cw->target;
	argv[n++] = e->name;
	if (w->client_as_help && !e->allow_any_host) {
		argv[n++] = cw->client;
		argv[n++] = e->client;
	}
	return n;
}

int ramdisk_wire_compare(const char *const *via, size_t via_n, const char *self, uint64_t runtime_ns,
			 struct wire_side *local, struct wire_side *remote, char *why, size_t len)
{
	struct ramdisk_export e;
	if (!ramdisk_export_current(&e)) {
		snprintf(why, len, "nothing is exported: 'iotriage ramdisk export --nvme-tcp ADDR' (or --iscsi ADDR) first");
		return -ENOENT;
	}
	int r = ramdisk_wire_measure(e.devices[0], true, runtime_ns, local, why, len);
	if (r < 0)
		return r;
	ramdisk_wire_link(e.traddr, false, &local->link);
	struct client_words cw;
	char ms[32];
	snprintf(ms, sizeof(ms), "%" PRIu64 "ms", runtime_ns / 1000000);
	const char **argv = xcalloc(via_n + 16, sizeof(*argv));
	size_t n = 0;
	for (size_t i = 0; i < via_n; i++)
		argv[n++] = via[i];
	client_argv(argv, n, self, ms, &cw, &e);
	struct spawn_opts o = { .timeout_ms = WIRE_WORKLOADS * (int)(runtime_ns / 1000000) + 60000, .stdin_fd = -1,
				.interruptible = true };
	struct spawn_result res;
	r = spawn_run_opts(argv, &o, &res);
	free(argv);
	if (r == 0 && (res.status != 0 || ramdisk_wire_parse(res.out.buf, remote) < 0)) {
		snprintf(why, len, "the client step failed (exit %d): %s", res.status, res.err.buf);
		r = -EIO;
	} else if (r < 0) {
		snprintf(why, len, "cannot run the client step through '%s': %s", via_n ? via[0] : self, strerror(-r));
	}
	spawn_result_release(&res);
	return r;
}
