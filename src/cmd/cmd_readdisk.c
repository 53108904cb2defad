/* readdisk DEV and readdisks: step 1 of the method, the media read test. */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"
#include "cmd/commands.h"
#include "cmd/readdisks.h"
#include "output/latency.h"
#include "output/table.h"

#define SYSFS_ROOT "/sys"
#define DEV_ROOT "/dev"

/* ---- options shared by the read commands ---- */

void readtest_opts_default(struct readtest_opts *opts)
{
	*opts = (struct readtest_opts){
		.size = READTEST_DEFAULT_SIZE,
		.bs = READTEST_DEFAULT_BS,
		.iodepth = 1,
		.engine = "auto",
		.progress = isatty(STDERR_FILENO),
	};
}

static int size_error(const char *command, const char *opt, const char *arg, int r)
{
	if (r == -ERANGE)
		return opts_usage_error(command, "invalid %s '%s': too large", opt, arg);
	return opts_usage_error(command,
				"invalid %s '%s': expected a number with an optional K, M, G, T or P suffix",
				opt, arg);
}

int readtest_parse_option(const char *command, int id, const char *arg, struct readtest_opts *opts)
{
	uint64_t v;
	int r;
	switch (id) {
	case OPT_RT_SIZE:
		r = parse_size(arg, &v);
		if (r < 0)
			return size_error(command, "--size", arg, r);
		if (v == 0)
			return opts_usage_error(command, "invalid --size '%s': must be greater than 0", arg);
		opts->size = v;
		return 0;
	case OPT_RT_BS:
		r = parse_size(arg, &v);
		if (r < 0)
			return size_error(command, "--bs", arg, r);
		if (v < 512 || v % 512 || v > (64U << 20))
			return opts_usage_error(command,
						"invalid --bs '%s': direct I/O needs a multiple of 512 bytes, "
						"from 512 to 64M",
						arg);
		opts->bs = (uint32_t)v;
		return 0;
	case OPT_RT_IODEPTH:
		r = parse_uint(arg, 1, JOB_MAX_IODEPTH, &v);
		if (r < 0)
			return opts_usage_error(command, "invalid --iodepth '%s': expected 1 to %d", arg,
						JOB_MAX_IODEPTH);
		opts->iodepth = (unsigned)v;
		return 0;
	case OPT_RT_ENGINE:
		if (strcmp(arg, "auto") != 0 && !engine_find(arg))
			return opts_usage_error(command,
						"unknown engine '%s': expected auto, psync, libaio, io_uring or null",
						arg);
		opts->engine = arg;
		return 0;
	}
	return 1;
}

int baseline_parse_option(const char *command, int id, const char *arg, struct read_batch *b)
{
	uint64_t v;
	switch (id) {
	case OPT_SAVE_BASELINE:
		b->save_baseline = true;
		return 0;
	case OPT_REGRESSION:
		if (parse_uint(arg, 1, 99, &v) < 0)
			return opts_usage_error(command, "invalid --regression '%s': expected a percentage from 1 to 99", arg);
		b->regression_pct = (double)v;
		return 0;
	}
	return 1;
}

/* ---- one read, its log lines ---- */

static void log_starting(const struct disk_read *d, const struct readtest_opts *opts)
{
	char size[32], bs[32];
	human_size_exact(opts->size, size, sizeof(size));
	human_size_exact(opts->bs, bs, sizeof(bs));
	log_msg(LOG_INFO, "READ-DISK (%s): starting: O_DIRECT sequential read of %s in %s blocks, queue depth %u, engine %s",
		d->info.dev_path, size, bs, opts->iodepth, opts->engine);
}

