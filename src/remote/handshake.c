#include "remote/handshake.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/jsonread.h"

void handshake_local(struct host_identity *ret, int schema_version)
{
	memset(ret, 0, sizeof(*ret));
	snprintf(ret->version, sizeof(ret->version), "%s", IOTRIAGE_VERSION);
	ret->schema_version = schema_version;
	gethostname(ret->hostname, sizeof(ret->hostname) - 1);
	if (read_small_file("/etc/machine-id", ret->machine_id, sizeof(ret->machine_id)) < 0)
		ret->machine_id[0] = '\0';
	ret->machine_id[strcspn(ret->machine_id, "\r\n")] = '\0';
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(ret->machine, sizeof(ret->machine), "%s", u.machine);
}

void handshake_write(struct json *j, const struct host_identity *id)
{
	json_begin_object(j, NULL);
	json_string(j, "iotriage_version", id->version);
	json_int(j, "schema_version", id->schema_version);
	json_string(j, "hostname", id->hostname);
	json_string(j, "machine_id", id->machine_id);
	json_string(j, "machine", id->machine);
	json_end_object(j);
}

static int parse_plain(const char *text, struct host_identity *ret, char *why, size_t len)
{
	char version[32];
	if (sscanf(text, "iotriage %31s", version) != 1) {
		snprintf(why, len, "unexpected answer to 'iotriage --json --version': '%.*s'",
			 (int)strcspn(text, "\n"), text);
		return -EINVAL;
	}
	snprintf(ret->version, sizeof(ret->version), "%s", version);
	return 0;
}

int handshake_parse(const char *text, struct host_identity *ret, char *why, size_t len)
{
	memset(ret, 0, sizeof(*ret));
	const char *p = text + strspn(text, " \t\r\n");
	if (*p != '{')
		return parse_plain(p, ret, why, len);
	struct jv *doc;
	char err[128];
	if (jv_parse(p, strlen(p), &doc, err, sizeof(err)) < 0) {
		snprintf(why, len, "unreadable answer to 'iotriage --json --version': %s", err);
		return -EINVAL;
	}
	snprintf(ret->version, sizeof(ret->version), "%s", jv_string(jv_get(doc, "iotriage_version"), ""));
	/* Saturated, never cast: another host may send any number (fuzz_handshake found 2.1e16). */
	ret->schema_version = jv_int(jv_get(doc, "schema_version"), 0);
	snprintf(ret->hostname, sizeof(ret->hostname), "%s", jv_string(jv_get(doc, "hostname"), ""));
	snprintf(ret->machine_id, sizeof(ret->machine_id), "%s", jv_string(jv_get(doc, "machine_id"), ""));
	snprintf(ret->machine, sizeof(ret->machine), "%s", jv_string(jv_get(doc, "machine"), ""));
	jv_free(doc);
	if (!ret->version[0]) {
		snprintf(why, len, "the answer to 'iotriage --json --version' names no version");
		return -EINVAL;
	}
	return 0;
}

bool handshake_compatible(const struct host_identity *theirs, const struct host_identity *ours, char *why,
			  size_t len)
{
	if (theirs->schema_version == ours->schema_version)
		return true;
	if (theirs->schema_version == 0)
		snprintf(why, len,
			 "iotriage %s there is too old to take part in a fleet (it does not say its document "
			 "schema); install iotriage %s there",
			 theirs->version, ours->version);
	else
		snprintf(why, len,
			 "iotriage %s there writes documents of schema %d, this iotriage %s reads schema %d; "
			 "install iotriage %s there",
			 theirs->version, theirs->schema_version, ours->version, ours->schema_version, ours->version);
	return false;
}
