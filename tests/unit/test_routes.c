/* rtnetlink route decoding, built message by message in memory the way the
 * kernel lays them out (struct rtmsg + attributes, RTA_MULTIPATH's
 * rtnexthop list), then the judgements on the decoded table; and one live
 * dump of this machine's table (read-only). */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "net/netlink.h"
#include "net/routes.h"
#include "tap.h"

struct msg {
	struct nlmsghdr h;
	char space[1024];
} __attribute__((aligned(NLMSG_ALIGNTO)));

static struct nlmsghdr *route_msg(struct msg *m, int family, unsigned dst_len, unsigned table, unsigned type)
{
	memset(m, 0, sizeof(*m));
	m->h.nlmsg_type = RTM_NEWROUTE;
	m->h.nlmsg_len = NLMSG_LENGTH(sizeof(struct rtmsg));
	struct rtmsg *rtm = NLMSG_DATA(&m->h);
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = (unsigned char)dst_len;
	rtm->rtm_table = (unsigned char)table;
	rtm->rtm_type = (unsigned char)type;
	rtm->rtm_protocol = RTPROT_STATIC;
	return &m->h;
}

static void add_v4(struct nlmsghdr *h, unsigned short type, const char *text)
{
	struct in_addr a;
	inet_pton(AF_INET, text, &a);
	nl_add_attr(h, sizeof(struct msg), type, &a, 4);
}

static void add_u32(struct nlmsghdr *h, unsigned short type, uint32_t v)
{
	nl_add_attr(h, sizeof(struct msg), type, &v, 4);
}

/* A default IPv4 route via GW on port OIF with METRIC. */
static void add_default(struct net_routes *t, const char *gw, int oif, uint32_t metric)
{
	struct msg m;
	struct nlmsghdr *h = route_msg(&m, AF_INET, 0, RT_TABLE_MAIN, RTN_UNICAST);
	add_v4(h, RTA_GATEWAY, gw);
	add_u32(h, RTA_OIF, (uint32_t)oif);
	add_u32(h, RTA_PRIORITY, metric);
	add_u32(h, RTA_TABLE, RT_TABLE_MAIN);
	routes_decode(h, t);
}

static void add_connected(struct net_routes *t, const char *net, unsigned len, int oif)
{
	struct msg m;
	struct nlmsghdr *h = route_msg(&m, AF_INET, len, RT_TABLE_MAIN, RTN_UNICAST);
	add_v4(h, RTA_DST, net);
	add_u32(h, RTA_OIF, (uint32_t)oif);
	routes_decode(h, t);
}

static void test_decode(void)
{
	struct net_routes t = { 0 };
	struct msg m;
	char text[64];
	struct nlmsghdr *h = route_msg(&m, AF_INET, 0, RT_TABLE_MAIN, RTN_UNICAST);
	add_v4(h, RTA_GATEWAY, "10.0.1.254");
	add_u32(h, RTA_OIF, 2);
	add_u32(h, RTA_PRIORITY, 100);
	is_int(routes_decode(h, &t), 1, "a default route decodes to one route");
	ok(routes_is_default(&t.v[0]), "it is a default route");
	ok(t.v[0].has_gateway, "with a gateway");
	routes_format_addr(AF_INET, t.v[0].gateway, text, sizeof(text));
	is_str(text, "10.0.1.254", "gateway address");
	is_int(t.v[0].oif, 2, "output port");
	is_int(t.v[0].metric, 100, "metric from RTA_PRIORITY");
	routes_format_dst(&t.v[0], text, sizeof(text));
	is_str(text, "default", "shown as default");

	h = route_msg(&m, AF_INET, 24, RT_TABLE_MAIN, RTN_UNICAST);
	add_v4(h, RTA_DST, "10.0.1.0");
	add_u32(h, RTA_OIF, 2);
	is_int(routes_decode(h, &t), 1, "a connected route");
	routes_format_dst(&t.v[1], text, sizeof(text));
	is_str(text, "10.0.1.0/24", "shown with its prefix");
	ok(!t.v[1].has_gateway, "no gateway");

	h = route_msg(&m, AF_INET, 32, RT_TABLE_LOCAL, RTN_LOCAL);
	add_v4(h, RTA_DST, "10.0.1.1");
	is_int(routes_decode(h, &t), 0, "the local table is skipped");
	h = route_msg(&m, AF_INET, 0, RT_TABLE_UNSPEC, RTN_UNICAST);
	add_u32(h, RTA_TABLE, 200);
	is_int(routes_decode(h, &t), 0, "a table above 255 (RTA_TABLE) other than main is skipped");
	h = route_msg(&m, AF_INET, 32, RT_TABLE_MAIN, RTN_UNICAST);
	((struct rtmsg *)NLMSG_DATA(h))->rtm_flags = RTM_F_CLONED;
	add_v4(h, RTA_DST, "10.0.4.2");
	add_v4(h, RTA_GATEWAY, "10.0.1.254");
	is_int(routes_decode(h, &t), 0, "a cached exception (a learnt path MTU) is not a route");
	h = route_msg(&m, AF_INET, 0, RT_TABLE_MAIN, RTN_UNREACHABLE);
	is_int(routes_decode(h, &t), 0, "an unreachable-type route is skipped");
	struct nlmsghdr bad = { .nlmsg_type = RTM_NEWLINK, .nlmsg_len = NLMSG_LENGTH(0) };
	is_int(routes_decode(&bad, &t), -EINVAL, "not a route message");

	/* ip route add default nexthop via 10.0.1.254 dev 2 nexthop via 10.0.2.254 dev 3 */
	h = route_msg(&m, AF_INET, 0, RT_TABLE_MAIN, RTN_UNICAST);
	add_u32(h, RTA_PRIORITY, 50);
	char mp[64] __attribute__((aligned(4))) = { 0 };
	size_t off = 0;
	const char *gws[] = { "10.0.1.254", "10.0.2.254" };
	for (int i = 0; i < 2; i++) {
		struct rtnexthop *nh = (struct rtnexthop *)(mp + off);
		nh->rtnh_ifindex = 2 + i;
		nh->rtnh_len = (unsigned short)RTNH_LENGTH(RTA_SPACE(4));
		struct rtattr *a = RTNH_DATA(nh);
		a->rta_type = RTA_GATEWAY;
		a->rta_len = RTA_LENGTH(4);
		inet_pton(AF_INET, gws[i], RTA_DATA(a));
		off += RTNH_ALIGN(nh->rtnh_len);
	}
	nl_add_attr(h, sizeof(m), RTA_MULTIPATH, mp, off);
	size_t before = t.n;
	is_int(routes_decode(h, &t), 2, "a multipath route gives one route per next hop");
	ok(t.v[before].multipath && t.v[before + 1].multipath, "both marked multipath");
	is_int(t.v[before + 1].oif, 3, "second hop's port");
	routes_format_addr(AF_INET, t.v[before + 1].gateway, text, sizeof(text));
	is_str(text, "10.0.2.254", "second hop's gateway");
	is_int(t.v[before + 1].metric, 50, "the route's metric on each hop");
	routes_release(&t);
}

