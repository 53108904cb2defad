/* triage/doctor/lab.c: doctor --lab's throwaway system with a known fault. Five
 * loop devices (unnamed backing files, cleared by the kernel when closed),
 * a pool on them (a zfs-fuse raidz where ZFS is available, else a btrfs
 * raid1), and optionally one member slowed for this process by a cgroup
 * blkio rule. Pools carry the run's owner tag so that one left by a killed
 * run is removed by the next, and nothing else is. */
#include "triage/doctor/lab.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "basic/log.h"
#include "basic/parse.h"
#include "basic/spawn.h"
#include "fs/mounts.h"
#include "pool/scratch.h"
#include "pool/zpool.h"

#define LAB_BACKING_DIR "/var/tmp"
#define TOOL_TIMEOUT_MS 120000

/* Runs a tool; a failure is logged unless the caller only asks (OUT given). */
static int run_quiet(const char *const *argv, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	int r = spawn_check(argv, TOOL_TIMEOUT_MS, out, &err);
	if (r == -EIO && !out)
		log_msg(LOG_ERR, "%s", err.buf);
	strbuf_release(&err);
	return r;
}

static bool zfs_available(void)
{
	const char *argv[] = { "zpool", "list", "-H", NULL };
	return run_quiet(argv, NULL) == 0;
}

/* For the command tests: IOTRIAGE_LAB_MEMBER_RATE=BYTES_PER_S caps the
 * members that are not slowed as well (in the same blkio group), so that
 * their steady rate, not a busy machine's noise, decides which member reads
 * out of line. Unset, nothing changes. On failure the lab is undone. */
static int cap_members(const char *run_id, struct lab *lab)
{
	const char *env = getenv("IOTRIAGE_LAB_MEMBER_RATE");
	uint64_t rate;
	if (!env || !*env)
		return 0;
	int r = parse_uint(env, 1, UINT64_MAX, &rate);
	for (size_t i = 0; i < lab->nloops && r == 0; i++) {
		const struct loopdev *l = &lab->loops[i];
		if ((int)i != lab->slowed)
			r = lab->throttle.dir[0] ? throttle_limit(&lab->throttle, l->major, l->minor, rate)
						 : throttle_create(run_id, l->major, l->minor, rate, &lab->throttle);
	}
	if (r < 0) {
		log_msg(LOG_ERR, "LAB: cannot cap the members at IOTRIAGE_LAB_MEMBER_RATE=%s: %s", env, strerror(-r));
		lab_destroy(lab);
		return r;
	}
	log_msg(LOG_INFO, "LAB: the members not slowed are capped at %" PRIu64 " bytes/s (IOTRIAGE_LAB_MEMBER_RATE)",
		rate);
	return 0;
}

int lab_build(const char *run_id, bool fault, uint64_t member_size, uint64_t slow_rate, struct lab *lab)
{
	*lab = (struct lab){ .slowed = -1, .slow_rate = slow_rate };
	for (size_t i = 0; i < 5; i++)
		lab->loops[i] = (struct loopdev)LOOPDEV_INIT;
	int r = 0;
	for (; lab->nloops < 5 && r == 0; lab->nloops++)
		r = loopdev_create(LAB_BACKING_DIR, member_size, 512, &lab->loops[lab->nloops]);
	if (r < 0) {
		log_msg(LOG_ERR, "LAB: cannot create loop devices: %s", strerror(-r));
		return r;
	}
	char tag[200];
	scratch_owner_tag(run_id, tag, sizeof(tag));
	snprintf(lab->pool, sizeof(lab->pool), "iotriage-lab-%s", run_id);
	lab->zfs = zfs_available();
	if (lab->zfs) {
		char owner[256];
		snprintf(owner, sizeof(owner), "%s=%s", SCRATCH_OWNER_PROPERTY, tag);
		const char *argv[] = { "zpool", "create", "-f", "-O", owner, lab->pool, "raidz",
				       lab->loops[0].path, lab->loops[1].path, lab->loops[2].path,
				       lab->loops[3].path, lab->loops[4].path, NULL };
		r = run_quiet(argv, NULL);
	} else {
		const char *argv[] = { "mkfs.btrfs", "-q", "-f", "-L", lab->pool, "-d", "raid1", "-m", "raid1",
				       lab->loops[0].path, lab->loops[1].path, lab->loops[2].path,
				       lab->loops[3].path, lab->loops[4].path, NULL };
		r = run_quiet(argv, NULL);
		if (r == 0) {
			snprintf(lab->mnt, sizeof(lab->mnt), "/run/%s", lab->pool);
			if (mkdir(lab->mnt, 0700) < 0 || mount(lab->loops[0].path, lab->mnt, "btrfs", 0, NULL) < 0) {
				r = -errno;
				rmdir(lab->mnt);
				lab->mnt[0] = '\0';
			} else {
				char path[PATH_MAX + 32], line[256];
				snprintf(path, sizeof(path), "%s/%s", lab->mnt, SCRATCH_OWNER_FILE);
				int n = snprintf(line, sizeof(line), "%s\n", tag);
				write_file_atomic(path, line, (size_t)n, 0644);
			}
		}
	}
	if (r < 0) {
		log_msg(LOG_ERR, "LAB: cannot build the %s pool on the loop devices", lab->zfs ? "ZFS" : "btrfs");
		lab_destroy(lab);
		return r;
	}
	lab->pool_made = true;
	log_msg(LOG_INFO, "LAB: %s pool %s on %s %s %s %s %s", lab->zfs ? "zfs-fuse raidz" : "btrfs raid1", lab->pool,
		lab->loops[0].kname, lab->loops[1].kname, lab->loops[2].kname, lab->loops[3].kname,
		lab->loops[4].kname);
	if (!fault)
		return cap_members(run_id, lab);
	if ((r = throttle_available()) < 0) {
		log_msg(LOG_ERR, "LAB: cgroup v1 blkio throttling is not available: %s", strerror(-r));
		lab_destroy(lab);
		return r;
	}
	lab->slowed = 2; /* the middle member: not first or last in any listing */
	const struct loopdev *slow = &lab->loops[lab->slowed];
	r = throttle_create(run_id, slow->major, slow->minor, slow_rate, &lab->throttle);
	if (r < 0) {
		log_msg(LOG_ERR, "LAB: cannot slow %s: %s", slow->path, strerror(-r));
		lab_destroy(lab);
		return r;
	}
	log_msg(LOG_INFO, "LAB: the fault: %s is slowed to %" PRIu64 " bytes/s for this process's reads (cgroup blkio)",
		slow->path, slow_rate);
	return cap_members(run_id, lab);
}

