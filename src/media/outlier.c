#include "media/outlier.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct outlier_params outlier_default_params = {
	.slow_ratio = 0.75,
	.fast_ratio = 1.33,
	.z_limit = 3.5,
	.certain_slow = 0.5,
	.certain_fast = 2.0,
};

const struct outlier_params outlier_tail_params = {
	.slow_ratio = 0,
	.fast_ratio = 2.0,
	.z_limit = 3.5,
	.certain_slow = 0,
	.certain_fast = 4.0,
};

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double median_of(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof(*v), compare_doubles);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void outlier_group_key(const char *model, uint64_t size_bytes, char *buf, size_t len)
{
	double gb = (double)size_bytes / 1e9;
	double scale = gb > 0 ? pow(10, floor(log10(gb)) - 1) : 1;
	double rounded = gb > 0 ? round(gb / scale) * scale : 0;
	snprintf(buf, len, "%s|%.3g", model ? model : "", rounded);
}

enum outlier_flag outlier_classify(double bw, const struct outlier_finding *f, const struct outlier_params *p)
{
	if (f->set_size < OUTLIER_MIN_SET || f->peer_median <= 0)
		return OUTLIER_NO_PEERS;
	double ratio = bw / f->peer_median;
	bool spread_known = f->peer_spread > 0;
	double z = spread_known ? (bw - f->peer_median) / f->peer_spread : 0;
	if (ratio <= p->certain_slow || (ratio < p->slow_ratio && (!spread_known || z < -p->z_limit)))
		return OUTLIER_SLOW;
	if (ratio >= p->certain_fast || (ratio > p->fast_ratio && (!spread_known || z > p->z_limit)))
		return OUTLIER_FAST;
	return OUTLIER_NONE;
}

/* The set sample I is judged in (itself included): its group when big
 * enough, else every ok sample. */
static size_t collect_set(const struct outlier_sample *s, size_t n, size_t i, double *set, bool *ret_group)
{
	size_t k = 0;
	for (size_t j = 0; j < n; j++)
		if (s[j].ok && s[i].group && s[j].group && strcmp(s[i].group, s[j].group) == 0)
			set[k++] = s[j].bw;
	*ret_group = k >= OUTLIER_MIN_SET;
	if (*ret_group)
		return k;
	k = 0;
	for (size_t j = 0; j < n; j++)
		if (s[j].ok)
			set[k++] = s[j].bw;
	return k;
}

void outlier_analyze(const struct outlier_sample *s, size_t n, const struct outlier_params *p,
		     struct outlier_finding *out)
{
	double *peers = calloc(n ? n : 1, sizeof(*peers));
	double *dev = calloc(n ? n : 1, sizeof(*dev));
	for (size_t i = 0; i < n; i++) {
		out[i] = (struct outlier_finding){ .flag = OUTLIER_NONE };
		if (!s[i].ok || !peers || !dev)
			continue;
		bool group;
		size_t k = collect_set(s, n, i, peers, &group);
		out[i].set_size = k;
		out[i].peers_are_group = group;
		if (k < OUTLIER_MIN_SET) {
			out[i].flag = OUTLIER_NO_PEERS;
			continue;
		}
		double med = median_of(peers, k);
		for (size_t j = 0; j < k; j++)
			dev[j] = fabs(peers[j] - med);
		double mad = median_of(dev, k);
		out[i].peer_median = med;
		out[i].ratio = med > 0 ? s[i].bw / med : 0;
		/* 1.4826 * MAD estimates the standard deviation of normal noise. */
		out[i].peer_spread = 1.4826 * mad;
		out[i].robust_z = mad > 0 ? (s[i].bw - med) / out[i].peer_spread : 0;
		out[i].flag = outlier_classify(s[i].bw, &out[i], p);
	}
	free(peers);
	free(dev);
}
