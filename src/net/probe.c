#include "net/probe.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <linux/icmp.h>
#include <netinet/ip.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "basic/interrupt.h"
#include "basic/timeutil.h"

#define INFLIGHT 64

int probe_open(struct probe_sock *p, const char *ifname, struct in_addr dst)
{
	static unsigned opened;
	memset(p, 0, sizeof(*p));
	p->fd = -1;
	p->dst = dst;
	snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
	int fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	p->raw = fd >= 0;
	if (fd < 0 && (errno == EPERM || errno == EACCES))
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (fd < 0)
		return errno == EACCES ? -EPERM : -errno;
	p->fd = fd;
	int r = 0;
	if (p->raw) {
		/* Only echo replies as data; errors come through IP_RECVERR. */
		struct icmp_filter filt = { .data = ~(1U << ICMP_ECHOREPLY) };
		if (setsockopt(fd, SOL_RAW, ICMP_FILTER, &filt, sizeof(filt)) < 0)
			r = -errno;
	}
	int one = 1;
	if (!r && setsockopt(fd, SOL_IP, IP_RECVERR, &one, sizeof(one)) < 0)
		r = -errno;
	if (!r && ifname[0] && setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, ifname, (socklen_t)strlen(ifname) + 1) < 0)
		r = -errno;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr = dst };
	if (!r && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		r = -errno;
	if (r < 0) {
		probe_close(p);
		return r;
	}
	p->id = (uint16_t)(getpid() * 31 + ++opened * 7919);
	return 0;
}

void probe_close(struct probe_sock *p)
{
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}

