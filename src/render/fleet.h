/* render/fleet.h: the table of `fleet --fio` (triage/fleet_load.h):
 * one row per client under the host the user named, then the aggregate. */
#ifndef IOTRIAGE_RENDER_FLEET_H
#define IOTRIAGE_RENDER_FLEET_H

#include "triage/fleet_load.h"

/* To stdout; the reason of the run's failure last, when there is one. */
void fleet_load_print(const struct fleet_load *ld);

#endif
