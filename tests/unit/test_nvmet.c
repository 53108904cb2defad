/* The NVMe/TCP export (ramdisk/nvmet.c) on a temporary directory standing
 * in for the nvmet configfs tree: the names, the record, what an export
 * makes and an unexport removes, a half-made export after a kill removed
 * by the reaper without touching anyone else's subsystem or port; the
 * initiator's pure parts (ramdisk/fabrics.c) on a stand-in sysfs; and the
 * client's result line (triage/ramdisk/ramdisk_wire.c). The kernel's own
 * behaviour (listening, a port in use) is tested in the VM
 * (tests/cli/test_wire_vm.sh). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "ramdisk/nvmet.h"
#include "ramdisk/ramdisk.h"
#include "tap.h"
#include "triage/ramdisk/ramdisk_export.h"

static bool exists(const char *root, const char *rel)
{
	char p[1024];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return lstat(p, &st) == 0;
}

static bool has_text(const char *root, const char *rel, const char *want)
{
	char p[1024], v[512];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	return read_small_file(p, v, sizeof(v)) >= 0 && strcmp(v, want) == 0;
}

static void test_pure(void)
{
	char addr[64], why[300];
	unsigned port = 0;
	is_int(ramdisk_export_parse_addr("10.1.2.3", RAMDISK_NVMET_TRSVCID, addr, sizeof(addr), &port, why, sizeof(why)), 0, "ADDR parses");
	ok(strcmp(addr, "10.1.2.3") == 0 && port == 4420, "port 4420 by default");
	is_int(ramdisk_export_parse_addr("10.1.2.3:4421", RAMDISK_NVMET_TRSVCID, addr, sizeof(addr), &port, why, sizeof(why)), 0,
	       "ADDR:PORT parses");
	ok(port == 4421, "the port given");
	is_int(ramdisk_export_parse_addr("10.1.2:4420", RAMDISK_NVMET_TRSVCID, addr, sizeof(addr), &port, why, sizeof(why)), -EINVAL,
	       "a bad address is refused");
	ok(strstr(why, "'10.1.2:4420'") != NULL, "naming it");
	is_int(ramdisk_export_parse_addr("10.1.2.3:0", RAMDISK_NVMET_TRSVCID, addr, sizeof(addr), &port, why, sizeof(why)), -EINVAL,
	       "port 0 is refused");
	is_int(ramdisk_export_parse_addr("10.1.2.3:70000", RAMDISK_NVMET_TRSVCID, addr, sizeof(addr), &port, why, sizeof(why)), -EINVAL,
	       "port 70000 is refused");
	is_int(ramdisk_export_check_local("127.0.0.1", why, sizeof(why)), 0, "127.0.0.1 is local");
	is_int(ramdisk_export_check_local("192.0.2.77", why, sizeof(why)), -EADDRNOTAVAIL,
	       "a TEST-NET address is not local");
	ok(strstr(why, "'192.0.2.77' is not one of this host's") != NULL, "and the error says so");

	struct ramdisk_export e = { 0 };
	ramdisk_nvmet_names("0123456789abcdef", &e);
	is_str(e.name, "nqn.2014-08.org.iotriage:ramdisk-0123456789abcdef", "the NQN carries the tag and run id");
	is_str(e.serial, "iotriage0123456789ab", "serial: 20 characters");
	ok(ramdisk_nvmet_nqn_ours(e.name) && !ramdisk_nvmet_nqn_ours("nqn.2014-08.org.nvmexpress:other"),
	   "the tag tells ours from others");
	ok(ramdisk_nvmet_port_ours(61696) && ramdisk_nvmet_port_ours(61727) && !ramdisk_nvmet_port_ours(61728) &&
		   !ramdisk_nvmet_port_ours(1),
	   "ports 61696..61727 are ours");

	e.port_id = 61697;
	snprintf(e.traddr, sizeof(e.traddr), "10.9.0.1");
	e.port = 4420;
	snprintf(e.client, sizeof(e.client), "nqn.2014-08.org.nvmexpress:uuid:1");
	e.client_made = true;
	e.pid = 42;
	e.complete = true;
	e.n = 2;
	snprintf(e.devices[0], sizeof(e.devices[0]), "/dev/sda");
	snprintf(e.devices[1], sizeof(e.devices[1]), "/dev/sdb");
	char text[4096];
	ramdisk_export_format(&e, text, sizeof(text));
	struct ramdisk_export back;
	is_int(ramdisk_export_parse(&ramdisk_transport_nvmet, text, &back), 0, "a record parses back");
	ok(memcmp(&e, &back, sizeof(e)) == 0, "to the same export");
	is_int(ramdisk_export_parse(&ramdisk_transport_nvmet, "nqn=nqn.2014-08.org.nvmexpress:x\nport_id=61696\n", &back), -EINVAL,
	       "a record naming another's subsystem is refused");
	is_int(ramdisk_export_parse(&ramdisk_transport_nvmet, "nqn=" RAMDISK_NVMET_NQN_PREFIX "x\nport_id=1\n", &back), -EINVAL,
	       "a record naming a port outside the range is refused");

	char ctrl[32];
	is_int(ramdisk_fabrics_parse_answer("instance=3,cntlid=1\n", ctrl, sizeof(ctrl)), 0, "fabrics answer parses");
	is_str(ctrl, "nvme3", "to the controller's name");
	is_int(ramdisk_fabrics_parse_answer("cntlid=1\n", ctrl, sizeof(ctrl)), -EINVAL, "no instance: refused");

	struct wire_side sd = { .rtt_ns = 98765 };
	for (int w = 0; w < WIRE_WORKLOADS; w++) {
		sd.w[w] = (struct wire_lat){ .measured = true, .mean_ns = 1234.5 + w, .p50_ns = 1200, .p99_ns = 3000,
					     .iops = 810.2, .bw_bytes_per_s = 3e6 * (w + 1), .ios = 4051 + (uint64_t)w };
		snprintf(sd.w[w].device, sizeof(sd.w[w].device), "/dev/nvme1n1");
	}
	char lines[1024];
	ramdisk_wire_format(&sd, lines, sizeof(lines));
	struct wire_side sb;
	char out[1200];
	snprintf(out, sizeof(out), "noise\n%s", lines);
	is_int(ramdisk_wire_parse(out, &sb), 0, "the client's lines parse after other output");
	const struct wire_lat *seq = &sb.w[WIRE_SEQ];
	ok(seq->p50_ns == 1200 && seq->p99_ns == 3000 && seq->ios == 4053 && seq->mean_ns > 1235 && seq->mean_ns < 1238 &&
		   seq->bw_bytes_per_s == 9e6 && sb.w[WIRE_QD1].ios == 4051 && sb.rtt_ns == 98765 &&
		   strcmp(seq->device, "/dev/nvme1n1") == 0,
	   "with every figure of every workload and the round trip");
	ok(!sb.link.found && sb.link.speed_mbps == -1, "no port line: the client's port is not known");
	sd.link = (struct link_rate){ .found = true, .interface = "eth1", .kind = "", .speed_mbps = 25000,
				      .qdisc = "tbf", .shaped_bps = 400000000 };
	ramdisk_wire_format(&sd, lines, sizeof(lines));
	is_int(ramdisk_wire_parse(lines, &sb), 0, "with the client's port line it parses");
	ok(sb.link.found && strcmp(sb.link.interface, "eth1") == 0 && sb.link.kind[0] == '\0' &&
		   sb.link.speed_mbps == 25000 && strcmp(sb.link.qdisc, "tbf") == 0 && sb.link.shaped_bps == 400000000,
	   "the port, its kind (none), speed, qdisc and shaped rate come back");
	is_int(ramdisk_wire_parse("wire workload=qd1 device=/dev/x mean_ns=1\n", &sb), -EINVAL, "a cut line is refused");
	char *cut = strstr(out, "wire workload=seq1m");
	*cut = '\0';
	is_int(ramdisk_wire_parse(out, &sb), -EINVAL, "a missing workload is refused");
}

/* A side with QD1 mean MEAN_US, QD32 IOPS and 1 MiB MB/s. */
static struct wire_side side(double mean_us, double iops, double mbps, double rtt_us)
{
	struct wire_side s = { .rtt_ns = (uint64_t)(rtt_us * 1e3) };
	s.w[WIRE_QD1] = (struct wire_lat){ .measured = true, .mean_ns = mean_us * 1e3, .p50_ns = (uint64_t)(mean_us * 1e3),
					   .p99_ns = (uint64_t)(mean_us * 2e3), .iops = 1e9 / (mean_us * 1e3) };
	s.w[WIRE_QD32] = (struct wire_lat){ .measured = true, .iops = iops };
	s.w[WIRE_SEQ] = (struct wire_lat){ .measured = true, .bw_bytes_per_s = mbps * 1e6 };
	return s;
}

