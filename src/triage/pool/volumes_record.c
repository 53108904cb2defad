/* The stored forms of the volumes test: the document's members and one
 * database row per volume. */
#include <stdio.h>

#include "output/latency.h"
#include "store/params.h"
#include "store/store.h"
#include "triage/pool/volumes.h"

const char *volume_status_name(enum volume_status s)
{
	return s == VOLUME_OK ? "ok" : s == VOLUME_ERROR ? "error" : "skipped";
}

static void json_volume(struct json *j, const struct volume *v)
{
	json_begin_object(j, NULL);
	json_string(j, "vol_id", v->vol_id);
	json_string(j, "vol_id_short", v->vol_id_short);
	json_string(j, "name", v->name);
	json_string(j, "pool", v->pool);
	json_string(j, "mapping", v->mapping);
	json_string(j, "mount", v->m->mountpoint);
	json_string(j, "fstype", v->m->fstype);
	json_string(j, "kind", v->kind);
	json_string(j, "subvolume", v->subvolume[0] ? v->subvolume : NULL);
	json_string(j, "compression", v->compression[0] ? v->compression : NULL);
	if (v->recordsize)
		json_uint(j, "recordsize_bytes", v->recordsize);
	else
		json_null(j, "recordsize_bytes");
	json_string(j, "status", volume_status_name(v->status));
	json_string(j, "reason", v->reason[0] ? v->reason : NULL);
	json_string(j, "note", v->note[0] ? v->note : NULL);
	json_uint(j, "free_bytes", v->free_bytes);
	json_uint(j, "requested_bytes", v->requested_bytes);
	json_uint(j, "file_bytes", v->file_bytes);
	json_string(j, "temp_file", v->temp_file);
	json_uint(j, "stale_files_removed", v->stale_removed);
	json_bool(j, "caches_dropped", v->caches_dropped);
	json_string(j, "access", v->access);
	json_string(j, "read_from", v->read_from);
	json_string(j, "read_from_reason", v->read_from_reason[0] ? v->read_from_reason : NULL);
	if (v->res) {
		json_uint(j, "bytes", v->res->bytes);
		json_double(j, "seconds", v->res->seconds);
		json_double(j, "bw_bytes_per_s", job_bw_bytes_per_s(v->res));
		json_double(j, "iops", job_iops(v->res));
		json_string(j, "engine", v->res->engine->name);
		json_string(j, "engine_reason", v->engine_reason);
		json_uint(j, "iodepth", v->res->iodepth);
		json_string(j, "stopped_by", job_stop_name(v->res->stop));
		json_latency(j, "lat_ns", &v->res->lat_read);
		json_latency_or_null(j, "slat_ns", v->res->has_slat ? &v->res->slat_read : NULL);
	}
	json_end_object(j);
}

void volumes_json(struct json *j, const struct volume_list *l, const struct volumes_settings *s)
{
	json_begin_object(j, "parameters");
	json_string(j, "access", "sequential read of a freshly written, incompressible test file");
	json_uint(j, "size_bytes", s->size);
	json_uint(j, "bs_bytes", s->bs);
	json_uint(j, "iodepth", s->iodepth);
	json_double(j, "runtime_cap_seconds", (double)s->runtime_ns / 1e9);
	json_string(j, "engine", "auto");
	json_string(j, "pattern", "random");
	json_begin_array(j, "match");
	for (size_t i = 0; i < s->nglobs; i++)
		json_string(j, NULL, s->globs[i]);
	json_end_array(j);
	json_end_object(j);
	json_begin_array(j, "volumes");
	for (size_t i = 0; i < l->count; i++)
		json_volume(j, &l->vols[i]);
	json_end_array(j);
	json_begin_array(j, "skipped");
	for (size_t i = 0; i < l->nskipped; i++) {
		json_begin_object(j, NULL);
		json_string(j, "mount", l->skipped[i].m->mountpoint);
		json_string(j, "fstype", l->skipped[i].m->fstype);
		json_string(j, "source", l->skipped[i].m->source);
		json_string(j, "reason", l->skipped[i].reason);
		json_end_object(j);
	}
	json_end_array(j);
	json_begin_object(j, "summary");
	json_uint(j, "ok", l->counts[VOLUME_OK]);
	json_uint(j, "error", l->counts[VOLUME_ERROR]);
	json_uint(j, "skipped", l->counts[VOLUME_SKIPPED]);
	json_uint(j, "mounts_skipped", l->nskipped);
	json_uint(j, "mounts_not_matched", l->not_matched);
	json_end_object(j);
}

int volumes_store(struct store *st, const char *run_id, const struct volume_list *l)
{
	for (size_t i = 0; i < l->count; i++) {
		const struct volume *v = &l->vols[i];
		struct store_params params = STORE_PARAMS_INIT;
		store_params_str(&params, "vol_id", v->vol_id);
		store_params_str(&params, "read_from", v->read_from);
		struct store_result res = {
			.run_id = run_id,
			.test = "volumes",
			.path = v->m->mountpoint,
			.status = volume_status_name(v->status),
			.reason = v->reason[0] ? v->reason : NULL,
			.bytes = v->res ? v->res->bytes : 0,
			.seconds = v->res ? v->res->seconds : 0,
			.bw_bytes_per_s = v->res ? job_bw_bytes_per_s(v->res) : 0,
			.iops = v->res ? job_iops(v->res) : 0,
			.params = store_params_text(&params),
		};
		int r = store_add_result(st, &res);
		store_params_release(&params);
		if (r < 0)
			return r;
	}
	return 0;
}
