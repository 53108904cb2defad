/* pool/finding.h: a finding about a pool, with its fix and its evidence.
 *
 * Filled by pool/pool_findings.h (settings and state) and pool/member_load.h
 * (members under the pool's load). CODE is a stable identifier for JSON and
 * tests ("recordsize", "sync-no-log", "dedup", "compression", "capacity",
 * "fragmentation", "ashift", "scan", "vdev-state", "btrfs-sizes",
 * "member-busy", "member-slow", "member-share"); SEVERITY "finding" costs
 * performance, "note" may (compression: it depends on the CPU). */
#ifndef IOTRIAGE_POOL_FINDING_H
#define IOTRIAGE_POOL_FINDING_H

#include <stddef.h>

struct pool_finding {
	char code[32];
	char severity[16];  /* "finding" or "note" */
	char subject[256];  /* the pool, dataset or member it is about */
	char text[512];     /* one sentence, lowercase, no full stop */
	char fix[512];
	char evidence[512]; /* the values it was judged on */
};

struct pool_findings {
	struct pool_finding *items;
	size_t count;
};

/* A new, zeroed finding at the end of F with CODE, SEVERITY and SUBJECT set
 * (aborts on allocation failure, like strbuf). */
struct pool_finding *pool_findings_add(struct pool_findings *f, const char *code,
				       const char *severity, const char *subject);
/* The first finding with CODE, or NULL. */
const struct pool_finding *pool_findings_find(const struct pool_findings *f, const char *code);
void pool_findings_release(struct pool_findings *f);

#endif