static void test_judge(void)
{
	struct wire_judgement j;
	struct wire_side local = side(5, 200000, 2000, 0);
	struct wire_side near = side(45, 120000, 1500, 30);
	ramdisk_wire_judge(&local, &near, &j);
	ok(!j.large && !j.layer && strncmp(j.sentence, "the network and target stack cost little: 40.0 us added", 55) == 0,
	   "40 us added, 60% of IOPS, 75% of bandwidth: the wire costs little");
	struct wire_side far = side(1105, 28000, 900, 1000);
	ramdisk_wire_judge(&local, &far, &j);
	ok(j.large && j.layer && strcmp(j.layer, "network") == 0 && strstr(j.sentence, "1000.0 us") != NULL,
	   "1.1 ms added with a 1 ms round trip: the network, with the round trip");
	struct wire_side slow_target = side(605, 28000, 900, 40);
	ramdisk_wire_judge(&local, &slow_target, &j);
	ok(j.large && j.layer && strcmp(j.layer, "target stack") == 0, "600 us added over a 40 us round trip: the target stack");
	struct wire_side bw_fair = side(45, 120000, 300, 30);
	ramdisk_wire_judge(&local, &bw_fair, &j);
	ok(!j.large && fabs(j.bw_fraction - 0.15) < 1e-9, "15% of local bandwidth is not a large loss");
	struct wire_side bw_loss = side(45, 120000, 150, 30);
	ramdisk_wire_judge(&local, &bw_loss, &j);
	ok(j.large && j.layer && strcmp(j.layer, "target stack") == 0 && fabs(j.bw_fraction - 0.075) < 1e-9,
	   "7.5% of local bandwidth with little latency added and QD32 far from its round-trip bound: the target stack");
	struct wire_side fast_local = side(5, 1500000, 2000, 0), rtt_bound = side(150, 120000, 1500, 140);
	ramdisk_wire_judge(&fast_local, &rtt_bound, &j);
	ok(j.large && j.layer && strcmp(j.layer, "network") == 0,
	   "QD32 at 8% of local but near what 32 in flight allow over a 140 us round trip: the network");
	struct wire_side no_rtt = side(1105, 28000, 900, 0);
	ramdisk_wire_judge(&local, &no_rtt, &j);
	ok(j.large && j.layer && strcmp(j.layer, "target stack") == 0 && strstr(j.sentence, "not measured") != NULL,
	   "no round trip measured: not blamed on the network, and said");
}

