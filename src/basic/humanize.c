#include "basic/humanize.h"

#include <inttypes.h>
#include <stdio.h>

static void human_scaled(double value, double base, const char *const *prefixes, size_t n,
			 double decimal_below, const char *suffix, char *buf, size_t len)
{
	size_t i = 0;
	while (value >= base && i + 1 < n) {
		value /= base;
		i++;
	}
	/* Rounding may carry to the next unit: 999.96 MB is "1.0 GB". */
	if (i + 1 < n && value >= base - 0.5) {
		value /= base;
		i++;
	}
	int decimals = (i > 0 && value < decimal_below - 0.05) ? 1 : 0;
	snprintf(buf, len, "%.*f %s%s", decimals, value, prefixes[i], suffix);
}

void human_si(double value, const char *unit, char *buf, size_t len)
{
	static const char *const prefixes[] = { "", "k", "M", "G", "T", "P", "E" };
	human_scaled(value, 1000.0, prefixes, sizeof(prefixes) / sizeof(prefixes[0]), 100.0, unit,
		     buf, len);
}

void human_iec(double value, char *buf, size_t len)
{
	static const char *const prefixes[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	human_scaled(value, 1024.0, prefixes, sizeof(prefixes) / sizeof(prefixes[0]), 10.0, "B",
		     buf, len);
}

void human_rate(double bytes_per_s, char *buf, size_t len)
{
	char tmp[32];
	human_si(bytes_per_s, "B", tmp, sizeof(tmp));
	snprintf(buf, len, "%s/s", tmp);
}

void human_dd_summary(uint64_t bytes, double seconds, char *buf, size_t len)
{
	char si[32], iec[32], rate[32];
	double bps = seconds > 0 ? (double)bytes / seconds : 0.0;
	human_rate(bps, rate, sizeof(rate));
	if (bytes < 1000) {
		snprintf(buf, len, "%" PRIu64 " bytes copied, %g s, %s", bytes, seconds, rate);
		return;
	}
	human_si((double)bytes, "B", si, sizeof(si));
	human_iec((double)bytes, iec, sizeof(iec));
	snprintf(buf, len, "%" PRIu64 " bytes (%s, %s) copied, %g s, %s", bytes, si, iec, seconds,
		 rate);
}

void human_size_exact(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB" };
	int unit = -1;
	uint64_t v = bytes;
	while (v >= 1024 && v % 1024 == 0 && unit + 1 < (int)(sizeof(units) / sizeof(units[0]))) {
		v /= 1024;
		unit++;
	}
	if (unit < 0) {
		if (bytes < 1024)
			snprintf(buf, len, "%" PRIu64 " B", bytes);
		else
			human_iec((double)bytes, buf, len);
		return;
	}
	snprintf(buf, len, "%" PRIu64 " %s", v, units[unit]);
}
