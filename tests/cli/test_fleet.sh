#!/usr/bin/env bash
# fleet: one command on many hosts over real OpenSSH. Hosts are network
# namespaces on a bridge, each with its own sshd, host name, machine-id,
# disk and pool (tests/cli/fleetlab.sh); iotriage runs in a client namespace
# with its own ssh config (-F), key and known_hosts.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fleetlab.sh"

if ! why=$(fleetlab_need); then skip "fleet" "$why"; exit 0; fi

"$IOTRIAGE" fleet --help >"$TMP/help" 2>&1
ok $? "fleet --help exits 0"
check "and shows the form" -- grep -q -- "-- COMMAND" "$TMP/help"
"$IOTRIAGE" --help | grep -q "^  fleet "
ok $? "iotriage --help lists fleet"

fleetlab_up
ok $? "lab up: a bridge, a client namespace, keys, an ssh config"
# Three comparable hosts with disks read at 40 MB/s, one at 10 MB/s; one
# refusing our key, one without iotriage, one whose command fails, and one
# where nothing listens.
for h in h1 h2 h3; do fleetlab_host $h ok 41943040 || break; done &&
fleetlab_host h4 ok 10485760 &&
fleetlab_host hk nokey && fleetlab_host hm noiotriage && fleetlab_host hf nodisk && fleetlab_dead hd
ok $? "hosts up: 7 sshd in their own namespaces, and one dead address"
DISK=$FLEET_FIX/disk POOL=$FLEET_FIX/pool

# --- bad input: a clear error, nothing run ---
bad() { # NAME EXPECTED-TEXT ARGS...
	local name=$1 text=$2; shift 2
	fleet "$@" >"$TMP/bad.out" 2>"$TMP/bad.err"
	local rc=$?
	ok $((rc != 2)) "$name: exit 2"
	check "$name: says '$text'" -- grep -qF -- "$text" "$TMP/bad.err"
}
bad "no hosts" "no hosts given" -- readdisk "$DISK"
bad "an empty host in the list" "empty host name" h1,,h2 -- readdisk "$DISK"
bad "a duplicate host" "host 'h1' is listed twice" h1,h2,h1 -- readdisk "$DISK"
printf 'h1\nh2 h3\n' >"$TMP/hosts.bad"
bad "a malformed host file" "malformed line 2 of '$TMP/hosts.bad'" -f "$TMP/hosts.bad" -- readdisk "$DISK"
printf '# rack\nh1\n' >"$TMP/hosts.dup"
bad "a file repeating a listed host" "host 'h1' is listed twice" h1 -f "$TMP/hosts.dup" -- readdisk "$DISK"
printf '# nothing\n\n' >"$TMP/hosts.empty"
bad "an empty host file" "no hosts given" -f "$TMP/hosts.empty" -- readdisk "$DISK"
bad "--parallel 0" "--parallel '0' must be" h1 --parallel 0 -- readdisk "$DISK"
bad "no command" "no command to run" h1
printf -- '-oProxyCommand=x\n' >"$TMP/hosts.opt"
bad "a host that looks like an option" "is not a host name" -f "$TMP/hosts.opt" -- readdisk "$DISK"
check "nothing was run: no results here, no run on any host" -- \
	bash -c "[ ! -e '$IOTRIAGE_STATE_DIR/results' ] && [ -z \"\$(ls -A '$FLEET_DIR/h1/state')\" ]"

# --- one run, every kind of failure, the others complete ---
printf '# the comparable hosts\nh1\nh2\n' >"$TMP/hosts"
fleet -f "$TMP/hosts" h3,h4,hk,hm,hf,hd --parallel 3 --json -- readdisk "$DISK" --size 16M \
	>"$TMP/mixed.json" 2>"$TMP/mixed.err"
ok $(($? != 1)) "some hosts failed: exit 1 (partial)"
st() { json "$TMP/mixed.json" ".hosts[] | select(.host == \"$1\") | .status"; }
reason() { json "$TMP/mixed.json" ".hosts[] | select(.host == \"$1\") | .reason"; }
check "8 hosts in the order given (the list, then the file)" -- \
	test "$(json "$TMP/mixed.json" '[.hosts[].host] | join(",")')" = "h3,h4,hk,hm,hf,hd,h1,h2"
