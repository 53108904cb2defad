#include "basic/session_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

static void ignore_signal(int sig)
{
	(void)sig;
}

/* The session is gone: nothing written from now on may fail or block. */
static void detach_outputs(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	close(fd);
}

/* True when the line buffered so far is the interrupt request. */
static bool is_interrupt(const char *line, size_t len)
{
	size_t want = strlen(SESSION_INTERRUPT_LINE) - 1;
	return len == want && memcmp(line, SESSION_INTERRUPT_LINE, want) == 0;
}

static void *watch(void *arg)
{
	(void)arg;
	char line[64], buf[256];
	size_t len = 0;
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (len < sizeof(line))
					line[len++] = buf[i];
				continue;
			}
			if (is_interrupt(line, len))
				kill(getpid(), SIGINT);
			len = 0;
		}
	}
	detach_outputs();
	kill(getpid(), SIGHUP);
	return NULL;
}

int session_watch_start(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ignore_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);

	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_t t;
	int r = pthread_create(&t, &attr, watch, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -r;
}
