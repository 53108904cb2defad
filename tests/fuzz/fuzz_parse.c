/* basic/parse: option values (sizes with binary suffixes, durations, bounded
 * integers), as typed on the command line. */
#include "fuzz.h"
#include "basic/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	uint64_t v;
	parse_size(text, &v);
	parse_duration_ns(text, &v);
	if (parse_uint(text, 1, 1000, &v) == 0 && (v < 1 || v > 1000))
		abort();
	parse_uint(text, 0, UINT64_MAX, &v);
	free(text);
	return 0;
}
