/* Step 3 across the wire over iSCSI: the RAM disks exported through LIO
 * (ramdisk/lio.c) and the client's half through open-iscsi (iscsiadm and
 * a running iscsid). See triage/ramdisk_export.h. */
#include "triage/ramdisk_export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/log.h"
#include "basic/spawn.h"
#include "basic/strbuf.h"
#include "triage/ramdisk_batch.h"

#define STATE (ramdisk_default_paths.state)

/* LIO's modules loaded, configfs mounted, the iscsi fabric registered: 0
 * or -ENODEV with WHY (nothing is made when LIO is absent). */
static int lio_ready(char *why, size_t len)
{
	const char *const mods[] = { "target_core_mod", "target_core_iblock", "iscsi_target_mod" };
	char iscsi[] = RAMDISK_LIO_ROOT "/iscsi", kwhy[300];
	struct stat st;
	if (stat(iscsi, &st) == 0)
		return 0;
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		if (ramdisk_modprobe(mods[i], NULL, kwhy, sizeof(kwhy)) < 0) {
			snprintf(why, len, "LIO, the kernel's iSCSI target, is not available on this host: %s", kwhy);
			return -ENODEV;
		}
	}
	if (stat(RAMDISK_LIO_ROOT, &st) < 0 && mount("configfs", "/sys/kernel/config", "configfs", 0, NULL) < 0 &&
	    errno != EBUSY) {
		snprintf(why, len, "configfs is not mounted on /sys/kernel/config and cannot be: %s", strerror(errno));
		return -ENODEV;
	}
	/* the fabric's directory registers it (and is LIO's, not ours: it stays) */
	if (stat(iscsi, &st) < 0 && mkdir(iscsi, 0755) < 0 && errno != EEXIST) {
		snprintf(why, len, "LIO has no iSCSI fabric ('%s': %s)", iscsi, strerror(errno));
		return -ENODEV;
	}
	return 0;
}

int ramdisk_lio_current(struct ramdisk_lio_export *ret)
{
	return ramdisk_lio_load(STATE, ret) == 0 && ret->complete ? 1 : 0;
}

/* ADDR[:PORT] with the iSCSI port by default. */
static int parse_portal(const char *arg, char *addr, size_t addr_len, unsigned *port, char *why, size_t len)
{
	int r = ramdisk_nvmet_parse_addr(arg, addr, addr_len, port, why, len);
	if (r == 0 && !strchr(arg, ':'))
		*port = RAMDISK_LIO_PORT;
	return r;
}

/* The checks that make nothing: the initiator, an export already, the
 * address, RAM disks. */
static int iscsi_check(const struct export_request *req, struct ramdisk_lio_export *e, char *reason, size_t len)
{
	if (!req->allow_any_host && !(req->initiator && *req->initiator)) {
		snprintf(reason, len, "name the client: --initiator IQN (its /etc/iscsi/initiatorname.iscsi), or "
			 "--allow-any-host");
		return -EINVAL;
	}
	if (!req->allow_any_host && ramdisk_lio_check_name(req->initiator, reason, len) < 0)
		return -EINVAL;
	int r = ramdisk_export_refuse_second(reason, len);
	if (r == 0)
		r = parse_portal(req->addr_arg, e->traddr, sizeof(e->traddr), &e->port, reason, len);
	if (r == 0)
		r = ramdisk_nvmet_check_local(e->traddr, reason, len);
	if (r == 0)
		r = ramdisk_lio_port_free(e->traddr, e->port, reason, len);
	if (r == 0)
		r = ramdisk_export_devices(e->devices, &e->n, reason, len);
	return r;
}

int ramdisk_iscsi_export_start(const struct export_request *req, struct ramdisk_lio_export *ret, char *reason,
			       size_t len)
{
	struct ramdisk_lio_export *e = ret;
	memset(e, 0, sizeof(*e));
	int r = ramdisk_registry_claim(&ramdisk_default_paths, RAMDISK_CLAIM_WAIT_MS, reason, len);
	if (r == 0)
		r = iscsi_check(req, e, reason, len);
	if (r == 0)
		r = lio_ready(reason, len);
	if (r < 0)
		return r;
	ramdisk_lio_names(req->run_id, e);
	e->allow_any_host = req->allow_any_host;
	if (!req->allow_any_host)
		snprintf(e->initiator, sizeof(e->initiator), "%s", req->initiator);
	r = ramdisk_lio_export(RAMDISK_LIO_ROOT, STATE, e, reason, len);
	if (r < 0)
		return r;
	for (size_t i = 0; i < e->n; i++)
		log_msg(LOG_INFO, "RAMDISK: exported %s as LUN %zu of '%s'", e->devices[i], i, e->iqn);
	log_msg(LOG_INFO, "RAMDISK: listening on %s:%u (iSCSI, LIO) for %s", e->traddr, e->port,
		e->allow_any_host ? "any initiator" : e->initiator);
	return 0;
}

