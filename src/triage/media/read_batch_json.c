/* The read batch's stored forms: its members of the JSON document and its
 * database rows. */
#include <stdio.h>
#include <string.h>

#include "basic/log.h"
#include "basic/timeutil.h"
#include "output/latency.h"
#include "triage/media/read_batch.h"
#include "triage/media/read_group.h"
#include "triage/media/read_health.h"
#include "triage/media/read_link.h"
#include "triage/media/read_verdict.h"

static void json_identity(struct json *j, const struct disk_info *info)
{
	json_string(j, "path", info->dev_path);
	json_string(j, "kname", info->kname);
	json_string(j, "by_id", info->by_id[0] ? info->by_id : NULL);
	json_string(j, "vendor", info->vendor);
	json_string(j, "model", info->model);
	json_string(j, "serial", info->serial);
	json_string(j, "wwn", info->wwn);
	json_uint(j, "size_bytes", info->size_bytes);
	json_bool(j, "rotational", info->rotational);
	json_uint(j, "logical_block_size", info->logical_block_size);
	json_uint(j, "physical_block_size", info->physical_block_size);
	json_string(j, "transport", info->transport);
	if (info->backing_file[0])
		json_string(j, "backing_file", info->backing_file);
}

static void json_verdict(struct json *j, const struct disk_read *d)
{
	const struct disk_verdict *v = &d->verdict;
	char sentence[VERDICT_SENTENCE_LEN];
	disk_verdict_sentence(v, sentence, sizeof(sentence));
	json_string(j, "verdict", disk_verdict_word(v->kind));
	json_string(j, "sentence", sentence[0] ? sentence : NULL);
	if (d->status != READTEST_OK || v->peers.flag == OUTLIER_NO_PEERS)
		return;
	json_begin_object(j, "peers");
	json_uint(j, "set_size", v->peers.set_size);
	json_bool(j, "same_model_and_size", v->peers.peers_are_group);
	json_double(j, d->by_iops ? "median_iops" : "median_bw_bytes_per_s", v->peers.peer_median);
	json_double(j, d->by_iops ? "spread_iops" : "spread_bw_bytes_per_s", v->peers.peer_spread);
	json_double(j, "ratio", v->peers.ratio);
	json_double(j, "robust_z", v->peers.robust_z);
	json_uint(j, "reads", v->reads.total);
	json_uint(j, "reads_out_of_line", v->reads.out_of_line);
	json_end_object(j);
	if (v->tail.flag == OUTLIER_NO_PEERS || v->kind == VERDICT_NOT_JUDGED)
		return;
	/* The p99 completion latency against the peers' (lat_ns has every percentile). */
	json_begin_object(j, "tail");
	json_double(j, "p99_ns", v->p99_ns);
	json_uint(j, "set_size", v->tail.set_size);
	json_double(j, "median_p99_ns", v->tail.peer_median);
	json_double(j, "spread_p99_ns", v->tail.peer_spread);
	json_double(j, "ratio", v->tail.ratio);
	json_double(j, "robust_z", v->tail.robust_z);
	json_uint(j, "reads", v->reads.total);
	json_uint(j, "reads_out_of_line", v->reads.tail_out_of_line);
	json_end_object(j);
}

static void json_parameters(const struct read_batch *b, struct json *j)
{
	json_begin_object(j, "parameters");
	json_string(j, "access", b->opts.random ? "O_DIRECT random read over the whole device, time-based"
					       : "O_DIRECT sequential read");
	json_string(j, "rw", b->opts.random ? "randread" : "read");
	json_string(j, "judged_on", b->opts.random ? "iops" : "bw");
	if (b->opts.random)
		json_double(j, "runtime_seconds", b->opts.runtime_ns ? (double)b->opts.runtime_ns / 1e9
								    : READTEST_DEFAULT_RANDOM_RUNTIME_S);
	else
		json_uint(j, "size_bytes", b->opts.size);
	json_uint(j, "bs_bytes", b->opts.bs);
	json_uint(j, "iodepth", b->opts.iodepth);
	json_string(j, "engine", b->opts.engine);
	json_string(j, "mode", b->parallel ? "parallel" : "serial");
	bool both = false;
	for (size_t i = 0; i < b->count; i++)
		both |= b->reads[i].parallel_bw > 0;
	json_bool(j, "parallel_pass", both);
	json_end_object(j);
}

