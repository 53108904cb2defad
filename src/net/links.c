#include "net/links.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/sockios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "basic/strbuf.h"
#include "net/netlink.h"

const char *links_operstate_name(unsigned state)
{
	static const char *const names[] = { "unknown", "notpresent", "down", "lowerlayerdown",
					     "testing", "dormant", "up" };
	return state < ARRAY_SIZE(names) ? names[state] : "unknown";
}

static void counters_from_attrs(const struct rtattr *const *tb, struct link_counters *c)
{
	memset(c, 0, sizeof(*c));
	if (tb[IFLA_STATS64] && nl_attr_len(tb[IFLA_STATS64]) >= sizeof(struct rtnl_link_stats64)) {
		struct rtnl_link_stats64 s;
		memcpy(&s, nl_attr_data(tb[IFLA_STATS64]), sizeof(s));
		*c = (struct link_counters){ s.rx_bytes, s.tx_bytes, s.rx_packets, s.tx_packets,
					     s.rx_errors, s.tx_errors, s.rx_dropped, s.tx_dropped };
	} else if (tb[IFLA_STATS] && nl_attr_len(tb[IFLA_STATS]) >= sizeof(struct rtnl_link_stats)) {
		struct rtnl_link_stats s;
		memcpy(&s, nl_attr_data(tb[IFLA_STATS]), sizeof(s));
		*c = (struct link_counters){ s.rx_bytes, s.tx_bytes, s.rx_packets, s.tx_packets,
					     s.rx_errors, s.tx_errors, s.rx_dropped, s.tx_dropped };
	}
}

int links_decode_link(const struct nlmsghdr *h, struct net_link *ret)
{
	if (h->nlmsg_type != RTM_NEWLINK || h->nlmsg_len < NLMSG_LENGTH(sizeof(struct ifinfomsg)))
		return -EINVAL;
	const struct ifinfomsg *ifi = NLMSG_DATA(h);
	const struct rtattr *tb[IFLA_MAX + 1];
	nl_parse_attrs(IFLA_RTA(ifi), h->nlmsg_len - NLMSG_LENGTH(sizeof(*ifi)), tb, IFLA_MAX);
	memset(ret, 0, sizeof(*ret));
	ret->ifindex = ifi->ifi_index;
	ret->flags = ifi->ifi_flags;
	nl_attr_str(tb[IFLA_IFNAME], ret->name, sizeof(ret->name));
	ret->mtu = nl_attr_u32(tb[IFLA_MTU], 0);
	ret->master = (int)nl_attr_u32(tb[IFLA_MASTER], 0);
	unsigned oper = tb[IFLA_OPERSTATE] && nl_attr_len(tb[IFLA_OPERSTATE]) >= 1
				? *(const unsigned char *)nl_attr_data(tb[IFLA_OPERSTATE])
				: 0;
	snprintf(ret->operstate, sizeof(ret->operstate), "%s", links_operstate_name(oper));
	if (tb[IFLA_ADDRESS] && nl_attr_len(tb[IFLA_ADDRESS]) == 6) {
		const unsigned char *m = nl_attr_data(tb[IFLA_ADDRESS]);
		snprintf(ret->mac, sizeof(ret->mac), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3],
			 m[4], m[5]);
	}
	if (tb[IFLA_LINKINFO]) {
		const struct rtattr *info[IFLA_INFO_MAX + 1];
		nl_parse_attrs(nl_attr_data(tb[IFLA_LINKINFO]), nl_attr_len(tb[IFLA_LINKINFO]), info, IFLA_INFO_MAX);
		nl_attr_str(info[IFLA_INFO_KIND], ret->kind, sizeof(ret->kind));
	}
	counters_from_attrs(tb, &ret->c0);
	ret->c1 = ret->c0;
	ret->speed_mbps = -1;
	snprintf(ret->duplex, sizeof(ret->duplex), "unknown");
	return 0;
}

int links_decode_addr(const struct nlmsghdr *h, int *ret_ifindex, struct net_addr *ret)
{
	if (h->nlmsg_type != RTM_NEWADDR || h->nlmsg_len < NLMSG_LENGTH(sizeof(struct ifaddrmsg)))
		return -EINVAL;
	const struct ifaddrmsg *ifa = NLMSG_DATA(h);
	if (ifa->ifa_family != AF_INET && ifa->ifa_family != AF_INET6)
		return -EAFNOSUPPORT;
	const struct rtattr *tb[IFA_MAX + 1];
	nl_parse_attrs(IFA_RTA(ifa), h->nlmsg_len - NLMSG_LENGTH(sizeof(*ifa)), tb, IFA_MAX);
	/* IFA_LOCAL is the address on point-to-point links; IFA_ADDRESS elsewhere. */
	const struct rtattr *a = tb[IFA_LOCAL] ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
	size_t want = ifa->ifa_family == AF_INET ? 4 : 16;
	if (!a || nl_attr_len(a) < want)
		return -EINVAL;
	memset(ret, 0, sizeof(*ret));
	ret->family = ifa->ifa_family;
	ret->prefixlen = ifa->ifa_prefixlen;
	if (!inet_ntop(ifa->ifa_family, nl_attr_data(a), ret->text, sizeof(ret->text)))
		return -EINVAL;
	*ret_ifindex = (int)ifa->ifa_index;
	return 0;
}