static void test_competing(void)
{
	struct net_routes t = { 0 };
	size_t groups[8][ROUTES_GROUP_MAX_MEMBERS], counts[8];
	add_connected(&t, "10.0.1.0", 24, 2);
	add_default(&t, "10.0.1.254", 2, 100);
	is_int(routes_competing_defaults(&t, groups, counts, 8), 0, "one default route: nothing competes");
	add_default(&t, "10.0.2.254", 3, 200);
	is_int(routes_competing_defaults(&t, groups, counts, 8), 0, "a second one of higher metric is a fallback");
	add_default(&t, "10.0.1.253", 2, 100);
	is_int(routes_competing_defaults(&t, groups, counts, 8), 0, "two of equal metric on the same port: not flagged");
	add_default(&t, "10.0.3.254", 4, 100);
	is_int(routes_competing_defaults(&t, groups, counts, 8), 1, "equal metric on another port: flagged");
	is_int(counts[0], 3, "the group names all three routes of metric 100");
	is_int(t.v[groups[0][2]].oif, 4, "including the one on port 4");
	routes_release(&t);
}

static void test_for_destination(void)
{
	struct net_routes t = { 0 };
	size_t idx[8];
	struct in_addr dst;
	add_connected(&t, "10.0.1.0", 24, 2);
	add_connected(&t, "10.0.2.0", 24, 3);
	add_default(&t, "10.0.1.254", 2, 100);
	add_default(&t, "10.0.2.254", 3, 100);
	add_default(&t, "10.0.2.253", 3, 50);
	inet_pton(AF_INET, "10.0.2.7", &dst);
	is_int(routes_for_destination(&t, dst, idx, 8), 1, "a neighbour leaves by its subnet's port only");
	is_int(t.v[idx[0]].oif, 3, "port 3");
	inet_pton(AF_INET, "192.0.2.1", &dst);
	is_int(routes_for_destination(&t, dst, idx, 8), 2, "a remote destination: one route per port");
	is_int(t.v[idx[1]].metric, 50, "the lowest metric on port 3");
	struct net_routes empty = { 0 };
	is_int(routes_for_destination(&empty, dst, idx, 8), 0, "no route at all");
	routes_release(&t);
}

static void test_live(void)
{
	struct net_routes t;
	int r = routes_read(&t);
	is_int(r, 0, "this machine's routes read with rtnetlink");
	bool all_main = true;
	for (size_t i = 0; i < t.n; i++)
		all_main &= t.v[i].table == RT_TABLE_MAIN && (t.v[i].family == AF_INET || t.v[i].family == AF_INET6);
	ok(all_main, "only main-table IPv4/IPv6 routes kept");
	routes_release(&t);
}

int main(void)
{
	test_decode();
	test_competing();
	test_for_destination();
	test_live();
	return tap_done();
}