static struct link_rate port(const char *name, const char *kind, int64_t speed, const char *qdisc, double shaped_mbps)
{
	struct link_rate k = { .found = true, .speed_mbps = speed, .shaped_bps = (uint64_t)(shaped_mbps * 1e6) };
	snprintf(k.interface, sizeof(k.interface), "%s", name);
	snprintf(k.kind, sizeof(k.kind), "%s", kind);
	snprintf(k.qdisc, sizeof(k.qdisc), "%s", qdisc);
	return k;
}

/* The path's ceiling and "a bandwidth ceiling that matches the link",
 * on both sides of the 15% line. */
static void test_ceiling(void)
{
	struct wire_judgement j;
	char from[200];
	struct wire_side local = side(5, 200000, 2000, 0), remote = side(45, 120000, 47.9, 30);
	local.link = port("vsrv", "veth", -1, "tbf", 400);
	remote.link = port("vcli", "veth", -1, "noqueue", 0);
	ok(fabs(ramdisk_wire_ceiling(&local, &remote, from, sizeof(from)) - 400) < 1e-9 &&
		   strcmp(from, "the tbf rate on vsrv, the target's port") == 0,
	   "veths report no speed: the target's tbf rate is the ceiling");
	ramdisk_wire_judge(&local, &remote, &j);
	ok(j.large && j.link_bound && j.layer && strcmp(j.layer, "network") == 0 &&
		   strncmp(j.sentence, "the network: a bandwidth ceiling that matches the link (400 Mb/s, the tbf rate on "
				       "vsrv, the target's port): 1 MiB reads carried 383 Mb/s, 96% of it: ", 126) == 0,
	   "383 Mb/s over a 400 Mb/s ceiling: the link, named with both figures");
	remote.w[WIRE_SEQ].bw_bytes_per_s = 42.9e6; /* 343 Mb/s: 86% */
	ramdisk_wire_judge(&local, &remote, &j);
	ok(j.link_bound, "343 Mb/s (86%): still the link");
	remote.w[WIRE_SEQ].bw_bytes_per_s = 42.1e6; /* 337 Mb/s: 84% */
	ramdisk_wire_judge(&local, &remote, &j);
	ok(!j.link_bound && j.layer && strcmp(j.layer, "target stack") == 0 && !strstr(j.sentence, "ceiling"),
	   "337 Mb/s (84%): not the link (2% of local bandwidth is the target stack's)");
	remote.w[WIRE_SEQ].bw_bytes_per_s = 58.5e6; /* 468 Mb/s: 117% */
	ramdisk_wire_judge(&local, &remote, &j);
	ok(!j.link_bound, "468 Mb/s over a 400 Mb/s ceiling (117%): the ceiling is not the path's, not claimed");

	/* 10 GbE ports, no shaping: the client's own shaping does not limit reads */
	local.link = port("eth0", "", 10000, "mq", 0);
	remote.link = port("eth1", "", 25000, "tbf", 100);
	remote.w[WIRE_SEQ].bw_bytes_per_s = 1170e6; /* 9360 Mb/s */
	ramdisk_wire_judge(&local, &remote, &j);
	ok(fabs(j.ceiling_mbps - 10000) < 1e-9 && strcmp(j.ceiling_from, "the speed of eth0, the target's port") == 0 &&
		   j.link_bound && j.large && j.bw_fraction > 0.5,
	   "58% of local bandwidth (not a large loss alone) at 94% of the slower port's 10 Gb/s: the link");
	local.w[WIRE_SEQ].bw_bytes_per_s = 1200e6;
	ramdisk_wire_judge(&local, &remote, &j);
	ok(!j.link_bound && !j.large && !j.layer, "local reads no faster than the link: the link costs nothing, not claimed");

	/* unknown: said, never claimed */
	local = side(5, 200000, 2000, 0);
	local.link = port("vsrv", "veth", -1, "noqueue", 0);
	remote.link = port("vcli", "veth", -1, "noqueue", 0);
	remote.w[WIRE_SEQ].bw_bytes_per_s = 50e6;
	ramdisk_wire_judge(&local, &remote, &j);
	ok(j.ceiling_mbps == 0 && !j.link_bound && !strstr(j.sentence, "ceiling") &&
		   strcmp(j.ceiling_from, "not known: the client's port vcli (veth) reports no speed; the target's port "
					  "vsrv (veth) reports no speed and shapes nothing") == 0,
	   "no speed on either side: not known, and why");
	remote.link.found = false;
	ok(ramdisk_wire_ceiling(&local, &remote, from, sizeof(from)) == 0 &&
		   strstr(from, "the client's port was not found") != NULL,
	   "the client's port not found: said");
	remote.link = port("eth1", "", 1000, "", 0);
	ok(fabs(ramdisk_wire_ceiling(&local, &remote, from, sizeof(from)) - 1000) < 1e-9 &&
		   strcmp(from, "the speed of eth1, the client's port") == 0,
	   "the client's 1 Gb/s port alone: the ceiling");

	/* a round trip and a ceiling together: both named */
	local = side(5, 200000, 2000, 0);
	local.link = port("eth0", "", 1000, "", 0);
	struct wire_side far = side(1105, 28000, 118, 1000); /* 944 Mb/s */
	far.link = port("eth1", "", 1000, "", 0);
	ramdisk_wire_judge(&local, &far, &j);
	ok(j.link_bound && strncmp(j.sentence, "the network: every I/O waits for the round trip to the target (1000.0 us", 72) == 0 &&
		   strstr(j.sentence, "; and a bandwidth ceiling that matches the link (1000 Mb/s") != NULL,
	   "1 ms of round trip and 944 Mb/s over 1 GbE: the round trip and the ceiling");
}