static void log_outcome(const struct disk_read *d)
{
	if (d->status == READTEST_SKIPPED) {
		log_msg(LOG_INFO, "READ-DISK (%s): skipped: %s", d->info.dev_path, d->reason);
		return;
	}
	if (d->status == READTEST_ERROR) {
		log_msg(LOG_ERR, "READ-DISK (%s): failed: %s", d->info.dev_path, d->reason);
		return;
	}
	char summary[160];
	human_dd_summary(d->res->bytes, d->res->seconds, summary, sizeof(summary));
	log_msg(LOG_INFO, "READ-DISK (%s): completed: %s", d->info.dev_path, summary);
	if (d->truncated)
		log_msg(LOG_WARN, "READ-DISK (%s): %s", d->info.dev_path, d->reason);
}

struct parallel_read {
	struct disk_read *d;
	const struct readtest_opts *opts;
};

static void *parallel_read_main(void *arg)
{
	struct parallel_read *p = arg;
	readtest_run(p->d, p->opts);
	return NULL;
}

static void read_all_at_once(struct read_batch *b)
{
	struct readtest_opts opts = b->opts;
	opts.progress = false; /* several devices cannot share one progress line */
	pthread_t *threads = xcalloc(b->count, sizeof(*threads));
	struct parallel_read *args = xcalloc(b->count, sizeof(*args));
	bool *started = xcalloc(b->count, sizeof(*started));
	for (size_t i = 0; i < b->count; i++) {
		if (b->reads[i].status == READTEST_SKIPPED)
			continue;
		log_starting(&b->reads[i], &b->opts);
		args[i] = (struct parallel_read){ &b->reads[i], &opts };
		int r = pthread_create(&threads[i], NULL, parallel_read_main, &args[i]);
		if (r) {
			b->reads[i].status = READTEST_ERROR;
			snprintf(b->reads[i].reason, sizeof(b->reads[i].reason),
				 "cannot start a reader thread: %s", strerror(r));
			continue;
		}
		started[i] = true;
	}
	for (size_t i = 0; i < b->count; i++)
		if (started[i])
			pthread_join(threads[i], NULL);
	for (size_t i = 0; i < b->count; i++)
		log_outcome(&b->reads[i]);
	free(threads);
	free(args);
	free(started);
}

size_t read_batch_execute(struct read_batch *b)
{
	if (b->parallel) {
		read_all_at_once(b);
	} else {
		for (size_t i = 0; i < b->count; i++) {
			struct disk_read *d = &b->reads[i];
			if (d->status != READTEST_SKIPPED && interrupt_requested()) {
				d->status = READTEST_SKIPPED;
				snprintf(d->reason, sizeof(d->reason), "not read: interrupted");
			}
			if (d->status != READTEST_SKIPPED) {
				log_starting(d, &b->opts);
				readtest_run(d, &b->opts);
			}
			log_outcome(d);
		}
	}
	free(b->order);
	b->order = xcalloc(b->count, sizeof(*b->order));
	b->median_bw = readtest_rank(b->reads, b->count, b->order);
	size_t errors = 0;
	for (size_t i = 0; i < b->count; i++)
		errors += b->reads[i].status == READTEST_ERROR;
	return errors;
}

/* ---- presentation ---- */

