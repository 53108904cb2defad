/* render/netcheck.h: netcheck's terminal tables (the netcheck command
 * only; doctor summarises the findings itself). */
#ifndef IOTRIAGE_RENDER_NETCHECK_H
#define IOTRIAGE_RENDER_NETCHECK_H

#include "triage/network/netcheck.h"

/* Ports (with the traffic over the window), routes, bonds and their ports,
 * destinations as probed from each port, then a FINDING or NOTE line per
 * finding with its fix, or the no-finding line; to stdout. */
void netcheck_print(const struct netcheck *nc);

#endif
