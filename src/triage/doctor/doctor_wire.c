/* doctor's step 3 across the wire (triage/doctor/doctor_wire.h). */
#include "triage/doctor/doctor_wire.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/interrupt.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "triage/ramdisk/ramdisk_batch.h"

unsigned doctor_wire_runtime_s(const struct doctor *dr)
{
	return dr->set.quick || dr->set.lab ? 1 : 5;
}

/* One RAM disk for the export: refused while RAM disks exist. */
static int make_ram_disk(struct doctor *dr, struct ramdisk_dev *dev, char *why, size_t len)
{
	struct ramdisk_spec spec = { .size = dr->set.quick ? 64ULL << 20 : 256ULL << 20, .count = 1,
				     .run_id = dr->run_id };
	const struct ramdisk_backend *b = NULL;
	bool defaulted = false;
	int r = ramdisk_create_prepare(NULL, &spec, &b, &defaulted, why, len);
	if (r < 0)
		return r;
	r = ramdisk_batch_create(b, &spec, dev);
	if (r < 0)
		snprintf(why, len, "could not create the RAM disk (see the log)");
	return r;
}

/* The export, the two sides, the judgement. The caller removes the export. */
static int export_and_compare(struct doctor *dr, char *why, size_t len)
{
	struct export_request req = { .transport = &ramdisk_transport_nvmet, .addr_arg = dr->set.export_addr,
				      .client = dr->set.host_nqn,
				      .allow_any_host = dr->set.host_nqn == NULL, .run_id = dr->run_id };
	struct ramdisk_export e;
	int r = ramdisk_export_start(&req, &e, why, len);
	if (r < 0)
		return r;
	log_msg(LOG_INFO, "DOCTOR: RAM disk %s exported as %s on %s:%u for %s", e.devices[0], e.name, e.traddr,
		e.port, dr->set.host_nqn ? dr->set.host_nqn : "any host, for this step only");
	char self[PATH_MAX] = "iotriage";
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[k > 0 ? k : 8] = '\0';
	char *via_copy = xstrdup(dr->set.client_via), *save = NULL;
	const char *via[16];
	size_t n = 0;
	for (char *w = strtok_r(via_copy, " \t", &save); w && n < 16; w = strtok_r(NULL, " \t", &save))
		via[n++] = w;
	r = ramdisk_wire_compare(via, n, dr->set.client_iotriage ? dr->set.client_iotriage : self, (uint64_t)doctor_wire_runtime_s(dr) * 1000000000ULL, &dr->wire_local,
				 &dr->wire_remote, why, len);
	free(via_copy);
	return r;
}

static void name_layer(struct doctor *dr)
{
	struct doctor_verdict *v = &dr->verdict;
	dr->steps[2].explains = true;
	v->layer = dr->wire.layer;
	snprintf(v->subject, sizeof(v->subject), "the path to %s (NVMe/TCP to %s)", dr->set.client_label,
		 dr->set.export_addr);
	snprintf(v->evidence, sizeof(v->evidence), "%s", dr->wire.sentence);
	snprintf(v->confidence, sizeof(v->confidence), "the same RAM disk read here and from %s, %u s a workload on each "
		 "side (4 KiB random at QD1 and QD32, 1 MiB sequential), once; the round trip from the client's own "
		 "TCP connects to the target", dr->set.client_label, doctor_wire_runtime_s(dr));
	if (dr->wire.link_bound)
		snprintf(v->next, sizeof(v->next), "the link carries no more than %.0f Mb/s (%s): a faster link, more "
			 "of them (a bond, multipath) or no shaping, before anything in the storage",
			 dr->wire.ceiling_mbps, dr->wire.ceiling_from);
	else if (strcmp(v->layer, "network") == 0)
		snprintf(v->next, sizeof(v->next), "shorten the path between %s and this host (no routed hop, VPN or "
			 "shaping; netcheck --peer for its throughput), or give the application more I/Os in flight: "
			 "each one waits a round trip", dr->set.client_label);
	else
		snprintf(v->next, sizeof(v->next), "look at the target and initiator hosts' CPU and interrupts under "
			 "load (nvmet-tcp and nvme-tcp run there), the NIC's offloads and the MTU, before the storage");
}

int doctor_step_wire(struct doctor *dr)
{
	struct doctor_step *s = &dr->steps[2];
	struct ramdisk_dev dev;
	char why[1200] = "", rm[600] = "";
	int r = make_ram_disk(dr, &dev, why, sizeof(why));
	if (r == 0) {
		r = export_and_compare(dr, why, sizeof(why));
		if (ramdisk_export_stop(rm, sizeof(rm)) < 0)
			log_msg(LOG_ERR, "DOCTOR: %s", rm);
		ramdisk_batch_destroy(&dev, 1, true);
	}
	size_t at = strlen(s->summary);
	if (r < 0) {
		s->state = STEP_FAILED;
		snprintf(s->summary + at, sizeof(s->summary) - at, "%sacross the wire to %s: %s", at ? "; " : "",
			 dr->set.client_label, interrupt_requested() ? "interrupted" : why);
		return r;
	}
	dr->wire_ran = true;
	s->state = STEP_RAN; /* the step's decisive figure, whatever the local RAM disk read did */
	ramdisk_wire_judge(&dr->wire_local, &dr->wire_remote, &dr->wire);
	snprintf(s->summary + at, sizeof(s->summary) - at, "%sacross the wire to %s: %s", at ? "; " : "",
		 dr->set.client_label, dr->wire.sentence);
	if (dr->wire.layer)
		name_layer(dr);
	return 0;
}
