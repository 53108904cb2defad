/* triage/matrix/matrix_image.c: raw and qcow2 images measured with qemu-img bench. */
#include "triage/matrix/matrix_image.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/spawn.h"
#include "bench/layout.h"
#include "bench/target.h"

#define IMAGE_TOOL_TIMEOUT_MS (30 * 60 * 1000)

static int run_qemu_img(const char *const *argv, int timeout_ms, struct spawn_result *res, char *err, size_t len)
{
	struct spawn_opts o = { .timeout_ms = timeout_ms, .stdin_fd = -1, .interruptible = true };
	int r = spawn_run_opts(argv, &o, res);
	if (r == -ENOENT)
		snprintf(err, len, "qemu-img is not installed (Debian: qemu-utils)");
	else if (r < 0)
		snprintf(err, len, "cannot run qemu-img %s: %s", argv[1], strerror(-r));
	else if (res->status != 0) {
		snprintf(err, len, "qemu-img %s failed: %.*s", argv[1], (int)strcspn(res->err.buf, "\n"), res->err.buf);
		r = -EIO;
	}
	return r;
}

int mx_image_create(const char *dir, const char *run_id, const char *format, uint64_t size, char *file,
		    size_t file_len, char *err, size_t err_len)
{
	char raw[4096];
	snprintf(raw, sizeof(raw), "%s/.iotriage-matrix-%s.raw", dir, run_id);
	snprintf(file, file_len, "%s/.iotriage-matrix-%s.%s", dir, run_id, format);
	/* The raw image is the file itself, filled with our incompressible
	 * data; the qcow2 is converted from it (the raw target's file when it
	 * was made first, else a raw file made for the purpose and removed). */
	bool qcow2 = strcmp(format, "qcow2") == 0;
	bool made_raw = false;
	if (!qcow2 || access(raw, F_OK) < 0) {
		int fd = open(raw, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0) {
			snprintf(err, err_len, "cannot create '%s': %s", raw, strerror(errno));
			return -errno;
		}
		int r = pattern_write_file(fd, 0, size, PATTERN_RANDOM, 0x71636f77ULL);
		close(fd);
		if (r < 0) {
			snprintf(err, err_len, "cannot fill '%s': %s", raw, strerror(-r));
			unlink(raw);
			return r;
		}
		made_raw = qcow2;
	}
	if (!qcow2)
		return 0;
	const char *argv[] = { "qemu-img", "convert", "-f", "raw", "-O", "qcow2", raw, file, NULL };
	struct spawn_result res;
	int r = run_qemu_img(argv, IMAGE_TOOL_TIMEOUT_MS, &res, err, err_len);
	spawn_result_release(&res);
	if (r < 0)
		unlink(file);
	if (made_raw)
		unlink(raw);
	return r;
}

int mx_image_parse_seconds(const char *text, double *ret_seconds)
{
	const char *p = strstr(text, "Run completed in ");
	if (!p)
		return -EINVAL;
	char *end;
	double s = strtod(p + strlen("Run completed in "), &end);
	if (end == p + strlen("Run completed in ") || strncmp(end, " seconds", 8) != 0)
		return -EINVAL;
	*ret_seconds = s;
	return 0;
}

int mx_image_bench(const char *file, const char *format, bool write, uint32_t bs, unsigned depth, uint64_t size,
		   int timeout_ms, uint64_t *ret_bytes, double *ret_seconds, bool *ret_direct, char *err,
		   size_t err_len)
{
	char fmt[32], count[32], qd[32], buf[32];
	uint64_t n = size / bs;
	snprintf(fmt, sizeof(fmt), "%s", format);
	snprintf(count, sizeof(count), "%" PRIu64, n);
	snprintf(qd, sizeof(qd), "%u", depth);
	snprintf(buf, sizeof(buf), "%" PRIu32, bs);
	for (int attempt = 0; attempt < 2; attempt++) {
		bool direct = attempt == 0;
		const char *argv[20]; /* 16 arguments at most, and the NULL */
		size_t k = 0;
		argv[k++] = "qemu-img";
		argv[k++] = "bench";
		argv[k++] = "-f";
		argv[k++] = fmt;
		argv[k++] = "-t";
		argv[k++] = direct ? "none" : "writeback"; /* none: O_DIRECT, as a VM with cache=none */
		argv[k++] = "-i";
		argv[k++] = "threads";
		argv[k++] = "-d";
		argv[k++] = qd;
		argv[k++] = "-s";
		argv[k++] = buf;
		argv[k++] = "-c";
		argv[k++] = count;
		if (write)
			argv[k++] = "-w";
		argv[k++] = file;
		argv[k] = NULL;
		struct spawn_result res;
		int r = run_qemu_img(argv, timeout_ms, &res, err, err_len);
		/* A file system that refuses O_DIRECT: once more through the page cache. */
		bool refused = r == -EIO && strstr(res.err.buf, "Invalid argument");
		if (r == 0 && mx_image_parse_seconds(res.out.buf, ret_seconds) < 0) {
			snprintf(err, err_len, "cannot read qemu-img bench's result: %.*s", (int)strcspn(res.out.buf, "\n"),
				 res.out.buf);
			r = -EINVAL;
		}
		spawn_result_release(&res);
		if (r == 0) {
			*ret_bytes = n * bs;
			*ret_direct = direct;
			return 0;
		}
		if (!refused)
			return r;
	}
	return -EIO;
}
