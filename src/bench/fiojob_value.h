/* bench/fiojob_value.h: fio's substitutions in a job file's option line
 * (pure; the environment comes through struct fiojob_env).
 *
 * In fio's order: ${VAR} from the environment (fio puts an empty string for
 * an unset one; iotriage refuses it by name), then the keywords $pagesize,
 * $ncpus and $mb_memory, and, when a keyword was replaced and the value
 * holds + - * or /, the value computed as fio has bc compute it (whole
 * numbers, + - * / % and parentheses; "4096*2" is 8192). A value that starts
 * with '(' is fio's arithmetic (fio built with it; Debian's is not): whole
 * numbers with k, m, g, t or p (1024-based) suffixes.
 */
#ifndef IOTRIAGE_BENCH_FIOJOB_VALUE_H
#define IOTRIAGE_BENCH_FIOJOB_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fiojob_env {
	/* The value of environment variable NAME, or NULL when it is not set. */
	const char *(*getenv)(const char *name, void *arg);
	/* An included file's text (malloc'd, NUL-terminated) for PATH as written
	 * in FROM (the including file: a relative PATH not found from the current
	 * directory is looked for beside FROM, as fio does). Returns 0 or -errno
	 * with WHY. NULL: include is refused. */
	int (*read_include)(const char *path, const char *from, char **ret_text, size_t *ret_len, char *why,
			    size_t whylen, void *arg);
	void *arg;
	const char *path;           /* the job file's name, for includes and messages */
	uint64_t pagesize, ncpus, mb_memory;
};

/* LINE with every ${VAR} replaced into OUT. -EINVAL with WHY naming an unset
 * variable or an unclosed "${"; -E2BIG when OUT is too small. */
int fiojob_expand_env(const char *line, const struct fiojob_env *env, char *out, size_t outlen, char *why,
		      size_t whylen);

/* VALUE with fio's keywords replaced and, after a replacement, computed as
 * fio's bc would (see above) into OUT. Returns 0, or -EINVAL with WHY. */
int fiojob_expand_keywords(const char *value, const struct fiojob_env *env, char *out, size_t outlen,
			   char *why, size_t whylen);

/* An integer expression (+ - * / %, parentheses, unary minus); with
 * SUFFIXES, numbers may carry k, m, g, t or p (1024-based). Returns 0 and
 * *RET, or -EINVAL (a syntax error, a division by zero, an overflow). */
int fiojob_eval(const char *expr, bool suffixes, int64_t *ret);

/* A size as fio reads it with its default kb_base=1024: a whole number
 * (0x for hex), then k, m, g, t or p with an optional b (1024-based), or
 * kib, mib, gib, tib or pib (1000-based: fio's "compatibility mode"), or b.
 * Where fio would read something other than what is written, refused with
 * WHY saying how fio reads it: a fraction ("1.5g" is 1 byte to fio), text
 * after the unit. Returns 0 and *RET, or -EINVAL. */
int fiojob_size(const char *s, uint64_t *ret, char *why, size_t whylen);

/* A time as fio reads it, in ns: a whole number of seconds, or with us,
 * usec, ms, msec, s, m, h or d. Refused with WHY where fio reads it another
 * way: "5sec" and "10min" are microseconds to fio, "1.5" is 1 s. */
int fiojob_time(const char *s, uint64_t *ret_ns, char *why, size_t whylen);

#endif
