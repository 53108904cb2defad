/* pool/zfs_datasets: `zfs get -H -p` output captured from zfs-fuse (a pool
 * with a plain and a compressed dataset), and composed OpenZFS lines. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pool/zfs_datasets.h"
#include "tap.h"
#include "test_data.h"

int main(void)
{
	const char *text = test_data("zfs_get_datasets_fuse.txt", NULL);
	struct zfs_datasets d;
	ok(text && zfs_parse_datasets(text, &d) == 0, "captured zfs get output parses");
	is_int(d.count, 3, "three datasets");
	const struct zfs_dataset *c = zfs_datasets_find(&d, "iotriage-voldev-575/comp");
	ok(c != NULL, "the compressed dataset is found by name");
	if (c) {
		is_str(c->guid, "6253732970898684272", "its exact GUID");
		is_str(c->compression, "on", "compression=on");
		is_int(c->recordsize, 131072, "recordsize in bytes");
		ok(c->mounted, "mounted");
		is_str(c->mountpoint, "/tmp/iotriage-voldev.yFyjdk/zfs/comp", "mount point");
		is_str(c->primarycache, "all", "primarycache");
	}
	ok(zfs_datasets_find(&d, "iotriage-voldev-575/nope") == NULL, "an unknown dataset is not found");
	zfs_datasets_release(&d);

	const char *openzfs = "tank\tguid\t123\n"
			      "tank\trecordsize\t1M\n"
			      "tank@snap\tguid\t456\n"
			      "tank/db\tcompression\tlz4\n"
			      "tank/db\tprimarycache\tmetadata\n"
			      "tank/db\tmounted\tno\n";
	ok(zfs_parse_datasets(openzfs, &d) == 0, "composed lines parse");
	is_int(d.count, 2, "a snapshot is not a dataset");
	is_int(zfs_datasets_find(&d, "tank")->recordsize, 1048576, "a suffixed recordsize is read too");
	ok(!zfs_datasets_find(&d, "tank/db")->mounted, "mounted=no");
	is_str(zfs_datasets_find(&d, "tank/db")->primarycache, "metadata", "primarycache=metadata");
	zfs_datasets_release(&d);
	ok(zfs_parse_datasets("tank guid 123\n", &d) == -EINVAL, "a line without tabs is refused");

	char pool[64];
	zfs_dataset_pool("tank/a/b", pool, sizeof(pool));
	is_str(pool, "tank", "the pool of a nested dataset");
	zfs_dataset_pool("tank", pool, sizeof(pool));
	is_str(pool, "tank", "the pool of the root dataset");
	return tap_done();
}
