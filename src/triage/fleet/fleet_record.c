/* A fleet run's results kept here: each host's document in a results file
 * of its own and in the database with the host's identity, and the
 * combined document's members. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/fsutil.h"
#include "basic/jsonread.h"
#include "basic/log.h"
#include "basic/strbuf.h"
#include "triage/fleet/fleet.h"

/* A host name as a file name part: anything but [A-Za-z0-9.-_] becomes '_'. */
static void file_part(const char *s, char *buf, size_t len)
{
	size_t i = 0;
	for (; s[i] && i + 1 < len; i++) {
		char c = s[i];
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
			    c == '-' || c == '_';
		buf[i] = keep ? c : '_';
	}
	buf[i] = '\0';
}

struct doc_head {
	char run_id[40], command[64];
	struct strbuf argv;
};

static void read_head(const char *document, struct doc_head *h)
{
	struct jv *doc;
	char err[128];
	*h = (struct doc_head){ .argv = STRBUF_INIT };
	if (jv_parse(document, strlen(document), &doc, err, sizeof(err)) < 0)
		return;
	snprintf(h->run_id, sizeof(h->run_id), "%s", jv_string(jv_get(doc, "run_id"), ""));
	snprintf(h->command, sizeof(h->command), "%s", jv_string(jv_get(doc, "command"), ""));
	strbuf_adds(&h->argv, jv_string(jv_get(doc, "argv"), ""));
	jv_free(doc);
}

int fleet_write_files(const char *results_dir, struct fleet_host *hosts, size_t n)
{
	int ret = 0;
	for (size_t i = 0; i < n; i++) {
		struct fleet_host *h = &hosts[i];
		if (!h->document)
			continue;
		struct doc_head head;
		char part[128];
		read_head(h->document, &head);
		file_part(h->name, part, sizeof(part));
		snprintf(h->results_file, sizeof(h->results_file), "%s/iotriage_%s_%s_%s.json", results_dir,
			 head.command[0] ? head.command : "unknown", head.run_id[0] ? head.run_id : "norunid", part);
		strbuf_release(&head.argv);
		int r = write_file_atomic(h->results_file, h->document, strlen(h->document), 0644);
		if (r < 0) {
			log_msg(LOG_ERR, "cannot write results file '%s': %s", h->results_file, strerror(-r));
			h->results_file[0] = '\0';
			ret = r;
		}
	}
	return ret;
}

int fleet_record(struct store *s, const char *fleet_run_id, struct fleet_host *hosts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct fleet_host *h = &hosts[i];
		struct doc_head head;
		if (!h->document)
			continue;
		read_head(h->document, &head);
		if (!head.run_id[0]) {
			strbuf_release(&head.argv);
			continue;
		}
		struct store_run run = {
			.id = head.run_id,
			.command = head.command,
			.argv = head.argv.buf,
			.started_at = h->started_at,
			.finished_at = h->finished_at,
			.exit_status = h->exit_status,
			.results_file = h->results_file[0] ? h->results_file : NULL,
			.document = h->document,
			.host = h->name,
			.host_hostname = h->identified ? h->id.hostname : NULL,
			.host_machine_id = h->identified ? h->id.machine_id : NULL,
			.fleet_run_id = fleet_run_id,
		};
		int r = store_add_host_run(s, &run);
		strbuf_release(&head.argv);
		if (r == -EEXIST) {
			log_msg(LOG_ERR, "cannot record the run of host '%s': run '%s' is already in the database as "
					 "another run",
				h->name, head.run_id);
			return r;
		}
		if (r < 0) {
			log_msg(LOG_ERR, "cannot record the run of host '%s': %s", h->name, store_errmsg(s));
			return r;
		}
	}
	return 0;
}

static void host_json(struct json *j, const struct fleet_host *h)
{
	json_begin_object(j, NULL);
	json_string(j, "host", h->name);
	if (h->identified) {
		json_begin_object(j, "identity");
		json_string(j, "hostname", h->id.hostname);
		json_string(j, "machine_id", h->id.machine_id);
		json_string(j, "machine", h->id.machine);
		json_string(j, "iotriage_version", h->id.version);
		json_int(j, "schema_version", h->id.schema_version);
		json_end_object(j);
	} else {
		json_null(j, "identity");
	}
	json_string(j, "status", fleet_status_name(h->status));
	json_string(j, "reason", h->reason[0] ? h->reason : NULL);
	json_int(j, "exit_status", h->exit_status);
	json_double(j, "seconds", h->seconds);
	if (h->figure > 0)
		json_double(j, "read_bw_bytes_per_s", h->figure);
	json_string(j, "results_file", h->results_file[0] ? h->results_file : NULL);
	struct jv *doc = NULL;
	char err[128];
	if (h->document && jv_parse(h->document, strlen(h->document), &doc, err, sizeof(err)) == 0)
		json_value(j, "document", doc);
	else
		json_null(j, "document");
	jv_free(doc);
	json_end_object(j);
}

static void judgement_json(struct json *j, const struct fleet_judgement *jd)
{
	json_begin_object(j, "outliers");
	json_bool(j, "judged", jd->judged);
	json_string(j, "reason", jd->judged ? NULL : jd->why_not);
	json_uint(j, "set_size", jd->set_size);
	json_double(j, "median_bw_bytes_per_s", jd->median_bw);
	json_double(j, "spread_bw_bytes_per_s", jd->spread_bw);
	json_begin_array(j, "hosts");
	for (size_t i = 0; i < jd->n_verdicts; i++) {
		const struct fleet_verdict *v = &jd->verdicts[i];
		json_begin_object(j, NULL);
		json_string(j, "host", v->host);
		json_string(j, "verdict", v->flag == OUTLIER_SLOW ? "slow" : "fast");
		json_bool(j, "confirmed", v->confirmed);
		json_double(j, "ratio", v->ratio);
		json_uint(j, "runs", v->runs);
		json_uint(j, "runs_out_of_line", v->runs_out);
		json_string(j, "sentence", v->sentence);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

void fleet_json(struct json *j, const struct fleet_plan *plan, const struct fleet_host *hosts, size_t n,
		const struct fleet_judgement *judgement)
{
	json_begin_object(j, "parameters");
	json_begin_array(j, "command");
	for (size_t i = 0; plan->command[i]; i++)
		json_string(j, NULL, plan->command[i]);
	json_end_array(j);
	json_string(j, "remote_iotriage", plan->remote_iotriage);
	json_uint(j, "parallel", plan->parallel);
	json_double(j, "time_limit_seconds", (double)plan->time_limit_ms / 1000.0);
	json_string(j, "ssh_config", plan->ssh.config_file);
	json_end_object(j);
	size_t ok = 0;
	json_begin_array(j, "hosts");
	for (size_t i = 0; i < n; i++) {
		host_json(j, &hosts[i]);
		ok += hosts[i].status == FLEET_OK;
	}
	json_end_array(j);
	if (judgement)
		judgement_json(j, judgement);
	json_begin_object(j, "summary");
	json_uint(j, "hosts", n);
	json_uint(j, "ok", ok);
	json_uint(j, "failed", n - ok);
	json_end_object(j);
}
