/* Unit tests for report/hosts.c: a fleet run's hosts as rows (figures, the
 * median, the median host and the outlier host), one host's document as a
 * run of its own, and report's expansion of a fleet run into its hosts. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "report/hosts.h"
#include "tap.h"

/* A readdisk document as a host sends it back, reading BW B/s. */
static void host_doc(struct strbuf *sb, const char *run_id, const char *hostname, double bw)
{
	strbuf_addf(sb, "{\"schema_version\":1,\"command\":\"readdisk\",\"run_id\":\"%s\",\"host\":\"%s\","
			"\"started_at\":\"2026-12-01T00:00:00Z\",\"argv\":\"iotriage readdisk /d\",\"exit_status\":0,"
			"\"parameters\":{\"bs_bytes\":1048576},\"devices\":[{\"path\":\"/d\",\"status\":\"ok\","
			"\"bw_bytes_per_s\":%.0f}]}",
		    run_id, hostname, bw);
}

/* A fleet document: hosts a-d ok at the rates given (d flagged when slow),
 * e unreachable. READ_BW: whether the fleet gave each host's read rate. */
static char *fleet_doc(const double *bw, size_t n, bool read_bw, bool flag_d)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "{\"schema_version\":1,\"command\":\"fleet\",\"run_id\":\"f1f1f1f1f1f1f1f1\",\"host\":\"here\","
			 "\"started_at\":\"2026-12-01T00:00:00Z\",\"argv\":\"iotriage fleet a,b -- readdisk /d\","
			 "\"exit_status\":1,\"hosts\":[");
	for (size_t i = 0; i < n; i++) {
		char name[2] = { (char)('a' + i), 0 }, id[20], hn[16];
		snprintf(id, sizeof(id), "%c000000000000000", 'a' + (int)i);
		snprintf(hn, sizeof(hn), "fleet-%s", name);
		strbuf_addf(&sb, "{\"host\":\"%s\",\"identity\":{\"hostname\":\"%s\"},\"status\":\"ok\",\"reason\":null,",
			    name, hn);
		if (read_bw)
			strbuf_addf(&sb, "\"read_bw_bytes_per_s\":%.0f,", bw[i]);
		strbuf_adds(&sb, "\"document\":");
		host_doc(&sb, id, hn, bw[i]);
		strbuf_adds(&sb, "},");
	}
	strbuf_adds(&sb, "{\"host\":\"e\",\"identity\":null,\"status\":\"unreachable\",\"reason\":\"Connection refused\","
			 "\"document\":null}]");
	if (flag_d)
		strbuf_adds(&sb, ",\"outliers\":{\"hosts\":[{\"host\":\"d\",\"verdict\":\"slow\",\"confirmed\":true}]}");
	strbuf_adds(&sb, "}");
	return strbuf_detach(&sb);
}

static void load(const char *text, struct run_doc *d)
{
	char err[128];
	if (run_doc_load(text, strlen(text), d, err, sizeof(err)) < 0)
		abort();
}

