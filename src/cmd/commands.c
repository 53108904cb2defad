#include "cmd/commands.h"

#include <string.h>

const struct command commands[] = {
	{ "readdisks", "read-test every disk and show each as a percentage of the median", cmd_readdisks },
	{ "readdisk", "read-test one disk (O_DIRECT sequential read, 1000 MiB)", cmd_readdisk },
	{ "readpooldisks", "read-test the members of one ZFS pool, by device group", cmd_readpooldisks },
	{ "run", "run one fio-like workload on a file or device", cmd_run },
	{ "benchpool", "benchmark a pool through its file system in temporary datasets (fio, dd, built-in...)", cmd_benchpool },
	{ "rwpool", "write an incompressible file into a pool and read it back (no dataset created)", cmd_rwpool },
	{ "rwpools", "rwpool on every pool", cmd_rwpools },
	{ "runall", "rwpools plus readpooldisks for every pool: the sweep for a support case", cmd_runall },
	{ "disks", "list known disks with their last read and baseline, from the database", cmd_disks },
	{ "volumes", "read throughput of every mounted file system and dataset, labelled media, pool or cache", cmd_volumes },
	{ "netcheck", "rule out the network: ports, routes, bonds, reachability, RTT and MTU end to end", cmd_netcheck },
	{ "doctor", "the whole method: media, network, RAM twin, pool; ends with a verdict (--lab: a known fault)", cmd_doctor },
	{ "interactive", "the guided chooser: pick a pool or disk and a test (needs a terminal)", cmd_interactive },
	{ "matrix", "one suite over several targets (paths, or ZFS datasets it creates with property combinations), compared", cmd_matrix },
	{ "history", "list stored runs, filtered by command, device, pool or date", cmd_history },
	{ "show", "show one stored run again (table, or its JSON document)", cmd_show },
	{ "compare", "stored runs side by side, changes judged against the runs' own noise", cmd_compare },
	{ "report", "stored runs as a self-contained HTML report, a CSV file or a Prometheus text file", cmd_report },
	{ "demo", "read-test throwaway loop devices, one of them throttled, then remove them", cmd_demo },
	{ "fleet", "run one command on many hosts over ssh; each figure kept with its host, outlier hosts named", cmd_fleet },
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
