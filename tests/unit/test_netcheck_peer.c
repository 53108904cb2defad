/* triage/netcheck_peer: the throughput verdicts on measured figures. */
#include <string.h>

#include "triage/network/netcheck.h"
#include "tap.h"

static struct nc_peer_path path(const char *port, int64_t link, double single_bps, double par_bps)
{
	struct nc_peer_path p = { .link_mbps = link };
	snprintf(p.port, sizeof(p.port), "%s", port);
	p.single = (struct nc_peer_run){ .streams = 1, .measured = single_bps > 0, .r.received_bps = single_bps };
	p.parallel = (struct nc_peer_run){ .streams = 4, .measured = par_bps > 0, .r.received_bps = par_bps };
	return p;
}

int main(void)
{
	struct nc_peer peer = { .name = "nas1" };
	char s[640], f[320];
	struct nc_peer_path p = path("e0", 10000, 190.7e6, 190.5e6);
	const char *k = netcheck_peer_verdict(&peer, &p, s, sizeof(s), f, sizeof(f));
	is_str(k ? k : "", "path_below_link", "200 Mbit/s through a 10 Gbit/s port is far below its link speed");
	ok(strstr(s, "carries 191 Mbit/s at best (1 stream), 2% of the port's 10000 Mbit/s") != NULL, s);
	ok(strstr(f, "shaper") != NULL, "the fix names what limits a path");
	p = path("e0", 10000, 7018e6, 7243e6);
	ok(!netcheck_peer_verdict(&peer, &p, s, sizeof(s), f, sizeof(f)), "7 Gbit/s on 10 Gbit/s is no finding");
	p = path("eno1", 1000, 941e6, 0);
	ok(!netcheck_peer_verdict(&peer, &p, s, sizeof(s), f, sizeof(f)), "941 Mbit/s on a 1 Gbit/s port is line rate");
	p = path("e0", -1, 100e6, 100e6);
	ok(!netcheck_peer_verdict(&peer, &p, s, sizeof(s), f, sizeof(f)), "an unknown link speed is not judged");
	p = path("e0", 10000, 0, 0);
	ok(!netcheck_peer_verdict(&peer, &p, s, sizeof(s), f, sizeof(f)), "nothing measured, nothing judged");

	struct bond_info bond = { .name = "bond0", .mode = BOND_MODE_8023AD, .hash_policy = "layer2" };
	p = path("bond0", 2000, 940e6, 941e6);
	p.members = 2;
	p.member_max_mbps = 1000;
	p.bond = &bond;
	k = netcheck_peer_verdict(&peer, &p, s, sizeof(s), f, sizeof(f));
	is_str(k ? k : "", "bond_one_member", "a 2 x 1 Gbit/s bond carrying 941 Mbit/s with 4 streams");
	ok(strstr(s, "47% of its 2 members' 2000 Mbit/s") != NULL, s);
	ok(strstr(f, "xmit_hash_policy layer3+4") != NULL && strstr(f, "hashes by layer2") != NULL,
	   "the fix: the hash policy");
	bond.mode = BOND_MODE_ACTIVE_BACKUP;
	netcheck_peer_verdict(&peer, &p, s, sizeof(s), f, sizeof(f));
	ok(strstr(f, "active-backup sends by one member") != NULL, "active-backup: the fix is another mode");
	p = path("bond0", 2000, 940e6, 1880e6);
	p.members = 2;
	p.member_max_mbps = 1000;
	ok(!netcheck_peer_verdict(&peer, &p, s, sizeof(s), f, sizeof(f)), "a bond carrying both members' speed is fine");
	return tap_done();
}
