#include "cmd/commands.h"

#include <string.h>

const struct command commands[] = {
	{ "readdisks", "read-test every disk and show each as a percentage of the median", cmd_readdisks },
	{ "readdisk", "read-test one disk (O_DIRECT sequential read, 1000 MiB)", cmd_readdisk },
	{ "readpooldisks", "read-test the members of one ZFS pool, by device group", cmd_readpooldisks },
	{ "run", "run one fio-like workload on a file or device", cmd_run },
	{ "disks", "list known disks with their last read and baseline, from the database", cmd_disks },
	{ "demo", "read-test throwaway loop devices, one of them throttled, then remove them", cmd_demo },
	{ "ramdisk", "RAM disks (scsi_debug, null_blk, brd, zram): create, list, destroy, latency sweep", cmd_ramdisk },
	{ NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}
