#!/usr/bin/env bash
# netcheck on real networks in namespaces (tests/cli/netlab.sh draws them):
# veth pairs, a router namespace and a bridge, real ICMP. iotriage runs in
# namespace A with 'ip netns exec', so every probe stays inside the lab.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/netlab.sh"

if ! need_root; then skip "netcheck" "need root for network namespaces"; exit 0; fi
if ! command -v ip >/dev/null; then skip "netcheck" "iproute2 is not installed (scripts/install-deps.sh)"; exit 0; fi

nc_a() { ip netns exec "$NS_A" "$IOTRIAGE" netcheck "$@"; }

netlab_up
ok $? "lab up: 6 namespaces, veth pairs, a router and a bridge"

"$IOTRIAGE" netcheck --help >"$TMP/help" 2>&1
ok $? "netcheck --help exits 0"
check "and lists --dest and --window" -- bash -c "grep -q -- '-d, --dest HOST' '$TMP/help' && grep -q -- '-w, --window SECONDS' '$TMP/help'"
"$IOTRIAGE" --help | grep -q "^  netcheck "
ok $? "iotriage --help lists netcheck"

# --- usage errors, before any probe (run inside A: a name lookup cannot leave it) ---
nc_a --bogus >/dev/null 2>"$TMP/e1"
ok $(($? != 2)) "unknown option: exit 2"
check "and says which" -- grep -q "unknown option '--bogus'" "$TMP/e1"
nc_a --window abc >/dev/null 2>"$TMP/e2"
ok $(($? != 2)) "--window abc: exit 2"
check "and says why" -- grep -q "\-\-window 'abc' is not a duration" "$TMP/e2"
nc_a --window 0 >/dev/null 2>/dev/null
ok $(($? != 2)) "--window 0: exit 2"
nc_a --window 11m >/dev/null 2>/dev/null
ok $(($? != 2)) "--window above 10 minutes: exit 2"
nc_a --dest 'bad name!' >/dev/null 2>"$TMP/e3"
ok $(($? != 2)) "--dest with a bad name: exit 2"
check "and says it is not a host name" -- grep -q "'bad name!' is not an IPv4 address or a host name" "$TMP/e3"
nc_a --dest no-such-host.invalid >/dev/null 2>"$TMP/e4"
ok $(($? != 2)) "--dest that does not resolve: exit 2"
check "and says it cannot be resolved" -- grep -q "cannot resolve --dest 'no-such-host.invalid'" "$TMP/e4"
nc_a --dest ::1 >/dev/null 2>"$TMP/e5"
ok $(($? != 2)) "an IPv6 --dest: exit 2"
check "and says IPv4 only" -- grep -q "IPv6 destinations are not supported yet" "$TMP/e5"
nc_a extra >/dev/null 2>/dev/null
ok $(($? != 2)) "an operand: exit 2"
check "no results file for a usage error" -- bash -c "! ls '$IOTRIAGE_STATE_DIR/results/' 2>/dev/null | grep -q netcheck"

# --- MTU: a router whose far side is 1500 between two 9000 ends, and a
# bridge (switch) port at 1500 between two 9000 ends; a clean 9000 path beside it ---
nc_a --dest 10.99.4.2 --dest 10.99.5.2 --dest 10.99.5.3 --window 0.2 --json >"$TMP/mtu.json" 2>"$TMP/mtu.err"
ok $? "netcheck with three destinations exits 0"
d='.destinations[] | select(.address == "10.99.4.2") | .probes[0]'
check "via the router: probed from a0 through its gateway" -- jtest "$TMP/mtu.json" "$d | .port == \"a0\" and .via == \"10.99.1.254\" and .reachable"
check "via the router: 9000-byte DF probe fails" -- jtest "$TMP/mtu.json" "$d | .jumbo.result == \"fails\" and .jumbo.full_size_bytes == 9000 and .jumbo.full_size_passes == false"
check "via the router: largest passing size is 1500" -- jtest "$TMP/mtu.json" "$d | .jumbo.largest_passing_bytes == 1500 and .jumbo.largest_passing_payload_bytes == 1472"
check "via the router: the router's reported next-hop MTU is kept" -- jtest "$TMP/mtu.json" "$d | .jumbo.router_reported_mtu == 1500 and .jumbo.full_size_probe.last_error_from == \"10.99.1.254\""
d='.destinations[] | select(.address == "10.99.5.2") | .probes[0]'
check "through the bridge: the 1500 switch port drops 9000 silently, largest 1500 found" -- \
	jtest "$TMP/mtu.json" "$d | .port == \"a2\" and .jumbo.result == \"fails\" and .jumbo.largest_passing_bytes == 1500 and .jumbo.router_reported_mtu == null"
