/* net/probe.h: ICMP echo probes from one port to one IPv4 destination, in
 * process: reachability, loss and round-trip time, and don't-fragment
 * probes of a given size for the jumbo-frame check.
 *
 * A probe socket is a raw ICMP socket (root) or, failing that, an
 * unprivileged ping socket (net.ipv4.ping_group_range), bound to the port
 * with SO_BINDTODEVICE so that the probe leaves by that port, and connected
 * to the destination. Don't-fragment probes use IP_PMTUDISC_PROBE: DF is
 * set and the kernel's cached path MTU is ignored, so every probe really
 * tests the path instead of being refused from the cache. ICMP errors (a
 * router's "fragmentation needed" with its next-hop MTU, "host
 * unreachable") arrive through IP_RECVERR.
 *
 * Sizes are IP packet sizes (what an MTU limits): an echo request of SIZE
 * bytes carries SIZE - 28 bytes of payload (ping -s SIZE-28).
 */
#ifndef IOTRIAGE_NET_PROBE_H
#define IOTRIAGE_NET_PROBE_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROBE_MIN_SIZE 36        /* IP + ICMP headers + 8 bytes */
#define PROBE_MAX_SIZE 65535
#define PROBE_SMALL_SIZE 84      /* ping's default: 56 bytes of payload */

struct probe_sock {
	int fd;
	bool raw;                /* raw socket (else a ping socket) */
	uint16_t id;
	uint16_t seq;
	struct in_addr dst;
	char ifname[IF_NAMESIZE];
};

struct probe_stats {
	unsigned sent;
	unsigned received;
	unsigned errors;         /* ICMP errors and local send errors */
	uint64_t rtt_min_ns, rtt_max_ns, rtt_sum_ns;
	int last_error;          /* -errno of the last error (-EMSGSIZE, -EHOSTUNREACH...), 0 */
	bool error_from_icmp;    /* last_error came in an ICMP message (else: local) */
	char error_from[16];     /* the address that sent it */
	unsigned frag_needed_mtu; /* a router's "fragmentation needed" next-hop MTU, 0 */
};

/* Opens a probe socket bound to IFNAME ("" for none) towards DST.
 * Returns 0 or -errno (-EPERM: neither raw nor ping sockets are allowed). */
int probe_open(struct probe_sock *p, const char *ifname, struct in_addr dst);
void probe_close(struct probe_sock *p);

/* Sends COUNT echo requests of SIZE bytes, INTERVAL_MS apart, with DF set
 * when DF, and collects replies until TIMEOUT_MS after the last (or until
 * every one is answered). With STOP_ON_REPLY, stops sending at the first
 * reply or ICMP error (a pass/fail test). Returns 0 (RET filled, whatever
 * the loss) or -errno when the socket itself failed; -EINTR when
 * interrupted. */
int probe_ping(struct probe_sock *p, unsigned count, unsigned interval_ms, unsigned timeout_ms, size_t size,
	       bool df, bool stop_on_reply, struct probe_stats *ret);

static inline double probe_loss_percent(const struct probe_stats *s)
{
	return s->sent ? 100.0 * (s->sent - s->received) / s->sent : 100.0;
}

/* Bisection for the largest size that passes, given that LO passes and HI
 * fails (LO < HI). PASSES is asked about sizes strictly between them; a
 * negative answer (-errno) stops the search and is returned. Returns the
 * largest passing size (>= LO). */
typedef int (*probe_pass_fn)(size_t size, void *arg); /* 1 passes, 0 fails, -errno */
long probe_bisect(size_t lo, size_t hi, probe_pass_fn passes, void *arg, unsigned *ret_steps);

#endif
