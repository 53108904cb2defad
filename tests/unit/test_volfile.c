/* fs/volfile: the tagged test file (O_TMPFILE and named) and the sweep of
 * files left by a killed run, in a temporary directory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fs/volfile.h"
#include "tap.h"

static char dir[] = "/tmp/iotriage-test-volfile.XXXXXX";

static size_t count_entries(void)
{
	size_t n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static int write_file(const char *name, const char *content)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	ssize_t w = write(fd, content, strlen(content));
	close(fd);
	return w == (ssize_t)strlen(content) ? 0 : -1;
}

static bool exists(const char *name)
{
	char path[256];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

static long dead_pid(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return (long)pid;
}

static struct proc_owner owner_of(long pid, unsigned long long start, const char *boot)
{
	struct proc_owner o = { .pid = pid, .start = start };
	snprintf(o.boot, sizeof(o.boot), "%s", boot);
	return o;
}

/* A child that has exited and that nobody reaps (yet): a real zombie. */
static pid_t zombie(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	char state = 0;
	unsigned long long start;
	for (int i = 0; i < 200 && state != 'Z'; i++) {
		usleep(5000);
		proc_stat_read("/proc", (long)pid, &state, &start);
	}
	return pid;
}

static void test_tag(void)
{
	char tag[128], id[32];
	struct proc_owner o = owner_of(42, 777, "3f2a9c1e"), got;
	int n = volfile_format_tag(tag, sizeof(tag), "0123456789abcdef", &o);
	ok(n > 0 && tag[n - 1] == '\n', "tag is one line");
	ok(volfile_parse_tag(tag, (size_t)n, id, sizeof(id), &got) == 0, "tag parses back");
	is_str(id, "0123456789abcdef", "run id");
	is_int(got.pid, 42, "pid");
	is_int(got.start, 777, "start time");
	is_str(got.boot, "3f2a9c1e", "boot id");
	const char *old = "iotriage-volumes run=0123456789abcdef pid=1 start=2\n";
	ok(volfile_parse_tag(old, strlen(old), id, sizeof(id), &got) == 0 && got.boot[0] == '\0',
	   "an older tag without boot= parses, the boot not compared");
	const char *bad[] = {
		"iotriage-volumes run=0123 pid=1 start=2\n",                /* short id */
		"iotriage-volumes run=0123456789abcdef pid=1 start=2",      /* no newline */
		"iotriage-volumes run=0123456789abcdef pid=1 start=2 x\n",  /* trailing text */
		"iotriage-volumes run=0123456789abcdef pid=1 start=2 boot=ab x\n",
		"iotriage-volumes run=0123456789ABCDEF pid=1 start=2\n",    /* not our hex */
		"something else\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok(volfile_parse_tag(bad[i], strlen(bad[i]), id, sizeof(id), &got) == -EINVAL, bad[i]);
}

static void no_draw(const struct progress *p, bool finished)
{
	(void)p;
	(void)finished;
}

static void test_tmpfile(void)
{
	struct volfile f = VOLFILE_INIT;
	ok(volfile_create(dir, "00000000000000aa", false, &f) == 0, "O_TMPFILE test file created");
	ok(!f.named, "unnamed");
	is_int(count_entries(), 0, "nothing visible in the directory");
	struct progress live = { .draw = no_draw };
	progress_start(&live, 4 << 20, true);
	progress_part_end(&live, 1 << 20);
	ok(volfile_fill(&f, 3 << 20, 1, &live) == 0 && f.size == 3 << 20, "filled to 3 MiB");
	ok(live.done == (1 << 20) + (3 << 20), "the progress was told the bytes written, on top of the parts before");
	struct stat st;
	ok(fstat(f.fd, &st) == 0 && st.st_size == 3 << 20, "the file holds 3 MiB");
	char path[64], head[128], id[32];
	struct proc_owner got;
	volfile_reopen_path(&f, path, sizeof(path));
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	ok(fd >= 0, "reopened with O_DIRECT through /proc/self/fd");
	ssize_t n = pread(f.fd, head, sizeof(head), 0);
	ok(n > 0 && volfile_parse_tag(head, (size_t)n, id, sizeof(id), &got) == 0 && got.pid == getpid(),
	   "the file starts with this process's tag");
	if (fd >= 0)
		close(fd);
	ok(volfile_remove(&f) == 0 && f.fd == -1 && f.dirfd == -1, "removed");
	ok(volfile_remove(&f) == 0, "removing twice is harmless");
	is_int(count_entries(), 0, "nothing left");
}

static void test_named(void)
{
	struct volfile f = VOLFILE_INIT;
	ok(volfile_create(dir, "00000000000000bb", true, &f) == 0, "named test file created");
	ok(f.named && exists(VOLFILE_PREFIX "00000000000000bb"), "under the tagged name");
	struct volfile g = VOLFILE_INIT;
	ok(volfile_create(dir, "00000000000000bb", true, &g) == -EEXIST, "never over an existing file");
	ok(exists(VOLFILE_PREFIX "00000000000000bb"), "and the existing file is left alone");
	size_t removed = 9;
	ok(volfile_sweep_stale(dir, "/proc", &removed) == 0 && removed == 0, "a live run's file is not swept");
	ok(exists(VOLFILE_PREFIX "00000000000000bb"), "it is still there");
	ok(volfile_remove(&f) == 0 && !exists(VOLFILE_PREFIX "00000000000000bb"), "removed by name");
	ok(volfile_create("/nonexistent-iotriage", "00000000000000bb", true, &f) == -ENOENT, "no such directory");
	ok(volfile_create(dir, "../../etc/passwd", true, &f) == -EINVAL, "a run id that is not 16 hex digits");
}

static void test_sweep(void)
{
	char tag[128];
	struct proc_owner self, o;
	proc_owner_self(&self);
	long gone = dead_pid();
	o = owner_of(gone, 5, "");
	volfile_format_tag(tag, sizeof(tag), "1111111111111111", &o);
	write_file(VOLFILE_PREFIX "1111111111111111", tag);
	o = owner_of(self.pid, self.start + 1, self.boot);
	volfile_format_tag(tag, sizeof(tag), "2222222222222222", &o);
	write_file(VOLFILE_PREFIX "2222222222222222", tag);      /* our pid, another start: pid reused */
	write_file(VOLFILE_PREFIX "3333333333333333", "user data\n");  /* look-alike, no tag */
	o = owner_of(gone, 5, "");
	volfile_format_tag(tag, sizeof(tag), "4444444444444444", &o);
	write_file(VOLFILE_PREFIX "5555555555555555", tag);      /* the tag names another run */
	write_file(VOLFILE_PREFIX "66", tag);                    /* not 16 hex digits */
	write_file("iotriage-volumes-4444444444444444", tag);    /* no leading dot */
	o = owner_of(gone, 5, "");
	volfile_format_tag(tag, sizeof(tag), "7777777777777777", &o);
	write_file("target", tag);
	pid_t z = zombie();
	char state = 0;
	unsigned long long zstart = 0;
	ok(proc_stat_read("/proc", (long)z, &state, &zstart) == 0 && state == 'Z', "the child is a zombie");
	o = owner_of((long)z, zstart, self.boot);
	volfile_format_tag(tag, sizeof(tag), "8888888888888888", &o);
	write_file(VOLFILE_PREFIX "8888888888888888", tag);      /* its owner is a zombie */
	o = owner_of(self.pid, self.start, "00000000");
	volfile_format_tag(tag, sizeof(tag), "9999999999999999", &o);
	write_file(VOLFILE_PREFIX "9999999999999999", tag);      /* this process, another boot */
	o = self;
	volfile_format_tag(tag, sizeof(tag), "aaaaaaaaaaaaaaaa", &o);
	write_file(VOLFILE_PREFIX "aaaaaaaaaaaaaaaa", tag);      /* this process: live */
	char link[256];
	snprintf(link, sizeof(link), "%s/" VOLFILE_PREFIX "7777777777777777", dir);
	ok(symlink("target", link) == 0, "a symlink with a tagged name");

	size_t removed = 0;
	ok(volfile_sweep_stale(dir, "/proc", &removed) == 0, "sweep runs");
	is_int(removed, 4, "four stale files removed");
	ok(!exists(VOLFILE_PREFIX "8888888888888888"), "a zombie owner does not keep a file alive");
	ok(!exists(VOLFILE_PREFIX "9999999999999999"), "an owner of another boot does not keep a file alive");
	ok(exists(VOLFILE_PREFIX "aaaaaaaaaaaaaaaa"), "the file of a live owner survives");
	waitpid(z, NULL, 0);
	ok(!exists(VOLFILE_PREFIX "1111111111111111"), "the file of a finished run is gone");
	ok(!exists(VOLFILE_PREFIX "2222222222222222"), "a reused pid does not keep a file alive");
	ok(exists(VOLFILE_PREFIX "3333333333333333"), "a look-alike without a tag survives");
	ok(exists(VOLFILE_PREFIX "5555555555555555"), "a tag naming another run survives");
	ok(exists(VOLFILE_PREFIX "66"), "a name without 16 hex digits survives");
	ok(exists("iotriage-volumes-4444444444444444"), "a name without the dot survives");
	ok(exists(VOLFILE_PREFIX "7777777777777777") && exists("target"), "a symlink and its target survive");
	size_t n = 0;
	ok(volfile_sweep_stale("/nonexistent-iotriage", "/proc", &n) == -ENOENT, "a missing directory is an error");
}

int main(void)
{
	if (!mkdtemp(dir)) {
		printf("Bail out! cannot make a temporary directory\n");
		return 1;
	}
	test_tag();
	test_tmpfile();
	test_named();
	test_sweep();
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[256];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	return tap_done();
}
