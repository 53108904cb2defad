/* poolbench/poolbench.h: step 4 of the method, the pool as an application
 * sees it. benchpool runs up to five engines in temporary areas of a pool
 * (pool/scratch.h): fio, elbencho, dd and iozone when installed, and the
 * built-in engine, which always is. Each engine fills a pb_outcome with
 * figures (bytes, seconds, rate, IOPS) that say whether a cache could have
 * served them, and the engine's own output, kept whole.
 *
 * Library code: never prints (the log lines are triage/benchpool's), returns -errno.
 */
#ifndef IOTRIAGE_POOLBENCH_POOLBENCH_H
#define IOTRIAGE_POOLBENCH_POOLBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/jsonread.h"
#include "basic/progress.h"
#include "basic/strbuf.h"
#include "bench/histogram.h"
#include "bench/pattern.h"

enum pb_test { PB_FIO, PB_ELBENCHO, PB_DD, PB_IOZONE, PB_BUILTIN, PB_NTESTS };

const char *pb_test_name(enum pb_test t);
/* "all" or a comma-separated list of test names into a bit mask (1 << test).
 * Returns 0, or -EINVAL with the offending name in ERR. */
int pb_tests_parse(const char *list, unsigned *ret_mask, char *err, size_t len);

/* What served a read: "pool" when no cache could have (O_DIRECT or caches
 * dropped, and no ARC data caching), "cache" when one could have. */
#define PB_CACHE_POOL "pool"
#define PB_CACHE_CACHE "cache"

struct pb_figure {
	char label[48];        /* "throughput read", "random write", "write (zeros)", ... */
	bool is_read;
	uint64_t bytes;
	double seconds;
	double bw_bytes_per_s;
	double iops;           /* 0 when the engine does not report it */
	const char *cache;     /* reads: PB_CACHE_POOL or PB_CACHE_CACHE; writes: NULL */
	const char *pattern;   /* the data written: "random" (incompressible) or "zeros" */
	double first_done_seconds, last_done_seconds; /* several threads: when the first and last finished; 0 if unknown */
	struct hist_summary lat; /* completion latency (built-in engine, fio); lat.count 0 when unknown */
	struct hist_summary slat;/* submission latency where the engine separates it; slat.count 0 otherwise */
};

#define PB_MAX_FIGURES 8

enum pb_state { PB_RAN, PB_SKIPPED, PB_FAILED, PB_INTERRUPTED };

struct pb_outcome {
	enum pb_test test;
	enum pb_state state;
	char reason[512];      /* skipped/failed: why */
	struct pb_figure figures[PB_MAX_FIGURES];
	size_t nfigures;
	struct strbuf raw;     /* the engine's full output, every pass */
	struct jv *fio_docs[2];/* fio: the parsed JSON of the throughput and random passes */
};

struct pb_context {
	const char *throughput_dir;  /* large-record area: sequential passes */
	const char *random_dir;      /* small-record area: random passes; NULL when none */
	uint64_t size;               /* bytes per test file */
	unsigned runtime_s;          /* the cap on each fio and built-in pass */
	enum data_pattern pattern;   /* what writes write (incompressible by default) */
	bool direct_ok;              /* the file system takes O_DIRECT */
	bool arc_data_cached;        /* ZFS with primarycache=all: the ARC can serve reads */
	bool compression_on;         /* the area compresses: dd also shows a zeros write */
	struct progress *progress;   /* pb_write_then_read: told its bytes written and read; NULL for none */
	const char *rbd_pool;        /* an RBD image instead of directories: fio's rbd engine only */
	const char *rbd_image;       /* the image's name in RBD_POOL; NULL for directories */
	const char *block_device;    /* a zvol's device: fio and the built-in engine write and read it
				      * directly (both passes over the whole device); NULL for directories */
	/* Told right before (BEGIN true) and after a random pass runs, so the
	 * caller can take the pool members' counters around it; NULL for none. */
	void (*random_mark)(void *arg, bool begin);
	void *random_mark_arg;
};

static inline void pb_random_mark(const struct pb_context *c, bool begin)
{
	if (c->random_mark)
		c->random_mark(c->random_mark_arg, begin);
}

/* An engine that needs a file system marks O skipped on an RBD image or a
 * block device (a zvol) and returns true. */
bool pb_skip_without_files(const struct pb_context *c, struct pb_outcome *o);

void pb_outcome_init(struct pb_outcome *o, enum pb_test t);
void pb_outcome_release(struct pb_outcome *o);
struct pb_figure *pb_add_figure(struct pb_outcome *o, const char *label, bool is_read);

/* The engines. Each fills O (state, figures, raw); a missing tool is
 * PB_SKIPPED with "not installed". */
void pb_run_fio(const struct pb_context *c, struct pb_outcome *o);
void pb_run_elbencho(const struct pb_context *c, struct pb_outcome *o);
void pb_run_dd(const struct pb_context *c, struct pb_outcome *o);
void pb_run_iozone(const struct pb_context *c, struct pb_outcome *o);
void pb_run_builtin(const struct pb_context *c, struct pb_outcome *o);

/* Sequential write of SIZE bytes of PATTERN into a new file in DIR
 * (1 MiB blocks, then fsync: the time includes getting it to stable
 * storage), then a sequential read of it after dropping it from the page
 * cache. Used by the built-in engine and by rwpool. FILE_NAME is created
 * and removed here. Returns 0 with two figures added to O. */
int pb_write_then_read(const struct pb_context *c, const char *dir, const char *file_name, struct pb_outcome *o);

/* Writes C's block device whole, once, with C's pattern, so that the tests'
 * reads hit written blocks (a fresh zvol's holes read as zeros without a
 * disk I/O). Interruptible. Returns 0 or -errno with the reason in ERR. */
int pb_fill_device(const struct pb_context *c, char *err, size_t len);

/* A read's label: PB_CACHE_POOL when the page cache was BYPASSED (O_DIRECT
 * or dropped) and the ARC keeps no file data, else PB_CACHE_CACHE. */
const char *pb_read_cache_label(const struct pb_context *c, bool bypassed);

/* Drops FD's pages and, as root, the whole page cache (so a FUSE file
 * system's cache goes too). Returns true when the page cache was dropped. */
bool pb_drop_caches(int fd);

/* Whether R (-errno) or TEXT (a tool's message) says the pool ran out of
 * space (ENOSPC, EDQUOT). */
bool pb_pool_full(int r, const char *text);
/* The reason of a failed test: "the pool is full: DETAIL" when it ran out of
 * space, DETAIL otherwise. */
void pb_failure_reason(int r, const char *detail, char *buf, size_t len);
/* Whether files in DIR can be opened with O_DIRECT. */
bool pb_direct_supported(const char *dir);

#endif
