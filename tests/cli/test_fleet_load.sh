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
check "no fio server left on any client" -- no_fio_left c1 c2 c3 c4
