/* The ARC's kstats (pool/arc.c: arc_parse_kstat_c_max): OpenZFS's arcstats
 * or zfs-fuse's /zfs-kstat. */
#include "fuzz.h"
#include "pool/arc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	(void)arc_parse_kstat_c_max(text);
	free(text);
	return 0;
}
