/* triage/media/read_remote: another host's read, as its document gives it
 * (the golden fleet run's h3, tests/data/readdisk_remote_captured.json),
 * made into a batch entry: the rate and the p99 the verdict judges are the
 * host's own. */
#include <math.h>
#include <string.h>

#include "media/readtest.h"
#include "remote/remote_read.h"
#include "tap.h"
#include "test_data.h"
#include "triage/media/read_remote.h"
#include "triage/media/read_verdict.h"

int main(void)
{
	struct remote_read rr;
	char why[256];
	is_int(remote_read_parse(test_data("readdisk_remote_captured.json", NULL), NULL, &rr, why, sizeof(why)), 0,
	       "the captured document");
	struct disk_read d = { .status = READTEST_OK };
	snprintf(d.host, sizeof(d.host), "h3");
	snprintf(d.info.kname, sizeof(d.info.kname), "osd.2");
	read_remote_fill(&d, &rr);
	is_int(d.status, READTEST_OK, "an ok read");
	ok(d.res != NULL, "with a result");
	ok(fabs(disk_read_figure(&d) - 16777216.0 / 0.333749621) < 1, "its rate: the host's bytes over its seconds");
	ok(d.res->lat_read.count == 16, "its 16 reads");
	double p99 = (double)hist_percentile(&d.res->lat_read, 99), p50 = (double)hist_percentile(&d.res->lat_read, 50);
	ok(fabs(p99 - 122159103.0) / 122159103.0 < 0.02, "its p99 the host's, within a bucket (1.6%)");
	ok(fabs(p50 - 2342911.0) / 2342911.0 < 0.02, "its p50 too");
	ok(fabs(hist_mean(&d.res->lat_read) - 20857784.6) / 20857784.6 < 0.001, "its mean kept");
	ok(d.res->lat_read.min == 511328 && d.res->lat_read.max == 122373333, "its min and max");
	is_str(d.res->engine->name, "psync", "the host's engine");
	is_str(d.info.kname, "osd.2", "named as the pool names it, not by its kernel name there");
	is_str(d.info.transport, "loop", "its identity from the host");
	ok(d.info.size_bytes == 64ULL << 20, "its size");
	is_str(d.reason, "", "no reason");
	disk_read_release(&d);

	is_int(remote_read_parse(test_data("readdisk_remote_failed_captured.json", NULL), NULL, &rr, why, sizeof(why)),
	       0, "a captured failed read");
	struct disk_read f = { .status = READTEST_OK };
	snprintf(f.host, sizeof(f.host), "hf");
	read_remote_fill(&f, &rr);
	is_int(f.status, READTEST_ERROR, "fails the entry");
	is_str(f.reason, "on host hf: '/run/itf10886/disk' is not a block device", "with the host named");
	is_int(read_verdict_kind_of_status(&f), VERDICT_NOT_READ, "not read: never the disk's fault");
	disk_read_release(&f);
	return tap_done();
}
