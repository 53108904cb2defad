/* basic/log.h: the log line, in the appliance tool's format that admins grep for:
 *   {Thu Sep  3 05:19:08 2026, INFO, iotriage} READ-DISK (/dev/sda): completed: ...
 *
 * Every line goes to the append-only log file (when one is open) and to
 * stderr at or above the stderr threshold (--json raises it to WARN so that
 * stdout and stderr stay machine-friendly). Not thread-safe: log from the
 * main thread.
 */
#ifndef IOTRIAGE_BASIC_LOG_H
#define IOTRIAGE_BASIC_LOG_H

enum log_level { LOG_INFO, LOG_WARN, LOG_ERR };

/* Opens PATH for appending (creating its directory). Returns 0 or -errno. */
int log_open(const char *path);
void log_close(void);
void log_set_stderr_threshold(enum log_level min);
/* Called before a line goes to stderr (a progress line erases itself);
 * NULL for none. */
void log_set_before_stderr(void (*fn)(void));
/* LEVEL line to the log file only: a detail the terminal sums up. */
void log_file_only(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_msg(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Formats one line (no newline) into BUF; exposed for tests. */
void log_format_line(char *buf, unsigned len, long when, enum log_level level, const char *msg);

#endif