/* The read's figures: how much, how fast, how, and its latencies. */
static void json_figures(struct json *j, const struct disk_read *d)
{
	const struct job_result *r = d->res;
	json_uint(j, "requested_bytes", d->requested);
	json_uint(j, "bytes", r ? r->bytes : 0);
	json_double(j, "seconds", r ? r->seconds : 0);
	json_double(j, "bw_bytes_per_s", r ? job_bw_bytes_per_s(r) : 0);
	if (r) {
		json_double(j, "iops", job_iops(r));
		json_string(j, "engine", r->engine->name);
		json_string(j, "engine_reason", d->engine_reason);
		json_uint(j, "iodepth", r->iodepth);
		json_string(j, "stopped_by", job_stop_name(r->stop));
		/* O_DIRECT: neither the page cache nor an ARC served these reads. */
		json_string(j, "cache", "bypassed");
		json_latency(j, "lat_ns", &r->lat_read);
		json_latency_or_null(j, "slat_ns", r->has_slat ? &r->slat_read : NULL);
	}
}

static void json_baseline(struct json *j, const struct disk_read *d, double regression_pct)
{
	json_begin_object(j, "baseline");
	json_double(j, d->by_iops ? "iops" : "bw_bytes_per_s", d->baseline_bw);
	char when[32];
	time_format_iso8601((time_t)d->baseline_at, when, sizeof(when));
	json_string(j, "saved_at", when);
	if (d->res)
		json_double(j, "percent_of_baseline", 100.0 * disk_read_figure(d) / d->baseline_bw);
	json_double(j, "regression_limit_percent", regression_pct);
	json_uint(j, "reads_below", d->verdict.reads.below_baseline);
	json_end_object(j);
}

static void json_device(struct json *j, const struct disk_read *d, double regression_pct)
{
	json_begin_object(j, NULL);
	json_identity(j, &d->info);
	if (d->host[0])
		json_string(j, "host", d->host); /* read there over ssh (triage/media/read_remote.h) */
	json_string(j, "status", readtest_status_name(d->status));
	json_string(j, "reason", d->reason[0] ? d->reason : NULL);
	if (d->io_error || d->no_response) {
		/* The failure mid-read: what went wrong, where, and what was read before. */
		json_begin_object(j, "failure");
		json_string(j, "kind", d->io_error ? "io_error" : d->reader_never_ran ? "reader_never_ran" : "no_response");
		json_string(j, "error", strerror(-d->res->error));
		json_uint(j, "offset_bytes", d->res->error_offset);
		json_uint(j, "bytes_read_before", d->res->bytes);
		if (d->no_response)
			json_uint(j, "timeout_seconds", d->timeout_s);
		if (d->stuck_pid)
			json_int(j, "stuck_pid", d->stuck_pid);
		json_end_object(j);
	}
	json_figures(j, d);
	if (d->status == READTEST_OK)
		json_double(j, "percent_of_median", d->pct_of_median);
	json_verdict(j, d);
	read_health_json(j, d);
	read_link_json(j, d);
	read_group_device_json(d, j);
	if (d->vdev[0])
		json_string(j, "vdev", d->vdev);
	if (d->has_baseline)
		json_baseline(j, d, regression_pct);
	if (d->parallel_bw > 0) {
		json_begin_object(j, "parallel");
		json_double(j, "bw_bytes_per_s", d->parallel_bw);
		json_double(j, "percent_of_serial", d->parallel_pct_of_serial);
		json_string(j, "path_group", d->info.path_group);
		json_end_object(j);
	} else if (d->parallel_failure[0]) {
		json_begin_object(j, "parallel");
		json_string(j, "failure", d->parallel_failure);
		json_string(j, "path_group", d->info.path_group);
		json_end_object(j);
	}
	if (d->group_bw > 0) {
		json_begin_object(j, "group_pass");
		json_double(j, "bw_bytes_per_s", d->group_bw);
		json_double(j, "percent_of_serial", d->group_pct_of_serial);
		json_end_object(j);
	}
	json_end_object(j);
}