static void test_export(const char *root, const char *state)
{
	char why[600];
	struct ramdisk_export e = { 0 };
	ramdisk_nvmet_names("feedfacefeedface", &e);
	snprintf(e.traddr, sizeof(e.traddr), "127.0.0.1");
	e.port = 4420;
	snprintf(e.client, sizeof(e.client), "nqn.2014-08.org.nvmexpress:uuid:client");
	e.n = 2;
	snprintf(e.devices[0], sizeof(e.devices[0]), "/dev/sda");
	snprintf(e.devices[1], sizeof(e.devices[1]), "/dev/sdb");
	/* port 61696 exists (a leftover in our range): the export takes the
	 * next; port 1 is someone else's */
	char p[1024];
	snprintf(p, sizeof(p), "%s/ports/61696", root);
	mkdir_p(p, 0755);
	snprintf(p, sizeof(p), "%s/ports/1", root);
	mkdir_p(p, 0755);
	snprintf(p, sizeof(p), "%s/subsystems/nqn.2014-08.org.nvmexpress:theirs", root);
	mkdir_p(p, 0755);
	is_int(ramdisk_nvmet_export(root, state, &e, why, sizeof(why)), 0, "export on the stand-in tree");
	is_int((int)e.port_id, 61697, "a free port number in our range");
	const char *s = "subsystems/nqn.2014-08.org.iotriage:ramdisk-feedfacefeedface";
	char rel[512];
	snprintf(rel, sizeof(rel), "%s/attr_serial", s);
	ok(has_text(root, rel, "iotriagefeedfacefeed"), "serial set");
	snprintf(rel, sizeof(rel), "%s/attr_allow_any_host", s);
	ok(has_text(root, rel, "0"), "allow_any_host off");
	snprintf(rel, sizeof(rel), "%s/allowed_hosts/nqn.2014-08.org.nvmexpress:uuid:client", s);
	ok(exists(root, rel) && exists(root, "hosts/nqn.2014-08.org.nvmexpress:uuid:client"), "the one host allowed");
	snprintf(rel, sizeof(rel), "%s/namespaces/2/device_path", s);
	ok(has_text(root, rel, "/dev/sdb"), "namespace 2 is the second RAM disk");
	snprintf(rel, sizeof(rel), "%s/namespaces/1/enable", s);
	ok(has_text(root, rel, "1"), "namespace 1 enabled");
	ok(has_text(root, "ports/61697/addr_traddr", "127.0.0.1") && has_text(root, "ports/61697/addr_trsvcid", "4420") &&
		   has_text(root, "ports/61697/addr_trtype", "tcp"),
	   "the port's address");
	ok(exists(root, "ports/61697/subsystems/nqn.2014-08.org.iotriage:ramdisk-feedfacefeedface"),
	   "the port links the subsystem");
	struct ramdisk_export rec;
	is_int(ramdisk_export_load(&ramdisk_transport_nvmet, state, &rec), 0, "the record is there");
	ok(rec.complete && rec.client_made && rec.n == 2 && rec.port_id == 61697, "complete, naming what was made");
	is_int(ramdisk_nvmet_reap(root, state, why, sizeof(why)), 0, "the reaper leaves a complete export alone");
	ok(exists(root, s), "still there");

	is_int(ramdisk_nvmet_unexport(root, state, &rec, why, sizeof(why)), 0, "unexport");
	ok(!exists(root, s) && !exists(root, "ports/61697") &&
		   !exists(root, "hosts/nqn.2014-08.org.nvmexpress:uuid:client"),
	   "subsystem, port and host removed");
	ok(exists(root, "ports/61696") && exists(root, "ports/1") &&
		   exists(root, "subsystems/nqn.2014-08.org.nvmexpress:theirs"),
	   "unexport removes only its own port and subsystem");
	is_int(ramdisk_export_load(&ramdisk_transport_nvmet, state, &rec), -ENOENT, "the record removed");
}

