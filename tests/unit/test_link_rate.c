/* net/link_rate: RTM_NEWQDISC messages built in memory as the kernel dumps
 * them (tbf's options nested; netem's a struct tc_netem_qopt, then its
 * attributes), and a live look at the loopback. The rates tc sets on a
 * real veth are read in the VM (tests/cli/test_wire_vm.sh). */
#include <errno.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "net/link_rate.h"
#include "net/netlink.h"
#include "tap.h"

struct msg {
	struct nlmsghdr h;
	char space[1024];
} __attribute__((aligned(NLMSG_ALIGNTO)));

/* Appends attribute TYPE (DATA, LEN bytes) at *AT in BUF; returns the new end. */
static size_t put(char *buf, size_t at, unsigned short type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)(buf + at);
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	return at + RTA_ALIGN(a->rta_len);
}

static void start(struct msg *m, int ifindex, uint32_t parent, const char *kind)
{
	memset(m, 0, sizeof(*m));
	m->h.nlmsg_type = RTM_NEWQDISC;
	m->h.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
	struct tcmsg *t = NLMSG_DATA(&m->h);
	t->tcm_ifindex = ifindex;
	t->tcm_parent = parent;
	nl_add_attr(&m->h, sizeof(*m), TCA_KIND, kind, strlen(kind) + 1);
}

static void test_tbf(void)
{
	struct msg m;
	char opts[256] __attribute__((aligned(4))) = { 0 };
	struct tc_tbf_qopt q = { .rate.rate = 50000000, .limit = 1 << 20 }; /* 400 Mbit/s */
	start(&m, 4, TC_H_ROOT, "tbf");
	size_t n = put(opts, 0, TCA_TBF_PARMS, &q, sizeof(q));
	nl_add_attr(&m.h, sizeof(m), TCA_OPTIONS | NLA_F_NESTED, opts, n);
	int ifindex;
	bool root;
	char kind[16];
	uint64_t rate;
	is_int(link_rate_decode_qdisc(&m.h, &ifindex, &root, kind, sizeof(kind), &rate), 0, "tbf decoded");
	ok(ifindex == 4 && root && strcmp(kind, "tbf") == 0, "its port, root, kind");
	ok(rate == 50000000, "tbf's rate in bytes/s");

	uint64_t fast = 5000000000ULL; /* 40 Gbit/s: past 32 bits */
	q.rate.rate = ~0U;
	start(&m, 4, TC_H_ROOT, "tbf");
	n = put(opts, 0, TCA_TBF_PARMS, &q, sizeof(q));
	n = put(opts, n, TCA_TBF_RATE64, &fast, sizeof(fast));
	nl_add_attr(&m.h, sizeof(m), TCA_OPTIONS, opts, n);
	link_rate_decode_qdisc(&m.h, &ifindex, &root, kind, sizeof(kind), &rate);
	ok(rate == fast, "a rate past 32 bits from TCA_TBF_RATE64");

	start(&m, 4, 0x10001, "tbf");
	n = put(opts, 0, TCA_TBF_PARMS, &q, sizeof(q));
	nl_add_attr(&m.h, sizeof(m), TCA_OPTIONS, opts, n);
	link_rate_decode_qdisc(&m.h, &ifindex, &root, kind, sizeof(kind), &rate);
	ok(!root, "a tbf under a class is not the root");
}

static void test_netem(void)
{
	struct msg m;
	char opts[256] __attribute__((aligned(4))) = { 0 };
	struct tc_netem_qopt q = { .latency = 500, .limit = 1000 };
	struct tc_netem_rate nr = { .rate = 12500000 }; /* 100 Mbit/s */
	memcpy(opts, &q, sizeof(q));
	size_t n = put(opts, NLMSG_ALIGN(sizeof(q)), TCA_NETEM_RATE, &nr, sizeof(nr));
	start(&m, 9, TC_H_ROOT, "netem");
	nl_add_attr(&m.h, sizeof(m), TCA_OPTIONS, opts, n);
	int ifindex;
	bool root;
	char kind[16];
	uint64_t rate;
	is_int(link_rate_decode_qdisc(&m.h, &ifindex, &root, kind, sizeof(kind), &rate), 0, "netem decoded");
	ok(ifindex == 9 && root && strcmp(kind, "netem") == 0 && rate == 12500000,
	   "netem's rate from the attributes after its tc_netem_qopt");

	nr.rate = 0; /* delay alone */
	memcpy(opts, &q, sizeof(q));
	n = put(opts, NLMSG_ALIGN(sizeof(q)), TCA_NETEM_RATE, &nr, sizeof(nr));
	start(&m, 9, TC_H_ROOT, "netem");
	nl_add_attr(&m.h, sizeof(m), TCA_OPTIONS, opts, n);
	link_rate_decode_qdisc(&m.h, &ifindex, &root, kind, sizeof(kind), &rate);
	ok(rate == 0, "netem with delay alone shapes nothing");

	start(&m, 9, TC_H_ROOT, "netem");
	nl_add_attr(&m.h, sizeof(m), TCA_OPTIONS, &q, sizeof(q));
	link_rate_decode_qdisc(&m.h, &ifindex, &root, kind, sizeof(kind), &rate);
	ok(rate == 0, "netem with no attributes after its qopt: no rate");

	start(&m, 2, TC_H_ROOT, "fq_codel");
	link_rate_decode_qdisc(&m.h, &ifindex, &root, kind, sizeof(kind), &rate);
	ok(strcmp(kind, "fq_codel") == 0 && rate == 0, "another kind: named, no rate");
	struct nlmsghdr bad = { .nlmsg_type = RTM_NEWLINK, .nlmsg_len = NLMSG_LENGTH(0) };
	is_int(link_rate_decode_qdisc(&bad, &ifindex, &root, kind, sizeof(kind), &rate), -EINVAL, "not a qdisc message");
}

static void test_live(void)
{
	char src[64], why[200];
	struct link_rate k;
	is_int(link_rate_source_addr("127.0.0.1", src, sizeof(src), why, sizeof(why)), 0, "a route to the loopback");
	is_str(src, "127.0.0.1", "sent from 127.0.0.1");
	is_int(link_rate_of_addr(src, &k, why, sizeof(why)), 0, "its port is found");
	ok(k.found && strcmp(k.interface, "lo") == 0 && k.speed_mbps == -1, "the loopback, with no speed");
	is_int(link_rate_source_addr("no.such", src, sizeof(src), why, sizeof(why)), -EINVAL, "not an address: refused");
	is_str(why, "'no.such' is not an IPv4 address", "and said");
	is_int(link_rate_of_addr("192.0.2.77", &k, why, sizeof(why)), -ENOENT, "an address no port holds");
	ok(!k.found && strcmp(why, "no port holds 192.0.2.77") == 0, "said");
}

int main(void)
{
	test_tbf();
	test_netem();
	test_live();
	return tap_done();
}
