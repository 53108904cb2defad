/* pool/finding.c: the findings list. */
#include "pool/finding.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"


struct pool_finding *pool_findings_add(struct pool_findings *f, const char *code,
				       const char *severity, const char *subject)
{
	struct pool_finding *items = xreallocarray(f->items, f->count + 1, sizeof(*items));
	f->items = items;
	struct pool_finding *it = &items[f->count++];
	memset(it, 0, sizeof(*it));
	snprintf(it->code, sizeof(it->code), "%s", code);
	snprintf(it->severity, sizeof(it->severity), "%s", severity);
	snprintf(it->subject, sizeof(it->subject), "%s", subject ? subject : "");
	return it;
}

const struct pool_finding *pool_findings_find(const struct pool_findings *f, const char *code)
{
	for (size_t i = 0; i < f->count; i++)
		if (strcmp(f->items[i].code, code) == 0)
			return &f->items[i];
	return NULL;
}

void pool_findings_release(struct pool_findings *f)
{
	if (!f)
		return;
	free(f->items);
	f->items = NULL;
	f->count = 0;
}
