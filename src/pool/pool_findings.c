/* pool/pool_findings.c: settings and state that cost performance. */
#include "pool/pool_findings.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static void human(double bytes, char *buf, size_t len)
{
	if (bytes >= 1048576 && fmod(bytes, 1048576) == 0)
		snprintf(buf, len, "%.0fM", bytes / 1048576);
	else if (bytes >= 1024 && fmod(bytes, 1024) == 0)
		snprintf(buf, len, "%.0fK", bytes / 1024);
	else
		snprintf(buf, len, "%.0f", bytes);
}

/* A block size against the workload's I/O size: a finding CODE on SUBJECT when they are
 * POOL_RECORDSIZE_FACTOR apart or more, its text "WHAT BLOCK is Nx below/above the workload's IO
 * i/o"; the sizes in A and B for the caller's fix. Returns the finding or NULL. */
static struct pool_finding *block_size_finding(struct pool_findings *out, const char *code, const char *subject,
					       double block, double io, char *a, char *b, size_t len)
{
	double factor = block > io ? block / io : io / block;
	if (factor < POOL_RECORDSIZE_FACTOR)
		return NULL;
	human(block, a, len);
	human(io, b, len);
	struct pool_finding *f = pool_findings_add(out, code, "finding", subject);
	snprintf(f->text, sizeof(f->text), "%s %s is %.0fx %s the workload's %s i/o", code, a, factor,
		 block < io ? "below" : "above", b);
	snprintf(f->evidence, sizeof(f->evidence), "%s=%.0f, io size=%.0f", code, block, io);
	return f;
}

static int recordsize(const struct pool_findings_input *in, const char *ds, struct pool_findings *out)
{
	const char *v = zfs_props_get(in->dataset_props, in->dataset, "recordsize");
	double rs;
	if (!v || !in->io_size)
		return 0;
	if (zfs_parse_number(v, &rs) < 0 || rs <= 0)
		return -EINVAL;
	char a[32], b[32];
	double io = (double)in->io_size;
	struct pool_finding *f = block_size_finding(out, "recordsize", ds, rs, io, a, b, sizeof(a));
	if (f)
		snprintf(f->fix, sizeof(f->fix), "zfs set recordsize=%s %s (applies to files written after)",
			 io >= 1048576 ? "1M" : b, ds);
	return 0;
}

int pool_findings_volblocksize(const char *zvol, uint64_t volblocksize, uint64_t io_size, struct pool_findings *out)
{
	if (!volblocksize || !io_size)
		return 0;
	char a[32], b[32];
	double vb = (double)volblocksize, io = (double)io_size;
	struct pool_finding *f = block_size_finding(out, "volblocksize", zvol, vb, io, a, b, sizeof(a));
	if (!f)
		return 0;
	if (vb > io) { /* the text said which way; what that costs a zvol */
		size_t n = strlen(f->text);
		snprintf(f->text + n, sizeof(f->text) - n, ": every smaller write reads and rewrites a whole block");
	}
	snprintf(f->fix, sizeof(f->fix), "a zvol's volblocksize is fixed when it is made: make a new zvol with "
		 "-o volblocksize=%s and copy the data over (zfs send keeps the old block size)", vb > io ? b : "128K");
	return 1;
}

static bool has_log(const struct pool_layout *l)
{
	for (size_t i = 0; l && i < l->count; i++)
		if (l->members[i].klass == POOL_CLASS_LOG || strcmp(l->members[i].vdev, "logs") == 0)
			return true; /* a mirrored log's vdev is "mirror-N": the class says it */
	return false;
}

/* lz4 (and zstd-fast) gives up early on incompressible data: nearly free.
 * "on" means lz4 wherever the pool has the lz4_compress feature (OpenZFS),
 * lzjb where it has not (zfs-fuse). */
static bool costly_compression(const struct pool_findings_input *in, const char *comp)
{
	if (!strcmp(comp, "off") || !strcmp(comp, "lz4") || !strncmp(comp, "zstd-fast", 9))
		return false;
	const char *lz4 = in->pool_props ? zfs_props_get(in->pool_props, in->pool, "feature@lz4_compress") : NULL;
	return !(strcmp(comp, "on") == 0 && lz4 && (!strcmp(lz4, "active") || !strcmp(lz4, "enabled")));
}

