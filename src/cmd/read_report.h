/* cmd/read_report.h: the end of a read batch's run, shared by readdisk,
 * readdisks, readpooldisks, demo, doctor and runall: judge, print
 * (render/read.h), document, exit status; and the run's database rows. */
#ifndef IOTRIAGE_CMD_READ_REPORT_H
#define IOTRIAGE_CMD_READ_REPORT_H

#include <stddef.h>

#include "cmd/runctx.h"
#include "render/read.h"
#include "triage/media/read_shared.h"

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
