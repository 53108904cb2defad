/* fio job files (bench/fiojob.c: fiojob_parse). */
#include "fuzz.h"
#include "bench/fiojob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fiojob_file f;
	char err[512];
	int r = fiojob_parse((const char *)data, size, &f, err, sizeof(err));
	fiojob_file_release(&f);
	if (r == 0 && f.njobs == 0)
		abort(); /* a parsed file always has a job */
	return 0;
}
