/* report/measure.c: stored documents read back as measurements (see measure.h). */
#include "report/measure.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/humanize.h"
#include "basic/strbuf.h"
#include "media/disk_verdict.h"

const char *measure_unit_name(enum measure_unit u)
{
	return u == MU_BYTES_PER_S ? "B/s" : u == MU_IOPS ? "IOPS" : "ns";
}

void measure_format(enum measure_unit u, double value, char *buf, size_t len)
{
	if (!isfinite(value)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (u) {
	case MU_BYTES_PER_S:
		human_rate(value, buf, len);
		break;
	case MU_IOPS:
		snprintf(buf, len, "%.0f IOPS", value);
		break;
	case MU_NS:
		if (value >= 1e6)
			snprintf(buf, len, "%.2f ms", value / 1e6);
		else
			snprintf(buf, len, "%.1f us", value / 1e3);
		break;
	}
}

bool measure_same_test(const struct measure *a, const struct measure *b)
{
	return strcmp(a->test, b->test) == 0 && strcmp(a->metric, b->metric) == 0;
}

void measure_combine_repeats(const struct measure *const *ms, size_t n, struct measure *ret)
{
	*ret = *ms[0];
	ret->noise_sd = ret->noise_min = ret->noise_max = NAN;
	ret->noise_n = 0;
	ret->noise_basis = NULL;
	ret->between_runs = false;
	double sum = 0, lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(ms[i]->status, "ok") != 0 || !isfinite(ms[i]->value)) {
			ret->value = NAN;
			ret->status = ms[i]->status;
			ret->reason = ms[i]->reason;
			return;
		}
		sum += ms[i]->value;
		lo = fmin(lo, ms[i]->value);
		hi = fmax(hi, ms[i]->value);
	}
	double mean = sum / (double)n, ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (ms[i]->value - mean) * (ms[i]->value - mean);
	ret->value = mean;
	ret->outlier = false;
	if (n >= 2) {
		ret->noise_sd = sqrt(ss / (double)(n - 1));
		ret->noise_n = (unsigned)n;
		ret->noise_min = lo;
		ret->noise_max = hi;
		ret->noise_basis = "repeat runs";
		ret->between_runs = true;
	}
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* An object's scalar members as "key=value, ..." (nested values skipped). */
static void params_text(const struct jv *obj, struct strbuf *sb)
{
	if (!obj || obj->type != JV_OBJECT)
		return;
	for (size_t i = 0; i < obj->count; i++) {
		const struct jv *v = &obj->items[i];
		const char *sep = sb->len ? ", " : "";
		switch (v->type) {
		case JV_STRING:
			strbuf_addf(sb, "%s%s=%s", sep, obj->keys[i], v->string);
			break;
		case JV_NUMBER:
			strbuf_addf(sb, "%s%s=%.15g", sep, obj->keys[i], v->number);
			break;
		case JV_BOOL:
			strbuf_addf(sb, "%s%s=%s", sep, obj->keys[i], v->boolean ? "true" : "false");
			break;
		default:
			break;
		}
	}
}

struct mspec {
	const char *test, *metric, *target, *status, *reason, *params;
	enum measure_unit unit;
	bool higher_is_better, outlier, per_disk;
	double value, noise_sd, noise_min, noise_max;
	unsigned noise_n;
	const char *noise_basis;
};

static void add(struct run_doc *d, const struct mspec *s)
{
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 16;
		d->m = xreallocarray(d->m, d->cap, sizeof(*d->m));
	}
	d->m[d->n++] = (struct measure){
		.test = xstrdup(s->test ? s->test : "?"),
		.metric = s->metric,
		.unit = s->unit,
		.higher_is_better = s->higher_is_better,
		.target = xstrdup(s->target ? s->target : "?"),
		.value = s->value,
		.noise_sd = s->noise_n >= 3 ? s->noise_sd : NAN,
		.noise_n = s->noise_n,
		.noise_min = s->noise_n >= 3 ? s->noise_min : NAN,
		.noise_max = s->noise_n >= 3 ? s->noise_max : NAN,
		.noise_basis = s->noise_n >= 3 ? s->noise_basis : NULL,
		.status = xstrdup(s->status ? s->status : "ok"),
		.reason = dup_or_null(s->reason),
		.params = xstrdup(s->params ? s->params : ""),
		.outlier = s->outlier,
		.per_disk = s->per_disk,
	};
}

