/* triage/media/read_group.h: a read batch grouped by pool device group (vdev),
 * by controller (the PCI function and SCSI host on the sysfs path, or what
 * a virtual disk shares) or by SES enclosure where sysfs exposes one, with
 * each group's count of disks, of ok and slow ones, and its median rate. */
#ifndef IOTRIAGE_TRIAGE_READ_GROUP_H
#define IOTRIAGE_TRIAGE_READ_GROUP_H

#include <stddef.h>

#include "media/outlier.h"
#include "output/json.h"
#include "triage/media/read_batch.h"

struct read_group {
	char name[200];
	size_t disks, ok, slow;
	double median_bw;
	/* Its median against the other groups' medians (media/outlier, the
	 * statistics of disks); OUTLIER_NO_PEERS when fewer than
	 * OUTLIER_MIN_SET groups read. */
	struct outlier_finding finding;
	char sentence[400]; /* a slow or fast group in words, "" otherwise */
};
/* member_of of a disk in no group. */
#define READ_GROUP_OUTSIDE ((size_t)-1)

struct read_groups {
	enum read_group_by by;
	struct read_group *groups;
	size_t count;
	size_t *member_of;       /* per batch entry: its group's index, READ_GROUP_OUTSIDE for a
				  * skipped disk in a controller or enclosure grouping */
};

/* "none", "vdev", "controller" or "enclosure". Returns 0 or -1. */
int read_group_parse(const char *arg, enum read_group_by *ret);
const char *read_group_by_name(enum read_group_by by);
/* The group a disk falls in: "tank/mirror-0", "pci 0000:00:1f.2 host0", ... */
void read_group_label(const struct disk_read *d, enum read_group_by by, char *buf, size_t len);
/* Fills each entry's pool and vdev from every pool on the system
 * (pool/lookup.h; a pool tool that fails is logged and left out). */
void read_batch_assign_pools(struct read_batch *b);
/* The groups of B by B->group_by (none when READ_GROUP_NONE), in the
 * batch's order. Release with read_groups_release. */
void read_groups_build(const struct read_batch *b, struct read_groups *ret);
/* The rule (pure; read_groups_build applies it): each group's median rate
 * against the other groups' of the same kind, with the statistics of
 * disks; a slow (or fast) group's sentence names it and says whether its
 * disks are slow one by one (each against its peers: all, or some of
 * them) or only together (none of them alone). */
void read_groups_judge(struct read_groups *g);
void read_groups_release(struct read_groups *g);
/* The document's "grouping" object; nothing when not grouped. */
void read_groups_json(const struct read_batch *b, const struct read_groups *groups, struct json *j);
/* The "groups" object of one device: pool, vdev, controller, enclosure. */
void read_group_device_json(const struct disk_read *d, struct json *j);

#endif
