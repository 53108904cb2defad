#include "cmd/commands.h"

#include <string.h>

const struct command commands[] = {
	{ .name = "readdisks", .summary = "read-test every disk and show each as a percentage of the median", .run = cmd_readdisks },
	{ .name = "readdisk", .summary = "read-test one disk (O_DIRECT sequential read, 1000 MiB)", .run = cmd_readdisk },
	{ .name = "readpooldisks", .summary = "read-test the members of one ZFS pool, by device group", .run = cmd_readpooldisks },
	{ .name = "run", .summary = "run one fio-like workload on a file or device", .run = cmd_run },
	{ .name = "benchpool", .summary = "benchmark a pool through its file system in temporary datasets (fio, dd, built-in...)", .frame = &benchpool_frame },
	{ .name = "rwpool", .summary = "write an incompressible file into a pool and read it back (no dataset created)", .frame = &rwpool_frame },
	{ .name = "rwpools", .summary = "rwpool on every pool", .frame = &rwpools_frame },
	{ .name = "runall", .summary = "rwpools plus readpooldisks for every pool: the sweep for a support case", .frame = &runall_frame },
	{ .name = "disks", .summary = "list known disks with their last read and baseline, from the database", .frame = &disks_frame },
	{ .name = "volumes", .summary = "read throughput of every mounted file system and dataset, labelled media, pool or cache", .run = cmd_volumes },
	{ .name = "netcheck", .summary = "rule out the network: ports, routes, bonds, reachability, RTT and MTU end to end", .run = cmd_netcheck },
	{ .name = "doctor", .summary = "the whole method: media, network, RAM twin, pool; ends with a verdict (--lab: a known fault)", .frame = &doctor_frame },
	{ .name = "interactive", .summary = "the guided chooser: pick a pool or disk and a test (needs a terminal)", .run = cmd_interactive },
	{ .name = "matrix", .summary = "one suite over several targets (paths, or ZFS datasets it creates with property combinations), compared", .frame = &matrix_frame },
	{ .name = "history", .summary = "list stored runs, filtered by command, device, pool or date", .run = cmd_history },
	{ .name = "show", .summary = "show one stored run again (table, or its JSON document)", .run = cmd_show },
	{ .name = "compare", .summary = "stored runs side by side, changes judged against the runs' own noise", .run = cmd_compare },
	{ .name = "report", .summary = "stored runs as a self-contained HTML report, a CSV file or a Prometheus text file", .run = cmd_report },
	{ .name = "demo", .summary = "read-test throwaway loop devices, one of them throttled, then remove them", .run = cmd_demo },
	{ .name = "ramdisk", .summary = "RAM disks (scsi_debug, null_blk, brd, zram): create, list, destroy, latency sweep", .run = cmd_ramdisk },
	{ .name = NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}
