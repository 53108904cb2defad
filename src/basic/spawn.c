#include "basic/spawn.h"
#include "basic/interrupt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/timeutil.h"
#include "basic/tools_started.h"

/* Reads what is available on FD into SB; returns false at end of file. */
static bool drain(int fd, struct strbuf *sb)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n > 0) {
		strbuf_add(sb, buf, (size_t)n);
		return true;
	}
	return n < 0 && (errno == EINTR || errno == EAGAIN);
}

int spawn_start(const char *const *argv, int in_fd, int out_w, int err_w, pid_t *ret_pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&attr);
	if (in_fd >= 0)
		posix_spawn_file_actions_adddup2(&fa, in_fd, STDIN_FILENO);
	else
		posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_w, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&fa, err_w, STDERR_FILENO);
	/* Its own process group, so a timeout can kill everything it started. */
	posix_spawnattr_setpgroup(&attr, 0);
	sigset_t none;
	sigemptyset(&none);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
	const char *path = getenv("PATH");
	char path_env[4096];
	snprintf(path_env, sizeof(path_env), "PATH=%s", path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
	/* CEPH_CONF names the cluster the Ceph tools and librados (fio's rbd
	 * engine) talk to: passed on, or they would fall back to /etc/ceph. */
	const char *ceph_conf = getenv("CEPH_CONF");
	char ceph_env[4096];
	snprintf(ceph_env, sizeof(ceph_env), "CEPH_CONF=%s", ceph_conf ? ceph_conf : "");
	char *const envp[] = { path_env, (char *)"LC_ALL=C", ceph_conf ? ceph_env : NULL, NULL };
	int r = posix_spawnp(ret_pid, argv[0], &fa, &attr, (char *const *)argv, envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (r == 0)
		tools_note_started(argv[0]); /* for the document's "tools" */
	return -r;
}

/* Asks the child's group to stop, then insists. */
static void stop_group(pid_t pid)
{
	kill(-pid, SIGTERM);
	for (int i = 0; i < 40; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		usleep(50 * 1000);
	}
	kill(-pid, SIGKILL);
}

int spawn_run(const char *const *argv, int timeout_ms, struct spawn_result *ret)
{
	struct spawn_opts o = { .timeout_ms = timeout_ms, .stdin_fd = -1 };
	return spawn_run_opts(argv, &o, ret);
}

int spawn_run_opts(const char *const *argv, const struct spawn_opts *opts, struct spawn_result *ret)
{
	int timeout_ms = opts->timeout_ms;
	*ret = (struct spawn_result){ .out = STRBUF_INIT, .err = STRBUF_INIT };
	int out[2], err[2];
	if (pipe2(out, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(out[0]);
		close(out[1]);
		return -errno;
	}
	pid_t pid;
	int r = spawn_start(argv, opts->stdin_fd, out[1], err[1], &pid);
	close(out[1]);
	close(err[1]);
	if (r < 0) {
		close(out[0]);
		close(err[0]);
		return r;
	}

	uint64_t deadline = now_ns() + (uint64_t)timeout_ms * 1000000ULL;
	struct pollfd fds[2] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 } };
	bool open_out = true, open_err = true, timed_out = false, interrupted = false;
	while (open_out || open_err) {
		uint64_t now = now_ns();
		if (now >= deadline) {
			timed_out = true;
			kill(-pid, SIGKILL);
			break;
		}
		if (opts->interruptible && interrupt_requested()) {
			interrupted = true;
			stop_group(pid);
			break;
		}
		fds[0].fd = open_out ? out[0] : -1;
		fds[1].fd = open_err ? err[0] : -1;
		/* Wake at least every 200 ms to notice an interrupt and move the progress. */
		uint64_t wait_ms = (deadline - now) / 1000000ULL + 1;
		bool wake = opts->interruptible || opts->tick;
		int n = poll(fds, 2, (int)(wake && wait_ms > 200 ? 200 : wait_ms));
		progress_tick(opts->tick);
		if (n < 0 && errno != EINTR)
			break;
		if (open_out && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
			open_out = drain(out[0], &ret->out);
		if (open_err && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
			open_err = drain(err[0], &ret->err);
	}
	close(out[0]);
	close(err[0]);
	int wstatus = 0;
	while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	if (timed_out)
		return -ETIMEDOUT;
	if (interrupted)
		return -EINTR;
	/* posix_spawnp reports a missing program as exit status 127. */
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 127 && ret->out.len == 0 && ret->err.len == 0)
		return -ENOENT;
	ret->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
	ret->signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
	return 0;
}

void spawn_result_release(struct spawn_result *r)
{
	strbuf_release(&r->out);
	strbuf_release(&r->err);
}

int spawn_check(const char *const *argv, int timeout_ms, struct strbuf *out, struct strbuf *err)
{
	struct spawn_result res;
	int r = spawn_run(argv, timeout_ms, &res);
	if (r == 0 && res.status != 0) {
		r = -EIO;
		if (err && res.err.len)
			strbuf_addf(err, "%s %s failed: %.*s", argv[0], argv[1] ? argv[1] : "", (int)strcspn(res.err.buf, "\n"),
				    res.err.buf);
		else if (err)
			strbuf_addf(err, "%s %s failed with exit status %d", argv[0], argv[1] ? argv[1] : "", res.status);
	} else if (r < 0 && err) {
		strbuf_addf(err, "cannot run %s: %s", argv[0], r == -ENOENT ? "not installed" : strerror(-r));
	}
	if (r == 0 && out)
		strbuf_adds(out, res.out.buf);
	spawn_result_release(&res);
	return r;
}
