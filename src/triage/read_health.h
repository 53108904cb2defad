/* triage/read_health.h: the health cross-check of a read batch. Each disk
 * the read test judged slow (against its peers or its baseline), or whose
 * read failed part way through (an I/O error, not a refusal to start), is
 * asked for its SMART state (disk/smart.h, smartctl), so the finding and
 * the drive's own opinion of itself are shown side by side. */
#ifndef IOTRIAGE_TRIAGE_READ_HEALTH_H
#define IOTRIAGE_TRIAGE_READ_HEALTH_H

#include <stddef.h>

#include "output/json.h"
#include "triage/read_batch.h"

/* Queries smartctl for each disk that needs it, logging one "health:" line
 * per disk (a warning when the drive predicts its failure). Returns how
 * many were checked. */
size_t read_batch_check_health(struct read_batch *b);
/* The health of a checked disk in words: "SMART passed, 31 C", the reason
 * it could not be read, or that smartctl is missing. */
void read_health_describe(const struct disk_read *d, char *buf, size_t len);
/* The device's "health" object; nothing if it was not checked. */
void read_health_json(struct json *j, const struct disk_read *d);

#endif
