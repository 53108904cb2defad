/* test_fiojob.c: bench/fiojob.c, fio job files read into iotriage's terms. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/fiojob.h"
#include "tap.h"

static struct fiojob_file f;
static char err[512];

static int parse(const char *text)
{
	err[0] = '\0';
	fiojob_file_release(&f); /* the last parse's text for fio */
	return fiojob_parse(text, strlen(text), &f, err, sizeof(err));
}

/* TEXT is refused, and the message holds WANT. */
static void refused(const char *text, const char *want)
{
	char name[160];
	snprintf(name, sizeof(name), "refused: %s", want);
	int r = parse(text);
	if (!ok(r == -EINVAL && strstr(err, want), name))
		printf("#   r=%d err='%s'\n", r, err);
}

/* The global section's options reach every job; a job's own override them. */
static void test_global_and_jobs(void)
{
	const char *text = "; the vendor's test\n"
			   "[global]\n"
			   "ioengine=libaio\n"
			   "direct=1\n"
			   "bs = 4k\n"
			   "iodepth=64\n"
			   "numjobs=8\n"
			   "runtime=1m\n"
			   "ramp_time=30s\n"
			   "time_based\n"
			   "filename=/dev/loop7\n"
			   "group_reporting\n"
			   "\n"
			   "[rr]\n"
			   "rw=randread\n"
			   "# a comment\n"
			   "[seqw]\n"
			   "rw=write\n"
			   "bs=1M\n"
			   "ioengine=sync\n"
			   "rate_iops=100\n"
			   "time_based=0\n"
			   "size=64m\n"
			   "io_size=128m\n";
	is_int(parse(text), 0, "the vendor's job file parses");
	is_int((int)f.njobs, 2, "two jobs ([global] is not one)");
	const struct fiojob *a = &f.jobs[0], *b = &f.jobs[1];
	is_str(a->name, "rr", "first job's name");
	is_str(a->rw, "randread", "rw");
	is_int((int)a->bs, 4096, "bs from global");
	is_int((int)a->iodepth, 64, "iodepth from global");
	is_int((int)a->numjobs, 8, "numjobs from global");
	ok(a->runtime_ns == 60000000000ULL, "runtime=1m is 60 s");
	ok(a->ramp_ns == 30000000000ULL, "ramp_time=30s");
	ok(a->time_based && a->direct, "bare flags set");
	is_str(a->ioengine, "libaio", "ioengine");
	is_str(a->filename, "/dev/loop7", "filename from global");
	is_int((int)b->bs, 1 << 20, "the job's own bs overrides");
	is_str(b->ioengine, "psync", "sync runs as psync");
	ok(!b->time_based, "time_based=0 overrides the global flag");
	ok(b->size == 64ULL << 20 && b->io_size == 128ULL << 20, "size and io_size");
	ok(b->rate_iops == 100, "rate_iops");
	is_str(a->filename, b->filename, "both jobs got the global filename");
}

static void test_defaults(void)
{
	is_int(parse("[only]\n"), 0, "an empty job parses");
	const struct fiojob *j = &f.jobs[0];
	is_str(j->rw, "read", "fio's default rw");
	ok(j->bs == 4096 && j->iodepth == 1 && j->numjobs == 1, "fio's defaults: bs 4k, QD1, one job");
	ok(!j->direct && !j->time_based && j->randrepeat && !j->norandommap,
	   "buffered, size-based, repeatable, the random map on");
	is_int(parse("[global]\nnorandommap\n[j]\n"), 0, "norandommap");
	ok(f.jobs[0].norandommap, "norandommap from [global] reaches the job");
	is_str(j->ioengine, "psync", "psync by default");
	ok(j->size == 0 && j->filename[0] == '\0', "no size and no file unless given");
	is_int(parse("[m]\nrw=randrw\nrwmixwrite=30\nbuffered=0\n"), 0, "rwmixwrite and buffered");
	ok(f.jobs[0].rwmixread == 70 && f.jobs[0].direct, "rwmixwrite=30 reads 70%, buffered=0 is direct");
	is_int(parse("[a]\r\nrw=write\r\n"), 0, "CRLF lines");
	is_str(f.jobs[0].rw, "write", "CRLF value trimmed");
}