check "a clean 9000 path passes" -- jtest "$TMP/mtu.json" '.destinations[] | select(.address == "10.99.5.3") | .probes[0].jumbo.result == "passes"'
check "two mtu_mismatch findings, naming a0 and a2" -- \
	jtest "$TMP/mtu.json" '[.findings[] | select(.kind == "mtu_mismatch") | .subject] | sort == ["a0","a2"]'
check "the finding says the largest size and the fix" -- \
	jtest "$TMP/mtu.json" '.findings[] | select(.kind == "mtu_mismatch" and .subject == "a0") | (.sentence | test("largest that does is 1500 bytes")) and (.fix | test("MTU 9000 on every hop"))'
check "no mismatch reported for the clean path" -- bash -c "! jq -r '.findings[].sentence' '$TMP/mtu.json' | grep -q 10.99.5.3"
check "RTT min <= avg <= max, all positive" -- \
	jtest "$TMP/mtu.json" '[.destinations[].probes[].echo | .rtt_min_ns > 0 and .rtt_min_ns <= .rtt_avg_ns and .rtt_avg_ns <= .rtt_max_ns] | all'

# --- ports: state, speed, duplex, MTU, addresses ---
check "a0: MTU 9000, up, its address" -- \
	jtest "$TMP/mtu.json" '.ports[] | select(.name == "a0") | .mtu == 9000 and .state == "up" and .kind == "veth" and ([.addresses[] | select(.address == "10.99.1.1" and .prefixlen == 24)] | length == 1)'
check "a1: MTU 1500" -- jtest "$TMP/mtu.json" '.ports[] | select(.name == "a1") | .mtu == 1500'
check "veth speed and duplex from ethtool (10000 Mb/s, full)" -- \
	jtest "$TMP/mtu.json" '.ports[] | select(.name == "a0") | .speed_mbps == 10000 and .duplex == "full"'
check "the loopback has no speed: unknown" -- jtest "$TMP/mtu.json" '.ports[] | select(.name == "lo") | .speed_mbps == null and .duplex == "unknown"'
check "only A's ports are seen (r0 is in another namespace)" -- jtest "$TMP/mtu.json" '[.ports[].name] | sort == ["a0","a1","a2","lo"]'

# --- unreachable and unrouted destinations ---
nc_a --dest 10.99.1.77 --dest 192.0.2.9 --window 0.1 --json >"$TMP/un.json" 2>/dev/null
ok $? "netcheck with unreachable destinations still exits 0 (findings are results)"
check "10.99.1.77 (on a0's subnet, nobody there): 100% loss" -- \
	jtest "$TMP/un.json" '.destinations[] | select(.address == "10.99.1.77") | .reachable == false and .probes[0].port == "a0" and .probes[0].echo.loss_percent == 100 and .probes[0].echo.sent == 5 and .probes[0].echo.received == 0'
check "reported as unreachable" -- \
	jtest "$TMP/un.json" '.findings[] | select(.kind == "unreachable" and .subject == "10.99.1.77") | .sentence | test("unreachable from a0: 5 of 5 probes lost \\(100% loss\\)")'
check "192.0.2.9 with no default route: no route" -- \
	jtest "$TMP/un.json" '.destinations[] | select(.address == "192.0.2.9") | .routed == false and (.probes | length == 0)'
check "reported as no route" -- jtest "$TMP/un.json" '[.findings[] | select(.kind == "no_route" and .subject == "192.0.2.9")] | length == 1'
check "no jumbo test on an unreachable destination" -- \
	jtest "$TMP/un.json" '.destinations[] | select(.address == "10.99.1.77") | .probes[0].jumbo.result == "not_tested"'

# --- two default routes of equal metric on different ports ---
ip -n "$NS_A" route add default via 10.99.1.254 dev a0 metric 100 &&
	ip -n "$NS_A" route append default via 10.99.2.254 dev a1 metric 100
ok $? "two default routes of metric 100 (a0 via 10.99.1.254, a1 via 10.99.2.254)"
nc_a --window 0.1 --json >"$TMP/dr.json" 2>/dev/null
ok $? "netcheck without --dest exits 0"
check "flagged as competing default routes" -- \
	jtest "$TMP/dr.json" '[.findings[] | select(.kind == "competing_default_routes")] | length == 1'
check "naming both ports and gateways" -- \
	jtest "$TMP/dr.json" '.findings[] | select(.kind == "competing_default_routes") | .sentence | test("equal metric 100") and test("via 10.99.1.254 on a0") and test("via 10.99.2.254 on a1")'
