#include "basic/log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/timeutil.h"

static int log_fd = -1;
static enum log_level stderr_threshold = LOG_INFO;
static void (*before_stderr)(void);

static const char *level_name(enum log_level level)
{
	switch (level) {
	case LOG_WARN:
		return "WARN";
	case LOG_ERR:
		return "ERR";
	default:
		return "INFO";
	}
}

int log_open(const char *path)
{
	int r = mkdir_parents(path, 0755);
	if (r < 0)
		return r;
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	log_close();
	log_fd = fd;
	return 0;
}

void log_close(void)
{
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
}

void log_set_stderr_threshold(enum log_level min)
{
	stderr_threshold = min;
}

void log_set_before_stderr(void (*fn)(void))
{
	before_stderr = fn;
}

void log_format_line(char *buf, unsigned len, long when, enum log_level level, const char *msg)
{
	char stamp[64];
	time_format_ctime((time_t)when, stamp, sizeof(stamp));
	snprintf(buf, len, "{%s, %s, iotriage} %s", stamp, level_name(level), msg);
}

static void log_emit(enum log_level level, bool to_stderr, const char *fmt, va_list ap)
{
	char msg[2048], line[2200];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	log_format_line(line, sizeof(line), (long)time(NULL), level, msg);
	size_t n = strlen(line);
	line[n++] = '\n';

	if (log_fd >= 0) {
		/* One write() per line, so concurrent iotriage runs never interleave within a line. */
		ssize_t w = write(log_fd, line, n);
		(void)w;
	}
	if (to_stderr && level >= stderr_threshold) {
		fflush(stdout);
		if (before_stderr)
			before_stderr();
		fwrite(line, 1, n, stderr);
	}
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_emit(level, true, fmt, ap);
	va_end(ap);
}

void log_file_only(enum log_level level, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_emit(level, false, fmt, ap);
	va_end(ap);
}
