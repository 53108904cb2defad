/* triage/doctor_judgement.h: the doctor's judgements that are pure
 * functions of measured figures, unit-tested on figures measured on real
 * pools (tests/unit/test_doctor_judgement.c). */
#ifndef IOTRIAGE_TRIAGE_DOCTOR_JUDGEMENT_H
#define IOTRIAGE_TRIAGE_DOCTOR_JUDGEMENT_H

#include <stdbool.h>

/* The pool step's judgement: the pool layer stands out only when the pool
 * on its disks reads under DOCTOR_POOL_TO_TWIN of the same pool on RAM AND
 * under DOCTOR_POOL_TO_MEMBER of what one of its members reads raw. Slower
 * than RAM alone is what every real disk is, and the disks themselves were
 * judged in step 1. MEMBER_READ <= 0 (not measured) never names the pool.
 * The twin margin is wide because the twin's path differs from the pool's
 * (buffered loop devices on shmem against the real members): a healthy
 * btrfs raid1 on this project's CI machine read at 37-55% of its twin. */
#define DOCTOR_POOL_TO_TWIN 0.2
#define DOCTOR_POOL_TO_MEMBER 0.1
bool doctor_pool_layer_stands_out(double pool_read, double twin_read, double member_read);

#endif