check "with the fix: one gateway" -- \
	jtest "$TMP/dr.json" '.findings[] | select(.kind == "competing_default_routes") | .fix | test("gateway on one port only")'
check "the gateways are the default destinations, each from its own port" -- \
	jtest "$TMP/dr.json" '[.destinations[] | {address, source, port: .probes[0].port, reachable}] | sort_by(.address) == [{"address":"10.99.1.254","source":"gateway","port":"a0","reachable":true},{"address":"10.99.2.254","source":"gateway","port":"a1","reachable":true}]'
check "the routes are in the document" -- \
	jtest "$TMP/dr.json" '[.routes[] | select(.default) | {gateway, port, metric}] | sort_by(.port) == [{"gateway":"10.99.1.254","port":"a0","metric":100},{"gateway":"10.99.2.254","port":"a1","metric":100}]'
check "no cached route exception is listed as a route" -- jtest "$TMP/dr.json" '[.routes[] | select(.destination == "10.99.4.2/32")] | length == 0'
# This host's own addresses: delivered through lo (loopback) or the port
# holding them, never out through a default route's gateway.
nc_a --dest 127.0.0.1 --dest 10.99.1.1 --window 0.1 --json >"$TMP/own.json" 2>/dev/null
ok $? "netcheck towards this host's own addresses exits 0"
check "127.0.0.1 probed from lo, 10.99.1.1 from a0, both without a gateway and reached" -- jtest "$TMP/own.json" \
	'[.destinations[] | select(.address == "127.0.0.1" or .address == "10.99.1.1") | {address, port: .probes[0].port, via: .probes[0].via, reachable, n: (.probes | length)}] | sort_by(.address)
	 == [{"address":"10.99.1.1","port":"a0","via":null,"reachable":true,"n":1},{"address":"127.0.0.1","port":"lo","via":null,"reachable":true,"n":1}]' ||
	diag "$(jq -c '.destinations' "$TMP/own.json")"
check "and no unreachable finding for them" -- jtest "$TMP/own.json" '[.findings[] | select(.kind == "unreachable")] | length == 0'
nc_a --window 0.1 >"$TMP/dr.txt" 2>/dev/null
check "human output: a verdict line for it" -- \
	grep -q "^FINDING: 2 IPv4 default routes of equal metric 100 on different ports: via 10.99.1.254 on a0, via 10.99.2.254 on a1" "$TMP/dr.txt"
check "human output: the route table" -- grep -Eq "^default +10.99.2.254 +a1 +100$" "$TMP/dr.txt"

ip -n "$NS_A" route del default via 10.99.2.254 dev a1 metric 100 &&
	ip -n "$NS_A" route add default via 10.99.2.254 dev a1 metric 200
ok $? "the second gateway moved to metric 200 (a fallback)"
nc_a --window 0.1 --json >"$TMP/dr2.json" 2>/dev/null
check "a fallback of higher metric is not flagged" -- \
	jtest "$TMP/dr2.json" '[.findings[] | select(.kind == "competing_default_routes")] | length == 0'
check "and with every gateway reachable there is no finding at all" -- jtest "$TMP/dr2.json" '.summary.findings == 0 and .exit_status == 0'
nc_a --window 0.1 >"$TMP/dr2.txt" 2>/dev/null
check "human output says so" -- grep -q "^No finding" "$TMP/dr2.txt"

# --- traffic over the window: UDP sent from A on a2 while netcheck counts
# (1 MiB every 0.1 s, one process per burst, so a loaded machine still sends) ---
ip netns exec "$NS_A" bash -c 'for i in $(seq 25); do head -c 1M /dev/zero >/dev/udp/10.99.5.3/9; sleep 0.1; done' 2>/dev/null &
sender=$!
undo "kill $sender"
sleep 0.2
nc_a --dest 10.99.5.3 --window 1 --json >"$TMP/tr.json" 2>/dev/null
wait "$sender" 2>/dev/null
check "the window is about 1 s" -- jtest "$TMP/tr.json" '.parameters.window_seconds >= 1 and .parameters.window_seconds < 1.5'
check "a2 sent the UDP traffic during the window (over 1 MB)" -- \
	jtest "$TMP/tr.json" '.ports[] | select(.name == "a2") | .window.tx_bytes >= 1000000 and .window.tx_packets > 0 and .window.tx_bytes_per_s > 0'
