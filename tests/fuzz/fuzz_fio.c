/* fio --output-format=json (poolbench/parse.c: fio_parse). */
#include "fuzz.h"
#include "poolbench/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), err[256];
	struct fio_summary s;
	struct jv *doc = NULL;
	if (fio_parse(text, size, &s, &doc, err, sizeof(err)) == 0)
		jv_free(doc);
	free(text);
	return 0;
}
