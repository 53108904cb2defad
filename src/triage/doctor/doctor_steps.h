/* triage/doctor/doctor_steps.h: doctor's four steps and its verdicts, for
 * triage/doctor/doctor.c only. Each step fills its struct doctor_step and, when
 * it explains the complaint, the verdict. */
#ifndef IOTRIAGE_TRIAGE_DOCTOR_STEPS_H
#define IOTRIAGE_TRIAGE_DOCTOR_STEPS_H

#include "triage/doctor/doctor_report.h"

/* The disks step 1 will read (the pool's members, or every disk), listed
 * before anything runs so the estimate counts them. Returns 0 or -errno. */
int doctor_media_prepare(struct doctor *dr);
/* Disks listed but never read (an interrupt came first) become skipped. */
void doctor_media_not_read(struct doctor *dr);

void doctor_step_media(struct doctor *dr);
void doctor_step_network(struct doctor *dr);
void doctor_step_ram(struct doctor *dr);   /* the RAM twin, or a RAM disk without a pool */
void doctor_step_pool(struct doctor *dr);

/* Step 1 read no disk: no verdict can say that no layer stands out. */
void doctor_undetermined(struct doctor *dr);
/* Every step ran and none explains the complaint. */
void doctor_no_layer(struct doctor *dr);

#endif
