/* pool/ceph: the ceph and rbd tools' --format json as captured from the
 * test cluster (tests/ceph/cluster.sh: Ceph 16.2, one mon, three OSDs, the
 * pool "rbd" with size 3, min_size 2, 8 PGs; CephFS "cephfs"; healthy, and
 * with osd.2 stopped), and what
 * the parsers do with truncated or foreign input: an error, never figures. */
#include <errno.h>
#include <string.h>

#include "pool/ceph.h"
#include "tap.h"
#include "test_data.h"

static void pool_names(void)
{
	char names[8][CEPH_NAME_MAX];
	int n = ceph_parse_names(test_data("ceph_osd_pool_ls_captured.json", NULL), names, 8);
	is_int(n, 4, "ceph osd pool ls: four pools");
	is_str(names[1], "rbd", "the RBD pool is among them");
	is_str(names[3], "cephfs_data", "and CephFS's data pool");
	is_int(ceph_parse_names(test_data("ceph_osd_pool_ls_captured.json", NULL), names, 2), 2,
	       "no more names than asked for");
	n = ceph_parse_names(test_data("rbd_ls_captured.json", NULL), names, 8);
	is_int(n, 2, "rbd ls: two images");
	is_str(names[0], "iotriage-test1", "the tagged one first");
	is_int(ceph_parse_names("[\"rbd\",", names, 8), -EINVAL, "a truncated list is an error");
	is_int(ceph_parse_names("{\"pool\":\"rbd\"}", names, 8), -EINVAL, "an object is not a list of names");
	is_int(ceph_parse_names("", names, 8), -EINVAL, "no output is an error");
}

static void pool_settings(void)
{
	struct ceph_pool_settings p;
	is_int(ceph_parse_pool_settings(test_data("ceph_osd_pool_get_all_captured.json", NULL), &p), 0,
	       "ceph osd pool get rbd all is read");
	is_str(p.pool, "rbd", "the pool's name");
	is_int(p.size, 3, "size 3");
	is_int(p.min_size, 2, "min_size 2");
	is_int(p.pg_num, 8, "8 PGs");
	is_str(p.crush_rule, "replicated_rule", "the crush rule");
	is_int(ceph_parse_pool_settings("{\"pool\":\"x\"}", &p), 0, "a pool without the figures is read");
	is_int(p.size, -1, "a missing size is -1, not 0");
	is_int(ceph_parse_pool_settings("{\"size\":3}", &p), -EINVAL, "settings without the pool's name are refused");
	is_int(ceph_parse_pool_settings("{\"pool\":\"rbd\",\"size\":", &p), -EINVAL, "truncated settings are refused");
}

static void status(void)
{
	struct ceph_state s = { .osds = -1 };
	is_int(ceph_parse_status(test_data("ceph_status_captured.json", NULL), &s), 0, "ceph status is read");
	is_str(s.health, "HEALTH_OK", "its health");
	is_int(s.osds, 3, "three OSDs");
	is_int(s.osds_up, 3, "all up");
	is_int(s.osds_in, 3, "all in");
	is_int(ceph_parse_status(test_data("ceph_status_osd_down_captured.json", NULL), &s), 0,
	       "ceph status with osd.2 stopped is read");
	is_str(s.health, "HEALTH_WARN", "its health is a warning");
	is_int(s.osds_up, 2, "two OSDs up");
	is_int(s.osds_in, 3, "three still in");
	/* ceph health detail's document is the health object itself: no "health" member. */
	is_int(ceph_parse_status(test_data("ceph_health_detail_captured.json", NULL), &s), -EINVAL,
	       "health detail is not a status document");
	is_int(ceph_parse_status("{\"health\":{\"status\":\"HEALTH_WARN\"},\"osdmap\":{\"osdmap\":{\"num_osds\":4,"
				 "\"num_up_osds\":3,\"num_in_osds\":4}}}", &s), 0,
	       "an older release's nested osdmap is read (composed)");
	is_str(s.health, "HEALTH_WARN", "its health");
	is_int(s.osds_up, 3, "and its up count");
}

static void fs_data_pool(void)
{
	char pool[CEPH_NAME_MAX];
	is_int(ceph_parse_fs_data_pool(test_data("ceph_fs_ls_captured.json", NULL), pool, sizeof(pool)), 0,
	       "ceph fs ls is read");
	is_str(pool, "cephfs_data", "CephFS's data pool");
	is_int(ceph_parse_fs_data_pool("[]", pool, sizeof(pool)), -ENOENT, "no file system: no data pool");
}

static void names(void)
{
	ok(ceph_valid_name("rbd"), "a plain pool name is valid");
	ok(ceph_valid_name("cephfs_data.x-1"), "'.', '_' and '-' are taken");
	ok(!ceph_valid_name("-rbd"), "a leading '-' would be an option");
	ok(!ceph_valid_name("a/b"), "a '/' would name an image");
	ok(!ceph_valid_name("a b"), "no spaces");
	ok(!ceph_valid_name(""), "no empty name");
}

/* "mon host" as tests/ceph/cluster.sh writes it, and the other forms. */
static void mon_hosts(void)
{
	struct ceph_mon_addr m[4];
	const char *cluster = "[global]\nfsid = 1\nmon initial members = a\nmon host = v2:127.0.0.1:40300\n"
			      "public network = 127.0.0.0/8\n";
	is_int(ceph_parse_mon_hosts(cluster, m, 4), 1, "the test cluster's one monitor");
	is_str(m[0].ip, "127.0.0.1", "its address");
	is_int((int)m[0].port, 40300, "its port");
	is_int(ceph_parse_mon_hosts("[global]\n\tmon_host = [v2:10.0.0.1:3300,v1:10.0.0.1:6789] "
				    "[v2:10.0.0.2:3300,v1:10.0.0.2:6789]\n", m, 4), 4,
	       "ceph config generate-minimal-conf's vectors, every entry");
	ok(!strcmp(m[2].ip, "10.0.0.2") && m[2].port == 3300, "the second monitor's v2 address");
	is_int(ceph_parse_mon_hosts("mon-host=10.0.0.1,10.0.0.2:6790 ; comment\n", m, 4), 2, "plain addresses");
	ok(m[0].port == 6789 && m[1].port == 6790, "the default port, and one given");
	is_int(ceph_parse_mon_hosts("mon host = v2:10.0.0.1\n", m, 4), 1, "a v2 entry without a port");
	is_int((int)m[0].port, 3300, "takes msgr2's port");
	is_int(ceph_parse_mon_hosts("mon host = mon1.example.org\n", m, 4), -ENOENT, "a host name is not checked here");
	is_int(ceph_parse_mon_hosts("mon host = [v2:[::1]:3300]\n", m, 4), -ENOENT, "nor IPv6");
	is_int(ceph_parse_mon_hosts("[global]\nfsid = 1\n", m, 4), -ENOENT, "no mon host line");
	is_int(ceph_parse_mon_hosts("mon host = 10.0.0.1:99999\n", m, 4), -ENOENT, "a port out of range");
	is_int(ceph_parse_mon_hosts("mon host =\n", m, 4), -ENOENT, "an empty value");
}

int main(void)
{
	mon_hosts();
	pool_names();
	pool_settings();
	status();
	fs_data_pool();
	names();
	return tap_done();
}
