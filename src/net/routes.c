#include "net/routes.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "basic/strbuf.h"
#include "net/netlink.h"

static int append(struct net_routes *ret, const struct net_route *route)
{
	struct net_route *grown = xreallocarray(ret->v, ret->n + 1, sizeof(*grown));
	ret->v = grown;
	ret->v[ret->n++] = *route;
	return 0;
}

static void copy_addr(const struct rtattr *a, size_t alen, unsigned char *out, bool *ret_set)
{
	if (a && nl_attr_len(a) >= alen) {
		memcpy(out, nl_attr_data(a), alen);
		if (ret_set)
			*ret_set = true;
	}
}

int routes_decode(const struct nlmsghdr *h, struct net_routes *ret)
{
	if (h->nlmsg_type != RTM_NEWROUTE || h->nlmsg_len < NLMSG_LENGTH(sizeof(struct rtmsg)))
		return -EINVAL;
	const struct rtmsg *rtm = NLMSG_DATA(h);
	if (rtm->rtm_family != AF_INET && rtm->rtm_family != AF_INET6)
		return 0;
	const struct rtattr *tb[RTA_MAX + 1];
	nl_parse_attrs(RTM_RTA(rtm), h->nlmsg_len - NLMSG_LENGTH(sizeof(*rtm)), tb, RTA_MAX);
	uint32_t table = nl_attr_u32(tb[RTA_TABLE], rtm->rtm_table);
	/* RTM_F_CLONED: a cached exception (a path MTU learnt from a router's
	 * "fragmentation needed", a redirect), not a configured route. */
	if (table != RT_TABLE_MAIN || rtm->rtm_type != RTN_UNICAST || (rtm->rtm_flags & RTM_F_CLONED))
		return 0;
	size_t alen = rtm->rtm_family == AF_INET ? 4 : 16;
	struct net_route base = {
		.family = rtm->rtm_family,
		.dst_len = rtm->rtm_dst_len,
		.oif = (int)nl_attr_u32(tb[RTA_OIF], 0),
		.metric = nl_attr_u32(tb[RTA_PRIORITY], 0),
		.table = table,
		.protocol = rtm->rtm_protocol,
		.scope = rtm->rtm_scope,
		.type = rtm->rtm_type,
	};
	copy_addr(tb[RTA_DST], alen, base.dst, NULL);
	copy_addr(tb[RTA_GATEWAY], alen, base.gateway, &base.has_gateway);
	if (!tb[RTA_MULTIPATH]) {
		int r = append(ret, &base);
		return r < 0 ? r : 1;
	}
	/* One struct rtnexthop per next hop, each followed by its own attributes. */
	int added = 0;
	const char *p = nl_attr_data(tb[RTA_MULTIPATH]);
	size_t left = nl_attr_len(tb[RTA_MULTIPATH]);
	while (left >= sizeof(struct rtnexthop)) {
		const struct rtnexthop *nh = (const struct rtnexthop *)p;
		if (nh->rtnh_len < sizeof(*nh) || nh->rtnh_len > left)
			break;
		struct net_route hop = base;
		hop.multipath = true;
		hop.oif = nh->rtnh_ifindex;
		hop.has_gateway = false;
		memset(hop.gateway, 0, sizeof(hop.gateway));
		const struct rtattr *ntb[RTA_MAX + 1];
		nl_parse_attrs(RTNH_DATA(nh), nh->rtnh_len - RTNH_LENGTH(0), ntb, RTA_MAX);
		copy_addr(ntb[RTA_GATEWAY], alen, hop.gateway, &hop.has_gateway);
		int r = append(ret, &hop);
		if (r < 0)
			return r;
		added++;
		size_t step = RTNH_ALIGN(nh->rtnh_len);
		if (step >= left)
			break;
		left -= step;
		p += step;
	}
	return added;
}

static int add_route(const struct nlmsghdr *h, void *arg)
{
	int r = routes_decode(h, arg);
	return r == -EINVAL ? 0 : (r < 0 ? r : 0);
}

int routes_read(struct net_routes *ret)
{
	*ret = (struct net_routes){ .n = 0 };
	struct rtmsg rtm = { .rtm_family = AF_UNSPEC };
	int r = nl_dump(RTM_GETROUTE, &rtm, sizeof(rtm), add_route, ret);
	if (r < 0)
		routes_release(ret);
	return r;
}

void routes_release(struct net_routes *r)
{
	free(r->v);
	*r = (struct net_routes){ .n = 0 };
}

void routes_format_addr(int family, const unsigned char *addr, char *buf, size_t len)
{
	char text[INET6_ADDRSTRLEN];
	if (!inet_ntop(family, addr, text, sizeof(text)))
		snprintf(text, sizeof(text), "?");
	snprintf(buf, len, "%s", text);
}

void routes_format_dst(const struct net_route *r, char *buf, size_t len)
{
	if (routes_is_default(r)) {
		snprintf(buf, len, "default");
		return;
	}
	char text[INET6_ADDRSTRLEN];
	routes_format_addr(r->family, r->dst, text, sizeof(text));
	snprintf(buf, len, "%s/%u", text, r->dst_len);
}

size_t routes_competing_defaults(const struct net_routes *r, size_t (*groups)[ROUTES_GROUP_MAX_MEMBERS], size_t *counts,
				 size_t max_groups)
{
	size_t ngroups = 0;
	for (size_t i = 0; i < r->n && ngroups < max_groups; i++) {
		const struct net_route *a = &r->v[i];
		if (!routes_is_default(a))
			continue;
		/* Start a group at the first default route of its (family, metric). */
		bool seen = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = routes_is_default(&r->v[k]) && r->v[k].family == a->family &&
			       r->v[k].metric == a->metric;
		if (seen)
			continue;
		size_t n = 0;
		bool other_port = false;
		for (size_t k = i; k < r->n && n < ROUTES_GROUP_MAX_MEMBERS; k++) {
			const struct net_route *b = &r->v[k];
			if (routes_is_default(b) && b->family == a->family && b->metric == a->metric) {
				groups[ngroups][n++] = k;
				other_port |= b->oif != a->oif;
			}
		}
		if (other_port)
			counts[ngroups++] = n;
	}
	return ngroups;
}

static bool prefix_matches(const unsigned char *net, unsigned len, const unsigned char *addr)
{
	unsigned full = len / 8, rest = len % 8;
	if (memcmp(net, addr, full) != 0)
		return false;
	if (!rest)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (net[full] & mask) == (addr[full] & mask);
}

size_t routes_for_destination(const struct net_routes *r, struct in_addr dst, size_t *ret, size_t max)
{
	const unsigned char *addr = (const unsigned char *)&dst.s_addr;
	int best_len = -1;
	for (size_t i = 0; i < r->n; i++)
		if (r->v[i].family == AF_INET && r->v[i].dst_len <= 32 &&
		    prefix_matches(r->v[i].dst, r->v[i].dst_len, addr) && (int)r->v[i].dst_len > best_len)
			best_len = (int)r->v[i].dst_len;
	size_t n = 0;
	for (size_t i = 0; i < r->n; i++) {
		const struct net_route *a = &r->v[i];
		if (a->family != AF_INET || (int)a->dst_len != best_len || !prefix_matches(a->dst, a->dst_len, addr))
			continue;
		/* One per port: keep the lowest metric. */
		size_t k;
		for (k = 0; k < n && r->v[ret[k]].oif != a->oif; k++)
			;
		if (k < n) {
			if (a->metric < r->v[ret[k]].metric)
				ret[k] = i;
		} else if (n < max) {
			ret[n++] = i;
		}
	}
	return n;
}
