/* iperf3 -J (net/iperf3.c: iperf3_parse, iperf3_server_ready). */
#include "fuzz.h"
#include "net/iperf3.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct iperf3_result r;
	char why[256];
	(void)iperf3_parse(text, &r, why, sizeof(why));
	(void)iperf3_server_ready(text);
	free(text);
	return 0;
}
