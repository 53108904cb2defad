/* triage/media/read_health.h: the health of a read batch (disk/smart.h,
 * smartctl). Before the read pass, every disk on a physical transport is
 * asked for its SMART state (the sweep: "check device health first"); after
 * it, each disk the read test judged slow (against its peers or its
 * baseline) or slow in its tail latency, or whose read failed part way
 * through (an I/O error, not a refusal to start), is asked if the sweep did
 * not. A disk with a health
 * failure is a finding even when it reads at full speed. */
#ifndef IOTRIAGE_TRIAGE_READ_HEALTH_H
#define IOTRIAGE_TRIAGE_READ_HEALTH_H

#include <stdbool.h>
#include <stddef.h>

#include "output/json.h"
#include "media/readtest.h"

/* smartctl's time per disk: in the sweep (a disk that does not answer in
 * this time is reported as such, not waited for), and for a flagged disk. */
#define READ_HEALTH_SWEEP_TIMEOUT_MS 5000
#define READ_HEALTH_FLAGGED_TIMEOUT_MS 30000
/* How many smartctl the sweep runs at once: a shelf of disks is asked in
 * the time of a few, and a disk that hangs holds up only its own worker. */
#define READ_HEALTH_SWEEP_WORKERS 8

/* Whether the health sweep asks smartctl about this disk: a physical
 * transport (nvme, sata, scsi, sas, usb); loop, zram, RAM, md, dm and
 * virtio-blk disks have no SMART data of their own. */
bool read_health_sweepable(const struct disk_info *info);
/* The sweep before the read pass: every disk of READS not skipped and
 * sweepable is asked for its SMART state, each within
 * READ_HEALTH_SWEEP_TIMEOUT_MS, READ_HEALTH_SWEEP_WORKERS at a time, in a child process that
 * is given up at the deadline or on an interrupt (smartctl on a disk that no
 * longer answers stays in the kernel); one "health:" line per disk and one line
 * with the count and the time taken. Returns how many were asked. */
size_t read_health_sweep(struct disk_read *reads, size_t count);
/* After the verdicts: each disk that needs it and was not swept (slow, a
 * slow tail, or an I/O error part way) is asked too, then read_health_note on every
 * disk. Returns how many were checked here. */
size_t read_health_check_flagged(struct disk_read *reads, size_t count);
/* A health failure: SMART failed, or predictive-failure signs (an NVMe
 * critical warning, media errors, reallocated or pending sectors, grown
 * defects). A finding whatever the disk's read rate. */
bool read_health_failing(const struct disk_read *d);
/* Appends "; health finding: ..." to a failing disk's sentence (once) and
 * logs it. */
void read_health_note(struct disk_read *d);
/* The health of a checked disk in words: "SMART passed, 31 C", the reason
 * it could not be read, or that smartctl is missing. */
void read_health_describe(const struct disk_read *d, char *buf, size_t len);
/* The health in a table cell: "FAILED", "warning" (predictive-failure
 * signs), "passed 31 C", "no SMART", "no smartctl", or "" when not checked. */
void read_health_word(const struct disk_read *d, char *buf, size_t len);
/* The device's "health" object; nothing if it was not checked. */
void read_health_json(struct json *j, const struct disk_read *d);

#endif
