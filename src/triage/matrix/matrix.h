/* triage/matrix/matrix.h: the matrix: one suite of tests over several targets, in
 * a fixed order, then compared. The suite, the targets, the results grid
 * and what works on them:
 *   triage/matrix/matrix_suite.c  the suite from a list of test names (or the
 *                          default), which tools are installed;
 *   triage/matrix/matrix_run.c    running one test on one target (fio, built-in
 *                          engine, dbench, qemu-img bench), and the whole
 *                          grid target by target;
 *   triage/matrix/matrix_doc.c    the results as JSON members and database rows;
 *   cmd/matrix_targets.c   directories, devices, temporary ZFS datasets, zvols and
 *                          image files, and their removal (in cmd/ while the
 *                          pool area helpers it calls are; see there).
 * Nothing here prints: steps and figures are logged. */
#ifndef IOTRIAGE_TRIAGE_MATRIX_H
#define IOTRIAGE_TRIAGE_MATRIX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/histogram.h"
#include "basic/progress.h"
#include "output/json.h"
#include "pool/scratch.h"
#include "store/store.h"

#define MX_MAX_TARGETS 16
#define MX_MAX_TESTS 48
#define MX_MAX_LIST 8

enum mx_tool { MX_FIO, MX_BUILTIN, MX_DBENCH, MX_QEMU_IMG };

struct mx_test {
	char name[32];          /* "seqread-64k", "dbench-6" */
	bool dbench;
	bool random, write;
	uint32_t bs;
	unsigned clients;
};

enum mx_target_kind { MX_DIR, MX_DEVICE, MX_DATASET, MX_IMAGE, MX_ZVOL /* a temporary zvol: a block device of ours */ };

struct mx_target {
	enum mx_target_kind kind;
	char label[128];
	char path[PATH_MAX];    /* the directory or device */
	char file[PATH_MAX + 64]; /* the test file (directories and datasets) */
	char recordsize[16], compression_asked[16], compression[32];
	char format[8];         /* images: "raw" or "qcow2" */
	char note[256];
	bool created;           /* a dataset or directory we made (in area) */
	struct scratch area;
	bool direct;
	bool failed;
	char reason[512];
	/* --pool datasets: the pool's members sampled while this target's tests
	 * ran, and the findings of its settings (recordsize not judged: the
	 * matrix varies it on purpose) and of its members' loads. */
	struct mx_member_load {
		char name[32];
		double busy, peak_busy, wait_ms;
		uint64_t read_bytes, write_bytes;
	} members[16];
	size_t nmembers;
	char pool_findings[1024];   /* "code: text (evidence)" joined with "; " */
};

struct mx_result {
	char status[16];        /* ok, failed, skipped, interrupted */
	char reason[512];
	enum mx_tool tool;
	bool direct;
	uint64_t bytes;
	double seconds, bw, iops, lat_p99_ns, lat_max_ns;
	bool has_lat;           /* LAT holds the completion latency (built-in engine, fio) */
	struct hist_summary lat;
	bool has_slat;          /* SLAT holds the submission latency (io_uring, libaio; fio's where it gives one) */
	struct hist_summary slat;
	double noise_sd, noise_min, noise_max;
	unsigned noise_n;
	const char *noise_basis;
};

struct matrix {
	struct mx_target targets[MX_MAX_TARGETS];
	size_t ntargets;
	const char *paths[MX_MAX_TARGETS];
	size_t npaths;
	const char *pool;
	const char *images_dir;
	bool zvols;                 /* --zvol: a temporary zvol per --recordsize (its volblocksize) */
	char recordsizes[MX_MAX_LIST][16], compressions[MX_MAX_LIST][16];
	size_t nrs, ncomp;
	struct mx_test tests[MX_MAX_TESTS];
	size_t ntests;
	const char *tests_arg;
	unsigned clients[MX_MAX_LIST];
	size_t nclients;
	uint64_t size;
	uint64_t runtime_ns;
	unsigned iodepth;
	const char *engine;
	struct mx_result (*results)[MX_MAX_TESTS];
	char pool_parent[PATH_MAX]; /* --pool: the root dataset the datasets are made in */
	struct scratch images_area; /* --images: the tagged directory the image files go in */
	bool images_area_made;
	int stale_removed;
	struct progress *progress;  /* told each cell of the grid as it runs; NULL for none */
};

/* ---- matrix_suite.c ---- */

/* Adds the tests TESTS names (comma-separated: seqread-8k ... randwrite-1m,
 * dbench-N, "fio" for all twelve, "dbench" for every m->clients count), in
 * order, each once; NULL or "all" is the default suite (fio's twelve, and
 * dbench where installed, else logged as left out). Returns 0, -EINVAL for
 * an empty or overlong item, or -ENOENT with the unknown name in BAD. */
int mx_suite_build(struct matrix *m, const char *tests, char *bad, size_t len);
/* Whether `fio --version` runs. */
bool mx_fio_installed(void);

/* ---- matrix_run.c ---- */

/* Runs test X on target T into R (fio when USE_FIO, else the built-in
 * engine; dbench and image tests by their own tools) and logs the figure. */
void mx_run_one(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, bool use_fio,
		struct mx_result *r);
const char *mx_tool_name(enum mx_tool t);
/* Sets each target's direct flag (devices always; a directory or dataset
 * when its file system takes O_DIRECT, else a note and a warning). */
void mx_check_direct(struct matrix *m);
/* Runs every test on every target, target by target, into m->results
 * (allocated by the caller: MX_MAX_TARGETS rows); after a signal the rest
 * are marked interrupted. *RET_RAN counts the tests not skipped, *RET_OK
 * those that passed. */
void mx_run_all(struct matrix *m, bool use_fio, size_t *ret_ok, size_t *ret_ran);
/* Marks R with STATUS ("skipped", "failed", "interrupted") and a reason
 * made of FMT with one string ARG. */
void mx_result_fail(struct mx_result *r, const char *status, const char *fmt, const char *arg);

/* ---- matrix_doc.c ---- */

/* The run's figures as members of the open JSON object J: operation, pool,
 * engine, sizes, then the arrays targets, tests and results. */
void mx_write_json(struct json *j, const struct matrix *m, bool use_fio);
/* One database row per target and test, under RUN_ID. Returns 0 or the store's -errno. */
int mx_store_rows(struct store *s, const char *run_id, const struct matrix *m);

#endif
