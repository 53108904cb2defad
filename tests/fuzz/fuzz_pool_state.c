/* The pool's state from its tools (pool/pool_state.c): `zpool get`/`zfs get`
 * tables, `zpool status` health and `btrfs filesystem usage`. */
#include "fuzz.h"
#include "pool/pool_state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct zfs_props p;
	if (zfs_props_parse(text, &p) == 0) {
		(void)zfs_props_get(&p, NULL, "recordsize");
		zfs_props_release(&p);
	}
	double d;
	(void)zfs_parse_number(text, &d);
	struct zfs_health h;
	(void)zfs_parse_health(text, &h);
	struct btrfs_usage u;
	(void)btrfs_parse_usage(text, &u);
	free(text);
	return 0;
}
