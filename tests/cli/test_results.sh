#!/usr/bin/env bash
# history, show, compare and report on real runs in a real SQLite file:
# two runs of one workload on one loop device (capped at 64 MiB/s) compare
# as "not significant"; the same workload on the device throttled to
# 8 MiB/s with a cgroup v1 blkio rule is reported as a drop. The CSV has one row per result, the Prometheus file
# passes promtool, readdisks' outlier is highlighted in the HTML report.
# The database: forward migration from schema 1, and a newer version, a
# corrupt file and a locked database each give a clear error and leave the
# file as it was.
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "results" "needs root for loop devices and cgroups"; exit 0; fi
DB=$IOTRIAGE_STATE_DIR/iotriage.db

# Nothing stored yet: history says so and creates no database.
"$IOTRIAGE" history >"$TMP/empty.txt" 2>&1
ok $? "history with no database exits 0"
check "and says there are no runs" -- grep -q "No runs recorded yet" "$TMP/empty.txt"
check "without creating the database" -- test ! -e "$DB"
"$IOTRIAGE" show 0123456789abcdef >/dev/null 2>"$TMP/show-none.err"
ok $((! $?)) "show of an unknown run fails"

dev=$(make_loop 64M)
majmin=$(lsblk -dno MAJ:MIN "$dev" | tr -d ' ')
# The backing file was just written: flush it and read the device once, so
# run A does not pay for writeback and a cold first pass that B is spared.
sync
dd if="$dev" of=/dev/null bs=1M iflag=direct status=none
# A time-capped sequential read (64M span, re-read), sampled every 250 ms.
workload=(run "$dev" --rw read --bs 64k --iodepth 4 --size 64M --io-size 64G --runtime 3s --sample-interval 250ms --json)
# A and B read through a 64 MiB/s cap: the loop device's own speed is this
# shared machine's disk, which swung by 47% between two back-to-back runs
# under ASan once (900 and 1324 MB/s), past the 40% floor of single runs.
ab_cg=$(make_cgroup "$majmin 67108864")
run_in_cgroup "$ab_cg" "$IOTRIAGE" "${workload[@]}" >"$TMP/a.json" 2>/dev/null
ok $? "run A (the device capped at 64 MiB/s)"
run_in_cgroup "$ab_cg" "$IOTRIAGE" "${workload[@]}" >"$TMP/b.json" 2>/dev/null
ok $? "run B, the same workload"
check "run A kept per-interval bandwidth samples" -- \
	jtest "$TMP/a.json" '.result.samples.count >= 10 and .result.samples.stddev_bw_bytes_per_s >= 0 and (.result.samples.bw_bytes_per_s | length) == .result.samples.count'
cg=$(make_cgroup "$majmin 8388608")
run_in_cgroup "$cg" "$IOTRIAGE" "${workload[@]}" >"$TMP/c.json" 2>/dev/null
ok $? "run C, on the device throttled to 8 MiB/s"
a=$(json "$TMP/a.json" .run_id) b=$(json "$TMP/b.json" .run_id) c=$(json "$TMP/c.json" .run_id)
diag "A $(json "$TMP/a.json" .result.bw_bytes_per_s) B/s, B $(json "$TMP/b.json" .result.bw_bytes_per_s) B/s, C $(json "$TMP/c.json" .result.bw_bytes_per_s) B/s"

"$IOTRIAGE" history >"$TMP/hist.txt"
ok $? "history lists runs"
check "history shows the three runs, newest first" -- \
	bash -c "grep -c '^[0-9a-f]\{16\}  run ' '$TMP/hist.txt' | grep -qx 3 && sed -n 2p '$TMP/hist.txt' | grep -q '^$c'"
"$IOTRIAGE" history --device "$dev" --json >"$TMP/hist-dev.json"
check "history --device finds the runs on the loop device" -- jtest "$TMP/hist-dev.json" '.runs | length == 3'
"$IOTRIAGE" history --device /dev/nonexistent --json >"$TMP/hist-nodev.json"
check "history --device with another device finds none" -- jtest "$TMP/hist-nodev.json" '.runs | length == 0'
"$IOTRIAGE" history --command disks --json >"$TMP/hist-cmd.json"
check "history --command filters by command" -- jtest "$TMP/hist-cmd.json" '.runs | length == 0'
"$IOTRIAGE" history --since 2000-01-01 --until "$(date -u +%Y-%m-%d)" --json >"$TMP/hist-date.json"
check "history --since/--until takes dates (today included)" -- jtest "$TMP/hist-date.json" '.runs | length == 3'
"$IOTRIAGE" history --until 2000-01-01 --json >"$TMP/hist-old.json"
check "history --until before the runs finds none" -- jtest "$TMP/hist-old.json" '.runs | length == 0'
"$IOTRIAGE" history --since yesterday >/dev/null 2>"$TMP/bad-date.err"
check "a bad date is a usage error (exit 2) saying what is expected" -- \
	bash -c "[ $? -eq 2 ] && grep -q 'expected YYYY-MM-DD' '$TMP/bad-date.err'"

