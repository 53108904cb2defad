/* triage/doctor/doctor.h: the isolation method in one procedure, bottom up.
 *
 *   1 media    every disk (or the pool's members) read and judged against
 *              its peers and baseline, flagged disks re-read and checked
 *              with smartctl: a slow disk explains the complaint, stop.
 *   2 network  netcheck: competing default routes, LACP, MTU, loss: stop.
 *   3 RAM      the media factored out: a twin of the pool on RAM-backed
 *              devices (or, with no pool, a RAM disk) under the same
 *              workload through the same path.
 *   4 pool     the same workload on the real pool, compared with its twin
 *              and with its members' raw rate: far below both is a loss in
 *              the pool itself (layout, properties); otherwise no layer
 *              stands out (slower than RAM is what real disks are).
 *
 * Each step has a time budget (a cap on every read and write), logged
 * before anything runs. doctor_run() fills a struct doctor: the steps,
 * the figures and the verdict, which the command renders; it logs its
 * steps and prints nothing. --lab builds a throwaway pool with a known
 * fault (triage/doctor/lab.h), diagnoses it and removes it.
 */
#ifndef IOTRIAGE_TRIAGE_DOCTOR_H
#define IOTRIAGE_TRIAGE_DOCTOR_H

#include "triage/doctor/doctor_report.h"

/* Runs the method with SET for RUN_ID (baselines from DB_PATH) into *DR
 * (zeroed by the caller), then removes what it built (twin, lab). Returns
 * 0, or -errno when the lab or the pool could not be had (logged). */
int doctor_run(struct doctor *dr, const struct doctor_settings *set, const char *run_id, const char *db_path);

void doctor_release(struct doctor *dr);

#endif
