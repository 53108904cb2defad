/* net/iperf3: iperf3 3.12's JSON report (captured in two network
 * namespaces over a veth: tests/data/iperf3_312_*_captured.json). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "net/iperf3.h"
#include "tap.h"
#include "test_data.h"

int main(void)
{
	struct iperf3_result r;
	char why[256];
	const char *text = test_data("iperf3_312_single_captured.json", NULL);
	is_int(iperf3_parse(text, &r, why, sizeof(why)), 0, "a single-stream report parses");
	is_int(r.streams, 1, "one stream");
	ok(fabs(r.received_bps - 5979845098.573045) < 1, "the received rate in bits per second");
	is_int((long long)r.received_bytes, 1496317952LL, "the received bytes");
	is_int(r.retransmits, 1, "the sender's retransmits");
	is_str(r.local_host, "10.99.0.1", "the address it left from (-B)");
	is_str(r.remote_host, "10.99.0.2", "and the server's");
	is_str(r.version, "iperf 3.12", "iperf3's version");
	ok(r.seconds > 1.9 && r.seconds < 2.1, "over the run's seconds");
	text = test_data("iperf3_312_parallel4_captured.json", NULL);
	is_int(iperf3_parse(text, &r, why, sizeof(why)), 0, "a four-stream report parses");
	is_int(r.streams, 4, "four streams");
	ok(fabs(r.received_bps - 3770958306.2714767) < 1, "their sum");
	text = test_data("iperf3_312_refused_captured.json", NULL);
	is_int(iperf3_parse(text, &r, why, sizeof(why)), -EIO, "a refused connection is iperf3's error");
	is_str(why, "unable to connect to server: Connection refused", "in iperf3's words");
	is_int(iperf3_parse("iperf3: error - unable to connect\n", &r, why, sizeof(why)), -EINVAL, "no JSON");
	is_int(iperf3_parse("{\"start\": {}, \"end\": {}}", &r, why, sizeof(why)), -EINVAL, "no received total");
	ok(strstr(why, "sum_received") != NULL, "is said");
	ok(iperf3_server_ready("-----------\r\nServer listening on 5201 (test #1)\r\n"), "the server's readiness line");
	ok(!iperf3_server_ready("iperf3: error - unable to start listener"), "and not an error");
	return tap_done();
}
