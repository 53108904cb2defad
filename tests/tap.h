/* tap.h: a minimal Test Anything Protocol harness for unit tests.
 *
 *   int main(void) { ok(1 + 1 == 2, "addition"); is_int(f(), 3, "f"); return tap_done(); }
 *
 * Prints "ok N - name" / "not ok N - name" per check and "1..N" at the end;
 * tap_done() returns non-zero when any check failed. tests/run.sh counts the
 * lines of every test program.
 */
#ifndef IOTRIAGE_TESTS_TAP_H
#define IOTRIAGE_TESTS_TAP_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int tap_count;
static int tap_failed;

static inline int tap_ok(int cond, const char *file, int line, const char *name)
{
	tap_count++;
	if (!cond)
		tap_failed++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_count, name);
	if (!cond)
		printf("#   failed at %s:%d\n", file, line);
	fflush(stdout);
	return cond;
}

#define ok(cond, name) tap_ok(!!(cond), __FILE__, __LINE__, (name))

#define is_int(got, want, name)                                                \
	do {                                                                   \
		long long g_ = (long long)(got), w_ = (long long)(want);       \
		if (!ok(g_ == w_, name))                                       \
			printf("#   got %lld, want %lld\n", g_, w_);           \
	} while (0)

#define is_str(got, want, name)                                                \
	do {                                                                   \
		const char *g_ = (got), *w_ = (want);                          \
		if (!ok(g_ && w_ && strcmp(g_, w_) == 0, name))                \
			printf("#   got '%s', want '%s'\n", g_ ? g_ : "(null)",   \
			       w_ ? w_ : "(null)");                            \
	} while (0)

/* Removes a test's temporary tree DIR (rm -rf, no shell). */
static inline void tap_remove_tree(const char *dir)
{
	const char *const argv[] = { "rm", "-rf", dir, NULL };
	pid_t pid = fork();
	if (pid == 0) {
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
