/* render/volumes.h: volumes' result on the terminal. */
#ifndef IOTRIAGE_RENDER_VOLUMES_H
#define IOTRIAGE_RENDER_VOLUMES_H

#include "triage/pool/volumes.h"

/* A row per volume (its rate, what it was read from, or why not), the
 * volumes read from elsewhere than the media with the reason, and the
 * skipped mounts. To stdout. */
void volumes_print(const struct volume_list *l);

#endif
