/* net/links.h: the machine's ports (network interfaces) as rtnetlink shows
 * them, in the current network namespace: name, kind (veth, bridge, bond...),
 * master (a bond or bridge the port belongs to), state, MTU, MAC, IPv4/IPv6
 * addresses and traffic counters; speed and duplex from the ethtool ioctl
 * where the driver knows them (-1 / "unknown" where it does not).
 *
 * links_decode_link() and links_decode_addr() are pure: they turn one
 * RTM_NEWLINK / RTM_NEWADDR message into fields, and tests feed them messages
 * built in memory. links_read() does the dumps and the ioctls.
 */
#ifndef IOTRIAGE_NET_LINKS_H
#define IOTRIAGE_NET_LINKS_H

#include <linux/netlink.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* glibc's <net/if.h> stops at IFF_DYNAMIC; the kernel's carrier flag: */
#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP 0x10000
#endif

struct net_addr {
	int family;              /* AF_INET or AF_INET6 */
	char text[46];           /* "10.0.0.1", "fe80::1" */
	unsigned prefixlen;
};

struct link_counters {
	uint64_t rx_bytes, tx_bytes, rx_packets, tx_packets, rx_errors, tx_errors, rx_dropped, tx_dropped;
};

struct net_link {
	int ifindex;
	char name[IF_NAMESIZE];
	char kind[16];           /* IFLA_INFO_KIND: "veth", "bridge", "bond", "" for hardware */
	int master;              /* ifindex of the bond or bridge it is enslaved to, 0 for none */
	unsigned flags;          /* IFF_UP, IFF_LOWER_UP, IFF_LOOPBACK... */
	char operstate[16];      /* "up", "down", "lowerlayerdown", "unknown", ... */
	unsigned mtu;
	char mac[18];
	int64_t speed_mbps;      /* -1 when unknown */
	char duplex[8];          /* "full", "half", "unknown" */
	struct net_addr *addrs;
	size_t naddrs;
	struct link_counters c0, c1; /* at the start and the end of the window */
};

struct net_links {
	struct net_link *v;
	size_t n;
};

/* Decodes an RTM_NEWLINK message into RET (addresses untouched, counters
 * into RET->c0). Returns 0 or -EINVAL for a message that is not one. */
int links_decode_link(const struct nlmsghdr *h, struct net_link *ret);
/* Decodes an RTM_NEWADDR message: the interface it belongs to and the
 * address. Returns 0, or -EINVAL / -EAFNOSUPPORT (not IPv4 or IPv6). */
int links_decode_addr(const struct nlmsghdr *h, int *ret_ifindex, struct net_addr *ret);
/* The operstate name for IF_OPER_* (IFLA_OPERSTATE). */
const char *links_operstate_name(unsigned state);

/* Every port with its addresses, speed and duplex; counters in c0.
 * Returns 0 or -errno. */
int links_read(struct net_links *ret);
/* Reads the counters again into c1 for every port still present (a port
 * that vanished keeps c1 = c0). Returns 0 or -errno. */
int links_read_counters(struct net_links *l);
const struct net_link *links_find(const struct net_links *l, int ifindex);
const struct net_link *links_find_name(const struct net_links *l, const char *name);
void links_release(struct net_links *l);

#endif
