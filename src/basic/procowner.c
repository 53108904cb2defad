/* basic/procowner.c: owner liveness from /proc (see procowner.h). */
#include "basic/procowner.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/fsutil.h"

int proc_stat_parse(const char *text, char *ret_state, unsigned long long *ret_start)
{
	/* Skip the command name to its last ')'. */
	const char *p = strrchr(text, ')');
	if (!p)
		return -EINVAL;
	p++;
	p += strspn(p, " ");
	if (!*p || *p == ' ')
		return -EINVAL;
	char state = *p;
	for (int field = 3; field < 22; field++) {
		p += strcspn(p, " ");
		if (!*p)
			return -EINVAL;
		p += strspn(p, " ");
	}
	if (*p < '0' || *p > '9')
		return -EINVAL;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(p, &end, 10);
	if (end == p || errno || (*end && *end != ' ' && *end != '\n'))
		return -EINVAL;
	*ret_state = state;
	*ret_start = v;
	return 0;
}

int proc_stat_read(const char *proc_root, long pid, char *ret_state, unsigned long long *ret_start)
{
	char path[PATH_MAX], buf[1024];
	if (pid <= 0)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/%ld/stat", proc_root, pid);
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0)
		return errno == ESRCH ? -ENOENT : -errno;
	buf[n] = '\0';
	return proc_stat_parse(buf, ret_state, ret_start);
}

void proc_boot_id(char *buf, size_t len)
{
	if (read_small_file("/proc/sys/kernel/random/boot_id", buf, len) < 0 || !buf[0])
		snprintf(buf, len, "unknown");
	buf[strcspn(buf, "-\n")] = '\0'; /* the first group is enough to tell boots apart */
}

int proc_owner_self(struct proc_owner *ret)
{
	char state;
	proc_boot_id(ret->boot, sizeof(ret->boot));
	ret->pid = (long)getpid();
	return proc_stat_read("/proc", ret->pid, &state, &ret->start);
}

/* A zombie leader whose other threads still run: /proc/PID/task lists them. */
static bool other_threads_run(const char *proc_root, long pid)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%ld/task", proc_root, pid);
	DIR *d = opendir(path);
	if (!d)
		return false;
	bool found = false;
	struct dirent *de;
	while (!found && (de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		if (end == de->d_name || *end || tid == pid)
			continue;
		char tpath[PATH_MAX + 64], state;
		unsigned long long start;
		snprintf(tpath, sizeof(tpath), "%s/%ld/task", proc_root, pid);
		found = proc_stat_read(tpath, tid, &state, &start) == 0 && state != 'Z' && state != 'X' &&
			state != 'x';
	}
	closedir(d);
	return found;
}

bool proc_owner_gone(const char *proc_root, const struct proc_owner *owner)
{
	if (owner->boot[0]) {
		char mine[PROC_BOOT_ID_MAX];
		proc_boot_id(mine, sizeof(mine));
		if (strcmp(owner->boot, mine) != 0)
			return true;
	}
	char state;
	unsigned long long start;
	int r = proc_stat_read(proc_root, owner->pid, &state, &start);
	if (r == -ENOENT || r == -ESRCH)
		return true;  /* no such process: it ended and was reaped */
	if (r < 0)
		return false; /* not sure: leave it */
	if (start != owner->start)
		return true;  /* the pid is another process now */
	if (state == 'Z' || state == 'X' || state == 'x')
		return !other_threads_run(proc_root, owner->pid);
	return false;
}
