/* basic/toolversion.h: how each outside program tells its version, as
 * benchmark publishers print tool versions next to their figures (a fio or
 * zfs upgrade changes a figure as much as a disk does). output/tools puts
 * the programs a run started (basic/tools_started) with their versions in
 * the document ("tools"). */
#ifndef IOTRIAGE_BASIC_TOOLVERSION_H
#define IOTRIAGE_BASIC_TOOLVERSION_H

#include <stddef.h>

/* Pure: the version line of a program's version output: the first
 * non-empty line of OUT, else of ERR, trimmed, without zpool's "This system
 * is currently running " preamble, cut to LEN. Returns 0, or -ENOENT when
 * both are empty. */
int tool_version_line(const char *out, const char *err, char *buf, size_t len);

/* Asks NAME for its version, the way that program answers (fio --version,
 * ssh -V, zfs version or else zpool upgrade -v, ...). Returns 0 with the
 * line in BUF, -ENOTSUP for a program whose way is not known here (nothing
 * is run), or -errno when it could not be asked. */
int tool_version(const char *name, char *buf, size_t len);

#endif
