/* disk/smart.c: SMART health from smartctl --json. */
#include "disk/smart.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "basic/jsonread.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"

#define SMARTCTL_TIMEOUT_MS 30000

/* smartctl's exit status bits (smartctl(8), RETURN VALUES). */
#define SMARTCTL_DISK_FAILING 0x08
#define SMARTCTL_PREFAIL_BELOW_THRESHOLD 0x10

const char *smart_state_name(enum smart_state s)
{
	static const char *const names[] = { "unavailable", "passed", "failed" };
	return names[s];
}

/* Appends one predictive-failure sign to h->signs, comma-separated. */
static void __attribute__((format(printf, 2, 3))) add_sign(struct smart_health *h, const char *fmt, ...)
{
	size_t len = strlen(h->signs);
	if (len && len < sizeof(h->signs) - 2) {
		memcpy(h->signs + len, ", ", 3);
		len += 2;
	}
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(h->signs + len, sizeof(h->signs) - len, fmt, ap);
	va_end(ap);
	h->predictive_failure = true;
}

/* ATA attributes whose raw value counts damaged media: any non-zero count
 * is a predictive-failure sign, whatever the vendor's threshold says, and
 * their sum is the disk's media errors (as NVMe's media_errors and SCSI's
 * grown defects are). The sign names the attribute and its raw value as
 * smartctl -A shows them, so the admin can find the line. */
static void ata_signs(const struct jv *table, struct smart_health *h)
{
	static const struct {
		int id;
		const char *name; /* smartctl's name, used when the table has none */
	} counters[] = {
		{ 5, "Reallocated_Sector_Ct" },
		{ 187, "Reported_Uncorrect" },
		{ 197, "Current_Pending_Sector" },
		{ 198, "Offline_Uncorrectable" },
	};
	for (size_t i = 0; table && i < table->count; i++) {
		const struct jv *a = &table->items[i];
		int id = jv_int(jv_get(a, "id"), -1);
		for (size_t k = 0; k < sizeof(counters) / sizeof(counters[0]); k++) {
			if (counters[k].id != id)
				continue;
			unsigned long long raw = jv_u64(jv_path(a, "raw.value"), 0);
			h->has_media_errors = true;
			/* Saturated: four counters from another program must not wrap. */
			h->media_errors = raw > ~0ULL - h->media_errors ? ~0ULL : h->media_errors + raw;
			if (raw > 0)
				add_sign(h, "attribute %d %s raw %llu", id,
					 jv_string(jv_get(a, "name"), counters[k].name), raw);
		}
		if (strcmp(jv_string(jv_get(a, "when_failed"), ""), "now") == 0)
			add_sign(h, "attribute %s below its threshold", jv_string(jv_get(a, "name"), "?"));
	}
}

static void nvme_signs(const struct jv *log, struct smart_health *h)
{
	double warning = jv_number(jv_get(log, "critical_warning"), 0);
	double media_errors = jv_number(jv_get(log, "media_errors"), 0);
	double used = jv_number(jv_get(log, "percentage_used"), 0);
	if (log) {
		h->has_critical_warning = true;
		/* Saturated: another program's number must not be undefined behaviour. */
		h->critical_warning = (unsigned)jv_u64(jv_get(log, "critical_warning"), 0) & 0xff;
		h->has_media_errors = true;
		h->media_errors = jv_u64(jv_get(log, "media_errors"), 0);
	}
	if (warning > 0)
		add_sign(h, "critical warning 0x%02x", h->critical_warning);
	if (media_errors > 0)
		add_sign(h, "%.0f media errors", media_errors);
	if (used >= 100)
		add_sign(h, "%.0f%% of rated endurance used", used);
}

/* smartctl's interface speed object: units_per_second x bits_per_unit. */
static double interface_gbps(const struct jv *speed)
{
	double units = jv_number(jv_get(speed, "units_per_second"), 0);
	double bits = jv_number(jv_get(speed, "bits_per_unit"), 0);
	return units > 0 && bits > 0 ? units * bits / 1e9 : 0;
}

