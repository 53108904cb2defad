/* render/presets.h: a preset's figures on the terminal. */
#ifndef IOTRIAGE_RENDER_PRESETS_H
#define IOTRIAGE_RENDER_PRESETS_H

#include "triage/workload/presets.h"

/* A line per test done: loops, IOPS mean and best, their spread, mean
 * bandwidth and latency percentiles. To stdout. */
void preset_outcome_print(const struct preset_outcome *o);

#endif
