/* `zpool iostat -v POOL 1` (pool/zpool_iostat.c: zpool_iostat_parse). The
 * input's first line is the pool's name, the rest the output. */
#include "fuzz.h"
#include "pool/zpool_iostat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *rest;
	fuzz_first_line(text, &rest);
	struct zpool_iostat s;
	for (int cut = 0; cut < 2; cut++)
		if (zpool_iostat_parse(rest, text, cut, &s) == 0)
			zpool_iostat_release(&s);
	free(text);
	return 0;
}
