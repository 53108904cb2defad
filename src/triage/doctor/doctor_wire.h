/* triage/doctor/doctor_wire.h: doctor's step 3 across the wire (doctor --client):
 * a RAM disk made here, exported over NVMe/TCP on the address the client
 * reaches, the comparison of triage/ramdisk/ramdisk_export.h (three workloads here
 * and on the client), then the export and the RAM disk removed, also when
 * a step fails or the run is interrupted. A large loss names the network
 * or the target stack as the verdict's layer, with the figures. */
#ifndef IOTRIAGE_TRIAGE_DOCTOR_WIRE_H
#define IOTRIAGE_TRIAGE_DOCTOR_WIRE_H

#include "triage/doctor/doctor_report.h"

/* Seconds each workload reads on each side. */
unsigned doctor_wire_runtime_s(const struct doctor *dr);

/* Runs the comparison into DR (wire_local, wire_remote, wire), appends to
 * step 3's summary, and sets the verdict when the judgement names a layer.
 * Returns 0, or -errno when it could not measure (the summary says why). */
int doctor_step_wire(struct doctor *dr);

#endif