/* TEXT parses, but is fio's to run, and the reason holds WANT. */
static void fios(const char *text, const char *want)
{
	char name[160];
	snprintf(name, sizeof(name), "fio's: %s", want);
	int r = parse(text);
	if (!ok(r == 0 && strstr(f.fio_reason, want), name))
		printf("#   r=%d err='%s' reason='%s'\n", r, err, f.fio_reason);
	fiojob_file_release(&f);
}

static void test_refusals(void)
{
	refused("[j]\nbs=0\n", "bs=0");
	refused("[j]\nsize=150%\n", "percentage from 1% to 100%");
	refused("[j]\nsize=%%\n", "percentage from 1% to 100%");
	refused("[j]\niodepth=0\n", "iodepth=0");
	refused("[j]\nrwmixread=101\n", "rwmixread=101");
	refused("[j]\nruntime=soon\n", "runtime=soon");
	refused("[j]\ndirect=yes\n", "expected 0 or 1");
	refused("[j]\nrw=sideways\n", "rw=sideways");
	refused("[j]\nrw\n", "needs a value");
	refused("[j]\ndirect\n", "option 'direct' needs a value, 0 or 1 (fio refuses it bare)");
	refused("[j]\ngtod_reduce\n", "option 'gtod_reduce' needs a value");
	refused("rw=read\n[j]\n", "before any section");
	refused("[global]\nrw=read\n", "no job section");
	refused("", "no job section");
	refused("[j\n", "'[name]'");
	refused("[]\n", "needs a name");
	refused("[j]\ninclude other.fio\n", "included files are not read here");
}

