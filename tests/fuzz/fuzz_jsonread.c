/* basic/jsonread: the JSON reader of smartctl's and fio's output. The input
 * is passed with its length and no terminating NUL, as read from a pipe. */
#include "fuzz.h"
#include "basic/jsonread.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1), err[128];
	if (!copy)
		abort();
	memcpy(copy, data, size);
	struct jv *v = NULL;
	if (jv_parse(copy, size, &v, err, sizeof(err)) == 0) {
		jv_number(jv_path(v, "a.b"), 0);
		jv_string(jv_path(v, "jobs"), NULL);
		jv_bool(jv_at(jv_get(v, "x"), 0), false);
		jv_number(jv_at(v, 0), 0);
		jv_free(v);
	}
	free(copy);
	return 0;
}
