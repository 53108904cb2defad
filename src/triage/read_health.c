/* The health cross-check: each disk the read test flagged (slow, or
 * failing part way through its read) is asked for its SMART state, so the
 * finding and the drive's own opinion of itself are shown side by side. */
#include "triage/read_health.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "basic/log.h"

static bool needs_health_check(const struct disk_read *d)
{
	if (!d->verdict)
		return false;
	/* A disk faster than its peers is worth a look but not a health question. */
	if (strcmp(d->verdict, "slow") == 0)
		return true;
	/* An error after the read started (an I/O error) is a media question;
	 * one that stopped it from starting (permission, no such device) is not. */
	return d->status == READTEST_ERROR && d->res != NULL;
}

static bool is_virtual(const struct disk_info *info)
{
	static const char *const virtual_transports[] = { "loop", "zram", "virtio", "nbd", "md", "dm" };
	for (size_t i = 0; i < sizeof(virtual_transports) / sizeof(virtual_transports[0]); i++)
		if (strcmp(info->transport, virtual_transports[i]) == 0)
			return true;
	return false;
}

void read_health_describe(const struct disk_read *d, char *buf, size_t len)
{
	const struct smart_health *h = &d->health;
	if (d->smartctl_missing) {
		snprintf(buf, len, "not checked: smartctl is not installed (Debian: apt-get install smartmontools)");
		return;
	}
	if (h->state == SMART_UNAVAILABLE) {
		snprintf(buf, len, "%s%s", h->reason,
			 is_virtual(&d->info) ? " (a virtual disk has no SMART data: check the disk behind it)" : "");
		return;
	}
	char temp[32] = "";
	if (h->has_temperature)
		snprintf(temp, sizeof(temp), ", %d C", h->temperature_c);
	snprintf(buf, len, "SMART %s%s%s%s", h->state == SMART_FAILED ? "FAILED: the drive predicts its own failure" : "passed",
		 temp, h->predictive_failure ? "; predictive failure: " : "", h->predictive_failure ? h->signs : "");
}

size_t read_batch_check_health(struct read_batch *b)
{
	size_t checked = 0;
	for (size_t i = 0; i < b->count; i++) {
		struct disk_read *d = &b->reads[i];
		if (!needs_health_check(d))
			continue;
		int r = 0;
		if (d->no_response) {
			/* smartctl's commands would wait on the same stuck device. */
			d->health.state = SMART_UNAVAILABLE;
			snprintf(d->health.reason, sizeof(d->health.reason),
				 "not asked: the disk does not answer, and smartctl would wait on it too");
		} else {
			r = smart_query(d->info.dev_path, &d->health);
		}
		if (r == -ENOENT) {
			d->smartctl_missing = true;
		} else if (r < 0 && d->health.reason[0] == '\0') {
			d->health.state = SMART_UNAVAILABLE;
			snprintf(d->health.reason, sizeof(d->health.reason), "cannot run smartctl: %s", strerror(-r));
		}
		d->health_checked = true;
		checked++;
		char text[600];
		read_health_describe(d, text, sizeof(text));
		log_msg(d->health.state == SMART_FAILED || d->health.predictive_failure ? LOG_WARN : LOG_INFO,
			"READ-DISK (%s): health: %s", d->info.dev_path, text);
	}
	return checked;
}

void read_health_json(struct json *j, const struct disk_read *d)
{
	if (!d->health_checked)
		return;
	const struct smart_health *h = &d->health;
	json_begin_object(j, "health");
	json_bool(j, "smartctl_installed", !d->smartctl_missing);
	json_string(j, "smart", d->smartctl_missing ? NULL : smart_state_name(h->state));
	json_string(j, "reason", h->state == SMART_UNAVAILABLE && !d->smartctl_missing ? h->reason : NULL);
	json_string(j, "device_type", h->device_type[0] ? h->device_type : NULL);
	if (h->has_temperature)
		json_int(j, "temperature_c", h->temperature_c);
	else
		json_string(j, "temperature_c", NULL);
	json_bool(j, "predictive_failure", h->predictive_failure);
	json_string(j, "signs", h->signs[0] ? h->signs : NULL);
	char text[600];
	read_health_describe(d, text, sizeof(text));
	json_string(j, "sentence", text);
	json_end_object(j);
}
