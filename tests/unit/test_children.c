/* basic/children: several programs watched at once, a control channel on
 * stdin; basic/session_watch: "interrupt" and end of file on stdin become
 * SIGINT and SIGHUP. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/children.h"
#include "basic/interrupt.h"
#include "basic/session_watch.h"
#include "basic/timeutil.h"
#include "tap.h"

static size_t wait_all(struct child *const *c, size_t n, int limit_ms)
{
	uint64_t end = now_ns() + (uint64_t)limit_ms * 1000000ULL;
	size_t running;
	while ((running = children_poll(c, n, 100)) > 0 && now_ns() < end)
		;
	return running;
}

static void test_children(void)
{
	struct child cat, echo, sleeper;
	const char *cat_argv[] = { "cat", NULL };
	const char *echo_argv[] = { "printf", "%s", "a b;c", NULL };
	const char *sleep_argv[] = { "sleep", "30", NULL };
	is_int(child_start(&cat, cat_argv), 0, "cat starts");
	is_int(child_start(&echo, echo_argv), 0, "printf starts");
	is_int(child_start(&sleeper, sleep_argv), 0, "sleep starts");
	is_int(child_send(&cat, "hello\n"), 0, "a line to cat's stdin");
	struct child *two[] = { &cat, &echo };
	uint64_t end = now_ns() + 5000000000ULL;
	while (!strstr(cat.out.buf, "hello") && now_ns() < end)
		children_poll(two, 2, 100);
	is_str(cat.out.buf, "hello\n", "cat echoes it while it runs");
	child_close_stdin(&cat);
	is_int(wait_all(two, 2, 5000), 0, "end of file on stdin ends cat; printf ends");
	is_int(cat.status, 0, "cat's status");
	is_str(echo.out.buf, "a b;c", "arguments pass unchanged, no shell");
	is_int(child_send(&cat, "more\n"), -EPIPE, "writing to a closed stdin is -EPIPE, not SIGPIPE");
	child_signal(&sleeper, SIGKILL);
	struct child *one[] = { &sleeper };
	is_int(wait_all(one, 1, 5000), 0, "a signalled child is reaped");
	is_int(sleeper.signal, SIGKILL, "with its signal");
	child_release(&cat);
	child_release(&echo);
	child_release(&sleeper);

	struct child missing;
	const char *missing_argv[] = { "iotriage-no-such-program", NULL };
	int r = child_start(&missing, missing_argv);
	if (r == 0) {
		struct child *m[] = { &missing };
		wait_all(m, 1, 5000);
		is_int(missing.status, 127, "a missing program exits 127");
		child_release(&missing);
	} else {
		is_int(r, -ENOENT, "a missing program is -ENOENT");
	}
}

/* A process watching its stdin (a socket we hold); returns its exit status,
 * which is the signal its watch raised. */
static int watched_exit(const char *send, bool close_after)
{
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		dup2(sv[1], STDIN_FILENO);
		interrupt_install();
		session_watch_start();
		for (int i = 0; i < 500 && !interrupt_requested(); i++)
			usleep(10000);
		_exit(interrupt_signal());
	}
	close(sv[1]);
	if (send && write(sv[0], send, strlen(send)) < 0)
		return -1;
	if (close_after)
		close(sv[0]);
	int wstatus = 0;
	waitpid(pid, &wstatus, 0);
	if (!close_after)
		close(sv[0]);
	return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
}

int main(void)
{
	test_children();
	is_int(watched_exit(SESSION_INTERRUPT_LINE, false), SIGINT, "an 'interrupt' line raises SIGINT");
	is_int(watched_exit("noise\n", true), SIGHUP, "end of file raises SIGHUP");
	is_int(watched_exit("interrupted\n", true), SIGHUP, "a line that only starts like it does not interrupt");
	return tap_done();
}
