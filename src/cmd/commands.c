#include "cmd/commands.h"

#include <string.h>

/* The --help listing's groups, in the method's order: doctor runs the four
 * steps; each step's own commands; then what a run leaves behind. */
#define G_METHOD "the whole method"
#define G_MEDIA "step 1, the media: every disk read and judged against its peers"
#define G_NETWORK "step 2, the network"
#define G_TARGET "step 3, the target stack: a RAM disk through the same path"
#define G_POOL "step 4, the pool and its file systems"
#define G_WORKLOAD "workloads"
#define G_RESULTS "stored results and other hosts"

const struct command commands[] = {
	{ .group = G_METHOD, .name = "doctor", .summary = "the whole method: media, network, RAM twin, pool; ends with a verdict (--lab: a known fault)", .frame = &doctor_frame },
	{ .group = G_METHOD, .name = "interactive", .summary = "the guided chooser: pick a pool or disk and a test (needs a terminal)", .frame = &interactive_frame },
	{ .group = G_MEDIA, .name = "readdisks", .summary = "read-test every disk and show each as a percentage of the median", .frame = &readdisks_frame },
	{ .group = G_MEDIA, .name = "readdisk", .summary = "read-test one disk (O_DIRECT sequential read, 1000 MiB)", .frame = &readdisk_frame },
	{ .group = G_MEDIA, .name = "readpooldisks", .summary = "read-test the members of one ZFS pool, by device group", .frame = &readpooldisks_frame },
	{ .group = G_MEDIA, .name = "disks", .summary = "list known disks with their last read and baseline, from the database", .frame = &disks_frame },
	{ .group = G_MEDIA, .name = "demo", .summary = "read-test throwaway loop devices, one of them throttled, then remove them", .frame = &demo_frame },
	{ .group = G_NETWORK, .name = "netcheck", .summary = "rule out the network: ports, routes, bonds, reachability, RTT and MTU end to end", .run = cmd_netcheck, .docs = netcheck_docs },
	{ .group = G_TARGET, .name = "ramdisk", .summary = "RAM disks (scsi_debug, null_blk, brd, zram): create, list, destroy, latency sweep", .run = cmd_ramdisk, .subframes = ramdisk_subframes },
	{ .group = G_POOL, .name = "benchpool", .summary = "benchmark a pool through its file system in temporary datasets (fio, dd, built-in...)", .frame = &benchpool_frame },
	{ .group = G_POOL, .name = "rwpool", .summary = "write an incompressible file into a pool and read it back (no dataset created)", .frame = &rwpool_frame },
	{ .group = G_POOL, .name = "rwpools", .summary = "rwpool on every pool", .frame = &rwpools_frame },
	{ .group = G_POOL, .name = "runall", .summary = "rwpools plus readpooldisks for every pool: the sweep for a support case", .frame = &runall_frame },
	{ .group = G_POOL, .name = "volumes", .summary = "read throughput of every mounted file system and dataset, labelled media, pool or cache", .frame = &volumes_frame },
	{ .group = G_POOL, .name = "matrix", .summary = "one suite over several targets (paths, or ZFS datasets it creates with property combinations), compared", .frame = &matrix_frame },
	{ .group = G_WORKLOAD, .name = "run", .summary = "run one fio-like workload on a file or device", .frame = &run_frame },
	{ .group = G_WORKLOAD, .name = "presets", .summary = "preset workload sets (the NAS vendor's IOPS test, CrystalDiskMark's), listed or run", .frame = &presets_frame },
	{ .group = G_RESULTS, .name = "history", .summary = "list stored runs, filtered by command, device, pool or date", .frame = &history_frame },
	{ .group = G_RESULTS, .name = "show", .summary = "show one stored run again (table, or its JSON document)", .frame = &show_frame },
	{ .group = G_RESULTS, .name = "compare", .summary = "stored runs side by side, changes judged against the runs' own noise", .frame = &compare_frame },
	{ .group = G_RESULTS, .name = "report", .summary = "stored runs as a self-contained HTML report, a CSV file or a Prometheus text file", .frame = &report_frame },
	{ .group = G_RESULTS, .name = "bundle", .summary = "write a support bundle (.tar.gz) for the vendor", .frame = &bundle_frame },
	{ .group = G_RESULTS, .name = "fleet", .summary = "run one command on many hosts over ssh; each figure kept with its host, outlier hosts named", .run = cmd_fleet, .docs = fleet_docs },
	{ .name = NULL },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}
