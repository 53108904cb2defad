/* basic/humanize.h: numbers for people, in the shapes dd prints so that
 * iotriage's log lines read like the ones admins already know:
 *   "1048576000 bytes (1.0 GB, 1000 MiB) copied, 0.903725 s, 1.2 GB/s"
 * Sizes get one decimal below 10 ("1.0 GB", "52 MB"); rates keep one while
 * the number fits in four characters ("53.6 MB/s", "202 MB/s"), and never
 * go below "kB/s"; this is what GNU dd prints, checked against coreutils 9.1. */
#ifndef IOTRIAGE_BASIC_HUMANIZE_H
#define IOTRIAGE_BASIC_HUMANIZE_H

#include <stddef.h>
#include <stdint.h>

/* "1.0 GB" (powers of 1000; UNIT follows the prefix). */
void human_si(double value, const char *unit, char *buf, size_t len);
/* "1000 MiB" (powers of 1024). */
void human_iec(double value, char *buf, size_t len);
/* A size that is an exact multiple of a binary unit, without decimals:
 * "4 KiB", "1 MiB", "1000 MiB"; otherwise as human_iec(). */
void human_size_exact(uint64_t bytes, char *buf, size_t len);
/* The dd completion text for BYTES moved in SECONDS. */
void human_dd_summary(uint64_t bytes, double seconds, char *buf, size_t len);
/* "1.2 GB/s" */
void human_rate(double bytes_per_s, char *buf, size_t len);

#endif
