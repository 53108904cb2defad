/* pool/zpool.c: zpool destroy, retried. */
#include "pool/zpool.h"

#include <errno.h>
#include <unistd.h>

#include "basic/spawn.h"

#define TOOL_TIMEOUT_MS 120000

/* zfs-fuse answers "pool is busy" for a moment after I/O: retry. */
int zpool_destroy_retrying(const char *pool)
{
	const char *argv[] = { "zpool", "destroy", "-f", pool, NULL };
	int r = -EBUSY;
	for (int i = 0; i < 15 && r < 0; i++) {
		if (i)
			usleep(500 * 1000);
		struct spawn_result res;
		r = spawn_run(argv, TOOL_TIMEOUT_MS, &res);
		if (r == 0 && res.status != 0)
			r = -EBUSY;
		spawn_result_release(&res);
	}
	return r;
}
