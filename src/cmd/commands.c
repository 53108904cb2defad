#include "cmd/commands.h"

#include <string.h>

const struct command commands[] = {
	{ .name = "readdisks", .summary = "read-test every disk and show each as a percentage of the median", .frame = &readdisks_frame },
	{ .name = "readdisk", .summary = "read-test one disk (O_DIRECT sequential read, 1000 MiB)", .frame = &readdisk_frame },
	{ .name = "readpooldisks", .summary = "read-test the members of one ZFS pool, by device group", .frame = &readpooldisks_frame },
	{ .name = "run", .summary = "run one fio-like workload on a file or device", .frame = &run_frame },
	{ .name = "presets", .summary = "preset workload sets (the NAS vendor's IOPS test, CrystalDiskMark's), listed or run", .frame = &presets_frame },
	{ .name = "benchpool", .summary = "benchmark a pool through its file system in temporary datasets (fio, dd, built-in...)", .frame = &benchpool_frame },
	{ .name = "rwpool", .summary = "write an incompressible file into a pool and read it back (no dataset created)", .frame = &rwpool_frame },
	{ .name = "rwpools", .summary = "rwpool on every pool", .frame = &rwpools_frame },
	{ .name = "runall", .summary = "rwpools plus readpooldisks for every pool: the sweep for a support case", .frame = &runall_frame },
	{ .name = "disks", .summary = "list known disks with their last read and baseline, from the database", .frame = &disks_frame },
	{ .name = "volumes", .summary = "read throughput of every mounted file system and dataset, labelled media, pool or cache", .frame = &volumes_frame },
	{ .name = "netcheck", .summary = "rule out the network: ports, routes, bonds, reachability, RTT and MTU end to end", .run = cmd_netcheck, .docs = netcheck_docs },
	{ .name = "doctor", .summary = "the whole method: media, network, RAM twin, pool; ends with a verdict (--lab: a known fault)", .frame = &doctor_frame },
	{ .name = "interactive", .summary = "the guided chooser: pick a pool or disk and a test (needs a terminal)", .frame = &interactive_frame },
	{ .name = "matrix", .summary = "one suite over several targets (paths, or ZFS datasets it creates with property combinations), compared", .frame = &matrix_frame },
	{ .name = "history", .summary = "list stored runs, filtered by command, device, pool or date", .frame = &history_frame },
	{ .name = "show", .summary = "show one stored run again (table, or its JSON document)", .frame = &show_frame },
	{ .name = "compare", .summary = "stored runs side by side, changes judged against the runs' own noise", .frame = &compare_frame },
	{ .name = "report", .summary = "stored runs as a self-contained HTML report, a CSV file or a Prometheus text file", .frame = &report_frame },
	{ .name = "bundle", .summary = "write a support bundle (.tar.gz) for the vendor", .frame = &bundle_frame },
	{ .name = "demo", .summary = "read-test throwaway loop devices, one of them throttled, then remove them", .frame = &demo_frame },
	{ .name = "ramdisk", .summary = "RAM disks (scsi_debug, null_blk, brd, zram): create, list, destroy, latency sweep", .run = cmd_ramdisk, .subframes = ramdisk_subframes },
	{ .name = "fleet", .summary = "run one command on many hosts over ssh; each figure kept with its host, outlier hosts named", .run = cmd_fleet, .docs = fleet_docs },
	{ .name = NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}