/* What iotriage does not run natively makes the whole file fio's, named. */
static void test_fio_reasons(void)
{
	fios("[j]\nbs=128m\n", "blocks over 64m");
	fios("[j]\niodepth=8192\n", "a queue over 4096");
	fios("[j]\nsize=8z\n", "a size in zones");
	fios("[j]\nverify=crc32\n", "verify=crc32 is not run natively (crc32c, md5 and sha256 are) (line 2 [j])");
	fios("[j]\nrw=randrw\nverify=md5\n", "job [j]: verify= with a read/write mix is not run natively");
	fios("[j]\nrw=read\nfsync=4\n", "fsync= or fdatasync= with reads in the mix");
	fios("[j]\nrw=write\nfsync=4\nfdatasync=2\n", "both fsync= and fdatasync=");
	fios("[j]\nrw=read:-8k\n", "a backward or negative skip");
	fios("[j]\noffset=5z\n", "an offset in zones");
	fios("[j]\noffset=10%\n", "an offset as a percentage");
	fios("[j]\nstartdelay=1-5\n", "a range of times");
	fios("[global]\nrandom_distribution=zoned_abs:50/1m:50/2m\n[j]\n", "zoned_abs is not run natively");
	fios("[global]\nrandom_generator=lfsr\n[j]\n", "'random_generator'");
	fios("[j]\nioengine=posixaio\n", "ioengine=posixaio is not run natively");
	fios("[j]\nrw=randtrimwrite\n", "rw=randtrimwrite is not run natively");
	fios("[j]\nrw=trimwrite\nfsync=4\n", "fsync=, fdatasync= or verify= with trims");
	fios("[j]\nrw=randtrim\nwrite_lat_log=t\n", "a bw, iops, lat or hist log of trims");
	is_int(parse("[j]\nrw=randtrim\n"), 0, "rw=randtrim");
	is_str(f.fio_reason, "", "rw=randtrim run natively");
	is_str(f.jobs[0].rw, "randtrim", "rw=randtrim kept");
	ok(f.jobs[0].may_write, "a trim job may write (it discards)");
	fios("[j]\nrw=randread:8\n", "an offset modifier (':N') on a random or mixed mode");
	fios("[j]\nbs=4k,8k\n", "separate read and write block sizes");
	fios("[j]\nfilename=/a:/b\n", "several files");
	fios("[j]\nrate=1m,2m\n", "separate read and write rates");
	is_int(parse("[j]\nnr_files=4\nsize=64k\n"), 0, "nr_files=4");
	is_str(f.fio_reason, "", "nrfiles=4 run natively");
	is_int(f.jobs[0].nrfiles, 4, "nr_files is nrfiles");
	fios("[j]\nnrfiles=4\nsize=64k\nopenfiles=2\n", "openfiles= under nrfiles=");
	fios("[j]\nnrfiles=4\nsize=66k\n", "without a size that is a whole number of blocks per file");
	fios("[j]\nnrfiles=4\nfilename=/x\n", "nrfiles= over 1 with filename=");
	fios("[j]\nnrfiles=2\nsize=64k\nrw=write\nverify=md5\n", "nrfiles= over 1 with bsrange");
	fios("[j]\ndirectory=/tmp\nnumjobs=2\n", "numjobs= over 1 with a file per job");
	fios("[j]\nfilesize=1m-4m\n", "a range of file sizes");
	fios("[j]\nfilename_format=f.$clientuid\n", "$clientuid");
	fios("[j]\ndirectory=/a:/b\n", "several directories");
	fios("[j]\nbssplit=4k/50:8k/20\n", "percentages that do not add up to 100");
	fios("[j]\nbssplit=4k/50:8k/50,16k\n", "separate read and write splits");
	fios("[j]\nrw=write\nbsrange=4k-8k\nverify=md5\n", "verify= with block sizes that vary");
	fios("[a]\n[b]\nrw=write\n", "jobs [a] and [b] run at the same time (no stonewall or wait_for=a in [b])");
	fios("[a]\n[b]\nstonewall\n[c]\n", "jobs [b] and [c]");
	is_int(parse("[global]\nstonewall\n[a]\n[b]\n"), 0, "stonewall in [global]");
	is_int(parse("[j]\nrw=write:8k\noffset=1m\noffset_increment=2m\nnumber_ios=7\nloops=3\nstartdelay=2\n"
		     "thinktime=250\nthinktime_blocks=4\nfsync=16\nend_fsync=1\nverify=crc32c-intel\ndo_verify=0\n"
		     "verify_fatal=1\n"), 0, "fio's common options");
	is_str(f.fio_reason, "", "run natively");
	ok(f.jobs[0].seq_hole == 8192 && f.jobs[0].offset == 1 << 20 && f.jobs[0].offset_increment == 2 << 20 &&
	   f.jobs[0].number_ios == 7 && f.jobs[0].loops == 3, "rw=write:8k, offset, offset_increment, number_ios, loops read");
	ok(f.jobs[0].startdelay_ns == 2000000000ULL && f.jobs[0].thinktime_ns == 250000 && f.jobs[0].thinktime_blocks == 4,
	   "startdelay in seconds and thinktime in microseconds by default, as fio reads them");
	ok(f.jobs[0].fsync == 16 && f.jobs[0].end_fsync && strcmp(f.jobs[0].verify, "crc32c") == 0 &&
	   !f.jobs[0].do_verify && f.jobs[0].verify_fatal, "fsync, end_fsync, verify (crc32c-intel is crc32c), do_verify, verify_fatal");
	char path[256];
	is_int(parse("[j]\ndirectory=/d\nfilesize=8m\n[k]\nstonewall\ndirectory=/d/\nfilename_format=x.$jobname.$filenum\n"
		     "[l]\nstonewall\nfilename=f\ndirectory=/e\n[m]\nstonewall\nsize=1m\n"), 0, "directory=, filesize=, filename_format=");
	is_str(f.fio_reason, "", "one file per job: run natively");
	ok(fiojob_file_path(&f.jobs[0], NULL, path, sizeof(path)) && strcmp(path, "/d/j.0.0") == 0 && f.jobs[0].filesize == 8 << 20,
	   "fio's default name in the directory: $jobname.$jobnum.$filenum");
	ok(fiojob_file_path(&f.jobs[1], NULL, path, sizeof(path)) && strcmp(path, "/d/x.k.0") == 0, "filename_format's keywords");
	ok(fiojob_file_path(&f.jobs[2], "/t", path, sizeof(path)) && strcmp(path, "/t/f") == 0,
	   "a TARGET directory in place of directory=, filename= in it");
	ok(!fiojob_file_path(&f.jobs[3], NULL, path, sizeof(path)), "a job that names no file has no path");
	ok(fiojob_file_path_n(&f.jobs[1], NULL, 3, path, sizeof(path)) && strcmp(path, "/d/x.k.3") == 0,
	   "nrfiles: $filenum is the file's number");
	is_int(parse("[j]\nbssplit=4k/50:64k/:16k/\nbs=8k\n[k]\nstonewall\nbsrange=64k-4k\n"), 0, "bssplit= and bsrange=");
	is_str(f.fio_reason, "", "run natively");
	ok(f.jobs[0].nr_split == 3 && f.jobs[0].split[1].pct == 25 && f.jobs[0].split[2].pct == 25 && f.jobs[0].bs == 65536 &&
	   f.jobs[0].bs_min == 4096, "blank percentages share what is left; bs= after bssplit changes nothing, as in fio");
	ok(f.jobs[1].bs == 65536 && f.jobs[1].bs_min == 4096 && f.jobs[1].nr_split == 0, "bsrange's ends swapped as fio does");
	is_str(f.fio_reason, "", "every job waits for the one before: native");
	is_int(parse("[a]\n[b]\nwait_for_previous\n"), 0, "wait_for_previous is stonewall");
	is_str(f.fio_reason, "", "native too");
	is_int(parse("[a]\n[b]\nwait_for=a\n[c]\nwait_for=b\n"), 0, "wait_for= the job just before");
	is_str(f.fio_reason, "", "each job waiting for the one before it: one after another, native");
	fios("[a]\n[b]\nwait_for=a\n[c]\nwait_for=a\n", "jobs [b] and [c] run at the same time (no stonewall or wait_for=b in [c])");
	is_int(parse("[j]\nrw=randread\nrandom_distribution=zipf:1.2\n[k]\nstonewall\nrw=randrw\n"
		     "random_distribution=zoned:60/10:40/90\n"), 0, "random_distribution=zipf and zoned");
	is_str(f.fio_reason, "", "run natively");
	ok(f.jobs[0].dist.kind == DIST_ZIPF && f.jobs[0].dist.value == 1.2 && f.jobs[1].dist.kind == DIST_ZONED &&
	   f.jobs[1].dist.nr_zones == 2, "the models and their values");
	ok(f.jobs[0].norandommap && f.jobs[1].norandommap, "a model other than random turns the random map off, as in fio");
	refused("[j]\nrandom_distribution=gauss:5\n", "random_distribution=gauss:5: expected random, zipf");
	refused("[j]\nrandom_distribution=zipf:1\n", "theta must differ from 1");
	fios("[j]\nrw=randwrite\nrandom_distribution=pareto:0.5\nverify=md5\n", "verify= on writes with norandommap");
	is_int(parse("[j]\nrw=write\nbuffer_compress_percentage=60\nbuffer_compress_chunk=4k\ndedupe_percentage=30\n"
		     "dedupe_mode=repeat\n"), 0, "buffer_compress_percentage, buffer_compress_chunk, dedupe_percentage");
	is_str(f.fio_reason, "", "run natively");
	ok(f.jobs[0].compress_pct == 60 && f.jobs[0].compress_chunk == 4096 && f.jobs[0].dedupe_pct == 30, "their values");
	refused("[j]\ndedupe_percentage=101\n", "dedupe_percentage=101: expected a whole number from 0 to 100");
	refused("[j]\ndedupe_mode=often\n", "expected repeat or working_set");
	fios("[j]\nrw=write\ndedupe_percentage=5\ndedupe_mode=working_set\n", "dedupe_mode=working_set");
	fios("[j]\nrw=write\nbuffer_compress_percentage=50\nverify=md5\n", "verify= with buffer_compress_percentage=");
	is_int(parse("[j]\nrw=read\n"), 0, "a native file");
	is_str(f.fio_reason, "", "has no reason for fio");
	fiojob_file_release(&f);
}

