/* zpool iostat -w -H -p (pool/zpool_hist.c: zpool_hist_parse): buckets that
 * rise, percentiles inside them, or an error. */
#include "fuzz.h"
#include "pool/zpool_hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct zpool_hist h;
	if (zpool_hist_parse(text, strlen(text), &h) == 0) {
		if (h.nbuckets == 0 || h.nbuckets > ZPOOL_HIST_MAX_BUCKETS)
			abort();
		for (int c = 0; c < ZH_NCOLS; c++) {
			uint64_t p = zpool_hist_percentile(&h, (enum zpool_hist_col)c, 99);
			if (p && (p < h.bound_ns[0] || p > h.bound_ns[h.nbuckets - 1]))
				abort();
		}
	}
	free(text);
	return 0;
}
