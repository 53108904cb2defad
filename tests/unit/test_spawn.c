/* spawn_run: output captured, exit status, missing program, timeout, no shell. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "basic/interrupt.h"
#include "basic/spawn.h"
#include "tap.h"

static void *interrupt_soon(void *arg)
{
	(void)arg;
	usleep(150 * 1000);
	kill(getpid(), SIGINT);
	return NULL;
}

int main(void)
{
	struct spawn_result r;
	const char *echo[] = { "printf", "%s|%s", "a b", "$HOME;rm", NULL };
	is_int(spawn_run(echo, 5000, &r), 0, "printf runs");
	is_str(r.out.buf, "a b|$HOME;rm", "arguments pass unchanged: no shell expands them");
	is_int(r.status, 0, "exit status 0");
	spawn_result_release(&r);

	const char *fail[] = { "ls", "/nonexistent/iotriage", NULL };
	is_int(spawn_run(fail, 5000, &r), 0, "a failing program still ran");
	ok(r.status != 0 && strstr(r.err.buf, "No such file") != NULL, "its status and stderr are kept");
	spawn_result_release(&r);

	const char *env[] = { "env", NULL };
	spawn_run(env, 5000, &r);
	ok(strstr(r.out.buf, "LC_ALL=C") && strstr(r.out.buf, "PATH=") && !strstr(r.out.buf, "HOME="),
	   "the environment is PATH and LC_ALL=C only");
	spawn_result_release(&r);

	const char *missing[] = { "iotriage-no-such-program", NULL };
	is_int(spawn_run(missing, 5000, &r), -ENOENT, "a missing program is -ENOENT");
	spawn_result_release(&r);

	const char *slow[] = { "sleep", "10", NULL };
	is_int(spawn_run(slow, 200, &r), -ETIMEDOUT, "a program past its timeout is killed");
	spawn_result_release(&r);

	/* stdin from a descriptor: what the child reads is what we wrote. */
	int p[2];
	if (pipe(p) == 0) {
		ssize_t w = write(p[1], "from a pipe", 11);
		close(p[1]);
		const char *cat[] = { "cat", NULL };
		struct spawn_opts o = { .timeout_ms = 5000, .stdin_fd = p[0] };
		is_int(spawn_run_opts(cat, &o, &r), 0, "cat runs with a pipe as stdin");
		ok(w == 11 && strcmp(r.out.buf, "from a pipe") == 0, "it reads what was written to the pipe");
		spawn_result_release(&r);
		close(p[0]);
	}

	/* SIGINT while an interruptible child runs: the child is stopped at once. */
	interrupt_install();
	pthread_t t;
	pthread_create(&t, NULL, interrupt_soon, NULL);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	struct spawn_opts o = { .timeout_ms = 20000, .stdin_fd = -1, .interruptible = true };
	is_int(spawn_run_opts(slow, &o, &r), -EINTR, "an interrupt stops an interruptible child: -EINTR");
	clock_gettime(CLOCK_MONOTONIC, &b);
	ok(b.tv_sec - a.tv_sec < 5, "well before its 10 s sleep or the timeout");
	spawn_result_release(&r);
	pthread_join(t, NULL);
	return tap_done();
}
