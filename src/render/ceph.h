/* render/ceph.h: the Ceph step (triage/pool/ceph_step.h) on the terminal: a row
 * per OSD (host, device, bench rate, share of its peers' median, benches
 * out of line, ceph osd perf's commit latency, verdict), then each finding
 * of the cluster's state, the pool's settings and the OSDs in benchpool's
 * "FINDING: subject: text (evidence); fix: ..." form. */
#ifndef IOTRIAGE_RENDER_CEPH_H
#define IOTRIAGE_RENDER_CEPH_H

#include <stdio.h>

#include "triage/pool/ceph_step.h"

void ceph_step_print(const struct ceph_step *s, FILE *out);

#endif