"$IOTRIAGE" show "$a" --json >"$TMP/show-a.json"
check "show --json prints the stored document exactly" -- cmp -s "$TMP/show-a.json" "$TMP/a.json"
"$IOTRIAGE" show "${a:0:8}" >"$TMP/show-a.txt"
ok $? "show takes an id prefix"
check "show's table has the bandwidth of the run" -- grep -q "run read 64K qd4 x1  bandwidth" "$TMP/show-a.txt"

"$IOTRIAGE" compare "$a" "$b" --json >"$TMP/ab.json"
ok $? "compare A B"
check "the same workload on the same device is not significant" -- \
	jtest "$TMP/ab.json" '.comparisons[] | select(.metric == "bandwidth") | .verdict == "not significant" and .basis == "noise"'
"$IOTRIAGE" compare "$a" "$c" --json >"$TMP/ac.json"
check "against the throttled run it reports the drop (worse, below -50%)" -- \
	jtest "$TMP/ac.json" '.comparisons[] | select(.metric == "bandwidth") | .verdict == "worse" and .change_percent < -50'
"$IOTRIAGE" compare "$a" "$c" >"$TMP/ac.txt"
check "the table says worse" -- grep -q "bandwidth .* worse" "$TMP/ac.txt"
"$IOTRIAGE" compare "$a" >/dev/null 2>&1
ok $(($? != 2)) "compare with one run is a usage error"

# Repeat runs, ID+ID+ID: steady runs (cgroup read rates) 25% apart are under
# the 40% floor between single runs, and stand out between three a side;
# two sets of the same workload do not.
short=(run "$dev" --rw read --bs 64k --iodepth 4 --size 64M --io-size 64G --runtime 2s --sample-interval 250ms --json)
# Each run in a fresh cgroup: a reused one carries its throttle's budget over
# from the last run, and the runs then differ by up to 8%.
rep() { # rep BPS N: N runs, each in a new cgroup reading at BPS; their ids joined by '+'
	local ids=() i cg
	for i in $(seq 1 "$2"); do
		cg=$(make_cgroup "$majmin $1") || return 1
		run_in_cgroup "$cg" "$IOTRIAGE" "${short[@]}" >"$TMP/rep.json" 2>/dev/null || return 1
		rmdir "$cg"
		ids+=("$(json "$TMP/rep.json" .run_id)")
	done
	(IFS=+; echo "${ids[*]}")
}
x=$(rep 16777216 3) y=$(rep 16777216 3) z=$(rep 12582912 3)
check "nine throttled runs made" -- test -n "$x" -a -n "$y" -a -n "$z"
"$IOTRIAGE" compare "${x%%+*}" "${z%%+*}" --json >"$TMP/single.json"
check "16 against 12 MiB/s in single runs: under the 40% floor, not significant" -- \
	jtest "$TMP/single.json" '.comparisons[] | select(.metric == "bandwidth") | .verdict == "not significant" and .change_percent < -10'
"$IOTRIAGE" compare "$x" "$z" --json >"$TMP/rep-xz.json"
ok $? "compare ID+ID+ID ID+ID+ID"
check "between three repeats a side the drop is worse, judged on the spread between runs" -- \
	jtest "$TMP/rep-xz.json" '.comparisons[] | select(.metric == "bandwidth") | .verdict == "worse" and .basis == "noise between repeat runs" and .repeats_a == 3 and .repeats_b == 3 and .noise_samples_a == 3' ||
	diag "$(jq -c '.comparisons[] | select(.metric == "bandwidth") | [.value_a, .value_b, .noise_sd_a, .noise_sd_b, .threshold_percent, .verdict]' "$TMP/rep-xz.json")"
