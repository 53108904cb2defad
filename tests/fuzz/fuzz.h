/* tests/fuzz/fuzz.h: what the libFuzzer harnesses share.
 *
 * Each fuzz_NAME.c defines LLVMFuzzerTestOneInput() for one parser of
 * another program's output (or of option values) and calls it the way
 * iotriage does. tests/fuzz/build.sh builds them with clang
 * -fsanitize=fuzzer,address,undefined; tests/cli/test_fuzz.sh runs them.
 */
#ifndef IOTRIAGE_TESTS_FUZZ_H
#define IOTRIAGE_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* DATA as a NUL-terminated string (a NUL inside ends it early, as it would
 * for the C string the parser gets). Free it. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Splits TEXT at its first newline: *RET_REST gets what follows ("" when
 * there is no newline); TEXT keeps the first line. For parsers that take an
 * argument (a pool name, an id) as well as the output. */
static inline void fuzz_first_line(char *text, char **ret_rest)
{
	char *nl = strchr(text, '\n');
	if (nl) {
		*nl = '\0';
		*ret_rest = nl + 1;
	} else {
		*ret_rest = text + strlen(text);
	}
}

#endif