static void dataset_flags(const struct pool_findings_input *in, const char *ds, struct pool_findings *out)
{
	const char *sync = zfs_props_get(in->dataset_props, in->dataset, "sync");
	if (sync && strcmp(sync, "always") == 0 && in->layout && !has_log(in->layout)) {
		struct pool_finding *f = pool_findings_add(out, "sync-no-log", "finding", ds);
		snprintf(f->text, sizeof(f->text), "sync=always with no log device: every write waits for the pool's disks");
		snprintf(f->fix, sizeof(f->fix), "zfs set sync=standard %s, or add a fast log device (zpool add %s log DEVICE)",
			 ds, in->pool ? in->pool : "POOL");
		snprintf(f->evidence, sizeof(f->evidence), "sync=always, %zu members, none in logs", in->layout->count);
	}
	const char *dedup = zfs_props_get(in->dataset_props, in->dataset, "dedup");
	if (dedup && strcmp(dedup, "off") != 0) {
		struct pool_finding *f = pool_findings_add(out, "dedup", "finding", ds);
		snprintf(f->text, sizeof(f->text), "dedup is on: every write looks up the dedup table");
		snprintf(f->fix, sizeof(f->fix), "zfs set dedup=off %s (data already written stays deduplicated)", ds);
		snprintf(f->evidence, sizeof(f->evidence), "dedup=%s", dedup);
	}
	if (sync && strcmp(sync, "disabled") == 0) {
		struct pool_finding *f = pool_findings_add(out, "sync-disabled", "finding", ds);
		snprintf(f->text, sizeof(f->text), "sync=disabled: writes an application was told are on disk can be "
			 "lost in a crash or power cut (figures look faster than the pool is safely)");
		snprintf(f->fix, sizeof(f->fix), "zfs set sync=standard %s (add a fast log device if sync writes are slow)", ds);
		snprintf(f->evidence, sizeof(f->evidence), "sync=disabled");
	}
	const char *logbias = zfs_props_get(in->dataset_props, in->dataset, "logbias");
	if (logbias && strcmp(logbias, "throughput") == 0 && in->layout && has_log(in->layout)) {
		struct pool_finding *f = pool_findings_add(out, "logbias", "note", ds);
		snprintf(f->text, sizeof(f->text), "logbias=throughput: this dataset's sync writes skip the pool's log "
			 "device and go to the data vdevs, so the log does nothing for it");
		snprintf(f->fix, sizeof(f->fix), "zfs set logbias=latency %s where sync-write latency matters (a "
			 "database's log, NFS, VMs); keep throughput only for large streaming sync writes", ds);
		snprintf(f->evidence, sizeof(f->evidence), "logbias=throughput, a log vdev in the pool");
	}
	const char *comp = zfs_props_get(in->dataset_props, in->dataset, "compression");
	if (comp && costly_compression(in, comp)) {
		struct pool_finding *f = pool_findings_add(out, "compression", "note", ds);
		snprintf(f->text, sizeof(f->text), "compression=%s: costs cpu on every write and read", comp);
		snprintf(f->fix, sizeof(f->fix), "if the cpu is busy during the workload: zfs set compression=lz4 %s "
			 "(or off where lz4 is not available)", ds);
		snprintf(f->evidence, sizeof(f->evidence), "compression=%s", comp);
	}
}

/* "capacity" or "fragmentation" over LIMIT percent. */
static int percent_prop(const struct pool_findings_input *in, const char *name, double limit,
			bool strictly, struct pool_findings *out)
{
	const char *v = zfs_props_get(in->pool_props, NULL, name);
	double pct;
	if (!v || (strcmp(name, "fragmentation") == 0 && strcmp(v, "-") == 0))
		return 0;
	if (zfs_parse_number(v, &pct) < 0 || pct < 0 || pct > 100)
		return -EINVAL;
	if (strictly ? pct <= limit : pct < limit)
		return 0;
	const char *pool = in->pool ? in->pool : in->pool_props->items[0].object;
	bool cap = strcmp(name, "capacity") == 0;
	struct pool_finding *f = pool_findings_add(out, name, "finding", pool);
	snprintf(f->text, sizeof(f->text), cap ? "the pool is %.0f%% full: allocation slows above %.0f%%"
					       : "the pool's free space is %.0f%% fragmented (%.0f%% or more)",
		 pct, limit);
	snprintf(f->fix, sizeof(f->fix), cap ? "free space or add vdevs to bring it under %.0f%%"
					     : "rewrite the data (send/receive to a fresh pool) or add vdevs; keep it under %.0f%%",
		 limit);
	snprintf(f->evidence, sizeof(f->evidence), "%s=%s", name, v);
	return 0;
}

static int pool_ashift(const struct pool_findings_input *in, unsigned *ret)
{
	*ret = in->ashift;
	const char *v = in->pool_props ? zfs_props_get(in->pool_props, NULL, "ashift") : NULL;
	double a;
	if (*ret || !v)
		return 0;
	if (zfs_parse_number(v, &a) < 0 || a > 16 || a != floor(a))
		return -EINVAL;
	*ret = (unsigned)a;
	return 0;
}