check "all six runs are listed with their side" -- jtest "$TMP/rep-xz.json" '[.runs[].side] == [0, 0, 0, 1, 1, 1]'
"$IOTRIAGE" compare "$x" "$y" --json >"$TMP/rep-xy.json"
check "two repeat sets of the same workload: not significant" -- \
	jtest "$TMP/rep-xy.json" '.comparisons[] | select(.metric == "bandwidth") | .verdict == "not significant"' ||
	diag "$(jq -c '.comparisons[] | select(.metric == "bandwidth") | [.value_a, .value_b, .noise_sd_a, .noise_sd_b, .threshold_percent]' "$TMP/rep-xy.json")"
"$IOTRIAGE" compare "$x" "$z" >"$TMP/rep-xz.txt"
check "the table heads each side with its number of runs" -- grep -q "A (3 runs) .*B (3 runs)" "$TMP/rep-xz.txt"
"$IOTRIAGE" compare "$a+" "$b" >/dev/null 2>"$TMP/rep-bad.err"
check "an empty id in a set is a usage error" -- bash -c "[ $? -eq 2 ] && grep -q \"empty run id\" '$TMP/rep-bad.err'"
"$IOTRIAGE" compare "$a+0000000000000000" "$b" >/dev/null 2>"$TMP/rep-unknown.err"
check "an unknown id in a set fails (exit 1), naming it" -- bash -c "[ $? -eq 1 ] && grep -q \"no run '0000000000000000'\" '$TMP/rep-unknown.err'"
"$IOTRIAGE" compare "$a+${x%%+*}" "$b" --json >/dev/null 2>"$TMP/rep-warn.err"
check "runs started differently are combined with a warning naming them" -- grep -q "warning: runs $a and ${x%%+*}" "$TMP/rep-warn.err"

"$IOTRIAGE" report "$a" "$b" "$c" --csv "$TMP/r.csv" --prom "$TMP/r.prom" --html "$TMP/r.html" 2>/dev/null
ok $? "report --csv --prom --html"
check "CSV: a header and one row per result (bandwidth, p50, p99 and p99.9 latency: 4 per run)" -- \
	test "$(wc -l <"$TMP/r.csv")" -eq 13
check "CSV: each run's p50 is its document's" -- \
	test "$(grep "^$a,.*,p50 latency," "$TMP/r.csv" | cut -d, -f10)" = "$(jq '.result.read.lat_ns.p50' "$TMP/a.json")"
check "CSV: the columns are fixed" -- \
	bash -c "head -1 '$TMP/r.csv' | grep -q '^run_id,command,started_at,host,test,metric,unit,higher_is_better,target,value,'"
check "CSV: every row parses with the header's 15 fields" -- \
	python3 -c "import csv,sys; r=list(csv.reader(open('$TMP/r.csv'))); sys.exit(not all(len(x)==15 for x in r))"
if command -v promtool >/dev/null; then
	promtool check metrics <"$TMP/r.prom" >"$TMP/promtool.out" 2>&1
	ok $? "promtool check metrics passes"
else
	skip "promtool check metrics" "promtool is not installed (Debian package prometheus)"
fi
check "the Prometheus file has each run's bandwidth" -- \
	test "$(grep -c '^iotriage_bandwidth_bytes_per_second{' "$TMP/r.prom")" -eq 3
check "the HTML report's change table judges C worse and B not significant" -- \
	bash -c "grep -q 'class=\"worse\">worse' '$TMP/r.html' && grep -q 'class=\"not-significant\">not significant' '$TMP/r.html'"
# The latency percentile curve: one per run, through its document's p50..p99.99.
check "HTML: a latency percentile curve per run" -- test "$(grep -c '<svg class="curve"' "$TMP/r.html")" -eq 3
check "HTML: run A's curve goes through its document's p50, p90, p99, p99.9 and p99.99, in order" -- \
	python3 - "$TMP/r.html" "$TMP/a.json" "${a:0:8}" <<'PY'
