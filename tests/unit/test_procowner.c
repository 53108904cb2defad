/* basic/procowner: owner liveness on real processes (a live child, a real
 * zombie, a reaped pid, a zombie leader whose thread still runs) and on
 * /proc/PID/stat text. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/procowner.h"
#include "tap.h"

static char state_of(pid_t pid)
{
	char state = 0;
	unsigned long long start;
	proc_stat_read("/proc", (long)pid, &state, &start);
	return state;
}

static void wait_state(pid_t pid, char want)
{
	for (int i = 0; i < 400 && state_of(pid) != want; i++)
		usleep(5000);
}

static struct proc_owner owner_of(pid_t pid)
{
	struct proc_owner o = { .pid = (long)pid };
	char state;
	proc_boot_id(o.boot, sizeof(o.boot));
	proc_stat_read("/proc", (long)pid, &state, &o.start);
	return o;
}

static void test_parse(void)
{
	char state = 0;
	unsigned long long start = 0;
	const char *text = "4242 (a b) (c)) S 1 4242 4242 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 98765 1000 10\n";
	ok(proc_stat_parse(text, &state, &start) == 0, "a command name with spaces and parentheses parses");
	ok(state == 'S', "state is field 3");
	is_int(start, 98765, "start time is field 22");
	ok(proc_stat_parse("12 (x) Z 1 2 3\n", &state, &start) == -EINVAL, "a short line is refused");
	ok(proc_stat_parse("12 x S 1\n", &state, &start) == -EINVAL, "no command name is refused");
	ok(proc_stat_parse("12 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 -5 1\n", &state, &start) == -EINVAL,
	   "a start time that is not a number is refused");
}

static void *sleeper(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

static void test_processes(void)
{
	struct proc_owner self;
	ok(proc_owner_self(&self) == 0 && self.pid == getpid() && self.start > 0, "this process as an owner");
	ok(self.boot[0] && strchr(self.boot, '-') == NULL, "the boot id's first group");
	ok(!proc_owner_gone("/proc", &self), "a live process is not gone");

	pid_t live = fork();
	if (live == 0) {
		pause();
		_exit(0);
	}
	struct proc_owner lo = owner_of(live);
	ok(!proc_owner_gone("/proc", &lo), "a live child is not gone");
	struct proc_owner other = lo;
	snprintf(other.boot, sizeof(other.boot), "00000000");
	ok(proc_owner_gone("/proc", &other), "the same pid and start of another boot is gone");
	struct proc_owner reused = lo;
	reused.start++;
	ok(proc_owner_gone("/proc", &reused), "a pid that names another process (start time differs) is gone");
	struct proc_owner noboot = lo;
	noboot.boot[0] = '\0';
	ok(!proc_owner_gone("/proc", &noboot), "without a recorded boot the live child is still not gone");

	kill(live, SIGKILL);
	wait_state(live, 'Z');
	is_int(state_of(live), 'Z', "the killed child is a zombie (not reaped)");
	ok(proc_owner_gone("/proc", &lo), "a zombie is gone");
	waitpid(live, NULL, 0);
	ok(proc_owner_gone("/proc", &lo), "a reaped pid is gone");
	char state;
	unsigned long long start;
	is_int(proc_stat_read("/proc", (long)live, &state, &start), -ENOENT, "a reaped pid has no stat");
}

/* A leader that ends with its thread still running shows as Z: not gone. */
static void test_zombie_leader(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t t;
		if (pthread_create(&t, NULL, sleeper, NULL) != 0)
			_exit(1);
		syscall(SYS_exit, 0); /* ends this thread only */
	}
	wait_state(pid, 'Z');
	struct proc_owner o = owner_of(pid);
	is_int(state_of(pid), 'Z', "a leader that ended while its thread runs shows as a zombie");
	ok(!proc_owner_gone("/proc", &o), "but its process is not gone");
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int main(void)
{
	test_parse();
	test_processes();
	test_zombie_leader();
	return tap_done();
}
