/* test_strbuf.c: basic/strbuf.c's growth helpers: xreallocarray keeps what
 * the array held and aborts, with a message, on a size that overflows. */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "basic/strbuf.h"
#include "tap.h"

/* Runs xreallocarray(NULL, N, SIZE) in a child; its wait status. */
static int child_status(size_t n, size_t size)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		void *p = xreallocarray(NULL, n, size);
		free(p);
		_exit(0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	return st;
}

int main(void)
{
	int *a = NULL;
	for (size_t n = 1; n <= 1000; n++) {
		a = xreallocarray(a, n, sizeof(*a));
		a[n - 1] = (int)n;
	}
	bool kept = true;
	for (size_t i = 0; i < 1000; i++)
		kept = kept && a[i] == (int)i + 1;
	ok(kept, "an array grown one element at a time keeps every element");
	free(a);
	int st = child_status(SIZE_MAX / 2 + 2, 2);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "a size whose product overflows aborts, never wraps");
	st = child_status(0, 8);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "zero elements is a valid (minimal) allocation");

	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < 500; i++)
		strbuf_addf(&sb, "%d,", i);
	ok(sb.len > 1000 && strncmp(sb.buf, "0,1,2,", 6) == 0 && sb.buf[sb.len] == '\0',
	   "a strbuf grown through xreallocarray keeps its text");
	strbuf_release(&sb);
	return tap_done();
}
