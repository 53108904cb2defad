/* cmd/commands.h: the command table. One entry per command; each command
 * parses its own options (cmd/options.h) and returns the exit status:
 *   0  done, every figure measured
 *   1  a measurement failed or nothing could be measured
 *   2  bad usage or input
 *   128+N  interrupted by signal N (after cleaning up)
 */
#ifndef IOTRIAGE_CMD_COMMANDS_H
#define IOTRIAGE_CMD_COMMANDS_H

#include "cmd/options.h"

struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv, struct global_opts *g);
};

extern const struct command commands[];
const struct command *command_find(const char *name);

int cmd_readdisk(int argc, char **argv, struct global_opts *g);
int cmd_readdisks(int argc, char **argv, struct global_opts *g);
int cmd_ramdisk(int argc, char **argv, struct global_opts *g);
int cmd_run(int argc, char **argv, struct global_opts *g);
int cmd_demo(int argc, char **argv, struct global_opts *g);
int cmd_benchpool(int argc, char **argv, struct global_opts *g);
int cmd_rwpool(int argc, char **argv, struct global_opts *g);
int cmd_rwpools(int argc, char **argv, struct global_opts *g);
int cmd_runall(int argc, char **argv, struct global_opts *g);
int cmd_doctor(int argc, char **argv, struct global_opts *g);
int cmd_interactive(int argc, char **argv, struct global_opts *g);
int cmd_disks(int argc, char **argv, struct global_opts *g);
int cmd_readpooldisks(int argc, char **argv, struct global_opts *g);
int cmd_volumes(int argc, char **argv, struct global_opts *g);
int cmd_netcheck(int argc, char **argv, struct global_opts *g);
int cmd_history(int argc, char **argv, struct global_opts *g);
int cmd_show(int argc, char **argv, struct global_opts *g);
int cmd_compare(int argc, char **argv, struct global_opts *g);
int cmd_report(int argc, char **argv, struct global_opts *g);
int cmd_matrix(int argc, char **argv, struct global_opts *g);
int cmd_fleet(int argc, char **argv, struct global_opts *g);

#endif