static double num_or_nan(const struct jv *v)
{
	return v && v->type == JV_NUMBER ? v->number : NAN;
}

/* A count from a document, saturated (a stored document may be edited). */
static unsigned count_of(const struct jv *v)
{
	uint64_t n = jv_u64(v, 0);
	return n > UINT_MAX ? UINT_MAX : (unsigned)n;
}

static void bs_text(double bytes, char *buf, size_t len)
{
	uint64_t b = jv_double_to_u64(bytes, 0);
	if (b && b % (1U << 20) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(b >> 20));
	else if (b && b % 1024 == 0)
		snprintf(buf, len, "%lluK", (unsigned long long)(b >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)b);
}

const char *const lat_curve_names[LAT_CURVE_POINTS] = { "p50", "p90", "p99", "p99.9", "p99.99" };

/* LAT (with I/Os counted in it) as one of D's latency curves, labelled
 * with the test and target of BASE. */
static void add_curve(struct run_doc *d, const struct mspec *base, const struct jv *lat)
{
	if (!lat || lat->type != JV_OBJECT || jv_number(jv_get(lat, "count"), 0) <= 0)
		return;
	if (d->ncurves == d->curves_cap) {
		d->curves_cap = d->curves_cap ? 2 * d->curves_cap : 8;
		d->curves = xreallocarray(d->curves, d->curves_cap, sizeof(*d->curves));
	}
	struct lat_curve *c = &d->curves[d->ncurves++];
	struct strbuf label = STRBUF_INIT;
	strbuf_addf(&label, "%s on %s", base->test ? base->test : "?", base->target ? base->target : "?");
	c->label = strbuf_detach(&label);
	for (size_t i = 0; i < LAT_CURVE_POINTS; i++)
		c->ns[i] = num_or_nan(jv_get(lat, lat_curve_names[i]));
	c->max_ns = num_or_nan(jv_get(lat, "max"));
}

/* The latency percentiles of a result's "lat_ns" object, each a measurement
 * (lower is better, no noise of its own). LAT absent: each as not measured,
 * with BASE's status (a run that failed); when OPTIONAL, nothing instead. */
static void add_latencies(struct run_doc *d, const struct mspec *base, const struct jv *lat, bool optional)
{
	static const struct {
		const char *key, *metric;
	} pcts[] = { { "p50", "p50 latency" }, { "p99", "p99 latency" }, { "p99.9", "p99.9 latency" } };
	if (optional && (!lat || lat->type != JV_OBJECT))
		return;
	add_curve(d, base, lat);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		struct mspec l = *base;
		l.metric = pcts[i].metric;
		l.unit = MU_NS;
		l.higher_is_better = false;
		l.value = num_or_nan(jv_get(lat, pcts[i].key));
		l.noise_n = 0;
		l.noise_basis = NULL;
		add(d, &l);
	}
}

/* One workload (run, or one job of run --fio-job): bandwidth (noise from
 * result.samples) and its latency percentiles. P: its parameters, RES: its
 * result, ST: where its status and reason are, PREFIX: "run" or the job's. */
static void from_workload(struct run_doc *d, const struct jv *p, const struct jv *res, const struct jv *st,
			  const char *prefix)
{
	char bs[32], test[200];
	bs_text(jv_number(jv_get(p, "bs_bytes"), 0), bs, sizeof(bs));
	snprintf(test, sizeof(test), "%s %s %s qd%.0f x%.0f", prefix, jv_string(jv_get(p, "rw"), "?"), bs,
		 jv_number(jv_get(p, "iodepth"), 1), jv_number(jv_get(p, "numjobs"), 1));
	struct strbuf params = STRBUF_INIT;
	params_text(p, &params);
	const struct jv *samples = jv_get(res, "samples");
	struct mspec s = {
		.test = test, .metric = "bandwidth", .unit = MU_BYTES_PER_S, .higher_is_better = true,
		.target = jv_string(jv_get(p, "target"), "?"),
		.status = jv_string(jv_get(st, "status"), "ok"),
		.reason = jv_string(jv_get(st, "reason"), NULL),
		.params = params.buf,
		.value = num_or_nan(jv_get(res, "bw_bytes_per_s")),
		.noise_sd = jv_number(jv_get(samples, "stddev_bw_bytes_per_s"), NAN),
		.noise_n = count_of(jv_get(samples, "count")),
		.noise_basis = "per-interval samples",
		.noise_min = NAN, .noise_max = NAN,
	};
	const struct jv *list = jv_get(samples, "bw_bytes_per_s");
	for (size_t i = 0; list && i < list->count; i++) {
		double v = jv_number(jv_at(list, i), NAN);
		if (isfinite(v) && !(v >= s.noise_min))
			s.noise_min = v;
		if (isfinite(v) && !(v <= s.noise_max))
			s.noise_max = v;
	}
	add(d, &s);
	const struct jv *dir = jv_number(jv_path(res, "read.ios"), 0) > 0 ? jv_get(res, "read") : jv_get(res, "write");
	add_latencies(d, &s, jv_get(dir, "lat_ns"), false);
	strbuf_release(&params);
}

