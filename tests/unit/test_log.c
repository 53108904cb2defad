/* test_log.c: unit tests for basic/log.c (line format, log file, stderr threshold).
 *
 * Runs with TZ=UTC so the ctime stamps are fixed. stderr is captured by
 * pointing fd 2 at a temporary file around each log_msg() call.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "basic/log.h"
#include "tap.h"

static char tmp_dir[PATH_MAX];

static void tmp_path(char *buf, size_t size, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", tmp_dir, name);

	if (n < 0 || (size_t)n >= size) {
		fprintf(stderr, "path too long\n");
		exit(2);
	}
}

/* Reads a whole file into a malloc'ed NUL-terminated string, NULL on error. */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	for (;;) {
		char *nb = realloc(buf, len + 4097);
		if (!nb) {
			free(buf);
			fclose(f);
			return NULL;
		}
		buf = nb;
		size_t n = fread(buf + len, 1, 4096, f);
		len += n;
		if (n == 0)
			break;
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		if (*s == '\n')
			n++;
	return n;
}

/* Returns a pointer to the start of line IDX (0-based) of S, or NULL. */
static const char *nth_line(const char *s, int idx)
{
	while (idx-- > 0) {
		s = strchr(s, '\n');
		if (!s)
			return NULL;
		s++;
	}
	return s;
}

/* True when line IDX of S is a well-formed log line at LEVEL with message MSG
 * (the time stamp is the current time, so only its shape is checked). */
static int line_matches(const char *s, int idx, const char *level, const char *msg)
{
	const char *line = nth_line(s, idx);
	char want_tail[512];

	if (!line || !*line)
		return 0;
	const char *end = strchr(line, '\n');
	if (!end)
		return 0;
	size_t len = (size_t)(end - line);
	/* "{Www Mmm dd hh:mm:ss yyyy" is 25 characters. */
	if (len < 25 || line[0] != '{' || line[4] != ' ' || line[8] != ' ' || line[11] != ' ' ||
	    line[14] != ':' || line[17] != ':' || line[20] != ' ')
		return 0;
	int n = snprintf(want_tail, sizeof(want_tail), ", %s, iotriage} %s", level, msg);
	if (n < 0 || (size_t)n >= sizeof(want_tail) || len != 25 + (size_t)n)
		return 0;
	return memcmp(line + 25, want_tail, (size_t)n) == 0;
}

/* stderr capture: fd 2 goes to a temporary file between begin and end. */
static int saved_stderr = -1;
static char capture_file[PATH_MAX];

