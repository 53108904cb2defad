/* basic/proc_args.c: the processes whose command line names a thing. */
#include "basic/proc_args.h"

#include "basic/fsutil.h"
#include "basic/procowner.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int proc_cmdline_has(const char *cmdline, size_t len, const char *needle)
{
	size_t i = 0;
	while (i < len) {
		size_t arg_len = strnlen(cmdline + i, len - i);
		char arg[4096];
		size_t n = arg_len < sizeof(arg) - 1 ? arg_len : sizeof(arg) - 1;
		memcpy(arg, cmdline + i, n);
		arg[n] = '\0';
		if (strstr(arg, needle))
			return 1;
		i += arg_len + 1;
	}
	return 0;
}

/* Reads PROC_ROOT/PID/cmdline into BUF; its length, or -1. */
static ssize_t read_cmdline(const char *proc_root, const char *pid, char *buf, size_t size)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s/cmdline", proc_root, pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t got = 0;
	ssize_t n;
	while (got < size && (n = read(fd, buf + got, size - got)) > 0)
		got += (size_t)n;
	close(fd);
	return (ssize_t)got;
}

int proc_find_by_arg(const char *proc_root, const char *needle, pid_t *ret, size_t max)
{
	DIR *dir = opendir(proc_root);
	if (!dir)
		return -errno;
	const size_t size = 64 * 1024;
	char *cmdline = malloc(size);
	if (!cmdline) {
		closedir(dir);
		return -ENOMEM;
	}
	size_t n = 0;
	pid_t self = getpid();
	struct dirent *e;
	while ((e = readdir(dir)) && n < max) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid_t pid = (pid_t)atol(e->d_name);
		if (pid == self)
			continue;
		ssize_t len = read_cmdline(proc_root, e->d_name, cmdline, size);
		if (len > 0 && proc_cmdline_has(cmdline, (size_t)len, needle))
			ret[n++] = pid;
	}
	closedir(dir);
	free(cmdline);
	return (int)n;
}

/* FILE under /proc/PID/task/TID (one line for these), or "?". */
static void task_line(pid_t pid, const char *tid, const char *file, char *buf, size_t len)
{
	char path[128];
	snprintf(path, sizeof(path), "/proc/%d/task/%s/%s", (int)pid, tid, file);
	if (read_small_file(path, buf, len) < 0)
		snprintf(buf, len, "?");
	buf[strcspn(buf, "\n")] = '\0';
}

void proc_describe_tasks(pid_t pid, char *buf, size_t len)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	size_t used = 0;
	buf[0] = '\0';
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) && used + 1 < len) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char stat[512], wchan[64], sys[128];
		task_line(pid, e->d_name, "stat", stat, sizeof(stat));
		task_line(pid, e->d_name, "wchan", wchan, sizeof(wchan));
		task_line(pid, e->d_name, "syscall", sys, sizeof(sys));
		const char *close_paren = strrchr(stat, ')');
		char state = close_paren && close_paren[1] == ' ' ? close_paren[2] : '?';
		int n = snprintf(buf + used, len - used, "%stid %s %c wchan %s syscall %.40s", used ? "; " : "",
				 e->d_name, state, wchan, sys);
		if (n < 0)
			break;
		used += (size_t)n < len - used ? (size_t)n : len - used - 1;
	}
	closedir(d);
}

/* How many of the N pids still run (a zombie has ended). */
static size_t still_there(const pid_t *pids, size_t n)
{
	size_t left = 0;
	for (size_t i = 0; i < n; i++) {
		char state;
		unsigned long long start;
		left += proc_stat_read("/proc", (long)pids[i], &state, &start) == 0 && state != 'Z' && state != 'X';
	}
	return left;
}

size_t proc_stop_all(const pid_t *pids, size_t n, int wait_ms)
{
	for (size_t i = 0; i < n; i++)
		kill(pids[i], SIGTERM);
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	for (int waited = 0; waited < wait_ms && still_there(pids, n); waited += 50)
		nanosleep(&tick, NULL);
	size_t left = still_there(pids, n);
	for (size_t i = 0; left && i < n; i++)
		kill(pids[i], SIGKILL); /* a zombie's SIGKILL is harmless */
	return left;
}