static void from_run(struct run_doc *d)
{
	const struct jv *jobs = jv_path(d->doc, "fio_job.jobs");
	if (!jobs) {
		from_workload(d, jv_get(d->doc, "parameters"), jv_get(d->doc, "result"), d->doc, "run");
		return;
	}
	for (size_t i = 0; i < jobs->count; i++) {
		const struct jv *job = jv_at(jobs, i);
		char prefix[96];
		snprintf(prefix, sizeof(prefix), "fio-job %s:", jv_string(jv_get(job, "name"), "?"));
		from_workload(d, jv_get(job, "parameters"), jv_get(job, "result"), job, prefix);
	}
}

/* readdisk, readdisks, demo, readpooldisks: one bar per disk, outliers marked. */
static void from_devices(struct run_doc *d, const struct jv *devices)
{
	const struct jv *p = jv_get(d->doc, "parameters");
	char bs[32], test[96];
	bs_text(jv_number(jv_get(p, "bs_bytes"), 0), bs, sizeof(bs));
	/* The IOPS pass (readdisks --rw randread) is judged, and shown, on IOPS. */
	bool iops = strcmp(jv_string(jv_get(p, "judged_on"), "bw"), "iops") == 0;
	if (iops)
		snprintf(test, sizeof(test), "readdisk random read %s qd%.0f", bs, jv_number(jv_get(p, "iodepth"), 1));
	else
		snprintf(test, sizeof(test), "readdisk sequential read %s", bs);
	struct strbuf params = STRBUF_INIT;
	params_text(p, &params);
	for (size_t i = 0; devices && i < devices->count; i++) {
		const struct jv *dev = jv_at(devices, i);
		const char *status = jv_string(jv_get(dev, "status"), "ok");
		if (strcmp(status, "skipped") == 0)
			continue;
		struct mspec s = {
			.test = test, .metric = iops ? "IOPS" : "bandwidth", .unit = iops ? MU_IOPS : MU_BYTES_PER_S,
			.higher_is_better = true,
			.target = jv_string(jv_get(dev, "path"), "?"),
			.status = status,
			.reason = jv_string(jv_get(dev, "sentence"), jv_string(jv_get(dev, "reason"), NULL)),
			.params = params.buf,
			.value = strcmp(status, "ok") == 0 ? num_or_nan(jv_get(dev, iops ? "iops" : "bw_bytes_per_s")) : NAN,
			.outlier = disk_verdict_word_is_outlier(jv_string(jv_get(dev, "verdict"), "ok")),
			.per_disk = true,
		};
		add(d, &s);
		add_latencies(d, &s, jv_get(dev, "lat_ns"), true);
	}
	strbuf_release(&params);
}

/* matrix: every result of every target; parameters from the test and target definitions. */
static const struct jv *find_named(const struct jv *arr, const char *key, const char *name)
{
	for (size_t i = 0; arr && i < arr->count; i++)
		if (strcmp(jv_string(jv_get(jv_at(arr, i), key), ""), name) == 0)
			return jv_at(arr, i);
	return NULL;
}

