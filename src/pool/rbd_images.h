/* pool/rbd_images.h: tagged temporary RBD images, the block-test area of a
 * Ceph pool. An image is named "iotriage-<run id>-<suffix>" and carries its
 * owner tag (pool/scratch.h's "<run id>:<boot id>:<pid>:<start>") as the
 * image metadata key org.iotriage:owner, so a later run removes an image
 * whose owner is gone, and never one without the tag, whatever its name.
 * rbd runs by argv through pool/ceph (time limits). Returns -errno with
 * rbd's message in ERR. */
#ifndef IOTRIAGE_POOL_RBD_IMAGES_H
#define IOTRIAGE_POOL_RBD_IMAGES_H

#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"
#include "pool/scratch.h"

#define RBD_OWNER_KEY SCRATCH_OWNER_PROPERTY

/* Creates POOL/iotriage-RUN_ID-SUFFIX of BYTES (rounded up to whole MiB)
 * and tags it; an image that cannot be tagged is removed again. */
int rbd_image_create(const char *pool, const char *run_id, const char *suffix, uint64_t bytes, struct scratch *ret,
		     struct strbuf *err);
/* Removes S (rbd rm), retried for a while when a client's watch on it has
 * not yet expired (a killed fio's). */
int rbd_image_remove(const struct scratch *s, struct strbuf *err);
/* Images in POOL with the prefix and a tag whose owner is gone: up to MAX
 * into RET. Returns how many, or -errno. */
int rbd_images_find_stale(const char *pool, struct scratch *ret, size_t max);

#endif
