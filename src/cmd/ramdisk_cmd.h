/* cmd/ramdisk_cmd.h: the ramdisk command's sub-command that lives in its
 * own file (cmd_ramdisk_sweep.c), dispatched from cmd_ramdisk.c. What the
 * sub-commands share below the command is triage/ramdisk_batch.h. */
#ifndef IOTRIAGE_CMD_RAMDISK_CMD_H
#define IOTRIAGE_CMD_RAMDISK_CMD_H

#include "cmd/options.h"

int cmd_ramdisk_sweep(int argc, char **argv, struct global_opts *g);

#endif