void read_batch_json(const struct read_batch *b, struct json *j)
{
	json_parameters(b, j);
	size_t counts[3] = { 0 };
	json_begin_array(j, "devices");
	for (size_t i = 0; i < b->count; i++) {
		counts[b->reads[i].status]++;
		json_device(j, &b->reads[i], b->regression_pct);
	}
	json_end_array(j);

	json_begin_object(j, "summary");
	json_uint(j, "ok", counts[READTEST_OK]);
	json_uint(j, "error", counts[READTEST_ERROR]);
	json_uint(j, "skipped", counts[READTEST_SKIPPED]);
	json_double(j, b->opts.random ? "median_iops" : "median_bw_bytes_per_s", b->median_bw);
	json_end_object(j);
}

void read_batch_document(const struct read_batch *b, struct json *j)
{
	struct read_groups groups;
	read_groups_build(b, &groups);
	read_batch_json(b, j);
	read_groups_json(b, &groups, j);
	read_groups_release(&groups);
}

/* Saves D's figure as its baseline: bandwidth, or IOPS (with the block size
 * and queue depth) in the IOPS pass; not for a disk without a stable identity. */
static int save_baseline(struct store *s, const char *run_id, time_t started, int64_t device_id,
			 const struct read_batch *b, const struct disk_read *d)
{
	if (!disk_has_stable_identity(&d->info)) {
		log_msg(LOG_WARN, "READ-DISK (%s): no baseline saved: no WWN, serial or by-id path "
				  "identifies it across reboots", d->info.dev_path);
		return 0;
	}
	int r;
	if (b->opts.random) {
		struct store_iops_baseline base = {
			.iops = job_iops(d->res), .saved_at = started,
			.bs_bytes = b->opts.bs, .iodepth = b->opts.iodepth,
		};
		r = store_set_iops_baseline(s, device_id, run_id, &base);
		if (r == 0)
			log_msg(LOG_INFO, "READ-DISK (%s): IOPS baseline saved: %.0f IOPS (%u bytes, queue depth %u)",
				d->info.dev_path, base.iops, base.bs_bytes, base.iodepth);
		return r;
	}
	r = store_set_baseline(s, device_id, run_id, job_bw_bytes_per_s(d->res), b->opts.bs, started);
	if (r == 0)
		log_msg(LOG_INFO, "READ-DISK (%s): baseline saved: %.1f MB/s", d->info.dev_path,
			job_bw_bytes_per_s(d->res) / 1e6);
	return r;
}

int read_batch_store(struct store *s, const char *run_id, time_t started, const struct read_batch *b)
{
	for (size_t i = 0; i < b->count; i++) {
		const struct disk_read *d = &b->reads[i];
		char key[700];
		disk_identity_key(&d->info, key, sizeof(key));
		struct store_device dev = {
			.identity_key = key,
			.kname = d->info.kname,
			.vendor = d->info.vendor,
			.model = d->info.model,
			.serial = d->info.serial,
			.wwn = d->info.wwn,
			.size_bytes = d->info.size_bytes,
		};
		int64_t device_id = 0;
		int r = store_upsert_device(s, &dev, started, &device_id);
		if (r < 0)
			return r;
		char params[256];
		snprintf(params, sizeof(params),
			 "{\"bs_bytes\": %u, \"iodepth\": %u, \"engine\": \"%s\", \"direct\": true}", b->opts.bs,
			 d->res ? d->res->iodepth : b->opts.iodepth, d->res ? d->res->engine->name : b->opts.engine);
		struct store_result res = {
			.run_id = run_id,
			.device_id = device_id,
			.test = b->opts.random ? "readdisk-iops" : "readdisk",
			.path = d->info.dev_path,
			.status = readtest_status_name(d->status),
			.reason = d->reason[0] ? d->reason : NULL,
			.bytes = d->res ? d->res->bytes : 0,
			.seconds = d->res ? d->res->seconds : 0,
			.bw_bytes_per_s = d->res ? job_bw_bytes_per_s(d->res) : 0,
			.iops = d->res ? job_iops(d->res) : 0,
			.params = params,
		};
		r = store_add_result(s, &res);
		if (r < 0)
			return r;
		if (b->save_baseline && d->status == READTEST_OK) {
			r = save_baseline(s, run_id, started, device_id, b, d);
			if (r < 0)
				return r;
		}
	}
	return 0;
}