/* ba= (blockalign): fio's list of values for reads, writes and trims, used
 * for random I/O only, and the random map turned off when it differs. */
static void test_blockalign(void)
{
	is_int(parse("[a]\nrw=randread\nbs=8k\nba=4k\n[b]\nstonewall\nrw=randrw\nblockalign=1k,8k\n"
		     "[c]\nstonewall\nrw=randread\nba=,8k\n[d]\nstonewall\nrw=randread\nba=2k,4k,\n"
		     "[e]\nstonewall\nrw=read\nbs=8k\nba=4k\n[f]\nstonewall\nrw=randread\nba=4k\n"), 0,
	       "ba= and blockalign= in their forms");
	is_str(f.fio_reason, "", "run natively");
	const struct fiojob *j = f.jobs;
	ok(j[0].ba[0] == 4096 && j[0].ba[1] == 4096 && j[0].ba[2] == 4096, "one value: every direction");
	ok(j[1].ba[0] == 1024 && j[1].ba[1] == 8192 && j[1].ba[2] == 8192, "R,W: W holds for the trims too");
	ok(j[2].ba[0] == 0 && j[2].ba[1] == 8192 && j[2].ba[2] == 8192, ",W: the reads keep the default");
	ok(j[3].ba[0] == 2048 && j[3].ba[1] == 4096 && j[3].ba[2] == 0, "R,W, (a trailing comma): the trims keep the default");
	ok(j[0].norandommap && j[1].norandommap && j[2].norandommap && j[3].norandommap,
	   "a ba other than the block size turns the random map off, as in fio");
	ok(!j[4].norandommap, "sequential I/O does not use ba: the map stays");
	ok(!j[5].norandommap, "ba equal to the block size changes nothing");
	refused("[j]\nrw=randread\nba=0\n", "ba=0: expected a size such as 4k or 64m (not 0)");
	refused("[j]\nrw=randread\nba=4k,8k,16k,32k\n", "ba=4k,8k,16k,32k: expected at most three sizes");
	refused("[j]\nrw=randread\nba=lots\n", "line 3 [j]: ba=lots: expected a size");
	refused("[j]\nrw=write\nverify=crc32c\nverify_backlog_batch=-1\n", "verify_backlog_batch=-1: expected a whole number");
	fios("[j]\nrw=randread\nba=4k:8k\n", "values parted by ':' or '-' are not run natively");
	fios("[j]\nrw=randwrite\nba=2k\nverify=md5\n", "verify= on random writes with ba=");
	fios("[j]\nrw=randread\nba=2k\nrandom_distribution=zipf:1.1\n", "ba= with random_distribution= other than zoned");
	fios("[j]\nrw=randrw\nba=2k,8k\nrandom_distribution=zoned:50/5:50/95\n", "or with zoned and a ba per direction");
	is_int(parse("[j]\nrw=randrw\nba=2k\nrandom_distribution=zoned:50/5:50/95\n"), 0, "ba= with zoned");
	is_str(f.fio_reason, "", "one ba for reads and writes: native");
	fios("[j]\nrw=randread\nba=2k\nnrfiles=2\nsize=1m\n", "nrfiles= over 1 with bsrange/bssplit, ba,");
	fiojob_file_release(&f);
}

