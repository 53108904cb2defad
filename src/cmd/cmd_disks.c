/* disks: every disk the database knows, with its last sequential read
 * rate and when it was taken, and its baseline with the change since. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/humanize.h"
#include "basic/strbuf.h"
#include "basic/timeutil.h"
#include "cmd/commands.h"
#include "cmd/runctx.h"
#include "output/table.h"

static const struct opt_def disks_opts[] = {
	OPT_END,
};

struct listing {
	struct table table;
	struct json *json;
	size_t rows;
};

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

static void add_row(const struct store_disk_row *row, void *arg)
{
	struct listing *l = arg;
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

/* Lists the database's disks into the document and, without --json, a table. */
static int disks_main(struct command_call *call)
{
	struct run_ctx *rc = call->rc;
	struct listing l = { .json = call->doc };
	static const char *const headers[] = { "DEVICE", "MODEL", "SERIAL", "SIZE", "LAST READ", "BASELINE",
					       "CHANGE", "IDENTITY" };
	table_init(&l.table, 8, headers, "lllrllrl");
	json_begin_array(l.json, "disks");
	int status = 0;
	if (access(rc->db_path, F_OK) == 0) {
		struct store *s = NULL;
		int r = store_open(rc->db_path, &s);
		if (r == 0)
			r = store_list_disks(s, add_row, &l);
		if (r < 0)
			status = cmd_error("disks", "cannot read '%s': %s", rc->db_path, s ? store_errmsg(s) : strerror(-r));
		store_close(s);
	}
	json_end_array(l.json);
	if (!rc->json) {
		if (l.rows)
			table_print(&l.table, stdout);
		else
			printf("No disks recorded yet. Run 'iotriage readdisks' (add --save-baseline to keep a baseline).\n");
	}
	table_release(&l.table);
	/* A listing records no results rows; the run itself is kept like any other. */
	return status;
}

static const struct command_doc disks_doc = {
	"disks", "disks",
	"Lists every disk in the results database: its last read rate and when, and its\n"
	"baseline (readdisks --save-baseline) with the change since. Reads nothing from\n"
	"the disks themselves.",
	disks_opts,
};

const struct command_frame disks_frame = {
	.doc = &disks_doc,
	.flags = CMD_RECORDS_RUN,
	.min_operands = 0,
	.max_operands = 0,
	.main = disks_main,
};
