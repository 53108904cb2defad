/* pool/layout_model.c: the expected sequential throughput of a layout. */
#include "pool/layout_model.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool has_prefix_index(const char *s, const char *prefix, const char **rest)
{
	size_t n = strlen(prefix);
	if (strncmp(s, prefix, n) != 0)
		return false;
	*rest = s + n;
	return true;
}

/* "" or "-N": the rest of a vdev name after its type. */
static bool index_suffix(const char *rest)
{
	if (!*rest)
		return true;
	if (*rest != '-' || !rest[1])
		return false;
	for (rest++; *rest; rest++)
		if (*rest < '0' || *rest > '9')
			return false;
	return true;
}

int layout_zfs_vdev_kind(const char *vdev, const char *pool, enum layout_kind *ret,
			 unsigned *ret_parity)
{
	static const char *const support[] = { "logs", "cache", "spares", "special", "dedup" };
	const char *rest;
	*ret_parity = 0;
	if (pool && strcmp(vdev, pool) == 0) {
		*ret = LAYOUT_SINGLE;
		return 0;
	}
	for (size_t i = 0; i < sizeof(support) / sizeof(support[0]); i++)
		if (strcmp(vdev, support[i]) == 0) {
			*ret = LAYOUT_SUPPORT;
			return 0;
		}
	if (has_prefix_index(vdev, "mirror", &rest) && index_suffix(rest)) {
		*ret = LAYOUT_MIRROR;
		return 0;
	}
	unsigned dp, dd, dc, ds;
	int end = 0;
	if (sscanf(vdev, "draid%u:%ud:%uc:%us%n", &dp, &dd, &dc, &ds, &end) == 4 && index_suffix(vdev + end)) {
		*ret = LAYOUT_DRAID;
		*ret_parity = dp;
		return 0;
	}
	if (has_prefix_index(vdev, "raidz", &rest)) {
		unsigned p = 1;
		if (*rest >= '1' && *rest <= '3')
			p = (unsigned)(*rest++ - '0');
		if (!index_suffix(rest))
			return -EINVAL;
		*ret = LAYOUT_RAIDZ;
		*ret_parity = p;
		return 0;
	}
	return -EINVAL;
}

static void min_rates(const struct layout_rates *m, size_t n, struct layout_rates *ret)
{
	ret->read_bps = m[0].read_bps;
	ret->write_bps = m[0].write_bps;
	for (size_t i = 1; i < n; i++) {
		if (m[i].read_bps < ret->read_bps)
			ret->read_bps = m[i].read_bps;
		if (m[i].write_bps < ret->write_bps)
			ret->write_bps = m[i].write_bps;
	}
}

/* Multipliers of the slowest member's rate, for read and write. */
static int factors(enum layout_kind kind, unsigned parity, size_t n, double *rf, double *wf)
{
	double dn = (double)n;
	switch (kind) {
	case LAYOUT_SINGLE: *rf = 1, *wf = 1; return n == 1 ? 0 : -EINVAL;
	case LAYOUT_DUP: *rf = 1, *wf = 0.5; return 0;
	case LAYOUT_MIRROR: *rf = dn, *wf = 1; return 0; /* read: sum, see below */
	case LAYOUT_RAID1: *rf = 1, *wf = 1; return n >= 2 ? 0 : -EINVAL;
	case LAYOUT_RAID0: *rf = dn, *wf = dn; return 0;
	case LAYOUT_RAIDZ:
		if (parity < 1 || parity > 3 || n <= parity)
			return -EINVAL;
		*rf = dn; /* the parity column rotates: every member holds data */
		*wf = dn - parity;
		return 0;
	case LAYOUT_RAID10:
		if (n < 4 || n % 2)
			return -EINVAL;
		*rf = *wf = dn / 2;
		return 0;
	case LAYOUT_RAID5: *rf = *wf = dn - 1; return n >= 2 ? 0 : -EINVAL;
	case LAYOUT_RAID6: *rf = *wf = dn - 2; return n >= 3 ? 0 : -EINVAL;
	case LAYOUT_SUPPORT: break;
	case LAYOUT_DRAID: break; /* its geometry is more than a parity: layout_draid_expect */
	}
	return -EINVAL;
}

/* One stream from a ZFS mirror: the sides' sum, but no more than
 * LAYOUT_MIRROR_STREAM_SIDES sides' worth (the mean side's rate). */
static double mirror_stream_read(const struct layout_rates *m, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += m[i].read_bps;
	double stream = LAYOUT_MIRROR_STREAM_SIDES * sum / (double)n;
	return stream < sum ? stream : sum;
}

int layout_vdev_expect(enum layout_kind kind, unsigned parity, const struct layout_rates *m,
		       size_t n, struct layout_rates *ret)
{
	if (n == 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(m[i].read_bps > 0) || !(m[i].write_bps > 0))
			return -EINVAL;
	double rf, wf;
	int r = factors(kind, parity, n, &rf, &wf);
	if (r < 0)
		return r;
	struct layout_rates lo;
	min_rates(m, n, &lo);
	ret->read_bps = rf * lo.read_bps;
	ret->write_bps = wf * lo.write_bps;
	if (kind == LAYOUT_MIRROR)
		ret->read_bps = mirror_stream_read(m, n);
	return 0;
}

static const char *kind_name(enum layout_kind k)
{
	static const char *const names[] = { "single", "mirror", "raidz", "dup", "raid0",
					     "raid1", "raid10", "raid5", "raid6", "support", "draid" };
	return names[k];
}

