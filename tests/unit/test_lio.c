/* The iSCSI export (ramdisk/lio.c) on a temporary directory standing in
 * for LIO's configfs tree: the names and paths, the record, what an export
 * makes (backstore, target, LUN, portal, ACL or generate_node_acls) and an
 * unexport removes, a half-made export after a kill removed by the reaper
 * without touching anyone else's target or backstore; and the initiator's
 * device found by the session's target name on a stand-in sysfs. The
 * kernel's own behaviour (listening, a port in use, logins) is tested in
 * the VM (tests/cli/test_iscsi_vm.sh). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "ramdisk/lio.h"
#include "tap.h"

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
	char why[400], buf[512];
	is_int(ramdisk_lio_check_name("iqn.2026-12.org.example:client", why, sizeof(why)), 0, "an IQN is a name");
	is_int(ramdisk_lio_check_name("eui.02004567A425678D", why, sizeof(why)), 0, "an EUI is a name");
	is_int(ramdisk_lio_check_name("not an iqn", why, sizeof(why)), -EINVAL, "words are not");
	ok(strstr(why, "is not an iSCSI name") != NULL, "and the reason says so");
	is_int(ramdisk_lio_check_name("iqn.2026-12.org.example:../../core", why, sizeof(why)), -EINVAL,
	       "a name with '/' is refused (it becomes a configfs path)");
	char longname[300];
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	memcpy(longname, "iqn.", 4);
	is_int(ramdisk_lio_check_name(longname, why, sizeof(why)), -EINVAL, "over 223 characters is refused");

	struct ramdisk_export e = { 0 };
	ramdisk_lio_names("a1b2c3", &e);
	is_str(e.name, "iqn.2014-08.org.iotriage:ramdisk-a1b2c3", "the IQN carries the tag and the run id");
	ok(ramdisk_lio_iqn_ours(e.name) && !ramdisk_lio_iqn_ours("iqn.2003-01.org.linux-iscsi.host:sn.1"),
	   "ours is told from theirs by the prefix");
	is_int(ramdisk_lio_check_name(e.name, why, sizeof(why)), 0, "and is a valid iSCSI name");
	ramdisk_lio_backstore(&e, 2, buf, sizeof(buf));
	is_str(buf, "iotriage-a1b2c3-2", "backstore 2's name");
	ramdisk_lio_tpg_path("/cfs", e.name, buf, sizeof(buf));
	is_str(buf, "/cfs/iscsi/iqn.2014-08.org.iotriage:ramdisk-a1b2c3/tpgt_1", "the TPG's path");
	snprintf(e.traddr, sizeof(e.traddr), "10.77.0.1");
	e.port = 3260;
	ramdisk_lio_portal_path("/cfs", &e, buf, sizeof(buf));
	is_str(buf, "/cfs/iscsi/iqn.2014-08.org.iotriage:ramdisk-a1b2c3/tpgt_1/np/10.77.0.1:3260", "the portal's path");

	snprintf(e.client, sizeof(e.client), "iqn.2026-12.org.example:client");
	e.n = 2;
	snprintf(e.devices[0], sizeof(e.devices[0]), "/dev/nullb0");
	snprintf(e.devices[1], sizeof(e.devices[1]), "/dev/nullb1");
	e.pid = 42;
	char text[4096];
	ramdisk_export_format(&e, text, sizeof(text));
	struct ramdisk_export back;
	is_int(ramdisk_export_parse(&ramdisk_transport_lio, text, &back), 0, "the record parses back");
	ok(strcmp(back.name, e.name) == 0 && back.port == 3260 && back.n == 2 && strcmp(back.devices[1], "/dev/nullb1") == 0 &&
		   strcmp(back.client, e.client) == 0 && back.pid == 42 && !back.complete,
	   "with every field");
	is_int(ramdisk_export_parse(&ramdisk_transport_lio, "id=x\niqn=iqn.2003-01.org.other:x\n", &back), -EINVAL,
	       "a record naming a target that is not ours is refused");
	is_int(ramdisk_export_parse(&ramdisk_transport_lio, "id=../x\niqn=iqn.2014-08.org.iotriage:ramdisk-../x\n", &back), -EINVAL,
	       "and one whose id is a path");
}

static void fill(struct ramdisk_export *e, const char *id, const char *initiator)
{
	memset(e, 0, sizeof(*e));
	ramdisk_lio_names(id, e);
	snprintf(e->traddr, sizeof(e->traddr), "127.0.0.1");
	e->port = 3260;
	e->allow_any_host = initiator == NULL;
	if (initiator)
		snprintf(e->client, sizeof(e->client), "%s", initiator);
	e->n = 1;
	snprintf(e->devices[0], sizeof(e->devices[0]), "/dev/nullb0");
}

static void test_export(const char *root, const char *state)
{
	char why[600];
	struct ramdisk_export e, rec;
	fill(&e, "any", NULL);
	is_int(ramdisk_lio_export(root, state, &e, why, sizeof(why)), 0, "an export for any initiator");
	const char *tpg = "iscsi/iqn.2014-08.org.iotriage:ramdisk-any/tpgt_1";
	char p[512];
	ok(has_text(root, "core/iblock_61696/iotriage-any-0/control", "udev_path=/dev/nullb0") &&
		   has_text(root, "core/iblock_61696/iotriage-any-0/enable", "1"),
	   "an iblock backstore on the RAM disk, under the tagged HBA");
	snprintf(p, sizeof(p), "%s/lun/lun_0/iotriage-any-0", tpg);
	ok(exists(root, p), "LUN 0 linked to it");
	snprintf(p, sizeof(p), "%s/np/127.0.0.1:3260", tpg);
	ok(exists(root, p), "the portal");
	snprintf(p, sizeof(p), "%s/attrib/generate_node_acls", tpg);
	ok(has_text(root, p, "1"), "any initiator: generate_node_acls");
	snprintf(p, sizeof(p), "%s/enable", tpg);
	ok(has_text(root, p, "1"), "the TPG enabled");
	is_int(ramdisk_export_load(&ramdisk_transport_lio, state, &rec), 0, "the record");
	ok(rec.complete && rec.pid == (long)getpid(), "complete, by this process");
	is_int(ramdisk_lio_unexport(root, state, &e, why, sizeof(why)), 0, "unexport");
	ok(!exists(root, "iscsi/iqn.2014-08.org.iotriage:ramdisk-any") && !exists(root, "core/iblock_61696"),
	   "removes the target, the backstore and the empty HBA");
	is_int(ramdisk_export_load(&ramdisk_transport_lio, state, &rec), -ENOENT, "and the record");

	fill(&e, "one", "iqn.2026-12.org.example:client");
	is_int(ramdisk_lio_export(root, state, &e, why, sizeof(why)), 0, "an export for one initiator");
	tpg = "iscsi/iqn.2014-08.org.iotriage:ramdisk-one/tpgt_1";
	snprintf(p, sizeof(p), "%s/acls/iqn.2026-12.org.example:client/lun_0/lun_0", tpg);
	ok(exists(root, p), "its ACL maps LUN 0");
	snprintf(p, sizeof(p), "%s/attrib/generate_node_acls", tpg);
	ok(!exists(root, p), "no generate_node_acls");
	is_int(ramdisk_lio_unexport(root, state, &e, why, sizeof(why)), 0, "unexport");
	ok(!exists(root, "iscsi/iqn.2014-08.org.iotriage:ramdisk-one"), "removes it");
}

static void test_reap(const char *root, const char *state)
{
	char why[600], p[1024], text[4096];
	struct ramdisk_export e;
	fill(&e, "dead", NULL);
	is_int(ramdisk_lio_export(root, state, &e, why, sizeof(why)), 0, "an export to kill");
	is_int(ramdisk_lio_reap(root, state, why, sizeof(why)), 0, "a complete export is not a leftover");
	ok(exists(root, "iscsi/iqn.2014-08.org.iotriage:ramdisk-dead"), "and stays");
	/* what a kill before the final record leaves: complete=0, owner gone */
	pid_t child = fork();
	if (child == 0)
		_exit(0);
	waitpid(child, NULL, 0);
	e.complete = false;
	e.pid = child;
	ramdisk_export_format(&e, text, sizeof(text));
	snprintf(p, sizeof(p), "%s/" RAMDISK_LIO_FILE, state);
	write_file_atomic(p, text, strlen(text), 0644);
	/* an unrecorded tagged target and backstore from a still earlier kill, and someone else's */
	const char *dirs[] = { "iscsi/iqn.2014-08.org.iotriage:ramdisk-older/tpgt_1/lun/lun_0",
			       "core/iblock_61696/iotriage-older-0", "iscsi/iqn.2003-01.org.linux-iscsi.host:sn.1/tpgt_1",
			       "core/iblock_0/theirs" };
	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof(p), "%s/%s", root, dirs[i]);
		mkdir_p(p, 0755);
	}
	is_int(ramdisk_lio_reap(root, state, why, sizeof(why)), 1, "the reaper removes the half-made export");
	ok(strstr(why, "half-made") != NULL, "and says so");
	ok(!exists(root, "iscsi/iqn.2014-08.org.iotriage:ramdisk-dead") &&
		   !exists(root, "iscsi/iqn.2014-08.org.iotriage:ramdisk-older") && !exists(root, "core/iblock_61696"),
	   "ours are gone: the recorded ones, the tagged target, every backstore under the tagged HBA");
	ok(exists(root, dirs[2]) && exists(root, dirs[3]), "theirs are not");
	struct ramdisk_export rec;
	is_int(ramdisk_export_load(&ramdisk_transport_lio, state, &rec), -ENOENT, "no record left");
	is_int(ramdisk_lio_reap(root, state, why, sizeof(why)), 0, "a second reap finds nothing");
}

