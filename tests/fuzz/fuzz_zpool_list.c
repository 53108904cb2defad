/* zpool list -H -o name,guid (pool/zfs.c: zfs_find_pool), and the pool name
 * rule. The first line is the id asked for, the rest the output. */
#include "fuzz.h"
#include "pool/zfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *rest, name[256];
	fuzz_first_line(text, &rest);
	zfs_valid_pool_name(text);
	if (zfs_find_pool(rest, text, name, sizeof(name)) == 0 && strlen(name) >= sizeof(name))
		abort();
	zfs_find_pool(rest, "tank", name, 4);
	free(text);
	return 0;
}