import json, re, sys
html, doc, run = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), sys.argv[3]
sec = re.search(r'<section class="latency-curves" id="latency-%s">(.*?)</section>' % run, html, re.S).group(1)
got = [(p, float(v)) for p, v in re.findall(r'<circle class="point"[^>]* data-percentile="([^"]+)" data-value="([^"]+)"', sec)]
lat = doc["result"]["read"]["lat_ns"]
want = [(k, float(lat[k])) for k in ("p50", "p90", "p99", "p99.9", "p99.99")]
ys = [float(y) for y in re.findall(r'<circle class="point" cx="[^"]+" cy="([^"]+)"', sec)]
ok = len(got) == 5 and all(g[0] == w[0] and abs(g[1] - w[1]) <= 1e-5 * w[1] for g, w in zip(got, want))
ok = ok and len(sec.split('<polyline class="curve-line"')) == 2 and all(a >= b for a, b in zip(ys, ys[1:]))
sys.exit(not ok)
PY
chromium=$(command -v chromium || true)
if [ -n "$chromium" ]; then
	profile=$(mktemp -d /tmp/iotriage-chromium.XXXXXX)
	undo "rm -rf $profile"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$profile" --enable-logging=stderr --v=0 --dump-dom "file://$TMP/r.html" \
		>"$TMP/r-dom.html" 2>"$TMP/r-chrome.err"
	ok $? "chromium renders the report (--dump-dom)"
	check "chromium: three curves with 5 points each, and no console message" -- \
		python3 -c "
import re,sys
dom=open('$TMP/r-dom.html').read()
svgs=re.findall(r'<svg class=\"curve\".*?</svg>', dom, re.S)
sys.exit(not (len(svgs)==3 and all(len(re.findall(r'<circle class=\"point\"', c))==5 for c in svgs) and 'CONSOLE' not in open('$TMP/r-chrome.err').read()))"
else
	skip "chromium" "chromium is not installed (scripts/install-test-deps.sh installs it)"
fi
"$IOTRIAGE" report "$a" --prom "$TMP/r.csv/x.prom" 2>"$TMP/prom-bad.err"
ok $((! $?)) "a report file that cannot be written fails"
check "and says why" -- grep -q "cannot write '$TMP/r.csv/x.prom'" "$TMP/prom-bad.err"

# readdisks: one bar per disk, the throttled one highlighted as an outlier.
"$IOTRIAGE" demo --count 4 --device-size 32M --slow-rate 4M --json >"$TMP/demo.json" 2>/dev/null
ok $? "demo (4 loop devices, one throttled)"
"$IOTRIAGE" report "$(json "$TMP/demo.json" .run_id)" --html "$TMP/demo.html" 2>/dev/null
check "four per-disk charts (bandwidth, p50, p99, p99.9), four bars each, the same disk the outlier in each" -- \
	bash -c "[ \$(grep -c '<rect class=\"bar' '$TMP/demo.html') -eq 16 ] && [ \$(grep -c '<rect class=\"bar outlier\"' '$TMP/demo.html') -eq 4 ]"

# ---- latency rows of presets, benchpool's built-in engine and volumes ----
# Real runs on a file and on an ext4 file system on a loop device: each
# carries lat_ns in its document, and show, compare and report give it as
# p50, p99 and p99.9 rows (dd's figures, which have none, get none).
"$IOTRIAGE" presets cdm "$TMP/preset.bin" --size 8M --runtime 200ms --loops 3 --json >"$TMP/pre.json" 2>/dev/null
ok $? "presets cdm on a file, 3 loops"
pre=$(json "$TMP/pre.json" .run_id)
e=$(make_loop 128M)
lm=$TMP/latfs
mkfs.ext4 -q -F "$e" >/dev/null 2>&1 && mkdir "$lm" && mount "$e" "$lm"
ok $? "ext4 on a loop device, mounted"
undo "umount '$lm'"
"$IOTRIAGE" benchpool "$lm" 16M --tests dd,builtin --runtime 2 --json >"$TMP/bp.json" 2>/dev/null
ok $? "benchpool --tests dd,builtin on the ext4 directory"
"$IOTRIAGE" volumes --match "$lm" --size 8M --runtime 2s --json >"$TMP/vol.json" 2>/dev/null
ok $? "volumes on the ext4 mount"
bp=$(json "$TMP/bp.json" .run_id) vol=$(json "$TMP/vol.json" .run_id)
"$IOTRIAGE" report "$pre" "$bp" "$vol" --csv "$TMP/lat.csv" --prom "$TMP/lat.prom" --html "$TMP/lat.html" 2>/dev/null
ok $? "report --csv --prom --html of the three"
# csv_value TEST METRIC TARGET: the value column of that row.
csv_value() {
	python3 -c 'import csv,sys; print("\n".join(r[9] for r in csv.reader(open(sys.argv[1])) if r[4:6] == sys.argv[2:4] and r[8] == sys.argv[4]))' \
		"$TMP/lat.csv" "$@"
}
t=$(json "$TMP/pre.json" '.preset.tests[] | select(.name == "RND4K Q32T1 read") | .name')
check "presets: a test's IOPS row is the mean of its loops, on its target" -- \
	awk -v c="$(csv_value "preset cdm: $t" IOPS "$TMP/preset.bin")" \
	-v d="$(json "$TMP/pre.json" '.preset.tests[] | select(.name == "RND4K Q32T1 read") | .iops_mean')" \
	'BEGIN { exit !(d > 0 && c - d < d * 1e-9 && d - c < d * 1e-9) }'
