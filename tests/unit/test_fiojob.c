/* test_fiojob.c: bench/fiojob.c, fio job files read into iotriage's terms. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/fiojob.h"
#include "tap.h"

static struct fiojob_file f;
static char err[512];

static int parse(const char *text)
{
	err[0] = '\0';
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

static void test_refusals(void)
{
	refused("[j]\nverify=md5\n", "option 'verify' is not supported");
	refused("[j]\nverify=md5\n", "line 2 [j]");
	refused("[global]\nrandom_distribution=zipf:1.2\n[j]\n", "'random_distribution'");
	refused("[j]\nioengine=posixaio\n", "ioengine=posixaio is not supported");
	refused("[j]\nrw=trim\n", "rw=trim");
	refused("[j]\nrw=randread:8\n", "offset modifiers");
	refused("[j]\nbs=4k,8k\n", "separate read and write block sizes");
	refused("[j]\nbs=0\n", "bs=0");
	refused("[j]\nbs=128m\n", "at most 64m");
	refused("[j]\nsize=50%\n", "percentage");
	refused("[j]\niodepth=0\n", "iodepth=0");
	refused("[j]\nrwmixread=101\n", "rwmixread=101");
	refused("[j]\nruntime=soon\n", "runtime=soon");
	refused("[j]\ndirect=2\n", "expected 0 or 1");
	refused("[j]\nfilename=/a:/b\n", "several files");
	refused("[j]\nrw\n", "needs a value");
	refused("rw=read\n[j]\n", "before any section");
	refused("[global]\nrw=read\n", "no job section");
	refused("", "no job section");
	refused("[j\n", "'[name]'");
	refused("[]\n", "needs a name");
	refused("[j]\n[global]\n", "[global] after a job");
	refused("[j]\nrate=1m,2m\n", "separate read and write rates");
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
	is_int(fiojob_parse(nul, sizeof(nul) - 1, &f, err, sizeof(err)), 0, "a NUL ends the text");
}

int main(void)
{
	test_global_and_jobs();
	test_defaults();
	test_refusals();
	test_limits();
	return tap_done();
}
