/* cmd/read_report.c: the end of a read batch's run (see read_report.h). */
#include "cmd/read_report.h"

#include "triage/media/read_verdict.h"

int read_batch_store_run(struct store *s, const struct run_ctx *rc, void *arg)
{
	return read_batch_store(s, rc->id, rc->started, arg);
}

int read_batch_report(struct run_ctx *rc, struct json *doc, struct read_batch *b, size_t errors, size_t ok,
		      const struct shared_paths *shared, read_batch_json_fn extra, void *extra_arg)
{
	read_batch_conclude(b, rc->db_path);
	if (!rc->json)
		read_batch_present(b, stdout);
	int status = run_ctx_interrupted_status();
	if (!status)
		status = (errors || ok == 0) ? 1 : 0;
	read_batch_document(b, doc);
	if (shared)
		shared_paths_json(shared, doc);
	if (extra)
		extra(doc, extra_arg);
	return status;
}
