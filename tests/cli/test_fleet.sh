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
	check "$h: ok, with its document" -- test "$(st $h)/$(json "$TMP/mixed.json" ".hosts[] | select(.host == \"$h\") | .document.command")" = "ok/readdisk" ||
		{ diag "$h: $(st $h): $(reason $h)"; grep -hs "no response" "$FLEET_DIR/$h/state/iotriage.log" | sed 's/^/# /'; }
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

# --- history, show, compare and report know hosts (the run above) ---
f8=${fleet_id:0:8}
runid() { json "$TMP/mixed.json" ".hosts[] | select(.host == \"$1\") | .document.run_id"; }
"$IOTRIAGE" history >"$TMP/hist.out" 2>&1
ok $? "history exits 0"
check "history: a HOST column" -- grep -Eq '^RUN +COMMAND +HOST +STARTED' "$TMP/hist.out"
for h in h1 h4 hf; do
	check "history: $h's run with its host and the fleet run" -- grep -Eq "^$(runid $h) +readdisk +$h \(fleet $f8\) " "$TMP/hist.out"
done
check "history: the fleet run itself is local" -- grep -Eq "^$fleet_id +fleet +local " "$TMP/hist.out"
"$IOTRIAGE" history --host h4 --json >"$TMP/hist4.json"
check "history --host h4: only h4's runs, all of them" -- jtest "$TMP/hist4.json" \
	"(.runs | length) == $(sqlite3 "$db" "select count(*) from runs where host = 'h4'") and (.runs | length) >= 1 and all(.runs[]; .host == \"h4\")"
check "history --host h4: the run of the fleet run above" -- jtest "$TMP/hist4.json" "any(.runs[]; .run_id == \"$(runid h4)\" and .fleet_run_id == \"$fleet_id\")"
"$IOTRIAGE" history --host fleet-h4 --json >"$TMP/hist4n.json"
check "history --host: the host name finds the same runs" -- test "$(json "$TMP/hist4n.json" '[.runs[].run_id] | join(",")')" = "$(json "$TMP/hist4.json" '[.runs[].run_id] | join(",")')"
"$IOTRIAGE" history --host nosuch >"$TMP/histn.out" 2>&1
check "history --host of no host: none match" -- grep -q "^No runs match" "$TMP/histn.out"

"$IOTRIAGE" show "$f8" >"$TMP/show.out" 2>&1
ok $? "show FLEET_RUN exits 0"
for h in h1 h2 h3 h4; do
	check "show: $h's row: ok, its run, its rate and a bar" -- grep -Eq "^$h +fleet-$h +ok +${h:+$(runid $h | cut -c1-8)} +read +[0-9.]+ [kMG]B/s +[0-9]+% +#+$" "$TMP/show.out"
done
check "show: h4 well under the median, the others near it" -- bash -c \
	"awk '\$1 ~ /^h[1-4]\$/ { p = \$8 + 0; if (\$1 == \"h4\" ? p >= 50 : (p < 80 || p > 125)) bad = 1 } END { exit bad }' '$TMP/show.out'"
check "show: h4's bar is the shortest" -- bash -c "[ \$(awk '\$1 == \"h4\" { print length(\$NF) }' '$TMP/show.out') -lt \$(awk '\$1 == \"h1\" { print length(\$NF) }' '$TMP/show.out') ]"
check "show: the failed hosts with their status" -- bash -c "grep -Eq '^hd +- +unreachable ' '$TMP/show.out' && grep -Eq '^hk +- +auth-refused ' '$TMP/show.out'"
check "show: the outlier host named" -- grep -Eq "^host h4 is the outlier: [0-9]+% of the median of 4 hosts \(median host h[123]\); the fleet's judgement confirmed it$" "$TMP/show.out"
"$IOTRIAGE" show "$f8@h4" >"$TMP/show4.out" 2>&1
ok $? "show RUN@HOST exits 0"
check "show RUN@HOST: h4's own run, under its host" -- grep -q "^run $(runid h4): readdisk on h4, " "$TMP/show4.out"
check "show RUN@HOST: its figure" -- grep -Eq "^readdisk sequential read [^ ]+ +bandwidth +$FLEET_FIX/disk +[0-9.]+ [kMG]?B/s" "$TMP/show4.out"
"$IOTRIAGE" show --json "$f8@h2" >"$TMP/show2.json"
check "show --json RUN@HOST: h2's document as it came back" -- test "$(json "$TMP/show2.json" .run_id)/$(json "$TMP/show2.json" .host)" = "$(runid h2)/fleet-h2"
"$IOTRIAGE" show "$f8@hd" >"$TMP/showd.out" 2>&1
ok $(($? != 1)) "show RUN@HOST of a host without a document: exit 1"
check "saying why" -- grep -q "host 'hd' of fleet run '$fleet_id' sent back no document (unreachable: .*Connection refused" "$TMP/showd.out"
"$IOTRIAGE" show "$f8@nosuch" >"$TMP/shown.out" 2>&1
ok $(($? != 1)) "show RUN@HOST of no such host: exit 1"
check "listing the fleet's hosts" -- grep -q "has no host 'nosuch' (its hosts: h3, h4, hk, hm, hf, hd, h1, h2)" "$TMP/shown.out"
"$IOTRIAGE" show "$(runid h1)@h1" >"$TMP/shownf.out" 2>&1
ok $(($? != 1)) "show RUN@HOST of a run that is no fleet run: exit 1"
check "saying so" -- grep -q "is a readdisk run, not a fleet run of hosts" "$TMP/shownf.out"

