/* ramdisk/cfs.c: configfs groups and attributes for the kernel targets
 * (nvmet.c, lio.c), or a temporary tree standing in for configfs in the
 * unit tests. See ramdisk/cfs.h. */
#include "ramdisk/cfs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "basic/fsutil.h"

#define CONFIGFS_MAGIC_NUMBER 0x62656570

bool cfs_emulated(const char *root)
{
	struct statfs s;
	return statfs(root, &s) == 0 && (unsigned long)s.f_type != CONFIGFS_MAGIC_NUMBER;
}

/* In a stand-in tree: removes everything under DIRFD (configfs does this
 * itself for attributes and default groups). */
static void clear_tree(int dirfd)
{
	DIR *d = fdopendir(dirfd);
	if (!d) {
		close(dirfd);
		return;
	}
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		if (de->d_type == DT_DIR) {
			int sub = openat(dirfd, de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (sub >= 0)
				clear_tree(sub);
			unlinkat(dirfd, de->d_name, AT_REMOVEDIR);
		} else {
			unlinkat(dirfd, de->d_name, 0);
		}
	}
	closedir(d);
}

/* rmdir of a configfs group; 0 when it is gone or was never there. */
int cfs_group_remove(const char *root, const char *path)
{
	if (cfs_emulated(root)) {
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			clear_tree(fd);
	}
	if (rmdir(path) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

int cfs_group_make(const char *root, const char *path)
{
	int r = cfs_emulated(root) ? mkdir_p(path, 0755) : (mkdir(path, 0755) < 0 ? -errno : 0);
	return r;
}

/* Writes an attribute; in a stand-in tree the file is created. */
int cfs_attr_write(const char *dir, const char *name, const char *value)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	size_t n = strlen(value);
	ssize_t w = write(fd, value, n);
	int r = w == (ssize_t)n ? 0 : (w < 0 ? -errno : -EIO);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

/* Removes the links in DIR (a port's subsystems/, a subsystem's allowed_hosts/). */
void cfs_unlink_all(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
}

