/* render/fleet.h: fleet's tables: the hosts and their verdicts
 * (triage/fleet/fleet.h), and `fleet --fio`'s (triage/fleet/fleet_load.h): one row per
 * client under the host the user named, then the aggregate. */
#ifndef IOTRIAGE_RENDER_FLEET_H
#define IOTRIAGE_RENDER_FLEET_H

#include <stddef.h>

#include "triage/fleet/fleet.h"
#include "triage/fleet/fleet_load.h"

/* fleet --fio, to stdout; the reason of the run's failure last, when there is one. */
void fleet_load_print(const struct fleet_load *ld);

/* fleet: a row per host (status, seconds, read rate, reason), then each
 * verdict's sentence, or why the hosts were not judged, or that none stands
 * out. To stdout. */
void fleet_print(const struct fleet_host *hosts, size_t n, const struct fleet_judgement *jd);

#endif
