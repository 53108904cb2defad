/* remote/remote_read.c: a disk's read from another host's document
 * (remote/remote_read.h). */
#include "remote/remote_read.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "basic/jsonread.h"

static void copy(char *dst, size_t len, const struct jv *v)
{
	snprintf(dst, len, "%s", jv_string(v, ""));
}

static const struct jv *entry_for(const struct jv *devices, const char *path)
{
	for (size_t i = 0; path && i < devices->count; i++)
		if (!strcmp(jv_string(jv_get(jv_at(devices, i), "path"), ""), path))
			return jv_at(devices, i);
	return devices->count == 1 ? jv_at(devices, 0) : NULL;
}

static void latency(const struct jv *l, struct remote_read *r)
{
	r->lat = (struct hist_summary){
		.count = jv_u64(jv_get(l, "count"), 0), .min = jv_u64(jv_get(l, "min"), 0),
		.max = jv_u64(jv_get(l, "max"), 0), .mean = jv_number(jv_get(l, "mean"), 0),
		.stdev = jv_number(jv_get(l, "stdev"), 0), .p50 = jv_u64(jv_get(l, "p50"), 0),
		.p90 = jv_u64(jv_get(l, "p90"), 0), .p99 = jv_u64(jv_get(l, "p99"), 0),
		.p999 = jv_u64(jv_get(l, "p99.9"), 0), .p9999 = jv_u64(jv_get(l, "p99.99"), 0),
	};
	r->has_lat = r->lat.count > 0 && r->lat.min <= r->lat.p50 && r->lat.p50 <= r->lat.p90 &&
		     r->lat.p90 <= r->lat.p99 && r->lat.p99 <= r->lat.p999 && r->lat.p999 <= r->lat.p9999 &&
		     r->lat.p9999 <= r->lat.max;
}

static void fill(const struct jv *e, struct remote_read *r)
{
	copy(r->status, sizeof(r->status), jv_get(e, "status"));
	copy(r->reason, sizeof(r->reason), jv_get(e, "reason"));
	copy(r->kname, sizeof(r->kname), jv_get(e, "kname"));
	copy(r->vendor, sizeof(r->vendor), jv_get(e, "vendor"));
	copy(r->model, sizeof(r->model), jv_get(e, "model"));
	copy(r->serial, sizeof(r->serial), jv_get(e, "serial"));
	copy(r->transport, sizeof(r->transport), jv_get(e, "transport"));
	copy(r->engine, sizeof(r->engine), jv_get(e, "engine"));
	r->size_bytes = jv_u64(jv_get(e, "size_bytes"), 0);
	r->rotational = jv_bool(jv_get(e, "rotational"), false);
	r->logical_block_size = (unsigned)jv_u64(jv_get(e, "logical_block_size"), 512);
	r->physical_block_size = (unsigned)jv_u64(jv_get(e, "physical_block_size"), 512);
	r->requested = jv_u64(jv_get(e, "requested_bytes"), 0);
	r->bytes = jv_u64(jv_get(e, "bytes"), 0);
	r->seconds = jv_number(jv_get(e, "seconds"), 0);
	r->iodepth = (unsigned)jv_u64(jv_get(e, "iodepth"), 1);
	latency(jv_get(e, "lat_ns"), r);
	const struct jv *f = jv_get(e, "failure");
	copy(r->failure, sizeof(r->failure), jv_get(f, "kind"));
	r->error_offset = jv_u64(jv_get(f, "offset_bytes"), 0);
	r->timeout_s = (unsigned)jv_u64(jv_get(f, "timeout_seconds"), 0);
}

int remote_read_parse(const char *document, const char *path, struct remote_read *ret, char *why, size_t len)
{
	*ret = (struct remote_read){ 0 };
	struct jv *doc;
	char err[128];
	if (jv_parse(document, strlen(document), &doc, err, sizeof(err)) < 0) {
		snprintf(why, len, "its document is not JSON: %s", err);
		return -EINVAL;
	}
	const struct jv *devices = jv_get(doc, "devices");
	const struct jv *e = devices && devices->type == JV_ARRAY ? entry_for(devices, path) : NULL;
	int r = 0;
	if (!e) {
		snprintf(why, len, "its document has no read of %s", path ? path : "a device");
		r = -EINVAL;
	} else {
		fill(e, ret);
		if (!strcmp(ret->status, "ok") && !(ret->bytes > 0 && ret->seconds > 0)) {
			snprintf(why, len, "its document's read of %s has no figures", path ? path : "the device");
			r = -EINVAL;
		} else if (strcmp(ret->status, "ok") && strcmp(ret->status, "error") && strcmp(ret->status, "skipped")) {
			snprintf(why, len, "its document's read of %s has an unknown status", path ? path : "the device");
			r = -EINVAL;
		}
	}
	jv_free(doc);
	if (r < 0)
		*ret = (struct remote_read){ 0 };
	return r;
}
