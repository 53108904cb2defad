/* /proc/self/mountinfo (fs/mounts.c: mounts_parse, classification, options). */
#include "fuzz.h"
#include "fs/mounts.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), value[64];
	struct mount_table t;
	size_t line = 0;
	if (mounts_parse(text, &t, &line) == 0) {
		for (size_t i = 0; i < t.count; i++) {
			size_t first;
			mount_classify(&t, i, &first);
			mount_is_zfs(&t.entries[i]);
			mount_is_btrfs(&t.entries[i]);
			mount_option(t.entries[i].super_opts, "subvolid", value, sizeof(value));
		}
		mount_table_release(&t);
	}
	free(text);
	return 0;
}