check "and carries the most of all ports" -- \
	jtest "$TMP/tr.json" '([.ports[] | {name, b: .window.tx_bytes_per_s}] | max_by(.b) | .name) == "a2"'
check "a1 carried none of it" -- jtest "$TMP/tr.json" '.ports[] | select(.name == "a1") | .window.tx_bytes < 10000'

# --- the document and the log ---
check "the document is a netcheck run with its results file" -- \
	jtest "$TMP/mtu.json" '.command == "netcheck" and (.results_file | length > 0) and .exit_status == 0 and .parameters.icmp_socket == "raw"'
check "results file written" -- test -s "$(jq -r .results_file "$TMP/mtu.json")"
check "log has the NET-CHECK finding lines" -- \
	grep -q "WARN, iotriage} NET-CHECK (a0): MTU mismatch between a0 and 10.99.4.2" "$IOTRIAGE_STATE_DIR/iotriage.log"
check "no bond in this kernel: bonds is an empty list" -- jtest "$TMP/mtu.json" '.bonds == []'

# --- bonds: this kernel has no bonding driver ('ip link add type bond' says
# "Unknown device type"), so no live bond can exist; captured reports in the
# driver's format stand in for /proc/net/bonding through IOTRIAGE_BONDING_DIR.
# The balance-xor one names the lab's a1 and a2 as its ports, so that the
# traffic-collapse check runs on real counters. ---
data=$(cd "$(dirname "$0")/../data" && pwd)
bdir=$TMP/bonding
mkdir -p "$bdir"
cp "$data/bonding_8023ad_no_partner.txt" "$bdir/bond0"
cp "$data/bonding_active_backup.txt" "$bdir/bond1"
cp "$data/bonding_8023ad_lacp.txt" "$bdir/bond3"
cat >"$bdir/bond2" <<'REPORT'
Ethernet Channel Bonding Driver: v6.1.0-18-amd64

Bonding Mode: load balancing (xor)
Transmit Hash Policy: layer2 (0)
MII Status: up
MII Polling Interval (ms): 100
Up Delay (ms): 0
Down Delay (ms): 0
Peer Notification Delay (ms): 0

Slave Interface: a1
MII Status: up
Speed: 10000 Mbps
Duplex: full
Link Failure Count: 0
Permanent HW addr: 02:00:00:00:00:a1
Slave queue ID: 0

Slave Interface: a2
MII Status: up
Speed: 10000 Mbps
Duplex: full
Link Failure Count: 0
Permanent HW addr: 02:00:00:00:00:a2
Slave queue ID: 0
REPORT
# About 10 MB/s of UDP leaves by a2 while netcheck counts; a1 stays idle.
ip netns exec "$NS_A" bash -c 'for i in $(seq 30); do head -c 1M /dev/zero >/dev/udp/10.99.5.3/9; sleep 0.1; done' 2>/dev/null &
sender=$!
undo "kill $sender"
sleep 0.2
ip netns exec "$NS_A" env IOTRIAGE_BONDING_DIR="$bdir" "$IOTRIAGE" netcheck --dest 10.99.5.3 --window 1 --json >"$TMP/bond.json" 2>/dev/null
ok $? "netcheck with four captured bond reports exits 0"
ip netns exec "$NS_A" env IOTRIAGE_BONDING_DIR="$bdir" "$IOTRIAGE" netcheck --dest 10.99.5.3 --window 0.1 >"$TMP/bond.txt" 2>/dev/null
wait "$sender" 2>/dev/null
check "four bonds with their modes" -- \
	jtest "$TMP/bond.json" '[.bonds[] | {name, mode}] | sort_by(.name) == [{"name":"bond0","mode":"802.3ad"},{"name":"bond1","mode":"active-backup"},{"name":"bond2","mode":"balance-xor"},{"name":"bond3","mode":"802.3ad"}]'
check "802.3ad without a partner: the switch is not running LACP on these ports" -- \
	jtest "$TMP/bond.json" '.findings[] | select(.kind == "lacp_not_negotiated" and .subject == "bond0") | .sentence | test("the switch is not running LACP on these ports: eno2, eno3")'
check "802.3ad with a negotiating switch: no LACP finding" -- \
	jtest "$TMP/bond.json" '[.findings[] | select(.subject == "bond3")] | length == 0'
check "active-backup with a port down: named" -- \
	jtest "$TMP/bond.json" '.findings[] | select(.kind == "bond_slave_down" and .subject == "bond1") | .sentence | test("1 of 2 ports have no link: enp1s0f1")'
