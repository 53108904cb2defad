/* fio's client/server JSON (remote/fio_clients.c: fio_clients_parse), mapped
 * back to two endpoints as fleet --fio does. */
#include "fuzz.h"
#include "remote/fio_clients.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	const struct fio_endpoint ends[] = { { "a", "10.0.0.1", 8765 }, { "b", "10.0.0.2", 8765 } };
	struct fio_clients_result r;
	char why[256];
	(void)fio_clients_parse(text, ends, 2, &r, why, sizeof(why));
	fio_clients_release(&r); /* after a failure too, as fleet does */
	free(text);
	return 0;
}
