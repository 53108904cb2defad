/* load_runs DB DOCUMENT.json...: stores checked-in run documents in a fresh
 * results database, as the commands that made them would have, so that
 * show, compare and report can be tested on fixed documents (golden
 * output, tests/cli/test_golden.sh). Prints each stored run id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "basic/jsonread.h"
#include "basic/strbuf.h"
#include "store/store.h"

/* "2026-12-01T05:30:00Z" -> unix seconds; 0 when it does not parse. */
static long long iso_to_unix(const char *s)
{
	struct tm tm = { 0 };
	if (!s || !strptime(s, "%Y-%m-%dT%H:%M:%S", &tm))
		return 0;
	return (long long)timegm(&tm);
}

static int read_whole(const char *path, struct strbuf *out)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char chunk[65536];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		strbuf_add(out, chunk, n);
	int bad = ferror(f);
	fclose(f);
	return bad ? -1 : 0;
}

static int load_one(struct store *s, const char *path)
{
	struct strbuf text = STRBUF_INIT;
	struct jv *doc = NULL;
	char err[128];
	if (read_whole(path, &text) < 0 || jv_parse(text.buf, text.len, &doc, err, sizeof(err)) < 0) {
		fprintf(stderr, "load_runs: cannot read '%s'\n", path);
		strbuf_release(&text);
		return -1;
	}
	struct store_run run = {
		.id = jv_string(jv_get(doc, "run_id"), NULL),
		.command = jv_string(jv_get(doc, "command"), "?"),
		.argv = jv_string(jv_get(doc, "argv"), ""),
		.started_at = iso_to_unix(jv_string(jv_get(doc, "started_at"), NULL)),
		.finished_at = iso_to_unix(jv_string(jv_get(doc, "finished_at"), NULL)),
		.exit_status = (int)jv_number(jv_get(doc, "exit_status"), 0),
		.results_file = NULL,
		.document = text.buf,
	};
	int r = run.id ? store_add_run(s, &run) : -1;
	if (r < 0)
		fprintf(stderr, "load_runs: cannot store '%s': %s\n", path, store_errmsg(s));
	else
		puts(run.id);
	jv_free(doc);
	strbuf_release(&text);
	return r;
}

int main(int argc, char **argv)
{
	struct store *s;
	if (argc < 3) {
		fputs("usage: load_runs DB DOCUMENT.json...\n", stderr);
		return 2;
	}
	if (store_open(argv[1], &s) < 0) {
		fprintf(stderr, "load_runs: cannot open '%s'\n", argv[1]);
		return 1;
	}
	int status = 0;
	for (int i = 2; i < argc; i++)
		if (load_one(s, argv[i]) < 0)
			status = 1;
	store_close(s);
	return status;
}
