/* net/tcp_rtt.h: the network round trip to a TCP port, without ICMP: a
 * connect() returns when the peer's SYN-ACK arrives, one round trip after
 * the SYN left. The fastest of a few connects is the path's round trip
 * (the others carry scheduling noise). Each connection is closed at once. */
#ifndef IOTRIAGE_NET_TCP_RTT_H
#define IOTRIAGE_NET_TCP_RTT_H

#include <stddef.h>
#include <stdint.h>

/* TRIES connects to IPv4 ADDR:PORT, each given up after TIMEOUT_MS.
 * Returns 0 with the fastest in *RET_NS, or -errno with WHY. */
int tcp_connect_rtt(const char *addr, unsigned port, unsigned tries, int timeout_ms, uint64_t *ret_ns, char *why,
		    size_t len);

#endif
