#!/usr/bin/env bash
# Golden output: show, compare and report --csv on run documents checked into
# tests/data/golden/ (real runs: a loop device read three times, the third
# under an 8 MiB/s cgroup limit, and readdisks over four loop devices with
# one throttled). The documents are loaded into a fresh database with the
# load_runs helper, and each command's output must equal the checked-in
# file byte for byte: a change to a renderer or to what the documents are
# read as shows here as a diff. fleet.json is a real fleet run over the
# namespaced hosts of tests/cli/test_fleet.sh (h4's disk slowed; hk, hm, hf,
# hd failing each in its own way): its hosts as show, compare --hosts and
# report give them.
#
# After an intended change of output, regenerate the expected files with
#   GOLDEN_UPDATE=1 IOTRIAGE=build/iotriage bash tests/cli/test_golden.sh
# and review the diff before committing it.
. "$(dirname "$0")/lib.sh"

data=$(cd "$(dirname "$0")/../data/golden" && pwd)
load_runs=$(dirname "$IOTRIAGE")/load_runs
if [ ! -x "$load_runs" ]; then skip "golden output" "no load_runs helper next to $IOTRIAGE"; exit 0; fi
DB=$TMP/golden.db

"$load_runs" "$DB" "$data"/run-a.json "$data"/run-b.json "$data"/run-c.json "$data"/readdisks.json \
	"$data"/fleet.json >"$TMP/ids"
ok $? "the documents load into a fresh database"
a=$(sed -n 1p "$TMP/ids") b=$(sed -n 2p "$TMP/ids") c=$(sed -n 3p "$TMP/ids") rd=$(sed -n 4p "$TMP/ids") fl=$(sed -n 5p "$TMP/ids")

# golden NAME COMMAND...: the command's stdout against data/golden/NAME.
golden() {
	local name=$1; shift
	"$IOTRIAGE" --db "$DB" "$@" >"$TMP/$name" 2>"$TMP/$name.err"
	local status=$?
	if [ -n "${GOLDEN_UPDATE:-}" ]; then
		cp "$TMP/$name" "$data/$name"
	fi
	if [ "$status" -ne 0 ]; then
		ok 1 "$name: '$*' exits 0 (exit $status: $(head -c 200 "$TMP/$name.err"))"
		return
	fi
	if cmp -s "$TMP/$name" "$data/$name"; then
		ok 0 "$name: '$*' prints the expected output"
	else
		ok 1 "$name: '$*' prints the expected output"
		diff -u "$data/$name" "$TMP/$name" | head -n 40 | sed 's/^/# /'
	fi
}

golden show-run.txt show "$a"
golden show-readdisks.txt show "$rd"
golden compare.txt compare "$a" "$b" "$c"
golden compare-repeats.txt compare "$a+$b" "$c"
golden compare.json compare "$a" "$c" --json
golden show-fleet.txt show "$fl"
golden show-fleet-host.txt show "$fl@h4"
golden compare-hosts.txt compare --hosts "$fl"
golden compare-hosts.json compare --hosts --base h1 "$fl" --json
"$IOTRIAGE" --db "$DB" report "$a" "$b" "$c" "$rd" --csv "$TMP/report.csv" >/dev/null 2>&1
ok $? "report --csv exits 0"
[ -n "${GOLDEN_UPDATE:-}" ] && cp "$TMP/report.csv" "$data/report.csv"
cmp -s "$TMP/report.csv" "$data/report.csv"
ok $? "report --csv writes the expected rows" || diff -u "$data/report.csv" "$TMP/report.csv" | head -n 40 | sed 's/^/# /'
# A fleet run: each host's rows under its host, and its samples labelled so.
"$IOTRIAGE" --db "$DB" report "$fl" --csv "$TMP/report-fleet.csv" --prom "$TMP/report-fleet.prom" >/dev/null 2>&1
ok $? "report FLEET_RUN --csv --prom exits 0"
for f in report-fleet.csv report-fleet.prom; do
	[ -n "${GOLDEN_UPDATE:-}" ] && cp "$TMP/$f" "$data/$f"
	cmp -s "$TMP/$f" "$data/$f"
	ok $? "$f: the expected rows" || diff -u "$data/$f" "$TMP/$f" | head -n 40 | sed 's/^/# /'
done
finish
