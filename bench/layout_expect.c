/* bench/layout_expect.c: pool/layout_model's expectation for bench scripts.
 *
 *   bench_layout_expect zfs mirror|raidz1|raidz2|raidz3 R,W R,W ...
 *   bench_layout_expect btrfs single|raid0|raid1|raid10|... R,W R,W ...
 *
 * R and W are each member's raw read and write rates in bytes per second.
 * Prints "READ_BPS WRITE_BPS" of one vdev of those members (stdout), or an
 * error on stderr and exit 2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool/layout_model.h"
#include "pool/zfs.h"

#define MAX_MEMBERS 64

static int parse_rates(int argc, char **argv, struct layout_rates *r)
{
	for (int i = 0; i < argc; i++) {
		char *end;
		r[i].read_bps = strtod(argv[i], &end);
		if (*end != ',')
			return -EINVAL;
		r[i].write_bps = strtod(end + 1, &end);
		if (*end)
			return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct layout_rates rates[MAX_MEMBERS];
	struct pool_member members[MAX_MEMBERS];
	struct layout_expectation e;
	int n = argc - 3, r;
	if (n < 1 || n > MAX_MEMBERS || parse_rates(n, argv + 3, rates) < 0) {
		fprintf(stderr, "usage: bench_layout_expect zfs|btrfs LAYOUT READ,WRITE...\n");
		return 2;
	}
	if (strcmp(argv[1], "zfs") == 0) {
		struct pool_layout l = { .pool = "bench", .members = members, .count = (size_t)n };
		for (int i = 0; i < n; i++) {
			memset(&members[i], 0, sizeof(members[i]));
			snprintf(members[i].name, sizeof(members[i].name), "m%d", i);
			snprintf(members[i].vdev, sizeof(members[i].vdev), "%s-0", argv[2]);
		}
		r = layout_expect_zfs(&l, rates, &e);
	} else {
		r = layout_expect_btrfs(argv[2], rates, (size_t)n, &e);
	}
	if (r < 0) {
		fprintf(stderr, "cannot model '%s %s': %s\n", argv[1], argv[2], strerror(-r));
		return 2;
	}
	printf("%.0f %.0f\n", e.read_bps, e.write_bps);
	return 0;
}