for h in h1 h2 h3 h4; do
	check "$h: ok, with its document" -- test "$(st $h)/$(json "$TMP/mixed.json" ".hosts[] | select(.host == \"$h\") | .document.command")" = "ok/readdisk"
	check "$h: identity is its own host name" -- test "$(json "$TMP/mixed.json" ".hosts[] | select(.host == \"$h\") | .identity.hostname")" = "fleet-$h"
	check "$h: and machine-id" -- test "$(json "$TMP/mixed.json" ".hosts[] | select(.host == \"$h\") | .identity.machine_id")" = "$(cat "$FLEET_DIR/$h/machine-id")"
done
check "hk: authentication refused" -- test "$(st hk)" = auth-refused
check "hk: says Permission denied" -- bash -c "grep -q 'Permission denied' <<<'$(reason hk)'"
check "hm: iotriage missing" -- test "$(st hm)" = iotriage-missing
check "hm: says what to install" -- bash -c "grep -q 'install iotriage 0.1.0 there' <<<\"\$0\"" "$(reason hm)"
check "hm: offers this binary (same system)" -- bash -c "grep -q 'this machine.s binary would run there' <<<\"\$0\"" "$(reason hm)"
check "hf: the command failed" -- test "$(st hf)" = failed
check "hf: with its exit status and its error" -- bash -c "grep -q 'exit status 1: READ-DISK.*is not a block device' <<<\"\$0\"" "$(reason hf)"
check "hf: its document came back too" -- test "$(json "$TMP/mixed.json" '.hosts[] | select(.host == "hf") | .document.exit_status')" = 1
check "hd: unreachable" -- test "$(st hd)" = unreachable
check "hd: says connection refused" -- bash -c "grep -q 'Connection refused' <<<\"\$0\"" "$(reason hd)"
check "summary: 4 ok, 4 failed" -- test "$(json "$TMP/mixed.json" '"\(.summary.ok)/\(.summary.failed)"')" = "4/4"
check "the slow host is named: h4 at about 25% of the median of 4 hosts" -- \
	jtest "$TMP/mixed.json" '.outliers.hosts | length == 1 and .[0].host == "h4" and .[0].confirmed and .[0].verdict == "slow"'
check "with the sentence" -- bash -c "grep -Eq '^host h4 reads at [0-9]+% of the median of 4 hosts \(2 of 2 runs\)$' <<<\"\$0\"" \
	"$(json "$TMP/mixed.json" '.outliers.hosts[0].sentence')"
for h in h1 h2 h3 h4 hf; do
	f=$(json "$TMP/mixed.json" ".hosts[] | select(.host == \"$h\") | .results_file")
	check "$h: its results file is kept here" -- bash -c "[ -f '$f' ] && jq -e '.run_id' '$f' >/dev/null && case '$f' in *_$h.json) true;; *) false;; esac"
done
db=$IOTRIAGE_STATE_DIR/iotriage.db
fleet_id=$(json "$TMP/mixed.json" .run_id)
check "each host's run is in the database with its identity" -- test "$(sqlite3 "$db" \
	"select count(*) from runs where fleet_run_id = '$fleet_id' and host_hostname = 'fleet-' || host and host_machine_id is not null")" = 5
check "the fleet run itself too" -- test "$(sqlite3 "$db" "select command from runs where id = '$fleet_id'")" = fleet
check "no master connection is left (control directory removed)" -- \
	bash -c "! ls -d /tmp/iotriage-fleet-* 2>/dev/null | xargs -r -n1 sh -c 'fuser \"\$0\" 2>/dev/null' | grep -q ."

# --- the table, all ok, none ok ---
fleet h1,h2,h3 -- readdisk "$DISK" --size 8M >"$TMP/all.out" 2>"$TMP/all.err"
ok $? "every host ok: exit 0"
check "one table row per host with its host name" -- bash -c "grep -Eq '^h1 +fleet-h1 +ok ' '$TMP/all.out' && grep -Eq '^h3 +fleet-h3 +ok ' '$TMP/all.out'"
check "and the judgement" -- grep -q "no host stands out from the median of 3 hosts" "$TMP/all.out"
fleet hd,hk -- readdisk "$DISK" >"$TMP/none.out" 2>"$TMP/none.err"
ok $(($? != 3)) "no host ok: exit 3"

