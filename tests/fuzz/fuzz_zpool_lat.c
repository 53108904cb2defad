/* zpool iostat -v -l -H -p (pool/zpool_lat.c: zpool_lat_parse), for the
 * pool of the captured seed, a cut tail allowed as zpool_watch does. */
#include "fuzz.h"
#include "pool/zpool_lat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct zpool_lat l;
	if (zpool_lat_parse(text, "tank", true, &l) == 0) {
		for (size_t i = 0; i < l.count; i++)
			if (l.rows[i].write_ops < 0 || strlen(l.rows[i].name) >= sizeof(l.rows[i].name))
				abort();
		zpool_lat_release(&l);
	}
	free(text);
	return 0;
}
