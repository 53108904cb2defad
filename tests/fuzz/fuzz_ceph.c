/* The ceph and rbd tools' --format json (pool/ceph.c): pool and image
 * lists, a pool's settings, ceph status, ceph fs ls; the name rule and a
 * ceph.conf's mon host line. */
#include "fuzz.h"
#include "pool/ceph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	char names[4][CEPH_NAME_MAX], pool[8];
	int n = ceph_parse_names(text, names, 4);
	if (n > 4)
		abort();
	for (int i = 0; i < n; i++)
		if (strlen(names[i]) >= CEPH_NAME_MAX)
			abort();
	struct ceph_pool_settings settings;
	if (ceph_parse_pool_settings(text, &settings) == 0 && strlen(settings.pool) >= sizeof(settings.pool))
		abort();
	struct ceph_state state = { .osds = -1 };
	if (ceph_parse_status(text, &state) == 0 && strlen(state.health) >= sizeof(state.health))
		abort();
	if (ceph_parse_fs_data_pool(text, pool, sizeof(pool)) == 0 && strlen(pool) >= sizeof(pool))
		abort();
	ceph_valid_name(text);
	struct ceph_mon_addr mons[2];
	int m = ceph_parse_mon_hosts(text, mons, 2);
	for (int i = 0; i < m && i < 2; i++)
		if (strlen(mons[i].ip) >= sizeof(mons[i].ip) || mons[i].port == 0 || mons[i].port > 65535)
			abort();
	free(text);
	return 0;
}
