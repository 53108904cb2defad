/* The support bundle's pure part: where the tail of a log starts. */
#include <string.h>

#include "tap.h"
#include "triage/results/bundle.h"

int main(void)
{
	const char *t = "line one\nline two\nline three\n";
	size_t len = strlen(t);
	is_int((int)bundle_tail_offset(t, len, 100), 0, "text shorter than the limit: all of it");
	is_int((int)bundle_tail_offset(t, len, len), 0, "text exactly the limit: all of it");
	size_t off = bundle_tail_offset(t, len, 15);
	is_str(t + off, "line three\n", "cut to the limit, from the next whole line");
	ok(len - off <= 15, "never more than the limit");
	const char *one = "0123456789abcdef";
	is_int((int)bundle_tail_offset(one, 16, 4), 12, "no line break within the tail: the last bytes");
	const char *end_nl = "aaaaaaaaaa\n";
	is_int((int)bundle_tail_offset(end_nl, 11, 3), 8, "a break only at the very end: the last bytes, not nothing");
	return tap_done();
}
