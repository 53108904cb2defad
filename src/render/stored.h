/* render/stored.h: what the database holds, rendered: history's listing
 * of runs, show's one run, the disks' listing. */
#ifndef IOTRIAGE_RENDER_STORED_H
#define IOTRIAGE_RENDER_STORED_H

#include <stddef.h>

#include "output/json.h"
#include "output/table.h"
#include "report/measure.h"
#include "store/store.h"

/* history: a table row and a JSON object per run (store_list_runs' callback;
 * ARG is the struct run_listing). */
struct run_listing {
	struct table table;
	struct json json;
	size_t rows;
};
void run_listing_add(const struct store_run_row *row, void *arg);

/* show: the run's line, its figures as a table (or why there are none)
 * and a fleet run's hosts. To stdout. */
void run_doc_print(const struct run_doc *d);

/* disks: a table row and a JSON object per disk (store_list_disks'
 * callback; ARG is the struct disk_listing). */
struct disk_listing {
	struct table table;
	struct json *json;
	size_t rows;
};
void disk_listing_add(const struct store_disk_row *row, void *arg);

#endif
