/* bench/fiojob.h: a fio job file read into iotriage's terms (pure: text in,
 * jobs out; the environment, fio's keywords and included files come through
 * struct fiojob_env, bench/fiojob_value.h).
 *
 * fio's rules: a [global] section (a section whose name starts "global")
 * whose options every later job starts from, then one section per job;
 * "option=value" or a bare "option" (a flag); a line whose first character
 * is ';' or '#' is a comment, and the rest of any line from its first ';' or
 * '#' is one too ("filename=a#b" is "a", as in fio); ${VAR} from the
 * environment (an unset one is refused by name: fio would put an empty
 * string); $pagesize, $ncpus, $mb_memory and fio's arithmetic (see
 * fiojob_value.h); "include FILE" (its options join the section; no section
 * in it); fio's aliases (timeout is runtime, io_limit is io_size, ...);
 * filename= with ':' between files and "\:" for a colon in a name; size= and
 * io_size= as a percentage ("50%": of the target, and of size).
 *
 * Options iotriage runs the same way are read into struct fiojob. Options
 * that change nothing measured (name, description, thread, new_group,
 * gtod_reduce, percentile_list, group_reporting) are accepted. Natively the
 * jobs run one after another, so a file of several jobs runs natively only
 * when each job after the first has stonewall (fio runs the others together).
 * Any other option, or a value or combination of native options iotriage
 * does not run (rw=randread:8, bs=4k,64k, an engine of fio's own, several
 * files, nrfiles=4 with openfiles=2, fsync with reads, verify with a mix: fiojob_supported
 * lists the native ones, job_combinations the combinations left out), makes
 * the whole file fio's: FIO_REASON says which and where, and FIO_TEXT is the
 * file as fio is to read it (includes inlined, comments and ${VAR} resolved).
 * Defaults are fio's: rw=read, bs=4k, iodepth=1, numjobs=1, direct=0,
 * ioengine=psync, randrepeat=1, the random map on (norandommap=0).
 */
#ifndef IOTRIAGE_BENCH_FIOJOB_H
#define IOTRIAGE_BENCH_FIOJOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/strbuf.h"
#include "bench/distribution.h"
#include "bench/fiojob_value.h"

#define FIOJOB_MAX_JOBS 32
#define FIOJOB_MAX_TEXT (1U << 20)

struct fiojob {
	char name[64];
	char rw[16];             /* read write randread randwrite rw readwrite randrw trim randtrim trimwrite (randtrimwrite: fio's) */
	unsigned rwmixread;      /* 0..100 */
	uint32_t bs;
	unsigned iodepth, numjobs;
	uint64_t size;           /* 0 = the whole target (or SIZE_PCT of it) */
	uint64_t io_size;        /* 0 = size (or IO_SIZE_PCT of it) */
	unsigned size_pct, io_size_pct; /* size=N%, io_size=N%: 1..100, 0 when not given so */
	uint64_t runtime_ns, ramp_ns;
	bool time_based, direct, randrepeat;
	bool norandommap;        /* fio's default (0): every block once per pass; 1: uniform draws */
	bool may_write;          /* rw writes or trims (or is one iotriage does not know), or the engine
				  * changes its files whatever rw says (ftruncate, filedelete, ...) */
	bool stonewall;          /* waits for the jobs before it (fio's stonewall, wait_for_previous) */
	char wait_for[64];       /* wait_for=NAME: starts when that job has ended */
	uint64_t rate_bps, rate_iops;
	uint64_t offset, offset_increment;
	uint64_t number_ios;
	unsigned loops;
	uint64_t startdelay_ns, thinktime_ns;
	unsigned thinktime_blocks;
	unsigned fsync, fdatasync; /* fsync=N, fdatasync=N: a sync after every N writes */
	bool end_fsync;
	uint64_t seq_hole;       /* rw=read:N or write:N: N bytes skipped after each I/O */
	char verify[16];         /* crc32c md5 sha256, "" for none */
	bool do_verify, verify_fatal;
	/* verify_backlog=N: with do_verify, a write job reads back and checks
	 * the blocks written so far after every N writes (VERIFY_BATCH of
	 * them, 0: N), the rest after the writes; 0: all after the writes. */
	uint64_t verify_backlog;
	unsigned verify_batch;
	/* ba= (blockalign) for reads, writes and trims: random offsets in steps
	 * of it; 0 is fio's default, the smallest block size. fio uses it for
	 * random I/O only, and one that differs turns the random map off. */
	uint64_t ba[3];
	char ioengine[16];       /* iotriage's engine name: psync libaio io_uring null; fio's own when fio's */
	char filename[256];      /* the one file named, "\:" read as ':'; "" when none */
	char files[512];         /* filename= as written (several files, escapes kept) */
	/* directory=, filename_format= and filesize=: natively numjobs=1,
	 * DIRECTORY/FILENAME or DIRECTORY/FORMAT with fio's $jobname, $jobnum
	 * and $filenum; FILESIZE is each file's size, size then only io_size's
	 * default (fiojob_file_path). nrfiles= over 1 natively: NRFILES files
	 * of FORMAT ($filenum 0..N-1), each FILESIZE or SIZE / NRFILES, all
	 * open (OPENFILES 0 or at least NRFILES), taken in turn (job_spec.nr_files). */
	uint32_t bs_min;         /* bsrange= or bssplit=: the smallest size (bs is the largest); 0: none */
	unsigned nr_split;       /* bssplit= entries */
	struct {
		uint32_t bs;
		unsigned pct;
	} split[64];
	char directory[256];
	char filename_format[128];
	uint64_t filesize;
	unsigned nrfiles, openfiles;
	/* random_distribution= (zipf, pareto, normal, zoned: the random map then
	 * off, norandommap set, as fio turns it off) */
	struct dist_spec dist;
	/* buffer_compress_percentage=, buffer_compress_chunk=, dedupe_percentage= */
	unsigned compress_pct, dedupe_pct;
	bool refill_buffers;  /* every write's buffer filled afresh (fio's refill_buffers) */
	uint32_t compress_chunk;
	/* fio's logs (bench/joblog.h): write_bw_log=, write_iops_log=,
	 * write_lat_log= and write_hist_log= each give a prefix (bare: the
	 * job's name, filled in when the file is read); log_avg_msec=,
	 * log_hist_msec=, log_hist_coarseness=, log_max_value=, log_offset=. */
	struct fiojob_logs {
		bool bw, iops, lat, hist;
		char bw_name[128], iops_name[128], lat_name[128], hist_name[128];
		unsigned avg_msec, hist_msec, hist_coarseness;
		bool log_max, log_offset;
	} logs;
};

