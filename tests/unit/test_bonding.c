/* Bond parsing and judging on /proc/net/bonding/NAME texts.
 *
 * Why captures and not a live bond: this machine's kernel has no bonding
 * driver ("ip link add b0 type bond" answers "Unknown device type" even in
 * a fresh network namespace) and no module can be loaded, so no
 * /proc/net/bonding file can be produced here. The files in tests/data are
 * written in the driver's format (drivers/net/bonding/bond_procfs.c, as
 * Debian 12's 6.1 kernel prints it): active-backup with one slave down,
 * 802.3ad with a negotiating switch, 802.3ad against a switch that does not
 * run LACP (partner MAC all zeros, each port in its own aggregator), and
 * 802.3ad with one port outside the active aggregator. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "net/bonding.h"
#include "tap.h"
#include "test_data.h"

static const char round_robin[] =
	"Ethernet Channel Bonding Driver: 2.6.1 (October 29, 2004)\n"
	"Bonding Mode: load balancing (round-robin)\n"
	"Currently Active Slave: eth0\n"
	"MII Status: up\n"
	"MII Polling Interval (ms): 1000\n"
	"Up Delay (ms): 0\n"
	"Down Delay (ms): 0\n"
	"\n"
	"Slave Interface: eth1\n"
	"MII Status: up\n"
	"Link Failure Count: 1\n"
	"\n"
	"Slave Interface: eth0\n"
	"MII Status: up\n"
	"Link Failure Count: 1\n";

static void test_active_backup(void)
{
	struct bond_info b;
	struct bond_check c;
	const char *text = test_data("bonding_active_backup.txt", NULL);
	ok(text != NULL, "active-backup capture read");
	is_int(bonding_parse("bond0", text, &b), 0, "active-backup parsed");
	is_int(b.mode, BOND_MODE_ACTIVE_BACKUP, "mode is active-backup");
	is_str(bonding_mode_name(b.mode), "active-backup", "mode name");
	is_str(b.active_slave, "enp1s0f0", "currently active slave");
	ok(b.mii_up, "bond link up");
	is_int(b.nslaves, 2, "two slaves");
	is_str(b.slaves[0].name, "enp1s0f0", "first slave");
	is_int(b.slaves[0].speed_mbps, 10000, "first slave at 10000 Mbps");
	is_str(b.slaves[0].duplex, "full", "full duplex");
	ok(!b.slaves[1].mii_up, "second slave down");
	is_int(b.slaves[1].speed_mbps, -1, "its speed unknown");
	is_str(b.slaves[1].duplex, "unknown", "its duplex unknown (lowercased)");
	is_int(b.slaves[1].link_failures, 3, "its link failure count");
	bonding_check(&b, &c);
	ok(!c.lacp_partner_missing && c.n_lacp_bad == 0, "no LACP finding outside 802.3ad");
	ok(!c.needs_static_lag, "active-backup needs nothing of the switch");
	is_int(c.n_down, 1, "one slave down");
	is_int(c.down_slaves[0], 1, "the second");
}

static void test_lacp_ok(void)
{
	struct bond_info b;
	struct bond_check c;
	is_int(bonding_parse("bond0", test_data("bonding_8023ad_lacp.txt", NULL), &b), 0, "802.3ad capture parsed");
	is_int(b.mode, BOND_MODE_8023AD, "mode is 802.3ad");
	is_int(b.active_aggregator_id, 1, "active aggregator 1");
	is_str(b.partner_mac, "00:1c:73:8a:4e:11", "the switch's LACP system MAC");
	is_int(b.nslaves, 2, "two slaves");
	is_int(b.slaves[1].aggregator_id, 1, "second slave in aggregator 1");
	is_str(b.slaves[1].partner_mac, "00:1c:73:8a:4e:11", "partner MAC from the partner pdu, not the actor's");
	is_int(b.slaves[1].actor_port_state, 63, "actor port state");
	is_int(b.slaves[1].partner_port_state, 61, "partner port state");
	bonding_check(&b, &c);
	ok(!c.lacp_partner_missing, "a negotiating partner is not flagged");
	is_int(c.n_lacp_bad, 0, "every slave in the active aggregator");
	is_int(c.n_down, 0, "no slave down");
}

static void test_lacp_missing(void)
{
	struct bond_info b;
	struct bond_check c;
	is_int(bonding_parse("bond1", test_data("bonding_8023ad_no_partner.txt", NULL), &b), 0, "no-partner capture parsed");
	is_str(b.hash_policy, "layer2", "its transmit hash policy");
	is_str(b.partner_mac, "00:00:00:00:00:00", "partner MAC all zeros");
	is_int(b.slaves[1].aggregator_id, 2, "second port alone in aggregator 2");
	bonding_check(&b, &c);
	ok(c.lacp_partner_missing, "partner all zeros: the switch is not running LACP");
	is_int(c.n_lacp_bad, 2, "both ports named");

	is_int(bonding_parse("bond2", test_data("bonding_8023ad_one_port_outside.txt", NULL), &b), 0,
	       "one-port-outside capture parsed");
	bonding_check(&b, &c);
	ok(!c.lacp_partner_missing, "the active aggregator has a partner");
	is_int(c.n_lacp_bad, 1, "one port flagged");
	is_str(b.slaves[c.lacp_bad_slaves[0]].name, "enp65s0f1", "the port outside the aggregator");
}

static void test_round_robin(void)
{
	struct bond_info b;
	struct bond_check c;
	is_int(bonding_parse("bond3", round_robin, &b), 0, "old round-robin report parsed");
	is_int(b.mode, BOND_MODE_BALANCE_RR, "mode is balance-rr");
	is_str(b.slaves[1].name, "eth0", "slaves in file order");
	bonding_check(&b, &c);
	ok(c.needs_static_lag, "balance-rr needs a static LAG");
	ok(!c.lacp_partner_missing, "and is not judged on LACP");

	static const char xor_text[] = "Bonding Mode: load balancing (xor)\nMII Status: up\n";
	is_int(bonding_parse("bond4", xor_text, &b), 0, "balance-xor parsed");
	bonding_check(&b, &c);
	ok(c.needs_static_lag, "balance-xor needs a static LAG");
	is_int(bonding_parse("x", "Inter-|   Receive\n face |bytes\n", &b), -EINVAL, "not a bonding report");
}

static void test_collapsed(void)
{
	double spread[] = { 50e6, 48e6 }, collapsed[] = { 99e6, 0.5e6 }, idle[] = { 100, 0 };
	is_int(bonding_collapsed(spread, 2, 0.9, 1e6), -1, "traffic spread over two ports is fine");
	is_int(bonding_collapsed(collapsed, 2, 0.9, 1e6), 0, "99% on one port is collapsed");
	is_int(bonding_collapsed(idle, 2, 0.9, 1e6), -1, "an idle bond is not judged");
	is_int(bonding_collapsed(collapsed, 1, 0.9, 1e6), -1, "one port cannot collapse");
}

int main(void)
{
	test_active_backup();
	test_lacp_ok();
	test_lacp_missing();
	test_round_robin();
	test_collapsed();
	return tap_done();
}
