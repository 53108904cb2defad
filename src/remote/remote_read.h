/* remote/remote_read.h: one disk's read as another host's iotriage tells
 * it: the "devices" entry of its `readdisk DEVICE --json` document (the
 * fields docs/results.md lists), so a read made over ssh joins a local
 * read batch (triage/media/read_remote.h). Pure: unit-tested on a
 * captured document (tests/data/readdisk_remote_captured.json), fuzzed
 * (tests/fuzz/fuzz_remote_read.c). */
#ifndef IOTRIAGE_REMOTE_REMOTE_READ_H
#define IOTRIAGE_REMOTE_REMOTE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/histogram.h"

struct remote_read {
	char status[16];        /* "ok", "error", "skipped" */
	char reason[320];
	char kname[64], vendor[64], model[128], serial[128], transport[16];
	uint64_t size_bytes;
	bool rotational;
	unsigned logical_block_size, physical_block_size;
	uint64_t requested, bytes;
	double seconds;
	char engine[16];
	unsigned iodepth;
	bool has_lat;           /* lat_ns was there with a count */
	struct hist_summary lat;
	char failure[24];       /* "io_error", "no_response", "reader_never_ran"; "" */
	uint64_t error_offset;
	unsigned timeout_s;
};

/* The entry for PATH (or, when PATH is NULL or not listed, the only entry)
 * of DOCUMENT's "devices". Returns 0, or -EINVAL with WHY (not JSON, no
 * devices, no such device, or an ok entry without figures). */
int remote_read_parse(const char *document, const char *path, struct remote_read *ret, char *why, size_t len);

#endif
