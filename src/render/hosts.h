/* render/hosts.h: a fleet run's hosts (report/hosts.h) on the terminal
 * and in compare's document: one row per host with its status, run, figure,
 * share of the median and a bar; the median host and the outlier host. */
#ifndef IOTRIAGE_RENDER_HOSTS_H
#define IOTRIAGE_RENDER_HOSTS_H

#include <stddef.h>
#include <stdio.h>

#include "output/json.h"
#include "report/hosts.h"

/* "host h4 is the outlier: 25% of the median of 4 hosts (median host h2)",
 * or why there is none. */
void hosts_outlier_sentence(const struct host_rows *rows, char *buf, size_t len);
/* The table, bars of each host's figure against the largest, and the
 * outlier sentence. */
void hosts_print(const struct host_rows *rows, FILE *out);
/* "hosts": [...], "median_host", "outlier_host" and "outlier" in J. */
void hosts_json(struct json *j, const struct host_rows *rows);

#endif