void read_batch_print_table(const struct read_batch *b, FILE *out)
{
	static const char *const headers[] = { "DEVICE", "MODEL", "SIZE", "READ", "TIME", "RATE",
					       "OF MEDIAN", "TOGETHER", "VERDICT", "STATUS" };
	struct table t;
	table_init(&t, 10, headers, "llrrrrrrll");
	for (size_t k = 0; k < b->count; k++) {
		const struct disk_read *d = &b->reads[b->order ? b->order[k] : k];
		char size[32] = "", bytes[32] = "", secs[32] = "", rate[32] = "", pct[32] = "", together[32] = "",
		     status[400];
		if (d->parallel_bw > 0)
			snprintf(together, sizeof(together), "%.0f%%", d->parallel_pct_of_serial);
		if (d->info.size_bytes)
			human_size_exact(d->info.size_bytes, size, sizeof(size));
		if (d->status == READTEST_OK) {
			human_iec((double)d->res->bytes, bytes, sizeof(bytes));
			snprintf(secs, sizeof(secs), "%.2f s", d->res->seconds);
			human_rate(job_bw_bytes_per_s(d->res), rate, sizeof(rate));
			snprintf(pct, sizeof(pct), "%.0f%%", d->pct_of_median);
		}
		snprintf(status, sizeof(status), "%s%s%s", readtest_status_name(d->status),
			 d->reason[0] ? ": " : "", d->reason);
		const char *row[] = { d->info.dev_path, d->info.model, size, bytes, secs, rate, pct, together,
				      d->verdict ? d->verdict : "", status };
		table_add_row(&t, row);
	}
	table_print(&t, out);
	table_release(&t);
}

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
	json_string(j, "verdict", d->verdict);
	json_string(j, "sentence", d->sentence[0] ? d->sentence : NULL);
	if (d->status != READTEST_OK || d->finding.flag == OUTLIER_NO_PEERS)
		return;
	json_begin_object(j, "peers");
	json_uint(j, "set_size", d->finding.set_size);
	json_bool(j, "same_model_and_size", d->finding.peers_are_group);
	json_double(j, "median_bw_bytes_per_s", d->finding.peer_median);
	json_double(j, "spread_bw_bytes_per_s", d->finding.peer_spread);
	json_double(j, "ratio", d->finding.ratio);
	json_double(j, "robust_z", d->finding.robust_z);
	json_uint(j, "reads", d->reads_total);
	json_uint(j, "reads_out_of_line", d->reads_flagged);
	json_end_object(j);
}

void read_batch_json(const struct read_batch *b, struct json *j)
{
	json_begin_object(j, "parameters");
	json_string(j, "access", "O_DIRECT sequential read");
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

	size_t counts[3] = { 0 };
	json_begin_array(j, "devices");
	for (size_t i = 0; i < b->count; i++) {
		const struct disk_read *d = &b->reads[i];
		counts[d->status]++;
		json_begin_object(j, NULL);
		json_identity(j, &d->info);
		json_string(j, "status", readtest_status_name(d->status));
		json_string(j, "reason", d->reason[0] ? d->reason : NULL);
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
		}
		if (d->status == READTEST_OK)
			json_double(j, "percent_of_median", d->pct_of_median);
		json_verdict(j, d);
		read_health_json(j, d);
		read_group_device_json(d, j);
		if (d->vdev[0])
			json_string(j, "vdev", d->vdev);
		if (d->has_baseline) {
			json_begin_object(j, "baseline");
			json_double(j, "bw_bytes_per_s", d->baseline_bw);
			char when[32];
			time_format_iso8601((time_t)d->baseline_at, when, sizeof(when));
			json_string(j, "saved_at", when);
			if (r)
				json_double(j, "percent_of_baseline", 100.0 * job_bw_bytes_per_s(r) / d->baseline_bw);
			json_double(j, "regression_limit_percent", b->regression_pct);
			json_uint(j, "reads_below", d->baseline_flagged);
			json_end_object(j);
		}
		if (d->parallel_bw > 0) {
			json_begin_object(j, "parallel");
			json_double(j, "bw_bytes_per_s", d->parallel_bw);
			json_double(j, "percent_of_serial", d->parallel_pct_of_serial);
			json_string(j, "path_group", d->info.path_group);
			json_end_object(j);
		}
		json_end_object(j);
	}
	json_end_array(j);

	json_begin_object(j, "summary");
	json_uint(j, "ok", counts[READTEST_OK]);
	json_uint(j, "error", counts[READTEST_ERROR]);
	json_uint(j, "skipped", counts[READTEST_SKIPPED]);
	json_double(j, "median_bw_bytes_per_s", b->median_bw);
	json_end_object(j);
}

