/* triage/media/read_pool.h: a read batch of exactly the members of one pool (a
 * ZFS pool by name or GUID, members from zpool status; or a btrfs file
 * system by label or UUID, members from btrfs filesystem show), named the
 * way the pool names them and with their device group (vdev). Used by
 * readpooldisks, runall and doctor. */
#ifndef IOTRIAGE_TRIAGE_READ_POOL_H
#define IOTRIAGE_TRIAGE_READ_POOL_H

#include "output/json.h"
#include "pool/zfs.h"
#include "triage/media/read_batch.h"

/* Finds pool ID (pool/lookup.h: logging an error listing the pools that
 * exist when there is none) and fills B with its members; logs how many
 * members and from which tool. B is allocated even when the pool is not
 * found (release it with read_batch_release). Returns 0 or -errno. */
int pool_read_batch_prepare(const char *id, struct read_batch *b, struct pool_layout *layout);
/* The document's "pool" object (name, fstype, members); ARG is the
 * struct pool_layout (the signature of a document callback). */
void pool_layout_json(struct json *j, void *arg);

#endif
