/* zpool status -j (pool/zpool_json.c: zfs_parse_status_json), for the pool
 * names of the captured seeds. */
#include "fuzz.h"
#include "pool/zpool_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const pools[] = { "tank", "rz2", "dr", "deg" };
	for (size_t p = 0; p < sizeof(pools) / sizeof(pools[0]); p++) {
		struct pool_layout l;
		if (zfs_parse_status_json((const char *)data, size, pools[p], &l) == 0) {
			for (size_t i = 0; i < l.count; i++)
				if (strlen(l.members[i].path) >= sizeof(l.members[i].path) || !l.members[i].vdev[0])
					abort();
			pool_layout_release(&l);
		}
	}
	return 0;
}
