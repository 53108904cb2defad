/* triage/results/bundle.h: the support bundle, one .tar.gz for the vendor.
 *
 * bundle_make() gathers, in a staging directory next to the output, the
 * parts a support engineer asks for: the log's tail, the last N runs'
 * documents and the database's runs as JSON, every pool's status (zpool
 * status -DvP, btrfs filesystem show and usage), smartctl -x of every
 * disk, the disk inventory with identities, netcheck's findings, the
 * kernel log's tail and the system inventory, plus a manifest. Programs
 * run through basic/spawn, whose environment is PATH and LC_ALL=C only:
 * no environment variable, key or password is copied in. The archive is
 * written by tar under a temporary name and renamed onto the output, so a
 * reader never sees half a bundle; the staging directory is removed
 * whatever happens.
 */
#ifndef IOTRIAGE_TRIAGE_BUNDLE_H
#define IOTRIAGE_TRIAGE_BUNDLE_H

#include <stddef.h>
#include <stdint.h>

struct bundle_opts {
	const char *output;   /* the .tar.gz to write */
	const char *log_path; /* the log file; may not exist */
	const char *db_path;  /* the results database; may not exist */
	unsigned runs;        /* how many of the newest runs' documents */
	uint64_t window_ns;   /* netcheck's traffic window */
};

/* One file of the bundle. */
struct bundle_part {
	char name[160];       /* its path inside the archive's top directory */
	uint64_t bytes;
	char note[256];       /* "" or why it is short: "zpool not installed" */
};

struct bundle_result {
	char top[128];        /* the archive's top directory */
	struct bundle_part *parts;
	size_t nparts;
};

/* The log and kernel log are cut to their last BUNDLE_TAIL_BYTES. */
#define BUNDLE_TAIL_BYTES (4u << 20)

/* Writes the bundle to O->output. Returns 0 with the manifest in *RET, or
 * -errno with WHY ("cannot create a staging directory in '/x': ...") and
 * neither the output nor any temporary left behind. */
int bundle_make(const struct bundle_opts *o, struct bundle_result *ret, char *why, size_t len);
void bundle_result_release(struct bundle_result *r);

struct json;
/* The manifest as a document: { command, output, top, parts: [{ name, bytes, note }] }. */
void bundle_json(const struct bundle_result *r, const char *output, struct json *j);

/* Pure: the last MAX bytes of DATA[0..LEN), started at a line's beginning
 * when one is within it. Returns the offset to start from. */
size_t bundle_tail_offset(const char *data, size_t len, size_t max);

#endif
