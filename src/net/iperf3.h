/* net/iperf3.h: what one iperf3 client run measured, from its JSON report
 * (`iperf3 -c ADDR -J`, iperf 3.x), and the server's readiness line.
 *
 * Pure: iperf3_parse() takes the text, so it is tested on captured output
 * (tests/data/iperf3_*_captured.json). The figures are the run's totals
 * over every stream ("end.sum_sent", "end.sum_received"): bits per second
 * as iperf3 counts them (payload, 10^6 per Mbit/s), bytes and seconds. The
 * received figure is what crossed the path; the sent one includes what was
 * still in flight when the run ended. A run iperf3 could not make (server
 * refused, unreachable, busy) carries its own "error" text: that is the
 * reason returned.
 */
#ifndef IOTRIAGE_NET_IPERF3_H
#define IOTRIAGE_NET_IPERF3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct iperf3_result {
	unsigned streams;           /* connected streams (start.connected) */
	char local_host[46];        /* of the first stream: the address the run left from */
	char remote_host[46];
	double seconds;             /* of the received sum */
	uint64_t sent_bytes, received_bytes;
	double sent_bps, received_bps; /* bits per second */
	int64_t retransmits;        /* -1 when not reported (not Linux, or UDP) */
	char version[32];           /* "iperf 3.12" */
};

/* Parses iperf3's JSON report TEXT. Returns 0; -EIO when iperf3 reported
 * an error (WHY holds its words: "unable to connect to server: Connection
 * refused"); -EINVAL when TEXT is not such a report or holds no received
 * figure (WHY says which). */
int iperf3_parse(const char *text, struct iperf3_result *ret, char *why, size_t len);

/* Whether the server's output TEXT says it is listening
 * ("Server listening on 5201"). */
bool iperf3_server_ready(const char *text);

#endif
