/* pool/ceph_osd.c: a Ceph pool's OSDs, their devices and hosts, and their
 * benches (pool/ceph_osd.h). */
#include "pool/ceph_osd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/jsonread.h"
#include "basic/strbuf.h"

/* ---- parsers ---- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Adds ID to the N sorted-later IDS unless there or full. */
static void add_id(int *ids, size_t *n, size_t max, int id)
{
	for (size_t i = 0; i < *n; i++)
		if (ids[i] == id)
			return;
	if (*n < max)
		ids[(*n)++] = id;
}

int ceph_parse_pool_osds(const char *json, int *ids, size_t max)
{
	struct jv *v = ceph_parse_json(json);
	/* Pacific wraps the list ({"pg_ready":..., "pg_stats": [...]}); older releases print the array. */
	const struct jv *pgs = v && v->type == JV_ARRAY ? v : jv_get(v, "pg_stats");
	if (!pgs || pgs->type != JV_ARRAY) {
		jv_free(v);
		return -EINVAL;
	}
	size_t n = 0;
	for (size_t i = 0; i < pgs->count; i++) {
		const struct jv *acting = jv_get(jv_at(pgs, i), "acting");
		for (size_t k = 0; acting && k < acting->count; k++) {
			int id = jv_int(jv_at(acting, k), -1);
			if (id >= 0 && id != 0x7fffffff) /* CRUSH_ITEM_NONE: a hole in an EC acting set */
				add_id(ids, &n, max, id);
		}
	}
	qsort(ids, n, sizeof(*ids), cmp_int);
	jv_free(v);
	return (int)n;
}

static struct ceph_osd *osd_by_id(struct ceph_osd *osds, size_t n, int id)
{
	for (size_t i = 0; i < n; i++)
		if (osds[i].id == id)
			return &osds[i];
	return NULL;
}

/* The data device's node: BlueStore's dev node, else /dev/ and the first of "devices". */
static void metadata_device(const struct jv *m, struct ceph_osd *o)
{
	const char *node = jv_string(jv_get(m, "bluestore_bdev_dev_node"), NULL);
	const char *devices = jv_string(jv_get(m, "devices"), jv_string(jv_get(m, "bluestore_bdev_devices"), ""));
	snprintf(o->devices, sizeof(o->devices), "%s", devices);
	if (node && node[0] == '/')
		snprintf(o->device, sizeof(o->device), "%s", node);
	else if (devices[0] && strspn(devices, "abcdefghijklmnopqrstuvwxyz0123456789-_") == strcspn(devices, ","))
		snprintf(o->device, sizeof(o->device), "/dev/%.*s", (int)strcspn(devices, ","), devices);
}

int ceph_addr_ip(const char *addr, char *buf, size_t len)
{
	buf[0] = '\0';
	const char *p = addr + (addr[0] == '[');
	if (!strncmp(p, "v2:", 3) || !strncmp(p, "v1:", 3) || !strncmp(p, "any:", 4))
		p += p[0] == 'a' ? 4 : 3;
	size_t n = strspn(p, "0123456789.");
	if (n == 0 || n >= len || n > 15 || p[n] != ':')
		return -EINVAL; /* not IPv4 (netcheck probes IPv4), or no port after it */
	snprintf(buf, len, "%.*s", (int)n, p);
	return 0;
}

int ceph_parse_osd_metadata(const char *json, struct ceph_osd *osds, size_t n)
{
	struct jv *v = ceph_parse_json(json);
	if (!v || v->type != JV_ARRAY) {
		jv_free(v);
		return -EINVAL;
	}
	int found = 0;
	for (size_t i = 0; i < v->count; i++) {
		const struct jv *m = jv_at(v, i);
		struct ceph_osd *o = osd_by_id(osds, n, jv_int(jv_get(m, "id"), -1));
		if (!o || o->known)
			continue;
		o->known = true;
		found++;
		snprintf(o->host, sizeof(o->host), "%s", jv_string(jv_get(m, "hostname"), ""));
		metadata_device(m, o);
		ceph_addr_ip(jv_string(jv_get(m, "front_addr"), ""), o->front_ip, sizeof(o->front_ip));
		ceph_addr_ip(jv_string(jv_get(m, "back_addr"), ""), o->back_ip, sizeof(o->back_ip));
		if (!o->device_class[0])
			snprintf(o->device_class, sizeof(o->device_class), "%s",
				 jv_string(jv_get(m, "bluestore_bdev_type"), ""));
	}
	jv_free(v);
	return found;
}

