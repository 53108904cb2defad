/* zfs get -H -p (pool/zfs_datasets.c). */
#include "fuzz.h"
#include "pool/zfs_datasets.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), pool[256];
	struct zfs_datasets d;
	if (zfs_parse_datasets(text, &d) == 0) {
		for (size_t i = 0; i < d.count; i++) {
			zfs_datasets_find(&d, d.sets[i].name);
			zfs_dataset_pool(d.sets[i].name, pool, sizeof(pool));
		}
		zfs_datasets_release(&d);
	}
	zfs_dataset_pool(text, pool, sizeof(pool));
	free(text);
	return 0;
}
