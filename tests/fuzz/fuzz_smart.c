/* smartctl --json (disk/smart.c: smart_parse, through basic/jsonread). */
#include "fuzz.h"
#include "disk/smart.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct smart_health h;
	if (smart_parse(text, size, &h) == 0 && !smart_state_name(h.state))
		abort();
	free(text);
	return 0;
}
