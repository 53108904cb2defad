/* A remote host's answer to `iotriage --json --version` (remote/handshake.c:
 * handshake_parse): what fleet and doctor --client read from another host,
 * the first thing a host on the network can send us. */
#include "fuzz.h"
#include "remote/handshake.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct host_identity id;
	char why[256];
	if (handshake_parse(text, &id, why, sizeof(why)) == 0 &&
	    (memchr(id.version, '\0', sizeof(id.version)) == NULL || memchr(id.hostname, '\0', sizeof(id.hostname)) == NULL))
		abort(); /* a parsed identity's strings are terminated */
	free(text);
	return 0;
}
