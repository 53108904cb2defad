/* SMART health from smartctl --json: two captures from this machine (a
 * virtio and a loop disk: no SMART data), four composed in smartctl
 * 7.3's format for what no disk here can produce (a reallocating ATA
 * drive, an ATA drive with all four damaged-media counters, a failing NVMe
 * drive, a healthy SAS drive), and five captured in
 * the hardware lab (tests/data/hwlab: smartctl 7.3 -a on qemu's NVMe, one
 * with smart_critical_warning=4, a multipath namespace, a scsi-hd and an
 * AHCI ide-hd, on their real kernel drivers). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "disk/smart.h"
#include "tap.h"
#include "test_data.h"

static int parse_file(const char *name, struct smart_health *h)
{
	size_t n = 0;
	const char *buf = test_data(name, &n);
	return buf ? smart_parse(buf, n, h) : -ENOENT;
}

static void test_hwlab(void)
{
	struct smart_health h;

	ok(parse_file("hwlab/smartctl_nvme_critical_warning_captured.json", &h) == 0, "lab NVMe with a critical warning parses");
	ok(h.state == SMART_FAILED, "lab NVMe critical warning 4: SMART FAILED (smartctl exit 8, passed false)");
	ok(h.predictive_failure, "lab NVMe critical warning: a predictive-failure sign");
	is_str(h.signs, "critical warning 0x04", "lab NVMe: the warning named, nothing invented");
	ok(h.has_temperature && h.temperature_c == 50, "lab NVMe: 50 C");
	is_str(h.device_type, "nvme", "lab NVMe: device type nvme");
	ok(h.has_critical_warning && h.critical_warning == 4, "lab NVMe: critical warning 4 as a field");
	ok(h.has_media_errors && h.media_errors == 0, "lab NVMe: 0 media errors, reported as 0 (not unknown)");

	ok(parse_file("hwlab/smartctl_nvme_captured.json", &h) == 0 && h.state == SMART_PASSED &&
		   !h.predictive_failure && h.temperature_c == 50,
	   "lab NVMe without warning: passed, no signs, 50 C");
	ok(parse_file("hwlab/smartctl_nvme_multipath_captured.json", &h) == 0 && h.state == SMART_PASSED &&
		   !h.predictive_failure,
	   "lab multipath namespace: smartctl answers through the head device, passed");

	ok(parse_file("hwlab/smartctl_sat_captured.json", &h) == 0, "lab SATA parses");
	ok(h.state == SMART_PASSED && !h.predictive_failure && strcmp(h.device_type, "sat") == 0,
	   "lab SATA: passed, no signs, device type sat");
	ok(h.has_temperature && h.temperature_c == 31, "lab SATA: 31 C from the ATA attributes");

	ok(parse_file("hwlab/smartctl_scsi_captured.json", &h) == 0, "lab SCSI parses");
	ok(h.state == SMART_UNAVAILABLE, "lab SCSI (qemu scsi-hd): no SMART data");
	is_str(h.reason, "no SMART data: smartctl: SMART support is: Unavailable - device lacks SMART capability",
	       "lab SCSI: the reason is smartctl's own smart_support answer");
	ok(!h.has_temperature, "lab SCSI: its temperature 0 without SMART is not reported");
	ok(!h.has_critical_warning && !h.has_media_errors, "lab SCSI: no critical warning or media errors invented");
	ok(parse_file("hwlab/smartctl_sat_captured.json", &h) == 0 && !h.has_critical_warning,
	   "lab SATA: no NVMe critical warning field");
}

/* The lab's AHCI disks cannot produce a damaged medium: qemu's ATA SMART
 * attributes are fixed and zero. So the four counters come from a capture
 * composed from the lab's own (hwlab/smartctl_sat_captured.json, raw values
 * of 5 set and 187, 197, 198 added: 3 + 2 + 4 + 1). */