/* verify_backlog= and verify_backlog_batch=. */
static void test_verify_backlog(void)
{
	is_int(parse("[j]\nrw=randwrite\nverify=crc32c\nverify_backlog=16\nverify_backlog_batch=4\n"
		     "[k]\nstonewall\nrw=write\nverify=md5\nverify_backlog=1k\n"), 0, "verify_backlog, verify_backlog_batch");
	is_str(f.fio_reason, "", "run natively");
	ok(f.jobs[0].verify_backlog == 16 && f.jobs[0].verify_batch == 4, "their values");
	ok(f.jobs[1].verify_backlog == 1024 && f.jobs[1].verify_batch == 0, "a size suffix, as fio reads it; batch 0 is N");
	fios("[j]\nrw=write\nverify=crc32c\nverify_backlog=8\nloops=2\n", "verify_backlog= with loops=");
	fios("[j]\nrw=write\nverify=crc32c\nverify_backlog=8\nnumber_ios=100\n", "verify_backlog= with loops=");
	fios("[j]\nrw=write\nverify=crc32c\nverify_backlog=8\nsize=1m\nio_size=2m\n", "io_size= over size=");
	is_int(parse("[j]\nrw=write\nverify=crc32c\nverify_backlog=8\nloops=2\ndo_verify=0\n"), 0,
	       "without do_verify fio keeps no backlog");
	is_str(f.fio_reason, "", "so loops= with it is native");
	refused("[j]\nverify_backlog=-1\n", "verify_backlog=-1: expected a whole number");
	fiojob_file_release(&f);
}

