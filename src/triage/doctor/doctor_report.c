/* doctor's document members (triage/doctor/doctor_report.h). */
#include "triage/doctor/doctor_report.h"

#include <stdio.h>

#include "basic/strbuf.h"

/* Step 3 across the wire: null without --client. */
static void wire_json(struct json *j, const struct doctor *dr)
{
	if (!dr->set.client_via) {
		json_null(j, "wire");
		return;
	}
	json_begin_object(j, "wire");
	json_string(j, "client", dr->set.client_label);
	json_string(j, "export_addr", dr->set.export_addr);
	json_bool(j, "measured", dr->wire_ran);
	if (dr->wire_ran) {
		for (int side = 0; side < 2; side++) {
			const struct wire_side *ws = side ? &dr->wire_remote : &dr->wire_local;
			json_begin_object(j, side ? "remote" : "local");
			for (int w = 0; w < WIRE_WORKLOADS; w++) {
				json_begin_object(j, wire_workload_names[w]);
				json_double(j, "mean_ns", ws->w[w].mean_ns);
				json_uint(j, "p50_ns", ws->w[w].p50_ns);
				json_uint(j, "p99_ns", ws->w[w].p99_ns);
				json_double(j, "iops", ws->w[w].iops);
				json_double(j, "bw_bytes_per_s", ws->w[w].bw_bytes_per_s);
				json_end_object(j);
			}
			json_uint(j, "rtt_ns", ws->rtt_ns);
			json_end_object(j);
		}
		json_double(j, "added_mean_ns", dr->wire.added_mean_ns);
		json_double(j, "added_p50_ns", dr->wire.added_p50_ns);
		json_double(j, "added_p99_ns", dr->wire.added_p99_ns);
		json_double(j, "iops_fraction", dr->wire.iops_fraction);
		json_double(j, "bw_fraction", dr->wire.bw_fraction);
		json_string(j, "layer", dr->wire.layer);
		json_string(j, "sentence", dr->wire.sentence);
		ramdisk_wire_ceiling_json(j, &dr->wire);
	}
	json_end_object(j);
}

static void doctor_object_json(struct json *j, const struct doctor *dr)
{
	static const char *const states[] = { "not run", "ran", "skipped", "failed" };
	json_begin_object(j, "doctor");
	json_string(j, "pool", dr->have_pool ? dr->target.pool : NULL);
	json_bool(j, "quick", dr->set.quick);
	json_bool(j, "lab", dr->set.lab);
	json_uint(j, "estimate_seconds", dr->estimate_s);
	json_begin_array(j, "steps");
	for (int i = 0; i < 4; i++) {
		const struct doctor_step *s = &dr->steps[i];
		json_begin_object(j, NULL);
		json_string(j, "step", doctor_step_names[i]);
		json_string(j, "state", states[s->state]);
		json_string(j, "summary", s->summary[0] ? s->summary : NULL);
		json_bool(j, "explains", s->explains);
		json_double(j, "seconds", s->seconds);
		json_uint(j, "budget_seconds", s->budget_s);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_object(j, "figures");
	json_double(j, "media_median_bw_bytes_per_s", dr->media_median_bw);
	json_double(j, "ram_disk_bw_bytes_per_s", dr->ram_disk_bw);
	json_double(j, "twin_write_bw_bytes_per_s", dr->twin_write_bw);
	json_double(j, "twin_read_bw_bytes_per_s", dr->twin_read_bw);
	json_double(j, "pool_write_bw_bytes_per_s", dr->pool_write_bw);
	json_double(j, "pool_read_bw_bytes_per_s", dr->pool_read_bw);
	json_end_object(j);
	json_string(j, "sync_probe", dr->sync_probe[0] ? dr->sync_probe : NULL);
	json_string(j, "special_probe", dr->special_probe[0] ? dr->special_probe : NULL);
	json_begin_object(j, "twin");
	json_string(j, "data_vdevs", dr->twin.data_vdevs[0] ? dr->twin.data_vdevs : NULL);
	json_string(j, "pool_data_vdevs", dr->twin.pool_data_vdevs[0] ? dr->twin.pool_data_vdevs : NULL);
	json_string(j, "left_out", dr->twin.left_out[0] ? dr->twin.left_out : NULL);
	json_end_object(j);
	json_begin_object(j, "layout_expectation");
	json_bool(j, "known", dr->have_expect);
	json_string(j, "why_not", dr->have_expect ? NULL : dr->expect_why);
	json_string(j, "basis", dr->have_expect ? dr->expect.basis : NULL);
	json_double(j, "read_bw_bytes_per_s", dr->have_expect ? dr->expect.read_bps : 0);
	json_double(j, "write_bw_bytes_per_s", dr->have_expect ? dr->expect.write_bps : 0);
	json_double(j, "pool_read_pct", dr->have_expect ? 100 * dr->pool_read_bw / dr->expect.read_bps : 0);
	json_double(j, "pool_write_pct", dr->have_expect ? 100 * dr->pool_write_bw / dr->expect.write_bps : 0);
	json_end_object(j);
	if (dr->steps[3].state != STEP_NOT_RUN)
		pool_evidence_json(j, &dr->evidence);
	wire_json(j, dr);
	if (dr->have_ceph)
		ceph_step_json(j, &dr->ceph);
	json_begin_object(j, "verdict");
	json_string(j, "layer", dr->verdict.layer	      ? dr->verdict.layer
				: dr->verdict.undetermined ? "undetermined"
							   : "none");
	json_string(j, "subject", dr->verdict.subject[0] ? dr->verdict.subject : NULL);
	/* Which kind of evidence named the subject, and every disk or group
	 * step 1 named (empty unless the media layer is the verdict). */
	bool media = dr->media_named.count && dr->steps[0].explains;
	if (media) {
		json_begin_array(j, "named_by");
		for (unsigned k = 0; k < MEDIA_EVIDENCE_KINDS; k++)
			if (dr->media_named.named[0].by & (1u << k))
				json_string(j, NULL, media_evidence_word(1u << k));
		json_end_array(j);
	} else {
		json_null(j, "named_by");
	}
	media_findings_json(j, "named", media ? &dr->media_named : &(struct media_findings){ 0 });
	json_string(j, "evidence", dr->verdict.evidence);
	json_string(j, "confidence", dr->verdict.confidence);
	json_string(j, "next", dr->verdict.next);
	json_end_object(j);
	json_end_object(j);
}

static void lab_json(struct json *j, const struct doctor *dr)
{
	json_begin_object(j, "lab");
	json_string(j, "pool", dr->lab.pool);
	json_string(j, "kind", dr->lab.zfs ? "zfs" : "btrfs");
	json_string(j, "slowed_device", dr->lab_slowed[0] ? dr->lab_slowed : NULL);
	json_uint(j, "slow_rate_bytes_per_s", dr->lab.slowed >= 0 ? dr->lab.slow_rate : 0);
	json_end_object(j);
}

void doctor_json(const struct doctor *dr, struct json *j)
{
	if (dr->set.lab)
		lab_json(j, dr);
	doctor_object_json(j, dr);
	if (dr->batch.count)
		read_batch_document(&dr->batch, j);
}
