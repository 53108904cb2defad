/* cmd/matrix.h: what the matrix command's files share: the suite, the
 * targets, the results grid, and the two halves that are not the command
 * itself (cmd_matrix.c: options, suite, output):
 *   matrix_targets.c  directories, devices, temporary ZFS datasets and image
 *                     files, and their removal;
 *   matrix_run.c      running one test on one target (fio, built-in engine,
 *                     dbench, qemu-img bench).
 */
#ifndef IOTRIAGE_CMD_MATRIX_H
#define IOTRIAGE_CMD_MATRIX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pool/scratch.h"
#include "pool/target.h"

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

enum mx_target_kind { MX_DIR, MX_DEVICE, MX_DATASET, MX_IMAGE };

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
};

struct mx_result {
	char status[16];        /* ok, failed, skipped, interrupted */
	char reason[512];
	enum mx_tool tool;
	bool direct;
	uint64_t bytes;
	double seconds, bw, iops, lat_p99_ns, lat_max_ns;
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
	struct pool_target pool_target;
	struct scratch images_area; /* --images: the tagged directory the image files go in */
	bool images_area_made;
	int stale_removed;
};

/* ---- matrix_targets.c ---- */

/* The --target paths, in order (a directory gets a tagged scratch
 * subdirectory). Returns 0 or -errno after printing why. */
int mx_add_path_targets(struct matrix *m, const char *run_id);
/* A temporary dataset of m->pool with recordsize RS and compression COMP,
 * added as target T (marked failed, with the reason, when it cannot be made). */
void mx_create_dataset(struct matrix *m, struct mx_target *t, const char *run_id, const char *rs, const char *comp);
/* The raw and qcow2 image targets in m->images_dir. Returns 0 or -errno. */
int mx_add_image_targets(struct matrix *m, const char *run_id);
/* Removes every dataset, directory and image file the targets made. */
void mx_destroy_targets(struct matrix *m);

/* ---- matrix_run.c ---- */

/* Runs test X on target T into R (fio when USE_FIO, else the built-in
 * engine; dbench and image tests by their own tools) and logs the figure. */
void mx_run_one(const struct matrix *m, const struct mx_target *t, const struct mx_test *x, bool use_fio,
		struct mx_result *r);
const char *mx_tool_name(enum mx_tool t);
/* Marks R with STATUS ("skipped", "failed", "interrupted") and a reason
 * made of FMT with one string ARG. */
void mx_result_fail(struct mx_result *r, const char *status, const char *fmt, const char *arg);

#endif
