/* SMART health from smartctl --json: two captures from this machine (a
 * virtio and a loop disk: no SMART data) and three composed in smartctl
 * 7.3's format for what no disk here can produce (a reallocating ATA
 * drive, a failing NVMe drive, a healthy SAS drive). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "disk/smart.h"
#include "tap.h"

static size_t read_data(const char *name, char *buf, size_t len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return n;
}

static int parse_file(const char *name, struct smart_health *h)
{
	static char buf[65536];
	size_t n = read_data(name, buf, sizeof(buf));
	if (!n)
		printf("# cannot read %s\n", name);
	return smart_parse(buf, n, h);
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
	is_str(h.signs, "8 reallocated sectors, 2 pending sectors", "ATA signs, zero counters left out");
	is_str(h.device_type, "sat", "ATA device type");

	ok(parse_file("smartctl_nvme_failing_composed.json", &h) == 0, "NVMe parses");
	ok(h.state == SMART_FAILED, "NVMe: FAILED");
	ok(h.temperature_c == 52, "NVMe temperature");
	is_str(h.signs, "critical warning 0x04, 3 media errors, 101% of rated endurance used", "NVMe signs");

	ok(parse_file("smartctl_scsi_healthy_composed.json", &h) == 0, "SCSI parses");
	ok(h.state == SMART_PASSED && !h.predictive_failure && h.signs[0] == '\0', "SCSI: healthy, no signs");
	ok(h.temperature_c == 30, "SCSI temperature");

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
