/* pool/ceph_osd and pool/ceph_findings on output captured from the test
 * cluster (tests/ceph/cluster.sh: Ceph 16.2.15, three BlueStore OSDs on
 * loop devices, host "vm"): ceph osd metadata, ceph osd tree (healthy, and
 * with osd.2 marked out), ceph pg ls-by-pool rbd, ceph osd perf and ceph
 * tell osd.N bench with osd.0 in a blkio cgroup held to 20 MB/s, ceph
 * status and ceph health detail while PGs recovered after an OSD was
 * marked out, and with norecover/nobackfill set and an OSD out; and the
 * settings of a pool with size 1. Composed input (said where used) only
 * for what the parsers must refuse or a check the cluster could not be
 * made to raise. */
#include <errno.h>
#include <string.h>

#include "pool/ceph_findings.h"
#include "pool/ceph_osd.h"
#include "tap.h"
#include "test_data.h"

static void pool_osds(void)
{
	int ids[8];
	int n = ceph_parse_pool_osds(test_data("ceph_pg_ls_by_pool_captured.json", NULL), ids, 8);
	is_int(n, 3, "ceph pg ls-by-pool rbd: the three OSDs of its PGs' acting sets");
	ok(ids[0] == 0 && ids[1] == 1 && ids[2] == 2, "ascending, each once");
	is_int(ceph_parse_pool_osds(test_data("ceph_pg_ls_by_pool_captured.json", NULL), ids, 2), 2,
	       "no more than asked for");
	is_int(ceph_parse_pool_osds("[{\"acting\":[3,2147483647,1]}]", ids, 8), 2,
	       "an older release's bare array; CRUSH_ITEM_NONE (a hole) is not an OSD (composed)");
	is_int(ceph_parse_pool_osds("{\"pg_ready\":true}", ids, 8), -EINVAL, "no pg_stats is an error");
	is_int(ceph_parse_pool_osds("{\"pg_ready\":true,\"pg_stats\":[", ids, 8), -EINVAL, "a cut list is an error");
}

static struct ceph_osd osd(int id)
{
	struct ceph_osd o = { .id = id };
	snprintf(o.name, sizeof(o.name), "osd.%d", id);
	return o;
}

static void metadata_and_tree(void)
{
	struct ceph_osd osds[3] = { osd(0), osd(1), osd(2) };
	is_int(ceph_parse_osd_metadata(test_data("ceph_osd_metadata_captured.json", NULL), osds, 3), 3,
	       "ceph osd metadata describes the three OSDs");
	is_str(osds[0].device, "/dev/loop5", "osd.0's device from bluestore_bdev_dev_node");
	is_str(osds[0].devices, "loop5", "its kernel name from devices");
	is_str(osds[0].host, "vm", "its host");
	is_str(osds[0].device_class, "hdd", "BlueStore's bdev type as the class until the tree says");
	ok(osds[1].known && osds[2].known && strcmp(osds[1].device, osds[2].device) != 0,
	   "every OSD its own device");
	struct ceph_osd other[1] = { osd(7) };
	is_int(ceph_parse_osd_metadata(test_data("ceph_osd_metadata_captured.json", NULL), other, 1), 0,
	       "an OSD the metadata does not list is not described");
	ok(!other[0].known && !other[0].device[0], "and keeps no device");
	struct ceph_osd bare[1] = { osd(4) };
	ceph_parse_osd_metadata("[{\"id\":4,\"hostname\":\"h\",\"devices\":\"sdq,sdr\"}]", bare, 1);
	is_str(bare[0].device, "/dev/sdq", "no dev node: the first of devices (composed)");
	is_int(ceph_parse_osd_metadata("{\"id\":0}", osds, 3), -EINVAL, "an object is not the metadata list");
	is_str(osds[1].front_ip, "127.0.0.1", "the captured front address (public network)");
	is_str(osds[1].back_ip, "127.0.0.1", "and back address (cluster network)");
	char ip[46];
	is_int(ceph_addr_ip("[v2:10.1.2.3:6802/99,v1:10.1.2.3:6803/99]", ip, sizeof(ip)), 0, "an address vector");
	is_str(ip, "10.1.2.3", "its first entry's address");
	is_int(ceph_addr_ip("10.0.0.7:6801/5", ip, sizeof(ip)), 0, "a bare address");
	is_str(ip, "10.0.0.7", "its address");
	is_int(ceph_addr_ip("v2:[::1]:6800/0", ip, sizeof(ip)), -EINVAL, "IPv6 is not taken (netcheck probes IPv4)");
	is_str(ip, "", "and leaves nothing");
	is_int(ceph_addr_ip("-", ip, sizeof(ip)), -EINVAL, "no address");

	is_int(ceph_parse_osd_tree(test_data("ceph_osd_tree_captured.json", NULL), osds, 3), 3, "ceph osd tree lists them");
	ok(osds[0].up && osds[0].in && osds[2].up && osds[2].in, "all up and in");
	is_int(ceph_parse_osd_tree(test_data("ceph_osd_tree_out_captured.json", NULL), osds, 3), 3,
	       "the tree with osd.2 marked out");
	ok(osds[2].up && !osds[2].in && osds[1].in, "osd.2 up but out (reweight 0), the others in");
	ceph_parse_osd_tree(test_data("ceph_osd_tree_captured.json", NULL), osds, 3);
	struct ceph_osd down[3] = { osd(0), osd(1), osd(2) };
	ceph_parse_osd_tree("{\"nodes\":[{\"id\":2,\"type\":\"osd\",\"status\":\"down\",\"reweight\":1}]}", down, 3);
	ok(!down[2].up && down[2].in, "a down OSD (composed)");
	is_int(ceph_parse_osd_tree("[]", osds, 3), -EINVAL, "no nodes is an error");
}