static void test_rows(void)
{
	const double bw[] = { 40e6, 42e6, 41e6, 10e6 };
	char *text = fleet_doc(bw, 4, true, true);
	struct run_doc d;
	struct host_rows rows;
	load(text, &d);
	ok(run_doc_is_fleet(&d), "a fleet document of hosts is a fleet run");
	ok(host_rows_load(&d, &rows) == 0 && rows.n == 5, "one row per host, the unreachable one too");
	ok(rows.n_figures == 4, "four hosts with a figure");
	ok(fabs(rows.median - 40.5e6) < 1, "the median of four figures is the mean of the middle two");
	ok(rows.base == 0, "the median host is the one nearest the median (a at 40 MB/s, tie with c broken by order)");
	ok(rows.outlier == 3, "the outlier host is d, furthest from the median");
	ok(fabs(rows.r[3].pct_of_median - 100.0 * 10 / 40.5) < 0.01, "d's share of the median");
	ok(rows.r[3].flagged && !rows.r[0].flagged, "only d was flagged by the fleet's judgement");
	ok(strcmp(rows.r[0].figure_test, "read") == 0, "the figure is the fleet's read rate when it gave one");
	ok(strcmp(rows.r[1].run_id, "b000000000000000") == 0 && strcmp(rows.r[1].hostname, "fleet-b") == 0,
	   "a row carries the host's run id and host name");
	ok(isnan(rows.r[4].figure) && isnan(rows.r[4].pct_of_median) && !rows.r[4].document &&
		   strcmp(rows.r[4].status, "unreachable") == 0 && strcmp(rows.r[4].reason, "Connection refused") == 0,
	   "the unreachable host: its status and reason, no figure, no document");
	ok(host_rows_find(&rows, "c") == 2 && host_rows_find(&rows, "z") == SIZE_MAX, "hosts are found by name");

	struct run_doc hd;
	char err[128];
	ok(host_row_run_doc(&rows.r[1], &hd, err, sizeof(err)) == 0, "b's document loads as a run of its own");
	ok(strcmp(hd.id, "b000000000000000") == 0 && strcmp(hd.host, "b") == 0 && hd.n == 1 &&
		   fabs(hd.m[0].value - 42e6) < 1,
	   "with its run id, the fleet's name for its host, and its figure");
	run_doc_release(&hd);
	ok(host_row_run_doc(&rows.r[4], &hd, err, sizeof(err)) == -ENOENT, "the unreachable host has no document");

	struct run_doc *docs = NULL;
	size_t n = host_rows_run_docs(&rows, 3, &docs);
	ok(n == 4 && strcmp(docs[0].host, "d") == 0 && strcmp(docs[1].host, "a") == 0 && strcmp(docs[3].host, "c") == 0,
	   "the hosts' runs, the base first, the others in order, none for the unreachable host");
	for (size_t i = 0; i < n; i++)
		run_doc_release(&docs[i]);
	free(docs);
	host_rows_release(&rows);
	run_doc_release(&d);
	free(text);
}

static void test_document_figures(void)
{
	/* No read rate from the fleet: each host's own first ok bandwidth. */
	const double bw[] = { 30e6, 10e6, 31e6 };
	char *text = fleet_doc(bw, 3, false, false);
	struct run_doc d;
	struct host_rows rows;
	load(text, &d);
	host_rows_load(&d, &rows);
	ok(rows.n_figures == 3 && fabs(rows.r[1].figure - 10e6) < 1, "figures from the hosts' own documents");
	ok(strncmp(rows.r[1].figure_test, "readdisk", 8) == 0, "named by their test");
	ok(rows.base == 0 && rows.outlier == 1, "median host a, outlier b");
	ok(!rows.r[1].flagged, "not flagged: the fleet judged nothing");
	host_rows_release(&rows);
	run_doc_release(&d);
	free(text);

	/* Two figures: a median host, but no outlier can be named. */
	text = fleet_doc(bw, 2, true, false);
	load(text, &d);
	host_rows_load(&d, &rows);
	ok(rows.base != SIZE_MAX && rows.outlier == SIZE_MAX, "two hosts: a base, no outlier");
	host_rows_release(&rows);
	run_doc_release(&d);
	free(text);
}

static void test_expand_and_not_fleet(void)
{
	const double bw[] = { 30e6, 10e6, 31e6 };
	char *text = fleet_doc(bw, 3, true, false);
	struct strbuf other = STRBUF_INIT;
	host_doc(&other, "9999000000000000", "here", 5e6);
	struct run_doc *runs = calloc(2, sizeof(*runs));
	load(text, &runs[0]);
	load(other.buf, &runs[1]);
	ok(!run_doc_is_fleet(&runs[1]), "a readdisk run is no fleet run");
	struct host_rows rows;
	ok(host_rows_load(&runs[1], &rows) == -EINVAL, "and has no host rows");
	struct run_doc *all = NULL;
	size_t n = host_runs_expand(runs, 2, &all);
	free(runs);
	ok(n == 5, "report: the fleet run, its three hosts' runs, the other run");
	ok(strcmp(all[0].command, "fleet") == 0 && strcmp(all[1].host, "a") == 0 && strcmp(all[3].host, "c") == 0 &&
		   strcmp(all[4].id, "9999000000000000") == 0,
	   "each host's run right after its fleet run, under its host");
	for (size_t i = 0; i < n; i++)
		run_doc_release(&all[i]);
	free(all);
	strbuf_release(&other);
	free(text);

	struct run_doc d;
	load("{\"command\":\"fleet\",\"run_id\":\"x\",\"clients\":[],\"hosts\":[]}", &d);
	ok(!run_doc_is_fleet(&d), "fleet --fio (clients[]) is not a fleet run of hosts");
	run_doc_release(&d);
}

int main(void)
{
	test_rows();
	test_document_figures();
	test_expand_and_not_fleet();
	return tap_done();
}
