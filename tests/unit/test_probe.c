/* The bisection that finds the largest size that passes (against a
 * threshold, as a path MTU is), and real ICMP echo over the loopback. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "net/probe.h"
#include "tap.h"

struct path {
	size_t mtu;
	unsigned asked;
	size_t fail_at; /* ask number that returns an error, 0 for none */
};

static int passes(size_t size, void *arg)
{
	struct path *p = arg;
	p->asked++;
	if (p->fail_at && p->asked == p->fail_at)
		return -EIO;
	return size <= p->mtu;
}

static void test_bisect(void)
{
	unsigned steps;
	struct path p = { .mtu = 1500 };
	is_int(probe_bisect(84, 9000, passes, &p, &steps), 1500, "a 1500 path between 9000 ends: 1500 found");
	ok(steps <= 14 && steps == p.asked, "in at most log2(9000 - 84) + 1 steps");
	p = (struct path){ .mtu = 8972 };
	is_int(probe_bisect(84, 9000, passes, &p, NULL), 8972, "an odd limit found exactly");
	p = (struct path){ .mtu = 84 };
	is_int(probe_bisect(84, 9000, passes, &p, NULL), 84, "only the small probe passes");
	p = (struct path){ .mtu = 8999 };
	is_int(probe_bisect(84, 9000, passes, &p, NULL), 8999, "one byte short of the MTU");
	p = (struct path){ .mtu = 1500, .fail_at = 3 };
	is_int(probe_bisect(84, 9000, passes, &p, NULL), -EIO, "an error stops the search");
	p = (struct path){ .mtu = 1500 };
	is_int(probe_bisect(1500, 1501, passes, &p, &steps), 1500, "adjacent bounds: nothing to ask");
	is_int(steps, 0, "no probe sent");
}

static void test_loopback(void)
{
	struct probe_sock s;
	struct in_addr lo;
	inet_pton(AF_INET, "127.0.0.1", &lo);
	int r = probe_open(&s, "lo", lo);
	if (r == -EPERM) {
		ok(1, "loopback echo # SKIP neither raw nor ping ICMP sockets are allowed for this user");
		return;
	}
	is_int(r, 0, "ICMP socket bound to lo");
	struct probe_stats st;
	is_int(probe_ping(&s, 3, 10, 500, PROBE_SMALL_SIZE, false, false, &st), 0, "three echo requests");
	is_int(st.sent, 3, "three sent");
	is_int(st.received, 3, "three answered over the loopback");
	ok(st.rtt_min_ns > 0 && st.rtt_min_ns <= st.rtt_max_ns, "min <= max round trip");
	ok(probe_loss_percent(&st) == 0.0, "no loss");
	is_int(probe_ping(&s, 1, 10, 500, 60000, true, true, &st), 0, "a 60000-byte don't-fragment probe");
	is_int(st.received, 1, "passes the loopback's 65536 MTU");
	is_int(probe_ping(&s, 1, 10, 500, 20, false, false, &st), -EINVAL, "a size below the headers is refused");
	probe_close(&s);
	ok(s.fd == -1, "closed");
}

int main(void)
{
	test_bisect();
	test_loopback();
	return tap_done();
}
