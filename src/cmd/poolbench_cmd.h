/* cmd/poolbench_cmd.h: the command-level pieces benchpool and rwpool share. */
#ifndef IOTRIAGE_CMD_POOLBENCH_CMD_H
#define IOTRIAGE_CMD_POOLBENCH_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/bench_target.h"
#include "output/json.h"
#include "poolbench/poolbench.h"
#include "pool/scratch.h"

/* Removes areas under T that carry our tag and whose owner is gone,
 * logging each (TAG starts the log lines: "BENCHPOOL"). Returns how many. */
int pool_areas_remove_stale(const struct bench_target *t, const char *tag);
/* Creates "iotriage-<RUN_ID>-<SUFFIX>" under T: on ZFS with RECORDSIZE
 * (falling back to 128K where larger is refused) and primarycache=metadata,
 * so the ARC keeps no file data and reads come from the pool. Logs. */
int pool_area_create(const struct bench_target *t, const char *run_id, const char *suffix, const char *recordsize,
		     struct scratch *ret, const char *tag);
void pool_areas_destroy(struct scratch *areas, size_t n, const char *pool, const char *tag);
/* The compression on AREA as its file system reports it; "off" when none. */
void pool_area_compression(const struct bench_target *t, const struct scratch *area, char *buf, size_t len);
bool compression_is_on(const char *value);

/* A note when SIZE is under twice the cache that can hold it; the cache
 * size (ARC maximum, else RAM) in *RET_CACHE. */
void cache_note(const struct bench_target *t, uint64_t size, struct strbuf *note, uint64_t *ret_cache);
/* Whether `perf stat` works here, in a sentence. */
void perf_note(struct strbuf *note, bool *usable);

void pb_outcome_json(struct json *j, const struct pb_outcome *o, const char *compression);
void pb_outcomes_table(const struct pb_outcome *o, size_t n, const char *compression, FILE *out);

#endif
