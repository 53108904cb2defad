/* The RAM disks exported to another host and the export removed, written
 * once over the transport table (ramdisk/export.h); see
 * triage/ramdisk/ramdisk_export.h. */
#include "triage/ramdisk/ramdisk_export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/log.h"
#include "triage/ramdisk/ramdisk_batch.h"

#define STATE (ramdisk_default_paths.state)

int ramdisk_export_current(struct ramdisk_export *ret)
{
	return ramdisk_export_find(STATE, ret);
}

int ramdisk_export_refuse_second(char *reason, size_t len)
{
	struct ramdisk_export old;
	if (!ramdisk_export_current(&old))
		return 0;
	const struct export_transport_words *w = old.transport->words;
	snprintf(reason, len, "the RAM disks are exported already%s%s as '%s' on %s:%u; 'iotriage ramdisk unexport' "
		 "first", *w->qualifier ? " over " : "", *w->qualifier ? w->title : "", old.name, old.traddr, old.port);
	return -EEXIST;
}

int ramdisk_export_devices(char devices[][64], size_t *n, char *reason, size_t len)
{
	struct ramdisk_entry *live = NULL;
	size_t k = 0;
	ramdisk_scan_live(true, &live, &k);
	*n = 0;
	for (size_t i = 0; i < k && i < RAMDISK_MAX_COUNT; i++)
		snprintf(devices[(*n)++], 64, "%s", live[i].dev.path);
	free(live);
	if (k == 0) {
		snprintf(reason, len, "no RAM disks to export: create them first ('iotriage ramdisk create SIZE')");
		return -ENOENT;
	}
	return 0;
}

/* The checks that make nothing: the client, an export already, the
 * address (local, its port free where the transport can tell), RAM disks. */
static int export_check(const struct export_request *req, struct ramdisk_export *e, char *reason, size_t len)
{
	const struct export_transport *t = req->transport;
	int r = ramdisk_export_refuse_second(reason, len);
	if (r == 0)
		r = ramdisk_export_parse_addr(req->addr_arg, t->default_port, e->traddr, sizeof(e->traddr), &e->port,
					      reason, len);
	if (r == 0)
		r = ramdisk_export_check_local(e->traddr, reason, len);
	if (r == 0 && t->check_port)
		r = t->check_port(e->traddr, e->port, reason, len);
	if (r == 0)
		r = ramdisk_export_devices(e->devices, &e->n, reason, len);
	return r;
}

/* The client named, and acceptable to the transport. */
static int client_check(const struct export_request *req, char *reason, size_t len)
{
	const struct export_transport *t = req->transport;
	if (req->allow_any_host)
		return 0;
	if (!(req->client && *req->client)) {
		snprintf(reason, len, "name the client: %s, or --allow-any-host", t->words->client_hint);
		return -EINVAL;
	}
	return t->check_client ? t->check_client(req->client, reason, len) : 0;
}

int ramdisk_export_start(const struct export_request *req, struct ramdisk_export *ret, char *reason, size_t len)
{
	const struct export_transport *t = req->transport;
	struct ramdisk_export *e = ret;
	memset(e, 0, sizeof(*e));
	e->transport = t;
	int r = client_check(req, reason, len);
	if (r == 0)
		r = ramdisk_registry_claim(&ramdisk_default_paths, RAMDISK_CLAIM_WAIT_MS, reason, len);
	if (r == 0)
		r = export_check(req, e, reason, len);
	if (r == 0)
		r = t->ready(reason, len);
	if (r < 0)
		return r;
	t->names(req->run_id, e);
	e->allow_any_host = req->allow_any_host;
	if (!req->allow_any_host)
		snprintf(e->client, sizeof(e->client), "%s", req->client);
	r = t->make(t->root, STATE, e, reason, len);
	if (r < 0)
		return r;
	const struct export_transport_words *w = t->words;
	for (size_t i = 0; i < e->n; i++)
		log_msg(LOG_INFO, "RAMDISK: exported %s as %s %zu of '%s'", e->devices[i], w->unit_word, i + w->unit_base,
			e->name);
	char detail[96];
	t->detail(e, detail, sizeof(detail));
	log_msg(LOG_INFO, "RAMDISK: listening on %s:%u (%s, %s) for %s%s", e->traddr, e->port, w->title, detail,
		e->allow_any_host ? "any " : "", e->allow_any_host ? w->client_word : e->client);
	return 0;
}

/* Removes transport T's export, or what a killed run left of one: 1 when
 * there was an export, 0 when none. */
static int stop_one(const struct export_transport *t, char *reason, size_t len)
{
	struct ramdisk_export e;
	int r = ramdisk_export_load(t, STATE, &e);
	if (r == -ENOENT || (r == 0 && !e.complete)) {
		r = t->reap(t->root, STATE, reason, len);
		if (r > 0)
			log_msg(LOG_WARN, "RAMDISK: %s", reason);
		return r < 0 ? r : 0;
	}
	if (r < 0) {
		snprintf(reason, len, "cannot read the %sexport record in '%s': %s", t->words->qualifier, STATE,
			 strerror(-r));
		return r;
	}
	r = t->unmake(t->root, STATE, &e, reason, len);
	if (r < 0)
		return r;
	log_msg(LOG_INFO, "RAMDISK: removed the %sexport '%s' (%s:%u)", t->words->qualifier, e.name, e.traddr, e.port);
	return 1;
}

int ramdisk_export_stop(char *reason, size_t len)
{
	int r = ramdisk_registry_claim(&ramdisk_default_paths, RAMDISK_CLAIM_WAIT_MS, reason, len);
	if (r < 0)
		return r;
	int stopped = 0;
	for (size_t i = 0; ramdisk_transports[i]; i++) {
		r = stop_one(ramdisk_transports[i], reason, len);
		if (r < 0)
			return r;
		stopped |= r;
	}
	return stopped;
}
