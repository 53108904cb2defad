/* spawn_run: output captured, exit status, missing program, timeout, no shell. */
#include <errno.h>
#include <string.h>

#include "basic/spawn.h"
#include "tap.h"

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
	return tap_done();
}