static void add_basis(struct layout_expectation *e, enum layout_kind k, unsigned parity,
		      size_t n, const struct layout_rates *v)
{
	size_t len = strlen(e->basis);
	char kind[16];
	if (k == LAYOUT_RAIDZ || k == LAYOUT_DRAID)
		snprintf(kind, sizeof(kind), "%s%u", kind_name(k), parity);
	else
		snprintf(kind, sizeof(kind), "%s", kind_name(k));
	snprintf(e->basis + len, sizeof(e->basis) - len, "%s%s of %zu: read %.1f MB/s, write %.1f MB/s",
		 len ? " + " : "", kind, n, v->read_bps / 1e6, v->write_bps / 1e6);
}

int layout_draid_expect(const struct pool_vdev *v, const struct layout_rates *m, size_t n,
			struct layout_rates *ret)
{
	if (n == 0 || v->draid_data == 0 || v->draid_children <= v->draid_spares)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!(m[i].read_bps > 0) || !(m[i].write_bps > 0))
			return -EINVAL;
	struct layout_rates lo;
	min_rates(m, n, &lo);
	double carrying = (double)(v->draid_children - v->draid_spares);
	ret->read_bps = carrying * lo.read_bps;
	ret->write_bps = carrying * v->draid_data / (double)(v->draid_data + v->parity) * lo.write_bps;
	return 0;
}

/* The members of vdev VDEV (in layout order) that count into OUT. Returns how many. */
static size_t vdev_members(const struct pool_layout *l, const struct layout_rates *rates,
			   const char *vdev, struct layout_rates *out)
{
	size_t k = 0;
	for (size_t i = 0; i < l->count; i++)
		if (strcmp(l->members[i].vdev, vdev) == 0 && pool_layout_member_counts(l, i))
			out[k++] = rates[i];
	return k;
}

static const struct pool_vdev *find_vdev(const struct pool_layout *l, const char *name)
{
	for (size_t i = 0; i < l->nvdevs; i++)
		if (strcmp(l->vdevs[i].name, name) == 0)
			return &l->vdevs[i];
	return NULL;
}

static bool seen_before(const struct pool_layout *l, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (strcmp(l->members[j].vdev, l->members[i].vdev) == 0)
			return true;
	return false;
}

/* A plain disk striped into the pool: each one is its own vdev. */
static int add_vdev(struct layout_expectation *e, enum layout_kind k, unsigned parity,
		    const struct layout_rates *m, size_t n)
{
	struct layout_rates v;
	int r = layout_vdev_expect(k, parity, m, n, &v);
	if (r < 0)
		return r;
	e->read_bps += v.read_bps;
	e->write_bps += v.write_bps;
	e->data_vdevs++;
	add_basis(e, k, parity, n, &v);
	return 0;
}

static int add_draid(struct layout_expectation *e, const struct pool_vdev *vd, const struct layout_rates *m,
		     size_t n)
{
	struct layout_rates v;
	int r = vd ? layout_draid_expect(vd, m, n, &v) : -EINVAL;
	if (r < 0)
		return r;
	e->read_bps += v.read_bps;
	e->write_bps += v.write_bps;
	e->data_vdevs++;
	add_basis(e, LAYOUT_DRAID, vd->parity, n, &v);
	return 0;
}

int layout_expect_zfs(const struct pool_layout *l, const struct layout_rates *rates,
		      struct layout_expectation *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (!l || !l->count)
		return -EINVAL;
	struct layout_rates *m = calloc(l->count, sizeof(*m));
	if (!m)
		return -ENOMEM;
	int r = 0;
	for (size_t i = 0; i < l->count && r >= 0; i++) {
		enum layout_kind k;
		unsigned parity;
		r = layout_zfs_vdev_kind(l->members[i].vdev, l->pool, &k, &parity);
		if (r < 0 || k == LAYOUT_SUPPORT || l->members[i].klass != POOL_CLASS_DATA ||
		    !pool_layout_member_counts(l, i))
			continue;
		if (k == LAYOUT_SINGLE) {
			r = add_vdev(ret, k, 0, &rates[i], 1);
			continue;
		}
		if (seen_before(l, i))
			continue;
		size_t n = vdev_members(l, rates, l->members[i].vdev, m);
		if (k == LAYOUT_DRAID)
			r = add_draid(ret, find_vdev(l, l->members[i].vdev), m, n);
		else
			r = add_vdev(ret, k, parity, m, n);
	}
	free(m);
	if (r >= 0 && !ret->data_vdevs)
		r = -EINVAL;
	return r;
}

int layout_btrfs_profile_kind(const char *profile, enum layout_kind *ret)
{
	static const struct {
		const char *name;
		enum layout_kind kind;
	} table[] = {
		{ "single", LAYOUT_SINGLE }, { "dup", LAYOUT_DUP }, { "raid0", LAYOUT_RAID0 },
		{ "raid1", LAYOUT_RAID1 }, { "raid1c3", LAYOUT_RAID1 }, { "raid1c4", LAYOUT_RAID1 },
		{ "raid10", LAYOUT_RAID10 }, { "raid5", LAYOUT_RAID5 }, { "raid6", LAYOUT_RAID6 },
	};
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcasecmp(profile, table[i].name) == 0) {
			*ret = table[i].kind;
			return 0;
		}
	return -EINVAL;
}

int layout_expect_btrfs(const char *profile, const struct layout_rates *rates, size_t n,
			struct layout_expectation *ret)
{
	memset(ret, 0, sizeof(*ret));
	enum layout_kind k;
	int r = layout_btrfs_profile_kind(profile, &k);
	if (r < 0 || n == 0)
		return -EINVAL;
	if (k == LAYOUT_SINGLE) {
		/* one member at a time: the slowest, so the figure is a floor of the ceiling */
		struct layout_rates lo;
		min_rates(rates, n, &lo);
		return add_vdev(ret, k, 0, &lo, 1);
	}
	return add_vdev(ret, k, 0, rates, n);
}
