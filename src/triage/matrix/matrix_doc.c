/* The matrix's results as its JSON document's members and as database
 * rows (triage/matrix/matrix.h). */
#include <inttypes.h>
#include <stdint.h>

#include "basic/strbuf.h"
#include "output/latency.h"
#include "triage/matrix/matrix.h"

static void json_targets(struct json *j, const struct matrix *m)
{
	json_begin_array(j, "targets");
	for (size_t i = 0; i < m->ntargets; i++) {
		const struct mx_target *t = &m->targets[i];
		json_begin_object(j, NULL);
		json_string(j, "label", t->label);
		json_string(j, "kind", t->kind == MX_DIR ? "directory" : t->kind == MX_DEVICE ? "device"
					: t->kind == MX_IMAGE ? "image" : t->kind == MX_ZVOL ? "zvol" : "zfs dataset");
		if (t->kind == MX_ZVOL) {
			json_string(j, "zvol", t->area.name[0] ? t->area.name : NULL);
			json_string(j, "volblocksize", t->recordsize);
		}
		if (t->kind == MX_IMAGE)
			json_string(j, "format", t->format);
		json_string(j, "path", t->path);
		if (t->kind == MX_DATASET) {
			json_string(j, "dataset", t->area.name[0] ? t->area.name : NULL);
			json_string(j, "recordsize", t->recordsize);
			json_string(j, "compression_requested", t->compression_asked);
			json_string(j, "compression", t->compression[0] ? t->compression : NULL);
			json_string(j, "primarycache", "metadata");
			json_string(j, "pool_findings", t->pool_findings[0] ? t->pool_findings : NULL);
			json_begin_array(j, "pool_members");
			for (size_t k = 0; k < t->nmembers; k++) {
				const struct mx_member_load *l = &t->members[k];
				json_begin_object(j, NULL);
				json_string(j, "kname", l->name);
				json_uint(j, "read_bytes", l->read_bytes);
				json_uint(j, "write_bytes", l->write_bytes);
				json_double(j, "busy", l->busy);
				json_double(j, "peak_busy", l->peak_busy);
				json_double(j, "wait_ms", l->wait_ms);
				json_end_object(j);
			}
			json_end_array(j);
		}
		json_bool(j, "direct_io", t->direct);
		json_string(j, "note", t->note[0] ? t->note : NULL);
		json_string(j, "status", t->failed ? "failed" : "ok");
		json_string(j, "reason", t->reason[0] ? t->reason : NULL);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_tests(struct json *j, const struct matrix *m, bool use_fio)
{
	json_begin_array(j, "tests");
	for (size_t k = 0; k < m->ntests; k++) {
		const struct mx_test *x = &m->tests[k];
		json_begin_object(j, NULL);
		json_string(j, "name", x->name);
		json_string(j, "tool", x->dbench ? "dbench" : use_fio ? "fio" : "builtin");
		if (x->dbench) {
			json_uint(j, "clients", x->clients);
		} else {
			json_string(j, "rw", x->random ? (x->write ? "randwrite" : "randread") : (x->write ? "write" : "read"));
			json_uint(j, "bs_bytes", x->bs);
			json_uint(j, "iodepth", m->iodepth);
			json_string(j, "ioengine", use_fio ? "libaio" : "auto");
			json_uint(j, "size_bytes", m->size);
			json_string(j, "pattern", "random");
		}
		json_double(j, "runtime_cap_seconds", (double)m->runtime_ns / 1e9);
		json_bool(j, "higher_is_better", true);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_results(struct json *j, const struct matrix *m)
{
	json_begin_array(j, "results");
	for (size_t i = 0; i < m->ntargets; i++)
		for (size_t k = 0; k < m->ntests; k++) {
			const struct mx_result *r = &m->results[i][k];
			json_begin_object(j, NULL);
			json_string(j, "target", m->targets[i].label);
			json_string(j, "test", m->tests[k].name);
			json_string(j, "status", r->status);
			json_string(j, "reason", r->reason[0] ? r->reason : NULL);
			json_string(j, "tool", mx_tool_name(r->tool));
			if (!m->tests[k].dbench)
				json_bool(j, "direct", r->direct);
			json_uint(j, "bytes", r->bytes);
			json_double(j, "seconds", r->seconds);
			json_double(j, "bw_bytes_per_s", r->bw);
			json_double(j, "iops", r->iops);
			json_double(j, "lat_p99_ns", r->lat_p99_ns);
			json_double(j, "lat_max_ns", r->lat_max_ns);
			/* The whole completion latency (mean, stdev, p50 to p99.99, max) where the tool gave it. */
			if (r->has_lat)
				json_latency_summary(j, "lat_ns", &r->lat);
			if (r->has_slat)
				json_latency_summary(j, "slat_ns", &r->slat);
			json_begin_object(j, "noise");
			json_string(j, "basis", r->noise_basis);
			json_uint(j, "samples", r->noise_n);
			json_double(j, "stddev_bw_bytes_per_s", r->noise_sd);
			json_double(j, "min_bw_bytes_per_s", r->noise_min);
			json_double(j, "max_bw_bytes_per_s", r->noise_max);
			json_end_object(j);
			json_end_object(j);
		}
	json_end_array(j);
}

void mx_write_json(struct json *j, const struct matrix *m, bool use_fio)
{
	json_string(j, "operation", "matrix");
	if (m->pool)
		json_string(j, "pool", m->pool);
	json_int(j, "stale_areas_removed", m->stale_removed); /* datasets and directories of killed runs */
	json_string(j, "engine", use_fio ? "fio" : "builtin");
	json_uint(j, "size_bytes", m->size);
	json_double(j, "runtime_cap_seconds", (double)m->runtime_ns / 1e9);
	json_uint(j, "iodepth", m->iodepth);
	json_targets(j, m);
	json_tests(j, m, use_fio);
	json_results(j, m);
}

int mx_store_rows(struct store *s, const char *run_id, const struct matrix *m)
{
	for (size_t i = 0; i < m->ntargets; i++)
		for (size_t k = 0; k < m->ntests; k++) {
			const struct mx_result *r = &m->results[i][k];
			struct strbuf params = STRBUF_INIT;
			strbuf_adds(&params, "{\"target\": ");
			json_quote(&params, m->targets[i].label);
			strbuf_addf(&params, ", \"tool\": \"%s\", \"bs_bytes\": %" PRIu32 "}", mx_tool_name(r->tool), m->tests[k].bs);
			struct store_result res = {
				.run_id = run_id, .test = m->tests[k].name, .path = m->targets[i].path,
				.status = r->status, .reason = r->reason[0] ? r->reason : NULL, .bytes = r->bytes,
				.seconds = r->seconds, .bw_bytes_per_s = r->bw, .iops = r->iops, .params = params.buf,
			};
			int e = store_add_result(s, &res);
			strbuf_release(&params);
			if (e < 0)
				return e;
		}
	return 0;
}
