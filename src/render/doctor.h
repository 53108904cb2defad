/* render/doctor.h: doctor's report on the terminal. */
#ifndef IOTRIAGE_RENDER_DOCTOR_H
#define IOTRIAGE_RENDER_DOCTOR_H

#include "triage/doctor/doctor.h"

/* Each step run with its summary (or why it could not be completed), then
 * the verdict, its evidence, how sure it is and the next step. To stdout. */
void doctor_print(const struct doctor *dr);

#endif
