/* basic/strbuf.h: a growable NUL-terminated string (git's strbuf, trimmed).
 *
 *   struct strbuf sb = STRBUF_INIT;
 *   strbuf_addf(&sb, "%d disks", n);
 *   puts(sb.buf);            // always a valid string, "" when empty
 *   strbuf_release(&sb);
 *
 * Allocation failure aborts the process with a message: a triage tool that
 * cannot allocate a few kilobytes has nothing useful left to report.
 */
#ifndef IOTRIAGE_BASIC_STRBUF_H
#define IOTRIAGE_BASIC_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *buf;
	size_t len;
	size_t alloc;
};

#define STRBUF_INIT { .buf = strbuf_empty_, .len = 0, .alloc = 0 }
extern char strbuf_empty_[1];

void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_adds(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap);
void strbuf_reset(struct strbuf *sb);
/* Hands the buffer to the caller (free() it); sb is left empty. */
char *strbuf_detach(struct strbuf *sb);
void strbuf_release(struct strbuf *sb);

/* Like strdup but aborts on allocation failure. */
char *xstrdup(const char *s);
void *xcalloc(size_t n, size_t size);
/* realloc(P, N * SIZE) with the product checked for overflow; like xcalloc,
 * aborts with a message when either fails, so callers have no failure path.
 * Every growing array in src/ goes through this. */
void *xreallocarray(void *p, size_t n, size_t size);

#endif
