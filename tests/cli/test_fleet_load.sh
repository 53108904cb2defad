#!/usr/bin/env bash
# fleet --fio and netcheck --peer on the fleet lab (tests/cli/fleetlab.sh):
# namespaced hosts on a bridge, each with its own sshd. fio's client/server
# mode from four client hosts; iperf3 to a peer across the bridge, with
# and without a tbf rate limit on the client's veth.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleetlab.sh"

if ! why=$(fleetlab_need); then skip "fleet load" "$why"; exit 0; fi
for tool in fio iperf3 tc; do
	command -v $tool >/dev/null 2>&1 || { skip "fleet load" "$tool is not installed"; exit 0; }
done

fleetlab_up
ok $? "lab up: a bridge, a client namespace, keys, an ssh config"
for h in c1 c2 c3 c4; do fleetlab_host $h ok || break; done && fleetlab_host cx notools && fleetlab_dead cd
ok $? "hosts up: four fio clients, one without fio or iperf3, one dead address"
DISK=$FLEET_FIX/disk

# fio processes in a host's namespace
fio_pids() { # HOST
	local pid
	for pid in $(fleetlab_pids "$1"); do
		[ "$(cat /proc/$pid/comm 2>/dev/null)" = fio ] && echo "$pid"
	done
}
no_fio_left() { # HOSTS...: no fio process in any of them (waits up to 10 s)
	local k h left
	for k in $(seq 50); do
		left=""
		for h in "$@"; do left="$left$(fio_pids $h)"; done
		[ -z "$left" ] && return 0
		sleep 0.2
	done
	for h in "$@"; do echo "# $h: fio left: $(fio_pids $h | tr '\n' ' ')"; done
	return 1
}
FIOJOB=(--rw=read --bs=64k --ioengine=psync --direct=1 --filename=$DISK --runtime=3 --time_based=1 --numjobs=2)

# --- fio client/server from four clients ---
fleet --fio --json c1,c2,c3,c4 -- "${FIOJOB[@]}" >"$TMP/fio.json" 2>"$TMP/fio.err"
ok $? "fleet --fio on four clients: exit 0" || sed 's/^/# /' "$TMP/fio.err"
check "four clients, in the order given" -- \
	test "$(json "$TMP/fio.json" '[.clients[].host] | join(",")')" = "c1,c2,c3,c4"
for h in c1 c2 c3 c4; do
	check "$h: ok, its figures under its own host name and address" -- jtest "$TMP/fio.json" \
		".clients[] | select(.host == \"$h\") | .status == \"ok\" and .read.bw_bytes_per_s > 0 and .jobs == 2 and .address == \"$(ip -n $FLEET-$h -4 -o addr show e0 | awk '{print $4}' | cut -d/ -f1)\""
done
sum=$(json "$TMP/fio.json" '[.clients[].read.bw_bytes_per_s] | add')
agg=$(json "$TMP/fio.json" '.aggregate.read.bw_bytes_per_s')
fio_total=$(json "$TMP/fio.json" '.aggregate.fio_all_clients.read_bw_bytes_per_s')
diag "aggregate $agg B/s, sum of clients $sum B/s, fio's All clients $fio_total B/s"
check "the aggregate equals the sum of the clients within 2%" -- \
	awk -v a="$agg" -v s="$sum" 'BEGIN { d = a - s; if (d < 0) d = -d; exit !(s > 0 && d <= 0.02 * s) }'
check "and fio's own All clients figure within 2%" -- \
	awk -v a="$agg" -v s="$fio_total" 'BEGIN { d = a - s; if (d < 0) d = -d; exit !(s > 0 && d <= 0.02 * s) }'
check "the run is stored with clients[] and aggregate" -- test "$(sqlite3 "$IOTRIAGE_STATE_DIR/iotriage.db" \
	"select count(*) from runs where id = '$(json "$TMP/fio.json" .run_id)'")" = 1
"$IOTRIAGE" show "$(json "$TMP/fio.json" .run_id)" >"$TMP/show.out" 2>&1
check "show: each client's rate under its host, and the aggregate" -- bash -c \
	"grep -q 'fleet fio read' '$TMP/show.out' && grep -q 'c4' '$TMP/show.out' && grep -q 'aggregate' '$TMP/show.out'"
check "no fio server left on any client" -- no_fio_left c1 c2 c3 c4

# --- fio missing on a client, or a client unreachable: said, nothing started ---
fleet --fio --json c1,cx -- "${FIOJOB[@]}" >"$TMP/nofio.json" 2>"$TMP/nofio.err"
ok $(($? != 3)) "fio missing on one client: exit 3 (no load run)"
check "cx: fio-missing, saying what to install" -- jtest "$TMP/nofio.json" \
	'.clients[] | select(.host == "cx") | .status == "fio-missing" and (.reason | test("fio is not installed on .cx.*install fio there"))'
