/* The RAM disks across the wire: export, the client step and the
 * comparison (see triage/ramdisk_export.h). */
#include "triage/ramdisk_export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/log.h"
#include "triage/ramdisk_batch.h"

#define STATE (ramdisk_default_paths.state)

/* nvmet and nvmet_tcp loaded, configfs mounted: 0 or -errno with WHY. */
static int nvmet_ready(char *why, size_t len)
{
	struct stat st;
	if (stat(RAMDISK_NVMET_ROOT, &st) == 0)
		return 0;
	const char *const mods[] = { "nvmet", "nvmet_tcp" };
	for (size_t i = 0; i < 2; i++) {
		int r = ramdisk_modprobe(mods[i], NULL, why, len);
		if (r < 0)
			return r;
	}
	if (stat(RAMDISK_NVMET_ROOT, &st) < 0 && mount("configfs", "/sys/kernel/config", "configfs", 0, NULL) < 0 &&
	    errno != EBUSY) {
		snprintf(why, len, "configfs is not mounted on /sys/kernel/config and cannot be: %s", strerror(errno));
		return -ENODEV;
	}
	if (stat(RAMDISK_NVMET_ROOT, &st) < 0) {
		snprintf(why, len, "no nvmet configfs tree at '%s' after loading nvmet", RAMDISK_NVMET_ROOT);
		return -ENODEV;
	}
	return 0;
}

int ramdisk_export_current(struct ramdisk_export *ret)
{
	return ramdisk_export_load(STATE, ret) == 0 && ret->complete ? 1 : 0;
}

int ramdisk_export_refuse_second(char *reason, size_t len)
{
	struct ramdisk_export old;
	struct ramdisk_lio_export lio;
	if (ramdisk_export_current(&old)) {
		snprintf(reason, len, "the RAM disks are exported already as '%s' on %s:%u; 'iotriage ramdisk unexport' "
			 "first", old.nqn, old.traddr, old.trsvcid);
		return -EEXIST;
	}
	if (ramdisk_lio_current(&lio)) {
		snprintf(reason, len, "the RAM disks are exported already over iSCSI as '%s' on %s:%u; 'iotriage ramdisk "
			 "unexport' first", lio.iqn, lio.traddr, lio.port);
		return -EEXIST;
	}
	return 0;
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

/* The checks that make nothing: an export already, an address, RAM disks. */
static int export_check(const struct export_request *req, struct ramdisk_export *e, char *reason, size_t len)
{
	int r = ramdisk_export_refuse_second(reason, len);
	if (r == 0)
		r = ramdisk_nvmet_parse_addr(req->addr_arg, e->traddr, sizeof(e->traddr), &e->trsvcid, reason, len);
	if (r == 0)
		r = ramdisk_nvmet_check_local(e->traddr, reason, len);
	if (r == 0)
		r = ramdisk_export_devices(e->devices, &e->n, reason, len);
	return r;
}

int ramdisk_export_start(const struct export_request *req, struct ramdisk_export *ret, char *reason, size_t len)
{
	struct ramdisk_export *e = ret;
	memset(e, 0, sizeof(*e));
	if (!req->allow_any_host && !(req->host_nqn && *req->host_nqn)) {
		snprintf(reason, len, "name the client: --host-nqn NQN (its /etc/nvme/hostnqn), or --allow-any-host");
		return -EINVAL;
	}
	int r = ramdisk_registry_claim(&ramdisk_default_paths, RAMDISK_CLAIM_WAIT_MS, reason, len);
	if (r == 0)
		r = export_check(req, e, reason, len);
	if (r == 0)
		r = nvmet_ready(reason, len);
	if (r < 0)
		return r;
	ramdisk_nvmet_names(req->run_id, e);
	e->allow_any_host = req->allow_any_host;
	if (!req->allow_any_host)
		snprintf(e->host_nqn, sizeof(e->host_nqn), "%s", req->host_nqn);
	r = ramdisk_nvmet_export(RAMDISK_NVMET_ROOT, STATE, e, reason, len);
	if (r < 0)
		return r;
	for (size_t i = 0; i < e->n; i++)
		log_msg(LOG_INFO, "RAMDISK: exported %s as namespace %zu of '%s'", e->devices[i], i + 1, e->nqn);
	log_msg(LOG_INFO, "RAMDISK: listening on %s:%u (NVMe/TCP, nvmet port %u) for %s", e->traddr, e->trsvcid,
		e->port_id, e->allow_any_host ? "any host" : e->host_nqn);
	return 0;
}

/* Removes the iSCSI export: 1 when there was one, 0 when none. */
static int lio_stop(char *reason, size_t len)
{
	struct ramdisk_lio_export e;
	int r = ramdisk_lio_load(STATE, &e);
	if (r == -ENOENT || (r == 0 && !e.complete)) {
		r = ramdisk_lio_reap(RAMDISK_LIO_ROOT, STATE, reason, len);
		if (r > 0)
			log_msg(LOG_WARN, "RAMDISK: %s", reason);
		return r < 0 ? r : 0;
	}
	if (r < 0) {
		snprintf(reason, len, "cannot read the iSCSI export record in '%s': %s", STATE, strerror(-r));
		return r;
	}
	r = ramdisk_lio_unexport(RAMDISK_LIO_ROOT, STATE, &e, reason, len);
	if (r < 0)
		return r;
	log_msg(LOG_INFO, "RAMDISK: removed the iSCSI export '%s' (%s:%u)", e.iqn, e.traddr, e.port);
	return 1;
}

int ramdisk_export_stop(char *reason, size_t len)
{
	struct ramdisk_export e;
	int r = ramdisk_registry_claim(&ramdisk_default_paths, RAMDISK_CLAIM_WAIT_MS, reason, len);
	if (r < 0)
		return r;
	int lio = lio_stop(reason, len);
	if (lio < 0)
		return lio;
	r = ramdisk_export_load(STATE, &e);
	if (r == -ENOENT) {
		r = ramdisk_nvmet_reap(RAMDISK_NVMET_ROOT, STATE, reason, len);
		if (r > 0)
			log_msg(LOG_WARN, "RAMDISK: %s", reason);
		return r < 0 ? r : lio;
	}
	if (r < 0) {
		snprintf(reason, len, "cannot read the export record in '%s': %s", STATE, strerror(-r));
		return r;
	}
	r = ramdisk_nvmet_unexport(RAMDISK_NVMET_ROOT, STATE, &e, reason, len);
	if (r < 0)
		return r;
	log_msg(LOG_INFO, "RAMDISK: removed the export '%s' (%s:%u)", e.nqn, e.traddr, e.trsvcid);
	return 1;
}