static void from_matrix(struct run_doc *d)
{
	const struct jv *results = jv_get(d->doc, "results");
	for (size_t i = 0; results && i < results->count; i++) {
		const struct jv *r = jv_at(results, i);
		const char *test = jv_string(jv_get(r, "test"), "?"), *target = jv_string(jv_get(r, "target"), "?");
		struct strbuf params = STRBUF_INIT;
		params_text(find_named(jv_get(d->doc, "tests"), "name", test), &params);
		params_text(find_named(jv_get(d->doc, "targets"), "label", target), &params);
		/* What actually ran: the tool, and whether O_DIRECT was taken. */
		strbuf_addf(&params, ", tool=%s", jv_string(jv_get(r, "tool"), "?"));
		if (jv_get(r, "direct"))
			strbuf_addf(&params, ", direct=%s", jv_bool(jv_get(r, "direct"), false) ? "true" : "false");
		const struct jv *noise = jv_get(r, "noise");
		struct mspec s = {
			.test = test, .metric = "bandwidth", .unit = MU_BYTES_PER_S, .higher_is_better = true,
			.target = target,
			.status = jv_string(jv_get(r, "status"), "ok"),
			.reason = jv_string(jv_get(r, "reason"), NULL),
			.params = params.buf,
			.value = num_or_nan(jv_get(r, "bw_bytes_per_s")),
			.noise_sd = jv_number(jv_get(noise, "stddev_bw_bytes_per_s"), NAN),
			.noise_n = count_of(jv_get(noise, "samples")),
			.noise_basis = jv_string(jv_get(noise, "basis"), NULL),
			.noise_min = jv_number(jv_get(noise, "min_bw_bytes_per_s"), NAN),
			.noise_max = jv_number(jv_get(noise, "max_bw_bytes_per_s"), NAN),
		};
		add(d, &s);
		add_latencies(d, &s, jv_get(r, "lat_ns"), true);
		strbuf_release(&params);
	}
}

static void from_figures(struct run_doc *d, const struct jv *list, const char *target_key, const char *prefix,
			 const char *name_key)
{
	for (size_t i = 0; list && i < list->count; i++) {
		const struct jv *item = jv_at(list, i), *figs = jv_get(item, "figures");
		const char *target = jv_string(jv_get(item, target_key), jv_string(jv_get(d->doc, "pool"), "?"));
		for (size_t k = 0; figs && k < figs->count; k++) {
			const struct jv *f = jv_at(figs, k);
			char test[160];
			snprintf(test, sizeof(test), "%s%s%s %s", prefix,
				 name_key ? jv_string(jv_get(item, name_key), "?") : "", name_key ? "" : "",
				 jv_string(jv_get(f, "pass"), jv_string(jv_get(f, "direction"), "?")));
			struct strbuf params = STRBUF_INIT;
			params_text(f, &params);
			struct mspec s = {
				.test = test, .metric = "bandwidth", .unit = MU_BYTES_PER_S, .higher_is_better = true,
				.target = target, .status = jv_string(jv_get(item, "status"), "ok"),
				.reason = jv_string(jv_get(item, "reason"), NULL), .params = params.buf,
				.value = num_or_nan(jv_get(f, "bw_bytes_per_s")),
			};
			add(d, &s);
			/* benchpool's built-in engine times each I/O; rwpool and the tools do not. */
			add_latencies(d, &s, jv_get(f, "lat_ns"), true);
			strbuf_release(&params);
		}
	}
}

static void from_volumes(struct run_doc *d)
{
	const struct jv *vols = jv_get(d->doc, "volumes");
	struct strbuf params = STRBUF_INIT;
	params_text(jv_get(d->doc, "parameters"), &params);
	for (size_t i = 0; vols && i < vols->count; i++) {
		const struct jv *v = jv_at(vols, i);
		struct mspec s = {
			.test = "volumes read", .metric = "bandwidth", .unit = MU_BYTES_PER_S, .higher_is_better = true,
			.target = jv_string(jv_get(v, "mount"), "?"), .status = jv_string(jv_get(v, "status"), "ok"),
			.reason = jv_string(jv_get(v, "reason"), NULL), .params = params.buf,
			.value = num_or_nan(jv_get(v, "bw_bytes_per_s")),
		};
		add(d, &s);
		add_latencies(d, &s, jv_get(v, "lat_ns"), true);
	}
	strbuf_release(&params);
}

/* The lowest and highest of a document's array of numbers, into S's noise. */
static void noise_range(const struct jv *list, struct mspec *s)
{
	s->noise_min = s->noise_max = NAN;
	for (size_t i = 0; list && i < list->count; i++) {
		double v = jv_number(jv_at(list, i), NAN);
		if (isfinite(v) && !(v >= s->noise_min))
			s->noise_min = v;
		if (isfinite(v) && !(v <= s->noise_max))
			s->noise_max = v;
	}
}

