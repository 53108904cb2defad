/* remote/handshake.h: what a fleet asks each host before running anything
 * there, and what this machine answers when asked.
 *
 * `iotriage --json --version` prints one object:
 *   { "iotriage_version": "0.1.0", "schema_version": 1,
 *     "hostname": "node3", "machine_id": "5f1c...", "machine": "x86_64" }
 * the version, the schema of the documents its commands write, and the
 * host's identity (kernel host name, /etc/machine-id, uname machine), by
 * which the fleet's results are attributed and stored. An iotriage too old
 * to answer prints only "iotriage VERSION": handshake_parse() reads that
 * too, with schema_version 0, which no fleet accepts.
 */
#ifndef IOTRIAGE_REMOTE_HANDSHAKE_H
#define IOTRIAGE_REMOTE_HANDSHAKE_H

#include <stdbool.h>
#include <stddef.h>

#include "output/json.h"

struct host_identity {
	char version[32];     /* iotriage's version there */
	int schema_version;   /* of its documents; 0 when it did not say */
	char hostname[256];
	char machine_id[64];  /* "" when the host has no /etc/machine-id */
	char machine[32];     /* "x86_64" */
};

/* This machine's answer. */
void handshake_local(struct host_identity *ret, int schema_version);
void handshake_write(struct json *j, const struct host_identity *id);

/* Reads a host's answer. Returns 0, or -EINVAL with WHY when TEXT is
 * neither form. */
int handshake_parse(const char *text, struct host_identity *ret, char *why, size_t len);

/* Whether documents from a host that answered THEIRS can be run and read
 * here: the same document schema. WHY says what to install otherwise. */
bool handshake_compatible(const struct host_identity *theirs, const struct host_identity *ours, char *why,
			  size_t len);

#endif
