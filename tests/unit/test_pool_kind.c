/* pool/kind: what each row of the pool-kind table says in its own terms
 * (doctor's next step when no layer stands out). */
#include <stdio.h>
#include <string.h>

#include "pool/kind.h"
#include "tap.h"

int main(void)
{
	for (size_t i = 0; pool_kinds[i]; i++) {
		const struct pool_kind *k = pool_kinds[i];
		char name[160];
		snprintf(name, sizeof(name), "%s (area %d): says where its ceiling is when no layer stands out", k->what,
			 (int)k->area);
		ok(k->when_no_layer && k->when_no_layer[0], name);
	}
	ok(strstr(pool_kind_zfs.when_no_layer, "record size") != NULL, "ZFS: its record size among the tuning");
	ok(strstr(pool_kind_rbd.when_no_layer, "record size") == NULL, "a Ceph pool: no ZFS tuning");
	ok(strstr(pool_kind_rbd.when_no_layer, "Ceph") && strstr(pool_kind_rbd.when_no_layer, "OSDs"),
	   "a Ceph pool: the Ceph path, its OSDs");
	ok(strstr(pool_kind_cephfs.when_no_layer, "record size") == NULL && strstr(pool_kind_cephfs.when_no_layer, "MDS"),
	   "CephFS: its MDS, no ZFS tuning");
	ok(strstr(pool_kind_btrfs.when_no_layer, "record size") == NULL && strstr(pool_kind_btrfs.when_no_layer, "mount"),
	   "btrfs: its mount options, no ZFS tuning");
	ok(strstr(pool_kind_dir.when_no_layer, "record size") == NULL, "a directory: no ZFS tuning");
	return tap_done();
}
