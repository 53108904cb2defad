/* ramdisk wire --ndelay: the judgement of a slower back end seen locally
 * and from the client (triage/ramdisk/ramdisk_wire_judge.c, pure), on figures
 * shaped like the VM's (tests/cli/test_wire_vm.sh measures the real
 * ones); and the runtime change of scsi_debug's delay
 * (ramdisk/scsi_debug.c) on a temporary tree standing in for sysfs: the
 * kernel's own answer (EBUSY while commands are queued, the one-jiffy
 * fallback) is the VM's. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/fsutil.h"
#include "ramdisk/ramdisk.h"
#include "tap.h"
#include "triage/ramdisk/ramdisk_export.h"

static struct wire_side side(double mean_us, double iops, double mbps)
{
	struct wire_side s = { 0 };
	s.w[WIRE_QD1] = (struct wire_lat){ .measured = true, .mean_ns = mean_us * 1e3 };
	s.w[WIRE_QD32] = (struct wire_lat){ .measured = true, .iops = iops };
	s.w[WIRE_SEQ] = (struct wire_lat){ .measured = true, .bw_bytes_per_s = mbps * 1e6 };
	return s;
}

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static void test_judge(void)
{
	/* the brief's example: 2 ms slower; QD32 locally bound by the delay
	 * (32 / 2 ms), from the client already bound by the path */
	struct wire_side bl = side(20, 100000, 2000), br = side(120, 37000, 800);
	struct wire_delay_point pt = { .ndelay_ns = 2000000 };
	pt.local = side(2021, 16000, 800);
	pt.remote = side(2130, 15910, 336);
	ramdisk_wire_delay_judge(&bl, &br, 0, &pt);
	ok(fabs(pt.effect[WIRE_QD1].local - 2001000) < 1 && fabs(pt.effect[WIRE_QD1].remote - 2010000) < 1,
	   "QD1: the mean latency added on each side, in ns");
	is_str(pt.effect[WIRE_QD1].word, "passed through", "2010 us from the client against 2001 us locally: passed through");
	ok(fabs(pt.effect[WIRE_QD32].local - 0.84) < 1e-9 && fabs(pt.effect[WIRE_QD32].remote - 0.57) < 1e-9,
	   "QD32: the fraction of IOPS lost on each side");
	is_str(pt.effect[WIRE_QD32].word, "hidden", "57% lost from the client against 84% locally: hidden");
	is_str(pt.effect[WIRE_SEQ].word, "passed through", "58% against 60%: passed through");
	is_str(pt.sentence,
	       "a back end slower by 2000 us per command: QD1 +2001 us locally, +2010 us from the client (passed through); "
	       "QD32 IOPS -84% locally, -57% from the client (hidden in part by the path); 1 MiB bandwidth -60% "
	       "locally, -58% from the client (passed through)",
	       "the sentence: the delay, each workload's figures and word");

	/* the edges of "passed through": 25% either way */
	pt.local = side(1020, 50000, 2000);
	pt.remote = side(120 + 1000 * 1.24, 37000 * (1 - 0.5 * 0.76), 800 * (1 - 0.0499));
	ramdisk_wire_delay_judge(&bl, &br, 0, &pt);
	is_str(pt.effect[WIRE_QD1].word, "passed through", "124% of local's latency added: still passed through");
	is_str(pt.effect[WIRE_QD32].word, "passed through", "76% of local's IOPS lost: still passed through");
	is_str(pt.effect[WIRE_SEQ].word, "no effect", "under 5% lost on both sides: no effect");
	ok(strstr(pt.sentence, "(no effect)") != NULL, "and the sentence says so");
	pt.remote = side(120 + 1000 * 1.26, 37000 * (1 - 0.5 * 0.74), 800 * 0.5);
	ramdisk_wire_delay_judge(&bl, &br, 0, &pt);
	is_str(pt.effect[WIRE_QD1].word, "amplified", "126% of local's latency added: amplified");
	is_str(pt.effect[WIRE_QD32].word, "hidden", "74% of local's IOPS lost: hidden");
	is_str(pt.effect[WIRE_SEQ].word, "amplified", "no loss locally, half from the client: amplified");
	ok(strstr(pt.sentence, "(amplified by the path); QD32") != NULL, "amplified by the path, in the sentence");

	/* the client's queue bound by the path: the loss locally does not show */
	pt.local = side(520, 50000, 2000);
	pt.remote = side(124, 36500, 800);
	ramdisk_wire_delay_judge(&bl, &br, 0, &pt);
	is_str(pt.effect[WIRE_QD32].word, "hidden", "half the IOPS lost locally, 1% from the client: hidden");
	ok(strstr(pt.sentence, "QD32 IOPS -50% locally, -1% from the client (hidden by the path)") != NULL,
	   "hidden by the path, wholly");
	is_str(pt.effect[WIRE_QD1].word, "hidden", "500 us added locally, 4 us from the client: hidden");

	/* a disk made with a delay, measured at a shorter one: faster */
	struct wire_delay_point fast = { .ndelay_ns = 100000 };
	fast.local = side(100, 100000, 2000);
	fast.remote = side(200, 37000, 800);
	ramdisk_wire_delay_judge(&bl, &br, 500000, &fast);
	ok(starts(fast.sentence, "a back end faster by 400 us per command: QD1 +80 us locally, +80 us from"),
	   "against a disk made 500 us slow, 100 us is faster by 400 us");
	struct wire_delay_point small = { .ndelay_ns = 5500 };
	small.local = side(25.5, 100000, 2000);
	small.remote = side(125.6, 37000, 800);
	ramdisk_wire_delay_judge(&bl, &br, 0, &small);
	ok(starts(small.sentence, "a back end slower by 5.5 us per command: QD1 +5.5 us locally, +5.6 us from"),
	   "under 10 us with one decimal");
	ok(strstr(small.sentence, "QD32 IOPS +0% locally, +0% from the client (no effect)") != NULL, "no change: +0%");
	is_str(small.effect[WIRE_QD1].word, "passed through", "5.5 us is 27% of 20 us locally: an effect, passed through");
	small.local = side(20.5, 100000, 2000);
	ramdisk_wire_delay_judge(&bl, &br, 0, &small);
	is_str(small.effect[WIRE_QD1].word, "no effect", "0.5 us of 20 us locally, 5.6 us of 120 us from the client: no effect");
}

