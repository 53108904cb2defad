/* zpool status of real OpenZFS 2.3.2 pools (captured in the VM by
 * tests/vm/openzfs_scenario.sh, kept by tests/data/capture_openzfs.sh): the
 * text parser (pool/zfs.c, with and without -P) and the JSON parser
 * (pool/zpool_json.c) read every layout an admin has: a mirror with a
 * mirrored log, a cache and a hot spare; raidz2 with a special mirror; dRAID
 * with its distributed spare in use; an offlined member and a replacing
 * vdev; a member known only by GUID. Both parsers give the same layout. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "pool/zfs.h"
#include "pool/zpool_json.h"
#include "tap.h"

static char *read_data(const char *name, size_t *ret_len)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", TEST_DATA_DIR, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = calloc(1, 65536);
	size_t n = buf ? fread(buf, 1, 65535, f) : 0;
	fclose(f);
	if (ret_len)
		*ret_len = n;
	return buf;
}

/* Every member as "path class vdev group state read|-" and every vdev as
 * "name class type/parity width", one per line. */
static char *describe(const struct pool_layout *l)
{
	static const char *const types[] = { "disk", "mirror", "raidz", "draid" };
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < l->count; i++) {
		const struct pool_member *m = &l->members[i];
		strbuf_addf(&sb, "%s %s %s %s %s %s\n", m->path, pool_class_name(m->klass), m->vdev,
			    m->group[0] ? m->group : "-", m->state[0] ? m->state : "-",
			    pool_member_unread_reason(m) ? "-" : "read");
	}
	for (size_t i = 0; i < l->nvdevs; i++) {
		const struct pool_vdev *v = &l->vdevs[i];
		strbuf_addf(&sb, "vdev %s %s %s/%u %u\n", v->name, pool_class_name(v->klass), types[v->type], v->parity,
			    v->width);
	}
	return strbuf_detach(&sb);
}

struct captured {
	const char *base;   /* openzfs232_<base>_status{,_P}.txt and _status_j.json */
	const char *pool;
	bool plain_text;    /* also captured without -P */
	const char *expect; /* describe() of the layout */
};

/* describe() of each layout, reviewed against the status it came from. */
static const char *const expected[] = {
		/* mirror_log_cache_spare */
		"/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_IOTZFS00-part1 data mirror-0 - ONLINE read\n"
		"/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_IOTZFS01-part1 data mirror-0 - ONLINE read\n"
		"/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_IOTZFS09-part1 log mirror-1 - ONLINE read\n"
		"/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_IOTZFS10-part1 log mirror-1 - ONLINE read\n"
		"/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_IOTZFS02-part1 cache cache - ONLINE read\n"
		"/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_IOTZFS03-part1 spare spares - AVAIL -\n"
		"vdev mirror-0 data mirror/0 2\n"
		"vdev mirror-1 log mirror/0 2\n",
		/* raidz2_special_log */
		"/dev/sda1 data raidz2-0 - ONLINE read\n"
		"/dev/sdb1 data raidz2-0 - ONLINE read\n"
		"/dev/sdc1 data raidz2-0 - ONLINE read\n"
		"/dev/sdd1 data raidz2-0 - ONLINE read\n"
		"/dev/sde1 data raidz2-0 - ONLINE read\n"
		"/dev/sdf1 data raidz2-0 - ONLINE read\n"
		"/dev/sdg1 special mirror-1 - ONLINE read\n"
		"/dev/sdh1 special mirror-1 - ONLINE read\n"
		"/dev/sdm1 log mirror-2 - ONLINE read\n"
		"/dev/sdn1 log mirror-2 - ONLINE read\n"
		"vdev raidz2-0 data raidz/2 6\n"
		"vdev mirror-1 special mirror/0 2\n"
		"vdev mirror-2 log mirror/0 2\n",
		/* draid1_spare_in_use */
		"/dev/sda1 data draid1:2d:6c:1s-0 - ONLINE read\n"
		"/dev/sdb1 data draid1:2d:6c:1s-0 spare-1 ONLINE read\n"
		"draid1-0-0 data draid1:2d:6c:1s-0 spare-1 ONLINE -\n"
		"/dev/sdc1 data draid1:2d:6c:1s-0 - ONLINE read\n"
		"/dev/sdd1 data draid1:2d:6c:1s-0 - ONLINE read\n"
		"/dev/sde1 data draid1:2d:6c:1s-0 - ONLINE read\n"
		"/dev/sdf1 data draid1:2d:6c:1s-0 - ONLINE read\n"
		"vdev draid1:2d:6c:1s-0 data draid/1 6\n",
		/* raidz1_offline_replacing */
		"/dev/sda1 data raidz1-0 - ONLINE read\n"
		"/dev/sdb1 data raidz1-0 - OFFLINE -\n"
		"/dev/sdc1 data raidz1-0 replacing-2 ONLINE read\n"
		"/dev/sdo1 data raidz1-0 replacing-2 ONLINE read\n"
		"/dev/sdd1 data raidz1-0 - ONLINE read\n"
		"vdev raidz1-0 data raidz/1 4\n",
		/* raidz1_guid_member */
		"/dev/sda1 data raidz1-0 - ONLINE read\n"
		"/dev/sdb1 data raidz1-0 - ONLINE read\n"
		"/dev/sdo1 data raidz1-0 - ONLINE read\n"
		"/dev/sdd1 data raidz1-0 - UNAVAIL -\n"
		"vdev raidz1-0 data raidz/1 4\n"
};

