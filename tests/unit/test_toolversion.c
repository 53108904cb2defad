/* The tools a run started and their versions: the version line parser on
 * real programs' output (captured here), the started list, and asking
 * programs installed on this machine. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/spawn.h"
#include "basic/tools_started.h"
#include "basic/toolversion.h"
#include "tap.h"

static void version_lines(void)
{
	char buf[128];
	is_int(tool_version_line("fio-3.33\n", "", buf, sizeof(buf)), 0, "fio: one line");
	is_str(buf, "fio-3.33", "fio's version as it prints it");
	tool_version_line("smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)\n"
			  "Copyright (C) 2002-22, Bruce Allen, Christian Franke, www.smartmontools.org\n",
			  "", buf, sizeof(buf));
	is_str(buf, "smartctl 7.3 2022-02-28 r5338 [x86_64-linux-6.1.0] (local build)", "smartctl: the first line");
	tool_version_line("", "OpenSSH_9.2p1 Debian-2+deb12u10, OpenSSL 3.0.19 27 Jan 2026\n", buf, sizeof(buf));
	is_str(buf, "OpenSSH_9.2p1 Debian-2+deb12u10, OpenSSL 3.0.19 27 Jan 2026", "ssh -V answers on stderr");
	tool_version_line("This system is currently running ZFS pool version 23.\n\nThe following versions are supported:\n",
			  "", buf, sizeof(buf));
	is_str(buf, "ZFS pool version 23", "zfs-fuse's zpool upgrade -v: its pool version");
	tool_version_line("\n  \ndbench version 4.00 - Copyright Andrew Tridgell 1999-2004\n", "", buf, sizeof(buf));
	is_str(buf, "dbench version 4.00 - Copyright Andrew Tridgell 1999-2004", "leading empty lines skipped");
	tool_version_line("zfs-2.1.11-1\r\nzfs-kmod-2.1.11-1\n", "", buf, sizeof(buf));
	is_str(buf, "zfs-2.1.11-1", "OpenZFS's zfs version: the userland line, trimmed");
	char small[8];
	tool_version_line("qemu-img version 7.2.22\n", "", small, sizeof(small));
	is_str(small, "qemu-im", "cut to the buffer");
	is_int(tool_version_line("", "\n \n", buf, sizeof(buf)), -ENOENT, "nothing printed: no version");
	is_int(tool_version_line(NULL, NULL, buf, sizeof(buf)), -ENOENT, "no output at all: no version");
}

static bool listed(char (*names)[TOOL_NAME_MAX], size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* zfs and zpool are asked the same way: a stand-in zfs first on PATH counts
 * how often it is run; the second name gets the first one's answer. */
static void asked_once(void)
{
	char dir[] = "/tmp/iotriage-toolversion.XXXXXX", zfs[64], count[64], path[4096];
	if (!mkdtemp(dir)) {
		ok(false, "a temporary directory");
		return;
	}
	snprintf(zfs, sizeof(zfs), "%s/zfs", dir);
	snprintf(count, sizeof(count), "%s/count", dir);
	FILE *f = fopen(zfs, "w");
	if (f) {
		fprintf(f, "#!/bin/sh\necho run >>%s\necho zfs-9.9.9-stand-in\n", count);
		fclose(f);
	}
	chmod(zfs, 0755);
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;
	snprintf(path, sizeof(path), "%s:%s", dir, old ? old : "/usr/bin:/bin");
	setenv("PATH", path, 1);

	char a[128] = "", b[128] = "";
	is_int(tool_version("zfs", a, sizeof(a)), 0, "zfs answers");
	is_int(tool_version("zpool", b, sizeof(b)), 0, "zpool answers");
	is_str(b, "zfs-9.9.9-stand-in", "zpool: the same answer as zfs");
	int runs = 0;
	f = fopen(count, "r");
	for (int c; f && (c = fgetc(f)) != EOF;)
		runs += c == '\n';
	if (f)
		fclose(f);
	is_int(runs, 1, "the shared way is run once for both names");

	if (saved) {
		setenv("PATH", saved, 1);
		free(saved);
	}
	unlink(zfs);
	unlink(count);
	rmdir(dir);
}

int main(void)
{
	version_lines();

	char names[TOOLS_MAX][TOOL_NAME_MAX];
	is_int(tools_started(names, TOOLS_MAX), 0, "nothing started yet");
	tools_note_started("/usr/sbin/zpool");
	tools_note_started("zpool");
	tools_note_started("fio");
	size_t n = tools_started(names, TOOLS_MAX);
	ok(n == 2 && strcmp(names[0], "zpool") == 0 && strcmp(names[1], "fio") == 0,
	   "a path is kept by its base name, once, in the order first started");
	is_int(tools_started(names, 1), 1, "no more than asked");
	tools_forget();
	is_int(tools_started(names, TOOLS_MAX), 0, "forgotten when a new run starts");

	/* spawn notes what it started, and not what it could not start. */
	const char *const t[] = { "true", NULL };
	const char *const missing[] = { "iotriage-no-such-program", NULL };
	ok(spawn_check(t, 2000, NULL, NULL) == 0, "true runs");
	spawn_check(missing, 2000, NULL, NULL);
	n = tools_started(names, TOOLS_MAX);
	ok(listed(names, n, "true"), "a program spawn started is noted");
	ok(!listed(names, n, "iotriage-no-such-program"), "a program that is not installed is not");

	char buf[128];
	is_int(tool_version("true", buf, sizeof(buf)), -ENOTSUP, "a program whose way is not known is not asked");
	/* dd is coreutils': on every machine this runs on. */
	is_int(tool_version("dd", buf, sizeof(buf)), 0, "dd answers");
	ok(strncmp(buf, "dd (coreutils) ", 15) == 0, "with coreutils' version line");
	asked_once();
	return tap_done();
}
