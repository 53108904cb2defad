/* triage/matrix/matrix_targets.h: matrix's targets: the --target paths (a directory's
 * file in a tagged scratch subdirectory), temporary ZFS datasets for every
 * recordsize x compression, zvols per volblocksize, raw and qcow2 image
 * files; and their removal.
 * Errors come back in WHY. */
#ifndef IOTRIAGE_TRIAGE_MATRIX_TARGETS_H
#define IOTRIAGE_TRIAGE_MATRIX_TARGETS_H

#include <stddef.h>

#include "triage/matrix/matrix.h"

/* The --target paths, in order (a directory gets a tagged scratch
 * subdirectory). Returns 0 or -errno with WHY. */
int mx_add_path_targets(struct matrix *m, const char *run_id, char *why, size_t len);
/* A temporary dataset of m->pool (in m->pool_parent) with recordsize RS
 * and compression COMP, added as target T (marked failed, with the reason,
 * when it cannot be made). */
void mx_create_dataset(struct matrix *m, struct mx_target *t, const char *run_id, const char *rs, const char *comp);
/* A temporary zvol of m->pool with volblocksize VBS, added as target T (marked
 * failed, with the reason, when it cannot be made: zfs-fuse has no zvols). */
void mx_create_zvol(struct matrix *m, struct mx_target *t, const char *run_id, const char *vbs);
/* The raw and qcow2 image targets in m->images_dir. Returns 0 or -errno
 * with WHY. */
int mx_add_image_targets(struct matrix *m, const char *run_id, char *why, size_t len);
/* Every target: the --target paths, the pool's datasets (recordsize x
 * compression), the image files. Returns 0, or -errno with WHY (maybe
 * empty); what was made stays for mx_destroy_targets(). */
int mx_set_up_targets(struct matrix *m, const char *run_id, char *why, size_t len);
/* Removes every dataset, directory and image file the targets made. */
void mx_destroy_targets(struct matrix *m);

#endif
