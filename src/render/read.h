/* render/read.h: a read batch on the terminal, shared by readdisk,
 * readdisks, readpooldisks, demo, doctor and runall: the summary table, the
 * per-group lines, the health of the flagged disks. */
#ifndef IOTRIAGE_RENDER_READ_H
#define IOTRIAGE_RENDER_READ_H

#include <stddef.h>
#include <stdio.h>

#include "triage/media/read_batch.h"
#include "triage/media/read_group.h"

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

#endif
