/* render/bundle.c: the bundle's manifest on the terminal (see bundle.h). */
#include "render/bundle.h"

#include <stdio.h>

#include "output/json.h"

void bundle_manifest_print(const struct bundle_result *r, const char *output, bool json_out)
{
	if (json_out) {
		struct json j;
		json_init(&j);
		bundle_json(r, output, &j);
		fputs(j.out.buf, stdout);
		json_release(&j);
		return;
	}
	printf("Wrote '%s' (%s/):\n", output, r->top);
	for (size_t i = 0; i < r->nparts; i++)
		printf("  %-36s %10llu  %s\n", r->parts[i].name, (unsigned long long)r->parts[i].bytes, r->parts[i].note);
}