/* presets NAME TARGET: per test of the set, the mean IOPS and bandwidth of
 * its loops (their spread as the noise) and the latency of all its loops. */
static void from_presets(struct run_doc *d)
{
	const struct jv *preset = jv_get(d->doc, "preset"), *tests = jv_get(preset, "tests");
	const char *name = jv_string(jv_get(preset, "name"), "?");
	for (size_t i = 0; tests && i < tests->count; i++) {
		const struct jv *t = jv_at(tests, i);
		char test[160], bs[32];
		snprintf(test, sizeof(test), "preset %s: %s", name, jv_string(jv_get(t, "name"), "?"));
		bs_text(jv_number(jv_get(t, "bs_bytes"), 0), bs, sizeof(bs));
		struct strbuf params = STRBUF_INIT;
		strbuf_addf(&params, "rw=%s, bs=%s, iodepth=%.0f, numjobs=%.0f, engine=%s, loops=%.0f, ramp_seconds=%g, "
			    "runtime_seconds=%g", jv_string(jv_get(t, "rw"), "?"), bs, jv_number(jv_get(t, "iodepth"), 1),
			    jv_number(jv_get(t, "numjobs"), 1), jv_string(jv_get(t, "engine"), "?"),
			    jv_number(jv_get(t, "loops"), 0), jv_number(jv_get(preset, "ramp_seconds"), 0),
			    jv_number(jv_get(preset, "runtime_seconds"), 0));
		unsigned loops = count_of(jv_get(t, "loops"));
		struct mspec s = {
			.test = test, .metric = "IOPS", .unit = MU_IOPS, .higher_is_better = true,
			.target = jv_string(jv_get(preset, "target"), "?"),
			.status = loops ? "ok" : jv_string(jv_get(d->doc, "status"), "error"),
			.reason = loops ? NULL : jv_string(jv_get(d->doc, "reason"), NULL),
			.params = params.buf,
			.value = num_or_nan(jv_get(t, "iops_mean")),
			.noise_sd = jv_number(jv_get(t, "iops_stdev"), NAN),
			.noise_n = loops,
			.noise_basis = "preset loops",
		};
		noise_range(jv_get(t, "iops"), &s);
		add(d, &s);
		struct mspec bw = s;
		bw.metric = "bandwidth";
		bw.unit = MU_BYTES_PER_S;
		bw.value = num_or_nan(jv_get(t, "bw_mean_bytes_per_s"));
		bw.noise_sd = jv_number(jv_get(t, "bw_stdev_bytes_per_s"), NAN);
		noise_range(jv_get(t, "bw_bytes_per_s"), &bw);
		add(d, &bw);
		add_latencies(d, &s, jv_get(t, "lat_ns"), true);
		strbuf_release(&params);
	}
}

static void add_rate(struct run_doc *d, const char *test, const char *target, const char *status,
		     const char *reason, const char *params, double value)
{
	struct mspec s = {
		.test = test, .metric = "bandwidth", .unit = MU_BYTES_PER_S, .higher_is_better = true,
		.target = target, .status = status, .reason = reason, .params = params, .value = value,
	};
	add(d, &s);
}

/* fleet --fio: each client's read and write rate under its host, and the aggregate. */
static void from_fleet_load(struct run_doc *d)
{
	const struct jv *clients = jv_get(d->doc, "clients");
	struct strbuf params = STRBUF_INIT;
	params_text(jv_get(d->doc, "parameters"), &params);
	static const char *const dirs[] = { "read", "write" };
	for (size_t k = 0; k < 2; k++) {
		char test[64];
		snprintf(test, sizeof(test), "fleet fio %s", dirs[k]);
		for (size_t i = 0; clients && i < clients->count; i++) {
			const struct jv *c = jv_at(clients, i);
			if (!jv_get(c, dirs[k]))
				continue;
			add_rate(d, test, jv_string(jv_get(c, "host"), "?"), jv_string(jv_get(c, "status"), "ok"),
				 jv_string(jv_get(c, "reason"), NULL), params.buf,
				 num_or_nan(jv_get(jv_get(c, dirs[k]), "bw_bytes_per_s")));
		}
		const struct jv *agg = jv_get(jv_get(d->doc, "aggregate"), dirs[k]);
		if (agg)
			add_rate(d, test, "aggregate", "ok", NULL, params.buf, num_or_nan(jv_get(agg, "bw_bytes_per_s")));
	}
	strbuf_release(&params);
}

