/* basic/proc_args: finding processes by an argument, on real processes
 * (children started with a marker argument), and stopping them: one that
 * ends on SIGTERM and one that ignores it (SIGKILL after the wait). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/proc_args.h"
#include "tap.h"

static void test_cmdline_has(void)
{
	const char cmd[] = "fio\0--rbdname=iotriage-1234-rbd\0--rw=read";
	ok(proc_cmdline_has(cmd, sizeof(cmd), "iotriage-1234-rbd"), "an argument that contains the name");
	ok(!proc_cmdline_has(cmd, sizeof(cmd), "iotriage-9999-rbd"), "not another name");
	ok(!proc_cmdline_has(cmd, sizeof(cmd), "1234-rbd--rw"), "nor across arguments");
	ok(!proc_cmdline_has(cmd, 0, "fio"), "nothing in an empty command line");
}

/* Starts tail -f MARKED_FILE: a real program with the marker in its
 * argv; IGNORE_TERM: SIGTERM ignored (kept across exec). */
static pid_t start_marked(const char *marked_file, int ignore_term)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (ignore_term)
			signal(SIGTERM, SIG_IGN);
		execlp("tail", "tail", "-f", marked_file, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static void test_find_and_stop(void)
{
	char marker[64], path[96];
	snprintf(marker, sizeof(marker), "iotriage-test-marker-%d", (int)getpid());
	snprintf(path, sizeof(path), "/tmp/%s", marker);
	FILE *f = fopen(path, "w");
	if (f)
		fclose(f);
	pid_t a = start_marked(path, 0), b = start_marked(path, 1);
	usleep(200 * 1000);
	pid_t found[8];
	int n = proc_find_by_arg("/proc", marker, found, 8);
	is_int(n, 2, "both marked processes found");
	ok(n == 2 && ((found[0] == a && found[1] == b) || (found[0] == b && found[1] == a)), "by their pids");
	pid_t none[8];
	is_int(proc_find_by_arg("/proc", "iotriage-no-such-marker-anywhere-x", none, 8), 0, "a name no process has");
	is_int(proc_find_by_arg("/nonexistent-proc", marker, none, 8) < 0, 1, "an unreadable root is an error");
	size_t killed = proc_stop_all(found, n > 0 ? (size_t)n : 0, 300);
	is_int((int)killed, 1, "the one that ignores SIGTERM needed SIGKILL");
	int status;
	ok(waitpid(a, &status, 0) == a && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "the other ended on SIGTERM");
	ok(waitpid(b, &status, 0) == b && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "the stubborn one on SIGKILL");
	unlink(path);
}

/* This process as the one described: its thread, its state, a syscall line. */
static void test_describe(void)
{
	char buf[1024], want[32];
	proc_describe_tasks(getpid(), buf, sizeof(buf));
	snprintf(want, sizeof(want), "tid %d R wchan ", (int)getpid());
	ok(strncmp(buf, want, strlen(want)) == 0, "this thread, running, with its wait channel");
	ok(strstr(buf, " syscall ") != NULL, "and its syscall line");
	proc_describe_tasks(999999999, buf, sizeof(buf));
	is_str(buf, "", "no such process: nothing");
}

int main(void)
{
	test_describe();
	test_cmdline_has();
	test_find_and_stop();
	return tap_done();
}
