/* triage/ramdisk_export.h: step 3 across the wire. The server side exports
 * the RAM disks iotriage made over NVMe/TCP (ramdisk/nvmet.c) and removes
 * the export; the client side (run on the client host: through `ssh HOST`
 * in a deployment, `ip netns exec NS` in the VM test) connects through the
 * kernel's /dev/nvme-fabrics, finds the namespace's block device by its
 * subsystem NQN and nsid, reads it and disconnects, also when interrupted.
 * The comparison runs the same 4 KiB QD1 random read locally and through
 * the client, and costs the difference. Every step is logged; nothing is
 * printed. */
#ifndef IOTRIAGE_TRIAGE_RAMDISK_EXPORT_H
#define IOTRIAGE_TRIAGE_RAMDISK_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ramdisk/lio.h"
#include "ramdisk/ramdisk.h"

struct export_request {
	const char *addr_arg;    /* "ADDR[:PORT]" */
	const char *host_nqn;    /* NVMe/TCP: the one client allowed, or NULL */
	const char *initiator;   /* iSCSI: the one initiator (IQN) allowed, or NULL */
	bool allow_any_host;     /* explicit: any host that reaches the port */
	const char *run_id;
};

/* Exports every live RAM disk (and nothing else). Refuses (nothing made)
 * without RAM disks, with an address that is not local, while an export
 * exists. 0 with *RET, or -errno with REASON for the user. */
int ramdisk_export_start(const struct export_request *req, struct ramdisk_export *ret, char *reason, size_t len);

/* Refuses (-EEXIST with REASON naming it) while an export of either kind
 * exists; the RAM disks to export into DEVICES (-ENOENT when none). */
int ramdisk_export_refuse_second(char *reason, size_t len);
int ramdisk_export_devices(char devices[][64], size_t *n, char *reason, size_t len);

/* iSCSI (triage/ramdisk_iscsi.c): the same refusals, then LIO loaded
 * (-ENODEV with REASON when the kernel has no LIO; nothing made), one
 * target for REQ->initiator or any initiator. 0 with *RET or -errno. */
int ramdisk_iscsi_export_start(const struct export_request *req, struct ramdisk_lio_export *ret, char *reason,
			       size_t len);
/* The complete iSCSI export now: 1 with *RET, 0 when none. */
int ramdisk_lio_current(struct ramdisk_lio_export *ret);

/* Removes the export (either kind). 1 when there was one, 0 when none, -errno (REASON). */
int ramdisk_export_stop(char *reason, size_t len);

/* The complete export now: 1 with *RET, 0 when none. */
int ramdisk_export_current(struct ramdisk_export *ret);

/* One QD1 4 KiB random-read figure. */
struct wire_lat {
	bool measured;
	double mean_ns, iops;
	uint64_t p50_ns, p99_ns, ios;
	char device[64];
};

/* Reads PATH for RUNTIME_NS (4 KiB random, QD1, psync, O_DIRECT). FILL
 * writes random data over it first. 0 or -errno with WHY. */
int ramdisk_wire_measure(const char *path, bool fill, uint64_t runtime_ns, struct wire_lat *ret, char *why,
			 size_t len);

/* The client step, on this host: connect to NQN at ADDR_ARG, find
 * namespace NSID's device, measure, disconnect (also on a signal). 0 or
 * -errno with WHY; no controller of NQN is left either way. */
int ramdisk_wire_client(const char *addr_arg, const char *nqn, const char *hostnqn, unsigned nsid,
			uint64_t runtime_ns, struct wire_lat *ret, char *why, size_t len);

/* The iSCSI client step, on this host (open-iscsi, iscsid running):
 * discovery at ADDR_ARG (port 3260 by default), login to IQN alone, LUN 0's
 * device found by the session's target name, measure, logout and delete
 * the node record (also on a signal, and what a killed run left first).
 * 0 or -errno with WHY; no session or node record of IQN is left. */
int ramdisk_iscsi_client(const char *addr_arg, const char *iqn, uint64_t runtime_ns, struct wire_lat *ret,
			 char *why, size_t len);

/* Pure: the client's one result line ("wire mean_ns=... p50_ns=...") and
 * its parse. */
void ramdisk_wire_format(const struct wire_lat *l, char *buf, size_t len);
int ramdisk_wire_parse(const char *text, struct wire_lat *l);

/* The comparison: local on the server's first RAM disk, then the client
 * step run through VIA (an argv prefix: {"ssh","HOST"} or
 * {"ip","netns","exec","NS"}) as SELF ramdisk client ... Requires a
 * complete export. 0 with LOCAL and REMOTE, or -errno with WHY. */
int ramdisk_wire_compare(const char *const *via, size_t via_n, const char *self, uint64_t runtime_ns,
			 struct wire_lat *local, struct wire_lat *remote, char *why, size_t len);

#endif
