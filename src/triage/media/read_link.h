/* triage/media/read_link.h: the links of a read batch's disks (disk/link.h).
 * Before the read pass, every disk on a physical transport has its links
 * read from sysfs; after the verdicts, each disk's links are judged:
 *   - a link trained below what both its ends support is a finding
 *     whatever the read rate (like a health failure): a reason against the
 *     disk, with its fix; when the disk is slow and reads at what that link
 *     carries, the reason names it as the cause
 *   - otherwise a link that carries no more than the disk read (its rate
 *     at least READ_LINK_CEILING_SHARE of it) is named as the disk's
 *     ceiling: a reason against a slow disk, a note beside any other.
 * The rule (read_link_judge) is pure. */
#ifndef IOTRIAGE_TRIAGE_READ_LINK_H
#define IOTRIAGE_TRIAGE_READ_LINK_H

#include <stdbool.h>
#include <stddef.h>

#include "disk/link.h"
#include "media/disk_verdict.h"
#include "media/readtest.h"
#include "output/json.h"

/* A disk reading at this share of what a link carries is at its ceiling
 * (the protocol's own overhead keeps a disk from the whole of it). */
#define READ_LINK_CEILING_SHARE 0.8

/* Reads the links of every disk of READS that is not skipped and is on a
 * physical transport (read_health_sweepable), under SYSFS_ROOT ("/sys"),
 * once; logs each degraded one. Returns how many disks have a link. */
size_t read_link_gather(const char *sysfs_root, struct disk_read *reads, size_t count);

/* The rule: KNAME's links L against its read RATE in bytes/s (0: not
 * read), SLOW when its verdict is slow; adds a REASON_LINK to V (at most
 * one). Returns true when it is a finding (a degraded link, or a slow disk
 * at its link's ceiling). */
bool read_link_judge(const char *kname, const struct disk_link *l, double rate, bool slow, struct disk_verdict *v);

/* smartctl as a second source for a SATA link (disk/smart.h's interface
 * speeds): the drive's maximum where its IDENTIFY data did not say, the
 * negotiated rate where sysfs did not. */
void read_link_add_smart(struct disk_link *l, const struct smart_health *h);

/* read_link_judge on each judged disk of READS (once each, logged);
 * returns how many have a degraded link. */
size_t read_link_note(struct disk_read *reads, size_t count);

/* A degraded link anywhere above D. */
bool read_link_degraded(const struct disk_read *d);
/* The LINK cell (disk_link_cell), "" when its links were not read. */
void read_link_cell(const struct disk_read *d, char *buf, size_t len);
/* The device's "link" object: every hop with its negotiated and both ends'
 * maximum rates, what it carries, degraded; the narrowest. Nothing when
 * its links were not read. */
void read_link_json(struct json *j, const struct disk_read *d);

#endif