static void test_reap(const char *root, const char *state)
{
	char why[600];
	struct ramdisk_export e = { 0 };
	ramdisk_nvmet_names("dead", &e);
	snprintf(e.traddr, sizeof(e.traddr), "127.0.0.1");
	e.port = 4420;
	e.allow_any_host = true;
	e.n = 1;
	snprintf(e.devices[0], sizeof(e.devices[0]), "/dev/sda");
	is_int(ramdisk_nvmet_export(root, state, &e, why, sizeof(why)), 0, "an export to kill");
	/* what a kill between the port and the final record leaves: complete=0, owner gone */
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	e.complete = false;
	e.pid = child;
	char text[4096], p[1024];
	ramdisk_export_format(&e, text, sizeof(text));
	snprintf(p, sizeof(p), "%s/" RAMDISK_NVMET_FILE, state);
	write_file_atomic(p, text, strlen(text), 0644);
	/* and an unrecorded tagged subsystem from a still earlier kill */
	snprintf(p, sizeof(p), "%s/subsystems/" RAMDISK_NVMET_NQN_PREFIX "older/namespaces/1", root);
	mkdir_p(p, 0755);
	is_int(ramdisk_nvmet_reap(root, state, why, sizeof(why)), 1, "the reaper removes the half-made export");
	ok(strstr(why, "half-made") != NULL, "and says so");
	ok(!exists(root, "subsystems/" RAMDISK_NVMET_NQN_PREFIX "dead") &&
		   !exists(root, "subsystems/" RAMDISK_NVMET_NQN_PREFIX "older") && !exists(root, "ports/61697") &&
		   !exists(root, "ports/61696"),
	   "ours are gone: the recorded ones, the tagged subsystem, every port in our range");
	ok(exists(root, "ports/1") && exists(root, "subsystems/nqn.2014-08.org.nvmexpress:theirs"),
	   "theirs are not");
	struct ramdisk_export rec;
	is_int(ramdisk_export_load(&ramdisk_transport_nvmet, state, &rec), -ENOENT, "no record left");
	is_int(ramdisk_nvmet_reap(root, state, why, sizeof(why)), 0, "a second reap finds nothing");
}

