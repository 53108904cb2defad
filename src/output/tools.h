/* output/tools.h: the document's "tools": each outside program the run
 * started (basic/toolversion), with the version it reports. */
#ifndef IOTRIAGE_OUTPUT_TOOLS_H
#define IOTRIAGE_OUTPUT_TOOLS_H

#include "output/json.h"

/* "tools": [{"name": "fio", "version": "fio-3.33"}, ...] in the order first
 * started; the version is null for a program not asked (its way is not
 * known) or that did not answer. Asks each program now: call it once, at
 * the end of a run. */
void json_tools(struct json *j);

#endif
