#include "net/netlink.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "basic/cleanup.h"

static int nl_open(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	/* Ask for the kernel's error message text too; harmless where unsupported. */
	int one = 1;
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

/* Reads answers to SEQ until NLMSG_DONE (DUMP) or the first answer. */
static int nl_receive(int fd, uint32_t seq, int dump, nl_msg_fn fn, void *arg)
{
	/* 32 KiB is what the kernel sends at most per datagram for a dump. */
	static const size_t buflen = 32768;
	_cleanup_free_ char *buf = malloc(buflen);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = recv(fd, buf, buflen, 0);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EIO;
		size_t left = (size_t)n;
		for (const struct nlmsghdr *h = (const struct nlmsghdr *)buf;
		     left >= sizeof(*h) && h->nlmsg_len >= sizeof(*h) && h->nlmsg_len <= left;) {
			if (h->nlmsg_seq == seq) {
				if (h->nlmsg_type == NLMSG_DONE)
					return 0;
				if (h->nlmsg_type == NLMSG_ERROR) {
					const struct nlmsgerr *e = NLMSG_DATA(h);
					if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
						return -EIO;
					if (e->error != 0 || !dump)
						return e->error;
				} else {
					int r = fn(h, arg);
					if (r < 0)
						return r;
					if (!dump)
						return 0;
				}
			}
			size_t step = NLMSG_ALIGN(h->nlmsg_len);
			if (step > left)
				break;
			left -= step;
			h = (const struct nlmsghdr *)((const char *)h + step);
		}
	}
}

static int nl_send(int fd, const void *buf, size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	ssize_t n = sendto(fd, buf, len, 0, (const struct sockaddr *)&kernel, sizeof(kernel));
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int nl_dump(uint16_t type, const void *hdr, size_t hdr_len, nl_msg_fn fn, void *arg)
{
	char req[NLMSG_SPACE(64)] __attribute__((aligned(NLMSG_ALIGNTO))) = { 0 };
	if (hdr_len > 64)
		return -EINVAL;
	struct nlmsghdr *h = (struct nlmsghdr *)req;
	h->nlmsg_len = NLMSG_LENGTH(hdr_len);
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	h->nlmsg_seq = 1;
	memcpy(NLMSG_DATA(h), hdr, hdr_len);
	_cleanup_close_ int fd = nl_open();
	if (fd < 0)
		return fd;
	int r = nl_send(fd, req, h->nlmsg_len);
	return r < 0 ? r : nl_receive(fd, h->nlmsg_seq, 1, fn, arg);
}

int nl_request(void *buf, size_t len, nl_msg_fn fn, void *arg)
{
	struct nlmsghdr *h = buf;
	if (len < sizeof(*h) || h->nlmsg_len > len)
		return -EINVAL;
	h->nlmsg_flags |= NLM_F_REQUEST;
	h->nlmsg_seq = 2;
	_cleanup_close_ int fd = nl_open();
	if (fd < 0)
		return fd;
	int r = nl_send(fd, buf, h->nlmsg_len);
	return r < 0 ? r : nl_receive(fd, h->nlmsg_seq, 0, fn, arg);
}

void nl_parse_attrs(const struct rtattr *attrs, size_t len, const struct rtattr **tb, unsigned max)
{
	memset(tb, 0, sizeof(*tb) * (max + 1));
	const char *p = (const char *)attrs;
	while (len >= sizeof(struct rtattr)) {
		const struct rtattr *a = (const struct rtattr *)p;
		if (a->rta_len < sizeof(*a) || a->rta_len > len)
			break;
		/* Nested attributes carry NLA_F_NESTED in the type on some kernels. */
		unsigned type = a->rta_type & 0x3fff;
		if (type <= max)
			tb[type] = a;
		size_t step = RTA_ALIGN(a->rta_len);
		if (step >= len)
			break;
		len -= step;
		p += step;
	}
}

uint32_t nl_attr_u32(const struct rtattr *a, uint32_t def)
{
	uint32_t v;
	if (!a || nl_attr_len(a) < sizeof(v))
		return def;
	memcpy(&v, nl_attr_data(a), sizeof(v));
	return v;
}

void nl_attr_str(const struct rtattr *a, char *buf, size_t len)
{
	if (!len)
		return;
	buf[0] = '\0';
	if (!a)
		return;
	size_t n = strnlen(nl_attr_data(a), nl_attr_len(a));
	if (n >= len)
		n = len - 1;
	memcpy(buf, nl_attr_data(a), n);
	buf[n] = '\0';
}

int nl_add_attr(struct nlmsghdr *h, size_t cap, unsigned short type, const void *data, size_t len)
{
	size_t at = NLMSG_ALIGN(h->nlmsg_len);
	if (at + RTA_SPACE(len) > cap || RTA_LENGTH(len) > 0xffff)
		return -ENOSPC;
	struct rtattr *a = (struct rtattr *)((char *)h + at);
	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	h->nlmsg_len = (uint32_t)(at + RTA_ALIGN(a->rta_len));
	return 0;
}
