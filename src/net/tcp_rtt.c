/* The round trip to a TCP port (net/tcp_rtt.h). */
#include "net/tcp_rtt.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "basic/timeutil.h"

/* One non-blocking connect: its duration, or -errno. */
static int64_t one_connect(const struct sockaddr_in *sa, int timeout_ms)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	uint64_t t0 = now_ns();
	int r = connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	if (r < 0 && errno == EINPROGRESS) {
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		r = poll(&p, 1, timeout_ms);
		if (r == 0) {
			close(fd);
			return -ETIMEDOUT;
		}
		int err = 0;
		socklen_t el = sizeof(err);
		if (r < 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
			err = errno;
		r = err ? -1 : 0;
		errno = err;
	}
	uint64_t t1 = now_ns();
	int saved = errno;
	close(fd);
	return r < 0 ? -(int64_t)saved : (int64_t)(t1 - t0);
}

int tcp_connect_rtt(const char *addr, unsigned port, unsigned tries, int timeout_ms, uint64_t *ret_ns, char *why,
		    size_t len)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		snprintf(why, len, "'%s' is not an IPv4 address", addr);
		return -EINVAL;
	}
	uint64_t best = 0;
	int64_t last = 0;
	for (unsigned i = 0; i < tries; i++) {
		last = one_connect(&sa, timeout_ms);
		if (last > 0 && (best == 0 || (uint64_t)last < best))
			best = (uint64_t)last;
	}
	if (best == 0) {
		snprintf(why, len, "cannot connect to %s:%u: %s", addr, port, strerror((int)-last));
		return last < 0 ? (int)last : -EIO;
	}
	*ret_ns = best;
	return 0;
}