/* iscsiadm ARGS...; 0, or -errno with WHY naming the step. */
static int iscsiadm(const char *const *args, const char *step, char *why, size_t len)
{
	const char *argv[16] = { "iscsiadm" };
	size_t n = 1;
	for (; args[n - 1] && n < 15; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	struct strbuf err = STRBUF_INIT;
	int r = spawn_check(argv, 60000, NULL, &err);
	if (r < 0)
		snprintf(why, len, "%s: %s%s", step, err.buf ? err.buf : "",
			 r == -ENOENT ? " (install open-iscsi on the client)" : "");
	strbuf_release(&err);
	return r;
}

/* Logs out of IQN at PORTAL and deletes its node record: what login made,
 * or what a killed run left. Quiet when there is nothing. */
static void logout_all(const char *iqn, const char *portal)
{
	char why[400];
	if (ramdisk_iscsi_sessions("/sys", iqn) > 0) {
		const char *out[] = { "-m", "node", "-T", iqn, "-p", portal, "--logout", NULL };
		if (iscsiadm(out, "iscsiadm --logout failed", why, sizeof(why)) < 0)
			log_msg(LOG_ERR, "RAMDISK: %s", why);
		else
			log_msg(LOG_INFO, "RAMDISK: logged out of '%s' at %s", iqn, portal);
	}
	const char *del[] = { "-m", "node", "-o", "delete", "-T", iqn, "-p", portal, NULL };
	if (iscsiadm(del, "iscsiadm -o delete failed", why, sizeof(why)) == 0)
		log_msg(LOG_INFO, "RAMDISK: deleted the node record of '%s' at %s", iqn, portal);
}

/* Discovery (the target must be offered at PORTAL, nothing stored), then a
 * node record for IQN alone and the login. */
static int login(const char *iqn, const char *portal, char *why, size_t len)
{
	const char *disc[] = { "-m", "discovery", "-t", "sendtargets", "-p", portal, "-o", "nonpersistent", NULL };
	const char *add[] = { "-m", "node", "-o", "new", "-T", iqn, "-p", portal, NULL };
	const char *in[] = { "-m", "node", "-T", iqn, "-p", portal, "--login", NULL };
	int r = iscsiadm(disc, "iSCSI discovery failed", why, len);
	if (r == 0)
		r = iscsiadm(add, "cannot make the node record", why, len);
	if (r == 0)
		r = iscsiadm(in, "iSCSI login failed", why, len);
	return r;
}

int ramdisk_iscsi_client(const char *addr_arg, const char *iqn, uint64_t runtime_ns, struct wire_side *ret,
			 char *why, size_t len)
{
	char addr[64], portal[96], kname[64];
	unsigned port;
	int r = parse_portal(addr_arg, addr, sizeof(addr), &port, why, len);
	if (r < 0)
		return r;
	if (!ramdisk_lio_iqn_ours(iqn) || ramdisk_lio_check_name(iqn, why, len) < 0) {
		snprintf(why, len, "'%s' is not an IQN iotriage exports (" RAMDISK_LIO_IQN_PREFIX "...)", iqn);
		return -EINVAL;
	}
	snprintf(portal, sizeof(portal), "%s:%u", addr, port);
	uint64_t rtt = ramdisk_wire_rtt(addr, port);
	struct link_rate link;
	ramdisk_wire_link(addr, true, &link);
	logout_all(iqn, portal);
	r = login(iqn, portal, why, len);
	if (r == 0) {
		log_msg(LOG_INFO, "RAMDISK: logged in to '%s' at %s", iqn, portal);
		r = ramdisk_iscsi_find("/sys", iqn, 10000, kname, sizeof(kname));
		if (r < 0)
			snprintf(why, len, "no block device for LUN 0 of '%s' appeared within 10 s", iqn);
	}
	if (r == 0) {
		char path[96];
		snprintf(path, sizeof(path), "/dev/%s", kname);
		log_msg(LOG_INFO, "RAMDISK: LUN 0 of '%s' is %s", iqn, path);
		if (ramdisk_wait_node(&ramdisk_default_paths, kname, 5000) < 0) {
			snprintf(why, len, "no device node '%s' appeared", path);
			r = -ENOENT;
		} else {
			r = ramdisk_wire_measure(path, false, runtime_ns, ret, why, len);
			ret->rtt_ns = rtt;
			ret->link = link;
		}
	}
	logout_all(iqn, portal);
	return r;
}
