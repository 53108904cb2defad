/* ramdisk/nvmet.h: the RAM disks exported over NVMe/TCP through the
 * kernel's nvmet, the transport table's "nvme-tcp" row (ramdisk/export.h),
 * and its client through /dev/nvme-fabrics (fabrics.c).
 *
 * One export at a time: a subsystem named RAMDISK_NVMET_NQN_PREFIX<id>
 * (the tag), one namespace per RAM disk (nsid = index + 1), serial
 * "iotriage<id>", either one allowed host NQN or allow_any_host (explicit),
 * and a TCP port numbered from RAMDISK_NVMET_PORT_BASE (the tag for ports,
 * which have no name). The record "<state>/export-nvmet" is written before
 * anything is made (complete=0) and marked complete=1 at the end, so a run
 * killed half-way leaves a record naming exactly what it made. ROOT is
 * "/sys/kernel/config/nvmet"; tests pass a temporary directory (not
 * configfs: default groups are made and attribute files removed by hand). */
#ifndef IOTRIAGE_RAMDISK_NVMET_H
#define IOTRIAGE_RAMDISK_NVMET_H

#include <stdbool.h>
#include <stddef.h>

#include "ramdisk/export.h"

#define RAMDISK_NVMET_ROOT "/sys/kernel/config/nvmet"
#define RAMDISK_NVMET_NQN_PREFIX "nqn.2014-08.org.iotriage:ramdisk-"
#define RAMDISK_NVMET_PORT_BASE 61696u /* ports 61696..61727 are iotriage's */
#define RAMDISK_NVMET_PORT_SPAN 32u
#define RAMDISK_NVMET_TRSVCID 4420u
#define RAMDISK_NVMET_FILE "export-nvmet"

/* Pure: the NQN and serial for an export with ID ("a1b2c3..."); E is NVMe/TCP's. */
void ramdisk_nvmet_names(const char *id, struct ramdisk_export *e);
/* Pure: is NAME a subsystem iotriage makes? Is ID one of its port numbers? */
bool ramdisk_nvmet_nqn_ours(const char *name);
bool ramdisk_nvmet_port_ours(unsigned id);
/* Makes E (name, serial, traddr, port, client or allow_any_host, devices
 * set; port_id chosen here) under ROOT, recorded in STATE. Any failure
 * removes what was made and the record: -errno with WHY (-EADDRINUSE when
 * the TCP port is taken). */
int ramdisk_nvmet_export(const char *root, const char *state, struct ramdisk_export *e, char *why, size_t len);
/* Removes what E names (whatever of it exists) and the record. 0 or -errno
 * with WHY. */
int ramdisk_nvmet_unexport(const char *root, const char *state, const struct ramdisk_export *e, char *why,
			   size_t len);
/* Removes what an earlier run left: an incomplete record whose process is
 * gone (what it names), and, when no complete export is recorded, every
 * subsystem with the tag and every port in the tagged range. 1 with WHY
 * saying what was removed, 0 when nothing was there, -errno (WHY). */
int ramdisk_nvmet_reap(const char *root, const char *state, char *why, size_t len);

#endif
