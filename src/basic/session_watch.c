#include "basic/session_watch.h"

#include <errno.h>
#include <fcntl.h>
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

/* The line being read, across SIGIOs; only the handler touches them. */
static char line[64];
static size_t line_len;
static bool session_gone;

/* True when the line buffered so far is the interrupt request. */
static bool is_interrupt(void)
{
	size_t want = strlen(SESSION_INTERRUPT_LINE) - 1;
	return line_len == want && memcmp(line, SESSION_INTERRUPT_LINE, want) == 0;
}

/* SIGIO: stdin has input or was closed. Reads what is there (stdin is
 * non-blocking) with async-signal-safe calls only. */
static void on_input(int sig)
{
	(void)sig;
	int saved = errno;
	char buf[256];
	while (!session_gone) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			session_gone = true;
			detach_outputs();
			kill(getpid(), SIGHUP);
			break;
		}
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (line_len < sizeof(line))
					line[line_len++] = buf[i];
				continue;
			}
			if (is_interrupt())
				kill(getpid(), SIGINT);
			line_len = 0;
		}
	}
	errno = saved;
}

/* No thread: the kernel signals stdin's input (O_ASYNC, SIGIO to this
 * process). A thread here was the one other thread of every remote run, and
 * a fork from a process with threads copies any lock a thread holds at that
 * moment: under GCC 12's AddressSanitizer, which takes no lock around fork,
 * a reader child then waited forever on an allocator lock. */
int session_watch_start(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ignore_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);

	sa.sa_handler = on_input;
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	if (sigaction(SIGIO, &sa, NULL) < 0)
		return -errno;
	int flags = fcntl(STDIN_FILENO, F_GETFL);
	if (flags < 0 || fcntl(STDIN_FILENO, F_SETOWN, getpid()) < 0 ||
	    fcntl(STDIN_FILENO, F_SETFL, flags | O_ASYNC | O_NONBLOCK) < 0)
		return -errno;
	raise(SIGIO); /* what arrived, or an end of file, before O_ASYNC was set */
	return 0;
}
