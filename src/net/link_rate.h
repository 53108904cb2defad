/* net/link_rate.h: how fast the link under a path can carry data. The port
 * an address of this host is on (or the source address the kernel picks to
 * reach a destination, with a UDP connect that sends nothing), that port's
 * speed (ethtool, as net/links reads it), and the rate its root qdisc
 * shapes what it sends to: tbf's rate, or netem's rate (read with an
 * RTM_GETQDISC dump, never from tc's text).
 *
 * A veth reports a fixed 10000 Mb/s whatever carries it, so its speed is
 * taken as unknown, like a port whose driver reports none (virtio, tun,
 * the loopback). link_rate_decode_qdisc() is pure.
 */
#ifndef IOTRIAGE_NET_LINK_RATE_H
#define IOTRIAGE_NET_LINK_RATE_H

#include <linux/netlink.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct link_rate {
	bool found;              /* the port was found */
	char interface[IF_NAMESIZE];
	char kind[16];           /* IFLA_INFO_KIND ("veth", "bond", ...), "" for hardware */
	int64_t speed_mbps;      /* the port's speed, -1 when unknown */
	char qdisc[16];          /* the root qdisc's kind, "" when none could be read */
	uint64_t shaped_bps;     /* the rate it shapes sending to, bits/s; 0 when it does not */
};

/* One RTM_NEWQDISC message: its port, whether it is the root qdisc, its
 * kind, and the rate it shapes to in bytes/s (tbf: TCA_TBF_PARMS or
 * TCA_TBF_RATE64; netem: TCA_NETEM_RATE or TCA_NETEM_RATE64 after its
 * tc_netem_qopt; 0 for other kinds or no rate). 0 or -EINVAL. */
int link_rate_decode_qdisc(const struct nlmsghdr *h, int *ret_ifindex, bool *ret_root, char *kind, size_t klen,
			   uint64_t *ret_bytes_per_s);

/* The IPv4 source address this host would send from to reach DST. 0 or
 * -errno with WHY. */
int link_rate_source_addr(const char *dst, char *buf, size_t len, char *why, size_t wlen);

/* The port holding local IPv4 address ADDR, its speed and its root qdisc's
 * rate. 0 with *RET (found), or -errno with WHY. */
int link_rate_of_addr(const char *addr, struct link_rate *ret, char *why, size_t len);

#endif
