/* zpool status -P of real OpenZFS 2.1.11 pools, the same layouts as
 * test_zpool_captured's 2.3.2 ones (tests/vm/openzfs_scenario.sh booted with
 * IOTRIAGE_OPENZFS_SUITE=bookworm, kept by tests/data/capture_openzfs.sh
 * CONSOLE 2.1). 2.1 has no JSON: the text parser is how iotriage reads it, so
 * each layout must come out as 2.3's does: the same members in the same
 * classes, vdevs, nestings and states, the same vdevs, whatever the kernel
 * named the disks in that boot. */
#include <stdio.h>
#include <string.h>

#include "basic/strbuf.h"
#include "pool/finding.h"
#include "pool/slow_log.h"
#include "pool/zfs.h"
#include "pool/zpool_lat.h"
#include "tap.h"
#include "test_data.h"

/* Every member as "class vdev group state read|-" (no path: the boots named
 * the disks differently) and every vdev as "name class type/parity width". */
static char *shape(const struct pool_layout *l)
{
	static const char *const types[] = { "disk", "mirror", "raidz", "draid" };
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < l->count; i++) {
		const struct pool_member *m = &l->members[i];
		strbuf_addf(&sb, "%s %s %s %s %s\n", pool_class_name(m->klass), m->vdev, m->group[0] ? m->group : "-",
			    m->state[0] ? m->state : "-", pool_member_unread_reason(m) ? "-" : "read");
	}
	for (size_t i = 0; i < l->nvdevs; i++) {
		const struct pool_vdev *v = &l->vdevs[i];
		strbuf_addf(&sb, "vdev %s %s %s/%u %u %u:%u:%u\n", v->name, pool_class_name(v->klass), types[v->type],
			    v->parity, v->width, v->draid_data, v->draid_children, v->draid_spares);
	}
	return strbuf_detach(&sb);
}

static void same_as_23(const char *base)
{
	char f21[128], f23[128];
	snprintf(f21, sizeof(f21), "openzfs2111_%s_status_P.txt", base);
	snprintf(f23, sizeof(f23), "openzfs232_%s_status_P.txt", base);
	const char *t21 = test_data(f21, NULL), *t23 = test_data(f23, NULL);
	struct pool_layout l21, l23;
	int r21 = t21 ? zfs_parse_status(t21, &l21) : -1, r23 = t23 ? zfs_parse_status(t23, &l23) : -1;
	ok(r21 == 0 && r23 == 0, f21);
	if (r21 || r23)
		return;
	char *s21 = shape(&l21), *s23 = shape(&l23);
	is_str(s21, s23, base);
	free(s21);
	free(s23);
	pool_layout_release(&l21);
	pool_layout_release(&l23);
}

int main(void)
{
	same_as_23("mirror_log_cache_spare");
	same_as_23("raidz2_special_log");
	same_as_23("draid1_spare_in_use");
	same_as_23("raidz1_guid_member");
	/* The replacing vdev: 2.1 printed it mid-resilver too; its nesting and classes. */
	const char *t = test_data("openzfs2111_raidz1_offline_replacing_status_P.txt", NULL);
	struct pool_layout l;
	ok(t && zfs_parse_status(t, &l) == 0, "the offline/replacing layout parses");
	if (t && l.count) {
		size_t replacing = 0, offline = 0;
		for (size_t i = 0; i < l.count; i++) {
			replacing += !strncmp(l.members[i].group, "replacing-", 10);
			offline += !strcmp(l.members[i].state, "OFFLINE");
		}
		ok(replacing == 2 && offline == 1, "two members in the replacing nesting, one OFFLINE");
		pool_layout_release(&l);
	}
	/* zpool iostat -v -l -H -p during sync writes through the slow log mirror, then its layout: the finding. */
	size_t n;
	const char *lt = test_data("openzfs2111_mirror_slow_log_iostat_lHp.txt", &n);
	const char *st = test_data("openzfs2111_mirror_log_cache_spare_status_P.txt", NULL);
	struct zpool_lat lat;
	struct pool_layout tank;
	ok(lt && st && zpool_lat_parse(lt, "tank", false, &lat) == 0 && zfs_parse_status(st, &tank) == 0,
	   "2.1's zpool iostat -l and status parse");
	if (lt && st) {
		struct pool_findings f = { 0 };
		char why[200] = "";
		is_int(pool_slow_log_judge(&tank, &lat, &f, why, sizeof(why)), 1, "2.1: the slow log is a finding");
		ok(f.count == 1 && !strcmp(f.items[0].subject, "mirror-1"), "naming the log mirror");
		pool_findings_release(&f);
		zpool_lat_release(&lat);
		pool_layout_release(&tank);
	}
	test_data_free_all();
	return tap_done();
}
