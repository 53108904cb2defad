/* /proc/net/bonding/BOND (net/bonding.c: bonding_parse, then the judgement). */
#include "fuzz.h"
#include "net/bonding.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct bond_info b;
	if (bonding_parse("bond0", text, &b) == 0) {
		struct bond_check c;
		bonding_check(&b, &c);
		bonding_mode_name(b.mode);
	}
	free(text);
	return 0;
}