int ceph_parse_osd_tree(const char *json, struct ceph_osd *osds, size_t n)
{
	struct jv *v = ceph_parse_json(json);
	const struct jv *nodes = jv_get(v, "nodes");
	if (!nodes || nodes->type != JV_ARRAY) {
		jv_free(v);
		return -EINVAL;
	}
	bool *seen = xcalloc(n ? n : 1, sizeof(*seen));
	int found = 0;
	for (size_t i = 0; i < nodes->count; i++) {
		const struct jv *node = jv_at(nodes, i);
		const char *type = jv_string(jv_get(node, "type"), "");
		struct ceph_osd *o = strcmp(type, "osd") ? NULL : osd_by_id(osds, n, jv_int(jv_get(node, "id"), -1));
		if (!o || seen[o - osds])
			continue; /* an OSD listed twice counts once, as it is first listed */
		seen[o - osds] = true;
		found++;
		o->up = strcmp(jv_string(jv_get(node, "status"), ""), "up") == 0;
		o->in = jv_number(jv_get(node, "reweight"), 0) > 0;
		const char *klass = jv_string(jv_get(node, "device_class"), NULL);
		if (klass && klass[0])
			snprintf(o->device_class, sizeof(o->device_class), "%s", klass);
	}
	free(seen);
	jv_free(v);
	return found;
}

int ceph_parse_osd_perf(const char *json, const int *ids, size_t n, double *commit_ms, double *apply_ms)
{
	struct jv *v = ceph_parse_json(json);
	/* Pacific: {"osdstats": {"osd_perf_infos": [...]}}; older: {"osd_perf_infos": [...]}. */
	const struct jv *infos = jv_path(v, "osdstats.osd_perf_infos");
	if (!infos)
		infos = jv_get(v, "osd_perf_infos");
	if (!infos || infos->type != JV_ARRAY) {
		jv_free(v);
		return -EINVAL;
	}
	for (size_t k = 0; k < n; k++)
		commit_ms[k] = apply_ms[k] = -1;
	int found = 0;
	for (size_t i = 0; i < infos->count; i++) {
		const struct jv *info = jv_at(infos, i);
		int id = jv_int(jv_get(info, "id"), -1);
		const struct jv *stats = jv_get(info, "perf_stats");
		for (size_t k = 0; k < n && stats; k++) {
			if (ids[k] != id || commit_ms[k] >= 0)
				continue;
			/* The ns figures where given (the ms ones are rounded). */
			double c = jv_number(jv_get(stats, "commit_latency_ns"), -1);
			double a = jv_number(jv_get(stats, "apply_latency_ns"), -1);
			commit_ms[k] = c >= 0 ? c / 1e6 : jv_number(jv_get(stats, "commit_latency_ms"), -1);
			apply_ms[k] = a >= 0 ? a / 1e6 : jv_number(jv_get(stats, "apply_latency_ms"), -1);
			found += commit_ms[k] >= 0;
		}
	}
	jv_free(v);
	return found;
}

int ceph_parse_osd_bench(const char *json, struct ceph_bench *ret)
{
	struct jv *v = ceph_parse_json(json);
	*ret = (struct ceph_bench){ .bytes = jv_u64(jv_get(v, "bytes_written"), 0),
				    .block = jv_u64(jv_get(v, "blocksize"), 0),
				    .seconds = jv_number(jv_get(v, "elapsed_sec"), 0),
				    .bytes_per_s = jv_number(jv_get(v, "bytes_per_sec"), 0),
				    .iops = jv_number(jv_get(v, "iops"), 0) };
	jv_free(v);
	if (!(ret->bytes > 0 && ret->seconds > 0 && ret->bytes_per_s > 0)) {
		*ret = (struct ceph_bench){ 0 };
		return -EINVAL;
	}
	return 0;
}

/* ---- the tools ---- */

/* `ceph ARGS --format json` into OUT; a sentence in WHY on failure. */
static int call(const char *const *args, unsigned seconds, struct strbuf *out, char *why, size_t len)
{
	struct strbuf err = STRBUF_INIT;
	int r = ceph_json_within(args, seconds, out, &err);
	if (r < 0 && why)
		ceph_explain(r, err.buf, why, len);
	strbuf_release(&err);
	return r;
}

static int pool_osd_ids(const char *pool, int *ids, size_t max, char *why, size_t len)
{
	const char *args[] = { "pg", "ls-by-pool", pool, NULL };
	struct strbuf out = STRBUF_INIT;
	int r = call(args, 0, &out, why, len);
	if (r == 0 && (r = ceph_parse_pool_osds(out.buf, ids, max)) < 0)
		snprintf(why, len, "cannot read ceph pg ls-by-pool %s's output", pool);
	else if (r == 0)
		snprintf(why, len, "pool '%s' has no placement groups", pool);
	strbuf_release(&out);
	return r;
}