void lab_destroy(struct lab *lab)
{
	throttle_destroy(&lab->throttle);
	if (lab->pool_made && lab->zfs && zpool_destroy_retrying(lab->pool) < 0)
		log_msg(LOG_ERR, "LAB: cannot destroy pool %s", lab->pool);
	if (lab->mnt[0]) {
		if (umount2(lab->mnt, 0) < 0)
			umount2(lab->mnt, MNT_DETACH);
		rmdir(lab->mnt);
		lab->mnt[0] = '\0';
	}
	lab->pool_made = false;
	for (size_t i = 0; i < lab->nloops; i++)
		loopdev_destroy(&lab->loops[i]);
	lab->nloops = 0;
}

static bool is_ours(const char *name)
{
	return strncmp(name, "iotriage-lab-", 13) == 0 || strncmp(name, "iotriage-twin-", 14) == 0;
}

/* ZFS pools named like ours whose root dataset carries a dead owner's tag. */
static int stale_pools(void)
{
	const char *argv[] = { "zpool", "list", "-H", "-o", "name", NULL };
	struct strbuf out = STRBUF_INIT;
	int removed = 0;
	if (run_quiet(argv, &out) == 0) {
		for (char *line = strtok(out.buf, "\n"); line; line = strtok(NULL, "\n")) {
			if (!is_ours(line))
				continue;
			char owner[256] = "";
			if (scratch_zfs_get(line, SCRATCH_OWNER_PROPERTY, owner, sizeof(owner)) < 0 ||
			    strcmp(owner, "-") == 0 || !scratch_owner_gone(owner))
				continue;
			if (zpool_destroy_retrying(line) == 0) {
				log_msg(LOG_INFO, "LAB: removed pool %s left by an interrupted run (owner %s is gone)", line, owner);
				removed++;
			}
		}
	}
	strbuf_release(&out);
	return removed;
}

/* btrfs labs and twins mounted under /run whose owner file names a dead owner. */
static int stale_mounts(void)
{
	struct mount_table mounts = { 0 };
	int removed = 0;
	if (mounts_load(&mounts) < 0)
		return 0;
	for (size_t i = 0; i < mounts.count; i++) {
		const char *mnt = mounts.entries[i].mountpoint;
		if (strncmp(mnt, "/run/", 5) != 0 || !is_ours(mnt + 5))
			continue;
		char path[PATH_MAX + 32], tag[256];
		snprintf(path, sizeof(path), "%s/%s", mnt, SCRATCH_OWNER_FILE);
		if (read_small_file(path, tag, sizeof(tag)) < 0 || !scratch_owner_gone(tag))
			continue;
		if (umount2(mnt, 0) == 0 || umount2(mnt, MNT_DETACH) == 0) {
			rmdir(mnt);
			log_msg(LOG_INFO, "LAB: unmounted %s left by an interrupted run", mnt);
			removed++;
		}
	}
	mount_table_release(&mounts);
	return removed;
}

int lab_remove_stale(void)
{
	return stale_pools() + stale_mounts() + throttle_remove_stale();
}