struct fiojob_file {
	size_t njobs;
	struct fiojob jobs[FIOJOB_MAX_JOBS];
	char fio_reason[320];    /* why the file is fio's to run; "" when iotriage runs it */
	char *fio_text;          /* the file for fio (malloc'd; fiojob_file_release) */
};

/* Parses TEXT (LEN bytes; a NUL inside ends it) with ENV (NULL: no
 * environment, no includes, a 4 KiB page, one CPU). Returns 0, or -EINVAL
 * with a message in ERR naming the option, the section and the line. A file
 * without any job section is refused too. Release OUT with
 * fiojob_file_release (also after a failure). */
int fiojob_parse_env(const char *text, size_t len, const struct fiojob_env *env, struct fiojob_file *out,
		     char *err, size_t errlen);
int fiojob_parse(const char *text, size_t len, struct fiojob_file *out, char *err, size_t errlen);
void fiojob_file_release(struct fiojob_file *f);
/* The grain of a job's offsets: its smallest block size (bs without bsrange/bssplit). */
uint32_t fiojob_grain(const struct fiojob *job);

/* F's text for fio with TARGET (NULL: the file's own names) in place of
 * every filename=, directory=, filename_format=, opendir= and nrfiles=
 * ("[global]" and "filename=TARGET", ':' escaped, first). */
void fiojob_fio_text(const struct fiojob_file *f, const char *target, struct strbuf *out);

/* The next file of a filename= list at *CURSOR, fio's way (':' separates,
 * "\:" is a colon, empty names skipped) into BUF. False at the end. */
bool fiojob_next_file(const char **cursor, char *buf, size_t len);

/* The file a job reads or writes: DIR (the job's directory= when NULL;
 * none: the current directory) joined with its filename= or, without one,
 * its filename_format= (fio's default "$jobname.$jobnum.$filenum") for job
 * clone 0, file 0. False when the job names no file in any of these ways
 * (no filename=, directory=, filename_format= or filesize=). */
bool fiojob_file_path(const struct fiojob *job, const char *dir, char *buf, size_t len);
/* The same for file FILENUM of nrfiles= ($filenum; FIOJOB_MAX_NRFILES
 * natively). */
#define FIOJOB_MAX_NRFILES 64
bool fiojob_file_path_n(const struct fiojob *job, const char *dir, unsigned filenum, char *buf, size_t len);

/* The options run natively and those accepted with no effect on what is
 * measured, NULL-terminated (for --help and the docs). */
extern const char *const fiojob_supported[];
extern const char *const fiojob_cosmetic[];

#endif
