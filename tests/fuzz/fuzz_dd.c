/* dd's closing line (poolbench/parse.c: dd_parse_summary). */
#include "fuzz.h"
#include "poolbench/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	uint64_t bytes;
	double seconds;
	dd_parse_summary(text, &bytes, &seconds);
	free(text);
	return 0;
}
