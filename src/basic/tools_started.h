/* basic/tools_started.h: the outside programs this process started.
 * Every program iotriage runs goes through basic/spawn, which notes its
 * name here; at the end of a run the document lists each with its version
 * (basic/toolversion, output/tools). Only this process's starts are noted:
 * a forked reader's are its own. */
#ifndef IOTRIAGE_BASIC_TOOLS_STARTED_H
#define IOTRIAGE_BASIC_TOOLS_STARTED_H

#include <stddef.h>

#define TOOL_NAME_MAX 32
#define TOOLS_MAX 48

/* Notes that ARGV0 (a name or a path: its base name is kept) was started. */
void tools_note_started(const char *argv0);

/* Forgets every name noted: a new run starts. */
void tools_forget(void);

/* Copies the names noted so far, in the order first started, into NAMES;
 * returns how many (at most MAX). */
size_t tools_started(char (*names)[TOOL_NAME_MAX], size_t max);

#endif