int smart_parse(const char *text, size_t len, struct smart_health *h)
{
	*h = (struct smart_health){ .state = SMART_UNAVAILABLE };
	struct jv *doc = NULL;
	char err[128];
	if (jv_parse(text, len, &doc, err, sizeof(err)) < 0) {
		snprintf(h->reason, sizeof(h->reason), "smartctl printed no JSON document: %s", err);
		return -EINVAL;
	}
	if (!jv_get(doc, "smartctl")) {
		snprintf(h->reason, sizeof(h->reason), "not smartctl output: no \"smartctl\" member");
		jv_free(doc);
		return -EINVAL;
	}
	snprintf(h->device_type, sizeof(h->device_type), "%s", jv_string(jv_path(doc, "device.type"), ""));
	const struct jv *status = jv_get(doc, "smart_status");
	if (!status) {
		/* No health answer: say why in smartctl's words when it gave any. */
		const struct jv *messages = jv_path(doc, "smartctl.messages");
		const char *why = jv_string(jv_get(jv_at(messages, 0), "string"), NULL);
		const struct jv *support = jv_path(doc, "smart_support.available");
		/* A SCSI disk that answers INQUIRY but has no informational
		 * exceptions page (qemu's scsi-hd): smartctl says so itself. */
		if (!why && support && !jv_bool(support, true))
			why = "SMART support is: Unavailable - device lacks SMART capability";
		snprintf(h->reason, sizeof(h->reason), "no SMART data%s%s", why ? ": smartctl: " : "",
			 why ? why : " from smartctl for this device");
		jv_free(doc);
		return 0;
	}
	int exit_status = jv_int(jv_path(doc, "smartctl.exit_status"), 0);
	bool passed = jv_bool(jv_get(status, "passed"), true);
	h->state = passed && !(exit_status & SMARTCTL_DISK_FAILING) ? SMART_PASSED : SMART_FAILED;
	const struct jv *temp = jv_path(doc, "temperature.current");
	if (temp && temp->type == JV_NUMBER) {
		h->has_temperature = true;
		h->temperature_c = jv_int(temp, 0);
	}
	h->sata_max_gbps = interface_gbps(jv_path(doc, "interface_speed.max"));
	h->sata_current_gbps = interface_gbps(jv_path(doc, "interface_speed.current"));
	ata_signs(jv_path(doc, "ata_smart_attributes.table"), h);
	nvme_signs(jv_get(doc, "nvme_smart_health_information_log"), h);
	double grown = jv_number(jv_get(doc, "scsi_grown_defect_list"), 0);
	if (jv_get(doc, "scsi_grown_defect_list")) {
		h->has_media_errors = true;
		h->media_errors = jv_u64(jv_get(doc, "scsi_grown_defect_list"), 0);
	}
	if (grown > 0)
		add_sign(h, "%.0f grown defects", grown);
	if ((exit_status & SMARTCTL_PREFAIL_BELOW_THRESHOLD) && !h->predictive_failure)
		add_sign(h, "a pre-failure attribute at or below its threshold");
	jv_free(doc);
	return 0;
}

int smart_query(const char *dev_path, struct smart_health *ret)
{
	return smart_query_within(dev_path, SMARTCTL_TIMEOUT_MS, ret);
}

int smart_query_within(const char *dev_path, int timeout_ms, struct smart_health *ret)
{
	/* -H health, -A attributes, -i identity: enough for the cross-check,
	 * and quicker than -a's logs on a disk that is already struggling. */
	const char *argv[] = { "smartctl", "--json", "-H", "-A", "-i", dev_path, NULL };
	struct spawn_result out;
	int r = spawn_run(argv, timeout_ms, &out);
	if (r == 0)
		r = smart_parse(out.out.buf, out.out.len, ret);
	spawn_result_release(&out);
	return r;
}
