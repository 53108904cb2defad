/* triage/media/read_verdict.h: the verdict on a read batch. Each ok disk is
 * compared with its peers (media/outlier.h: same model and size class when
 * there are enough of them, else every disk read) and with its baseline
 * from an earlier run; a disk out of line is re-read READ_CONFIRM_READS
 * times and called slow (or fast) only if every read agrees. Each entry
 * gets a verdict (media/disk_verdict.h): its kind, its reasons in words,
 * its peers and its reads. */
#ifndef IOTRIAGE_TRIAGE_READ_VERDICT_H
#define IOTRIAGE_TRIAGE_READ_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "triage/media/read_batch.h"

#define READ_CONFIRM_READS 2 /* re-reads of a flagged disk; slow only if all agree */

/* Compares each ok disk with its peers, re-reads a flagged disk to confirm
 * (logging each confirming read), and sets each entry's verdict; logs each
 * confirmed disk. Returns how many disks were confirmed
 * slow or fast (or slow against their baseline). */
size_t read_batch_judge(struct read_batch *b);
/* The closing log line, kept in B->conclusion: an outlier to replace, or "not a media anomaly";
 * nothing when fewer than OUTLIER_MIN_SET disks were read. */
void read_batch_log_conclusion(struct read_batch *b, size_t flagged);

/* The kind of verdict a disk's read status gives before any comparison:
 * ok (to be compared), skipped, or how the read failed (an I/O error, no
 * response, cut short, or never started). Pure. */
enum verdict_kind read_verdict_kind_of_status(const struct disk_read *d);
/* The p99 completion latency of D's read, in ns; 0 when it made fewer than
 * VERDICT_TAIL_MIN_IOS reads (its tail is not judged). */
double read_verdict_p99_ns(const struct disk_read *d);
/* The reasons of an ok disk whose first read ran at BW bytes/s (its kind
 * and reads already set): its share of the peers' median and how many reads
 * agreed, then its share of its baseline, then its p99 latency against its
 * peers' when that was out of line. Pure. */
void read_verdict_describe(struct disk_read *d, double bw);

/* Whether a disk's identity is stable enough to key a baseline (WWN,
 * serial, by-id path or loop backing file; never the kernel name). */
bool disk_has_stable_identity(const struct disk_info *info);
/* Looks up each disk's baseline in the database at DB_PATH (a missing
 * database means no baselines). Returns 0 or -errno after logging. */
int read_batch_load_baselines(struct read_batch *b, const char *db_path);

/* Baselines, the verdict (with its closing log line) and the health
 * cross-check (triage/read_health), in that order; nothing after an
 * interrupt. */
void read_batch_conclude(struct read_batch *b, const char *db_path);

#endif
