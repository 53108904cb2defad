/* zdb -l's label dump (pool/zfs_label.c: zfs_label_ashift): an ashift in
 * 9..16 or an error, never a value read past the first label. */
#include "fuzz.h"
#include "pool/zfs_label.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	int a = zfs_label_ashift(text, strlen(text));
	if (a >= 0 && (a < 9 || a > 16))
		abort();
	free(text);
	return 0;
}
