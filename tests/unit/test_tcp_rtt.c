/* net/tcp_rtt: the round trip to a real listening socket on the loopback
 * (a connect completes: a figure above zero and under a second), to a
 * port nobody listens on (refused, said), and a bad address. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/tcp_rtt.h"
#include "tap.h"

/* A listening socket on 127.0.0.1, its port in *PORT. */
static int listener(unsigned *port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t sl = sizeof(sa);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 16) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &sl) < 0)
		return -1;
	*port = ntohs(sa.sin_port);
	return fd;
}

int main(void)
{
	unsigned port = 0;
	int fd = listener(&port);
	ok(fd >= 0, "a listening socket on the loopback");
	uint64_t rtt = 0;
	char why[200] = "";
	is_int(tcp_connect_rtt("127.0.0.1", port, 5, 2000, &rtt, why, sizeof(why)), 0, "connects to it");
	ok(rtt > 0 && rtt < 1000000000ULL, "a round trip above zero and under a second");
	close(fd);
	/* the same port, now closed: the kernel refuses at once */
	is_int(tcp_connect_rtt("127.0.0.1", port, 2, 2000, &rtt, why, sizeof(why)), -ECONNREFUSED,
	       "a port nobody listens on is refused");
	ok(strstr(why, "cannot connect to 127.0.0.1:") && strstr(why, "refused"), "and the reason says so");
	is_int(tcp_connect_rtt("10.0.0.x", 4420, 1, 100, &rtt, why, sizeof(why)), -EINVAL, "a bad address is refused");
	return tap_done();
}