"$IOTRIAGE" compare "$f8@h1" "$f8@h4" --json >"$TMP/cmp14.json"
ok $? "compare RUN@HOST RUN@HOST exits 0"
check "compare h1 with h4: h4's read is worse, by over 50%" -- jtest "$TMP/cmp14.json" \
	"[.comparisons[] | select(.metric == \"bandwidth\")] | length == 1 and .[0].verdict == \"worse\" and .[0].change_percent < -50"
"$IOTRIAGE" compare "$f8@h1" "$f8@h2" --json >"$TMP/cmp12.json"
check "compare h1 with h2: no significant change" -- jtest "$TMP/cmp12.json" '[.comparisons[] | select(.metric == "bandwidth")][0].verdict == "not significant"'
"$IOTRIAGE" compare --hosts "$f8" --json >"$TMP/cmph.json"
ok $? "compare --hosts FLEET_RUN exits 0"
base=$(json "$TMP/cmph.json" .base_host)
check "compare --hosts: the base is the median host (one of h1-h3)" -- bash -c "case '$base' in h1|h2|h3) true;; *) false;; esac"
check "compare --hosts: every other host with a document against it (h1-h4, hf)" -- jtest "$TMP/cmph.json" \
	"[.comparisons[].run_b] | unique == ([\"h1\",\"h2\",\"h3\",\"h4\",\"hf\"] | map(select(. != \"$base\")) | map(\"$f8@\" + .) | sort)"
check "compare --hosts: only h4 is worse" -- jtest "$TMP/cmph.json" \
	"[.comparisons[] | select(.verdict == \"worse\") | .run_b] == [\"$f8@h4\"]"
check "compare --hosts: h4 named the outlier" -- jtest "$TMP/cmph.json" \
	'.outlier_host == "h4" and (.outlier | test("^host h4 is the outlier: [0-9]+% of the median of 4 hosts"))'
"$IOTRIAGE" compare --hosts "$f8" >"$TMP/cmph.out"
check "compare --hosts: the table of hosts and the sentence" -- bash -c "grep -Eq '^h4 +fleet-h4 +ok ' '$TMP/cmph.out' && grep -q '^host h4 is the outlier' '$TMP/cmph.out'"
"$IOTRIAGE" compare --hosts --base h4 "$f8" --json >"$TMP/cmpb.json"
check "compare --hosts --base h4: h4 is the base, the others better" -- jtest "$TMP/cmpb.json" \
	'.base_host == "h4" and ([.comparisons[] | select(.verdict == "better")] | length) == 3'
"$IOTRIAGE" compare --hosts --base nosuch "$f8" >"$TMP/cmpn.out" 2>&1
ok $(($? != 1)) "compare --hosts --base of no such host: exit 1"
check "saying so" -- grep -q "fleet run '$fleet_id' has no host 'nosuch'" "$TMP/cmpn.out"
"$IOTRIAGE" compare --base h1 "$f8" "$f8" >"$TMP/cmpu.out" 2>&1
ok $(($? != 2)) "compare --base without --hosts: exit 2"
"$IOTRIAGE" compare --hosts "$(runid h1)" >"$TMP/cmpnf.out" 2>&1
ok $(($? != 1)) "compare --hosts of a run that is no fleet run: exit 1"

"$IOTRIAGE" report "$f8" --html "$TMP/fleet.html" --csv "$TMP/fleet.csv" --prom "$TMP/fleet.prom" 2>"$TMP/report.err"
ok $? "report FLEET_RUN exits 0"
csv_host_rows() { # each host's one bandwidth row: its run id and its host in the host column
	local h
	for h in h1 h2 h3 h4 hf; do
		awk -F, -v h=$h -v id="$(runid $h)" '$4 == h && $1 == id && $6 == "bandwidth" { n++ } END { exit n != 1 }' \
			"$TMP/fleet.csv" || return 1
	done
}
check "report CSV: each host's rows under its host" -- csv_host_rows
prom_host_labels() {
	local h
	for h in h1 h2 h3 h4; do
		grep -q "^iotriage_bandwidth_bytes_per_second{run_id=\"$(runid $h)\",command=\"readdisk\",host=\"$h\"," \
			"$TMP/fleet.prom" || return 1
	done
}
check "report Prometheus: a host label on each host's sample" -- prom_host_labels
if command -v promtool >/dev/null; then
	check "report Prometheus: promtool check metrics passes" -- bash -c "promtool check metrics <'$TMP/fleet.prom' >/dev/null 2>&1"
