/* remote/remote_read: another host's readdisk document read back into one
 * disk's figures, on documents captured from a real fleet run (the golden
 * run, tests/data/golden/fleet.json: host h3's readdisk of its loop device,
 * tests/data/readdisk_remote_captured.json, and host hf's failed one,
 * readdisk_remote_failed_captured.json) and on broken ones. */
#include <errno.h>
#include <string.h>

#include "remote/remote_read.h"
#include "tap.h"
#include "test_data.h"

#define DISK "/run/itf10886/disk"

static void test_captured(void)
{
	const char *doc = test_data("readdisk_remote_captured.json", NULL);
	struct remote_read r;
	char why[256] = "";
	is_int(remote_read_parse(doc, DISK, &r, why, sizeof(why)), 0, "the captured document is read");
	is_str(r.status, "ok", "its read is ok");
	is_str(r.kname, "loop17", "the device's kernel name there");
	is_str(r.transport, "loop", "its transport");
	ok(r.bytes == 16ULL << 20 && r.requested == 16ULL << 20, "16 MiB read, as asked");
	ok(r.seconds > 0.33 && r.seconds < 0.34, "in its 0.33 s");
	is_str(r.engine, "psync", "by its engine");
	is_int(r.iodepth, 1, "at queue depth 1");
	ok(r.has_lat && r.lat.count == 16, "its latency: 16 reads");
	ok(r.lat.p99 == 122159103 && r.lat.max == 122373333 && r.lat.min == 511328, "p99, max and min as given");
	ok(r.size_bytes == 64ULL << 20 && r.logical_block_size == 512, "its size and sector");
	is_str(r.failure, "", "no failure");
	is_str(r.reason, "", "no reason");
	is_int(remote_read_parse(doc, "/dev/other", &r, why, sizeof(why)), 0, "one entry: taken whatever its path");

	const char *failed = test_data("readdisk_remote_failed_captured.json", NULL);
	is_int(remote_read_parse(failed, DISK, &r, why, sizeof(why)), 0, "a captured failed read is read");
	is_str(r.status, "error", "as an error");
	is_str(r.reason, "'" DISK "' is not a block device", "with its reason");
	ok(r.bytes == 0 && !r.has_lat, "and no figures");
}

static void test_broken(void)
{
	struct remote_read r;
	char why[256] = "";
	is_int(remote_read_parse("not json", "/dev/x", &r, why, sizeof(why)), -EINVAL, "not JSON");
	ok(strstr(why, "not JSON") != NULL, "said");
	is_int(remote_read_parse("{\"devices\":[]}", "/dev/x", &r, why, sizeof(why)), -EINVAL, "no devices");
	ok(strstr(why, "no read of /dev/x") != NULL, "said");
	is_int(remote_read_parse("{\"devices\":[{\"path\":\"/dev/x\",\"status\":\"ok\",\"bytes\":0}]}", "/dev/x", &r, why,
				 sizeof(why)), -EINVAL, "an ok read without figures");
	is_int(remote_read_parse("{\"devices\":[{\"path\":\"/dev/x\",\"status\":\"weird\"}]}", "/dev/x", &r, why,
				 sizeof(why)), -EINVAL, "an unknown status");
	const char *failed = "{\"devices\":[{\"path\":\"/dev/a\",\"status\":\"ok\",\"bytes\":1,\"seconds\":1},"
			     "{\"path\":\"/dev/x\",\"status\":\"error\",\"reason\":\"no response in 30 s\",\"bytes\":4096,"
			     "\"failure\":{\"kind\":\"no_response\",\"offset_bytes\":4096,\"timeout_seconds\":30}}]}";
	is_int(remote_read_parse(failed, "/dev/x", &r, why, sizeof(why)), 0, "a failed read among others");
	is_str(r.status, "error", "its status");
	is_str(r.failure, "no_response", "its failure's kind");
	ok(r.error_offset == 4096 && r.timeout_s == 30, "where and after how long");
	is_str(r.reason, "no response in 30 s", "its reason");
	const char *disorder = "{\"devices\":[{\"path\":\"/dev/x\",\"status\":\"ok\",\"bytes\":1,\"seconds\":1,"
			       "\"lat_ns\":{\"count\":3,\"min\":5,\"p50\":4,\"p90\":3,\"p99\":2,\"max\":1}}]}";
	is_int(remote_read_parse(disorder, "/dev/x", &r, why, sizeof(why)), 0, "percentiles out of order");
	ok(!r.has_lat, "are not kept");
}

int main(void)
{
	test_captured();
	test_broken();
	return tap_done();
}
