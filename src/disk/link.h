/* disk/link.h: the rate of a disk's link and of every link above it, from
 * sysfs (under a given root, so captured trees in tests/data are read as
 * the live one is).
 *
 * disk_link_read() resolves SYSFS_ROOT/block/KNAME and walks up its device
 * path, nearest link first:
 *   - SATA: the port's ataN/linkN/ata_link/linkN: sata_spd (negotiated),
 *     hw_sata_spd_limit (the controller's maximum), sata_spd_limit (libata's
 *     own limit, lowered after link errors); the drive's maximum from its
 *     IDENTIFY data (ataN/linkN/devN.0/ata_device/devN.0/id, word 76: the
 *     SATA generations it supports)
 *   - SAS: each port-* directory's phys (phy-* links to sas_phy/phy-*):
 *     negotiated_linkrate and maximum_linkrate_hw of this side; the far
 *     side's maximum when it is an expander (its phys' maximum_linkrate_hw),
 *     unknown when it is an end device (a drive's maximum is not in sysfs)
 *   - PCIe: from the PCI function that holds the controller up to the root
 *     port, each link between a device (an endpoint, a switch's upstream
 *     port) and the port above it: the device's current_link_speed,
 *     current_link_width and max_link_speed/max_link_width, the port's
 *     max_link_speed/max_link_width (a switch's internal hop is skipped)
 * An unreadable or "Unknown" rate is 0 (unknown). Pure but for the reads.
 */
#ifndef IOTRIAGE_DISK_LINK_H
#define IOTRIAGE_DISK_LINK_H

#include <stdbool.h>
#include <stddef.h>

enum link_kind { LINK_SATA, LINK_SAS, LINK_PCIE };

/* What one end of a link supports: its rate (Gb/s for SATA and SAS, GT/s
 * for PCIe) and width (PCIe lanes; SAS phys; 1 for SATA); 0: unknown. */
struct link_end {
	double speed;
	unsigned width;
};

struct link_hop {
	enum link_kind kind;
	char name[64];         /* "ata3", "port-6:0", "0000:01:00.0" */
	double speed;          /* negotiated; 0 when unknown or down */
	unsigned width;        /* negotiated lanes (PCIe) or phys up (SAS); 1 for SATA */
	struct link_end below; /* the end nearer the disk: the drive, the device, the expander */
	struct link_end above; /* the end above it: the port, the slot, the HBA */
	double os_limit;       /* SATA: libata's lowered limit when below the controller's, else 0 */
};

#define DISK_LINK_MAX_HOPS 8

struct disk_link {
	struct link_hop hops[DISK_LINK_MAX_HOPS]; /* the disk's own link first */
	size_t count;
};

/* Fills *RET with KNAME's links (none: count 0, not an error). Returns 0,
 * or -errno when SYSFS_ROOT/block/KNAME cannot be resolved. */
int disk_link_read(const char *sysfs_root, const char *kname, struct disk_link *ret);

/* A rate file's text as a number: "2.5 GT/s PCIe" 2.5, "6.0 Gbps" 6,
 * "3.0 Gbit" 3; "Unknown", "<unknown>", "Link Rate failed": 0. */
double disk_link_parse_speed(const char *text);

/* What a link of SPEED x WIDTH carries, in bytes/s after line coding
 * (8b/10b below 8 GT/s and for SATA and SAS up to 12 Gb/s, 128b/130b
 * above for PCIe, 128b/150b for 22.5 Gb/s SAS); 0 when unknown. */
double disk_link_carries(enum link_kind kind, double speed, unsigned width);
double disk_link_hop_carries(const struct link_hop *h);

/* Trained below what both of its ends support (in rate or in width): a
 * finding whatever the read rate (a cable, a connector, a seat). False
 * when an end's maximum is unknown. */
bool disk_link_degraded(const struct link_hop *h);
/* The hop that carries least (the link's ceiling); NULL when none is known. */
const struct link_hop *disk_link_narrowest(const struct disk_link *l);
/* The first degraded hop, NULL for none. */
const struct link_hop *disk_link_first_degraded(const struct disk_link *l);

/* "PCIe", "SATA", "SAS". */
const char *disk_link_kind_name(enum link_kind k);
/* A rate in words: "2.5 GT/s x1", "6.0 Gb/s", "3.0 Gb/s x4"; "?" unknown. */
void disk_link_rate_words(enum link_kind kind, double speed, unsigned width, char *buf, size_t len);
/* The disk's own link (the first hop) in a table cell, "2.5 GT/s x1", with
 * " (max 8 GT/s x4)" when below what both ends support; "" for none. */
void disk_link_cell(const struct disk_link *l, char *buf, size_t len);
/* One hop in words: "PCIe link 0000:01:00.0 trained at 2.5 GT/s x1, the
 * drive and slot support 8.0 GT/s x4" (degraded), or "... at 2.5 GT/s x1
 * (the device supports 2.5 GT/s x1, the port 16.0 GT/s x32)". */
void disk_link_hop_words(const struct link_hop *h, char *buf, size_t len);

#endif
