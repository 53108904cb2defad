/* Another host's readdisk document (remote/remote_read.c: remote_read_parse):
 * what readpooldisks and doctor read back over ssh for a Ceph OSD's device on
 * that host. */
#include "fuzz.h"
#include "remote/remote_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct remote_read r;
	char why[256];
	if (remote_read_parse(text, "/dev/loop3", &r, why, sizeof(why)) == 0) {
		if (memchr(r.reason, '\0', sizeof(r.reason)) == NULL || memchr(r.engine, '\0', sizeof(r.engine)) == NULL)
			abort(); /* a parsed read's strings are terminated */
		if (!strcmp(r.status, "ok") && !(r.bytes > 0 && r.seconds > 0))
			abort(); /* an ok read has figures */
		if (r.has_lat && r.lat.p99 > r.lat.max)
			abort(); /* percentiles kept only in order */
	}
	free(text);
	return 0;
}
