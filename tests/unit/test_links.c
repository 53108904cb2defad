/* Port decoding from RTM_NEWLINK / RTM_NEWADDR messages built in memory,
 * and a live read of this namespace's ports (the loopback is always there). */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_link.h>
#include <string.h>
#include <sys/socket.h>

#include "net/links.h"
#include "net/netlink.h"
#include "tap.h"

struct msg {
	struct nlmsghdr h;
	char space[2048];
} __attribute__((aligned(NLMSG_ALIGNTO)));

static void test_decode_link(void)
{
	struct msg m;
	memset(&m, 0, sizeof(m));
	m.h.nlmsg_type = RTM_NEWLINK;
	m.h.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
	struct ifinfomsg *ifi = NLMSG_DATA(&m.h);
	ifi->ifi_index = 7;
	ifi->ifi_flags = IFF_UP | IFF_LOWER_UP;
	nl_add_attr(&m.h, sizeof(m), IFLA_IFNAME, "a0", 3);
	uint32_t mtu = 9000, master = 5;
	nl_add_attr(&m.h, sizeof(m), IFLA_MTU, &mtu, 4);
	nl_add_attr(&m.h, sizeof(m), IFLA_MASTER, &master, 4);
	unsigned char oper = 6; /* IF_OPER_UP */
	nl_add_attr(&m.h, sizeof(m), IFLA_OPERSTATE, &oper, 1);
	unsigned char mac[6] = { 0x02, 0x00, 0x5e, 0x10, 0x00, 0x01 };
	nl_add_attr(&m.h, sizeof(m), IFLA_ADDRESS, mac, 6);
	struct rtnl_link_stats64 st = { .rx_bytes = 1000, .tx_bytes = 2000, .rx_packets = 10, .tx_packets = 20 };
	nl_add_attr(&m.h, sizeof(m), IFLA_STATS64, &st, sizeof(st));
	/* IFLA_LINKINFO { IFLA_INFO_KIND "veth" } */
	char nested[32] __attribute__((aligned(4))) = { 0 };
	struct rtattr *kind = (struct rtattr *)nested;
	kind->rta_type = IFLA_INFO_KIND;
	kind->rta_len = RTA_LENGTH(5);
	memcpy(RTA_DATA(kind), "veth", 5);
	nl_add_attr(&m.h, sizeof(m), IFLA_LINKINFO | NLA_F_NESTED, nested, RTA_ALIGN(kind->rta_len));

	struct net_link l;
	is_int(links_decode_link(&m.h, &l), 0, "RTM_NEWLINK decoded");
	is_int(l.ifindex, 7, "ifindex");
	is_str(l.name, "a0", "name");
	is_int(l.mtu, 9000, "MTU");
	is_int(l.master, 5, "master (bond or bridge)");
	is_str(l.operstate, "up", "operstate");
	is_str(l.mac, "02:00:5e:10:00:01", "MAC");
	is_str(l.kind, "veth", "kind from the nested IFLA_LINKINFO (NLA_F_NESTED set)");
	is_int(l.c0.tx_bytes, 2000, "64-bit counters");
	is_int(l.speed_mbps, -1, "speed unknown until ethtool says");
	is_str(l.duplex, "unknown", "duplex unknown until ethtool says");
	struct nlmsghdr bad = { .nlmsg_type = RTM_NEWROUTE, .nlmsg_len = NLMSG_LENGTH(0) };
	is_int(links_decode_link(&bad, &l), -EINVAL, "not a link message");
	is_str(links_operstate_name(200), "unknown", "out-of-range operstate");
}

static void test_decode_addr(void)
{
	struct msg m;
	memset(&m, 0, sizeof(m));
	m.h.nlmsg_type = RTM_NEWADDR;
	m.h.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifaddrmsg));
	struct ifaddrmsg *ifa = NLMSG_DATA(&m.h);
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = 24;
	ifa->ifa_index = 7;
	struct in_addr a;
	inet_pton(AF_INET, "10.99.1.1", &a);
	nl_add_attr(&m.h, sizeof(m), IFA_LOCAL, &a, 4);
	struct net_addr out;
	int ifindex = 0;
	is_int(links_decode_addr(&m.h, &ifindex, &out), 0, "RTM_NEWADDR decoded");
	is_int(ifindex, 7, "its port");
	is_str(out.text, "10.99.1.1", "address");
	is_int(out.prefixlen, 24, "prefix length");
	ifa->ifa_family = AF_PACKET;
	is_int(links_decode_addr(&m.h, &ifindex, &out), -EAFNOSUPPORT, "other families refused");
}

static void test_live(void)
{
	struct net_links l;
	is_int(links_read(&l), 0, "this namespace's ports read");
	const struct net_link *lo = links_find_name(&l, "lo");
	ok(lo != NULL, "the loopback is among them");
	if (lo) {
		ok(lo->flags & IFF_LOOPBACK, "flagged loopback");
		is_int(lo->speed_mbps, -1, "a virtual port has no speed");
		is_str(lo->duplex, "unknown", "nor duplex");
		bool has127 = false;
		for (size_t i = 0; i < lo->naddrs; i++)
			has127 |= strcmp(lo->addrs[i].text, "127.0.0.1") == 0 && lo->addrs[i].prefixlen == 8;
		ok(has127 || !(lo->flags & IFF_UP), "127.0.0.1/8 on the loopback (when it is up)");
		ok(links_find(&l, lo->ifindex) == lo, "found again by ifindex");
	}
	is_int(links_read_counters(&l), 0, "counters read again");
	links_release(&l);
}

int main(void)
{
	test_decode_link();
	test_decode_addr();
	test_live();
	return tap_done();
}
