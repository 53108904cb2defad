/* basic/timeutil.h: clocks. Monotonic nanoseconds for measuring, wall-clock
 * text for logs and file names. */
#ifndef IOTRIAGE_BASIC_TIMEUTIL_H
#define IOTRIAGE_BASIC_TIMEUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* "Thu Sep  3 05:19:08 2026" (ctime layout, local time, no newline). */
void time_format_ctime(time_t t, char *buf, size_t len);
/* "20260903_051908" for file names. */
void time_format_stamp(time_t t, char *buf, size_t len);
/* "2026-09-03T05:19:08Z" for JSON. */
void time_format_iso8601(time_t t, char *buf, size_t len);

#endif