static int add_link(const struct nlmsghdr *h, void *arg)
{
	struct net_links *l = arg;
	struct net_link link;
	if (links_decode_link(h, &link) < 0)
		return 0;
	struct net_link *grown = xreallocarray(l->v, l->n + 1, sizeof(*grown));
	l->v = grown;
	l->v[l->n++] = link;
	return 0;
}

static int add_addr(const struct nlmsghdr *h, void *arg)
{
	struct net_links *l = arg;
	struct net_addr a;
	int ifindex;
	if (links_decode_addr(h, &ifindex, &a) < 0)
		return 0;
	struct net_link *link = (struct net_link *)links_find(l, ifindex);
	if (!link)
		return 0;
	struct net_addr *grown = xreallocarray(link->addrs, link->naddrs + 1, sizeof(*grown));
	link->addrs = grown;
	link->addrs[link->naddrs++] = a;
	return 0;
}

static int update_counters(const struct nlmsghdr *h, void *arg)
{
	struct net_links *l = arg;
	struct net_link fresh;
	if (links_decode_link(h, &fresh) < 0)
		return 0;
	struct net_link *link = (struct net_link *)links_find(l, fresh.ifindex);
	if (link)
		link->c1 = fresh.c0;
	return 0;
}

/* Speed and duplex with ETHTOOL_GLINKSETTINGS: the first call with no mask
 * words makes the kernel say how many it wants (as a negative count). */
static void read_link_settings(int fd, struct net_link *link)
{
	struct {
		struct ethtool_link_settings req;
		uint32_t masks[3 * 127];
	} ecmd;
	struct ifreq ifr;
	memset(&ecmd, 0, sizeof(ecmd));
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", link->name);
	ifr.ifr_data = (void *)&ecmd;
	ecmd.req.cmd = ETHTOOL_GLINKSETTINGS;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0 || ecmd.req.link_mode_masks_nwords >= 0)
		return;
	int8_t words = (int8_t)-ecmd.req.link_mode_masks_nwords;
	if (words <= 0)
		return;
	memset(&ecmd, 0, sizeof(ecmd));
	ecmd.req.cmd = ETHTOOL_GLINKSETTINGS;
	ecmd.req.link_mode_masks_nwords = words;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		return;
	if (ecmd.req.speed != (uint32_t)SPEED_UNKNOWN && ecmd.req.speed != 0)
		link->speed_mbps = ecmd.req.speed;
	if (ecmd.req.duplex == DUPLEX_FULL)
		snprintf(link->duplex, sizeof(link->duplex), "full");
	else if (ecmd.req.duplex == DUPLEX_HALF)
		snprintf(link->duplex, sizeof(link->duplex), "half");
}

int links_read(struct net_links *ret)
{
	*ret = (struct net_links){ .n = 0 };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	int r = nl_dump(RTM_GETLINK, &ifi, sizeof(ifi), add_link, ret);
	if (r == 0) {
		struct ifaddrmsg ifa = { .ifa_family = AF_UNSPEC };
		r = nl_dump(RTM_GETADDR, &ifa, sizeof(ifa), add_addr, ret);
	}
	if (r < 0) {
		links_release(ret);
		return r;
	}
	_cleanup_close_ int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	for (size_t i = 0; fd >= 0 && i < ret->n; i++)
		if (ret->v[i].flags & IFF_UP) /* a port that is down has no speed */
			read_link_settings(fd, &ret->v[i]);
	return 0;
}

int links_read_counters(struct net_links *l)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	return nl_dump(RTM_GETLINK, &ifi, sizeof(ifi), update_counters, l);
}

const struct net_link *links_find(const struct net_links *l, int ifindex)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].ifindex == ifindex)
			return &l->v[i];
	return NULL;
}

const struct net_link *links_find_name(const struct net_links *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

void links_release(struct net_links *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].addrs);
	free(l->v);
	*l = (struct net_links){ .n = 0 };
}
