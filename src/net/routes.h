/* net/routes.h: the routing table read with rtnetlink (RTM_GETROUTE dump),
 * never from a command's text, and what the table says:
 *
 *   - default routes of equal metric on different ports (a second gateway
 *     competing for the default route: return traffic can leave the wrong
 *     port), and
 *   - which ports a destination would leave by (the most specific matching
 *     routes, one per port), so that it can be probed from each.
 *
 * routes_decode() and the analysis functions are pure; routes_read() does
 * the dump.
 */
#ifndef IOTRIAGE_NET_ROUTES_H
#define IOTRIAGE_NET_ROUTES_H

#include <linux/netlink.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct net_route {
	int family;            /* AF_INET or AF_INET6 */
	unsigned char dst[16]; /* network byte order; zeros for a default route */
	unsigned dst_len;      /* prefix length; 0 for a default route */
	unsigned char gateway[16];
	bool has_gateway;
	int oif;               /* output port's ifindex */
	uint32_t metric;       /* RTA_PRIORITY */
	uint32_t table;
	unsigned char protocol, scope, type;
	bool multipath;        /* one of the next hops of an RTA_MULTIPATH route */
};

struct net_routes {
	struct net_route *v;
	size_t n;
};

/* Appends the route(s) of one RTM_NEWROUTE message to RET: one per next hop
 * (an RTA_MULTIPATH route gives several). Messages of other tables than
 * main, other types than unicast, cached exceptions (RTM_F_CLONED) and other
 * families are skipped.
 * Returns the number appended, or -EINVAL / -ENOMEM. */
int routes_decode(const struct nlmsghdr *h, struct net_routes *ret);

/* The main table's unicast IPv4 and IPv6 routes. Returns 0 or -errno. */
int routes_read(struct net_routes *ret);
void routes_release(struct net_routes *r);

/* "10.0.0.1" / "default" / "10.1.0.0/16" text of an address or destination. */
void routes_format_addr(int family, const unsigned char *addr, char *buf, size_t len);
void routes_format_dst(const struct net_route *r, char *buf, size_t len);

static inline bool routes_is_default(const struct net_route *r)
{
	return r->dst_len == 0;
}

#define ROUTES_GROUP_MAX_MEMBERS 8

/* Groups of competing default routes: for each (family, metric) with default
 * routes on two or more different ports, one group. GROUPS[k] lists indexes
 * into R->v (COUNTS[k] of them, at most MAX_MEMBERS). Returns the number of
 * groups (at most MAX_GROUPS). */
size_t routes_competing_defaults(const struct net_routes *r, size_t (*groups)[ROUTES_GROUP_MAX_MEMBERS], size_t *counts,
				 size_t max_groups);

/* The routes an IPv4 destination DST (network byte order) would leave by,
 * one per port: the most specific prefix that matches (as the kernel picks),
 * and among routes of that prefix length, the lowest metric on each port.
 * Writes indexes into R->v to RET (at most MAX). Returns how many. */
size_t routes_for_destination(const struct net_routes *r, struct in_addr dst, size_t *ret, size_t max);

#endif
