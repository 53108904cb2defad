/* disks: every disk the database knows, with its last sequential read
 * rate and when it was taken, and its baseline with the change since. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/commands.h"
#include "render/stored.h"
#include "cmd/runctx.h"
#include "output/table.h"

static const struct opt_def disks_opts[] = {
	OPT_END,
};

/* Lists the database's disks into the document and, without --json, a table. */
static int disks_main(struct command_call *call)
{
	struct run_ctx *rc = call->rc;
	struct disk_listing l = { .json = call->doc };
	static const char *const headers[] = { "DEVICE", "MODEL", "SERIAL", "SIZE", "LAST READ", "BASELINE",
					       "CHANGE", "IDENTITY" };
	table_init(&l.table, 8, headers, "lllrllrl");
	json_begin_array(l.json, "disks");
	int status = 0;
	if (access(rc->db_path, F_OK) == 0) {
		struct store *s = NULL;
		int r = store_open(rc->db_path, &s);
		if (r == 0)
			r = store_list_disks(s, disk_listing_add, &l);
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
