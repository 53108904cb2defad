#include "net/iperf3.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "basic/jsonread.h"

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

/* The report's object: iperf3 may print warnings before it. */
static const char *report_start(const char *text)
{
	const char *p = text;
	while (*p && *p != '{')
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
	return p;
}

static void read_sums(const struct jv *end, struct iperf3_result *ret)
{
	const struct jv *sent = jv_get(end, "sum_sent");
	const struct jv *recv = jv_get(end, "sum_received");
	ret->sent_bytes = jv_u64(jv_get(sent, "bytes"), 0);
	ret->sent_bps = jv_number(jv_get(sent, "bits_per_second"), 0);
	ret->retransmits = (int64_t)jv_number(jv_get(sent, "retransmits"), -1);
	ret->received_bytes = jv_u64(jv_get(recv, "bytes"), 0);
	ret->received_bps = jv_number(jv_get(recv, "bits_per_second"), 0);
	ret->seconds = jv_number(jv_get(recv, "seconds"), 0);
}

int iperf3_parse(const char *text, struct iperf3_result *ret, char *why, size_t len)
{
	memset(ret, 0, sizeof(*ret));
	ret->retransmits = -1;
	if (len)
		why[0] = '\0';
	const char *start = report_start(text);
	struct jv *doc;
	char err[128];
	if (!*start || jv_parse(start, strlen(start), &doc, err, sizeof(err)) < 0) {
		snprintf(why, len, "iperf3 wrote no JSON report%s%s", *start ? ": " : "", *start ? err : "");
		return -EINVAL;
	}
	int r = 0;
	const struct jv *conn = jv_path(doc, "start.connected");
	ret->streams = conn && conn->type == JV_ARRAY ? (unsigned)conn->count : 0;
	copy(ret->local_host, sizeof(ret->local_host), jv_string(jv_get(jv_at(conn, 0), "local_host"), ""));
	copy(ret->remote_host, sizeof(ret->remote_host), jv_string(jv_get(jv_at(conn, 0), "remote_host"), ""));
	copy(ret->version, sizeof(ret->version), jv_string(jv_path(doc, "start.version"), ""));
	const char *error = jv_string(jv_get(doc, "error"), NULL);
	if (error) {
		snprintf(why, len, "%s", error);
		r = -EIO;
	} else {
		read_sums(jv_get(doc, "end"), ret);
		if (ret->received_bytes == 0 || ret->seconds <= 0) {
			snprintf(why, len, "iperf3's report holds no received total (end.sum_received)");
			r = -EINVAL;
		}
	}
	jv_free(doc);
	return r;
}

bool iperf3_server_ready(const char *text)
{
	return strstr(text, "Server listening on") != NULL;
}
