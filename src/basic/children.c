#include "basic/children.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/spawn.h"

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int child_start(struct child *c, const char *const *argv)
{
	*c = (struct child){ .in_fd = -1, .out_fd = -1, .err_fd = -1, .out = STRBUF_INIT, .err = STRBUF_INIT };
	int in[2], out[2], err[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) < 0)
		return -errno;
	if (pipe2(out, O_CLOEXEC) < 0) {
		int r = -errno;
		close(in[0]);
		close(in[1]);
		return r;
	}
	if (pipe2(err, O_CLOEXEC) < 0) {
		int r = -errno;
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return r;
	}
	int r = spawn_start(argv, in[1], out[1], err[1], &c->pid);
	close(in[1]);
	close(out[1]);
	close(err[1]);
	c->in_fd = in[0];
	c->out_fd = out[0];
	c->err_fd = err[0];
	if (r < 0) {
		close_fd(&c->in_fd);
		close_fd(&c->out_fd);
		close_fd(&c->err_fd);
		return r;
	}
	/* We never read what the child writes to its stdin. */
	shutdown(c->in_fd, SHUT_RD);
	c->running = true;
	return 0;
}

int child_send(struct child *c, const char *text)
{
	size_t len = strlen(text), done = 0;
	if (c->in_fd < 0)
		return -EPIPE;
	while (done < len) {
		ssize_t n = send(c->in_fd, text + done, len - done, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	return 0;
}

void child_close_stdin(struct child *c)
{
	close_fd(&c->in_fd);
}

void child_signal(struct child *c, int sig)
{
	if (c->running && c->pid > 0)
		kill(-c->pid, sig);
}

/* Reads what is available on *FD into SB; closes *FD at end of file. */
static void drain(int *fd, struct strbuf *sb)
{
	char buf[8192];
	ssize_t n = read(*fd, buf, sizeof(buf));
	if (n > 0)
		strbuf_add(sb, buf, (size_t)n);
	else if (n == 0 || (errno != EINTR && errno != EAGAIN))
		close_fd(fd);
}

static void try_reap(struct child *c)
{
	int wstatus;
	if (!c->running || waitpid(c->pid, &wstatus, WNOHANG) != c->pid)
		return;
	c->running = false;
	c->status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
	c->signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
}

size_t children_poll(struct child *const *c, size_t n, int wait_ms)
{
	struct pollfd *fds = xcalloc(2 * n + 1, sizeof(*fds));
	size_t nfds = 0;
	for (size_t i = 0; i < n; i++) {
		if (!c[i] || !c[i]->running)
			continue;
		fds[nfds++] = (struct pollfd){ c[i]->out_fd, POLLIN, 0 };
		fds[nfds++] = (struct pollfd){ c[i]->err_fd, POLLIN, 0 };
	}
	/* A child that closed both outputs is only waited for: come back soon. */
	poll(fds, nfds, wait_ms);
	size_t k = 0, running = 0;
	for (size_t i = 0; i < n; i++) {
		if (!c[i] || !c[i]->running)
			continue;
		if (c[i]->out_fd >= 0 && (fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
			drain(&c[i]->out_fd, &c[i]->out);
		if (c[i]->err_fd >= 0 && (fds[k + 1].revents & (POLLIN | POLLHUP | POLLERR)))
			drain(&c[i]->err_fd, &c[i]->err);
		k += 2;
		if (c[i]->out_fd < 0 && c[i]->err_fd < 0)
			try_reap(c[i]);
		if (c[i]->running)
			running++;
	}
	free(fds);
	return running;
}

void child_release(struct child *c)
{
	if (!c)
		return;
	close_fd(&c->in_fd);
	close_fd(&c->out_fd);
	close_fd(&c->err_fd);
	if (c->running) {
		kill(-c->pid, SIGKILL);
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
		c->running = false;
	}
	strbuf_release(&c->out);
	strbuf_release(&c->err);
}
