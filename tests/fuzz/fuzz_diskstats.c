/* /proc/diskstats (disk/diskstats.c: diskstats_parse) for two named devices. */
#include "fuzz.h"
#include "disk/diskstats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	const char *const names[] = { "sda", "loop0" };
	struct diskstat st[2];
	(void)diskstats_parse(text, names, 2, st);
	free(text);
	return 0;
}