/* Options that change nothing measured never make a file fio's. */
static void test_cosmetic(void)
{
	is_int(parse("[global]\nname=all\ndescription=x\nthread\nthreads\ngtod_reduce=1\ngroup_reporting\n"
		     "[j]\nnew_group\npercentile_list=50:99:99.9\nname=renamed\n"),
	       0, "every cosmetic option parses");
	is_str(f.fio_reason, "", "and none needs fio");
	is_str(f.jobs[0].name, "renamed", "name= in a job renames it");
	fiojob_file_release(&f);
}

/* fio cuts a line at its first ';' or '#', wherever it is. */
static void test_comments(void)
{
	is_int(parse("[j] ; the job\nruntime=3600  # one hour\nfilename=/tmp/a#b\nsize=1m;x\n  # indented\n"), 0,
	       "inline comments");
	ok(f.jobs[0].runtime_ns == 3600000000000ULL, "runtime=3600 # one hour is an hour");
	is_str(f.jobs[0].filename, "/tmp/a", "the comment is not part of the file name");
	ok(f.jobs[0].size == 1 << 20, "size=1m;x");
	is_str(f.jobs[0].name, "j", "a comment after a section header");
	fiojob_file_release(&f);
}

static const char *fake_getenv(const char *name, void *arg)
{
	(void)arg;
	return strcmp(name, "SIZE") == 0 ? "64m" : strcmp(name, "DEV") == 0 ? "/dev/loop9" : NULL;
}

static int fake_include(const char *path, const char *from, char **text, size_t *len, char *why, size_t whylen,
			void *arg)
{
	(void)from, (void)arg;
	const char *body = strcmp(path, "common.fio") == 0 ? "bs=64k ; from the include\ninclude deeper.fio\n"
			 : strcmp(path, "deeper.fio") == 0 ? "iodepth=8\n"
			 : strcmp(path, "section.fio") == 0 ? "[x]\n" : NULL;
	if (!body) {
		snprintf(why, whylen, "no such file");
		return -ENOENT;
	}
	*text = strdup(body);
	*len = strlen(body);
	return 0;
}

static const struct fiojob_env env = {
	.getenv = fake_getenv, .read_include = fake_include, .path = "main.fio",
	.pagesize = 4096, .ncpus = 6, .mb_memory = 16000,
};

static int parse_env(const char *text)
{
	err[0] = '\0';
	fiojob_file_release(&f);
	return fiojob_parse_env(text, strlen(text), &env, &f, err, sizeof(err));
}

static void test_variables(void)
{
	is_int(parse_env("[j]\nsize=${SIZE}\nfilename=${DEV}\n"), 0, "${VAR} from the environment");
	ok(f.jobs[0].size == 64ULL << 20, "size=${SIZE} is 64m");
	is_str(f.jobs[0].filename, "/dev/loop9", "filename=${DEV}");
	ok(strstr(f.fio_text, "size=64m") != NULL, "fio's copy has the value, not the variable");
	fiojob_file_release(&f);
	is_int(parse_env("[j]\nsize=${NOPE}\n"), -EINVAL, "an unset variable is refused");
	ok(strstr(err, "environment variable NOPE is not set") && strstr(err, "line 2 [j]"), "naming it and its line");
	fiojob_file_release(&f);
	is_int(parse_env("[j]\nbs=$pagesize\niodepth=$ncpus*2\nsize=$mb_memory/1000\nnumjobs=(2+1)\n"), 0,
	       "fio's keywords and arithmetic");
	ok(f.jobs[0].bs == 4096, "bs=$pagesize");
	ok(f.jobs[0].iodepth == 12, "iodepth=$ncpus*2 computed as bc would");
	ok(f.jobs[0].size == 16, "size=$mb_memory/1000: whole-number division");
	ok(f.jobs[0].numjobs == 3, "numjobs=(2+1): fio's arithmetic");
	fiojob_file_release(&f);
	is_int(parse_env("[j]\nbs=(4k*2)\n"), 0, "a size in fio's arithmetic");
	ok(f.jobs[0].bs == 8192, "bs=(4k*2) is 8k");
	fiojob_file_release(&f);
	is_int(parse_env("[j]\nsize=$mb_memory*m\n"), -EINVAL, "bc's syntax error is refused");
	ok(strstr(err, "bc") != NULL, "saying fio computes it with bc");
	fiojob_file_release(&f);
}

