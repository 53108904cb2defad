/* render/stored.c: the database's contents on the terminal and in
 * documents: history's runs, show's run, disks' disks (see stored.h). */
#include "render/stored.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "basic/humanize.h"
#include "basic/timeutil.h"
#include "render/hosts.h"

void run_listing_add(const struct store_run_row *row, void *arg)
{
	struct run_listing *l = arg;
	char started[32], exit_text[16], results[24];
	time_format_iso8601((time_t)row->started_at, started, sizeof(started));
	snprintf(exit_text, sizeof(exit_text), "%d", row->exit_status);
	snprintf(results, sizeof(results), "%lld", (long long)row->results);
	/* A fleet host's run: the host, and the fleet run that collected it. */
	char host[160];
	if (row->host)
		snprintf(host, sizeof(host), "%s (fleet %.8s)", row->host, row->fleet_run_id ? row->fleet_run_id : "?");
	else
		snprintf(host, sizeof(host), "local");
	const char *cells[] = { row->id, row->command, host, started, exit_text, results, row->argv };
	table_add_row(&l->table, cells);
	l->rows++;
	json_begin_object(&l->json, NULL);
	json_string(&l->json, "run_id", row->id);
	json_string(&l->json, "command", row->command);
	json_string(&l->json, "host", row->host);
	json_string(&l->json, "fleet_run_id", row->fleet_run_id);
	json_string(&l->json, "started_at", started);
	json_int(&l->json, "started_at_unix", row->started_at);
	json_int(&l->json, "finished_at_unix", row->finished_at);
	json_int(&l->json, "exit_status", row->exit_status);
	json_int(&l->json, "results", row->results);
	json_string(&l->json, "argv", row->argv);
	json_end_object(&l->json);
}

/* The run's figures as a table; a fleet run's hosts after them. */
void run_doc_print(const struct run_doc *d)
{
	printf("run %s: %s on %s, started %s, exit status %d\n  %s\n", d->id, d->command, d->host, d->started_at,
	       d->exit_status, d->argv);
	if (d->n) {
		struct table t;
		static const char *const headers[] = { "TEST", "METRIC", "TARGET", "VALUE", "NOISE (SD)", "STATUS" };
		table_init(&t, 6, headers, "lllrrl");
		for (size_t i = 0; i < d->n; i++) {
			const struct measure *m = &d->m[i];
			char v[48], sd[48] = "-";
			measure_format(m->unit, m->value, v, sizeof(v));
			if (isfinite(m->noise_sd))
				measure_format(m->unit, m->noise_sd, sd, sizeof(sd));
			const char *cells[] = { m->test, m->metric, m->target, v, sd, m->status };
			table_add_row(&t, cells);
		}
		table_print(&t, stdout);
		table_release(&t);
	} else if (!run_doc_is_fleet(d)) {
		printf("  (no figures to show for a %s run; --json prints its whole document)\n", d->command);
	}
	struct host_rows rows;
	if (run_doc_is_fleet(d) && host_rows_load(d, &rows) == 0) {
		hosts_print(&rows, stdout);
		printf("(one host's document: iotriage show %.8s@HOST)\n", d->id);
		host_rows_release(&rows);
	}
}

static void format_rate_at(double bw, int64_t at, char *buf, size_t len)
{
	if (bw <= 0) {
		snprintf(buf, len, "never");
		return;
	}
	char rate[32], when[32];
	human_rate(bw, rate, sizeof(rate));
	time_format_iso8601((time_t)at, when, sizeof(when));
	snprintf(buf, len, "%s (%.10s)", rate, when);
}

void disk_listing_add(const struct store_disk_row *row, void *arg)
{
	struct disk_listing *l = arg;
	char size[32], last[64], base[64] = "none", change[32] = "";
	human_size_exact(row->size_bytes, size, sizeof(size));
	format_rate_at(row->last_bw_bytes_per_s, row->last_at, last, sizeof(last));
	if (row->has_baseline) {
		format_rate_at(row->baseline_bw_bytes_per_s, row->baseline_at, base, sizeof(base));
		if (row->last_bw_bytes_per_s > 0)
			snprintf(change, sizeof(change), "%+.0f%%",
				 100.0 * (row->last_bw_bytes_per_s / row->baseline_bw_bytes_per_s - 1));
	}
	const char *cells[] = { row->kname, row->model, row->serial, size, last, base, change, row->identity_key };
	table_add_row(&l->table, cells);
	l->rows++;

	struct json *j = l->json;
	json_begin_object(j, NULL);
	json_string(j, "identity_key", row->identity_key);
	json_string(j, "kname", row->kname);
	json_string(j, "model", row->model);
	json_string(j, "serial", row->serial);
	json_uint(j, "size_bytes", row->size_bytes);
	json_double(j, "last_bw_bytes_per_s", row->last_bw_bytes_per_s);
	json_int(j, "last_read_at", row->last_at);
	if (row->has_baseline) {
		json_double(j, "baseline_bw_bytes_per_s", row->baseline_bw_bytes_per_s);
		json_int(j, "baseline_saved_at", row->baseline_at);
	}
	if (row->has_iops_baseline) {
		json_double(j, "baseline_iops", row->iops_baseline.iops);
		json_int(j, "baseline_iops_saved_at", row->iops_baseline.saved_at);
		json_uint(j, "baseline_iops_bs_bytes", row->iops_baseline.bs_bytes);
		json_uint(j, "baseline_iops_iodepth", row->iops_baseline.iodepth);
	}
	json_end_object(j);
}
