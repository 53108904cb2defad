/* net/bonding.h: a bond's state from the text of /proc/net/bonding/NAME
 * (the bonding driver's report), and what it means for the switch.
 *
 * Pure: bonding_parse() takes the text, so it is tested on captured files
 * (tests/data/bonding_*.txt). bonding_check() turns the parsed state into
 * findings:
 *   - 802.3ad with no LACP partner (partner MAC all zeros) or slaves in
 *     different aggregators than the active one: the switch is not running
 *     LACP on these ports;
 *   - balance-rr and balance-xor: need a static LAG (Etherchannel) on the
 *     switch;
 *   - a slave whose link is down.
 */
#ifndef IOTRIAGE_NET_BONDING_H
#define IOTRIAGE_NET_BONDING_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BOND_MAX_SLAVES 16

enum bond_mode {
	BOND_MODE_UNKNOWN,
	BOND_MODE_BALANCE_RR,
	BOND_MODE_ACTIVE_BACKUP,
	BOND_MODE_BALANCE_XOR,
	BOND_MODE_BROADCAST,
	BOND_MODE_8023AD,
	BOND_MODE_BALANCE_TLB,
	BOND_MODE_BALANCE_ALB,
};

struct bond_slave {
	char name[IF_NAMESIZE];
	bool mii_up;
	int64_t speed_mbps;        /* -1 unknown */
	char duplex[8];
	unsigned link_failures;
	int aggregator_id;         /* 802.3ad; -1 when not shown */
	char partner_mac[18];      /* 802.3ad "details partner lacp pdu"; "" when not shown */
	int actor_port_state, partner_port_state; /* LACP state bits; -1 when not shown */
};

struct bond_info {
	char name[IF_NAMESIZE];
	enum bond_mode mode;
	char mode_text[64];        /* the driver's words: "IEEE 802.3ad Dynamic link aggregation" */
	char hash_policy[24];      /* "Transmit Hash Policy": "layer2", "layer3+4"; "" when not shown */
	bool mii_up;
	char active_slave[IF_NAMESIZE];
	int active_aggregator_id;  /* 802.3ad; -1 when not shown */
	char partner_mac[18];      /* of the active aggregator */
	struct bond_slave slaves[BOND_MAX_SLAVES];
	size_t nslaves;
};

/* Parses TEXT (the whole file) of the bond NAME. Returns 0, or -EINVAL when
 * TEXT is not a bonding report (no "Bonding Mode:" line). */
int bonding_parse(const char *name, const char *text, struct bond_info *ret);
/* "balance-rr", "active-backup", "802.3ad", ... (the mode= names). */
const char *bonding_mode_name(enum bond_mode mode);

struct bond_check {
	bool lacp_partner_missing;    /* 802.3ad: partner MAC all zeros */
	/* 802.3ad: slaves (indexes) not in the active aggregator, or whose own
	 * partner MAC is all zeros */
	size_t lacp_bad_slaves[BOND_MAX_SLAVES];
	size_t n_lacp_bad;
	bool needs_static_lag;        /* balance-rr, balance-xor */
	size_t down_slaves[BOND_MAX_SLAVES];
	size_t n_down;
};

void bonding_check(const struct bond_info *b, struct bond_check *ret);

/* Traffic collapsed onto one port of several: given each member's bytes per
 * second, the index of a member carrying at least SHARE (0.9) of the total
 * while two or more members are up, when the total is at least MIN_BPS;
 * -1 otherwise. */
int bonding_collapsed(const double *bytes_per_s, size_t n, double share, double min_bps);

#endif
