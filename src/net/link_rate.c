/* How fast the link under a path can carry data (net/link_rate.h). */
#include "net/link_rate.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "basic/cleanup.h"
#include "net/links.h"
#include "net/netlink.h"

static uint64_t attr_u64(const struct rtattr *a)
{
	uint64_t v = 0;
	if (a && nl_attr_len(a) >= sizeof(v))
		memcpy(&v, nl_attr_data(a), sizeof(v));
	return v;
}

/* tbf: TCA_OPTIONS nests TCA_TBF_PARMS (rate.rate in bytes/s, ~0U when the
 * rate needs TCA_TBF_RATE64). */
static uint64_t tbf_rate(const struct rtattr *opts)
{
	const struct rtattr *tb[TCA_TBF_MAX + 1];
	nl_parse_attrs(nl_attr_data(opts), nl_attr_len(opts), tb, TCA_TBF_MAX);
	if (tb[TCA_TBF_RATE64])
		return attr_u64(tb[TCA_TBF_RATE64]);
	struct tc_tbf_qopt q;
	if (!tb[TCA_TBF_PARMS] || nl_attr_len(tb[TCA_TBF_PARMS]) < sizeof(q))
		return 0;
	memcpy(&q, nl_attr_data(tb[TCA_TBF_PARMS]), sizeof(q));
	return q.rate.rate;
}

/* netem: TCA_OPTIONS holds a struct tc_netem_qopt, then (aligned) its
 * attributes; TCA_NETEM_RATE's rate is bytes/s (~0U when TCA_NETEM_RATE64
 * has it), 0 for no rate. */
static uint64_t netem_rate(const struct rtattr *opts)
{
	size_t head = NLMSG_ALIGN(sizeof(struct tc_netem_qopt));
	if (nl_attr_len(opts) <= head)
		return 0;
	const struct rtattr *tb[TCA_NETEM_MAX + 1];
	nl_parse_attrs((const struct rtattr *)((const char *)nl_attr_data(opts) + head), nl_attr_len(opts) - head, tb,
		       TCA_NETEM_MAX);
	if (tb[TCA_NETEM_RATE64])
		return attr_u64(tb[TCA_NETEM_RATE64]);
	struct tc_netem_rate r;
	if (!tb[TCA_NETEM_RATE] || nl_attr_len(tb[TCA_NETEM_RATE]) < sizeof(r))
		return 0;
	memcpy(&r, nl_attr_data(tb[TCA_NETEM_RATE]), sizeof(r));
	return r.rate;
}

int link_rate_decode_qdisc(const struct nlmsghdr *h, int *ret_ifindex, bool *ret_root, char *kind, size_t klen,
			   uint64_t *ret_bytes_per_s)
{
	if (h->nlmsg_type != RTM_NEWQDISC || h->nlmsg_len < NLMSG_LENGTH(sizeof(struct tcmsg)))
		return -EINVAL;
	const struct tcmsg *t = NLMSG_DATA(h);
	const struct rtattr *tb[TCA_MAX + 1];
	nl_parse_attrs((const struct rtattr *)((const char *)t + NLMSG_ALIGN(sizeof(*t))),
		       h->nlmsg_len - NLMSG_LENGTH(sizeof(*t)), tb, TCA_MAX);
	*ret_ifindex = t->tcm_ifindex;
	*ret_root = t->tcm_parent == TC_H_ROOT;
	nl_attr_str(tb[TCA_KIND], kind, klen);
	*ret_bytes_per_s = 0;
	if (tb[TCA_OPTIONS] && strcmp(kind, "tbf") == 0)
		*ret_bytes_per_s = tbf_rate(tb[TCA_OPTIONS]);
	else if (tb[TCA_OPTIONS] && strcmp(kind, "netem") == 0)
		*ret_bytes_per_s = netem_rate(tb[TCA_OPTIONS]);
	return 0;
}

struct root_search {
	int ifindex;
	struct link_rate *ret;
};

static int take_root(const struct nlmsghdr *h, void *arg)
{
	struct root_search *s = arg;
	int ifindex;
	bool root;
	char kind[16];
	uint64_t rate;
	if (link_rate_decode_qdisc(h, &ifindex, &root, kind, sizeof(kind), &rate) < 0 || !root ||
	    ifindex != s->ifindex)
		return 0;
	snprintf(s->ret->qdisc, sizeof(s->ret->qdisc), "%s", kind);
	s->ret->shaped_bps = rate * 8;
	return 0;
}

int link_rate_source_addr(const char *dst, char *buf, size_t len, char *why, size_t wlen)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(9) };
	if (inet_pton(AF_INET, dst, &sa.sin_addr) != 1) {
		snprintf(why, wlen, "'%s' is not an IPv4 address", dst);
		return -EINVAL;
	}
	/* A UDP connect picks the route and the source address; nothing is sent. */
	_cleanup_close_ int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in src;
	socklen_t slen = sizeof(src);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&src, &slen) < 0) {
		int r = -errno;
		snprintf(why, wlen, "no route to %s: %s", dst, strerror(-r));
		return r;
	}
	inet_ntop(AF_INET, &src.sin_addr, buf, (socklen_t)len);
	return 0;
}

static const struct net_link *link_with_addr(const struct net_links *l, const char *addr)
{
	for (size_t i = 0; i < l->n; i++)
		for (size_t k = 0; k < l->v[i].naddrs; k++)
			if (strcmp(l->v[i].addrs[k].text, addr) == 0)
				return &l->v[i];
	return NULL;
}

int link_rate_of_addr(const char *addr, struct link_rate *ret, char *why, size_t len)
{
	memset(ret, 0, sizeof(*ret));
	ret->speed_mbps = -1;
	struct net_links links;
	int r = links_read(&links);
	if (r < 0) {
		snprintf(why, len, "cannot list the ports: %s", strerror(-r));
		return r;
	}
	const struct net_link *l = link_with_addr(&links, addr);
	if (!l) {
		snprintf(why, len, "no port holds %s", addr);
		links_release(&links);
		return -ENOENT;
	}
	ret->found = true;
	snprintf(ret->interface, sizeof(ret->interface), "%s", l->name);
	snprintf(ret->kind, sizeof(ret->kind), "%s", l->kind);
	/* veth's driver says 10000 Mb/s whatever carries it */
	ret->speed_mbps = strcmp(l->kind, "veth") == 0 ? -1 : l->speed_mbps;
	struct root_search s = { .ifindex = l->ifindex, .ret = ret };
	links_release(&links);
	struct tcmsg t = { .tcm_family = AF_UNSPEC };
	/* without the qdiscs the speed stands alone: qdisc stays "" */
	(void)nl_dump(RTM_GETQDISC, &t, sizeof(t), take_root, &s);
	return 0;
}