static void test_ata_media_errors(void)
{
	struct smart_health h;

	ok(parse_file("smartctl_sat_media_errors_composed.json", &h) == 0, "composed ATA media errors parse");
	ok(h.state == SMART_PASSED, "composed ATA: SMART still passes (no threshold crossed)");
	ok(h.has_media_errors && h.media_errors == 10, "composed ATA: media errors = 3 + 2 + 4 + 1 = 10");
	ok(h.predictive_failure, "composed ATA: the counters are a predictive-failure sign");
	is_str(h.signs,
	       "attribute 5 Reallocated_Sector_Ct raw 3, attribute 187 Reported_Uncorrect raw 2, "
	       "attribute 197 Current_Pending_Sector raw 4, attribute 198 Offline_Uncorrectable raw 1",
	       "composed ATA: each counter named with its id and raw value, in the table's order");

	ok(parse_file("hwlab/smartctl_sat_captured.json", &h) == 0 && h.has_media_errors && h.media_errors == 0 &&
		   !h.predictive_failure,
	   "lab SATA (captured): attribute 5 raw 0 is 0 media errors, known, and no sign");

	ok(h.sata_max_gbps == 0 && h.sata_current_gbps == 0, "lab SATA (captured): qemu says no interface speed");
	/* The lab's capture with smartctl's interface_speed added (what
	 * "SATA Version is: SATA 3.2, 6.0 Gb/s (current: 1.5 Gb/s)" prints). */
	ok(parse_file("smartctl_sat_link_slow_composed.json", &h) == 0 && h.sata_max_gbps == 6.0 &&
		   h.sata_current_gbps == 1.5,
	   "composed SATA link: the drive's 6.0 Gb/s and its current 1.5 Gb/s");

	/* A raw value of another program cannot wrap the sum. */
	const char huge[] = "{\"smartctl\": {\"exit_status\": 0}, \"smart_status\": {\"passed\": true},"
			    " \"ata_smart_attributes\": {\"table\": ["
			    "{\"id\": 5, \"raw\": {\"value\": 18446744073709551615}},"
			    "{\"id\": 197, \"raw\": {\"value\": 7}}]}}";
	ok(smart_parse(huge, strlen(huge), &h) == 0 && h.media_errors == ~0ULL, "the sum saturates instead of wrapping");
	ok(strstr(h.signs, "attribute 197 Current_Pending_Sector raw 7") != NULL,
	   "an attribute without a name in the table is named as smartctl names it");
}

int main(void)
{
	struct smart_health h;

	ok(parse_file("smartctl_virtio_vda_captured.json", &h) == 0, "virtio capture parses");
	ok(h.state == SMART_UNAVAILABLE, "virtio disk: no SMART data");
	ok(strstr(h.reason, "Unable to detect device type") != NULL, "reason quotes smartctl");
	ok(!h.has_temperature && !h.predictive_failure, "no temperature or signs invented");

	ok(parse_file("smartctl_loop_captured.json", &h) == 0 && h.state == SMART_UNAVAILABLE,
	   "loop capture: no SMART data");

	ok(parse_file("smartctl_ata_reallocating_composed.json", &h) == 0, "ATA parses");
	ok(h.state == SMART_PASSED, "ATA: overall health still PASSED");
	ok(h.has_temperature && h.temperature_c == 41, "ATA temperature 41 C");
	ok(h.predictive_failure, "ATA: reallocated and pending sectors are predictive failure");
	is_str(h.signs, "attribute 5 Reallocated_Sector_Ct raw 8, attribute 197 Current_Pending_Sector raw 2",
	       "ATA signs name the attribute and its raw value, zero counters left out");
	ok(h.has_media_errors && h.media_errors == 10, "ATA: media errors 8 + 2 (198 is 0, 187 absent)");
	is_str(h.device_type, "sat", "ATA device type");

	test_ata_media_errors();

	ok(parse_file("smartctl_nvme_failing_composed.json", &h) == 0, "NVMe parses");
	ok(h.state == SMART_FAILED, "NVMe: FAILED");
	ok(h.temperature_c == 52, "NVMe temperature");
	is_str(h.signs, "critical warning 0x04, 3 media errors, 101% of rated endurance used", "NVMe signs");
	ok(h.has_media_errors && h.media_errors == 3 && h.critical_warning == 4, "NVMe: 3 media errors, warning 4 as fields");

	ok(parse_file("smartctl_scsi_healthy_composed.json", &h) == 0, "SCSI parses");
	ok(h.state == SMART_PASSED && !h.predictive_failure && h.signs[0] == '\0', "SCSI: healthy, no signs");
	ok(h.temperature_c == 30, "SCSI temperature");

	test_hwlab();

	/* The exit status alone can carry the verdict (bit 3: disk failing). */
	const char failing_by_status[] = "{\"smartctl\": {\"exit_status\": 8}, \"smart_status\": {}}";
	ok(smart_parse(failing_by_status, strlen(failing_by_status), &h) == 0 && h.state == SMART_FAILED,
	   "exit status bit 3 means failing even without passed:false");
	const char prefail[] = "{\"smartctl\": {\"exit_status\": 16}, \"smart_status\": {\"passed\": true}}";
	ok(smart_parse(prefail, strlen(prefail), &h) == 0 && h.predictive_failure &&
		   strstr(h.signs, "pre-failure attribute"),
	   "exit status bit 4: a pre-failure attribute at threshold");

	ok(smart_parse("not json", 8, &h) == -EINVAL && strstr(h.reason, "no JSON"), "garbage refused");
	ok(smart_parse("{\"a\": 1}", 8, &h) == -EINVAL && strstr(h.reason, "not smartctl output"),
	   "JSON that is not smartctl's refused");
	return tap_done();
}
