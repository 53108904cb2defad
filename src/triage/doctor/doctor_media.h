/* triage/doctor/doctor_media.h: what doctor's media step names, and on which kind
 * of evidence. After the read batch is judged (triage/media/read_verdict.h, its
 * links, groups and health), each disk or group that stands out is named
 * with every kind of evidence against it:
 *   - throughput: its read rate out of line below its peers' or its baseline
 *   - tail latency: its p99 completion latency out of line above its peers'
 *     on every read (a slow tail), whatever its rate
 *   - link rate: a link trained below what both its ends support, or the
 *     link a slow disk reads at (its ceiling) (triage/media/read_link.h)
 *   - health: the drive's own report of a failure (triage/media/read_health.h)
 *   - read error: the read failed part way or the disk did not answer
 *   - group: a group (a pool's vdev, a controller, an enclosure) whose
 *     median is out of line below the other groups' (triage/media/read_group.h)
 * A disk flagged by its reads comes first (in the batch's order), then a
 * slow group, then a disk named only for its link, then one named only for
 * its health: the first is doctor's subject. Pure. */
#ifndef IOTRIAGE_TRIAGE_DOCTOR_MEDIA_H
#define IOTRIAGE_TRIAGE_DOCTOR_MEDIA_H

#include <stdbool.h>
#include <stddef.h>

#include "media/disk_verdict.h"
#include "output/json.h"
#include "triage/media/read_batch.h"
#include "triage/media/read_group.h"

enum media_evidence {
	MEDIA_BY_THROUGHPUT = 1u << 0,
	MEDIA_BY_TAIL = 1u << 1,
	MEDIA_BY_LINK = 1u << 2,
	MEDIA_BY_HEALTH = 1u << 3,
	MEDIA_BY_READ_ERROR = 1u << 4,
	MEDIA_BY_GROUP = 1u << 5,
};
#define MEDIA_EVIDENCE_KINDS 6

struct media_named {
	bool is_group;
	char subject[200];  /* the disk's path, or the group's name */
	size_t index;       /* its entry in the batch, or its group's index */
	unsigned by;        /* MEDIA_BY_* */
	char evidence[VERDICT_SENTENCE_LEN]; /* what was found, in words */
};

struct media_findings {
	struct media_named *named;
	size_t count;
};

/* The kinds of evidence against the disk D of a judged batch (0: none). */
unsigned doctor_media_disk_evidence(const struct disk_read *d);
/* Every disk of B and every group of GROUPS (built from B; NULL or
 * ungrouped: no group) that stands out, in the order above. Release with
 * media_findings_release. */
void doctor_media_judge(const struct read_batch *b, const struct read_groups *groups, struct media_findings *ret);
void media_findings_release(struct media_findings *f);

/* The word of one kind: "throughput", "tail latency", "link rate",
 * "health", "read error", "group"; NULL for anything else. */
const char *media_evidence_word(unsigned bit);
/* The words of every kind in BY, ", " between them ("" for none). */
void media_evidence_words(unsigned by, char *buf, size_t len);
/* The array KEY: each named disk or group with "subject", "kind" ("disk" or
 * "group"), "by" (the words) and "evidence". */
void media_findings_json(struct json *j, const char *key, const struct media_findings *f);

#endif
