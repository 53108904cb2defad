/* zpool status (pool/zfs.c: zfs_parse_status). */
#include "fuzz.h"
#include "pool/zfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct pool_layout l;
	if (zfs_parse_status(text, &l) == 0) {
		for (size_t i = 0; i < l.count; i++)
			if (strlen(l.members[i].name) >= sizeof(l.members[i].name))
				abort();
		pool_layout_release(&l);
	}
	free(text);
	return 0;
}
