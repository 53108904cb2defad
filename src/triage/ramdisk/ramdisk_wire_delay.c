/* ramdisk wire --ndelay: the comparison at the RAM disk's own delay, then
 * with its back end set to each delay at runtime, and the recorded delay
 * restored (see triage/ramdisk/ramdisk_export.h). */
#include "triage/ramdisk/ramdisk_export.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "triage/ramdisk/ramdisk_batch.h"

/* The exported RAM disk (the one the comparison reads: the export's first)
 * and its record: backend and recorded delay into RET. */
static int exported_disk(struct wire_delay_run *ret, char *why, size_t len)
{
	struct ramdisk_export e;
	const char *disk = ramdisk_export_current(&e) ? e.devices[0] : NULL;
	if (!disk) {
		snprintf(why, len, "nothing is exported: 'iotriage ramdisk export --nvme-tcp ADDR' (or --iscsi ADDR) first");
		return -ENOENT;
	}
	snprintf(ret->device, sizeof(ret->device), "%s", disk);
	struct ramdisk_entry *live = NULL;
	size_t n = 0;
	int r = -ENOENT;
	ramdisk_scan_live(false, &live, &n);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(live[i].dev.path, disk) != 0)
			continue;
		snprintf(ret->backend, sizeof(ret->backend), "%s", live[i].dev.backend);
		ret->recorded_ns = live[i].dev.ndelay_ns;
		r = 0;
	}
	free(live);
	if (r < 0)
		snprintf(why, len, "the exported device %s is not a RAM disk iotriage recorded", disk);
	return r;
}

static int set_delay(const struct wire_delay_run *run, uint64_t ns, const char *what, char *why, size_t len)
{
	log_msg(LOG_INFO, "RAMDISK: %s the per-command delay of %s (%s) to %" PRIu64 " ns", what, run->device,
		run->backend, ns);
	int r = ramdisk_set_ndelay(&ramdisk_default_paths, run->backend, ns, false, why, len);
	if (r < 0)
		log_msg(LOG_ERR, "RAMDISK: %s", why);
	return r;
}

/* Each delay in turn: set, compare, judge against the base. */
static int each_delay(const char *const *via, size_t via_n, const char *self, uint64_t runtime_ns,
		      const uint64_t *ndelays, size_t n, const struct wire_side *local,
		      const struct wire_side *remote, struct wire_delay_run *run, char *why, size_t len)
{
	int r = 0;
	for (size_t i = 0; i < n && i < WIRE_MAX_DELAYS && r == 0; i++) {
		if (interrupt_requested()) {
			snprintf(why, len, "interrupted");
			return -EINTR;
		}
		run->changed = true;
		r = set_delay(run, ndelays[i], "setting", why, len);
		struct wire_delay_point *pt = &run->p[run->n];
		memset(pt, 0, sizeof(*pt));
		pt->ndelay_ns = ndelays[i];
		if (r == 0)
			r = ramdisk_wire_compare(via, via_n, self, runtime_ns, &pt->local, &pt->remote, why, len);
		if (r == 0) {
			ramdisk_wire_delay_judge(local, remote, run->recorded_ns, pt);
			log_msg(LOG_INFO, "RAMDISK: %s", pt->sentence);
			run->n++;
		}
	}
	return r;
}

int ramdisk_wire_delays(const char *const *via, size_t via_n, const char *self, uint64_t runtime_ns,
			const uint64_t *ndelays, size_t n, struct wire_side *local, struct wire_side *remote,
			struct wire_delay_run *ret, char *why, size_t len)
{
	memset(ret, 0, sizeof(*ret));
	int r = exported_disk(ret, why, len);
	if (r < 0)
		return r;
	r = ramdisk_set_ndelay(&ramdisk_default_paths, ret->backend, ret->recorded_ns, true, why, len);
	if (r < 0) {
		char reason[600];
		snprintf(reason, sizeof(reason), "%s", why);
		snprintf(why, len, "--ndelay: the per-command delay of %s cannot change: %s (nothing changed, nothing "
			 "measured)", ret->device, reason);
		return r;
	}
	log_msg(LOG_INFO, "RAMDISK: first at %s's own per-command delay, %" PRIu64 " ns", ret->device, ret->recorded_ns);
	r = ramdisk_wire_compare(via, via_n, self, runtime_ns, local, remote, why, len);
	if (r == 0)
		r = each_delay(via, via_n, self, runtime_ns, ndelays, n, local, remote, ret, why, len);
	if (!ret->changed)
		return r;
	/* also after a failure or Ctrl-C: the disk as it was made */
	char rwhy[400];
	int rr = set_delay(ret, ret->recorded_ns, "restoring", rwhy, sizeof(rwhy));
	ret->restored = rr == 0;
	if (rr < 0 && r == 0) {
		snprintf(why, len, "the recorded delay (%" PRIu64 " ns) was not restored: %s", ret->recorded_ns, rwhy);
		r = rr;
	}
	return r;
}

int ramdisk_wire_pair(const char *const *via, size_t via_n, const char *self, uint64_t runtime_ns,
		      const uint64_t *ndelays, size_t n, struct wire_outcome *ret, char *why, size_t len)
{
	ret->delays = n > 0;
	int r = ret->delays ? ramdisk_wire_delays(via, via_n, self, runtime_ns, ndelays, n, &ret->local,
						  &ret->remote, &ret->run, why, len)
			    : ramdisk_wire_compare(via, via_n, self, runtime_ns, &ret->local, &ret->remote, why, len);
	ret->judged = ret->remote.w[WIRE_SEQ].measured;
	if (ret->judged)
		ramdisk_wire_judge(&ret->local, &ret->remote, &ret->judgement);
	return r;
}