# --- the time limit: interrupted there, cleaned up as a local Ctrl-C ---
fleet h1 --json --time-limit 4s -- benchpool "$POOL" 16M --tests builtin --runtime 60 >"$TMP/tl.json" 2>"$TMP/tl.err"
ok $(($? != 3)) "time limit on the only host: exit 3"
check "status time-limit" -- test "$(json "$TMP/tl.json" '.hosts[0].status')" = time-limit
check "the run there was interrupted (its document says 130)" -- test "$(json "$TMP/tl.json" '.hosts[0].document.exit_status')" = 130
check "h1: no process, no temporary area left" -- fleetlab_clean h1

# --- SIGINT reaches every host ---
wait_running() { # HOSTS...: until each runs iotriage and has made its area (20 s)
	local k h all
	for k in $(seq 100); do
		all=1
		for h in "$@"; do
			[ -n "$(fleetlab_iotriage_pids $h)" ] && [ -n "$(ls -A "$FLEET_DIR/$h/pool")" ] || all=0
		done
		[ $all = 1 ] && return 0
		sleep 0.2
	done
	return 1
}
fleetlab_config
ip netns exec "$FLEET_NS_C" "$IOTRIAGE" fleet -F "$FLEET_SSH_CONFIG.all" --remote-iotriage "$FLEET_FIX/bin/iotriage" \
	--json h1,h2,h3 -- benchpool "$POOL" 16M --tests builtin --runtime 60 >"$TMP/int.json" 2>"$TMP/int.err" &
pid=$!
wait_running h1 h2 h3
ok $? "benchpool runs on three hosts, each with its temporary area"
kill -INT $pid
wait $pid
ok $(($? != 130)) "SIGINT: the fleet exits 130"
for h in h1 h2 h3; do
	check "$h: interrupted, its run there ended 130" -- \
		test "$(json "$TMP/int.json" ".hosts[] | select(.host == \"$h\") | \"\(.status)/\(.document.exit_status)\"")" = interrupted/130
	check "$h: no process, no temporary area left" -- fleetlab_clean $h
done

# --- a dropped connection: the ssh clients killed, each host stops by itself ---
ip netns exec "$FLEET_NS_C" "$IOTRIAGE" fleet -F "$FLEET_SSH_CONFIG.all" --remote-iotriage "$FLEET_FIX/bin/iotriage" \
	--json h1,h2,h3 -- benchpool "$POOL" 16M --tests builtin --runtime 60 >"$TMP/drop.json" 2>"$TMP/drop.err" &
pid=$!
wait_running h1 h2 h3
ok $? "benchpool runs on three hosts again"
ssh_pids=$(ps -o pid= --ppid $pid -C ssh 2>/dev/null; ps -o pid=,comm= --ppid $pid | awk '$2 == "ssh" {print $1}')
ssh_pids=$(ps -o pid=,comm= --ppid $pid | awk '$2 == "ssh" {print $1}')
check "three ssh clients found" -- test "$(echo $ssh_pids | wc -w)" = 3
kill -KILL $ssh_pids
for h in h1 h2 h3; do
	check "$h: the run there noticed, stopped and cleaned up by itself" -- fleetlab_clean $h
done
wait $pid
ok $(($? != 3)) "the fleet reports every host failed: exit 3"
check "each host: the session ended by a signal" -- \
	test "$(json "$TMP/drop.json" '[.hosts[] | select(.reason | test("ended by signal 9"))] | length')" = 3
for h in h1 h2 h3; do
	check "$h: its iotriage log says it was interrupted by SIGHUP (exit 129)" -- \
		bash -c "ls '$FLEET_DIR/$h/state/results/' | grep -q benchpool && jq -s -e 'map(select(.command == \"benchpool\" and .exit_status == 129)) | length >= 1' '$FLEET_DIR/$h/state/results/'iotriage_benchpool_*.json >/dev/null"
done

finish
