/* test_read_group: the group rule (triage/media/read_group.h, read_groups_judge):
 * each group's median against the other groups' with the statistics of
 * disks (media/outlier), and the sentence of a slow or fast group. */
#include <string.h>

#include "triage/media/read_group.h"
#include "tap.h"

#define MB 1e6

static struct read_group group(const char *name, size_t ok, size_t slow, double median)
{
	struct read_group g = { .disks = ok, .ok = ok, .slow = slow, .median_bw = median };
	snprintf(g.name, sizeof(g.name), "%s", name);
	return g;
}

static void judge(struct read_groups *g, struct read_group *groups, size_t n, enum read_group_by by)
{
	*g = (struct read_groups){ .by = by, .groups = groups, .count = n };
	read_groups_judge(g);
}

int main(void)
{
	struct read_groups g;
	struct read_group four[] = { group("tank/raidz1-0", 4, 0, 200 * MB), group("tank/raidz1-1", 4, 0, 205 * MB),
				     group("tank/raidz1-2", 4, 0, 198 * MB), group("tank/raidz1-3", 4, 0, 70 * MB) };
	judge(&g, four, 4, READ_GROUP_VDEV);
	ok(four[0].finding.flag == OUTLIER_NONE && four[1].finding.flag == OUTLIER_NONE &&
		   four[2].finding.flag == OUTLIER_NONE && !four[0].sentence[0],
	   "groups in line: not named");
	ok(four[3].finding.flag == OUTLIER_SLOW, "a vdev at a third of the others' median: slow");
	is_str(four[3].sentence, "vdev tank/raidz1-3 reads at 35% of the median of 4 vdevs (70 MB/s against 199 MB/s): "
				 "none of its 4 disks is slow against its peers alone: it is slow only together",
	       "slow only together: named, its disks fine alone");

	four[3].slow = 4;
	judge(&g, four, 4, READ_GROUP_VDEV);
	ok(strstr(four[3].sentence, ": its disks are slow one by one (4 of 4)") != NULL, "slow one by one: all its disks");
	four[3].slow = 1;
	judge(&g, four, 4, READ_GROUP_VDEV);
	ok(strstr(four[3].sentence, ": 1 of its 4 disks are slow one by one, the others only together") != NULL,
	   "some of its disks slow alone");

	struct read_group ctl[] = { group("pci 0000:00:0c.0 host0", 6, 0, 25 * MB), group("pci 0000:00:0d.0 host1", 3, 0, 8 * MB),
				    group("pci 0000:00:0e.0 ata", 4, 0, 25 * MB) };
	judge(&g, ctl, 3, READ_GROUP_CONTROLLER);
	ok(ctl[1].finding.flag == OUTLIER_SLOW && strncmp(ctl[1].sentence, "controller pci 0000:00:0d.0 host1 reads at 32%", 46) == 0,
	   "a controller named with its kind and name");

	struct read_group fast[] = { group("a", 2, 0, 100 * MB), group("b", 2, 0, 101 * MB), group("c", 2, 0, 300 * MB) };
	judge(&g, fast, 3, READ_GROUP_ENCLOSURE);
	ok(fast[2].finding.flag == OUTLIER_FAST && strstr(fast[2].sentence, "faster than the other enclosures") != NULL,
	   "a fast group: said so");

	struct read_group two[] = { group("a", 2, 0, 100 * MB), group("b", 2, 0, 10 * MB) };
	judge(&g, two, 2, READ_GROUP_VDEV);
	ok(two[1].finding.flag == OUTLIER_NO_PEERS && !two[1].sentence[0], "two groups: too few to judge a group");

	struct read_group unread[] = { group("a", 2, 0, 100 * MB), group("b", 2, 0, 100 * MB), group("c", 0, 0, 0),
				       group("d", 2, 0, 100 * MB) };
	judge(&g, unread, 4, READ_GROUP_VDEV);
	ok(unread[2].finding.flag == OUTLIER_NO_PEERS && !unread[2].sentence[0], "a group with no disk read: not judged");
	ok(unread[0].finding.flag == OUTLIER_NONE && unread[0].finding.set_size == 3, "the others against the 3 that read");
	return tap_done();
}
