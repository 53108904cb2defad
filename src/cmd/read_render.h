/* cmd/read_render.h: a read batch on the terminal and at the end of a run,
 * shared by readdisk, readdisks, readpooldisks, demo, doctor and runall:
 * the summary table, the per-group lines, the health of the flagged disks,
 * and read_batch_report (judge, print, document, exit status). */
#ifndef IOTRIAGE_CMD_READ_RENDER_H
#define IOTRIAGE_CMD_READ_RENDER_H

#include <stddef.h>
#include <stdio.h>

#include "cmd/runctx.h"
#include "triage/read_batch.h"
#include "triage/read_group.h"
#include "triage/read_shared.h"

/* One row per disk, fastest first: device, model, size, bytes read, time,
 * rate, share of the median, share of its solo rate together, verdict,
 * status with its reason. */
void read_batch_print_table(const struct read_batch *b, FILE *out);
/* One line per group: its name, then each member with its rate (and its
 * verdict when not ok), in the batch's order. */
void read_groups_print(const struct read_batch *b, const struct read_groups *groups, FILE *out);
/* "Health of the flagged disks:" and one line per checked disk; nothing if
 * none was checked. */
void read_health_print(const struct read_batch *b, FILE *out);
/* The table, the groups (when grouped) and the health lines. */
void read_batch_present(const struct read_batch *b, FILE *out);

/* read_batch_store for run_ctx_finish: ARG is the struct read_batch. */
int read_batch_store_run(struct store *s, const struct run_ctx *rc, void *arg);

typedef void (*read_batch_json_fn)(struct json *j, void *arg);
/* Judges the batch (read_batch_conclude), prints it (unless --json) and
 * writes its members (plus SHARED and whatever EXTRA adds) into DOC, the
 * document of run RC, whose head is written; the run's database rows are
 * read_batch_store_run's. Returns the exit status: 1 when a read failed or
 * none was ok, 128 + signal after an interrupt. */
int read_batch_report(struct run_ctx *rc, struct json *doc, struct read_batch *b, size_t errors, size_t ok,
		      const struct shared_paths *shared, read_batch_json_fn extra, void *extra_arg);

#endif
