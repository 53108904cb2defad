#!/usr/bin/env bash
# Two iotriage runs at once: two readdisks on loop devices with one database
# and one log (both runs recorded, both documents complete, the log's lines
# whole), also while a third writer holds the database past the 5 s read
# timeout; and two `ramdisk create`s at once on zram (one batch made, the
# other refused with a clear message; no device without a record).
. "$(dirname "$0")/lib.sh"

if ! need_root; then skip "concurrency" "needs root for loop and zram devices"; exit 0; fi

a=$(make_loop 64M)
b=$(make_loop 64M)
match=(--match "${a#/dev/}" --match "${b#/dev/}")
db=$IOTRIAGE_STATE_DIR/iotriage.db
log=$IOTRIAGE_STATE_DIR/iotriage.log

# readdisks RESULT: one run's document into $TMP/RESULT.json
readdisks() { "$IOTRIAGE" readdisks "${match[@]}" --size 16M --json >"$TMP/$1.json" 2>"$TMP/$1.err"; echo $? >"$TMP/$1.st"; }
complete() { jtest "$TMP/$1.json" '.command == "readdisks" and (.devices | length == 2) and .summary.ok == 2 and .exit_status == 0 and has("finished_at")'; }
complete_both() { complete "$1" && complete "$2"; }

for round in 1 2 3; do
	readdisks "r${round}a" & readdisks "r${round}b" &
	wait
	check "round $round: both runs exit 0" -- test "$(cat "$TMP/r${round}a.st")$(cat "$TMP/r${round}b.st")" = 00
	check "round $round: both documents complete" -- complete_both "r${round}a" "r${round}b"
	bash -c "jq -e .run_id '$(json "$TMP/r${round}a.json" .results_file)' && jq -e .run_id '$(json "$TMP/r${round}b.json" .results_file)'" >/dev/null 2>&1; ok $? "round $round: both results files hold a document"
done
runs=$(sqlite3 "$db" 'SELECT count(*) FROM runs')
check "the database holds all six runs (got $runs)" -- test "$runs" -eq 6
check "each run's results are in it (two disks per run)" -- \
	test "$(sqlite3 "$db" "SELECT count(DISTINCT run_id) FROM results")" -eq 6
check "no ERR line in either run" -- bash -c "! grep -h ERR '$TMP'/r*.err"
check "every log line is whole: one {date, LEVEL, iotriage} prefix per line" -- \
	bash -c "! grep -v -E '^\{[^}]+, (INFO|WARN|ERR), iotriage\} ' '$log'"
check "the log says each run's results were saved (six lines)" -- test "$(grep -c 'Results saved in' "$log")" -eq 6

# A writer that keeps the database locked for 7 s (longer than the 5 s read
# timeout) while two runs end: both wait for it and are recorded.
printf 'BEGIN IMMEDIATE;\nINSERT INTO runs(id, command) SELECT id, command FROM runs WHERE 0;\n.shell touch %s; sleep 7\nCOMMIT;\n' \
	"$TMP/locked" | sqlite3 "$db" >/dev/null 2>&1 &
locker=$!
for _ in $(seq 1 50); do [ -e "$TMP/locked" ] && break; sleep 0.1; done
check "another writer holds the database" -- test -e "$TMP/locked"
t0=$(date +%s)
readdisks la & pa=$!
readdisks lb & pb=$!
wait "$pa" "$pb"
took=$(($(date +%s) - t0))
wait "$locker"
check "they waited for it (${took} s, more than the 5 s read timeout)" -- test "$took" -ge 5
check "both runs exit 0 after waiting for it" -- test "$(cat "$TMP/la.st")$(cat "$TMP/lb.st")" = 00
check "and both are recorded" -- test "$(sqlite3 "$db" 'SELECT count(*) FROM runs')" -eq 8
check "both documents complete" -- complete_both la lb

# Two ramdisk creates at once (zram): one batch, one record, no stray device.
if [ ! -e /sys/class/zram-control/hot_add ]; then
	skip "two ramdisk creates" "zram is not in this kernel"
elif ls /dev/iotriage-ramdisk* >/dev/null 2>&1 || ls /run/iotriage/ramdisk/iotriage-ramdisk* >/dev/null 2>&1; then
	skip "two ramdisk creates" "iotriage RAM disks exist already; not touching them"
else
	undo "'$IOTRIAGE' ramdisk destroy --force -y"
	before=$(ls /sys/block | grep -c '^zram')
	"$IOTRIAGE" ramdisk create 16M --backend zram -y >/dev/null 2>"$TMP/c1.err" & p1=$!
	"$IOTRIAGE" ramdisk create 16M --backend zram -y >/dev/null 2>"$TMP/c2.err" & p2=$!
	wait "$p1"; s1=$?
	wait "$p2"; s2=$?
	check "one create succeeds, the other fails (exits $s1 and $s2)" -- test $((s1 == 0 ? 1 : 0)) -ne $((s2 == 0 ? 1 : 0))
	# Which refusal depends on timing: during the first create (its claim is
	# held) or after it (its RAM disk exists). Either names what is there.
	check "the other refuses, naming the RAM disks the first made" -- \
		grep -Eq "another iotriage run created RAM disks meanwhile \(/dev/iotriage-ramdisk0 -> /dev/zram[0-9]*, zram\)|RAM disk\(s\) already exist: .*iotriage-ramdisk0" "$TMP/c1.err" "$TMP/c2.err"
	check "one record, one link" -- test "$(ls /run/iotriage/ramdisk/ | grep -c '^iotriage-ramdisk[0-9]*$')-$(ls /dev | grep -c '^iotriage-ramdisk')" = 1-1
	kname=$(sed -n 's/^kname=//p' /run/iotriage/ramdisk/iotriage-ramdisk0)
	check "the record names the device the link points to" -- test "$(readlink /dev/iotriage-ramdisk0)" = "/dev/$kname"
	check "exactly one zram device was added (no device without a record)" -- \
		test "$(ls /sys/block | grep -c '^zram')" -eq $((before + 1))
	"$IOTRIAGE" ramdisk destroy -y >/dev/null 2>&1
	ok $? "ramdisk destroy removes it"
	check "and no zram device is left over" -- test "$(ls /sys/block | grep -c '^zram')" -eq "$before"
fi
finish
