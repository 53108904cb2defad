/* A Ceph pool's OSDs and its cluster's state (pool/ceph_osd.c,
 * pool/ceph_findings.c): ceph pg ls-by-pool, osd metadata, osd tree, osd
 * perf, tell osd.N bench, health detail and status's pgmap, each read from
 * the same input, then judged as doctor and benchpool judge them. */
#include "fuzz.h"
#include "pool/ceph_findings.h"
#include "pool/ceph_osd.h"

static void osds(const char *text)
{
	int ids[4];
	int n = ceph_parse_pool_osds(text, ids, 4);
	if (n > 4)
		abort();
	struct ceph_osd o[3] = { { .id = 0 }, { .id = 1 }, { .id = 2 } };
	if (ceph_parse_osd_metadata(text, o, 3) > 3 || ceph_parse_osd_tree(text, o, 3) > 3)
		abort();
	for (int i = 0; i < 3; i++)
		if (strlen(o[i].device) >= sizeof(o[i].device) || strlen(o[i].host) >= sizeof(o[i].host) ||
		    strlen(o[i].device_class) >= sizeof(o[i].device_class))
			abort();
	int pids[3] = { 0, 1, 2 };
	double commit[3], apply[3];
	if (ceph_parse_osd_perf(text, pids, 3, commit, apply) > 3)
		abort();
	struct ceph_bench b;
	if (ceph_parse_osd_bench(text, &b) == 0 && !(b.bytes_per_s > 0))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	osds(text);
	struct ceph_health h;
	struct ceph_pgmap p;
	struct ceph_pool_settings s;
	bool hr = ceph_parse_health_detail(text, &h) == 0;
	bool pr = ceph_parse_pgmap(text, &p) == 0;
	bool sr = ceph_parse_pool_settings(text, &s) == 0;
	if (hr && h.nchecks > CEPH_CHECKS_MAX)
		abort();
	if (pr && strlen(p.states) >= sizeof(p.states))
		abort();
	struct pool_findings f = { 0 };
	struct ceph_findings_input in = { .pool = "rbd", .health = hr ? &h : NULL, .pgmap = pr ? &p : NULL,
					  .settings = sr ? &s : NULL, .osds_in = 3 };
	ceph_findings_judge(&in, &f);
	for (size_t i = 0; i < f.count; i++)
		ceph_finding_slows(&f.items[i]);
	pool_findings_release(&f);
	free(text);
	return 0;
}