static void mkfile(const char *root, const char *rel, const char *text)
{
	char p[512], dir[512];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", p);
	*strrchr(dir, '/') = '\0';
	mkdir_p(dir, 0755);
	FILE *f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void attr(const char *root, const char *rel, char *buf, size_t len)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (read_small_file(p, buf, len) < 0)
		snprintf(buf, len, "(absent)");
}

static void test_set_ndelay(const char *sys)
{
	struct ramdisk_paths p = { .dev = "/nonexistent", .state = "/nonexistent", .sysfs = sys };
	char why[400] = "", buf[64];
	is_int(ramdisk_set_ndelay(&p, "null_blk", 2000000, true, why, sizeof(why)), -EOPNOTSUPP, "null_blk: refused");
	ok(strstr(why, "the null_blk backend fixes its per-command delay when the device is made") &&
	   strstr(why, "'iotriage ramdisk create --backend scsi_debug'"), "naming the backend and the way");
	is_int(ramdisk_set_ndelay(&p, "brd", 0, true, why, sizeof(why)), -EOPNOTSUPP, "brd: refused");
	ok(strstr(why, "the brd backend has no per-command delay") != NULL, "it has no delay at all");
	is_int(ramdisk_set_ndelay(&p, "zram", 0, true, why, sizeof(why)), -EOPNOTSUPP, "zram: refused");

	is_int(ramdisk_set_ndelay(&p, "scsi_debug", 2000000, true, why, sizeof(why)), -EPERM,
	       "scsi_debug not loaded: refused");
	mkfile(sys, "module/scsi_debug/parameters/inq_vendor", "Linux\n");
	mkfile(sys, "bus/pseudo/drivers/scsi_debug/ndelay", "0\n");
	mkfile(sys, "bus/pseudo/drivers/scsi_debug/delay", "0\n");
	is_int(ramdisk_set_ndelay(&p, "scsi_debug", 2000000, false, why, sizeof(why)), -EPERM,
	       "scsi_debug loaded by someone else: refused");
	ok(strstr(why, "not loaded by iotriage") != NULL, "saying so");
	attr(sys, "bus/pseudo/drivers/scsi_debug/ndelay", buf, sizeof(buf));
	is_str(buf, "0", "and its delay is untouched");

	mkfile(sys, "module/scsi_debug/parameters/inq_vendor", "IOTRIAGE\n");
	mkfile(sys, "bus/pseudo/drivers/scsi_debug/delay", "-9999\n");
	is_int(ramdisk_set_ndelay(&p, "scsi_debug", 2000000, true, why, sizeof(why)), 0, "loaded by iotriage: it can");
	attr(sys, "bus/pseudo/drivers/scsi_debug/ndelay", buf, sizeof(buf));
	is_str(buf, "0", "a check changes nothing");
	/* (a file here is not truncated by a write, as sysfs needs not be) */
	mkfile(sys, "bus/pseudo/drivers/scsi_debug/ndelay", "");
	is_int(ramdisk_set_ndelay(&p, "scsi_debug", 2000000, false, why, sizeof(why)), 0, "set to 2 ms");
	attr(sys, "bus/pseudo/drivers/scsi_debug/ndelay", buf, sizeof(buf));
	is_str(buf, "2000000", "ndelay written");
	attr(sys, "bus/pseudo/drivers/scsi_debug/delay", buf, sizeof(buf));
	is_str(buf, "-9999", "delay left to the module (ndelay overrides it)");
	mkfile(sys, "bus/pseudo/drivers/scsi_debug/ndelay", "");
	mkfile(sys, "bus/pseudo/drivers/scsi_debug/delay", "");
	is_int(ramdisk_set_ndelay(&p, "scsi_debug", 0, false, why, sizeof(why)), 0, "set back to 0");
	attr(sys, "bus/pseudo/drivers/scsi_debug/ndelay", buf, sizeof(buf));
	is_str(buf, "0", "ndelay 0");
	attr(sys, "bus/pseudo/drivers/scsi_debug/delay", buf, sizeof(buf));
	is_str(buf, "0", "and delay 0, not the module's one-jiffy default");
	is_int(ramdisk_set_ndelay(&p, "scsi_debug", 1000000000, false, why, sizeof(why)), -ERANGE, "1 s: out of range");
}

int main(void)
{
	test_judge();
	char tmp[] = "/tmp/iotriage-test-wire-delay.XXXXXX";
	ok(mkdtemp(tmp) != NULL, "temporary tree");
	char sys[256];
	snprintf(sys, sizeof(sys), "%s/sys", tmp);
	test_set_ndelay(sys);
	tap_remove_tree(tmp);
	return tap_done();
}
