/* btrfs filesystem show (pool/btrfs.c). The first line is the label or UUID
 * asked for, the rest the output. */
#include "fuzz.h"
#include "pool/btrfs.h"
#include "pool/zfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *rest, uuids[4][64];
	fuzz_first_line(text, &rest);
	struct pool_layout l;
	if (btrfs_parse_show(rest, text, &l) == 0)
		pool_layout_release(&l);
	struct strbuf names = STRBUF_INIT;
	btrfs_list_names(rest, &names);
	strbuf_release(&names);
	if (btrfs_list_uuids(rest, uuids, 4) > 4)
		abort();
	free(text);
	return 0;
}