static void test_find(const char *sys)
{
	char p[1024], kname[64];
	const char *iqn = RAMDISK_LIO_IQN_PREFIX "abc";
	const struct {
		const char *session, *target, *hctl, *disk;
	} s[] = { { "session1", "iqn.2003-01.org.other:disk", "target2:0:0/2:0:0:0", "sdb" },
		  { "session2", iqn, "target3:0:0/3:0:0:1", "sdc" },
		  { "session3", iqn, "target3:0:0/3:0:0:0", "sdd" } };
	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s/class/iscsi_session/%s/device/%s/block/%s", sys, s[i].session, s[i].hctl,
			 s[i].disk);
		mkdir_p(p, 0755);
		snprintf(p, sizeof(p), "%s/class/iscsi_session/%s/targetname", sys, s[i].session);
		write_file_atomic(p, s[i].target, strlen(s[i].target), 0644);
	}
	is_int(ramdisk_iscsi_find(sys, iqn, 0, kname, sizeof(kname)), 0, "LUN 0 of the target is found");
	is_str(kname, "sdd", "by the session's target name and LUN 0, not by its name or order");
	is_int((int)ramdisk_iscsi_sessions(sys, iqn), 2, "the target's sessions are counted");
	is_int(ramdisk_iscsi_find(sys, RAMDISK_LIO_IQN_PREFIX "none", 0, kname, sizeof(kname)), -ENOENT,
	       "a target without a session is not found");
}

int main(void)
{
	test_pure();
	char tmp[] = "/tmp/iotriage-test-lio.XXXXXX";
	ok(mkdtemp(tmp) != NULL, "temporary tree");
	char root[256], state[256], sys[256];
	snprintf(root, sizeof(root), "%s/target", tmp);
	snprintf(state, sizeof(state), "%s/state", tmp);
	snprintf(sys, sizeof(sys), "%s/sys", tmp);
	mkdir_p(root, 0755);
	char iscsi[300];
	snprintf(iscsi, sizeof(iscsi), "%s/iscsi", root);
	mkdir_p(iscsi, 0755);
	test_export(root, state);
	test_reap(root, state);
	test_find(sys);
	tap_remove_tree(tmp);
	return tap_done();
}
