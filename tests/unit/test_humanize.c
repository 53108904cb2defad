/* test_humanize.c: unit tests for basic/humanize.c.
 *
 * The dd summaries are GNU dd's own output for those byte counts and times
 * (checked against coreutils 9.1 dd, LC_ALL=C); they are what admins compare
 * iotriage's lines against, so they are asserted verbatim.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "basic/humanize.h"
#include "tap.h"

static void dd_is(uint64_t bytes, double seconds, const char *want)
{
	char buf[256], name[96];

	memset(buf, 'X', sizeof(buf));
	human_dd_summary(bytes, seconds, buf, sizeof(buf));
	snprintf(name, sizeof(name), "human_dd_summary(%llu, %g)", (unsigned long long)bytes,
		 seconds);
	is_str(buf, want, name);
}

/* Checks that the dd summary contains NEEDLE (for cases given only in part). */
static void dd_has(uint64_t bytes, double seconds, const char *needle)
{
	char buf[256], name[128];

	human_dd_summary(bytes, seconds, buf, sizeof(buf));
	snprintf(name, sizeof(name), "human_dd_summary(%llu, %g) contains \"%s\"",
		 (unsigned long long)bytes, seconds, needle);
	if (!ok(strstr(buf, needle) != NULL, name))
		printf("#   got '%s'\n", buf);
}

static void rate_is(double bps, const char *want)
{
	char buf[64], name[96];

	human_rate(bps, buf, sizeof(buf));
	snprintf(name, sizeof(name), "human_rate(%.17g) = \"%s\"", bps, want);
	is_str(buf, want, name);
}

static void iec_is(double v, const char *want)
{
	char buf[64], name[96];

	human_iec(v, buf, sizeof(buf));
	snprintf(name, sizeof(name), "human_iec(%.17g) = \"%s\"", v, want);
	is_str(buf, want, name);
}

static void si_is(double v, const char *unit, const char *want)
{
	char buf[64], name[96];

	human_si(v, unit, buf, sizeof(buf));
	snprintf(name, sizeof(name), "human_si(%.17g, \"%s\") = \"%s\"", v, unit, want);
	is_str(buf, want, name);
}

static void exact_is(uint64_t bytes, const char *want)
{
	char buf[64], name[96];

	human_size_exact(bytes, buf, sizeof(buf));
	snprintf(name, sizeof(name), "human_size_exact(%llu) = \"%s\"", (unsigned long long)bytes,
		 want);
	is_str(buf, want, name);
}

static void test_dd_summary(void)
{
	dd_is(1048576000ULL, 0.903725,
	      "1048576000 bytes (1.0 GB, 1000 MiB) copied, 0.903725 s, 1.2 GB/s");
	dd_is(1073741824ULL, 5.32025,
	      "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 5.32025 s, 202 MB/s");
	dd_is(827969536ULL, 3.83234, "827969536 bytes (828 MB, 790 MiB) copied, 3.83234 s, 216 MB/s");
	dd_has(209715200ULL, 3.91317, ", 53.6 MB/s");
	dd_has(209715200ULL, 3.91317, "209715200 bytes (210 MB, 200 MiB) copied, ");
	dd_is(209715200ULL, 3.91317, "209715200 bytes (210 MB, 200 MiB) copied, 3.91317 s, 53.6 MB/s");

	/* More real dd 9.1 lines (LC_ALL=C dd ... iflag=count_bytes, and slow pipes). */
	dd_is(512, 0.000188889, "512 bytes copied, 0.000188889 s, 2.7 MB/s");
	dd_is(1024, 0.000233635, "1024 bytes (1.0 kB, 1.0 KiB) copied, 0.000233635 s, 4.4 MB/s");
	dd_is(99999, 0.000358852, "99999 bytes (100 kB, 98 KiB) copied, 0.000358852 s, 279 MB/s");
	/* dd says "byte" for exactly one. */
	dd_is(1, 0.000344215, "1 byte copied, 0.000344215 s, 2.9 kB/s");
	/* From 1000 to 1023 bytes the binary form has no prefix, and dd leaves it out. */
	dd_is(1000, 0.000133374, "1000 bytes (1.0 kB) copied, 0.000133374 s, 7.5 MB/s");
	dd_is(1023, 0.000198457, "1023 bytes (1.0 kB) copied, 0.000198457 s, 5.2 MB/s");
	/* dd's sizes (exact integer path of gnulib human_readable) get a decimal
	 * only below 10, in SI as in IEC, and round halves to even. */
	dd_is(52428800, 0.00378639, "52428800 bytes (52 MB, 50 MiB) copied, 0.00378639 s, 13.8 GB/s");
	dd_is(9960, 0.000209869, "9960 bytes (10 kB, 9.7 KiB) copied, 0.000209869 s, 47.5 MB/s");
	dd_is(1050000000ULL, 0.0177437,
	      "1050000000 bytes (1.0 GB, 1001 MiB) copied, 0.0177437 s, 59.2 GB/s");
	dd_is(1150000000ULL, 0.0203925,
	      "1150000000 bytes (1.2 GB, 1.1 GiB) copied, 0.0203925 s, 56.4 GB/s");
	/* dd's rate always has at least the k prefix. */
	dd_is(0, 0.993741, "0 bytes copied, 0.993741 s, 0.0 kB/s");
	dd_is(1, 1.20575, "1 byte copied, 1.20575 s, 0.0 kB/s");
	dd_is(600, 1.11187, "600 bytes copied, 1.11187 s, 0.5 kB/s");
	/* No elapsed time: dd prints an infinite rate (dd.c print_xfer_stats). */
	dd_is(4096, 0.0, "4096 bytes (4.1 kB, 4.0 KiB) copied, 0 s, Infinity B/s");

	/* A result that does not fit is truncated, still NUL-terminated. */
	char small[16];
	memset(small, 'X', sizeof(small));
	human_dd_summary(1048576000ULL, 0.903725, small, sizeof(small));
	is_str(small, "1048576000 byte", "human_dd_summary truncates to the buffer");
}