int ceph_pool_osds(const char *pool, struct ceph_osd **ret, char *why, size_t len)
{
	int ids[CEPH_OSDS_MAX];
	*ret = NULL;
	int n = pool_osd_ids(pool, ids, CEPH_OSDS_MAX, why, len);
	if (n <= 0)
		return n < 0 ? n : -ENODATA;
	struct ceph_osd *osds = xcalloc((size_t)n, sizeof(*osds));
	for (int i = 0; i < n; i++) {
		osds[i].id = ids[i];
		snprintf(osds[i].name, sizeof(osds[i].name), "osd.%d", ids[i]);
	}
	const char *tree[] = { "osd", "tree", NULL };
	const char *meta[] = { "osd", "metadata", NULL };
	struct strbuf out = STRBUF_INIT;
	int r = call(tree, 0, &out, why, len);
	if (r == 0 && ceph_parse_osd_tree(out.buf, osds, (size_t)n) < 0) {
		snprintf(why, len, "cannot read ceph osd tree's output");
		r = -EINVAL;
	}
	strbuf_reset(&out);
	if (r == 0 && (r = call(meta, 0, &out, why, len)) == 0 && ceph_parse_osd_metadata(out.buf, osds, (size_t)n) < 0) {
		snprintf(why, len, "cannot read ceph osd metadata's output");
		r = -EINVAL;
	}
	strbuf_release(&out);
	if (r < 0) {
		free(osds);
		return r;
	}
	*ret = osds;
	return n;
}

int ceph_osd_bench(int id, uint64_t bytes, uint64_t block, unsigned seconds, struct ceph_bench *ret, char *why,
		   size_t len)
{
	char who[24], b[24], s[24];
	snprintf(who, sizeof(who), "osd.%d", id);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)bytes);
	snprintf(s, sizeof(s), "%llu", (unsigned long long)block);
	const char *args[] = { "tell", who, "bench", b, s, NULL };
	struct strbuf out = STRBUF_INIT;
	int r = call(args, seconds, &out, why, len);
	if (r == -ETIMEDOUT)
		snprintf(why, len, "%s did not finish writing %s bytes within %u s", who, b, seconds);
	else if (r == 0 && ceph_parse_osd_bench(out.buf, ret) < 0) {
		snprintf(why, len, "cannot read ceph tell %s bench's output", who);
		r = -EINVAL;
	}
	strbuf_release(&out);
	return r;
}

int ceph_osd_perf(const int *ids, size_t n, double *commit_ms, double *apply_ms)
{
	const char *args[] = { "osd", "perf", NULL };
	struct strbuf out = STRBUF_INIT;
	int r = call(args, 0, &out, NULL, 0);
	if (r == 0 && ceph_parse_osd_perf(out.buf, ids, n, commit_ms, apply_ms) < 0)
		r = -EINVAL;
	strbuf_release(&out);
	return r;
}

/* ---- as a pool layout (readpooldisks, doctor) ---- */

#define CEPH_MON_PROBE_MS 1000

static void member_of(const struct ceph_osd *o, const char *hostname, struct pool_member *m)
{
	snprintf(m->name, sizeof(m->name), "%s", o->name);
	snprintf(m->path, sizeof(m->path), "%s", o->device);
	snprintf(m->vdev, sizeof(m->vdev), "%s", o->host[0] ? o->host : "?");
	snprintf(m->state, sizeof(m->state), "%s", o->up ? "up" : "down");
	if (!o->known)
		snprintf(m->not_read, sizeof(m->not_read), "ceph osd metadata does not describe %s", o->name);
	else if (!o->device[0])
		snprintf(m->not_read, sizeof(m->not_read), "ceph osd metadata names no device for %s", o->name);
	else if (!o->up)
		snprintf(m->not_read, sizeof(m->not_read), "%s is down", o->name);
	else if (strcmp(o->host, hostname) != 0)
		snprintf(m->host, sizeof(m->host), "%s", o->host);
}

int ceph_pool_layout(const char *pool, const char *hostname, struct pool_layout *ret, char *why, size_t len)
{
	if (!ceph_conf_present() || !ceph_valid_name(pool))
		return -ENOENT;
	/* A name that is no pool of another kind need not wait out the tools'
	 * time limit on a cluster whose monitors do not even take a connection. */
	if (!ceph_mons_may_answer(CEPH_MON_PROBE_MS, why, len))
		return -EHOSTDOWN;
	char names[64][CEPH_NAME_MAX];
	struct strbuf err = STRBUF_INIT;
	int n = ceph_pool_names(names, 64, &err);
	if (n < 0)
		ceph_explain(n, err.buf, why, len);
	strbuf_release(&err);
	if (n < 0)
		return n;
	bool found = false;
	for (int i = 0; i < n && !found; i++)
		found = strcmp(names[i], pool) == 0;
	if (!found)
		return -ENOENT;
	struct ceph_osd *osds;
	int count = ceph_pool_osds(pool, &osds, why, len);
	if (count < 0)
		return count;
	*ret = (struct pool_layout){ .count = (size_t)count };
	snprintf(ret->pool, sizeof(ret->pool), "%s", pool);
	snprintf(ret->fstype, sizeof(ret->fstype), "ceph");
	ret->members = xcalloc((size_t)count, sizeof(*ret->members));
	for (int i = 0; i < count; i++)
		member_of(&osds[i], hostname, &ret->members[i]);
	free(osds);
	return 0;
}