static void capture_begin(void)
{
	tmp_path(capture_file, sizeof(capture_file), "stderr.txt");
	fflush(stderr);
	saved_stderr = dup(STDERR_FILENO);
	int fd = open(capture_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (saved_stderr < 0 || fd < 0 || dup2(fd, STDERR_FILENO) < 0) {
		perror("capture_begin");
		exit(2);
	}
	close(fd);
}

/* Restores fd 2; returns what was written meanwhile (free it). */
static char *capture_end(void)
{
	fflush(stderr);
	if (dup2(saved_stderr, STDERR_FILENO) < 0) {
		perror("capture_end");
		exit(2);
	}
	close(saved_stderr);
	saved_stderr = -1;
	char *s = read_all(capture_file);
	unlink(capture_file);
	return s;
}

static void test_format(void)
{
	char buf[256];

	/* 2026-09-03 05:19:08 UTC: a one-digit day, padded with a space as ctime does. */
	log_format_line(buf, sizeof(buf), 1788412748L, LOG_INFO,
			"READ-DISK (/dev/sda): completed: x");
	is_str(buf, "{Thu Sep  3 05:19:08 2026, INFO, iotriage} READ-DISK (/dev/sda): completed: x",
	       "format: INFO line with a space-padded day");

	log_format_line(buf, sizeof(buf), 1789276748L, LOG_WARN, "slow device");
	is_str(buf, "{Sun Sep 13 05:19:08 2026, WARN, iotriage} slow device",
	       "format: WARN line with a two-digit day");

	log_format_line(buf, sizeof(buf), 1772406245L, LOG_ERR, "open failed: No such device");
	is_str(buf, "{Sun Mar  1 23:04:05 2026, ERR, iotriage} open failed: No such device",
	       "format: ERR line");

	log_format_line(buf, sizeof(buf), 0L, LOG_INFO, "");
	is_str(buf, "{Thu Jan  1 00:00:00 1970, INFO, iotriage} ", "format: epoch, empty message");

	/* The message is copied verbatim, not used as a format. */
	log_format_line(buf, sizeof(buf), 0L, LOG_INFO, "100% %s %n");
	is_str(buf, "{Thu Jan  1 00:00:00 1970, INFO, iotriage} 100% %s %n",
	       "format: message is not interpreted as a format");

	/* Truncates to the buffer and stays NUL-terminated. */
	char small[12];
	memset(small, 'X', sizeof(small));
	log_format_line(small, sizeof(small), 1788412748L, LOG_INFO, "x");
	is_str(small, "{Thu Sep  3", "format: truncated to a small buffer");
}

static void test_file(void)
{
	char path[PATH_MAX], dir[PATH_MAX], other[PATH_MAX];
	struct stat st;

	tmp_path(dir, sizeof(dir), "logs/nested");
	tmp_path(path, sizeof(path), "logs/nested/iotriage.log");
	ok(stat(dir, &st) < 0 && errno == ENOENT, "log dir does not exist before log_open");

	is_int(log_open(path), 0, "log_open creates missing directories");
	ok(stat(dir, &st) == 0 && S_ISDIR(st.st_mode), "log directory was created");
	ok(stat(path, &st) == 0 && S_ISREG(st.st_mode), "log file was created");

	capture_begin();
	log_msg(LOG_INFO, "first %d", 1);
	log_msg(LOG_WARN, "second %s", "two");
	log_close();
	is_int(log_open(path), 0, "log_open reopens the existing file");
	log_msg(LOG_ERR, "third");
	log_close();
	/* Once closed, lines go nowhere near the file. */
	log_msg(LOG_INFO, "after close");
	free(capture_end());

	char *s = read_all(path);
	ok(s != NULL, "log file readable");
	if (s) {
		is_int(count_lines(s), 3, "log file has exactly 3 lines");
		ok(line_matches(s, 0, "INFO", "first 1"), "line 1: INFO first 1");
		ok(line_matches(s, 1, "WARN", "second two"), "line 2: WARN second two");
		ok(line_matches(s, 2, "ERR", "third"), "line 3: ERR third (appended after reopen)");
		size_t len = strlen(s);
		ok(len > 0 && s[len - 1] == '\n', "log file ends with a newline");
		ok(strstr(s, "after close") == NULL, "nothing written after log_close");
		if (count_lines(s) != 3)
			printf("#   file:\n%s", s);
	}
	free(s);

	/* A long message is cut, but still written as one whole line. */
	char big[3000];
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tmp_path(other, sizeof(other), "long.log");
	is_int(log_open(other), 0, "log_open second file");
	capture_begin();
	log_msg(LOG_INFO, "%s", big);
	free(capture_end());
	log_close();
	s = read_all(other);
	ok(s && count_lines(s) == 1 && s[strlen(s) - 1] == '\n' && strstr(s, "} aaaa"),
	   "an over-long message is written as a single terminated line");
	free(s);

	/* Failure: the parent is a regular file. */
	char bad[PATH_MAX];
	tmp_path(bad, sizeof(bad), "long.log/sub/x.log");
	int r = log_open(bad);
	is_int(r, -ENOTDIR, "log_open under a regular file fails with -ENOTDIR");
	if (r >= 0)
		log_close();
}

static void test_stderr(void)
{
	char path[PATH_MAX];

	tmp_path(path, sizeof(path), "threshold.log");
	is_int(log_open(path), 0, "log_open threshold.log");

	/* Default threshold: INFO reaches stderr. */
	capture_begin();
	log_msg(LOG_INFO, "default info");
	char *err = capture_end();
	ok(err && line_matches(err, 0, "INFO", "default info") && count_lines(err) == 1,
	   "default threshold: INFO line on stderr");
	free(err);

	log_set_stderr_threshold(LOG_WARN);
	capture_begin();
	log_msg(LOG_INFO, "quiet info");
	log_msg(LOG_WARN, "loud warn");
	log_msg(LOG_ERR, "loud err");
	err = capture_end();
	ok(err != NULL, "captured stderr");
	if (err) {
		ok(strstr(err, "quiet info") == NULL, "threshold WARN: INFO absent from stderr");
		ok(strstr(err, "loud warn") != NULL, "threshold WARN: WARN present on stderr");
		ok(strstr(err, "loud err") != NULL, "threshold WARN: ERR present on stderr");
		is_int(count_lines(err), 2, "threshold WARN: exactly two lines on stderr");
		ok(line_matches(err, 0, "WARN", "loud warn"), "stderr line is a whole log line");
	}
	free(err);

	log_set_stderr_threshold(LOG_ERR);
	capture_begin();
	log_msg(LOG_WARN, "quiet warn");
	log_msg(LOG_ERR, "only err");
	err = capture_end();
	ok(err && strstr(err, "quiet warn") == NULL && strstr(err, "only err") != NULL,
	   "threshold ERR: WARN absent, ERR present");
	free(err);

	log_set_stderr_threshold(LOG_INFO);
	log_close();

	/* The file gets every line whatever the stderr threshold. */
	char *s = read_all(path);
	ok(s != NULL, "threshold.log readable");
	if (s) {
		is_int(count_lines(s), 6, "log file has all 6 lines");
		ok(strstr(s, "quiet info") && strstr(s, "quiet warn"),
		   "lines held back from stderr are still in the file");
	}
	free(s);
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path) < 0 ? -1 : 0;
}

int main(void)
{
	if (setenv("TZ", "UTC", 1) < 0) {
		perror("setenv");
		return 2;
	}
	tzset();

	const char *base = getenv("TMPDIR");
	snprintf(tmp_dir, sizeof(tmp_dir), "%s/test_log.XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tmp_dir)) {
		perror("mkdtemp");
		return 2;
	}

	test_format();
	test_file();
	test_stderr();

	log_close();
	int cleaned = nftw(tmp_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0;
	struct stat st;
	ok(cleaned && stat(tmp_dir, &st) < 0, "temporary directory removed");
	return tap_done();
}