int read_batch_store(struct store *s, const struct run_ctx *rc, void *arg)
{
	const struct read_batch *b = arg;
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
		int r = store_upsert_device(s, &dev, rc->started, &device_id);
		if (r < 0)
			return r;
		char params[256];
		snprintf(params, sizeof(params),
			 "{\"bs_bytes\": %u, \"iodepth\": %u, \"engine\": \"%s\", \"direct\": true}", b->opts.bs,
			 d->res ? d->res->iodepth : b->opts.iodepth, d->res ? d->res->engine->name : b->opts.engine);
		struct store_result res = {
			.run_id = rc->id,
			.device_id = device_id,
			.test = "readdisk",
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
			if (!disk_has_stable_identity(&d->info)) {
				log_msg(LOG_WARN, "READ-DISK (%s): no baseline saved: no WWN, serial or by-id path "
						  "identifies it across reboots", d->info.dev_path);
				continue;
			}
			r = store_set_baseline(s, device_id, rc->id, job_bw_bytes_per_s(d->res), b->opts.bs,
					       rc->started);
			if (r < 0)
				return r;
			log_msg(LOG_INFO, "READ-DISK (%s): baseline saved: %.1f MB/s", d->info.dev_path,
				job_bw_bytes_per_s(d->res) / 1e6);
		}
	}
	return 0;
}

void read_batch_release(struct read_batch *b)
{
	for (size_t i = 0; i < b->count; i++)
		disk_read_release(&b->reads[i]);
	free(b->reads);
	free(b->order);
	b->reads = NULL;
	b->order = NULL;
	b->count = 0;
}

/* Judges the batch, writes the human table (unless --json), the document
 * and the database rows. */
void read_batch_conclude(struct read_batch *b, const char *db_path)
{
	if (run_ctx_interrupted_status())
		return;
	read_batch_load_baselines(b, db_path);
	read_batch_log_conclusion(b, read_batch_judge(b));
	read_batch_check_health(b);
}

void read_batch_present(const struct read_batch *b, FILE *out)
{
	if (!b->count)
		return;
	struct read_groups groups;
	read_groups_build(b, &groups);
	fputc('\n', out);
	read_batch_print_table(b, out);
	fputc('\n', out);
	if (groups.count) {
		fprintf(out, "By %s:\n", read_group_by_name(groups.by));
		read_groups_print(b, &groups, out);
		fputc('\n', out);
	}
	read_health_print(b, out);
	read_groups_release(&groups);
}

void read_batch_document(const struct read_batch *b, struct json *j)
{
	struct read_groups groups;
	read_groups_build(b, &groups);
	read_batch_json(b, j);
	read_groups_json(b, &groups, j);
	read_groups_release(&groups);
}

int read_batch_finish(struct run_ctx *rc, struct read_batch *b, size_t errors, size_t ok,
		      const struct shared_paths *shared, read_batch_json_fn extra, void *extra_arg)
{
	read_batch_conclude(b, rc->db_path);
	if (!rc->json)
		read_batch_present(b, stdout);
	int status = run_ctx_interrupted_status();
	if (!status)
		status = (errors || ok == 0) ? 1 : 0;
	struct json j;
	json_init(&j);
	run_ctx_json_head(rc, &j);
	read_batch_document(b, &j);
	if (shared)
		shared_paths_json(shared, &j);
	if (extra)
		extra(&j, extra_arg);
	status = run_ctx_finish(rc, &j, status, read_batch_store, b);
	json_release(&j);
	return status;
}

size_t read_batch_count(const struct read_batch *b, enum readtest_status s)
{
	size_t n = 0;
	for (size_t i = 0; i < b->count; i++)
		n += b->reads[i].status == s;
	return n;
}

/* ---- readdisk DEV ---- */

static const struct opt_def readdisk_opts[] = {
	READTEST_OPT_DEFS,
	BASELINE_OPT_DEFS,
	OPT_END,
};