/* netcheck --peer: TCP throughput per peer and port, one stream and several. */
static void from_netcheck_peers(struct run_doc *d)
{
	const struct jv *peers = jv_get(d->doc, "peers");
	static const char *const runs[] = { "single", "parallel" };
	for (size_t i = 0; peers && i < peers->count; i++) {
		const struct jv *p = jv_at(peers, i), *paths = jv_get(p, "paths");
		for (size_t k = 0; paths && k < paths->count; k++) {
			const struct jv *path = jv_at(paths, k);
			char target[320];
			snprintf(target, sizeof(target), "%s -> %s", jv_string(jv_get(path, "port"), "?"),
				 jv_string(jv_get(p, "peer"), "?"));
			for (size_t r = 0; r < 2; r++) {
				const struct jv *run = jv_get(path, runs[r]);
				char test[64], params[64];
				snprintf(test, sizeof(test), "netcheck peer tcp %s", runs[r]);
				snprintf(params, sizeof(params), "streams=%.0f", jv_number(jv_get(run, "streams"), 1));
				add_rate(d, test, target, jv_bool(jv_get(run, "measured"), false) ? "ok" : "error",
					 jv_string(jv_get(run, "reason"), NULL), params,
					 num_or_nan(jv_get(run, "bw_bytes_per_s")));
			}
		}
	}
}

int run_doc_load(const char *text, size_t len, struct run_doc *ret, char *err, size_t errlen)
{
	memset(ret, 0, sizeof(*ret));
	int r = jv_parse(text, len, &ret->doc, err, errlen);
	if (r < 0)
		return r;
	if (ret->doc->type != JV_OBJECT) {
		snprintf(err, errlen, "the document is not a JSON object");
		run_doc_release(ret);
		return -EINVAL;
	}
	const struct jv *doc = ret->doc;
	ret->id = xstrdup(jv_string(jv_get(doc, "run_id"), "?"));
	ret->command = xstrdup(jv_string(jv_get(doc, "command"), "?"));
	ret->host = xstrdup(jv_string(jv_get(doc, "host"), ""));
	ret->started_at = xstrdup(jv_string(jv_get(doc, "started_at"), ""));
	ret->argv = xstrdup(jv_string(jv_get(doc, "argv"), ""));
	ret->exit_status = jv_int(jv_get(doc, "exit_status"), 0);

	const char *c = ret->command;
	if (strcmp(c, "run") == 0)
		from_run(ret);
	else if (strcmp(c, "readdisk") == 0 || strcmp(c, "readdisks") == 0 || strcmp(c, "demo") == 0 ||
		 strcmp(c, "readpooldisks") == 0)
		from_devices(ret, jv_get(doc, "devices"));
	else if (strcmp(c, "matrix") == 0)
		from_matrix(ret);
	else if (strcmp(c, "benchpool") == 0)
		from_figures(ret, jv_get(doc, "results"), "pool", "benchpool ", "test");
	else if (strcmp(c, "rwpool") == 0 || strcmp(c, "rwpools") == 0 || strcmp(c, "runall") == 0)
		from_figures(ret, jv_get(doc, "pools"), "pool", "rwpool", NULL);
	else if (strcmp(c, "volumes") == 0)
		from_volumes(ret);
	else if (strcmp(c, "presets") == 0)
		from_presets(ret);
	else if (strcmp(c, "fleet") == 0 && jv_get(doc, "clients"))
		from_fleet_load(ret);
	else if (strcmp(c, "netcheck") == 0)
		from_netcheck_peers(ret);
	return 0;
}

void run_doc_release(struct run_doc *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->m[i].test);
		free(d->m[i].target);
		free(d->m[i].status);
		free(d->m[i].reason);
		free(d->m[i].params);
	}
	free(d->m);
	for (size_t i = 0; i < d->ncurves; i++)
		free(d->curves[i].label);
	free(d->curves);
	free(d->id);
	free(d->command);
	free(d->host);
	free(d->started_at);
	free(d->argv);
	jv_free(d->doc);
	memset(d, 0, sizeof(*d));
}
