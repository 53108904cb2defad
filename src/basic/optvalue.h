/* basic/optvalue.h: typed option values. A value row says what an option's
 * argument is (flag, string, unsigned, size, duration, one of a list,
 * 0|1), where it is stored in a settings struct, its range, choices and
 * default; optvalue_parse() checks and stores it, optvalue_expected() says
 * what would have been accepted. The command layer's option tables
 * (cmd/options.h) embed one in each row; nothing here prints. */
#ifndef IOTRIAGE_BASIC_OPTVALUE_H
#define IOTRIAGE_BASIC_OPTVALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A typed value is parsed and stored into the settings struct (at OFFSET),
 * its range and choices checked; OPT_TYPE_HANDLER rows are left to the
 * command's handler, for values that need more than one rule. */
enum opt_type {
	OPT_TYPE_HANDLER = 0,
	OPT_TYPE_FLAG,       /* bool, set to true; no argument */
	OPT_TYPE_STRING,     /* const char *, as given */
	OPT_TYPE_UINT,       /* unsigned (WIDTH 4) or uint64_t (WIDTH 8), decimal, in [MIN, MAX] */
	OPT_TYPE_SIZE,       /* uint64_t bytes with binary suffixes (4K, 1G), in [MIN, MAX] */
	OPT_TYPE_DURATION,   /* uint64_t nanoseconds (30s, 5m), in [MIN, MAX] */
	OPT_TYPE_CHOICE,     /* const char *, one of CHOICES (the table's own string) */
	OPT_TYPE_BOOL01,     /* bool, from "0" or "1" */
};

struct opt_value {
	enum opt_type type;
	size_t offset;               /* of the destination in the settings struct */
	size_t width;                /* sizeof the destination, for OPT_TYPE_UINT */
	uint64_t min, max;           /* inclusive; MAX 0 means no upper bound */
	const char *const *choices;  /* OPT_TYPE_CHOICE: NULL-terminated */
	const char *def;             /* default, applied like an argument before parsing (through the
				      * handler for an OPT_TYPE_HANDLER row); shown in --help */
	const char *expect;          /* what an error says is expected; NULL: made from MIN/MAX or CHOICES */
	size_t given_offset;         /* offset + 1 of a bool set when the option is given; 0: none */
};

/* Parses ARG as V says and stores it into SETTINGS (and sets the "given"
 * flag). Returns 0, or -EINVAL when ARG is not what V accepts. */
int optvalue_parse(const struct opt_value *v, const char *arg, void *settings);

/* Stores V's default into SETTINGS (a string default points into the
 * table). Returns 0 (also when V has none), or -EINVAL when it does not parse. */
int optvalue_apply_default(const struct opt_value *v, void *settings);

/* What V accepts, for "expected ...": its EXPECT text, or made from its
 * range or choices ("1 to 32", "read, write or randread"). */
void optvalue_expected(const struct opt_value *v, char *buf, size_t len);

#endif
