#include "basic/timeutil.h"

static void format_local(time_t t, const char *fmt, char *buf, size_t len)
{
	struct tm tm;
	if (!localtime_r(&t, &tm) || strftime(buf, len, fmt, &tm) == 0) {
		if (len)
			buf[0] = '\0';
	}
}

void time_format_ctime(time_t t, char *buf, size_t len)
{
	format_local(t, "%a %b %e %H:%M:%S %Y", buf, len);
}

void time_format_stamp(time_t t, char *buf, size_t len)
{
	format_local(t, "%Y%m%d_%H%M%S", buf, len);
}

void time_format_iso8601(time_t t, char *buf, size_t len)
{
	struct tm tm;
	if (!gmtime_r(&t, &tm) || strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0) {
		if (len)
			buf[0] = '\0';
	}
}