static int ashift(const struct pool_findings_input *in, struct pool_findings *out)
{
	unsigned a;
	int r = pool_ashift(in, &a);
	if (r < 0 || !a || !in->layout || !in->phys_sector)
		return r;
	for (size_t i = 0; i < in->layout->count; i++) {
		unsigned sec = in->phys_sector[i];
		if (!sec || (1u << a) >= sec)
			continue;
		struct pool_finding *f = pool_findings_add(out, "ashift", "finding", in->layout->members[i].name);
		snprintf(f->text, sizeof(f->text), "ashift %u (%u-byte blocks) is below %s's %u-byte physical sector: every small write is a read-modify-write in the disk",
			 a, 1u << a, in->layout->members[i].name, sec);
		snprintf(f->fix, sizeof(f->fix), "ashift is fixed at creation: recreate the pool (or add vdevs) with -o ashift=%d",
			 (int)log2((double)sec));
		snprintf(f->evidence, sizeof(f->evidence), "ashift=%u, physical_block_size=%u", a, sec);
	}
	return 0;
}

static void health(const struct pool_findings_input *in, struct pool_findings *out)
{
	const struct zfs_health *h = in->health;
	if (h->scan != ZFS_SCAN_NONE) {
		const char *what = h->scan == ZFS_SCAN_SCRUB ? "scrub" : "resilver";
		struct pool_finding *f = pool_findings_add(out, "scan", "finding", h->pool);
		snprintf(f->text, sizeof(f->text), "a %s is running: it competes with the workload for every member", what);
		snprintf(f->fix, sizeof(f->fix), h->scan == ZFS_SCAN_SCRUB ? "measure after it ends, or stop it: zpool scrub -s %s"
									   : "measure after the resilver ends (zpool status %s)",
			 h->pool);
		snprintf(f->evidence, sizeof(f->evidence), "%s", h->scan_line);
	}
	for (size_t i = 0; i < h->bad_count; i++) {
		struct pool_finding *f = pool_findings_add(out, "vdev-state", "finding", h->bad[i].name);
		snprintf(f->text, sizeof(f->text), "%s is %s: the pool runs without its full redundancy and width",
			 h->bad[i].name, h->bad[i].state);
		snprintf(f->fix, sizeof(f->fix), "zpool status -v %s; bring it back (zpool online) or replace it (zpool replace)", h->pool);
		snprintf(f->evidence, sizeof(f->evidence), "state %s, pool state %s", h->bad[i].state, h->state);
	}
}

int pool_findings_zfs(const struct pool_findings_input *in, struct pool_findings *out)
{
	int r = 0;
	if (in->dataset_props) {
		const char *ds = in->dataset ? in->dataset
			: in->dataset_props->count ? in->dataset_props->items[0].object : "";
		r = recordsize(in, ds, out);
		if (r >= 0)
			dataset_flags(in, ds, out);
	}
	if (r >= 0 && in->pool_props && in->pool_props->count) {
		r = percent_prop(in, "capacity", POOL_CAPACITY_PCT, true, out);
		if (r >= 0)
			r = percent_prop(in, "fragmentation", POOL_FRAGMENTATION_PCT, false, out);
	}
	if (r >= 0)
		r = ashift(in, out);
	if (r >= 0 && in->health)
		health(in, out);
	if (r < 0)
		pool_findings_release(out);
	return r;
}

int pool_findings_btrfs(const char *fs, const struct btrfs_usage *u, struct pool_findings *out)
{
	if (!u->dev_count)
		return -EINVAL;
	if (!strcasecmp(u->data_profile, "single") || !strcasecmp(u->data_profile, "dup") || u->dev_count < 2)
		return 0;
	size_t lo = 0, hi = 0;
	for (size_t i = 1; i < u->dev_count; i++) {
		if (u->devs[i].size < u->devs[lo].size)
			lo = i;
		if (u->devs[i].size > u->devs[hi].size)
			hi = i;
	}
	if (!u->devs[lo].size)
		return -EINVAL;
	double factor = (double)u->devs[hi].size / (double)u->devs[lo].size;
	if (factor < POOL_BTRFS_SIZE_FACTOR)
		return 0;
	struct pool_finding *f = pool_findings_add(out, "btrfs-sizes", "finding", fs);
	snprintf(f->text, sizeof(f->text), "data profile %s over devices of very different sizes (%s is %.1fx %s): once the small ones fill, i/o concentrates on the large ones",
		 u->data_profile, u->devs[hi].path, factor, u->devs[lo].path);
	snprintf(f->fix, sizeof(f->fix), "use devices of similar size in one btrfs, or a profile that fits them (btrfs balance -dconvert=...)");
	snprintf(f->evidence, sizeof(f->evidence), "%s %llu bytes, %s %llu bytes", u->devs[hi].path,
		 (unsigned long long)u->devs[hi].size, u->devs[lo].path, (unsigned long long)u->devs[lo].size);
	return 0;
}
