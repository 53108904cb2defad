/* docgen/details.c: what a command's manual page says beyond its --help
 * text: the behaviour in detail (what it reads and judges, what it refuses,
 * what it leaves behind), and the main page's sections on files, the
 * environment, the terminal and the measurement. The README guides; this is
 * the reference it points to. Only iotriage-docgen links it: the binary's
 * --help stays short. */
#include "docgen/docgen.h"

#include <string.h>

static const struct docgen_details details[] = {
	{ { "readdisk", "readdisks" },
		"Read options for readdisk/readdisks: --size SIZE, --bs SIZE, --iodepth N, --engine "
		"auto|psync|libaio|io_uring|null, --save-baseline (keep each disk's rate, keyed by WWN, "
		"serial, by-id path or loop backing file, never the kernel name) and --regression PCT (flag"
		" a disk that many percent below its baseline, default 20, confirmed by two re-reads; this "
		"catches a disk that has slowed even when it has no identical siblings). Sizes take binary "
		"suffixes (4k, 1000M, 1G)." },
	{ { "doctor" },
		"The whole method bottom up, with a verdict. (1) media: every disk, or the pool's members, "
		"read and judged against its peers and baseline, every physical disk's health swept with "
		"smartctl first (a health failure is evidence too), flagged disks re-read twice and "
		"cross-checked with smartctl; (2) network: netcheck's findings; (3) the media factored out:"
		" a twin of the pool of the same kind and layout on RAM-backed loop devices (files on "
		"/dev/shm) under a short write-and-read workload (without a POOL: a RAM disk read through "
		"the same path); (4) the same workload on the pool, compared with its twin and its members "
		"(under a fifth of the twin and under a tenth of one member's raw rate: the loss is in the "
		"pool itself, its layout or properties; merely slower than RAM is what real disks are, and "
		"not a finding). With --client HOST --nvme-tcp ADDR[:PORT] (HOST through ssh HOST, or "
		"--client-via PREFIX as ramdisk wire --via; --host-nqn NQN to let in that client alone, "
		"else any host for the step's seconds; --client-iotriage PATH: the iotriage program on the "
		"client, by default this binary's path), step 3 also crosses the wire: a RAM disk made, "
		"exported over NVMe/TCP on ADDR, measured here and on the client as ramdisk wire does, "
		"unexported and destroyed (also on failure and Ctrl-C); a large loss makes the verdict the "
		"network or the target stack, with the round trip and the figures. It stops at the first "
		"step that explains the complaint and prints the layer, the evidence, how sure (confirming "
		"reads, health) and the next thing to do; otherwise \"no layer stands out\". When no disk "
		"could be read at all, there is no verdict: \"not determined\", with each disk's reason, "
		"and exit 1. Every read and write has a time cap; the run says how long it can take at most"
		" before it starts (--quick: 64 MiB reads, 10 to 20 s caps). --lab builds a zfs-fuse raidz "
		"(btrfs raid1 without ZFS) on five loop devices, with one member slowed for this process by"
		" a cgroup blkio rule (or none), diagnoses it, and removes it; pools left by a killed run "
		"carry an owner tag and are removed by the next run." },
	{ { "readdisks" },
		"Step 1 of the method: reads every whole disk with O_DIRECT (1000 MiB in 1 MiB blocks by "
		"default), lists what it skipped and why, and shows each disk as a percentage of the "
		"median. Each disk gets a verdict against its identical siblings (median and MAD; a flagged"
		" disk is re-read twice to confirm): loop3 reads at 41% of the median of 6 same-model disks"
		" (3 of 3 reads out of line). --rw randread is the per-disk IOPS pass instead (the NAS "
		"vendor's \"IOPS read\" column): random reads, 4 KiB unless --bs, at --iodepth, over each "
		"whole disk for --runtime (10 s by default), with the same outlier verdict judged on IOPS; "
		"its --save-baseline keeps an IOPS baseline per disk (apart from the bandwidth one, same "
		"identity rules), which a later IOPS pass at the same block size and queue depth compares "
		"with (percent of baseline, slow when below --regression). --mode both reads each disk "
		"alone, then all together, and reports disks that are fast alone but slow together as a "
		"shared-path bottleneck (controller, cable, one backing disk), for a whole controller or "
		"for a subset of 2 or more of its disks held below 70% of their solo rate while the others "
		"keep theirs. --group-by shows the disks by pool device group (from zpool and btrfs), by "
		"controller, or by SES enclosure. Before the reads, every disk on a physical transport "
		"(NVMe, SATA, SCSI, SAS, USB) is asked for its health by smartctl (8 at a time, 10 s at "
		"most each): SMART state, NVMe critical warning, media errors, temperature, in the table's "
		"HEALTH column and each device's health object; a disk reporting a health failure (SMART "
		"failed, a critical warning, media errors, non-zero ATA attributes 5, 187, 197 or 198, "
		"named with their raw value: attribute 5 Reallocated_Sector_Ct raw 8) is a finding whatever"
		" its read rate, and doctor's media verdict names it. A disk judged slow is cross-checked "
		"the same way (virtual disks: why there is no SMART data). A disk that fails part way is a "
		"finding of its own, with the offset and how much was read ('/dev/sdb' returned I/O errors "
		"at offset 33554432 (32 MiB): Input/output error; 33554432 bytes (32 MiB) read before it), "
		"also cross-checked with smartctl; a disk on which no read completes for 30 s is reported "
		"as no response in 30 s at offset ... and the other disks go on. Each read runs in a child "
		"process that is given up at that deadline (or a second after Ctrl-C): iotriage never waits"
		" on a stuck device, and says which reader it left stuck in the kernel until the device "
		"answers." },
	{ { "readpooldisks" },
		"The read test on exactly the members of one pool: a ZFS pool by name or GUID (members from"
		" zpool status, named the way the pool names them, shown by device group; --group-by "
		"controller or enclosure regroups them) or a btrfs file system by label or UUID (members "
		"from btrfs filesystem show). A pool that does not exist gets an error listing the pools "
		"that do." },
	{ { "readdisk" },
		"The same test on one device, to re-test a suspect disk. Says why when it cannot read (not "
		"a block device, no such path, permission refused, device smaller than asked)." },
	{ { "run" },
		"One fio-like workload with the built-in engine: --rw "
		"read|write|randread|randwrite|rw|randrw, --rwmixread, --bs, --iodepth, --numjobs, --size, "
		"--io-size, --runtime, --engine, --direct, --pattern, --pin, --force DEVICE, "
		"--sample-interval (bandwidth samples, 1 s by default: the run's noise for compare), "
		"--ramp-time (I/O runs, statistics start after it), --time-based (keep going until "
		"--runtime), --rate/--rate-iops (a cap per job, to measure latency at a given load), "
		"--random-map uniform|once. Every 512-byte sector of every write is scrambled before it is "
		"submitted, so a deduplicating pool, VDO or SSD cannot flatter the figure (--pattern zeros "
		"for the comparison). Every figure has its completion latency (mean, p50 to p99.99, max), "
		"with io_uring and libaio its submission latency too (fio's slat; they submit apart from "
		"completing), and CPU time. --fio-job FILE [TARGET] runs an existing fio job file (a "
		"[global] section and job sections, fio's defaults) one job after another: the options rw, "
		"bs, iodepth, numjobs, size, io_size, runtime, ramp_time, time_based, rwmixread/rwmixwrite,"
		" direct/buffered, ioengine (psync, sync, pvsync, libaio, io_uring, null), filename (TARGET"
		" replaces it), rate, rate_iops, randrepeat and norandommap (the random map is on unless "
		"norandommap, as in fio; group_reporting, stonewall and description change nothing here); "
		"any other option is refused by name, section and line, and nothing runs (a job runs the "
		"same number of I/Os as fio's: tests/cli/test_fio_job.sh). Each job runs pinned to its own "
		"CPU unless --pin 0. Reads never open a device for writing. A write to a block device is "
		"refused while it is mounted (matched by device number), swapped on, held (sysfs holders, "
		"another O_EXCL opener) or carries a signature (file system, ZFS, LVM, md, partition table,"
		" found with libblkid); --force DEVICE, naming the target a second time, overrides a "
		"signature only, never a device in use." },
	{ { "benchpool" },
		"Step 4 of the method: the pool as an application sees it. POOL is a ZFS pool (name or "
		"GUID), a mounted btrfs file system (label or UUID) or a directory; SIZE is in GB (default "
		"1) or takes a unit (256M). It creates temporary, tagged areas (ZFS datasets with "
		"recordsize 1M, and 4K when a random test runs, both primarycache=metadata; btrfs "
		"subvolumes; subdirectories) and runs --tests (default all): fio (mixed sequential 1 MiB, "
		"one job; mixed random 4 KiB, eight jobs; 60 s caps; JSON parsed and embedded), elbencho, "
		"dd (incompressible data through a pipe, conv=fdatasync, then a read back), iozone (-a) and"
		" builtin (the iotriage engine, always available). A missing tool is skipped with a "
		"warning; the run fails only if none can run. A SIZE the pool has no room for is refused "
		"before anything is written (the free space and the need); a pool that fills up during a "
		"test ends that test with the pool is full: ... (the file, the byte, what was written), the"
		" next test still runs, the areas are removed and the exit status is 1. Reads are O_DIRECT "
		"or after dropping the page cache, with no ARC data caching, and every read figure is "
		"labelled pool or cache; every write figure names its data and the area's compression; on a"
		" compressing area dd also writes zeros and the report explains the difference; a SIZE "
		"under twice the cache is called out; perf's usability is noted. The results file holds the"
		" pool status (zpool status -v -P or btrfs filesystem show/usage) and every engine's full "
		"output. Areas are removed at the end, on failure and on SIGINT/SIGTERM/SIGHUP; after a "
		"SIGKILL the next run removes what carries the iotriage owner tag of a dead run, and "
		"nothing else." },
	{ { "rwpool", "rwpools", "runall" },
		"The spec's older pool test: an incompressible file (1 GiB by default) written into the "
		"pool's mount point (inside a tagged directory, no dataset created) and read back, with the"
		" spec's WRITE-POOL-FILE/READ-POOL-FILE log lines. A file that does not fit is shrunk, and "
		"the bytes actually written are reported. On ZFS the read-back is labelled cache (the ARC "
		"may serve it). rwpools runs it on every ZFS pool and mounted btrfs file system; runall "
		"adds readpooldisks for each (--read-size per member, default 1000M), in one document: the "
		"sweep to attach to a support case. Both write into every pool: do not run them where you "
		"do not own the other pools." },
	{ { "interactive" },
		"The guided chooser: lists the pools and disks, asks for the test (readdisk, readdisks, "
		"readpooldisks, benchpool, rwpool, netcheck, doctor), the disk or pool and the size, shows "
		"the command line it stands for, and runs it. Without a terminal: Interactive mode requires"
		" a terminal; specify an operation instead, exit 2." },
	{ { "volumes" },
		"The NAS vendor's per-volume table: for each mounted ZFS dataset, btrfs file system or "
		"subvolume and ext4/xfs file system, a quick read-throughput test (1 MiB blocks, queue "
		"depth 32, 15 s cap) of a freshly written, incompressible 256 MiB test file, in the columns"
		" VolID, Name, Pool, Mapping, Mount, Throughput. Every figure is labelled media, pool or "
		"cache: the file is dropped from the page cache and read with O_DIRECT; a ZFS read is "
		"labelled cache because the ARC may serve it (nothing is set on your dataset) unless the "
		"file is at least twice the ARC or the dataset caches no data. The test file is an "
		"O_TMPFILE (nothing survives even SIGKILL) or, where the file system refuses that "
		"(zfs-fuse), a tagged .iotriage-volumes-<run id> file, removed on exit and on signals, and "
		"by the next run after a SIGKILL. Pseudo file systems, bind mounts and the root file system"
		" (unless --match names it) are listed as skipped with the reason; a read-only or full "
		"volume gets a row with the reason." },
	{ { "netcheck" },
		"Step 2 of the method: rules out the network. Lists each port's state, speed and duplex "
		"(ethtool; \"unknown\" on virtual ports), MTU, addresses and traffic over a window (2 s; so"
		" traffic collapsed onto one port shows); flags default routes of equal metric on different"
		" ports (read with rtnetlink), naming ports and gateways; reads bonds from "
		"/proc/net/bonding (802.3ad without a LACP partner: \"the switch is not running LACP on "
		"these ports\"; balance-rr/xor need a static LAG); measures loss and min/avg/max RTT to "
		"each --dest (default: the gateways) from each port that routes to it; and on ports with an"
		" MTU above 1500 sends don't-fragment probes at the full MTU, reporting a mismatch with the"
		" largest size that passes (bisection). With --peer HOST (an ssh host, repeatable): TCP "
		"throughput to it with iperf3, from each local port that routes to it (iperf3 -c -J -B the "
		"port's address), one stream and four (-P 4), each against a one-shot server started there "
		"over ssh (iperf3 -s -1 -B ADDR -p PORT, in a session with a terminal, so it ends with the "
		"session: at the end, on Ctrl-C or a dropped connection), compared with the port's link "
		"speed (ethtool; a bond: its members' sum): a path under a quarter of its link speed is a "
		"finding, and so is a bond that carries under 60% of its members' sum and no more than one "
		"member's speed, with the fix for its mode and hash policy. A peer that cannot be measured "
		"(unreachable, iperf3 missing there or here, no route) is said with the reason and counts "
		"as a check not made. One FINDING: line per finding, with its fix. Exit 0 when everything "
		"could be checked, findings or not (they are in the output and the document); 1 when a "
		"check could not be made (no ICMP socket, rtnetlink failed). Needs root, or ping sockets "
		"allowed by net.ipv4.ping_group_range." },
	{ { "matrix" },
		"The published benchmark's comparison matrix: one suite over several targets in a fixed "
		"order (the --target directories or devices, read-only, as given; then, with --pool, "
		"temporary ZFS datasets for each recordsize with each compression, default 8k,64k x "
		"off,lz4; lz4 falls back to on where the ZFS lacks it, and says so; with --images DIR, a "
		"raw and a qcow2 image file measured through QEMU's block layer with qemu-img bench, "
		"sequential tests only). Default suite: sequential and random read and write at 8K, 64K and"
		" 1M with O_DIRECT where the file system takes it (fio where installed, else the built-in "
		"engine), and dbench at 1, 6 and 12 clients where installed. Datasets are tagged, "
		"primarycache=metadata, and removed at the end, on failure and on signals; a killed run's "
		"by the next run. Prints one row per test, one column per target. Every result of the "
		"built-in engine and of fio carries its completion latency (mean, p50 to p99.99, max) in "
		"the document." },
	{ { "fleet" },
		"One iotriage command on many hosts over OpenSSH (ssh: your ~/.ssh/config with its aliases,"
		" ProxyJump and IdentityFile, or -F FILE; BatchMode, so never a password prompt; a connect "
		"timeout; one multiplexed connection per host; host key checking as you configured it, "
		"--accept-new-host-keys for accept-new). HOSTS is a comma list and/or a file (one per line,"
		" # comments); an empty name, a malformed line, a host named twice or --parallel 0 is an "
		"error and nothing runs. Each host first answers a handshake (iotriage --json --version: "
		"its version, document schema, host name and machine-id); then the command runs there, "
		"--parallel hosts at a time (default 8), each within --time-limit (default 1h). Each host "
		"gets a status and reason: ok, unreachable, auth-refused, host-key, iotriage-missing (with "
		"what to install, and whether this machine's binary would run there), incompatible, failed "
		"(its exit status and error), time-limit, interrupted. Each host's document is kept here (a"
		" results file per host, and a database run with the host's name, host name and "
		"machine-id); the fleet's own document holds hosts[] with each document. Hosts whose read "
		"rate (readdisk, readdisks, readpooldisks, demo) stands out from their peers' (median and "
		"MAD, as for disks) are run again and named only when every run agrees: host c reads at 41%"
		" of the median of 6 hosts (2 of 2 runs) (bench/fleet_outlier.sh). Ctrl-C or the time limit"
		" asks every remote run to stop and waits for it to clean up as a local Ctrl-C does "
		"(--grace, 60 s); a remote run whose ssh session drops stops and cleans up by itself. Exit "
		"status: 0 every host ok, 1 some failed, 3 none ok." },
	{ { "fleet" },
		"Synchronized load from many clients through fio's client/server mode: each host's address "
		"as ssh reaches it (ssh -G), fio --version there and here (a client without fio is named, "
		"with what to install, before anything starts), fio --server=ADDR,PORT started on every "
		"client over ssh (a session with a terminal, under a sh trap on the client that stops the "
		"server and every job it forked when the session ends: at the end, on Ctrl-C, on a dropped "
		"connection), then one fio --client=ADDR,PORT ... --output-format=json job from here, so "
		"all clients start together. FIO-OPTIONS are fio's job options (--rw=randread --bs=4k "
		"--filename=/dev/sdb --runtime=30 --time_based=1), sent as a job file. Each client's read "
		"and write rate and IOPS are reported under the host name you gave (fio names them by "
		"address), with their sum as the aggregate and fio's own All clients figure beside it; a "
		"client fio could not reach is reported with fio's reason. The document holds clients[], "
		"aggregate and fio's report; show, compare and report read it. Exit status as for fleet." },
	{ { "history" },
		"Stored runs, newest first, with their ids and their HOST: local, or the host a fleet run "
		"collected the run from (and that fleet run); --host keeps one host's runs (the fleet's "
		"name for it or its host name)." },
	{ { "show" },
		"One stored run again: its figures as a table (each bandwidth or IOPS figure with its p50, "
		"p99 and p99.9 latency where the run has them), or with --json its document as stored. RUN "
		"is an id or a unique prefix. A fleet run shows a row per host (status, run, rate, share of"
		" the median, a bar) and names the outlier host; RUN@HOST is the document host HOST sent "
		"back in the fleet run RUN." },
	{ { "compare" },
		"The same tests side by side, each later run against the first, with the change in percent."
		" A change within the runs' own noise (twice the combined standard deviation of their "
		"bandwidth samples, Student's t for few samples, and at least 40% between single runs, "
		"whose drift the samples inside a run cannot show: 22% and 27% were seen on this shared VM;"
		" 40% without samples) is \"not significant\", never a win or a loss; a latency without "
		"samples of its own is \"not judged\" (bench/compare_noise.sh: the p99 of identical runs "
		"differed by up to 2.8x). A side can be repeat runs of one workload, ID+ID+ID: their mean "
		"is compared and the spread between them is the noise, with a 15% floor when both sides are"
		" repeats (sets of runs made one after another still share the moment's machine state: two "
		"steady sets differed by 13%), so a 20-40% change that single runs cannot show stands out "
		"(bench/compare_repeats.sh). A side can be one host's run of a fleet run, RUN@HOST. --hosts"
		" FLEET_RUN compares every host with the base host (--base, default the median host: the "
		"one whose rate is nearest the median of the hosts') and names the outlier host, the one "
		"furthest from the median: host h4 is the outlier: 21% of the median of 4 hosts (median "
		"host h3)." },
	{ { "report" },
		"One self-contained HTML page (no scripts, no network: inline SVG bar charts per test and "
		"figure marked higher or lower is better, with a chart each for the p50, p99 and p99.9 "
		"latency of every figure that has them (run, fio jobs, disk reads, matrix, presets, "
		"benchpool's built-in engine, volumes), a latency percentile curve per run (p50 to p99.99, "
		"log scale, a line per latency), per-disk charts of read tests with outliers in red, "
		"tables, the exact parameters of every test, changes against the first run), a CSV file "
		"(one row per measurement) and a Prometheus text file for node_exporter's textfile "
		"collector; each written atomically. A fleet run brings its hosts' runs: per-host bars (the"
		" outlier host in red) in the page, each host's rows under its name in the CSV file's host "
		"column and a host label on every sample." },
	{ { "disks" },
		"Every disk the database knows: its last read rate and date, its baseline, and the change "
		"since." },
	{ { "demo" },
		"Throwaway loop devices, one slowed; read-tested; removed (also on Ctrl-C)." },
	{ { "ramdisk create" },
		"Step 3 of the method: RAM-backed disks of SIZE (M/G) each, /dev/iotriage-ramdisk0..., on "
		"the first backend the kernel offers: scsi_debug (a SCSI identity, so a "
		"/dev/disk/by-id/scsi-* link; --ndelay), null_blk (--ndelay as completion_nsec), brd, zram "
		"(no latency injection: --ndelay is refused). Each device gets its own store, checked "
		"before they are handed over. Waits up to 30 s for another run creating or removing RAM "
		"disks (Ctrl-C ends the wait, with nothing made). Refuses more than two thirds of "
		"MemAvailable (showing the numbers), while RAM disks exist, and without -y when there is no"
		" terminal to ask on; notes a ZFS ARC." },
	{ { "ramdisk list" },
		"Any user: device, friendly name, backend, size, sector, ndelay, status (free, mounted on, "
		"in a pool, open by PROGRAM (pid N)) and by-id path." },
	{ { "ramdisk destroy" },
		"All or none: refuses while any is mounted, in a pool, held or open, naming which and by "
		"what; --force (confirmed, or -y) removes them anyway where the kernel allows and says what"
		" it left dangling. Shows MemAvailable before and after." },
	{ { "ramdisk sweep" },
		"A RAM disk at each --ndelay value (default 0,50000,250000): 4 KiB random reads at queue "
		"depth 1 with the built-in engine; mean latency, p50, p99, IOPS and the latency each value "
		"added (the document has every percentile, p50 to p99.99, in each point's lat_ns). Values "
		"the backend cannot inject are reported as not measured, with the reason." },
	{ { "ramdisk export", "ramdisk unexport" },
		"Step 3 across the wire: exports the RAM disks iotriage created, and nothing else, through "
		"the kernel's NVMe/TCP target (nvmet configfs): one subsystem "
		"nqn.2014-08.org.iotriage:ramdisk-<run id>, a namespace per RAM disk, a TCP port in "
		"61696-61727, the allowed host. The address must be local and the port free; a refused "
		"export leaves nothing made. --iscsi exports them through the kernel's LIO target instead "
		"(configfs, no targetcli): an iblock backstore per RAM disk, target "
		"iqn.2014-08.org.iotriage:ramdisk-<run id> with a LUN per disk, the portal (port 3260 by "
		"default), the one initiator's ACL or, with --allow-any-host, any initiator; where the "
		"kernel has no LIO it says so and makes nothing. ramdisk list shows the export; ramdisk "
		"destroy refuses while exported (naming it), --force unexports first; a killed export is "
		"removed by the next run." },
	{ { "ramdisk wire", "ramdisk client" },
		"What the network and the target stack cost: three workloads on the exported RAM disk here,"
		" then on the client (--via 'ssh HOST', or ip netns exec NS): 4 KiB random read at queue "
		"depth 1 (latency), at queue depth 32 (IOPS) and 1 MiB sequential read at queue depth 8 "
		"(bandwidth), --runtime each (5 s). The client first measures its round trip to the "
		"target's port (the fastest of 5 TCP connects), connects through /dev/nvme-fabrics, finds "
		"the disk by its NQN and namespace id (never by guessing its name), reads, and disconnects,"
		" also on failure and Ctrl-C. Over iSCSI (wire picks the export's transport) the client "
		"uses open-iscsi (iscsiadm, with iscsid running): discovery, a node record for the target "
		"alone, login, LUN 0 found by the session's target name in sysfs, then logout and the node "
		"record deleted, also on failure and Ctrl-C (a run killed with SIGKILL leaves its session; "
		"the next client run logs it out first). The kernel's iSCSI initiator works in the initial "
		"network namespace only. Reports both sides' figures, the latency the wire adds per I/O "
		"(mean, p50, p99), the share of local IOPS and bandwidth reached, and a sentence: when the "
		"loss is large (200 us or more added at QD1, or under 10% of local IOPS or bandwidth: a "
		"local RAM disk runs at memory speed, and one NVMe/TCP queue on a sound path reaches a "
		"fraction of it) it names the layer, the network when its round trip is at least half the "
		"latency added, else the target stack; otherwise \"the network and target stack cost "
		"little\", with the figures. Each side also finds the port under the path (the client's "
		"route to the target; the port holding the target's address), its speed and the rate its "
		"root qdisc (tbf, netem) shapes it to, read from the kernel; the slowest of the client's "
		"speed, the target's speed and the target's shaping (reads flow from it) is the path's "
		"ceiling, and 1 MiB reads within 15% of it (and under 85% of local) are \"a bandwidth "
		"ceiling that matches the link (N Mb/s, ...)\": the network. A port that reports no speed "
		"(virtio, the loopback; a veth's fixed 10000 Mb/s is not taken) leaves the ceiling \"not "
		"known\", said in the document and never claimed. With --ndelay LIST (one per-command delay"
		" or a comma list, 2ms or 100us,2ms, each under 1 s) the comparison runs first at the RAM "
		"disk's own delay, then with its back end set to each delay at runtime, and the delay it "
		"was made with is restored at the end (also on failure and Ctrl-C; the log says each step):"
		" how much a slow back end is passed through to the client, hidden by the path's own limit,"
		" or amplified. Per workload the delay's effect locally is set against its effect from the "
		"client: at QD1 the mean latency it adds, at QD32 and 1 MiB the share of IOPS or bandwidth "
		"it loses; the client's within 25% of local's is \"passed through\", under 75% \"hidden\", "
		"over 125% \"amplified\", under 5% on both sides \"no effect\"; one sentence a delay (\"a "
		"back end slower by 2000 us per command: QD1 +2001 us locally, +2010 us from the client "
		"(passed through); QD32 IOPS -84% locally, -57% from the client (hidden in part by the "
		"path); ...\"). Only a scsi_debug RAM disk can change its delay while it exists, and only "
		"when iotriage loaded the module (its delay is the module's, for all its devices); null_blk"
		" (its delay is fixed once the device is powered), brd and zram (no delay) are refused "
		"before anything is changed or measured, with exit 1 and the way: ramdisk create --backend "
		"scsi_debug." },
	{ { "presets" },
		"Named workload sets, each test printed with the equivalent fio command line: nas-iops (the"
		" NAS vendor's IOPS test: 8 jobs at queue depth 64, 4K, 30 s ramp, 60 s time-based), cdm "
		"and cdm-nvme (CrystalDiskMark's SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1 sets, "
		"repeated N times: mean, best and spread per test). Writes to a block device pass the same "
		"guard as run." },
	{ { "bundle" },
		"For the vendor, iotriage bundle [--runs N] [-o FILE] writes one .tar.gz (temporary name, "
		"then renamed): the log's tail, the newest N runs' documents and the database's runs, zpool"
		" status -DvP (-Dv on zfs-fuse), btrfs filesystem show and usage, smartctl -x of every "
		"disk, the disk inventory with identities, netcheck's findings, the kernel log's tail and "
		"the system inventory, with a manifest. Programs run with only PATH and LC_ALL=C in their "
		"environment, so no variable, key or password goes in." },
	{ { NULL }, NULL },
};

