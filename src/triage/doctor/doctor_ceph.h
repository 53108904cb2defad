/* triage/doctor/doctor_ceph.h: doctor on a Ceph pool (an RBD pool, or CephFS by its
 * data pool), for triage/doctor/doctor.c and doctor_steps.c only.
 *
 *   1 media    the OSDs' devices read raw where they are local (the read
 *              batch of readpooldisks: pool/ceph_osd.h's layout), then the
 *              Ceph step (triage/pool/ceph_step.h): each OSD benched and judged
 *              against its peers, ceph osd perf's latency, the cluster's
 *              state. A slow OSD explains the complaint: its device and
 *              host named, with its device's raw read beside its bench
 *              (a device that reads normally puts the cause in the OSD's
 *              process or host, not the disk).
 *   2 network  netcheck towards the hosts of the OSDs that are not on this
 *              host (their public and cluster network addresses); skipped,
 *              saying so, when every OSD is here.
 *   3 RAM      no RAM twin of a Ceph pool: skipped, saying why.
 *   4 pool     benchpool's fio test on the pool (fio's rbd engine on an
 *              RBD image; fio in a directory on CephFS), no OSD step; a
 *              cluster state that explains low figures (recovery, degraded
 *              or misplaced PGs, OSDs down or full, slow ops, too few PGs)
 *              names the pool layer with its fixes; the pool's other
 *              findings (size 1, min_size 1) join the pool's findings. */
#ifndef IOTRIAGE_TRIAGE_DOCTOR_CEPH_H
#define IOTRIAGE_TRIAGE_DOCTOR_CEPH_H

#include <stdbool.h>

#include "triage/doctor/doctor_report.h"

struct netcheck; /* triage/network/netcheck.h */

/* Whether the pool is a Ceph pool (an RBD pool or a CephFS). */
bool doctor_is_ceph(const struct doctor *dr);
/* What readpooldisks is given for the pool's members: the Ceph pool
 * (CephFS's data pool), else the pool's own name. */
const char *doctor_members_id(const struct doctor *dr);
/* Steps 1, 3 and 4's budgets for a Ceph pool (after the estimate). */
void doctor_ceph_estimate(struct doctor *dr);

void doctor_ceph_media(struct doctor *dr); /* after the raw reads of step 1 */
/* Step 2 on a Ceph pool: the OSDs on other hosts (their members' host) as
 * NC's destinations, each by its front (public network) and back (cluster
 * network) address from ceph osd metadata, else its host's name; TOWARDS
 * says so for the summary. Returns false when every OSD is on this host:
 * no network carries the pool's data, the step is skipped, saying so. */
bool doctor_ceph_network(struct doctor *dr, struct netcheck *nc, char *towards, size_t len);
void doctor_ceph_ram(struct doctor *dr);
void doctor_ceph_pool(struct doctor *dr);

#endif