static void perf_and_bench(void)
{
	int ids[3] = { 0, 1, 2 };
	double commit[3], apply[3];
	is_int(ceph_parse_osd_perf(test_data("ceph_osd_perf_slowed_captured.json", NULL), ids, 3, commit, apply), 3,
	       "ceph osd perf lists the three OSDs");
	ok(commit[0] == 501 && apply[0] == 501, "the held OSD commits in 501 ms");
	ok(commit[2] == 11 && commit[1] == 0, "its peers in 11 and 0 ms");
	int missing[1] = { 9 };
	ceph_parse_osd_perf(test_data("ceph_osd_perf_slowed_captured.json", NULL), missing, 1, commit, apply);
	ok(commit[0] < 0, "an OSD not listed has no latency (-1), never 0");
	is_int(ceph_parse_osd_perf("{\"osd_perf_infos\":[{\"id\":0,\"perf_stats\":{\"commit_latency_ms\":3,"
				   "\"apply_latency_ms\":4}}]}", ids, 1, commit, apply), 1,
	       "an older release's unwrapped list, ms only (composed)");
	ok(commit[0] == 3 && apply[0] == 4, "its figures");
	is_int(ceph_parse_osd_perf("{}", ids, 3, commit, apply), -EINVAL, "no list is an error");

	struct ceph_bench b;
	is_int(ceph_parse_osd_bench(test_data("ceph_tell_osd_bench_slowed_captured.json", NULL), &b), 0,
	       "the held OSD's bench is read");
	ok(b.bytes == 33554432 && b.block == 4194304, "32 MiB in 4 MiB writes");
	ok(b.bytes_per_s > 19e6 && b.bytes_per_s < 22e6, "at about its 20 MiB/s cap");
	is_int(ceph_parse_osd_bench(test_data("ceph_tell_osd_bench_captured.json", NULL), &b), 0, "a free OSD's");
	ok(b.bytes_per_s > 100e6, "far faster");
	is_int(ceph_parse_osd_bench("{\"bytes_written\":0,\"elapsed_sec\":0,\"bytes_per_sec\":0}", &b), -EINVAL,
	       "a bench that wrote nothing is no figure");
	is_int(ceph_parse_osd_bench("Error ENOENT: problem getting command descriptions from osd.7", &b), -EINVAL,
	       "the tool's error text is no figure");
}

static void health_and_pgmap(void)
{
	struct ceph_health h;
	is_int(ceph_parse_health_detail(test_data("ceph_health_detail_captured.json", NULL), &h), 0, "HEALTH_OK is read");
	ok(!strcmp(h.status, "HEALTH_OK") && h.nchecks == 0, "with no checks");
	is_int(ceph_parse_health_detail(test_data("ceph_health_detail_recovering_captured.json", NULL), &h), 0,
	       "the health while recovering");
	ok(h.nchecks == 2 && !strcmp(h.checks[0].code, "PG_AVAILABILITY") && !strcmp(h.checks[1].code, "PG_DEGRADED"),
	   "two checks, in order");
	ok(strstr(h.checks[1].summary, "objects degraded") && strstr(h.checks[1].detail, "pg "), "summary and detail kept");
	is_int(ceph_parse_health_detail("{\"checks\":{}}", &h), -EINVAL, "no status is an error");

	struct ceph_pgmap p;
	is_int(ceph_parse_pgmap(test_data("ceph_status_recovering_captured.json", NULL), &p), 0, "the pgmap while recovering");
	is_int((int)p.pgs, 33, "33 PGs");
	is_int((int)p.pgs_recovering, 1, "one recovering");
	is_int((int)p.pgs_waiting, 3, "three waiting to");
	ok(p.degraded == 59 && p.misplaced == 8, "59 objects degraded, 8 misplaced");
	ok(strstr(p.states, "3 active+recovery_wait+degraded") && !strstr(p.states, "3 active+clean,"),
	   "the states that are not clean, with counts");
	is_int(ceph_parse_pgmap(test_data("ceph_status_captured.json", NULL), &p), 0, "a healthy status");
	ok(p.pgs_not_clean == 0 && p.degraded == 0 && !p.states[0], "nothing unclean");
	is_int(ceph_parse_pgmap("{\"health\":{}}", &p), -EINVAL, "no pgmap is an error");
}