check "c1: not started, because another client cannot take part" -- jtest "$TMP/nofio.json" \
	'.clients[] | select(.host == "c1") | .status == "error" and (.reason | test("not started"))'
check "no fio server was started on c1" -- test -z "$(fio_pids c1)"
fleet --fio c1,cd -- "${FIOJOB[@]}" >"$TMP/dead.out" 2>"$TMP/dead.err"
ok $(($? != 3)) "an unreachable client: exit 3"
check "cd: unreachable, with ssh's reason, in the table" -- grep -Eq '^cd .*unreachable.*Connection refused' "$TMP/dead.out"
fleet --fio c1 -- --rw=read job.fio >"$TMP/job.out" 2>"$TMP/job.err"
ok $(($? != 3)) "a job file operand: refused"
check "saying how to give the options" -- grep -q "give fio's options as --key=value" "$TMP/job.out"

# start_load NAME: a minute of fleet --fio on c1-c4 in the background
# (its pid in $pid, its document in $TMP/NAME.json); 0 once a server and
# its job process run on every client, 1 after 20 s without.
start_load() {
	local k h running
	fleetlab_config
	ip netns exec "$FLEET_NS_C" "$IOTRIAGE" fleet -F "$FLEET_SSH_CONFIG.all" --fio --json c1,c2,c3,c4 -- \
		--rw=read --bs=64k --filename=$DISK --runtime=60 --time_based=1 >"$TMP/$1.json" 2>"$TMP/$1.err" &
	pid=$!
	for k in $(seq 100); do
		running=0
		for h in c1 c2 c3 c4; do [ "$(fio_pids $h | wc -l)" -ge 2 ] || running=1; done
		[ $running = 0 ] && return 0
		sleep 0.2
	done
	return 1
}

# --- SIGINT during the load: every fio server stopped ---
start_load int
ok $? "the job runs on four clients (a server and its job process on each)"
sleep 1
kill -INT $pid
wait $pid
ok $(($? != 130)) "SIGINT: exit 130"
check "no fio server or job left on any client" -- no_fio_left c1 c2 c3 c4
check "no fio client left here" -- bash -c "! ip netns pids $FLEET_NS_C | xargs -r -I{} cat /proc/{}/comm 2>/dev/null | grep -qx fio"
check "the document says interrupted" -- jtest "$TMP/int.json" '.exit_status == 130 and (.error | test("interrupted"))'

# --- a dropped connection during the load: every ssh here killed (the
# sessions and the master connections); each client stops its fio server
# and the jobs it forked by itself ---
start_load drop
ok $? "the job runs on four clients again"
sleep 1
ssh_here=$(for p in $(ip netns pids "$FLEET_NS_C"); do [ "$(cat /proc/$p/comm 2>/dev/null)" = ssh ] && echo $p; done)
check "ssh sessions found here" -- test "$(echo $ssh_here | wc -w)" -ge 4
kill -KILL $ssh_here
check "the connections dropped: no fio server or job left on any client" -- no_fio_left c1 c2 c3 c4
for k in $(seq 150); do kill -0 $pid 2>/dev/null || break; sleep 0.2; done
kill -0 $pid 2>/dev/null && kill -INT $pid
wait $pid
rc=$?
ok $((rc == 0)) "the fleet does not report success after the drop (exit $rc)"

# --- netcheck --peer: iperf3 to a peer across the bridge ---
iperf_pids() { # HOST or "c" (the client namespace)
	local ns=$FLEET-$1 pid
	[ "$1" = c ] && ns=$FLEET_NS_C
	for pid in $(ip netns pids "$ns" 2>/dev/null); do
		[ "$(cat /proc/$pid/comm 2>/dev/null)" = iperf3 ] && echo "$pid"
	done
}
no_iperf_left() { # HOSTS...: no iperf3 in any of them (waits up to 10 s)
	local k h left
	for k in $(seq 50); do
		left=""
		for h in "$@"; do left="$left$(iperf_pids $h)"; done
		[ -z "$left" ] && return 0
		sleep 0.2
	done
	echo "# iperf3 left: $left"
	return 1
}
netcheck() { fleetlab_client "$IOTRIAGE" netcheck -F "$FLEET_SSH_CONFIG.all" --window 0.1 --peer-time 3 "$@"; }

