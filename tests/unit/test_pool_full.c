/* A full pool said in words: the errno of the built-in engine's writes
 * (ENOSPC, EDQUOT) and the message of a tool that ran out of space (fio's
 * stderr captured on this machine: fio 3.33 writing 300 MiB into a
 * 200 MiB zfs-fuse pool). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "poolbench/poolbench.h"
#include "tap.h"

int main(void)
{
	char text[4096] = "", buf[256];
	FILE *f = fopen(TEST_DATA_DIR "/fio_enospc_captured.stderr", "r");
	if (f) {
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = '\0';
		fclose(f);
	}
	ok(text[0] != '\0', "the captured fio stderr is readable");
	ok(pb_pool_full(0, text), "fio's io_u error with No space left on device is a full pool");
	ok(!pb_pool_full(0, "fio: io_u error on file /p/w.0.0: Input/output error: read offset=0"),
	   "an I/O error is not a full pool");
	ok(pb_pool_full(-ENOSPC, NULL) && pb_pool_full(-EDQUOT, NULL), "ENOSPC and EDQUOT are a full pool");
	ok(!pb_pool_full(-EIO, NULL) && !pb_pool_full(0, NULL), "EIO and no error are not");

	pb_failure_reason(-ENOSPC, "writing '/p/a' at byte 83886080, after 84148224 bytes written: No space left on device",
			  buf, sizeof(buf));
	is_str(buf, "the pool is full: writing '/p/a' at byte 83886080, after 84148224 bytes written: No space left on device",
	       "a full pool's reason starts with 'the pool is full'");
	pb_failure_reason(-EIO, "writing '/p/a' at byte 0, after 0 bytes written: Input/output error", buf, sizeof(buf));
	is_str(buf, "writing '/p/a' at byte 0, after 0 bytes written: Input/output error",
	       "another failure keeps its own reason");
	return tap_done();
}
