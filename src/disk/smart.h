/* disk/smart.h: a disk's SMART health from smartctl's JSON output
 * (smartmontools 7.x, `smartctl --json -H -A -i DEV`).
 *
 * smart_parse() is pure and tested on captured output; smart_query() runs
 * smartctl (argv, no shell) and parses what it printed. Three outcomes:
 *   - no SMART data: smartctl is missing, or the device has none (loop,
 *     zram, virtio and most virtual disks); REASON says which, in
 *     smartctl's own words where it gave any;
 *   - SMART passed, possibly with predictive-failure signs (reallocated or
 *     pending sectors, NVMe critical warnings, grown defects);
 *   - SMART failed: the drive itself predicts its failure.
 */
#ifndef IOTRIAGE_DISK_SMART_H
#define IOTRIAGE_DISK_SMART_H

#include <stdbool.h>
#include <stddef.h>

enum smart_state { SMART_UNAVAILABLE, SMART_PASSED, SMART_FAILED };

struct smart_health {
	enum smart_state state;
	char reason[256];        /* SMART_UNAVAILABLE: why */
	char device_type[16];    /* "sat", "nvme", "scsi"... from smartctl, "" if unknown */
	bool has_temperature;
	int temperature_c;
	bool has_critical_warning; /* NVMe: the health log's critical warning bits */
	unsigned critical_warning;
	bool has_media_errors;   /* NVMe media and data integrity errors; SCSI grown defects; ATA
				  * attributes 5, 187, 197 and 198 (raw values, summed) */
	unsigned long long media_errors;
	bool predictive_failure; /* a sign of coming failure even while SMART passes */
	char signs[256];         /* those signs, e.g. "attribute 5 Reallocated_Sector_Ct raw 8" */
	double sata_max_gbps;    /* SATA: the drive's fastest interface speed ("SATA Version is: ...,
				  * 6.0 Gb/s"), 0 when smartctl does not say */
	double sata_current_gbps; /* and the current one ("(current: 1.5 Gb/s)"), 0 likewise */
};

/* Reads smartctl's JSON (TEXT, LEN bytes). Returns 0, or -EINVAL when it
 * is not smartctl JSON (REASON then says so). */
int smart_parse(const char *text, size_t len, struct smart_health *ret);

/* Runs smartctl on DEV_PATH. Returns 0 with *RET filled in every case
 * where an answer exists (including "no SMART data"); -ENOENT when
 * smartctl is not installed; another -errno when it could not be run. */
int smart_query(const char *dev_path, struct smart_health *ret);
/* smart_query with smartctl stopped after TIMEOUT_MS (-ETIMEDOUT). */
int smart_query_within(const char *dev_path, int timeout_ms, struct smart_health *ret);

const char *smart_state_name(enum smart_state s);

#endif