static void test_include_and_aliases(void)
{
	is_int(parse_env("[j]\ninclude common.fio\nrw=write\n"), 0, "include FILE, nested");
	ok(f.jobs[0].bs == 65536 && f.jobs[0].iodepth == 8, "the included options reach the job");
	ok(strstr(f.fio_text, "bs=64k\niodepth=8\nrw=write") != NULL, "fio's copy has them inlined");
	fiojob_file_release(&f);
	refused("[j]\ninclude section.fio\n", "included files are not read here");
	is_int(parse_env("[j]\ninclude section.fio\n"), -EINVAL, "a section in an included file is refused");
	ok(strstr(err, "section.fio line 1") && strstr(err, "a section in an included file"), "naming the file and line");
	fiojob_file_release(&f);
	is_int(parse_env("[j]\ninclude missing.fio\n"), -EINVAL, "a missing include is refused");
	fiojob_file_release(&f);
	is_int(parse("[j]\ntimeout=10\nio_limit=2m\nblocksize=8k\nreadwrite=randwrite\nallrandrepeat=0\n"), 0,
	       "fio's aliases");
	ok(f.jobs[0].runtime_ns == 10000000000ULL && f.jobs[0].io_size == 2 << 20 && f.jobs[0].bs == 8192,
	   "timeout is runtime, io_limit is io_size, blocksize is bs");
	ok(!strcmp(f.jobs[0].rw, "randwrite") && !f.jobs[0].randrepeat, "readwrite is rw, allrandrepeat is randrepeat");
	fiojob_file_release(&f);
}

/* Sizes and times as fio reads them, and refused where fio reads them otherwise than written. */
static void test_units(void)
{
	char why[200];
	uint64_t v = 0;
	ok(fiojob_size("4k", &v, why, sizeof(why)) == 0 && v == 4096, "4k is 4096");
	ok(fiojob_size("4KB", &v, why, sizeof(why)) == 0 && v == 4096, "4KB is 4096 (fio's kb_base=1024)");
	ok(fiojob_size("4KiB", &v, why, sizeof(why)) == 0 && v == 4000, "4KiB is 4000, as fio reads it by default");
	ok(fiojob_size("1MiB", &v, why, sizeof(why)) == 0 && v == 1000000, "1MiB is 10^6 the same way");
	ok(fiojob_size("64ki", &v, why, sizeof(why)) == 0 && v == 65536, "64ki: the k alone");
	ok(fiojob_size("0x1000", &v, why, sizeof(why)) == 0 && v == 4096, "hex");
	ok(fiojob_size("4096b", &v, why, sizeof(why)) == 0 && v == 4096, "b for bytes");
	ok(fiojob_size("1.5g", &v, why, sizeof(why)) < 0 && strstr(why, "fraction"), "1.5g refused: fio reads 1 byte");
	ok(fiojob_size("4kfoo", &v, why, sizeof(why)) < 0 && strstr(why, "'foo'"), "text after the unit refused");
	ok(fiojob_time("30", &v, why, sizeof(why)) == 0 && v == 30000000000ULL, "30 is seconds");
	ok(fiojob_time("1d", &v, why, sizeof(why)) == 0 && v == 86400000000000ULL, "1d");
	ok(fiojob_time("100msec", &v, why, sizeof(why)) == 0 && v == 100000000ULL, "100msec");
	ok(fiojob_time("2M", &v, why, sizeof(why)) == 0 && v == 120000000000ULL, "2M is two minutes");
	ok(fiojob_time("5sec", &v, why, sizeof(why)) < 0 && strstr(why, "microseconds"), "5sec refused: fio reads 5 us");
	ok(fiojob_time("10min", &v, why, sizeof(why)) < 0 && strstr(why, "microseconds"), "10min refused the same");
	is_int(parse("[j]\niodepth=0x10\nnumjobs=2\nrate_iops=1k\ndirect=0x1\ntime_based=2\nruntime=1\n"), 0,
	       "whole numbers and flags as fio reads them");
	ok(f.jobs[0].iodepth == 16 && f.jobs[0].rate_iops == 1024 && f.jobs[0].direct && f.jobs[0].time_based,
	   "hex, fio's k in a count (1024), any non-zero flag on");
	refused("[j]\nruntime=5sec\n", "runtime=5sec: '5sec': fio reads 'sec' as microseconds");
}