netcheck --json --peer c1 >"$TMP/peer.json" 2>"$TMP/peer.err"
ok $? "netcheck --peer c1, unlimited: exit 0" || sed 's/^/# /' "$TMP/peer.err"
diag "unlimited: $(json "$TMP/peer.json" '.peers[0].paths[0] | "\(.single.received_bits_per_s / 1e6 | floor) Mbit/s single, \(.parallel.received_bits_per_s / 1e6 | floor) Mbit/s x4, link \(.link_speed_mbps) Mbit/s"')"
check "one path, from e0, both runs measured" -- jtest "$TMP/peer.json" \
	'.peers[0].paths | length == 1 and .[0].port == "e0" and .[0].single.measured and .[0].parallel.measured and .[0].parallel.streams == 4'
check "no throughput finding" -- jtest "$TMP/peer.json" '[.findings[] | select(.kind == "path_below_link" or .kind == "bond_one_member")] | length == 0'
check "no iperf3 left on the peer or here" -- no_iperf_left c1 c

# The bucket holds at least a timer tick of the rate (200 Mbit/s / HZ 250 =
# 100 KB): with less (64 KB was used) tbf itself undershoots, and a single
# TCP stream read 168 Mbit/s in 2 of 4 runs.
fleetlab_client tc qdisc add dev e0 root tbf rate 200mbit burst 256kb latency 50ms
ok $? "tbf: 200 Mbit/s on the client's veth"
netcheck --json --peer c1 >"$TMP/tbf.json" 2>"$TMP/tbf.err"
ok $? "netcheck --peer c1 through the limit: exit 0" || sed 's/^/# /' "$TMP/tbf.err"
single=$(json "$TMP/tbf.json" '.peers[0].paths[0].single.received_bits_per_s')
par=$(json "$TMP/tbf.json" '.peers[0].paths[0].parallel.received_bits_per_s')
diag "tbf 200mbit: single $single bit/s, 4 streams $par bit/s"
check "the single stream within 10% of 200 Mbit/s" -- \
	awk -v v="$single" 'BEGIN { exit !(v >= 180e6 && v <= 220e6) }'
check "the four streams too" -- awk -v v="$par" 'BEGIN { exit !(v >= 180e6 && v <= 220e6) }'
check "the path is flagged: far below the link speed, with a fix" -- jtest "$TMP/tbf.json" \
	'[.findings[] | select(.kind == "path_below_link" and .subject == "e0 -> c1" and (.fix | test("shaper")))] | length == 1'
netcheck --peer c1 >"$TMP/tbf.out" 2>&1
check "the table and the FINDING line" -- bash -c "grep -Eq '^c1 +10\\.77\\.0\\.[0-9]+ +e0 +10000 Mbit/s +[0-9]+ Mbit/s' '$TMP/tbf.out' && grep -q '^FINDING: the path to c1 from e0' '$TMP/tbf.out'"
"$IOTRIAGE" show "$(json "$TMP/tbf.json" .run_id)" >"$TMP/pshow.out" 2>&1
check "show: the peer's throughput per port" -- grep -q 'netcheck peer tcp single.*e0 -> c1' "$TMP/pshow.out"
fleetlab_client tc qdisc del dev e0 root

# --- netcheck --peer: bad input ---
netcheck --json --peer cd >"$TMP/pdead.json" 2>"$TMP/pdead.err"
ok $(($? != 1)) "an unreachable peer: exit 1 (a check could not be made)"
check "with ssh's reason" -- jtest "$TMP/pdead.json" '.peers[0].status == "not measured" and (.peers[0].reason | test("Connection refused"))'
netcheck --json --peer cx >"$TMP/pnone.json" 2>"$TMP/pnone.err"
ok $(($? != 1)) "iperf3 missing on the peer: exit 1"
check "saying what to install there" -- jtest "$TMP/pnone.json" '.peers[0].reason | test("iperf3 is not installed on .cx.*install iperf3 there")'
netcheck --peer c1 --peer c1 >"$TMP/ptwice.out" 2>"$TMP/ptwice.err"
ok $(($? != 2)) "a peer given twice: exit 2"
check "saying so" -- grep -q "given twice" "$TMP/ptwice.err"

# --- SIGINT during netcheck --peer: the iperf3 server stopped ---
fleetlab_config
ip netns exec "$FLEET_NS_C" "$IOTRIAGE" netcheck -F "$FLEET_SSH_CONFIG.all" --window 0.1 --peer-time 30 --peer c1 \
	>"$TMP/pint.out" 2>"$TMP/pint.err" &
pid=$!
for k in $(seq 100); do [ -n "$(iperf_pids c1)" ] && [ -n "$(iperf_pids c)" ] && break; sleep 0.1; done
check "iperf3 runs on the peer and here" -- test -n "$(iperf_pids c1)"
sleep 1
kill -INT $pid
wait $pid
ok $(($? != 130)) "SIGINT: exit 130"
check "no iperf3 left on the peer or here" -- no_iperf_left c1 c

finish
