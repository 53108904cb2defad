#include "lab/throttle.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/fsutil.h"
#include "basic/procowner.h"

int throttle_available(void)
{
	if (access(THROTTLE_ROOT "/blkio.throttle.read_bps_device", W_OK) < 0)
		return -errno;
	return 0;
}

/* The blkio group this process is in, from /proc/self/cgroup ("7:blkio:/x"). */
static int current_group(char *buf, size_t len)
{
	_cleanup_fclose_ FILE *f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return -errno;
	char line[1024];
	while (fgets(line, sizeof(line), f)) {
		char *controllers = strchr(line, ':');
		char *path = controllers ? strchr(controllers + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = '\0';
		controllers++;
		path[strcspn(path, "\n")] = '\0';
		if (strcmp(controllers, "blkio") == 0) {
			snprintf(buf, len, "%s%s", THROTTLE_ROOT, strcmp(path, "/") ? path : "");
			return 0;
		}
	}
	return -ENOENT;
}

static int move_self(const char *group_dir)
{
	char procs[700], pid[32];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", group_dir);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return write_small_file(procs, pid);
}

int throttle_create(const char *tag, unsigned major, unsigned minor, uint64_t read_bps,
		    struct throttle *ret)
{
	struct throttle t = { .dir = "" };
	int r = current_group(t.previous, sizeof(t.previous));
	if (r < 0)
		return r;
	struct proc_owner self;
	r = proc_owner_self(&self);
	if (r < 0)
		return r;
	/* The owner in the name: a group made a moment ago by a live run, not
	 * yet joined, is empty too, and must not be taken for a leftover. */
	snprintf(t.dir, sizeof(t.dir), "%s/iotriage-%s" THROTTLE_OWNER_MARK "%s.%ld.%llu", THROTTLE_ROOT, tag,
		 self.boot, self.pid, self.start);
	if (mkdir(t.dir, 0755) < 0)
		return -errno;

	r = throttle_limit(&t, major, minor, read_bps);
	if (r == 0)
		r = move_self(t.dir);
	if (r < 0) {
		rmdir(t.dir);
		return r;
	}
	*ret = t;
	return 0;
}

int throttle_limit(struct throttle *t, unsigned major, unsigned minor, uint64_t read_bps)
{
	char knob[700], rule[64];
	snprintf(knob, sizeof(knob), "%s/blkio.throttle.read_bps_device", t->dir);
	snprintf(rule, sizeof(rule), "%u:%u %llu", major, minor, (unsigned long long)read_bps);
	return write_small_file(knob, rule);
}

void throttle_destroy(struct throttle *t)
{
	if (!t->dir[0])
		return;
	move_self(t->previous);
	rmdir(t->dir);
	t->dir[0] = '\0';
}

static bool group_is_empty(const char *dir)
{
	char procs[700], buf[16];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	return read_small_file(procs, buf, sizeof(buf)) == 0;
}

/* A dead owner's group may still hold its readers for a moment: they were
 * killed with it (PR_SET_PDEATHSIG) but finish the I/O in flight first. */
static bool empty_soon(const char *dir)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	for (int i = 0; i < 30; i++) {
		if (group_is_empty(dir))
			return true;
		nanosleep(&tick, NULL);
	}
	return false;
}

bool throttle_group_stale(const char *name, const char *proc_root)
{
	if (strncmp(name, "iotriage-", 9) != 0)
		return false;
	const char *mark = strstr(name, THROTTLE_OWNER_MARK);
	if (!mark) {
		/* An older version's group: "iotriage-" and a 16-hex-digit run id. */
		const char *id = name + 9;
		return strlen(id) == 16 && strspn(id, "0123456789abcdef") == 16;
	}
	struct proc_owner o;
	int k = 0;
	if (sscanf(mark + strlen(THROTTLE_OWNER_MARK), "%39[0-9a-zA-Z].%ld.%llu%n", o.boot, &o.pid, &o.start, &k) !=
		    3 ||
	    mark[strlen(THROTTLE_OWNER_MARK) + (size_t)k] != '\0' || o.pid <= 0)
		return false;
	return proc_owner_gone(proc_root, &o);
}

int throttle_remove_stale(void)
{
	DIR *d = opendir(THROTTLE_ROOT);
	if (!d)
		return -errno;
	int removed = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || !throttle_group_stale(de->d_name, "/proc"))
			continue;
		char dir[600];
		snprintf(dir, sizeof(dir), "%s/%s", THROTTLE_ROOT, de->d_name);
		if (empty_soon(dir) && rmdir(dir) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}
