/* pool/zpool_watch.c: zpool iostat -v in the background, parsed at the end. */
#include "pool/zpool_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/spawn.h"
#include "basic/strbuf.h"

#define WATCH_MAX_BYTES (16u << 20)

/* The reader: drains the pipe until the child's end closes. */
static void *drain(void *arg)
{
	struct zpool_watch *w = arg;
	char buf[4096];
	for (;;) {
		ssize_t n = read(w->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (w->out.len < WATCH_MAX_BYTES)
			strbuf_add(&w->out, buf, (size_t)n);
	}
	return NULL;
}

/* Starts ARGV (zpool iostat ... POOL INTERVAL) with its output drained into W. */
static int watch_start(struct zpool_watch *w, const char *pool, const char *const *argv, char *why, size_t len)
{
	*w = (struct zpool_watch){ .fd = -1, .out = STRBUF_INIT };
	snprintf(w->pool, sizeof(w->pool), "%s", pool);
	int p[2] = { -1, -1 };
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	int r = null < 0 || pipe2(p, O_CLOEXEC) < 0 ? -errno : spawn_start(argv, -1, p[1], null, &w->pid);
	if (null >= 0)
		close(null);
	if (p[1] >= 0)
		close(p[1]); /* the child's end: EOF once it is gone */
	w->fd = p[0];
	if (r == 0 && (r = -pthread_create(&w->reader, NULL, drain, w)) < 0)
		kill(-w->pid, SIGKILL), waitpid(w->pid, NULL, 0);
	if (r < 0) {
		snprintf(why, len, "cannot run zpool iostat: %s", r == -ENOENT ? "not installed" : strerror(-r));
		if (w->fd >= 0)
			close(w->fd);
		*w = (struct zpool_watch){ .fd = -1 };
	}
	return r;
}

int zpool_watch_start(struct zpool_watch *w, const char *pool, char *why, size_t len)
{
	char interval[16];
	snprintf(interval, sizeof(interval), "%d", ZPOOL_WATCH_INTERVAL_S);
	const char *argv[] = { "zpool", "iostat", "-v", pool, interval, NULL };
	return watch_start(w, pool, argv, why, len);
}

int zpool_watch_start_latency(struct zpool_watch *w, const char *pool, char *why, size_t len)
{
	char interval[16];
	snprintf(interval, sizeof(interval), "%d", ZPOOL_WATCH_INTERVAL_S);
	const char *argv[] = { "zpool", "iostat", "-v", "-l", "-H", "-p", pool, interval, NULL };
	return watch_start(w, pool, argv, why, len);
}

/* Ends the child: TERM to its group, reaped; KILL if it lingers 2 s. */
static int end_child(pid_t pid)
{
	int status = 0;
	kill(-pid, SIGTERM);
	for (int i = 0; i < 200; i++) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		usleep(10000);
	}
	kill(-pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* Ends W's child and joins its reader. Returns 0 with its reports in
 * W->out, -ENODATA when it was not running, or -EIO when it had exited by
 * itself (it failed: a running zpool iostat never ends on its own). */
static int watch_end(struct zpool_watch *w, char *why, size_t len)
{
	if (!w->pid) {
		snprintf(why, len, "zpool iostat was not running");
		return -ENODATA;
	}
	int status = end_child(w->pid);
	w->pid = 0;
	pthread_join(w->reader, NULL);
	close(w->fd);
	w->fd = -1;
	if (status >= 0 && WIFEXITED(status)) {
		snprintf(why, len, "zpool iostat exited with status %d", WEXITSTATUS(status));
		return -EIO;
	}
	return 0;
}

int zpool_watch_stop(struct zpool_watch *w, struct zpool_iostat *ret, char *why, size_t len)
{
	memset(ret, 0, sizeof(*ret));
	int r = watch_end(w, why, len);
	if (r == 0 && (r = zpool_iostat_parse(w->out.buf ? w->out.buf : "", w->pool, true, ret)) < 0)
		snprintf(why, len, "zpool iostat -v output not understood");
	else if (r == 0 && ret->blocks < 2) {
		zpool_iostat_release(ret);
		snprintf(why, len, "no interval report (the workload ran under %d s)", ZPOOL_WATCH_INTERVAL_S);
		r = -ENODATA;
	}
	strbuf_release(&w->out);
	return r;
}

int zpool_watch_stop_latency(struct zpool_watch *w, struct zpool_lat *ret, char *why, size_t len)
{
	memset(ret, 0, sizeof(*ret));
	int r = watch_end(w, why, len);
	if (r == 0 && (r = zpool_lat_parse(w->out.buf ? w->out.buf : "", w->pool, true, ret)) < 0)
		snprintf(why, len, "zpool iostat -v -l -H -p output not understood");
	else if (r == 0 && ret->reports < 1) {
		zpool_lat_release(ret);
		snprintf(why, len, "no interval report");
		r = -ENODATA;
	}
	strbuf_release(&w->out);
	return r;
}