else
	skip "promtool check metrics" "promtool is not installed"
fi
hosts_html() { sed -n '/<section class="hosts">/,/<\/section>/p' "$TMP/fleet.html" >"$TMP/hosts.html"; }
hosts_html
check "report HTML: a hosts section with a bar per host with a figure (h1-h4)" -- \
	test "$(grep -c '<rect class="bar' "$TMP/hosts.html")" = 4
check "report HTML: h4's bar alone is the outlier" -- bash -c \
	"test \$(grep -c '<rect class=\"bar outlier\"' '$TMP/hosts.html') = 1 && grep -q 'Outlier host: h4' '$TMP/hosts.html'"
check "report HTML: the failed hosts with their reason" -- bash -c \
	"grep -q '<td>hd</td>' '$TMP/hosts.html' && grep -q 'unreachable: .*Connection refused' '$TMP/hosts.html'"

# --- the table, all ok, none ok ---
fleet h1,h2,h3 -- readdisk "$DISK" --size 8M >"$TMP/all.out" 2>"$TMP/all.err"
ok $? "every host ok: exit 0" || {
	diag_file "$TMP/all.out"
	diag_file "$TMP/all.err"
	grep -hs "no response" "$FLEET_DIR"/h*/state/iotriage.log | sed 's/^/# /'
}
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

# --- SIGINT while three hosts wait to create RAM disks: nothing made ---
# The hosts share this kernel and its RAM disk registry (/run/iotriage);
# the test holds the registry's lock, so each host's ramdisk create waits
# for it (up to 30 s) and is interrupted there. Nothing must be made and
# the wait must end at the interrupt, not at the lock's time limit.
ramdisk_lock=/run/iotriage/ramdisk.lock
if ls /dev/iotriage-ramdisk* >/dev/null 2>&1; then
	skip "SIGINT during ramdisk create on three hosts" "RAM disks exist on this machine (another run's)"
else
	mkdir -p /run/iotriage
	# -o: the lock stays with flock itself, not with its sleep, so killing
	# flock frees it (a sleep holding it went on for two minutes, and a
	# later test's ramdisk export waited for it).
	flock -o "$ramdisk_lock" sleep 120 &
	holder=$!
	undo "pkill -P $holder sleep 2>/dev/null; kill $holder 2>/dev/null"
	sleep 0.5
	ip netns exec "$FLEET_NS_C" "$IOTRIAGE" fleet -F "$FLEET_SSH_CONFIG.all" --remote-iotriage "$FLEET_FIX/bin/iotriage" \
		--json h1,h2,h3 -- ramdisk create 16M -y >"$TMP/rd.json" 2>"$TMP/rd.err" &
	pid=$!
	waiting=1
	for k in $(seq 100); do
		waiting=0
		for h in h1 h2 h3; do
			grep -qs "RAMDISK: backend" "$FLEET_DIR/$h/state/iotriage.log" && [ -n "$(fleetlab_iotriage_pids $h)" ] || waiting=1
		done
		[ $waiting = 0 ] && break
		sleep 0.2
	done
	ok $waiting "ramdisk create runs on three hosts, each waiting for the registry's lock"
	sleep 1
	t0=$(date +%s)
	kill -INT $pid
	wait $pid
	rc=$? t1=$(date +%s)
	ok $((rc != 130)) "SIGINT: the fleet exits 130"
	check "within 10 s of the interrupt, not at the lock's 30 s limit (took $((t1 - t0)) s)" -- test $((t1 - t0)) -le 10
	for h in h1 h2 h3; do
		check "$h: interrupted, its run there ended 130" -- \
			test "$(json "$TMP/rd.json" ".hosts[] | select(.host == \"$h\") | \"\(.status)/\(.document.exit_status)\"")" = interrupted/130
		check "$h: no process left" -- fleetlab_clean $h
	done
	# Other runs on this machine may have RAM disks (or test links) of their
	# own by now: what these runs made would be recorded under their run ids.
	rd_ids=$(json "$TMP/rd.json" '[.hosts[].document.run_id] | join("|")')
	check "three run ids of the hosts' runs" -- test "$(echo "$rd_ids" | tr '|' '\n' | grep -c '^[0-9a-f]\{16\}$')" = 3
	check "no RAM disk made: none in the registry under these runs" -- \
		bash -c "! grep -Eqs 'run_id=($rd_ids)' /run/iotriage/ramdisk/* /run/iotriage/ramdisk/.[!.]*"
	check "and none in their documents" -- jtest "$TMP/rd.json" '[.hosts[].document.devices[]?] | length == 0'
	pkill -P $holder sleep 2>/dev/null
	kill $holder 2>/dev/null
	wait $holder 2>/dev/null
	check "the test's hold on the registry's lock is gone" -- flock -n "$ramdisk_lock" true
fi

finish
