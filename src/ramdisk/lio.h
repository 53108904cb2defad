/* ramdisk/lio.h: the RAM disks exported over iSCSI through the kernel's
 * LIO target, configured through configfs (no targetcli needed): the
 * transport table's "iscsi" row (ramdisk/export.h), whose client logs in
 * through open-iscsi's iscsiadm.
 *
 * One export at a time, every object named with the iotriage tag:
 *   core/iblock_61696/iotriage-<id>-<i>   an iblock backstore per RAM disk
 *   iscsi/iqn.2014-08.org.iotriage:ramdisk-<id>/tpgt_1
 *     lun/lun_<i>                         linked to backstore i
 *     np/ADDR:PORT                        the portal (where a port in use fails)
 *     acls/INITIATOR[/lun_<i>]            the one initiator allowed, or
 *     attrib/generate_node_acls=1         any initiator (explicit)
 * The record "<state>/export-lio" is written before anything is made
 * (complete=0) and marked complete=1 at the end, so a run killed half-way
 * leaves a record naming exactly what it may have made. ROOT is
 * "/sys/kernel/config/target"; tests pass a temporary directory. */
#ifndef IOTRIAGE_RAMDISK_LIO_H
#define IOTRIAGE_RAMDISK_LIO_H

#include <stdbool.h>
#include <stddef.h>

#include "ramdisk/export.h"

#define RAMDISK_LIO_ROOT "/sys/kernel/config/target"
#define RAMDISK_LIO_IQN_PREFIX "iqn.2014-08.org.iotriage:ramdisk-"
#define RAMDISK_LIO_HBA "iblock_61696" /* the tag for the backstores' HBA */
#define RAMDISK_LIO_BACKSTORE_PREFIX "iotriage-"
#define RAMDISK_LIO_PORT 3260u
#define RAMDISK_LIO_FILE "export-lio"

/* Pure: is NAME a valid iSCSI name (iqn./eui./naa., 223 bytes at most, no
 * '/', space or control character)? 0, or -EINVAL with WHY. */
int ramdisk_lio_check_name(const char *name, char *why, size_t len);
/* Can a listener bind ADDR:PORT here (this network namespace)? 0, or
 * -EADDRINUSE ("the TCP port is in use") or -errno with WHY. */
int ramdisk_lio_port_free(const char *addr, unsigned port, char *why, size_t len);
/* Pure: the IQN for an export with ID, and backstore I's name. */
void ramdisk_lio_names(const char *id, struct ramdisk_export *e);
void ramdisk_lio_backstore(const struct ramdisk_export *e, size_t i, char *buf, size_t len);
/* Pure: the configfs paths: the target's TPG, LUN I, the portal, the ACL
 * (under ROOT). */
void ramdisk_lio_tpg_path(const char *root, const char *iqn, char *buf, size_t len);
void ramdisk_lio_portal_path(const char *root, const struct ramdisk_export *e, char *buf, size_t len);
bool ramdisk_lio_iqn_ours(const char *name);
/* Makes E (id, name, traddr, port, client or allow_any_host, devices
 * set) under ROOT, recorded in STATE first. Any failure removes what was
 * made and the record: -errno with WHY (-EADDRINUSE: the port is taken). */
int ramdisk_lio_export(const char *root, const char *state, struct ramdisk_export *e, char *why, size_t len);
/* Removes what E names (whatever of it exists) and the record. */
int ramdisk_lio_unexport(const char *root, const char *state, const struct ramdisk_export *e, char *why,
			 size_t len);
/* Removes what an earlier run left: an incomplete record whose process is
 * gone, and, when no complete export is recorded, every tagged target and
 * backstore. 1 with WHY saying what was removed, 0 when nothing, -errno. */
int ramdisk_lio_reap(const char *root, const char *state, char *why, size_t len);

/* --- the initiator side (open-iscsi makes the session) --- */

/* Finds the block device of LUN 0 of the iSCSI session logged in to IQN
 * in SYSFS ("/sys": class/iscsi_session/sessionN/targetname, then the
 * session's device/target*\/H:C:T:L/block/X), waiting up to TIMEOUT_MS.
 * Fills KNAME ("sdb"). 0 or -ENOENT. */
int ramdisk_iscsi_find(const char *sysfs, const char *iqn, int timeout_ms, char *kname, size_t kname_len);
/* Sessions logged in to IQN now. */
size_t ramdisk_iscsi_sessions(const char *sysfs, const char *iqn);

#endif
