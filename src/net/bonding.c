#include "net/bonding.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/cleanup.h"

static const struct {
	const char *text; /* as bond_mode_name() in the driver prints it */
	enum bond_mode mode;
	const char *name;
} modes[] = {
	{ "load balancing (round-robin)", BOND_MODE_BALANCE_RR, "balance-rr" },
	{ "fault-tolerance (active-backup)", BOND_MODE_ACTIVE_BACKUP, "active-backup" },
	{ "load balancing (xor)", BOND_MODE_BALANCE_XOR, "balance-xor" },
	{ "fault-tolerance (broadcast)", BOND_MODE_BROADCAST, "broadcast" },
	{ "IEEE 802.3ad Dynamic link aggregation", BOND_MODE_8023AD, "802.3ad" },
	{ "transmit load balancing", BOND_MODE_BALANCE_TLB, "balance-tlb" },
	{ "adaptive load balancing", BOND_MODE_BALANCE_ALB, "balance-alb" },
};

const char *bonding_mode_name(enum bond_mode mode)
{
	for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
		if (modes[i].mode == mode)
			return modes[i].name;
	return "unknown";
}

/* The value after "KEY: " when LINE (leading blanks skipped) starts with KEY. */
static const char *value_of(const char *line, const char *key)
{
	line += strspn(line, " \t");
	size_t n = strlen(key);
	if (strncmp(line, key, n) != 0 || line[n] != ':')
		return NULL;
	return line + n + 1 + strspn(line + n + 1, " \t");
}

static int int_value(const char *v, int def)
{
	char *end;
	long x = strtol(v, &end, 10);
	return end == v || x < -1 || x > 1000000 ? def : (int)x;
}

static void copy_token(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%.*s", (int)strcspn(v, " \t\n"), v);
}

enum section { SEC_BOND, SEC_AGGREGATOR, SEC_SLAVE, SEC_ACTOR, SEC_PARTNER };

int bonding_parse(const char *name, const char *text, struct bond_info *ret)
{
	memset(ret, 0, sizeof(*ret));
	snprintf(ret->name, sizeof(ret->name), "%s", name);
	ret->active_aggregator_id = -1;
	bool have_mode = false;
	enum section sec = SEC_BOND;
	struct bond_slave *s = NULL;
	char line[512];
	for (const char *at = text; at && *at;) {
		const char *nl = strchr(at, '\n');
		size_t n = nl ? (size_t)(nl - at) : strlen(at);
		snprintf(line, sizeof(line), "%.*s", (int)n, at);
		at = nl ? nl + 1 : NULL;
		const char *v;
		if ((v = value_of(line, "Slave Interface"))) {
			if (ret->nslaves >= BOND_MAX_SLAVES) {
				s = NULL;
				continue;
			}
			s = &ret->slaves[ret->nslaves++];
			copy_token(s->name, sizeof(s->name), v);
			s->speed_mbps = -1;
			s->aggregator_id = -1;
			s->actor_port_state = s->partner_port_state = -1;
			snprintf(s->duplex, sizeof(s->duplex), "unknown");
			sec = SEC_SLAVE;
			continue;
		}
		if (sec == SEC_SLAVE || sec == SEC_ACTOR || sec == SEC_PARTNER) {
			if (!s)
				continue;
			if (strstr(line, "details actor lacp pdu:"))
				sec = SEC_ACTOR;
			else if (strstr(line, "details partner lacp pdu:"))
				sec = SEC_PARTNER;
			else if (sec == SEC_PARTNER && (v = value_of(line, "system mac address")))
				copy_token(s->partner_mac, sizeof(s->partner_mac), v);
			else if ((v = value_of(line, "port state")))
				*(sec == SEC_PARTNER ? &s->partner_port_state : &s->actor_port_state) = int_value(v, -1);
			else if ((v = value_of(line, "MII Status")))
				s->mii_up = strncmp(v, "up", 2) == 0;
			else if ((v = value_of(line, "Speed")))
				s->speed_mbps = int_value(v, -1);
			else if ((v = value_of(line, "Duplex"))) {
				copy_token(s->duplex, sizeof(s->duplex), v);
				for (char *c = s->duplex; *c; c++) /* "Unknown" -> "unknown", as the ports say */
					*c = (char)tolower((unsigned char)*c);
			}
			else if ((v = value_of(line, "Link Failure Count")))
				s->link_failures = (unsigned)int_value(v, 0);
			else if ((v = value_of(line, "Aggregator ID")))
				s->aggregator_id = int_value(v, -1);
			continue;
		}
		if ((v = value_of(line, "Bonding Mode"))) {
			snprintf(ret->mode_text, sizeof(ret->mode_text), "%s", v);
			for (size_t i = 0; i < ARRAY_SIZE(modes); i++)
				if (strncmp(v, modes[i].text, strlen(modes[i].text)) == 0)
					ret->mode = modes[i].mode;
			have_mode = true;
		} else if ((v = value_of(line, "Transmit Hash Policy"))) {
			copy_token(ret->hash_policy, sizeof(ret->hash_policy), v);
		} else if (strstr(line, "Active Aggregator Info:")) {
			sec = SEC_AGGREGATOR;
		} else if ((v = value_of(line, "Currently Active Slave"))) {
			copy_token(ret->active_slave, sizeof(ret->active_slave), v);
		} else if (sec == SEC_BOND && (v = value_of(line, "MII Status"))) {
			ret->mii_up = strncmp(v, "up", 2) == 0;
		} else if (sec == SEC_AGGREGATOR && (v = value_of(line, "Aggregator ID"))) {
			ret->active_aggregator_id = int_value(v, -1);
		} else if (sec == SEC_AGGREGATOR && (v = value_of(line, "Partner Mac Address"))) {
			copy_token(ret->partner_mac, sizeof(ret->partner_mac), v);
		}
	}
	return have_mode ? 0 : -EINVAL;
}

static bool mac_is_zero(const char *mac)
{
	return strcmp(mac, "00:00:00:00:00:00") == 0;
}

void bonding_check(const struct bond_info *b, struct bond_check *ret)
{
	memset(ret, 0, sizeof(*ret));
	for (size_t i = 0; i < b->nslaves; i++)
		if (!b->slaves[i].mii_up)
			ret->down_slaves[ret->n_down++] = i;
	ret->needs_static_lag = b->mode == BOND_MODE_BALANCE_RR || b->mode == BOND_MODE_BALANCE_XOR;
	if (b->mode != BOND_MODE_8023AD)
		return;
	ret->lacp_partner_missing = mac_is_zero(b->partner_mac);
	for (size_t i = 0; i < b->nslaves; i++) {
		const struct bond_slave *s = &b->slaves[i];
		if (!s->mii_up)
			continue; /* reported as down already */
		bool outside = b->active_aggregator_id >= 0 && s->aggregator_id >= 0 &&
			       s->aggregator_id != b->active_aggregator_id;
		if (outside || mac_is_zero(s->partner_mac))
			ret->lacp_bad_slaves[ret->n_lacp_bad++] = i;
	}
}

int bonding_collapsed(const double *bytes_per_s, size_t n, double share, double min_bps)
{
	if (n < 2)
		return -1;
	double total = 0;
	size_t top = 0;
	for (size_t i = 0; i < n; i++) {
		total += bytes_per_s[i];
		if (bytes_per_s[i] > bytes_per_s[top])
			top = i;
	}
	if (total < min_bps || bytes_per_s[top] < share * total)
		return -1;
	return (int)top;
}