check "balance-xor: noted as needing an Etherchannel-capable switch" -- \
	jtest "$TMP/bond.json" '.findings[] | select(.kind == "static_lag_needed" and .subject == "bond2") | .severity == "note" and (.sentence | test("Etherchannel-capable switch"))'
check "balance-xor with all traffic on a2: collapsed onto one port" -- \
	jtest "$TMP/bond.json" '.findings[] | select(.kind == "traffic_collapsed" and .subject == "bond2") | .sentence | test("a2 carries over 90% of the bond.s traffic")'
check "the partner MAC is in the document" -- \
	jtest "$TMP/bond.json" '.bonds[] | select(.name == "bond0") | .partner_mac == "00:00:00:00:00:00" and ([.slaves[].aggregator_id] == [1,2])'
check "human output: a verdict line for the LACP finding" -- \
	grep -q "^FINDING: bond0 (802.3ad): the switch is not running LACP on these ports: eno2, eno3" "$TMP/bond.txt"
check "human output: a NOTE line for balance-xor" -- grep -q "^NOTE: bond2 (balance-xor) needs an Etherchannel-capable switch" "$TMP/bond.txt"

# --- partial loss: C drops every second echo reply it sends (iptables'
# statistic match, inside C's namespace only; this kernel has no netem) ---
if command -v iptables-legacy >/dev/null &&
	ip netns exec "$NS_C" iptables-legacy -A OUTPUT -p icmp --icmp-type echo-reply \
		-m statistic --mode nth --every 2 --packet 0 -j DROP 2>/dev/null; then
	nc_a --dest 10.99.5.2 --window 0.1 --json >"$TMP/loss.json" 2>/dev/null
	ok $? "netcheck towards a lossy destination exits 0"
	check "every second reply lost: 2 of 5 answered, 60% loss" -- \
		jtest "$TMP/loss.json" '.destinations[0].probes[0].echo | .sent == 5 and .received == 2 and .loss_percent == 60'
	check "reported as packet loss, not as unreachable" -- \
		jtest "$TMP/loss.json" '[.findings[] | select(.subject == "10.99.5.2") | .kind] == ["packet_loss"] and .destinations[0].reachable'
	check "the sentence counts the lost probes" -- \
		jtest "$TMP/loss.json" '.findings[] | select(.kind == "packet_loss") | .sentence | test("10.99.5.2 from a2: 3 of 5 probes lost \\(60% loss\\)")'
else
	skip "partial loss" "iptables-legacy (package iptables) or the kernel's xt statistic match is missing"
fi

# --- without root: the unprivileged ping socket, where the namespace allows it ---
if command -v setpriv >/dev/null; then
	udir=$(mktemp -d /tmp/iotriage-nc-nobody.XXXXXX)
	undo "rm -rf $udir"
	chmod 777 "$udir"
	nobody_bin=$(unprivileged_copy "$IOTRIAGE")
	as_nobody() { ip netns exec "$NS_A" setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env IOTRIAGE_STATE_DIR="$udir" "$nobody_bin" netcheck "$@"; }
	as_nobody --dest 10.99.4.2 --window 0.1 --json >"$TMP/np0.json" 2>"$TMP/np0.err"
	ok $(($? != 1)) "as nobody with ping sockets off (ping_group_range 1 0): exit 1"
	check "and says the ICMP socket could not be opened" -- grep -q "cannot open an ICMP socket towards 10.99.4.2: Operation not permitted" "$TMP/np0.err"
	check "the document counts the check that failed" -- jtest "$TMP/np0.json" '.summary.checks_failed == 1 and .exit_status == 1'
	ip netns exec "$NS_A" sysctl -qw net.ipv4.ping_group_range="0 2147483647"
	as_nobody --dest 10.99.4.2 --window 0.1 --json >"$TMP/np.json" 2>/dev/null
	ok $? "as nobody with ping sockets allowed in the namespace: exit 0"
	check "probed with a ping socket, not a raw one" -- jtest "$TMP/np.json" '.parameters.icmp_socket == "ping"'
	check "and finds the same: 1500 passes, the router says 1500" -- \
		jtest "$TMP/np.json" '.destinations[0].probes[0] | .echo.received == 5 and .jumbo.largest_passing_bytes == 1500 and .jumbo.router_reported_mtu == 1500'
else
	skip "netcheck without root" "setpriv (util-linux) is not installed"
fi

# --- nothing left behind ---
while IFS= read -r line; do eval "$line" >/dev/null 2>&1; done < <(tac "$UNDO_FILE")
: >"$UNDO_FILE"
check "every lab namespace removed (and with them their links)" -- bash -c "! ip netns list | grep -q '^$NETLAB-'"

finish