static void test_rate(void)
{
	rate_is(1048576000.0 / 0.903725, "1.2 GB/s");
	rate_is(1073741824.0 / 5.32025, "202 MB/s");
	rate_is(827969536.0 / 3.83234, "216 MB/s");
	rate_is(209715200.0 / 3.91317, "53.6 MB/s");
	rate_is(1000.0, "1.0 kB/s");
	rate_is(99940000.0, "99.9 MB/s"); /* one decimal below 100 */
	rate_is(100000000.0, "100 MB/s");  /* none from 100 up */
	rate_is(999400000.0, "999 MB/s");
	rate_is(2.5e12, "2.5 TB/s");
	/* As dd: the rate is scaled to at least k, and 999.96 MB/s stays in MB
	 * (gnulib human_readable, floating-point path). */
	rate_is(0.0, "0.0 kB/s");
	rate_is(540.0, "0.5 kB/s");
	rate_is(999.0, "1.0 kB/s");
	rate_is(999960000.0, "1000 MB/s");
}

static void test_iec(void)
{
	iec_is(0, "0 B");
	iec_is(1, "1 B");
	iec_is(1023, "1023 B");
	iec_is(1024, "1.0 KiB");
	iec_is(1536, "1.5 KiB");
	iec_is(10240, "10 KiB"); /* one decimal only below 10 */
	iec_is(10137, "9.9 KiB");
	iec_is(1048576000.0, "1000 MiB");
	iec_is(1073741824.0, "1.0 GiB");
	iec_is(827969536.0, "790 MiB");
	iec_is(1048575.0, "1.0 MiB"); /* 1023.999 KiB rounds up into MiB */
	iec_is(1099511627776.0, "1.0 TiB");

	si_is(1048576000.0, "B", "1.0 GB");
	si_is(1073741824.0, "B", "1.1 GB");
	si_is(827969536.0, "B", "828 MB");
	si_is(209715200.0, "B", "210 MB");
	si_is(999.0, "B", "999 B");
	si_is(999999999.0, "B", "1.0 GB"); /* rounding carries into the next unit */
	si_is(1234.0, "IOPS", "1.2 kIOPS");
}

static void test_size_exact(void)
{
	exact_is(0, "0 B");
	exact_is(100, "100 B");
	exact_is(1023, "1023 B");
	exact_is(1024, "1 KiB");
	exact_is(4096, "4 KiB");
	exact_is(1048576, "1 MiB");
	exact_is(1048576000ULL, "1000 MiB");
	exact_is(1ULL << 30, "1 GiB");
	exact_is(3ULL << 40, "3 TiB");
	exact_is(1536, "1.5 KiB");
	exact_is(1536ULL * 1024, "1536 KiB");
}

int main(void)
{
	test_dd_summary();
	test_rate();
	test_iec();
	test_size_exact();
	return tap_done();
}
