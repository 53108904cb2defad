#include "basic/pagecache.h"

#include <fcntl.h>
#include <unistd.h>

#include "basic/fsutil.h"

bool pagecache_drop(int fd)
{
	if (fd >= 0) {
		fdatasync(fd);
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	sync();
	return write_small_file("/proc/sys/vm/drop_caches", "1") == 0;
}
