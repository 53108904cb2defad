/* elbencho's result table (poolbench/parse.c: elbencho_parse_throughput). */
#include "fuzz.h"
#include "poolbench/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	double first, last;
	elbencho_parse_throughput(text, "WRITE", &first, &last);
	elbencho_parse_throughput(text, "READ", &first, &last);
	free(text);
	return 0;
}
