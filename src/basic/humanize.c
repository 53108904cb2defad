#include "basic/humanize.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const si_prefixes[] = { "", "k", "M", "G", "T", "P", "E" };
static const char *const iec_prefixes[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
#define NPREFIX 7

/* Sizes from doubles: one decimal below 10, and a value that rounds up to
 * the base moves to the next unit (1023.96 KiB is "1.0 MiB"). */
static void human_scaled(double value, double base, const char *const *prefixes, const char *suffix,
			 char *buf, size_t len)
{
	int i = 0;
	while (value >= base && i + 1 < NPREFIX) {
		value /= base;
		i++;
	}
	if (i + 1 < NPREFIX && value >= base - 0.5) {
		value /= base;
		i++;
	}
	int decimals = (i > 0 && value < 9.95) ? 1 : 0;
	snprintf(buf, len, "%.*f %s%s", decimals, value, prefixes[i], suffix);
}

void human_si(double value, const char *unit, char *buf, size_t len)
{
	human_scaled(value, 1000.0, si_prefixes, unit, buf, len);
}

void human_iec(double value, char *buf, size_t len)
{
	human_scaled(value, 1024.0, iec_prefixes, "B", buf, len);
}

/* A byte count the way dd prints it inside "(1.0 GB, 1000 MiB)": exact
 * integer arithmetic, one decimal below 10, halves rounded to even. */
static void dd_size(uint64_t bytes, unsigned base, const char *const *prefixes, char *buf, size_t len)
{
	int power = 0;
	unsigned __int128 div = 1;
	while (power + 1 < NPREFIX && (unsigned __int128)bytes >= div * base) {
		div *= base;
		power++;
	}
	unsigned __int128 tenths = (unsigned __int128)bytes * 10 / div;
	unsigned __int128 rem = (unsigned __int128)bytes * 10 % div;
	if (tenths < 100) {
		if (2 * rem > div || (2 * rem == div && (tenths & 1)))
			tenths++;
		if (tenths < 100) {
			snprintf(buf, len, "%u.%u %sB", (unsigned)(tenths / 10), (unsigned)(tenths % 10),
				 prefixes[power]);
			return;
		}
	}
	unsigned __int128 whole = bytes / div;
	rem = bytes % div;
	if (2 * rem > div || (2 * rem == div && (whole & 1)))
		whole++;
	if (whole >= base && power + 1 < NPREFIX) {
		snprintf(buf, len, "1.0 %sB", prefixes[power + 1]);
		return;
	}
	snprintf(buf, len, "%" PRIu64 " %sB", (uint64_t)whole, prefixes[power]);
}

void human_rate(double bytes_per_s, char *buf, size_t len)
{
	if (!isfinite(bytes_per_s)) {
		snprintf(buf, len, "Infinity B/s");
		return;
	}
	/* As dd: at least "k", the unit fixed before rounding (999.96 MB/s is
	 * "1000 MB/s"), one decimal while it fits in four characters. */
	double v = bytes_per_s / 1000.0;
	int i = 1;
	while (v >= 1000.0 && i + 1 < NPREFIX) {
		v /= 1000.0;
		i++;
	}
	char num[32];
	snprintf(num, sizeof(num), "%.1f", v);
	if (strlen(num) > 4)
		snprintf(num, sizeof(num), "%.0f", v);
	snprintf(buf, len, "%s %sB/s", num, si_prefixes[i]);
}

void human_dd_summary(uint64_t bytes, double seconds, char *buf, size_t len)
{
	char si[32], iec[32], rate[32];
	human_rate(seconds > 0 ? (double)bytes / seconds : INFINITY, rate, sizeof(rate));
	if (bytes < 1000) {
		snprintf(buf, len, "%" PRIu64 " byte%s copied, %g s, %s", bytes, bytes == 1 ? "" : "s",
			 seconds, rate);
		return;
	}
	dd_size(bytes, 1000, si_prefixes, si, sizeof(si));
	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 " bytes (%s) copied, %g s, %s", bytes, si, seconds, rate);
		return;
	}
	dd_size(bytes, 1024, iec_prefixes, iec, sizeof(iec));
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