static void test_fabrics_find(const char *sys)
{
	char p[1024], kname[64];
	const char *nqn = RAMDISK_NVMET_NQN_PREFIX "abc";
	const struct {
		const char *disk, *nqn, *nsid;
	} disks[] = { { "nvme0n1", "nqn.2014-08.org.nvmexpress:local", "1" }, { "nvme1n1", nqn, "2" }, { "nvme1c1n2", nqn, "1" },
			  { "nvme1n2", nqn, "1" } };
	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/block/%s/device", sys, disks[i].disk);
		mkdir_p(p, 0755);
		snprintf(p, sizeof(p), "%s/block/%s/device/subsysnqn", sys, disks[i].disk);
		write_file_atomic(p, disks[i].nqn, strlen(disks[i].nqn), 0644);
		snprintf(p, sizeof(p), "%s/block/%s/nsid", sys, disks[i].disk);
		write_file_atomic(p, disks[i].nsid, 1, 0644);
	}
	is_int(ramdisk_fabrics_find(sys, nqn, 1, 0, kname, sizeof(kname)), 0, "namespace 1 of the NQN is found");
	is_str(kname, "nvme1n2", "by NQN and nsid, not by its name, and not the hidden per-path disk");
	is_int(ramdisk_fabrics_find(sys, nqn, 3, 0, kname, sizeof(kname)), -ENOENT, "an absent namespace is not");
}

int main(void)
{
	test_pure();
	test_judge();
	test_ceiling();
	char tmp[] = "/tmp/iotriage-test-nvmet.XXXXXX";
	ok(mkdtemp(tmp) != NULL, "temporary tree");
	char root[256], state[256], sys[256];
	snprintf(root, sizeof(root), "%s/nvmet", tmp);
	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(sys, sizeof(sys), "%s/sys", tmp);
	mkdir_p(root, 0755);
	test_export(root, state);
	test_reap(root, state);
	test_fabrics_find(sys);
	tap_remove_tree(tmp);
	return tap_done();
}