/* Truncating a capture anywhere inside its config table (or its JSON) must
 * give an error, never a smaller layout. */
static void truncated(const char *text, size_t len, const char *pool, bool json, const char *what)
{
	const char *table = json ? text + len / 3 : strstr(text, "\tNAME");
	size_t cut = table ? (size_t)(table - text) + 40 : len / 2;
	char *copy = strndup(text, cut);
	struct pool_layout l;
	int r = json ? zfs_parse_status_json(copy, cut, pool, &l) : zfs_parse_status(copy, &l);
	char name[200];
	snprintf(name, sizeof(name), "%s cut at byte %zu: an error", what, cut);
	is_int(r, -EINVAL, name);
	free(copy);
}

/* Without -P, OpenZFS names devices by their by-id link or kernel name. */
static void plain_names(void)
{
	char *text = read_data("openzfs232_mirror_log_cache_spare_status.txt", NULL);
	struct pool_layout l;
	is_int(text ? zfs_parse_status(text, &l) : -ENOENT, 0, "by-id names without -P parsed");
	if (text && l.count == 6) {
		is_str(l.members[2].path, "/dev/disk/by-id/scsi-0QEMU_QEMU_HARDDISK_IOTZFS09", "a by-id name read through /dev/disk/by-id");
		ok(l.members[2].klass == POOL_CLASS_LOG && !strcmp(l.members[2].vdev, "mirror-1"), "in the log mirror");
		pool_layout_release(&l);
	}
	free(text);
	text = read_data("openzfs232_raidz1_guid_member_status.txt", NULL);
	is_int(text ? zfs_parse_status(text, &l) : -ENOENT, 0, "a GUID member without -P parsed");
	if (text && l.count == 4) {
		const struct pool_member *m = &l.members[3];
		ok(strspn(m->name, "0123456789") == strlen(m->name) && m->was[0] == '/' && !strcmp(m->path, m->was),
		   "a member known by GUID is read at the path it was");
		is_str(m->state, "UNAVAIL", "its state");
		ok(pool_member_unread_reason(m) && strstr(pool_member_unread_reason(m), "UNAVAIL"), "and it is not read, saying why");
		is_str(l.members[1].state, "ONLINE", "a '(resilvering)' note after the counters does not change the state");
		pool_layout_release(&l);
	}
	free(text);
	struct pool_layout lj;
	size_t len = 0;
	text = read_data("openzfs232_draid1_spare_in_use_status_j.json", &len);
	is_int(text ? zfs_parse_status_json(text, len, "nosuchpool", &lj) : -ENOENT, -EINVAL,
	       "JSON without the pool asked for is an error");
	free(text);
}

int main(int argc, char **argv)
{
	bool print = argc > 1 && !strcmp(argv[1], "--print"); /* to review a new capture */
	static const char *const bases[][2] = {
		{ "mirror_log_cache_spare", "tank" }, { "raidz2_special_log", "rz2" }, { "draid1_spare_in_use", "dr" },
		{ "raidz1_offline_replacing", "deg" }, { "raidz1_guid_member", "deg" },
	};
	for (size_t i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		char name[160];
		snprintf(name, sizeof(name), "openzfs232_%s_status_P.txt", bases[i][0]);
		char *text = read_data(name, NULL);
		snprintf(name, sizeof(name), "openzfs232_%s_status_j.json", bases[i][0]);
		size_t jlen = 0;
		char *json = read_data(name, &jlen);
		struct pool_layout lt, lj;
		int rt = text ? zfs_parse_status(text, &lt) : -ENOENT;
		int rj = json ? zfs_parse_status_json(json, jlen, bases[i][1], &lj) : -ENOENT;
		if (print) {
			printf("== %s\n%s== json\n%s", bases[i][0], rt == 0 ? describe(&lt) : "ERROR\n", rj == 0 ? describe(&lj) : "ERROR\n");
			continue;
		}
		char what[200];
		snprintf(what, sizeof(what), "%s: zpool status -P parsed", bases[i][0]);
		is_int(rt, 0, what);
		snprintf(what, sizeof(what), "%s: zpool status -j parsed", bases[i][0]);
		is_int(rj, 0, what);
		if (rt == 0 && rj == 0) {
			char *dt = describe(&lt), *dj = describe(&lj);
			snprintf(what, sizeof(what), "%s: every member's class, vdev, nesting, state, and every vdev", bases[i][0]);
			is_str(dt, expected[i], what);
			snprintf(what, sizeof(what), "%s: the JSON gives the same layout", bases[i][0]);
			is_str(dj, dt, what);
			free(dt);
			free(dj);
			pool_layout_release(&lt);
			pool_layout_release(&lj);
		}
		if (text)
			truncated(text, strlen(text), bases[i][1], false, bases[i][0]);
		if (json)
			truncated(json, jlen, bases[i][1], true, bases[i][0]);
		free(text);
		free(json);
	}
	if (!print)
		plain_names();
	return print ? 0 : tap_done();
}