check "presets: its p50 and p99.9 rows are its document's" -- \
	test "$(csv_value "preset cdm: $t" "p50 latency" "$TMP/preset.bin") $(csv_value "preset cdm: $t" "p99.9 latency" "$TMP/preset.bin")" = \
	"$(json "$TMP/pre.json" '.preset.tests[] | select(.name == "RND4K Q32T1 read") | "\(.lat_ns.p50) \(.lat_ns["p99.9"])"')"
check "presets: 8 tests x (IOPS, bandwidth, p50, p99, p99.9)" -- test "$(grep -c "^$pre," "$TMP/lat.csv")" -eq 40
bt=$(json "$TMP/bp.json" '.results[] | select(.test == "builtin") | .figures[0].pass')
check "benchpool: the built-in engine's p99 row is its document's" -- \
	test "$(csv_value "benchpool builtin $bt" "p99 latency" "$lm")" = "$(json "$TMP/bp.json" ".results[] | select(.test == \"builtin\") | .figures[0].lat_ns.p99")"
check "benchpool: every built-in figure has its 3 latency rows, dd's none (no latency is invented)" -- \
	test "$(grep -c "^$bp,.*,benchpool builtin .*latency," "$TMP/lat.csv")/$(grep -c "^$bp,.*,benchpool dd .*latency," "$TMP/lat.csv")" = \
	"$(($(json "$TMP/bp.json" '[.results[] | select(.test == "builtin") | .figures[] | select(.lat_ns)] | length') * 3))/0"
check "volumes: the volume's p50 row is its document's" -- \
	test "$(csv_value "volumes read" "p50 latency" "$lm")" = "$(json "$TMP/vol.json" '.volumes[0].lat_ns.p50')"
if command -v promtool >/dev/null; then
	promtool check metrics <"$TMP/lat.prom" >"$TMP/promtool-lat.out" 2>&1
	ok $? "promtool check metrics passes on them"
fi
check "Prometheus: the presets' IOPS and every latency family, for all three commands" -- \
	bash -c "[ \$(grep -c '^iotriage_iops{run_id=\"$pre\"' '$TMP/lat.prom') -eq 8 ] && for c in presets benchpool volumes; do grep -q \"^iotriage_latency_p99_seconds{.*command=\\\"\$c\\\"\" '$TMP/lat.prom' || exit 1; done"
check "HTML: latency charts for each (lower is better)" -- \
	bash -c "grep -q 'preset cdm: $t: p99 latency' '$TMP/lat.html' && grep -q 'benchpool builtin $bt: p99 latency' '$TMP/lat.html' && grep -q 'volumes read: p99.9 latency' '$TMP/lat.html'"
"$IOTRIAGE" show "$vol" >"$TMP/show-vol.txt"
check "show lists the volume's latency" -- grep -Eq 'volumes read +p99 latency .* (us|ms)' "$TMP/show-vol.txt"
"$IOTRIAGE" compare "$pre" "$pre" --json >"$TMP/cmp-pre.json"
check "compare pairs the presets' latency rows (not judged: no samples of their own)" -- \
	jtest "$TMP/cmp-pre.json" '[.comparisons[] | select(.metric == "p99 latency")] | length == 8 and all(.verdict == "not judged")'
check "and judges the IOPS on the spread of the loops" -- \
	jtest "$TMP/cmp-pre.json" '[.comparisons[] | select(.metric == "IOPS")] | length == 8 and all(.noise_samples_a == 3 and .verdict == "not significant")'

# ---- the database file ----
sum() { sha256sum "$1" | cut -d' ' -f1; }

