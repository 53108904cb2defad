#include "basic/toolversion.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "basic/spawn.h"

/* The first non-empty line of TEXT into BUF, trimmed; false when none. */
static bool first_line(const char *text, char *buf, size_t len)
{
	while (text && *text) {
		size_t n = strcspn(text, "\n");
		size_t start = 0;
		while (start < n && (text[start] == ' ' || text[start] == '\t' || text[start] == '\r'))
			start++;
		size_t end = n;
		while (end > start && (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r'))
			end--;
		if (end > start) {
			snprintf(buf, len, "%.*s", (int)(end - start), text + start);
			return true;
		}
		text += n + (text[n] == '\n');
	}
	return false;
}

int tool_version_line(const char *out, const char *err, char *buf, size_t len)
{
	char line[256];
	if (!first_line(out, line, sizeof(line)) && !first_line(err, line, sizeof(line)))
		return -ENOENT;
	static const char preamble[] = "This system is currently running ";
	const char *v = strncmp(line, preamble, sizeof(preamble) - 1) == 0 ? line + sizeof(preamble) - 1 : line;
	size_t n = strlen(v);
	if (n && v[n - 1] == '.' && v != line) /* zpool's sentence ends with a full stop */
		n--;
	snprintf(buf, len, "%.*s", (int)n, v);
	return 0;
}

/* How each program tells its version: up to two ways, the second tried
 * when the first fails (zfs-fuse's zfs has no "version": its pool version
 * is what zpool upgrade -v says). Programs not listed are not asked. */
struct version_query {
	const char *name;
	const char *const ways[2][4];
};

static const struct version_query queries[] = {
	{ "fio", { { "fio", "--version", NULL } } },
	{ "smartctl", { { "smartctl", "--version", NULL } } },
	{ "zfs", { { "zfs", "version", NULL }, { "zpool", "upgrade", "-v", NULL } } },
	{ "zpool", { { "zfs", "version", NULL }, { "zpool", "upgrade", "-v", NULL } } },
	{ "btrfs", { { "btrfs", "--version", NULL } } },
	{ "dd", { { "dd", "--version", NULL } } },
	{ "iperf3", { { "iperf3", "--version", NULL } } },
	{ "qemu-img", { { "qemu-img", "--version", NULL } } },
	{ "dbench", { { "dbench", "--version", NULL } } },
	{ "elbencho", { { "elbencho", "--version", NULL } } },
	{ "iozone", { { "iozone", "-v", NULL } } },
	{ "ssh", { { "ssh", "-V", NULL } } },
	{ "ip", { { "ip", "-V", NULL } } },
	{ "tc", { { "tc", "-V", NULL } } },
	{ "ethtool", { { "ethtool", "--version", NULL } } },
	{ "iscsiadm", { { "iscsiadm", "--version", NULL } } },
	{ "losetup", { { "losetup", "--version", NULL } } },
	{ "mkfs.btrfs", { { "mkfs.btrfs", "--version", NULL } } },
	{ "modprobe", { { "modprobe", "--version", NULL } } },
};

/* Answers already given in this process, by the query's first command
 * line: zfs and zpool ask the same one, and interactive mode runs several
 * commands. Only the main thread asks (at each run's end). */
struct version_memo {
	const char *const *way;
	int status;
	char version[128];
};
static struct version_memo memo[8];
static size_t memo_count;

static bool same_way(const char *const *a, const char *const *b)
{
	for (size_t i = 0; i < 4; i++) {
		if (!a[i] || !b[i])
			return !a[i] && !b[i];
		if (strcmp(a[i], b[i]) != 0)
			return false;
	}
	return true;
}

static int ask_version(const struct version_query *q, char *buf, size_t len)
{
	int r = -ENOENT;
	for (size_t w = 0; w < 2 && q->ways[w][0]; w++) {
		struct spawn_result res;
		r = spawn_run(q->ways[w], 2000, &res);
		/* A version request answers with status 0 (dbench's and ssh's on stderr). */
		if (r == 0 && res.status != 0 && strcmp(q->name, "dbench") != 0)
			r = -EIO;
		if (r == 0)
			r = tool_version_line(res.out.buf, res.err.buf, buf, len);
		spawn_result_release(&res);
		if (r == 0)
			return 0;
	}
	return r;
}

int tool_version(const char *name, char *buf, size_t len)
{
	const struct version_query *q = NULL;
	for (size_t i = 0; i < sizeof(queries) / sizeof(queries[0]) && !q; i++)
		if (strcmp(queries[i].name, name) == 0)
			q = &queries[i];
	if (!q)
		return -ENOTSUP;
	for (size_t i = 0; i < memo_count; i++)
		if (same_way(memo[i].way, q->ways[0])) {
			snprintf(buf, len, "%s", memo[i].version);
			return memo[i].status;
		}
	int r = ask_version(q, buf, len);
	if (memo_count < sizeof(memo) / sizeof(memo[0])) {
		struct version_memo *m = &memo[memo_count++];
		m->way = q->ways[0];
		m->status = r;
		snprintf(m->version, sizeof(m->version), "%s", r == 0 ? buf : "");
	}
	return r;
}
