/* bench/fiojob.h: a fio job file read into iotriage's terms (pure: text in,
 * jobs out; no I/O).
 *
 * The file is fio's INI form: a [global] section whose options every later
 * job starts from, then one section per job. Lines are "option=value" or a
 * bare "option" (a flag: time_based, direct); '#' and ';' start comments.
 * Only the options iotriage runs the same way are accepted (see
 * fiojob_supported); any other is refused by name with its section and line,
 * so a job that would measure something else is never run quietly. Defaults
 * are fio's: rw=read, bs=4k, iodepth=1, numjobs=1, direct=0,
 * ioengine=psync, randrepeat=1, the random map on (norandommap=0). Sections run one after another (fio runs
 * them together unless "stonewall"; iotriage always separates them).
 */
#ifndef IOTRIAGE_BENCH_FIOJOB_H
#define IOTRIAGE_BENCH_FIOJOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FIOJOB_MAX_JOBS 32
#define FIOJOB_MAX_TEXT (1U << 20)

struct fiojob {
	char name[64];
	char rw[16];             /* read write randread randwrite rw readwrite randrw */
	unsigned rwmixread;      /* 0..100 */
	uint32_t bs;
	unsigned iodepth, numjobs;
	uint64_t size;           /* 0 = the whole target */
	uint64_t io_size;        /* 0 = size */
	uint64_t runtime_ns, ramp_ns;
	bool time_based, direct, randrepeat;
	bool norandommap;        /* fio's default (0): every block once per pass; 1: uniform draws */
	uint64_t rate_bps, rate_iops;
	char ioengine[16];       /* iotriage's engine name: psync libaio io_uring null */
	char filename[256];      /* "" when the file does not name one */
};

struct fiojob_file {
	size_t njobs;
	struct fiojob jobs[FIOJOB_MAX_JOBS];
};

/* Parses TEXT (LEN bytes; a NUL inside ends it). Returns 0, or -EINVAL with
 * a message in ERR naming the option, the section and the line. A file
 * without any job section is refused too. */
int fiojob_parse(const char *text, size_t len, struct fiojob_file *out, char *err, size_t errlen);

/* The accepted options, NULL-terminated (for --help and the docs). */
extern const char *const fiojob_supported[];

#endif