static uint16_t checksum(const void *data, size_t len)
{
	const unsigned char *b = data;
	uint32_t sum = 0;
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(b[i] << 8 | b[i + 1]);
	if (len & 1)
		sum += (uint32_t)b[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

static int send_echo(struct probe_sock *p, unsigned char *buf, size_t size, uint16_t seq)
{
	size_t len = size - sizeof(struct iphdr);
	struct icmphdr *icmp = (struct icmphdr *)buf;
	memset(icmp, 0, sizeof(*icmp));
	icmp->type = ICMP_ECHO;
	icmp->un.echo.id = htons(p->id);
	icmp->un.echo.sequence = htons(seq);
	for (size_t i = sizeof(*icmp); i < len; i++)
		buf[i] = (unsigned char)(i & 0xff);
	icmp->checksum = checksum(buf, len);
	ssize_t n = send(p->fd, buf, len, 0);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

static void note_error(struct probe_stats *s, int err, bool icmp, const struct sockaddr_in *from, unsigned info)
{
	s->errors++;
	s->last_error = -err;
	s->error_from_icmp = icmp;
	s->error_from[0] = '\0';
	if (from && from->sin_family == AF_INET)
		inet_ntop(AF_INET, &from->sin_addr, s->error_from, sizeof(s->error_from));
	if (icmp && err == EMSGSIZE)
		s->frag_needed_mtu = info;
}

/* Drains the error queue; returns how many errors were read. */
static unsigned read_errors(struct probe_sock *p, struct probe_stats *s)
{
	unsigned n = 0;
	for (;;) {
		unsigned char data[256];
		char control[512];
		struct iovec iov = { data, sizeof(data) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
				      .msg_controllen = sizeof(control) };
		if (recvmsg(p->fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			return n;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
			if (c->cmsg_level != SOL_IP || c->cmsg_type != IP_RECVERR)
				continue;
			const struct sock_extended_err *e = (const struct sock_extended_err *)CMSG_DATA(c);
			struct sockaddr_in from;
			memcpy(&from, SO_EE_OFFENDER(e), sizeof(from));
			note_error(s, (int)e->ee_errno, e->ee_origin == SO_EE_ORIGIN_ICMP, &from, e->ee_info);
			n++;
		}
	}
}

/* Reads echo replies; fills SENT_AT slots' RTTs. Returns replies read. */
static unsigned read_replies(struct probe_sock *p, uint64_t *sent_at, uint16_t first_seq, uint16_t next_seq,
			     struct probe_stats *s)
{
	unsigned n = 0;
	for (;;) {
		unsigned char buf[PROBE_MAX_SIZE + 64];
		ssize_t len = recv(p->fd, buf, sizeof(buf), MSG_DONTWAIT);
		uint64_t now = now_ns();
		if (len < 0) {
			/* A pending ICMP error is also reported here once (the error
			 * queue has it); anything else ends this read too. */
			return n;
		}
		const unsigned char *icmp_at = buf;
		size_t icmp_len = (size_t)len;
		if (p->raw) {
			const struct iphdr *ip = (const struct iphdr *)buf;
			size_t hl = (size_t)ip->ihl * 4;
			if ((size_t)len < sizeof(*ip) || hl < sizeof(*ip) || hl > (size_t)len ||
			    ip->saddr != p->dst.s_addr)
				continue;
			icmp_at = buf + hl;
			icmp_len = (size_t)len - hl;
		}
		struct icmphdr icmp;
		if (icmp_len < sizeof(icmp))
			continue;
		memcpy(&icmp, icmp_at, sizeof(icmp));
		if (icmp.type != ICMP_ECHOREPLY || (p->raw && ntohs(icmp.un.echo.id) != p->id))
			continue;
		uint16_t seq = ntohs(icmp.un.echo.sequence);
		if ((uint16_t)(seq - first_seq) >= (uint16_t)(next_seq - first_seq))
			continue; /* not one of this round's */
		uint64_t *slot = &sent_at[seq % INFLIGHT];
		if (!*slot)
			continue; /* a duplicate */
		uint64_t rtt = now - *slot;
		*slot = 0;
		if (!s->received || rtt < s->rtt_min_ns)
			s->rtt_min_ns = rtt;
		if (rtt > s->rtt_max_ns)
			s->rtt_max_ns = rtt;
		s->rtt_sum_ns += rtt;
		s->received++;
		n++;
	}
}

int probe_ping(struct probe_sock *p, unsigned count, unsigned interval_ms, unsigned timeout_ms, size_t size,
	       bool df, bool stop_on_reply, struct probe_stats *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (size < PROBE_MIN_SIZE || size > PROBE_MAX_SIZE || count == 0 || count > INFLIGHT)
		return -EINVAL;
	int pmtu = df ? IP_PMTUDISC_PROBE : IP_PMTUDISC_DONT;
	if (setsockopt(p->fd, SOL_IP, IP_MTU_DISCOVER, &pmtu, sizeof(pmtu)) < 0)
		return -errno;
	static unsigned char buf[PROBE_MAX_SIZE];
	uint64_t sent_at[INFLIGHT] = { 0 };
	uint16_t first_seq = p->seq;
	uint64_t next_send = now_ns(), deadline = 0;
	while (ret->sent < count || now_ns() < deadline) {
		if (interrupt_requested())
			return -EINTR;
		uint64_t now = now_ns();
		bool answered = ret->received + ret->errors > 0;
		if (ret->sent < count && now >= next_send && !(stop_on_reply && answered)) {
			uint16_t seq = p->seq++;
			int r = send_echo(p, buf, size, seq);
			ret->sent++;
			if (r < 0)
				note_error(ret, -r, false, NULL, 0);
			else
				sent_at[seq % INFLIGHT] = now_ns();
			next_send = now + (uint64_t)interval_ms * 1000000ULL;
			deadline = now + (uint64_t)timeout_ms * 1000000ULL;
		}
		if (ret->received + ret->errors >= ret->sent && (ret->sent == count || (stop_on_reply && answered)))
			break;
		if (stop_on_reply && answered)
			break;
		now = now_ns();
		uint64_t wake = ret->sent < count ? next_send : deadline;
		int wait_ms = wake > now ? (int)((wake - now + 999999) / 1000000) : 0;
		struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
		int pr = poll(&pfd, 1, wait_ms);
		if (pr < 0 && errno != EINTR)
			return -errno;
		if (pr > 0) {
			if (pfd.revents & POLLERR)
				read_errors(p, ret);
			if (pfd.revents & POLLIN)
				read_replies(p, sent_at, first_seq, p->seq, ret);
		}
	}
	read_errors(p, ret);
	return 0;
}

long probe_bisect(size_t lo, size_t hi, probe_pass_fn passes, void *arg, unsigned *ret_steps)
{
	unsigned steps = 0;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		int r = passes(mid, arg);
		steps++;
		if (r < 0) {
			if (ret_steps)
				*ret_steps = steps;
			return r;
		}
		if (r)
			lo = mid;
		else
			hi = mid;
	}
	if (ret_steps)
		*ret_steps = steps;
	return (long)lo;
}