# Forward migration: a schema-1 file (before baselines) with one run.
old=$TMP/old.db
sqlite3 "$old" "CREATE TABLE runs (id TEXT PRIMARY KEY NOT NULL, command TEXT, argv TEXT, started_at INTEGER, finished_at INTEGER, exit_status INTEGER, results_file TEXT, document TEXT);
CREATE TABLE devices (id INTEGER PRIMARY KEY, identity_key TEXT NOT NULL UNIQUE, kname TEXT, vendor TEXT, model TEXT, serial TEXT, wwn TEXT, size_bytes INTEGER, first_seen INTEGER, last_seen INTEGER);
CREATE TABLE results (id INTEGER PRIMARY KEY, run_id TEXT NOT NULL REFERENCES runs(id), device_id INTEGER NULL REFERENCES devices(id), test TEXT, path TEXT, status TEXT, reason TEXT, bytes INTEGER, seconds REAL, bw_bytes_per_s REAL, iops REAL, params TEXT);
INSERT INTO runs VALUES ('00000000000000aa', 'readdisk', 'iotriage readdisk /dev/x', 1700000000, 1700000001, 0, NULL, '{\"command\":\"readdisk\",\"run_id\":\"00000000000000aa\"}');
PRAGMA user_version = 1;"
"$IOTRIAGE" --db "$old" history --json >"$TMP/old.json"
ok $? "history on a schema-1 database"
check "it lists the old run" -- jtest "$TMP/old.json" '.runs[0].run_id == "00000000000000aa"'
check "and the file was migrated forward (user_version 4: baselines and iops_baselines tables, runs.host)" -- \
	bash -c "[ \$(sqlite3 '$old' 'PRAGMA user_version') = 4 ] && sqlite3 '$old' .tables | grep -qw baselines && sqlite3 '$old' .tables | grep -qw iops_baselines && sqlite3 '$old' 'SELECT host FROM runs' >/dev/null"

# A newer schema than this build knows: refused, untouched, by readers and writers.
newer=$TMP/newer.db
cp "$DB" "$newer"
sqlite3 "$newer" "PRAGMA user_version = 99"
before=$(sum "$newer")
"$IOTRIAGE" --db "$newer" history >/dev/null 2>"$TMP/newer.err"
ok $(($? != 1)) "history on a newer schema exits 1"
check "saying it was written by a newer iotriage" -- grep -q "newer iotriage" "$TMP/newer.err"
"$IOTRIAGE" --db "$newer" run "$dev" --size 4M --json >"$TMP/newer-run.json" 2>"$TMP/newer-run.err"
ok $(($? != 1)) "a run that cannot record itself exits 1"
check "and says why" -- grep -q "newer iotriage" "$TMP/newer-run.err"
check "its results file is still written" -- jtest "$(json "$TMP/newer-run.json" .results_file)" '.command == "run"'
check "the newer file is unchanged" -- test "$(sum "$newer")" = "$before"

# A corrupt file: clear error, unchanged.
corrupt=$TMP/corrupt.db
head -c 65536 /dev/urandom >"$corrupt"
before=$(sum "$corrupt")
"$IOTRIAGE" --db "$corrupt" history >/dev/null 2>"$TMP/corrupt.err"
ok $(($? != 1)) "history on a corrupt file exits 1"
check "saying it is not a database or is corrupt" -- grep -q "not an iotriage database or is corrupt" "$TMP/corrupt.err"
"$IOTRIAGE" --db "$corrupt" run "$dev" --size 4M >/dev/null 2>&1
check "a run does not overwrite it" -- test "$(sum "$corrupt")" = "$before"

# A locked database: another process holds an exclusive lock until killed.
locked=$TMP/locked.db
cp "$DB" "$locked"
before=$(sum "$locked")
runs_before=$(sqlite3 "$locked" "SELECT count(*) FROM runs")
(echo "BEGIN EXCLUSIVE; SELECT count(*) FROM runs;"; sleep 30; echo "COMMIT;") | sqlite3 "$locked" >/dev/null &
holder=$!
undo "kill $holder"
sleep 1
"$IOTRIAGE" --db "$locked" history >/dev/null 2>"$TMP/locked.err"
ok $(($? != 1)) "history on a locked database exits 1"
check "saying it is locked" -- grep -q "locked by another process" "$TMP/locked.err"
"$IOTRIAGE" --db "$locked" run "$dev" --size 4M >/dev/null 2>"$TMP/locked-run.err"
ok $(($? != 1)) "a run against the locked database exits 1"
check "and says the database is locked" -- grep -q "locked by another process" "$TMP/locked-run.err"
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
check "nothing was written to the locked database" -- \
	bash -c "[ \"\$(sha256sum '$locked' | cut -d' ' -f1)\" = '$before' ] && [ \$(sqlite3 '$locked' 'SELECT count(*) FROM runs') = $runs_before ]"
finish