void read_describe_path(const char *path, struct disk_info *info)
{
	struct stat st;
	char kname[64];
	bool partition = false;
	if (stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
	    disk_kname_from_devnum(SYSFS_ROOT, major(st.st_rdev), minor(st.st_rdev), kname,
				   sizeof(kname), &partition) == 0 &&
	    !partition)
		disk_describe(SYSFS_ROOT, DEV_ROOT, kname, info);
	else if (partition)
		snprintf(info->kname, sizeof(info->kname), "%s", kname);
	/* Keep the path as the user gave it: it is how they know the device. */
	snprintf(info->dev_path, sizeof(info->dev_path), "%s", path);
	if (!info->kname[0]) {
		const char *slash = strrchr(path, '/');
		snprintf(info->kname, sizeof(info->kname), "%s", slash ? slash + 1 : path);
	}
}

static int handle_readdisk_option(int id, const char *arg, void *state)
{
	struct read_batch *b = state;
	int r = baseline_parse_option("readdisk", id, arg, b);
	return r == 1 ? readtest_parse_option("readdisk", id, arg, &b->opts) : r;
}

int cmd_readdisk(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"readdisk", "readdisk [options] DEVICE",
		"Reads one block device with O_DIRECT, sequentially (by default 1000 MiB in 1 MiB\n"
		"blocks, as dd iflag=direct would), opened read-only. Use it to re-test a suspect disk.",
		readdisk_opts,
	};
	struct read_batch b = { .count = 1, .regression_pct = DEFAULT_REGRESSION_PCT };
	readtest_opts_default(&b.opts);
	int first = opts_parse_command(&doc, argc, argv, g, handle_readdisk_option, &b);
	if (first < 0)
		return opts_command_status(first);
	if (argc - first != 1)
		return opts_usage_error("readdisk", argc - first ? "expected one device, got %d operands"
								: "missing the device to read%.0d",
					argc - first);
	const char *path = argv[first];

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "readdisk", argc, argv, g))
		return 1;
	b.reads = xcalloc(1, sizeof(*b.reads));
	read_describe_path(path, &b.reads[0].info);
	size_t errors = read_batch_execute(&b);
	int status = read_batch_finish(&rc, &b, errors, read_batch_count(&b, READTEST_OK), NULL, NULL, NULL);
	read_batch_release(&b);
	return status;
}

/* ---- readdisks ---- */

enum { OPT_PARALLEL = OPT_COMMAND_BASE, OPT_MATCH, OPT_MODE };

static const struct opt_def readdisks_opts[] = {
	READTEST_OPT_DEFS,
	BASELINE_OPT_DEFS,
	{ "parallel", 'p', NULL, "read every disk at the same time instead of one after another", OPT_PARALLEL, { 0 } },
	{ "mode", 0, "MODE", "serial (default), parallel, or both: alone, then all at once, showing each disk's "
			       "rate together as a percentage of alone (finds a shared bottleneck)", OPT_MODE, { 0 } },
	{ "match", 'm', "GLOB", "only disks whose name or path matches (repeatable), e.g. 'sd*'", OPT_MATCH, { 0 } },
	GROUP_BY_OPT_DEF,
	OPT_END,
};

#define MAX_MATCH 32

static bool matches(const struct disk_info *d, const char *const *globs, size_t n)
{
	if (n == 0)
		return true;
	for (size_t i = 0; i < n; i++)
		if (fnmatch(globs[i], d->kname, 0) == 0 || fnmatch(globs[i], d->dev_path, 0) == 0)
			return true;
	return false;
}

struct readdisks_settings {
	struct read_batch batch;
	const char *globs[MAX_MATCH];
	size_t nglobs;
	bool parallel, both;
};

