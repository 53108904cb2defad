/* report/hosts.h: a fleet run's hosts as rows, from the fleet's stored
 * document alone (its hosts[], each with the status, reason and the
 * host's own document as it came back), for show, compare --hosts and
 * report. Pure: no store, no printing.
 *
 * A host's figure is the fleet's read rate for that host
 * (read_bw_bytes_per_s, what its outlier judgement used) or else the first
 * bandwidth measured in the host's own document with status ok (its test
 * named in figure_test); NAN when neither. Each figure is also given as a
 * percentage of the median of the hosts' figures.
 *
 * The base host of compare --hosts is the median host: the host whose
 * figure is nearest the median of all figures (the first listed on a tie;
 * with no figure at all, the first host with a document). The outlier is
 * the host whose figure is furthest from that median as a ratio
 * (|log(figure / median)|), needing at least three figures.
 */
#ifndef IOTRIAGE_REPORT_HOSTS_H
#define IOTRIAGE_REPORT_HOSTS_H

#include <stdbool.h>
#include <stddef.h>

#include "report/measure.h"

struct host_row {
	char *host;           /* as the fleet named it */
	char *hostname;       /* the host's own name (its identity), or "" */
	char *status, *reason; /* fleet status ("ok", "failed", ...); reason or NULL */
	char *run_id;         /* the host's run id, or "" without a document */
	char *command;        /* the host's command, or "" */
	double figure;        /* B/s, NAN when none */
	char *figure_test;    /* "read" for the fleet's read rate, else the test */
	double pct_of_median; /* NAN when no figure or no median */
	bool flagged;         /* the fleet's judgement named this host (confirmed) */
	const struct jv *document; /* the host's document within the fleet's, or NULL */
};

struct host_rows {
	struct host_row *r;
	size_t n;
	size_t n_figures;     /* rows with a figure */
	double median;        /* of the figures, NAN when none */
	size_t base, outlier; /* indexes; SIZE_MAX when none */
};

/* Whether D is a fleet run of hosts (iotriage fleet, not fleet --fio). */
bool run_doc_is_fleet(const struct run_doc *d);

/* The rows of the fleet run D (run_doc_is_fleet). Returns 0 or -EINVAL
 * when D holds no hosts[]. */
int host_rows_load(const struct run_doc *d, struct host_rows *ret);
void host_rows_release(struct host_rows *rows);
/* The row of HOST, or SIZE_MAX. */
size_t host_rows_find(const struct host_rows *rows, const char *host);

/* The host's document loaded as a run of its own (its host set to the
 * fleet's name for it). Returns 0, -ENOENT when the host has no document,
 * or run_doc_load's error with ERR. */
int host_row_run_doc(const struct host_row *row, struct run_doc *ret, char *err, size_t errlen);

/* Every host's document loaded as a run of its own, the row FIRST's first
 * (when it has one), then the others in the fleet's order; hosts without a
 * document are left out. *RET is malloc'd (run_doc_release each); returns
 * the count. */
size_t host_rows_run_docs(const struct host_rows *rows, size_t first, struct run_doc **ret);

/* RUNS[0..N) with each fleet run of hosts followed by its hosts' runs
 * (host_rows_run_docs), for report: the runs are moved into *RET
 * (malloc'd; free RUNS itself, not its runs). Returns the count. */
size_t host_runs_expand(struct run_doc *runs, size_t n, struct run_doc **ret);

#endif
