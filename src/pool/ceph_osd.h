/* pool/ceph_osd.h: a Ceph pool's OSDs as the cluster describes them, and
 * each OSD's own write figure.
 *
 *   ceph pg ls-by-pool POOL   which OSDs hold the pool's PGs (acting sets)
 *   ceph osd metadata         each OSD's device and host: BlueStore's
 *                             bluestore_bdev_dev_node ("/dev/sdq"), else its
 *                             "devices" ("sdq" or "sdq,sdr"), and "hostname"
 *   ceph osd tree             up or down, in or out (reweight 0), device class
 *   ceph osd perf             each OSD's commit and apply latency over the
 *                             last stats period (about 5 s: the mgr's view)
 *   ceph tell osd.N bench B S the OSD writing B bytes in S-byte writes into
 *                             its object store: its device, its host and the
 *                             OSD itself, without the network or the client
 *
 * The parsers are pure (basic/jsonread), tested on output captured from the
 * test cluster (tests/data/ceph_osd_*, ceph_pg_ls_*, ceph_tell_*); the calls
 * go through pool/ceph.h's time limits. */
#ifndef IOTRIAGE_POOL_CEPH_OSD_H
#define IOTRIAGE_POOL_CEPH_OSD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pool/ceph.h"
#include "pool/zfs.h"

#define CEPH_OSDS_MAX 256

struct ceph_osd {
	int id;
	char name[16];          /* "osd.N" */
	char host[CEPH_NAME_MAX];
	char device[256];       /* the data device's node ("/dev/sdq"); "" when not reported */
	char devices[128];      /* the kernel's names of its devices ("sdq", "dm-0,sdq") */
	char device_class[16];  /* the crush device class ("hdd", "ssd"); else BlueStore's bdev type */
	char front_ip[46];      /* its public network address (front_addr), "" when not reported */
	char back_ip[46];       /* its cluster network address (back_addr), "" when not reported */
	bool up, in;
	bool known;             /* ceph osd metadata described it */
};

struct ceph_bench {
	uint64_t bytes, block;
	double seconds, bytes_per_s, iops;
};

/* `ceph pg ls-by-pool POOL`: the distinct OSDs of the PGs' acting sets,
 * ascending, up to MAX into IDS. Returns the count (0: no PGs) or -EINVAL. */
int ceph_parse_pool_osds(const char *json, int *ids, size_t max);
/* The address of a Ceph entity address vector ("v2:10.0.0.5:6802/1234",
 * "[v2:10.0.0.5:6802/1234,v1:10.0.0.5:6803/1234]", "10.0.0.5:6801/99"):
 * its first entry's IPv4 address into BUF ("10.0.0.5"). Returns 0, or
 * -EINVAL (BUF "": IPv6, which netcheck does not probe, or not an address). */
int ceph_addr_ip(const char *addr, char *buf, size_t len);
/* `ceph osd metadata` (every OSD): fills the OSD of OSDS[i] whose id it
 * describes (name, host, device, devices, class from the bdev type, its
 * front and back addresses, known).
 * Returns how many of N were described, or -EINVAL. */
int ceph_parse_osd_metadata(const char *json, struct ceph_osd *osds, size_t n);
/* `ceph osd tree`: up, in and the device class of each of OSDS. Returns how
 * many of N were found, or -EINVAL. */
int ceph_parse_osd_tree(const char *json, struct ceph_osd *osds, size_t n);
/* `ceph osd perf`: commit and apply latency in ms into COMMIT_MS[i] and
 * APPLY_MS[i] for IDS[i] (-1 when not listed). Returns the OSDs found or -EINVAL. */
int ceph_parse_osd_perf(const char *json, const int *ids, size_t n, double *commit_ms, double *apply_ms);
/* `ceph tell osd.N bench`. Returns 0, or -EINVAL (no figures, or none above 0). */
int ceph_parse_osd_bench(const char *json, struct ceph_bench *ret);

/* The pool's OSDs with their devices, hosts and states (pg ls-by-pool,
 * osd metadata, osd tree). *RET is malloc'd (free()). Returns the count or
 * -errno with a sentence in WHY. */
int ceph_pool_osds(const char *pool, struct ceph_osd **ret, char *why, size_t len);
/* `ceph tell osd.ID bench BYTES BLOCK` within SECONDS. Returns 0, or -errno
 * with a sentence in WHY (-ETIMEDOUT: it did not finish in time). */
int ceph_osd_bench(int id, uint64_t bytes, uint64_t block, unsigned seconds, struct ceph_bench *ret, char *why,
		   size_t len);
/* `ceph osd perf` for the N OSDs IDS (as ceph_parse_osd_perf). 0 or -errno. */
int ceph_osd_perf(const int *ids, size_t n, double *commit_ms, double *apply_ms);

/* The pool's OSDs as a pool layout: a member per OSD named "osd.N", its
 * device as the path, its host as the group (vdev); an OSD on another host
 * than HOSTNAME has that host as its member's host (read there over ssh);
 * one down, or without a device in its metadata, is listed with why it is
 * not read. Returns 0, -ENOENT (no such Ceph pool, or no Ceph
 * cluster configured here: nothing logged), -EHOSTDOWN (its monitors do
 * not take a TCP connection within a second: pool/ceph.h's
 * ceph_mons_may_answer, WHY says so; nothing waits for the tools' limit)
 * or -errno with WHY. */
int ceph_pool_layout(const char *pool, const char *hostname, struct pool_layout *ret, char *why, size_t len);

#endif