static struct pool_findings judge_files(const char *health, const char *status, const struct ceph_pool_settings *s,
					int osds_in)
{
	struct ceph_health h;
	struct ceph_pgmap p;
	struct pool_findings f = { 0 };
	bool hr = health && ceph_parse_health_detail(test_data(health, NULL), &h) == 0;
	bool pr = status && ceph_parse_pgmap(test_data(status, NULL), &p) == 0;
	struct ceph_findings_input in = { .pool = "rbd", .health = hr ? &h : NULL, .pgmap = pr ? &p : NULL,
					  .settings = s, .osds_in = osds_in };
	ceph_findings_judge(&in, &f);
	return f;
}

static void findings(void)
{
	struct ceph_pool_settings healthy = { .pool = "rbd", .size = 3, .min_size = 2, .pg_num = 8 };
	struct pool_findings f = judge_files("ceph_health_detail_captured.json", "ceph_status_captured.json", &healthy, 3);
	is_int((int)f.count, 0, "a healthy cluster and a size 3 pool of 8 PGs on 3 OSDs: no finding");
	pool_findings_release(&f);

	f = judge_files("ceph_health_detail_recovering_captured.json", "ceph_status_recovering_captured.json", &healthy, 2);
	const struct pool_finding *deg = pool_findings_find(&f, "pg-degraded");
	const struct pool_finding *rec = pool_findings_find(&f, "recovery");
	ok(deg && ceph_finding_slows(deg) && strstr(deg->fix, "recovery"), "PG_DEGRADED: explains low figures, fix: let "
	   "recovery finish");
	ok(pool_findings_find(&f, "pg-availability") != NULL, "PG_AVAILABILITY too");
	ok(rec && ceph_finding_slows(rec) && strstr(rec->text, "1 of 33 PGs recovering") && strstr(rec->evidence,
	   "MB/s"), "recovery running: how many PGs and the recovery rate");
	ok(!pool_findings_find(&f, "degraded"), "degraded objects not said twice beside PG_DEGRADED");
	ok(pool_findings_find(&f, "misplaced") != NULL, "misplaced objects, which no check named");
	pool_findings_release(&f);

	f = judge_files("ceph_health_detail_norecover_captured.json", "ceph_status_norecover_captured.json", &healthy, 2);
	const struct pool_finding *flags = pool_findings_find(&f, "osdmap-flags");
	ok(flags && ceph_finding_slows(flags) && strstr(flags->text, "norecover"), "norecover/nobackfill set: a finding");
	ok(pool_findings_find(&f, "misplaced") && strstr(pool_findings_find(&f, "misplaced")->text, "388 of 1164"),
	   "an OSD out: 388 of 1164 objects misplaced");
	pool_findings_release(&f);

	f = judge_files("ceph_health_detail_osd_down_captured.json", NULL, NULL, 3);
	const struct pool_finding *down = pool_findings_find(&f, "osd-down");
	ok(down && ceph_finding_slows(down) && strstr(down->evidence, "osd.2"), "OSD_DOWN names the OSD");
	pool_findings_release(&f);

	struct ceph_pool_settings one;
	ok(ceph_parse_pool_settings(test_data("ceph_osd_pool_get_all_size1_captured.json", NULL), &one) == 0, "a size 1 pool's settings");
	f = judge_files(NULL, NULL, &one, 3);
	const struct pool_finding *s1 = pool_findings_find(&f, "size-1");
	ok(s1 && strstr(s1->text, "data safety") && !ceph_finding_slows(s1) && strstr(s1->fix, "size 3"),
	   "size 1: a data-safety finding, not a slowness");
	ok(!pool_findings_find(&f, "min-size-1"), "min_size 1 not said again beside size 1");
	const struct pool_finding *few = pool_findings_find(&f, "too-few-pgs");
	ok(few && ceph_finding_slows(few) && strstr(few->fix, "pg_num 256"), "1 PG on 3 OSDs: too few, pg_num 256 "
	   "(300 to the nearest power of two)");
	pool_findings_release(&f);

	struct ceph_pool_settings min1 = { .pool = "rbd", .size = 2, .min_size = 1, .pg_num = 32 };
	f = judge_files(NULL, NULL, &min1, 3);
	ok(f.count == 1 && pool_findings_find(&f, "min-size-1"), "size 2, min_size 1: its finding alone");
	pool_findings_release(&f);

	struct ceph_health slow = { .status = "HEALTH_WARN", .nchecks = 1 };
	snprintf(slow.checks[0].code, sizeof(slow.checks[0].code), "SLOW_OPS");
	snprintf(slow.checks[0].summary, sizeof(slow.checks[0].summary), "2 slow ops, oldest one blocked for 35 sec");
	struct ceph_findings_input in = { .pool = "rbd", .health = &slow, .osds_in = -1 };
	ceph_findings_judge(&in, &f);
	ok(f.count == 1 && !strcmp(f.items[0].code, "slow-ops") && ceph_finding_slows(&f.items[0]),
	   "SLOW_OPS (composed: the test cluster could not be made to raise it): explains low figures");
	pool_findings_release(&f);
}

int main(void)
{
	pool_osds();
	metadata_and_tree();
	perf_and_bench();
	health_and_pgmap();
	findings();
	return tap_done();
}