static int handle_readdisks_option(int id, const char *arg, void *state)
{
	struct readdisks_settings *s = state;
	switch (id) {
	case OPT_PARALLEL:
		s->parallel = true;
		return 0;
	case OPT_MODE:
		if (strcmp(arg, "serial") && strcmp(arg, "parallel") && strcmp(arg, "both"))
			return opts_usage_error("readdisks", "invalid --mode '%s': expected serial, parallel or both", arg);
		s->parallel = strcmp(arg, "parallel") == 0;
		s->both = strcmp(arg, "both") == 0;
		return 0;
	case OPT_GROUP_BY:
		if (read_group_parse(arg, &s->batch.group_by) < 0)
			return opts_usage_error("readdisks", "invalid --group-by '%s': expected vdev, controller, "
							     "enclosure or none", arg);
		return 0;
	case OPT_MATCH:
		if (s->nglobs == MAX_MATCH)
			return opts_usage_error("readdisks", "at most %d --match patterns", MAX_MATCH);
		s->globs[s->nglobs++] = arg;
		return 0;
	}
	int r = baseline_parse_option("readdisks", id, arg, &s->batch);
	return r == 1 ? readtest_parse_option("readdisks", id, arg, &s->batch.opts) : r;
}

int cmd_readdisks(int argc, char **argv, struct global_opts *g)
{
	static const struct command_doc doc = {
		"readdisks", "readdisks [options]",
		"Reads every whole disk in the system with O_DIRECT (1000 MiB each by default) and\n"
		"shows each as a percentage of the median, with a verdict against its identical\n"
		"siblings. Partitions, detached loop devices, uninitialised zram and empty drives\n"
		"are skipped and listed with the reason.",
		readdisks_opts,
	};
	struct readdisks_settings set = { .batch = { .regression_pct = DEFAULT_REGRESSION_PCT } };
	readtest_opts_default(&set.batch.opts);
	int first = opts_parse_command(&doc, argc, argv, g, handle_readdisks_option, &set);
	if (first < 0)
		return opts_command_status(first);
	struct read_batch b = set.batch;
	const char *const *globs = set.globs;
	size_t nglobs = set.nglobs;
	bool parallel = set.parallel, both = set.both;
	if (first < argc)
		return opts_usage_error("readdisks", "unexpected operand '%s' (use readdisk DEVICE for one disk)",
					argv[first]);

	struct run_ctx rc;
	if (run_ctx_begin(&rc, "readdisks", argc, argv, g))
		return 1;
	struct disk_list list;
	int r = disk_enumerate(SYSFS_ROOT, DEV_ROOT, &list);
	if (r < 0) {
		log_msg(LOG_ERR, "cannot list disks in %s/block: %s", SYSFS_ROOT, strerror(-r));
		return 1;
	}
	b.parallel = parallel;
	b.reads = xcalloc(list.count, sizeof(*b.reads));
	for (size_t i = 0; i < list.count; i++) {
		if (!matches(&list.disks[i], globs, nglobs))
			continue;
		struct disk_read *d = &b.reads[b.count++];
		d->info = list.disks[i];
		if (d->info.skip_reason) {
			d->status = READTEST_SKIPPED;
			snprintf(d->reason, sizeof(d->reason), "%s", d->info.skip_reason);
		}
	}
	disk_list_free(&list);
	if (b.group_by == READ_GROUP_VDEV)
		read_batch_assign_pools(&b);

	size_t errors = read_batch_execute(&b);
	size_t ok = read_batch_count(&b, READTEST_OK);
	struct shared_paths shared = { 0 };
	if (both && ok > 1 && !run_ctx_interrupted_status())
		read_batch_parallel_pass(&b, &shared);
	if (ok == 0)
		log_msg(LOG_ERR, "no disk could be read%s", b.count ? "; see the reasons above"
			: nglobs ? ": no disk matches --match" : ": no disks found");
	int status = read_batch_finish(&rc, &b, errors, ok, both ? &shared : NULL, NULL, NULL);
	shared_paths_release(&shared);
	read_batch_release(&b);
	return status;
}