static const struct docgen_section sections[] = {
	{ "ENVIRONMENT",
		"Global options, before or after the command: --json (one JSON document on stdout), "
		"--log-file PATH, --results-dir DIR, --db PATH, --help, --version. IOTRIAGE_STATE_DIR=DIR "
		"puts the log, results and database under one directory." },
	{ "ON A TERMINAL",
		"On a terminal (stderr is one, and no --json), every long command keeps one line redrawn in"
		" place with what is running, how far it is and an ETA from the rate so far (ETA unknown "
		"until there is a rate): readdisks: reading /dev/sdb (disk 2 of 6), 31%, 1.8 GiB of 5.9 "
		"GiB, ETA 41 s. readdisk, readdisks (serial, --parallel: reading 6 disks at once, and "
		"--mode both; the IOPS pass, time-based, in seconds: 12 s of 40 s, one runtime for all "
		"disks read at once), readpooldisks, rwpool, rwpools and runall (bytes written and read "
		"back), volumes (bytes, the write as it goes), doctor (step N of 4, weighed by each step's "
		"time budget; the media step by the bytes its disks read), run and presets have one. "
		"benchpool (test N of M), matrix (cell N of targets x tests) and ramdisk sweep (value N of "
		"M) are planned in time, each step at its time cap (--runtime per pass or cell; an engine "
		"without a cap, dd, elbencho, iozone, qemu-img, at a runtime per pass for want of better): "
		"the line moves inside a step (the built-in engine by its bytes or its time, whichever is "
		"nearer its end; fio and dbench by the time while they run), and the ETA is the running "
		"step's own estimate plus the caps of the steps after it, so a fast first test does not "
		"make the rest look fast: benchpool: builtin on tank (test 2 of 2): random I/O in ..., 82%,"
		" ETA 2 s. fleet shows the hosts done of the total and the ones running: fleet: 2 of 8 "
		"hosts done, running h3 h4 h7, 25%, ETA 40 s. Piped, or with --json, there is none. Devices"
		" that are not disks (unattached loop devices, uninitialised zram, removable drives without"
		" a medium) are one line, skipped 12 devices that are not disks: 10 unattached loop, 2 "
		"uninitialised zram (--json lists each), not a log line and a table row each; the log file "
		"and the document still have each one. A read batch's verdict follows its tables under a "
		"Verdict heading." },
	{ "FILES",
		"Every run writes one JSON document (see docs/results.md), which also "
		"says what the figures were measured on, as benchmark publishers print it beside theirs: "
		"the machine (system: CPU model and count, memory, kernel, distribution), iotriage's "
		"version, and each outside program the run started with the version it reports (tools: fio,"
		" zfs or zfs-fuse's pool version, smartctl, btrfs-progs, dd, iperf3, ssh, ...):\n\n"
		"/var/log/iotriage/iotriage.log: every log line, appended, in the format {Thu Sep 3 "
		"05:19:08 2026, INFO, iotriage} READ-DISK (/dev/sda): completed: 1048576000 bytes (1.0 GB, "
		"1000 MiB) copied, 0.903725 s, 1.2 GB/s\n\n"
		"/var/log/iotriage/results/iotriage_<command>_<run id>_<time>.json: the run's document\n\n"
		"/var/lib/iotriage/iotriage.db: SQLite; runs, devices (keyed by WWN or serial), results\n\n"
		"(Non-root: under $XDG_STATE_HOME/iotriage or ~/.local/state/iotriage.)" },
	{ "MEASUREMENT",
		"Reads are O_DIRECT (no page cache, marked \"cache\": \"bypassed\"), aligned to the "
		"device's own logical sector (512 and 4096 both work). Written data is incompressible by "
		"default. A size or time limit is a cap, not a duration: results hold the bytes and seconds"
		" actually done, and which cap stopped the run." },
	{ NULL, NULL },
};

const struct docgen_details *docgen_details_table(void)
{
	return details;
}

const struct docgen_section *docgen_main_sections(void)
{
	return sections;
}