static void test_files_and_percentages(void)
{
	is_int(parse("[j]\nfilename=/dev/bsg/0\\:0\\:0\\:0\n"), 0, "an escaped colon is part of the name");
	is_str(f.jobs[0].filename, "/dev/bsg/0:0:0:0", "one file, its colons unescaped");
	is_str(f.fio_reason, "", "one file runs natively");
	fiojob_file_release(&f);
	const char *cur = "/a\\:b::/c:";
	char one[64];
	ok(fiojob_next_file(&cur, one, sizeof(one)) && !strcmp(one, "/a:b"), "first of a list");
	ok(fiojob_next_file(&cur, one, sizeof(one)) && !strcmp(one, "/c"), "an empty name skipped");
	ok(!fiojob_next_file(&cur, one, sizeof(one)), "then the end");
	is_int(parse("[j]\nsize=50%\nio_size=25%\n"), 0, "percentages of the target");
	ok(f.jobs[0].size_pct == 50 && f.jobs[0].io_size_pct == 25 && !f.jobs[0].size, "kept as percentages");
	fiojob_file_release(&f);
	is_int(parse("[j]\nsize=100%%\n"), 0, "100%% as fio reads it (fio-plot's configparser-escaped template)");
	ok(f.jobs[0].size_pct == 100 && !f.jobs[0].size, "is 100% of the target");
	fiojob_file_release(&f);
	is_int(parse("[j]\nfilename=/x\ndirectory=/d\nnrfiles=4\nverify=md5\n[k]\nfilename=/y\n"), 0, "a file for fio");
	struct strbuf sb = STRBUF_INIT;
	fiojob_fio_text(&f, "/dev/a:b", &sb);
	ok(!strncmp(sb.buf, "[global]\nfilename=/dev/a\\:b\n", strlen("[global]\nfilename=/dev/a\\:b\n")), "TARGET first, its colon escaped");
	ok(!strstr(sb.buf, "filename=/x") && !strstr(sb.buf, "directory") && !strstr(sb.buf, "nrfiles") &&
	   strstr(sb.buf, "verify=md5"),
	   "the file's own names dropped, the rest kept");
	strbuf_release(&sb);
	fiojob_file_release(&f);
	is_int(parse("[j]\nrw=read\n[global]\nrw=write\n[k]\n"), 0, "[global] after a job, as fio allows");
	ok(!strcmp(f.jobs[0].rw, "read") && !strcmp(f.jobs[1].rw, "write"), "it reaches the jobs after it only");
	ok(!f.jobs[0].may_write && f.jobs[1].may_write, "which jobs write");
	is_int(parse("[j]\nrw=read\nioengine=ftruncate\n[k]\nstonewall\nrw=randread\nioengine=rbd\n"), 0, "engines of fio's");
	ok(f.jobs[0].may_write && !f.jobs[1].may_write, "one that changes its file writes whatever rw says");
	fiojob_file_release(&f);
}

static void test_limits(void)
{
	char text[4096] = "";
	for (int i = 0; i <= FIOJOB_MAX_JOBS; i++) {
		char s[16];
		snprintf(s, sizeof(s), "[j%d]\n", i);
		strcat(text, s);
	}
	refused(text, "more than");
	char longline[2100];
	memset(longline, 'x', sizeof(longline) - 1);
	longline[0] = '[';
	longline[sizeof(longline) - 1] = '\0';
	refused(longline, "over 1023 characters");
	const char nul[] = "[a]\0verify=md5\n";
	fiojob_file_release(&f);
	is_int(fiojob_parse(nul, sizeof(nul) - 1, &f, err, sizeof(err)), 0, "a NUL ends the text");
	is_str(f.fio_reason, "", "nothing after it is read");
	fiojob_file_release(&f);
}

int main(void)
{
	test_blockalign();
	test_verify_backlog();
	test_global_and_jobs();
	test_defaults();
	test_refusals();
	test_fio_reasons();
	test_cosmetic();
	test_comments();
	test_variables();
	test_include_and_aliases();
	test_files_and_percentages();
	test_units();
	test_limits();
	return tap_done();
}
