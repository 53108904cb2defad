/* render/bundle.h: the bundle's manifest on the terminal. */
#ifndef IOTRIAGE_RENDER_BUNDLE_H
#define IOTRIAGE_RENDER_BUNDLE_H

#include <stdbool.h>

#include "triage/results/bundle.h"

/* The bundle OUTPUT written: its JSON manifest with JSON_OUT, else its
 * parts a line each. To stdout. */
void bundle_manifest_print(const struct bundle_result *r, const char *output, bool json_out);

#endif
