/* Every owner tag of tagged leftovers goes through basic/procowner:
 * pool/scratch's "run:boot:pid:start" (datasets, subvolumes, directories,
 * doctor's lab pools and mounts) and lab/throttle's cgroup names, judged on
 * a real live child, a real zombie, another boot and a reused pid. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/procowner.h"
#include "lab/throttle.h"
#include "pool/scratch.h"
#include "tap.h"

static char state_of(pid_t pid)
{
	char state = 0;
	unsigned long long start;
	proc_stat_read("/proc", (long)pid, &state, &start);
	return state;
}

static void scratch_tag(char *buf, size_t len, const struct proc_owner *o, const char *boot, long dstart)
{
	snprintf(buf, len, "0123456789abcdef:%s:%ld:%llu", boot ? boot : o->boot, o->pid,
		 o->start + (unsigned long long)dstart);
}

static void group_name(char *buf, size_t len, const struct proc_owner *o, const char *boot, long dstart)
{
	snprintf(buf, len, "iotriage-0123456789abcdef" THROTTLE_OWNER_MARK "%s.%ld.%llu", boot ? boot : o->boot, o->pid,
		 o->start + (unsigned long long)dstart);
}

int main(void)
{
	char mine[256], tag[256];
	struct proc_owner self;
	proc_owner_self(&self);
	scratch_owner_tag("0123456789abcdef", mine, sizeof(mine));
	scratch_tag(tag, sizeof(tag), &self, NULL, 0);
	is_str(mine, tag, "scratch's tag is run:boot:pid:start of this process");
	ok(!scratch_owner_gone(mine), "scratch: this process's own tag is live");
	ok(!scratch_owner_gone("not a tag"), "scratch: a malformed tag is not judged gone");

	pid_t child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	struct proc_owner c = { .pid = child };
	char state;
	proc_boot_id(c.boot, sizeof(c.boot));
	proc_stat_read("/proc", (long)child, &state, &c.start);

	scratch_tag(tag, sizeof(tag), &c, NULL, 0);
	ok(!scratch_owner_gone(tag), "scratch: a live owner keeps its area");
	group_name(mine, sizeof(mine), &c, NULL, 0);
	ok(!throttle_group_stale(mine, "/proc"), "throttle: a live owner keeps its group");
	scratch_tag(tag, sizeof(tag), &c, "00000000", 0);
	ok(scratch_owner_gone(tag), "scratch: another boot is gone");
	group_name(mine, sizeof(mine), &c, "00000000", 0);
	ok(throttle_group_stale(mine, "/proc"), "throttle: another boot is gone");
	scratch_tag(tag, sizeof(tag), &c, NULL, 1);
	ok(scratch_owner_gone(tag), "scratch: a reused pid is gone");
	group_name(mine, sizeof(mine), &c, NULL, 1);
	ok(throttle_group_stale(mine, "/proc"), "throttle: a reused pid is gone");

	kill(child, SIGKILL);
	for (int i = 0; i < 400 && state_of(child) != 'Z'; i++)
		usleep(5000);
	is_int(state_of(child), 'Z', "the killed child stays a zombie");
	scratch_tag(tag, sizeof(tag), &c, NULL, 0);
	ok(scratch_owner_gone(tag), "scratch: a zombie owner is gone");
	group_name(mine, sizeof(mine), &c, NULL, 0);
	ok(throttle_group_stale(mine, "/proc"), "throttle: a zombie owner is gone");
	waitpid(child, NULL, 0);
	ok(scratch_owner_gone(tag), "scratch: a reaped owner is gone");

	ok(throttle_group_stale("iotriage-0123456789abcdef", "/proc"), "throttle: an older version's group is a leftover");
	ok(!throttle_group_stale("iotriage-test-123-456", "/proc"), "throttle: a test's own group is never taken");
	ok(!throttle_group_stale("other-0123456789abcdef", "/proc"), "throttle: a group without the prefix is never taken");
	ok(!throttle_group_stale("iotriage-x" THROTTLE_OWNER_MARK "garbage", "/proc"), "throttle: a malformed owner is left");
	return tap_done();
}
